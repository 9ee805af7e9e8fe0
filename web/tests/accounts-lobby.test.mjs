// Players, open games and ratings (issue 16), through the pages only: three players register,
// one opens a rated Sannin game from the lobby form, the other two see it appear in their live
// lobby and take its seats with one click; they chat (one mutes another), play, resign to a
// result; their profiles show the game and ratings that moved the right way; a logged-out
// visitor finds the game in the archive, steps back through its replay and downloads its record.
// Also the account dialog's refusals.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  BASE, ARTIFACTS, launch, newPage, getJSON, createGame, waitActing, waitPly, clickMove, cellsOf, waitViewing, screenshot,
} from './helpers.mjs';

const T = { timeout: 240000 };
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const PASSWORD = 'correct horse 16';
/** Names unique to this run: the server keeps its accounts between runs of a test file. */
const SUFFIX = Math.random().toString(36).slice(2, 7);
const name = (who) => `${who}_${SUFFIX}`;

/** Registers `who` through the lobby's account bar; the page stays on the lobby, logged in. */
async function register(page, who) {
  await page.goto(`${BASE}/`);
  await page.click('#account-register');
  await page.waitForSelector('#account-dialog[open]');
  assert.equal(await page.locator('#account-dialog-h').innerText(), 'Register');
  await page.fill('#account-name', who);
  await page.fill('#account-password', PASSWORD);
  await page.click('#account-submit');
  await page.waitForSelector(`#account[data-name="${who}"]`);
  assert.ok(await page.locator('#account-dialog').evaluate((d) => !d.open), 'the dialog closes');
  assert.equal(await page.locator('#account-name-link').getAttribute('href'), `/@/${who}`);
}

/** Marks the page: the mark is gone if the page is ever loaded again. */
async function markPage(page) {
  await page.evaluate(() => { window.notReloaded = true; });
}

async function notReloaded(page) {
  return page.evaluate(() => window.notReloaded === true);
}

/** The rating shown on a profile for a variant: "1523 ± 471" → 1523. */
async function profileRating(page, variant) {
  const text = await page.locator(`.rating-card[data-variant="${variant}"] .rating-value`).innerText();
  const m = /^(\d+) ± (\d+)$/.exec(text.trim());
  assert.ok(m, `a rating with its deviation: ${text}`);
  return Number(m[1]);
}

/** A board move the seat to move may play now (from the server's legal moves), not a drop. */
async function someMove(id) {
  const state = await getJSON(`/api/games/${id}`);
  const move = state.legal_moves.find((m) => cellsOf(m) && !m.includes('+'));
  assert.ok(move, 'a plain board move is legal');
  return move;
}

async function chatLines(page) {
  return page.$$eval('#chat-lines li', (lis) => lis.map((li) => ({ author: li.dataset.author, text: li.querySelector('.chat-text').textContent })));
}

async function say(page, text) {
  await page.fill('#chat-input', text);
  await page.click('#chat-send');
}

/** Waits until the page's chat shows a line `text`. */
async function waitLine(page, text) {
  await page.waitForFunction((t) => [...document.querySelectorAll('#chat-lines .chat-text')].some((e) => e.textContent === t), text);
}

