// A Sannin game created in the lobby with two bot seats: moves by clicking, the bots answer,
// a reload resumes the game, a spectator in another browser context follows it, the move
// list goes back through the game, the keyboard plays, and a bad token is refused.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASE, launch, newPage, getJSON, waitPly, waitActing, waitTurnAfter, waitViewing, boardOf, serverBoard, cellsOf, screenshot,
} from './helpers.mjs';

const T = { timeout: 120000 };

/** Back to the live position, whatever an earlier test left on screen. */
async function goLive(page) {
  if (await page.locator('#nav-last').isEnabled()) await page.click('#nav-last');
  await page.waitForSelector('#game[data-viewing="live"]');
}

describe('a Sannin game against two bots', { concurrency: false }, () => {
  let browser;
  let player;        // { context, page } of First's seat link
  let created;       // { id, link, spectator } from the lobby's page
  let levels;

  before(async () => {
    browser = await launch();
    levels = await getJSON('/api/levels');
  });

  after(async () => {
    await browser?.close();
  });

  test('the lobby shows the rule defaults and creates a game with two bot seats', T, async () => {
    const variants = await getJSON('/api/variants');
    const sannin = variants.find((v) => v.name === 'sannin');
    assert.ok(sannin, 'the server offers sannin');
    const { page } = await newPage(browser);
    await page.goto(`${BASE}/`);
    await page.waitForSelector('#create-button:not([disabled])');
    await page.selectOption('#variant', 'sannin');
    // Every rule option is shown with the server's default chosen.
    for (const option of sannin.options) {
      const input = page.locator(`#rules [data-key="${option.key}"]`);
      assert.equal(await input.inputValue(), String(option.default), `default of ${option.key}`);
    }
    // One row per seat; First human, the two others bots of the first level the server offers.
    assert.equal(await page.locator('#seats select').count(), sannin.seats.length);
    await page.selectOption('#seat-0', 'human');
    await page.selectOption('#seat-1', `bot:${levels[0].name}`);
    await page.selectOption('#seat-2', `bot:${levels[0].name}`);
    await page.fill('#clock-minutes', '30');
    await page.fill('#clock-increment', '0');
    await page.click('#create-button');
    // The creator lands on his own seat; against bots only there is nobody to invite.
    await waitActing(page, 'First');
    const id = page.url().match(/\/play\/([^/?#]+)$/)[1];
    assert.equal(await page.locator('#invite').isVisible(), false, 'no invite panel against bots');
    // The seat link handed out by the server (kept by this browser, never shown in a URL).
    const answer = await page.evaluate((gameId) => JSON.parse(localStorage.getItem(`polyshogi.created.${gameId}`)), id);
    const link = answer.seats.find((s) => s.seat === 'First').link;
    assert.match(link, /^\/play\/[^?#]+#seat=First&token=./);
    assert.deepEqual(answer.seats.map((s) => s.kind), ['human', 'bot', 'bot']);
    const spectator = answer.spectator_link;
    assert.equal(spectator, `/play/${id}`);
    await screenshot(page, 'created-against-bots.png', { fullPage: true });
    const state = await getJSON(`/api/games/${id}`);
    assert.deepEqual(state.seats.map((s) => s.kind), ['human', 'bot', 'bot']);
    // 30 minutes each: no clock runs before its seat's first move.
    for (const seat of state.seats) assert.equal(seat.clock_ms, 30 * 60000, `${seat.seat}'s clock`);
    created = { id, link, spectator };
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('moves are played by clicking and the bots answer', T, async () => {
    assert.ok(created, 'needs the game created by the first test');
    player = await newPage(browser);
    const { page } = player;
    await page.goto(BASE + created.link);
    await waitActing(page, 'First');
    assert.match(await page.locator('#connection').innerText(), /playing First/);
    // The three players with their clocks.
    assert.equal(await page.locator('#players .player').count(), 3);
    for (const clock of await page.locator('#players .clock').all()) assert.match(await clock.innerText(), /^\d+:\d\d$/);
    // The destinations shown for the pawn on 3c are exactly the server's legal moves from 3c.
    const state = await getJSON(`/api/games/${created.id}`);
    const fromServer = state.legal_moves.filter((m) => cellsOf(m)?.from === '3c').map((m) => cellsOf(m).to).sort();
    await page.click('[data-cell="3c"]');
    await page.waitForSelector('[data-cell="3c"].selected');
    const shown = await page.$$eval('#board .cell.dest', (cells) => cells.map((c) => c.dataset.cell).sort());
    assert.deepEqual(shown, [...new Set(fromServer)]);
    await screenshot(page, 'sannin-destinations.png');
    await page.click('[data-cell="4d"]');
    // First's move, then both bots; then it is First's turn again.
    await waitPly(page, 3);
    await waitActing(page, 'First');
    assert.equal(await page.locator('#moves [data-ply="1"]').getAttribute('data-move'), 'P3c-4d');
    const after = await getJSON(`/api/games/${created.id}`);
    assert.equal(after.moves[0].move, 'P3c-4d');
    assert.deepEqual(after.moves.slice(0, 3).map((m) => m.seat), ['First', 'Middle', 'Last']);
    const drawn = await boardOf(page);
    assert.equal(drawn['4d'], 'First:P');
    assert.equal(drawn['3c'], undefined);
    assert.deepEqual(drawn, serverBoard(after), 'the page draws the server\'s position');
    assert.deepEqual(page.errors, []);
  });

  test('a reload in the middle of the game resumes it', T, async () => {
    assert.ok(player, 'needs the game played by the tests above');
    const { page } = player;
    const ply = Number(await page.locator('#game').getAttribute('data-ply'));
    const movesBefore = await page.$$eval('#moves [data-move]', (b) => b.map((x) => x.dataset.move));
    await page.reload();
    await waitPly(page, ply);
    await waitActing(page, 'First');
    assert.deepEqual(await page.$$eval('#moves [data-move]', (b) => b.map((x) => x.dataset.move)), movesBefore);
    assert.equal((await boardOf(page))['4d'], 'First:P');
    // Play on after the reload: any piece of First's that can move, to its first destination.
    const from = await page.locator('#board .cell.movable').first().getAttribute('data-cell');
    await page.click(`[data-cell="${from}"]`);
    await page.waitForSelector('#board .cell.dest');
    const to = await page.locator('#board .cell.dest').first().getAttribute('data-cell');
    await page.click(`[data-cell="${to}"]`);
    if (await page.locator('#promotion[open]').count()) await page.click('#promote-no');
    await waitPly(page, ply + 1);
    const move = await page.locator(`#moves [data-ply="${ply + 1}"]`).getAttribute('data-move');
    assert.equal(cellsOf(move)?.from, from);
    assert.equal(cellsOf(move)?.to, to);
    await waitTurnAfter(page, 'First', ply + 1);
    assert.deepEqual(page.errors, []);
  });

  test('a spectator in another browser context sees the moves', T, async () => {
    const { page } = player;
    const spectator = await newPage(browser);
    const view = spectator.page;
    await view.goto(BASE + created.spectator);
    const ply = Number(await page.locator('#game').getAttribute('data-ply'));
    await waitPly(view, ply);
    // The line is drawn from the socket's state, which can change after the moves arrive (a
    // socket that drops shows "Reconnecting…" until it is back): wait for the spectator's line.
    await view.waitForFunction(() => /Connected · spectator/.test(document.querySelector('#connection')?.textContent || ''));
    assert.equal(await view.locator('#game').getAttribute('data-acting'), '');
    assert.ok(await view.locator('#play-controls').isHidden(), 'no move controls for a spectator');
    // The spectator cannot select First's pieces even though First is to move.
    const movable = await page.locator('#board .cell.movable').first().getAttribute('data-cell');
    await view.click(`[data-cell="${movable}"]`);
    assert.equal(await view.locator('#board .cell.dest').count(), 0);
    assert.equal(await view.locator('#board .cell.selected').count(), 0);
    // First moves in his browser; the spectator's page shows it.
    await page.click(`[data-cell="${movable}"]`);
    await page.waitForSelector('#board .cell.dest');
    const to = await page.locator('#board .cell.dest').first().getAttribute('data-cell');
    await page.click(`[data-cell="${to}"]`);
    if (await page.locator('#promotion[open]').count()) await page.click('#promote-no');
    await waitPly(page, ply + 1);
    const played = await page.locator(`#moves [data-ply="${ply + 1}"]`).getAttribute('data-move');
    await waitPly(view, ply + 1);
    assert.equal(await view.locator(`#moves [data-ply="${ply + 1}"]`).getAttribute('data-move'), played);
    // The bots answer at once and may take the piece that moved, so the spectator's live board is
    // compared once First is to move again, and the board after First's move is read from the list.
    await waitTurnAfter(page, 'First', ply + 1);
    const live = await getJSON(`/api/games/${created.id}`);
    await waitPly(view, live.moves.length);
    assert.deepEqual(await boardOf(view), serverBoard(live), 'the spectator draws the server\'s position');
    await view.click(`#moves [data-ply="${ply + 1}"]`);
    await waitViewing(view, ply + 1 === live.moves.length ? 'live' : ply + 1);
    assert.match((await boardOf(view))[to] || '', /^First:/, 'the spectator sees First\'s piece arrive');
    // The spectator joined late; the positions before he came are fetched from the server.
    await view.click('#moves [data-ply="1"]');
    await waitViewing(view, 1);
    assert.match(await view.locator('#viewing-text').innerText(), /^Showing the position after move 1/);
    const drawn = await boardOf(view);
    assert.equal(drawn['4d'], 'First:P');
    assert.deepEqual(drawn, serverBoard(await getJSON(`/api/games/${created.id}/positions/1`)));
    await screenshot(view, 'sannin-spectator.png');
    assert.deepEqual(view.errors, []);
    await spectator.context.close();
  });

  test('the move list goes back through the game', T, async () => {
    const { page } = player;
    const state = await getJSON(`/api/games/${created.id}`);
    const second = cellsOf(state.moves[1].move); // Middle's first move
    await page.click('#moves [data-ply="1"]');
    await waitViewing(page, 1);
    assert.match(await page.locator('#viewing-text').innerText(), /after move 1/);
    let drawn = await boardOf(page);
    assert.equal(drawn['4d'], 'First:P');
    assert.equal(drawn['3c'], undefined);
    if (second) assert.match(drawn[second.from] || '', /^Middle:/, 'Middle has not moved yet');
    // Clicks on the board do nothing while an earlier position is shown.
    assert.equal(await page.locator('#board .cell.movable').count(), 0);
    await page.click('#nav-next');
    await waitViewing(page, 2);
    drawn = await boardOf(page);
    if (second) assert.match(drawn[second.to] || '', /^Middle:/, 'Middle\'s move is shown');
    await page.click('#nav-first');
    await waitViewing(page, 0);
    assert.equal((await boardOf(page))['3c'], 'First:P', 'the start position');
    // Keys in the move list: End goes back to the game.
    await page.focus('#moves [aria-current="true"]');
    await page.keyboard.press('ArrowDown');
    await waitViewing(page, 1);
    await page.keyboard.press('End');
    await page.waitForSelector('#game[data-viewing="live"]');
    assert.deepEqual(await boardOf(page), serverBoard(await getJSON(`/api/games/${created.id}`)));
  });

  test('the keyboard moves the focus over the cells and plays with Enter', T, async () => {
    const { page } = player;
    await goLive(page);
    await waitActing(page, 'First');
    // Tab reaches the board.
    await page.focus('#move-input');
    let onCell = null;
    for (let i = 0; i < 40 && !onCell; i++) {
      await page.keyboard.press('Shift+Tab');
      onCell = await page.evaluate(() => document.activeElement?.dataset?.cell || null);
    }
    assert.ok(onCell, 'a cell of the board is in the tab order');
    // The arrow keys follow the board as it is shown (turned to First's side): where the focused
    // cell's centre is on screen, in pixels, and how far a cell's row is.
    const focusedCentre = () => page.evaluate(() => {
      const r = document.activeElement.querySelector('polygon').getBoundingClientRect();
      return { x: r.x + r.width / 2, y: r.y + r.height / 2, row: r.height * 0.75 };
    });
    await page.focus('[data-cell="7g"]');
    const start = await focusedCentre();
    await page.keyboard.press('ArrowRight');
    const right = await focusedCentre();
    assert.ok(right.x > start.x + start.row / 2 && Math.abs(right.y - start.y) < 2, 'ArrowRight: the next cell to the right');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    const left = await focusedCentre();
    assert.ok(left.x < start.x - start.row / 2 && Math.abs(left.y - start.y) < 2, 'ArrowLeft twice: the cell left of the start');
    await page.keyboard.press('ArrowUp');
    const up = await focusedCentre();
    assert.ok(Math.abs(up.y - (start.y - start.row)) < 2 && Math.abs(up.x - left.x) < start.row, 'ArrowUp: the row above');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const down = await focusedCentre();
    assert.ok(Math.abs(down.y - (start.y + start.row)) < 2, 'ArrowDown twice: the row below the start');
    // The focused cell is visibly marked.
    assert.ok(await page.locator('.focus-ring').isVisible(), 'a focus ring is drawn');
    await screenshot(page, 'sannin-keyboard-focus.png');
    // Enter selects a piece and Enter on a destination plays.
    const ply = Number(await page.locator('#game').getAttribute('data-ply'));
    const from = await page.locator('#board .cell.movable').first().getAttribute('data-cell');
    await page.focus(`[data-cell="${from}"]`);
    await page.keyboard.press('Enter');
    await page.waitForSelector(`[data-cell="${from}"].selected`);
    const to = await page.locator('#board .cell.dest').first().getAttribute('data-cell');
    await page.focus(`[data-cell="${to}"]`);
    await page.keyboard.press('Enter');
    if (await page.locator('#promotion[open]').count()) await page.keyboard.press('Enter');
    await waitPly(page, ply + 1);
    const move = cellsOf(await page.locator(`#moves [data-ply="${ply + 1}"]`).getAttribute('data-move'));
    assert.deepEqual([move.from, move.to], [from, to]);
    assert.deepEqual(page.errors, []);
  });

  test('a bad token is refused: the page is a spectator\'s', T, async () => {
    const { page } = player;
    await goLive(page);
    await waitActing(page, 'First');
    const intruder = await newPage(browser);
    const view = intruder.page;
    await view.goto(`${BASE}/play/${created.id}#seat=First&token=not-the-token`);
    await view.waitForSelector('#banner:not([hidden])');
    assert.match(await view.locator('#banner').innerText(), /bad token/i);
    assert.match(await view.locator('#connection').innerText(), /spectator/);
    assert.equal(await view.locator('#game').getAttribute('data-to-move'), 'First');
    assert.equal(await view.locator('#game').getAttribute('data-acting'), '');
    const from = await page.locator('#board .cell.movable').first().getAttribute('data-cell');
    await view.click(`[data-cell="${from}"]`);
    assert.equal(await view.locator('#board .cell.dest').count(), 0, 'no piece can be picked up');
    // The server agrees: the state of that connection has no seat.
    const you = await view.evaluate(() => document.body.dataset.role);
    assert.equal(you, 'spectator');
    await screenshot(view, 'sannin-bad-token.png');
    await intruder.context.close();
    await player.context.close();
  });
});
