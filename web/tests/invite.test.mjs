// Invitations and clocks that start with play: the creator lands on his own seat with an
// invite panel, gets his friend's link back after leaving, the friend plays from a second
// browser, no URL the server sees carries a token, "My games" lists the game; no clock runs
// before its seat's first move, low time is shown, and a first move that never comes aborts
// the game.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASE, launch, newPage, getJSON, createGame, seatLink, waitPly, waitActing, clickMove, screenshot,
} from './helpers.mjs';

const T = { timeout: 120000 };
/** The server whose humans have two seconds for a first move (scripts/browser-test.sh). */
const IMPATIENT = (process.env.POLYSHOGI_IMPATIENT_URL || '').replace(/\/$/, '');

/** Every URL this context asks the server for, WebSockets included. */
function watchUrls({ context, page }) {
  const urls = [];
  context.on('request', (request) => urls.push(request.url()));
  page.on('websocket', (ws) => urls.push(ws.url()));
  return urls;
}

function clockOf(page, seat) {
  return page.locator(`.player[data-seat="${seat}"] .clock`);
}

/** Creates a timed Sannin game in the lobby of `base`: First human, `middle` 'human' or a bot. */
async function createInLobby(page, base, middle) {
  await page.goto(`${base}/`);
  await page.waitForSelector('#create-button:not([disabled])');
  await page.selectOption('#variant', 'sannin');
  await page.selectOption('#seat-0', 'human');
  const levels = await page.$$eval('#seat-1 option', (options) => options.map((o) => o.value));
  await page.selectOption('#seat-1', middle === 'human' ? 'human' : levels.find((v) => v.startsWith('bot:')));
  await page.selectOption('#seat-2', levels.find((v) => v.startsWith('bot:')));
  await page.check('#use-clock');
  await page.fill('#clock-minutes', '10');
  await page.fill('#clock-increment', '5');
  await page.click('#create-button');
  await waitActing(page, 'First');
  return page.url().match(/\/play\/([^/?#]+)$/)[1];
}

describe('invitations', { concurrency: false }, () => {
  let browser;
  before(async () => { browser = await launch(); });
  after(async () => { await browser?.close(); });

  test('the creator invites a friend, leaves, gets the link back, and both play without a token in any URL', T, async () => {
    const creator = await newPage(browser);
    const creatorUrls = watchUrls(creator);
    const { page } = creator;
    const id = await createInLobby(page, BASE, 'human');
    assert.equal(page.url(), `${BASE}/play/${id}`, 'the address bar shows no token');
    assert.match(await page.locator('#connection').innerText(), /playing First/);
    // The invite panel: Middle's link and the spectators'; Last is a bot and needs none.
    await page.waitForSelector('#invite:not([hidden])');
    assert.deepEqual(await page.$$eval('#invite [data-invite]', (rows) => rows.map((r) => r.dataset.invite)), ['Middle', 'spectator']);
    const friendLink = await page.inputValue('#invite [data-invite="Middle"] input');
    assert.match(friendLink, new RegExp(`^${BASE}/play/${id}#seat=Middle&token=[0-9a-f]{16,}$`));
    assert.equal(await page.inputValue('#invite [data-invite="spectator"] input'), `${BASE}/play/${id}`);
    await page.click('#invite [data-invite="Middle"] button.copy');
    await page.waitForSelector('#invite [data-invite="Middle"] button.copy[data-copied="1"]');
    await screenshot(page, 'invite-panel.png');
    // No clock runs during First's first turn: 10:00, standing still.
    assert.equal(await clockOf(page, 'First').innerText(), '10:00');
    assert.equal(await clockOf(page, 'First').getAttribute('data-running'), '');

    // Back to the lobby: "My games" lists the game; from there, the invite panel again.
    await page.goBack();
    await page.waitForSelector(`#my-games li[data-game="${id}"][data-status="playing"]`);
    const entry = await page.locator(`#my-games li[data-game="${id}"]`).innerText();
    assert.match(entry, /Sannin/);
    assert.match(entry, /you play First/);
    assert.match(entry, /your turn/);
    await screenshot(page, 'lobby-my-games.png', { fullPage: true });
    await page.click(`#my-games li[data-game="${id}"] a`);
    await waitActing(page, 'First');
    await page.waitForSelector('#invite:not([hidden])');
    assert.equal(await page.inputValue('#invite [data-invite="Middle"] input'), friendLink, 'the friend\'s link is back');
    // Hidden, it comes back with the Invite button.
    await page.click('#invite-hide');
    assert.equal(await page.locator('#invite').isVisible(), false);
    await page.click('#invite-open');
    assert.equal(await page.inputValue('#invite [data-invite="Middle"] input'), friendLink);

    // The friend opens his link in another browser: he holds Middle, the token leaves the URL.
    const friend = await newPage(browser);
    const friendUrls = watchUrls(friend);
    await friend.page.goto(friendLink);
    await friend.page.waitForSelector('#connection[data-state="open"]');
    await friend.page.waitForFunction(() => /playing Middle/.test(document.querySelector('#connection').textContent));
    assert.equal(friend.page.url(), `${BASE}/play/${id}`);
    assert.equal(await friend.page.locator('#invite').count(), 0, 'only the creator has an invite panel');
    // A change on the creator's page (Middle comes online) while First's clock still waits.
    await page.waitForSelector('.player[data-seat="Middle"] .conn:not(.off)');
    assert.equal(await clockOf(page, 'First').innerText(), '10:00');

    await clickMove(page, 'P3c-4d');
    await waitActing(friend.page, 'Middle');
    // Middle's first turn: his clock stands at the initial time; First's has its increment.
    assert.equal(await clockOf(friend.page, 'Middle').innerText(), '10:00');
    assert.equal(await clockOf(friend.page, 'Middle').getAttribute('data-running'), '');
    assert.equal(await clockOf(friend.page, 'First').innerText(), '10:05');
    await screenshot(friend.page, 'invite-friend-first-turn.png');
    await clickMove(friend.page, 'S12m-11l');
    await waitPly(page, 3); // Last, a bot, answers
    await waitActing(page, 'First');
    // First's clock runs from his second turn on.
    await page.waitForSelector('.player[data-seat="First"] .clock[data-running="1"]');
    const state = await getJSON(`/api/games/${id}`);
    assert.deepEqual(state.moves.slice(0, 2).map((m) => m.move), ['P3c-4d', 'S12m-11l']);

    // No URL the server saw holds a token.
    const created = await page.evaluate((gameId) => JSON.parse(localStorage.getItem(`polyshogi.created.${gameId}`)), id);
    const tokens = created.seats.filter((s) => s.token).map((s) => s.token);
    assert.equal(tokens.length, 2);
    const seen = [...creatorUrls, ...friendUrls];
    assert.ok(seen.some((u) => u.includes(`/api/games/${id}/ws`)), 'the sockets were watched');
    for (const url of seen) {
      assert.ok(!/token/i.test(url) && tokens.every((t) => !url.includes(t)), `a token in ${url}`);
    }
    assert.deepEqual(page.errors, []);
    assert.deepEqual(friend.page.errors, []);
    await friend.context.close();
    await creator.context.close();
  });

  test('on a phone the invite panel fits and the friend\'s link can be copied', T, async () => {
    const { page, context } = await newPage(browser, {
      viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true,
    });
    await createInLobby(page, BASE, 'human');
    await page.waitForSelector('#invite:not([hidden])');
    const box = await page.locator('#invite').boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 390, 'the panel fits the screen');
    // The board keeps the top of the screen; the panel follows it, still in the first screen.
    const board = await page.locator('#board svg').boundingBox();
    assert.ok(board.y < 150, `the board starts at ${Math.round(board.y)}px`);
    assert.ok(box.y >= board.y + board.height - 1, 'the panel comes under the board');
    assert.ok(box.y < 844, `the panel starts at ${Math.round(box.y)}px, in the first screen`);
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scroll <= 390, `the page is ${scroll}px wide`);
    await screenshot(page, 'phone-invite-panel.png');
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  test('low time turns a clock red and says so', T, async () => {
    // Two seconds each: First's clock runs from his second turn and soon runs low.
    const created = await createGame({
      variant: 'sannin', rules: [], clock: { initial_ms: 2000, increment_ms: 0 },
      seats: [{ kind: 'human' }, { kind: 'bot', level: 'beginner' }, { kind: 'bot', level: 'beginner' }],
    });
    const { page, context } = await newPage(browser);
    await page.goto(BASE + seatLink(created, 'First'));
    await waitActing(page, 'First');
    assert.equal(await clockOf(page, 'First').innerText(), '0:02');
    assert.equal(await clockOf(page, 'First').getAttribute('class'), 'clock', 'not running, not low before the first move');
    // The first turn warns of the abort; the warning goes with the first move.
    assert.equal(await page.locator('#turn .first-move-hint').innerText(), '· make a first move soon, or the game is aborted');
    await clickMove(page, 'P3c-4d');
    assert.equal(await page.locator('#turn .first-move-hint').count(), 0);
    await page.waitForSelector('.player[data-seat="First"] .clock.low');
    assert.match(await clockOf(page, 'First').textContent(), /low time/);
    assert.equal(await clockOf(page, 'First').evaluate((c) => getComputedStyle(c).backgroundColor), 'rgb(198, 40, 40)');
    await screenshot(page, 'clock-low-time.png');
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  test('a first move that never comes aborts the game', T, async () => {
    assert.ok(IMPATIENT, 'POLYSHOGI_IMPATIENT_URL is set by scripts/browser-test.sh');
    const { page, context } = await newPage(browser);
    const id = await createInLobby(page, IMPATIENT, 'bot');
    // First never moves: after two seconds the game ends without result.
    await page.waitForSelector('#game[data-over="1"]');
    const state = await (await fetch(`${IMPATIENT}/api/games/${id}`)).json();
    assert.equal(state.outcome.aborted, true);
    assert.deepEqual(state.outcome.placings, {});
    assert.equal(state.moves.length, 0);
    assert.match(await page.locator('#turn').innerText(), /^Game aborted: First did not make a first move in time$/);
    await page.waitForSelector('#game-end[open]');
    assert.equal(await page.locator('#game-end-h').innerText(), 'Game aborted');
    assert.equal(await page.locator('#game-end-text').innerText(), 'First did not make a first move in time');
    await screenshot(page, 'first-move-abort.png');
    await page.goBack();
    await page.waitForSelector(`#my-games li[data-game="${id}"][data-status="aborted"]`);
    assert.match(await page.locator(`#my-games li[data-game="${id}"]`).innerText(), /aborted/);
    assert.deepEqual(page.errors, []);
    await context.close();
  });
});