describe('accounts, the live lobby, ratings, profiles, the archive and chat', { concurrency: false }, () => {
  let browser;
  before(async () => { browser = await launch(); });
  after(async () => { await browser?.close(); });

  test('the account dialog shows the server\'s refusals: a wrong password, a taken name', T, async () => {
    const { page, context } = await newPage(browser);
    const who = name('dora');
    await register(page, who);
    await page.click('#account-logout');
    await page.waitForSelector('#account-login');
    assert.equal(await page.locator('#account').getAttribute('data-name'), '');
    // Logged out, the Rated box cannot be ticked.
    assert.ok(await page.locator('#rated').isDisabled(), 'no rated game without an account');
    assert.ok(await page.locator('#rated-note').isVisible());

    await page.click('#account-login');
    await page.fill('#account-name', who);
    await page.fill('#account-password', 'not the password');
    await page.click('#account-submit');
    await page.waitForSelector('#account-error:not([hidden])');
    assert.equal(await page.locator('#account-error').innerText(), 'wrong name or password');
    assert.ok(await page.locator('#account-dialog').evaluate((d) => d.open), 'the dialog stays for another try');
    assert.equal(await page.locator('#account').getAttribute('data-name'), '', 'still logged out');

    // Register instead: the name is taken (names compare case-insensitively).
    await page.click('#account-switch');
    assert.equal(await page.locator('#account-dialog-h').innerText(), 'Register');
    assert.ok(await page.locator('#account-error').isHidden(), 'the old error goes with the switch');
    await page.fill('#account-name', who.toUpperCase());
    await page.fill('#account-password', PASSWORD);
    await page.click('#account-submit');
    await page.waitForSelector('#account-error:not([hidden])');
    const taken = await page.locator('#account-error').innerText();
    assert.match(taken, /taken/i);
    assert.ok(taken.toLowerCase().includes(who.toLowerCase()), `the message names the name: ${taken}`);
    await screenshot(page, 'account-name-taken.png');

    // And the right password logs in.
    await page.click('#account-switch');
    await page.fill('#account-name', who);
    await page.fill('#account-password', PASSWORD);
    await page.click('#account-submit');
    await page.waitForSelector(`#account[data-name="${who}"]`);
    assert.ok(await page.locator('#rated').isEnabled(), 'logged in, a rated game may be created');
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  test('three players: a rated game from the lobby, taken live, chat and mute, resignations, ratings, profiles, the archive', T, async () => {
    const players = ['ann', 'ben', 'cat'].map(name);
    const [p1, p2, p3] = await Promise.all(players.map(() => newPage(browser)));
    for (const [i, p] of [p1, p2, p3].entries()) await register(p.page, players[i]);
    // Players 2 and 3 watch the live lobby from now on, never reloading.
    for (const { page } of [p2, p3]) {
      await page.waitForSelector('#open-games-status[data-state="live"]');
      await markPage(page);
    }

    // Player 1 opens a rated Sannin game: his seat "Me", the two others open, no bots.
    const a = p1.page;
    await a.waitForSelector('#create-button:not([disabled])');
    await a.selectOption('#variant', 'sannin');
    await a.check('#rated');
    assert.deepEqual(await a.$$eval('#seats select', (ss) => ss.map((s) => s.value)), ['me', 'open', 'open']);
    assert.ok(await a.locator('#seat-1 option[value^="bot:"]').first().isDisabled(), 'no bot in a rated game');
    assert.ok(await a.locator('#seat-1 option[value="human"]').isDisabled(), 'no link seat in a rated game');
    await a.check('#use-clock');
    await a.fill('#clock-minutes', '10');
    await a.fill('#clock-increment', '5');
    await a.click('#create-button');
    await a.waitForURL(/\/play\/[^/#]+$/);
    const id = a.url().match(/\/play\/([^/?#]+)$/)[1];

    // His page waits: the banner with the time left, his name and rating, two open seats.
    await a.waitForSelector('#game[data-waiting="1"]');
    await a.waitForSelector('#waiting:not([hidden])');
    assert.match(await a.locator('#waiting').innerText(),
      /^Waiting for players — the game starts when every seat is taken \(expires in (1\d|20|\d):\d\d\)$/);
    assert.match(await a.locator('#game-title').innerText(), /Rated/);
    assert.equal(await a.locator('.player[data-seat="First"] .player-name').innerText(), players[0]);
    assert.equal(await a.locator('.player[data-seat="First"] .rating').innerText(), '1500 ± 500');
    for (const seat of ['Middle', 'Last']) {
      assert.equal(await a.locator(`.player[data-seat="${seat}"] .open-seat`).innerText(), 'waiting for a player');
    }
    assert.equal(await a.locator('.take-seat').count(), 0, 'the creator holds a seat: no "Take this seat"');
    assert.match(await a.locator('#connection').innerText(), /playing First/);
    await screenshot(a, 'rated-game-waiting.png');

    // The game appears in the others' lobbies without a reload, in words.
    const row = (page) => page.locator(`.open-game[data-game="${id}"]`);
    const b = p2.page;
    const c = p3.page;
    for (const page of [b, c]) {
      await row(page).waitFor();
      assert.ok(await notReloaded(page), 'the lobby list is live');
    }
    const head = await row(b).locator('.og-head').innerText();
    assert.match(head, /Sannin shogi/);
    assert.match(head, /10\+5/);
    assert.match(head, /Rated/);
    assert.equal(await row(b).locator('li[data-seat="First"] .og-player').innerText(), players[0]);
    assert.equal(await row(b).locator('li[data-seat="First"] .og-rating').innerText(), '1500?');
    assert.equal(await row(b).locator('li[data-seat="Middle"] button.join').count(), 1);
    // The variant filter hides it under another game, shows it again under Sannin.
    await b.selectOption('#open-games-variant', 'hexshogi91');
    assert.equal(await row(b).count(), 0);
    await b.selectOption('#open-games-variant', 'sannin');
    await row(b).waitFor();
    await screenshot(b, 'lobby-open-games.png');
    const phone = await newPage(browser, PHONE);
    await phone.page.goto(`${BASE}/`);
    await row(phone.page).waitFor();
    await screenshot(phone.page, 'phone-lobby-open-games.png', { fullPage: true });
    await phone.context.close();

    // Player 2 takes Middle with one click; player 3 sees it taken, live, and takes Last.
    await row(b).locator('li[data-seat="Middle"] button.join').click();
    await b.waitForURL(`${BASE}/play/${id}`);
    await b.waitForFunction(() => /playing Middle/.test(document.querySelector('#connection').textContent));
    await row(c).locator(`li[data-seat="Middle"] .og-player:text-is("${players[1]}")`).waitFor();
    assert.equal(await row(c).locator('li[data-seat="Middle"] button.join').count(), 0, 'a taken seat has no Join');
    assert.ok(await notReloaded(c), 'the seat was shown taken without a reload');
    await row(c).locator('li[data-seat="Last"] button.join').click();
    await c.waitForURL(`${BASE}/play/${id}`);
    await c.waitForFunction(() => /playing Last/.test(document.querySelector('#connection').textContent));

    // The game starts on all three pages: no banner, names and ratings at every seat.
    for (const page of [a, b, c]) {
      await page.waitForSelector('#game[data-waiting=""]');
      assert.ok(await page.locator('#waiting').isHidden());
      for (const [i, seat] of ['First', 'Middle', 'Last'].entries()) {
        await page.locator(`.player[data-seat="${seat}"] .player-name:text-is("${players[i]}")`).waitFor();
        assert.equal(await page.locator(`.player[data-seat="${seat}"] .player-name`).getAttribute('href'), `/@/${players[i]}`);
      }
      assert.match(await page.locator('.player[data-seat="Last"] .rating').innerText(), /^\d+ ± \d+$/);
    }
    await waitActing(a, 'First');

    // Chat: player 1 writes, player 2 reads; player 3 mutes player 1 and no longer sees him.
    await say(a, 'good luck, everyone');
    await waitLine(b, 'good luck, everyone');
    await waitLine(c, 'good luck, everyone');
    assert.deepEqual((await chatLines(b)).at(-1), { author: players[0], text: 'good luck, everyone' });
    await c.locator(`#chat-lines li[data-author="${players[0]}"] .chat-author`).first().click();
    await c.click('.chat-menu .chat-mute');
    await c.waitForSelector(`#chat-muted button[data-author="${players[0]}"]`);
    assert.equal((await chatLines(c)).filter((l) => l.author === players[0]).length, 0, 'the muted author\'s lines are hidden');
    await say(a, 'this line is not for cat');
    await waitLine(b, 'this line is not for cat');
    await say(b, 'thanks, ann');
    await waitLine(c, 'thanks, ann');   // cat's chat is live: what it lacks, the mute hid
    assert.ok(!(await chatLines(c)).some((l) => l.author === players[0]), 'no line of the muted author');
    // Unmuted, his lines are back (they were kept, only hidden); the mute is kept in localStorage.
    assert.deepEqual(await c.evaluate(() => JSON.parse(localStorage.getItem('polyshogi.chatMuted'))), [players[0]]);
    await c.click(`#chat-muted button[data-author="${players[0]}"]`);
    await waitLine(c, 'this line is not for cat');
    assert.ok(await c.locator('#chat-muted').isHidden());
    // A line holds 140 characters; lines written too fast are refused, the server's words inline.
    assert.equal(await a.locator('#chat-input').getAttribute('maxlength'), '140');
    // Six lines in one burst from the page itself: one click at a time could be slower than the
    // server's one line a second on a loaded machine, and never be refused.
    await a.evaluate(() => {
      for (let i = 1; i <= 6; i++) {
        document.getElementById('chat-input').value = `line ${i} of a flood`;
        document.getElementById('chat-form').requestSubmit();
      }
    });
    await a.waitForSelector('#chat-error:not([hidden])');
    assert.match(await a.locator('#chat-error').innerText(), /slow down/i);
    assert.ok(await a.locator('#notice').isHidden(), 'the refusal is the chat\'s, not a notice over the board');

    // A logged-out spectator: no players' chat, and told to log in to chat.
    const watcher = await newPage(browser);
    const w = watcher.page;
    await w.goto(`${BASE}/play/${id}`);
    await w.waitForFunction(() => /spectator/.test(document.querySelector('#connection').textContent));
    await w.waitForSelector('#chat-section[data-received="1"]');
    assert.equal(await w.locator('#chat-login-line').innerText(), 'Log in to chat');
    assert.ok(await w.locator('#chat-form').isHidden(), 'no input for a logged-out spectator');
    const seen = await chatLines(w);
    assert.ok(!seen.some((l) => /good luck|not for cat|thanks, ann/.test(l.text)), 'the players\' chat stays theirs');
    assert.equal(await w.locator('.take-seat').count(), 0, 'no seat left to take');
    await screenshot(b, 'rated-game-running-chat.png', { fullPage: true });

    // A few moves, then First resigns, then Middle: Last wins, First is last.
    for (const [page, seat] of [[a, 'First'], [b, 'Middle'], [c, 'Last']]) {
      await waitActing(page, seat);
      await clickMove(page, await someMove(id));
    }
    await waitActing(a, 'First');
    await a.click('#resign');
    await a.waitForSelector('#confirm[open]');
    await a.click('#confirm-yes');
    await b.waitForSelector('.player[data-seat="First"][data-out="1"]');
    await waitActing(b, 'Middle');
    await b.click('#resign');
    await b.waitForSelector('#confirm[open]');
    await b.click('#confirm-yes');
    for (const page of [a, b, c, w]) await page.waitForSelector('#game[data-over="1"]');
    await c.waitForSelector('#game-end[open]');
    // The places as the end screen says them: Last first; First and Middle, out, after him
    // (Sannin's rules may rank the two who are out equal).
    const places = Object.fromEntries((await c.locator('#placings li').allInnerTexts()).map((line) => {
      const [, seat, place, who] = /^(\w+) — (\d+)\w\w · (\S+)$/.exec(line.trim());
      assert.equal(who, players[['First', 'Middle', 'Last'].indexOf(seat)], 'the end screen names the players');
      return [seat, Number(place)];
    }));
    assert.equal(places.Last, 1, `Last wins: ${JSON.stringify(places)}`);
    assert.ok(places.First > 1 && places.Middle > 1, `First and Middle after him: ${JSON.stringify(places)}`);
    const place = [places.First, places.Middle, places.Last];
    const worst = Math.max(...place);
    const ply = Number(await c.locator('#game').getAttribute('data-ply'));
    // The new ratings come once the game is settled: the winner's page shows his gain.
    await c.waitForSelector('.player[data-seat="Last"] .rating-change[data-sign="up"]');
    const gain = await c.locator('.player[data-seat="Last"] .rating-change').innerText();
    await screenshot(c, 'rated-game-over.png');

    // The profiles: the game, and ratings that moved the right way.
    const rating = {};
    for (const [i, { page }] of [p1, p2, p3].entries()) {
      await page.goto(`${BASE}/@/${players[i]}`);
      await page.waitForSelector('body[data-ready="1"]');
      assert.equal(await page.locator('#profile-name').innerText(), players[i]);
      assert.match(await page.locator('#profile-since').innerText(), /^Member since \d{1,2} \w{3} \d{4}$/);
      rating[i] = await profileRating(page, 'sannin');
      assert.match(await page.locator('.rating-card[data-variant="sannin"] .rating-games').innerText(), /^1 rated game$/);
      assert.equal(await page.locator('.rating-card[data-variant="sannin"] .rating-chart svg .dot').count(), 2, 'the start and one game');
      const gameRow = page.locator(`tr[data-game="${id}"]`);
      await gameRow.waitFor();
      assert.equal(await gameRow.locator('.g-place').innerText(), `${place[i]}${{ 1: 'st', 2: 'nd', 3: 'rd' }[place[i]]}`);
      const change = await gameRow.locator('.g-rating').innerText();
      const expected = rating[i] - 1500;
      assert.equal(change, expected > 0 ? `+${expected}` : expected < 0 ? `−${-expected}` : '±0', `${players[i]}: the change shown is the rating's`);
      const others = await gameRow.locator('.g-players').innerText();
      for (const [k, other] of players.entries()) {
        if (k === i) assert.ok(!others.includes(other), 'the player is not among his opponents');
        else assert.ok(others.includes(other), `${other} among the opponents`);
      }
      assert.equal(await gameRow.locator('a.replay').getAttribute('href'), `/play/${id}`);
      assert.equal(await gameRow.locator('a.record').getAttribute('href'), `/api/games/${id}/record`);
    }
    assert.ok(rating[2] > 1500, `the winner's rating went up: ${rating[2]}`);
    assert.equal(gain, `+${rating[2] - 1500}`, 'the game page showed the same gain');
    for (const i of [0, 1]) {
      if (place[i] === worst) assert.ok(rating[i] < 1500, `${players[i]}, last, went down: ${rating[i]}`);
      assert.ok(rating[i] < rating[2], `${players[i]} below the winner: ${JSON.stringify(rating)}`);
    }
    if (place[0] !== place[1]) {
      const [better, worse] = place[0] < place[1] ? [0, 1] : [1, 0];
      assert.ok(rating[better] > rating[worse], `the better place, the better rating: ${JSON.stringify(rating)}`);
    } else {
      assert.equal(rating[0], rating[1], 'equal places, equal ratings (both started at 1500 ± 500)');
    }
    await screenshot(p3.page, 'profile.png', { fullPage: true });
    const phoneProfile = await newPage(browser, PHONE);
    await phoneProfile.page.goto(`${BASE}/@/${players[2]}`);
    await phoneProfile.page.waitForSelector('body[data-ready="1"]');
    const { scroll, width } = await phoneProfile.page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: innerWidth }));
    assert.ok(scroll <= width, `the profile fits a phone: ${scroll}px in ${width}px`);
    await screenshot(phoneProfile.page, 'phone-profile.png', { fullPage: true });
    await phoneProfile.context.close();

    // A logged-out visitor: the archive, filtered by a player, the replay stepped back, the record.
    await w.goto(`${BASE}/games?player=${encodeURIComponent(players[1])}`);
    await w.waitForSelector('body[data-ready="1"]');
    assert.equal(await w.locator('#filter-player').inputValue(), players[1]);
    const archived = w.locator(`tr[data-game="${id}"]`);
    await archived.waitFor();
    const seats = await archived.locator('.g-players').innerText();
    for (const p of players) assert.ok(seats.includes(p), `${p} in the archive's row`);
    assert.match(await archived.locator('.g-game').innerText(), /Sannin shogi\s+Rated/);
    await screenshot(w, 'archive.png', { fullPage: true });
    const [download] = await Promise.all([w.waitForEvent('download'), archived.locator('a.record').click()]);
    const file = path.join(ARTIFACTS, `record-${id}.psn`);
    await download.saveAs(file);
    const record = fs.readFileSync(file, 'utf8');
    assert.match(record, /\[Variant "sannin"\]/);
    assert.equal(record, await (await fetch(`${BASE}/api/games/${id}/record`)).text());
    await archived.locator('a.replay').click();
    await w.waitForURL(`${BASE}/play/${id}`);
    await w.waitForSelector('#game-end[open]');
    await w.click('#end-review');
    await waitPly(w, ply);
    await w.click('#nav-prev');
    await waitViewing(w, String(ply - 1));
    await w.click('#nav-first');
    await waitViewing(w, '0');
    assert.match(await w.locator('#viewing-text').innerText(), /start position/);

    for (const p of [p1, p2, p3, watcher]) {
      assert.deepEqual(p.page.errors, [], 'no script error');
      await p.context.close();
    }
  });

  test('an open seat taken from the game page; a logged-in spectator chats with the spectators only', T, async () => {
    const levels = await getJSON('/api/levels');
    const created = await createGame({
      variant: 'sannin', clock: null, seats: [{ kind: 'me' }, { kind: 'open' }, { kind: 'bot', level: levels[0].name }],
    });
    assert.deepEqual(created.seats.map((s) => s.kind === 'open' ? 'open' : Boolean(s.token)), [true, 'open', false]);
    const id = created.id;
    const creator = await newPage(browser);
    const a = creator.page;
    await a.goto(BASE + created.seats[0].link);
    await a.waitForSelector('#game[data-waiting="1"]');
    await markPage(a);
    assert.match(await a.locator('#game-title').innerText(), /Casual/);
    assert.equal(await a.locator('.take-seat').count(), 0, 'the creator holds a seat');
    assert.match(await a.locator('#turn').innerText(), /^Waiting for one more player/);

    // A visitor without an account takes Middle from the game page.
    const visitor = await newPage(browser);
    const v = visitor.page;
    await v.goto(`${BASE}/play/${id}`);
    await v.waitForSelector('.player[data-seat="Middle"] .take-seat');
    assert.equal(await v.locator('.player[data-seat="Middle"] .open-seat').innerText(), 'waiting for a player');
    assert.equal(await v.locator('.take-seat').count(), 1, 'only the open seat');
    await v.click('.player[data-seat="Middle"] .take-seat');
    await v.waitForFunction(() => /playing Middle/.test(document.querySelector('#connection').textContent));
    assert.equal(v.url(), `${BASE}/play/${id}`, 'no token in the address');
    for (const page of [a, v]) await page.waitForSelector('#game[data-waiting=""]');
    assert.ok(await a.locator('#waiting').isHidden(), 'the banner is gone once every seat is taken');
    assert.ok(await notReloaded(a), 'the creator saw the game start without a reload');
    await waitActing(a, 'First');

    // A logged-in spectator writes to the spectators; the players do not see it, nor he theirs.
    const fan = await newPage(browser);
    const f = fan.page;
    await register(f, name('eve'));
    await f.goto(`${BASE}/play/${id}`);
    await f.waitForFunction(() => /spectator/.test(document.querySelector('#connection').textContent));
    await f.waitForSelector('#chat-section[data-received="1"]');
    assert.ok(await f.locator('#chat-login-line').isHidden(), 'a logged-in spectator may write');
    assert.match(await f.locator('#chat-channel').innerText(), /spectators/);
    await say(f, 'nice opening');
    await waitLine(f, 'nice opening');
    await say(a, 'hello Middle');
    await waitLine(v, 'hello Middle');
    assert.ok(!(await chatLines(a)).some((l) => l.text === 'nice opening'), 'the players do not see the spectators\' chat');
    assert.ok(!(await chatLines(f)).some((l) => l.text === 'hello Middle'), 'the spectators do not see the players\' chat');
    // An anonymous seat writes under its seat's name.
    await say(v, 'hi First');
    await waitLine(a, 'hi First');
    assert.equal((await chatLines(a)).find((l) => l.text === 'hi First').author, 'Middle');
    // Hiding the chat is remembered.
    await a.click('#chat-toggle');
    assert.ok(await a.locator('#chat-body').isHidden());
    await a.reload();
    await a.waitForSelector('#chat-section[data-hidden="1"]');
    assert.ok(await a.locator('#chat-body').isHidden(), 'still hidden after a reload');
    for (const p of [creator, visitor, fan]) {
      assert.deepEqual(p.page.errors, [], 'no script error');
      await p.context.close();
    }
  });

  test('the archive and a profile page through 21 finished games; filters from the query string', T, async () => {
    const { page, context } = await newPage(browser);
    const who = name('pat');
    await register(page, who);
    // 21 casual games of this player, each resigned at once (through the API, from his page: his
    // session cookie makes the "Me" seat his).
    const ids = await page.evaluate(async (count) => {
      const made = [];
      for (let i = 0; i < count; i++) {
        const res = await fetch('/api/games', {
          method: 'POST', headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ variant: 'hexshogi91', clock: null, seats: [{ kind: 'me' }, { kind: 'human' }] }),
        });
        const game = await res.json();
        const ws = new WebSocket(`ws://${location.host}/api/games/${game.id}/ws`);
        await new Promise((resolve) => {
          ws.onmessage = (e) => {
            const message = JSON.parse(e.data);
            if (message.type === 'state' && !message.game.outcome) ws.send(JSON.stringify({ type: 'resign' }));
            if ((message.type === 'state' || message.type === 'update') && message.game.outcome) resolve();
          };
          ws.onopen = () => ws.send(JSON.stringify({ type: 'hello', token: game.seats[0].token }));
        });
        ws.close();
        made.push(game.id);
      }
      return made;
    }, 21);

    await page.goto(`${BASE}/games?player=${who}`);
    await page.waitForSelector('body[data-ready="1"]');
    assert.equal(await page.locator('tbody tr').count(), 20, 'twenty games a page');
    assert.equal(await page.locator('tbody tr').first().getAttribute('data-game'), ids.at(-1), 'newest first');
    assert.equal(await page.locator('#pager .newer').count(), 0, 'no newer page than the first');
    assert.match(await page.locator('tbody tr').first().locator('.g-players').innerText(), new RegExp(`${who}\\s+2nd`));
    await page.click('#pager .older');
    await page.waitForURL(`${BASE}/games?player=${who}&page=2`);
    await page.waitForSelector('body[data-ready="1"]');
    assert.deepEqual(await page.$$eval('tbody tr', (rows) => rows.map((r) => r.dataset.game)), [ids[0]], 'the oldest on page 2');
    assert.equal(await page.locator('#pager .older').count(), 0);
    await page.click('#pager .newer');
    await page.waitForURL(`${BASE}/games?player=${who}`);
    await page.waitForSelector('body[data-ready="1"]');
    assert.equal(await page.locator('tbody tr').count(), 20);
    // Another game chosen: the filter applies at once, from the query string.
    await page.selectOption('#filter-variant', 'sannin');
    await page.waitForURL(/variant=sannin/);
    await page.waitForSelector('body[data-ready="1"]');
    assert.equal(await page.locator('#filter-variant').inputValue(), 'sannin');
    assert.equal(await page.locator('#filter-player').inputValue(), who);
    assert.equal(await page.locator('.empty-games').innerText(), 'No finished game.');
    assert.ok(await page.locator('#filter-clear').isVisible());

    // The profile: no rating (casual games only), the same games page by page.
    await page.goto(`${BASE}/@/${who}`);
    await page.waitForSelector('body[data-ready="1"]');
    assert.ok(await page.locator('#no-ratings').isVisible(), 'casual games leave no rating');
    assert.equal(await page.locator('tbody tr').count(), 20);
    assert.equal(await page.locator('tbody tr').first().locator('.g-place').innerText(), '2nd');
    assert.equal(await page.locator('tbody tr').first().locator('.g-rating').innerText(), '–', 'no rating change in a casual game');
    await page.click('#pager .older');
    await page.waitForSelector('body[data-ready="1"]');
    assert.equal(new URL(page.url()).search, '?page=2');
    assert.equal(await page.locator('tbody tr').count(), 1);
    // An unknown player is said so.
    await page.goto(`${BASE}/@/nobody_${SUFFIX}`);
    await page.waitForSelector('#profile-status.error');
    assert.equal(await page.locator('#profile-status').innerText(), `There is no player nobody_${SUFFIX}.`);
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  test('the lobby without its WebSocket polls the list; the Rated box sets and frees the seats', T, async () => {
    const { page, context } = await newPage(browser);
    // Every lobby socket is refused at once: the page says so and polls GET /api/lobby.
    await context.routeWebSocket(/\/api\/lobby\/ws$/, (ws) => ws.close());
    await register(page, name('liv'));
    await page.waitForSelector('#open-games-status[data-state="polling"]');
    assert.equal(await page.locator('#open-games-status').innerText(), 'Reconnecting…');
    await markPage(page);
    const created = await createGame({ variant: 'tphs91', clock: { initial_ms: 180000, increment_ms: 2000 }, seats: [{ kind: 'human' }, { kind: 'open' }, { kind: 'open' }] });
    const row = page.locator(`.open-game[data-game="${created.id}"]`);
    await row.waitFor();
    assert.ok(await notReloaded(page), 'the list came by polling, not by a reload');
    assert.match(await row.locator('.og-head').innerText(), /Three Player Hex Shogi 91\s+3\+2\s+Casual/);
    const [first, second] = created.seats.map((s) => s.seat);
    assert.equal((await row.locator(`li[data-seat="${first}"]`).textContent()).replace(/\s+/g, ' ').trim(), `${first} Anonymous`);
    assert.equal(await row.locator(`li[data-seat="${second}"] button.join`).innerText(), 'Join');

    // The Rated box: the creator's seat and open seats, nothing else; unticked, all is free again.
    await page.selectOption('#variant', 'hexshogi91');
    await page.selectOption('#seat-1', 'human');
    await page.check('#rated');
    assert.deepEqual(await page.$$eval('#seats select', (ss) => ss.map((s) => s.value)), ['me', 'open']);
    assert.ok(await page.locator('input[name="mode"][value="hotseat"]').isDisabled(), 'no hot-seat rated game');
    assert.ok(await page.locator('#seat-1 option[value="human"]').isDisabled());
    // "Me" moved to the other seat leaves the first one open.
    await page.selectOption('#seat-1', 'me');
    assert.deepEqual(await page.$$eval('#seats select', (ss) => ss.map((s) => s.value)), ['open', 'me']);
    await page.uncheck('#rated');
    assert.ok(await page.locator('#seat-1 option[value="human"]').isEnabled());
    assert.ok(await page.locator('#seat-1 option[value^="bot:"]').first().isEnabled());
    assert.ok(await page.locator('input[name="mode"][value="hotseat"]').isEnabled());
    // Logging out unticks and locks it.
    await page.check('#rated');
    await page.click('#account-logout');
    await page.waitForSelector('#account-login');
    assert.ok(!(await page.isChecked('#rated')) && await page.locator('#rated').isDisabled());
    assert.ok(await page.locator('#seat-1 option[value^="bot:"]').first().isEnabled(), 'the seats are free again');
    assert.deepEqual(page.errors, []);
    await context.close();
  });
});
