// The rematch between two browsers in Hex Shogi 91: an offer from the play controls shows the
// other player a notice that he declines, which clears both pages; an offer from the end screen
// that the other accepts takes both pages into the new game with the colours swapped; a page
// opened on the old game afterwards only links to the rematch, for a player as for a
// spectator; and a hot-seat page starts its rematch at once.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASE, launch, newPage, getJSON, createGame, seatLink, waitActing, waitPly, screenshot,
} from './helpers.mjs';

const T = { timeout: 120000 };

/** The seat this page plays, as it says it: the connection line and the "you" tag. */
async function heldSeat(page) {
  await page.waitForFunction(() => /playing /.test(document.querySelector('#connection').textContent));
  const seat = (await page.locator('#connection').innerText()).match(/playing (\w+)/)[1];
  assert.equal(await page.locator(`.player[data-seat="${seat}"] .tag.you`).innerText(), 'you');
  assert.equal(await page.locator('.player .tag.you').count(), 1);
  return seat;
}

/** Resigns for the page's seat (confirming) and waits for the end screen on every page. */
async function resign(page, ...others) {
  await page.click('#resign');
  await page.click('#confirm-yes');
  for (const p of [page, ...others]) await p.waitForSelector('#game-end[open]');
}

async function textOf(page, selector) {
  return page.locator(selector).innerText();
}

describe('the rematch', { concurrency: false }, () => {
  let browser;
  let a; // the player who asks: Black in the first game
  let b; // the player who answers: White in the first game
  let first; // the first game's id
  let second; // the rematch's id

  before(async () => {
    browser = await launch();
    const created = await createGame({
      variant: 'hexshogi91', clock: null, seats: [{ kind: 'human' }, { kind: 'human' }],
    });
    first = created.id;
    a = await newPage(browser);
    b = await newPage(browser);
    await a.page.goto(BASE + seatLink(created, 'Black'));
    await b.page.goto(BASE + seatLink(created, 'White'));
    await waitActing(a.page, 'Black');
    await b.page.waitForFunction(() => /playing White/.test(document.querySelector('#connection').textContent));
    await a.page.fill('#move-input', 'P-10g');
    await a.page.click('#move-submit');
    await waitPly(b.page, 1);
    await waitActing(b.page, 'White');
  });

  after(async () => {
    await browser?.close();
  });

  test('an offer from the controls is declined: the notice goes, the asker is told', T, async () => {
    const [pa, pb] = [a.page, b.page];
    await resign(pb, pa);
    for (const p of [pa, pb]) await p.click('#end-review');
    // Once the game is over the controls offer a rematch instead of resigning.
    await pa.waitForSelector('#rematch-row:not([hidden])');
    assert.equal(await pa.locator('#game-buttons').isHidden(), true);
    assert.equal(await textOf(pa, '#rematch'), 'Rematch');
    const sounds = Number(await pb.evaluate(() => document.body.dataset.soundCount || 0));
    await pa.click('#rematch');
    await pa.waitForFunction(() => document.querySelector('#rematch').textContent === 'Rematch offered…');
    assert.equal(await pa.locator('#rematch').isDisabled(), true);
    assert.equal(await textOf(pa, '#rematch-status'), 'Waiting for White.');
    assert.equal(await pa.locator('#rematch-offer').isHidden(), true, 'no notice for the one who asked');
    // White hears and sees the offer, and the button that would accept it.
    await pb.waitForSelector('#rematch-offer:not([hidden])');
    assert.equal(await textOf(pb, '#rematch-offer-text'), 'Black offers a rematch.');
    assert.equal(await textOf(pb, '#rematch'), 'Accept the rematch');
    await pb.waitForFunction((n) => Number(document.body.dataset.soundCount) > n, sounds);
    assert.equal(await pb.evaluate(() => document.body.dataset.sound), 'offer');
    await screenshot(pb, 'rematch-offer-notice.png');
    await pb.setViewportSize({ width: 390, height: 844 });
    await screenshot(pb, 'rematch-offer-notice-phone.png');
    await pb.setViewportSize({ width: 1280, height: 900 });
    await pb.click('#rematch-decline');
    await pb.waitForSelector('#rematch-offer', { state: 'hidden' });
    await pa.waitForFunction(() => document.querySelector('#notice').textContent === 'Your rematch offer was declined.');
    await pa.waitForFunction(() => document.querySelector('#rematch').textContent === 'Rematch');
    assert.equal(await pa.locator('#rematch').isDisabled(), false);
    assert.equal(await textOf(pa, '#rematch-status'), 'Your rematch offer was declined.');
    assert.equal(await textOf(pb, '#rematch'), 'Rematch');
    assert.equal(await pb.locator('#notice').isHidden(), true, 'the one who declined needs no word');
    const state = await getJSON(`/api/games/${first}`);
    assert.deepEqual([state.rematch.offered_by, state.rematch.game], [[], null]);
    assert.deepEqual([...pa.errors, ...pb.errors], []);
  });

  test('an offer from the end screen is accepted: both pages go to the new game, colours swapped', T, async () => {
    const [pa, pb] = [a.page, b.page];
    // Opened again, the finished game shows its end screen with the Rematch button.
    await Promise.all([pa.reload(), pb.reload()]);
    for (const p of [pa, pb]) await p.waitForSelector('#game-end[open] #end-rematch:not([hidden])');
    await pa.click('#end-rematch');
    await pa.waitForFunction(() => document.querySelector('#end-rematch-status').textContent === 'Waiting for White.');
    assert.equal(await textOf(pa, '#end-rematch'), 'Rematch offered…');
    await pb.waitForFunction(() => document.querySelector('#end-rematch-status').textContent === 'Black offers a rematch.');
    assert.equal(await textOf(pb, '#end-rematch'), 'Accept the rematch');
    assert.equal(await pb.locator('#end-rematch-decline').isVisible(), true);
    await screenshot(pb, 'rematch-offer-end-screen.png');
    await pb.click('#end-rematch');
    // Both pages move on by themselves, to the same new game.
    await pa.waitForURL((url) => url.pathname !== `/play/${first}`);
    await pb.waitForURL((url) => url.pathname !== `/play/${first}`);
    second = (await getJSON(`/api/games/${first}`)).rematch.game;
    assert.ok(second && second !== first);
    assert.equal(pa.url(), `${BASE}/play/${second}`);
    assert.equal(pb.url(), `${BASE}/play/${second}`);
    // Each now plays the other colour, and sees the board from it.
    assert.equal(await heldSeat(pa), 'White');
    assert.equal(await heldSeat(pb), 'Black');
    assert.equal(await pa.locator('#board svg').getAttribute('data-view-seat'), 'White');
    assert.equal(await pb.locator('#board svg').getAttribute('data-view-seat'), 'Black');
    await waitActing(pb, 'Black');
    assert.match(await textOf(pa, '#turn'), /Black to move/);
    await screenshot(pa, 'rematch-new-game-white.png');
    await screenshot(pb, 'rematch-new-game-black.png');
    // The new game is played: Black's move reaches White.
    await pb.fill('#move-input', 'P-10g');
    await pb.click('#move-submit');
    await waitPly(pa, 1);
    await waitActing(pa, 'White');
    assert.deepEqual([...pa.errors, ...pb.errors], []);
  });

  test('the old game opened later links to the rematch, for a player and a spectator', T, async () => {
    // A player's page on the old game stays there, and offers the way in with his new seat.
    const pa = a.page;
    await pa.goto(`${BASE}/play/${first}`);
    await pa.waitForSelector('#game-end[open] #end-rematch-go:not([hidden])');
    await pa.waitForFunction(() => /playing Black/.test(document.querySelector('#connection').textContent));
    assert.equal(await textOf(pa, '#end-rematch-status'), 'The rematch has started. You play White in it.');
    assert.equal(await pa.locator('#end-rematch').isHidden(), true);
    assert.equal(await pa.locator('#end-rematch-go').getAttribute('href'), `/play/${second}`);
    assert.equal(pa.url(), `${BASE}/play/${first}`, 'no move into the rematch without a click');
    await screenshot(pa, 'rematch-started-old-game.png');
    await pa.click('#end-review');
    assert.equal(await pa.locator('#rematch-started').isVisible(), true);
    await pa.click('#rematch-go');
    await pa.waitForURL(`${BASE}/play/${second}`);
    assert.equal(await heldSeat(pa), 'White');

    // A spectator gets the link too, and watches the rematch through it.
    const watcher = await newPage(browser);
    const ps = watcher.page;
    await ps.goto(`${BASE}/play/${first}`);
    await ps.waitForSelector('#game-end[open] #end-rematch-go:not([hidden])');
    assert.equal(await textOf(ps, '#end-rematch-status'), 'The rematch has started.');
    assert.equal(await ps.locator('#end-rematch').isHidden(), true);
    await ps.click('#end-rematch-go');
    await ps.waitForURL(`${BASE}/play/${second}`);
    await ps.waitForFunction(() => /spectator/.test(document.querySelector('#connection').textContent));
    await waitPly(ps, 1);
    assert.deepEqual([...pa.errors, ...ps.errors], []);
    await watcher.context.close();
  });

  test('a hot-seat page starts its rematch at once, with both seats', T, async () => {
    const created = await createGame({
      variant: 'hexshogi91', clock: null, seats: [{ kind: 'human' }, { kind: 'human' }],
    });
    const tokens = Object.fromEntries(created.seats.map((s) => [s.seat, s.token]));
    const { page, context } = await newPage(browser);
    await page.goto(`${BASE}/play/${created.id}#hotseat=${encodeURIComponent(JSON.stringify(tokens))}`);
    await waitActing(page, 'Black');
    await resign(page);
    await page.click('#end-rematch');
    await page.waitForURL((url) => url.pathname !== `/play/${created.id}`);
    const rematch = (await getJSON(`/api/games/${created.id}`)).rematch;
    assert.deepEqual(rematch.offered_by.sort(), ['Black', 'White']);
    assert.equal(page.url(), `${BASE}/play/${rematch.game}`);
    await waitActing(page, 'Black');
    await page.waitForFunction(() => /hot-seat \((Black, White|White, Black)\)/.test(document.querySelector('#connection').textContent));
    assert.deepEqual(page.errors, []);
    await context.close();
  });
});
