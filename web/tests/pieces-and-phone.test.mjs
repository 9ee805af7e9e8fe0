// Moves by drag-and-drop (a board piece to a legal cell, to an illegal one, a piece from the
// hand), the kanji piece set chosen and remembered on every game, and the phone layout: the
// board, every hand and clock within the first 390×844 screen, the move list below.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASE, launch, newPage, getJSON, createGame, seatLink, waitActing, waitPly, screenshot, boardOf, cellsOf,
} from './helpers.mjs';

const T = { timeout: 180000 };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** A game of `variant` with every seat human. */
async function humanGame(variant, clock = null) {
  const info = (await getJSON('/api/variants')).find((v) => v.name === variant);
  return createGame({ variant, rules: [], clock, seats: info.seats.map(() => ({ kind: 'human' })) });
}

/** The hot-seat link of a created game: every seat's token in the fragment. */
function hotseatLink(created) {
  const tokens = Object.fromEntries(created.seats.map((s) => [s.seat, s.token]));
  return `/play/${created.id}#hotseat=${encodeURIComponent(JSON.stringify(tokens))}`;
}

/** Plays a move typed in the move box, and waits until the server's answer shows it. */
async function typeMove(page, text) {
  const before = Number(await page.locator('#game').getAttribute('data-ply'));
  await page.fill('#move-input', text);
  await page.press('#move-input', 'Enter');
  await waitPly(page, before + 1);
}

async function centreOf(locator) {
  const box = await locator.boundingBox();
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

const cellCentre = (page, cell) => centreOf(page.locator(`#board [data-cell="${cell}"] polygon`));

/**
 * Drags with the mouse from `from` to `to` (screen points) in small steps; `during` runs while
 * the piece is held over `to`, before the release.
 */
async function drag(page, from, to, during = async () => {}) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 4, from.y + 8, { steps: 2 });
  await page.waitForSelector('.drag-ghost');
  await page.mouse.move(to.x, to.y, { steps: 8 });
  await during();
  await page.mouse.up();
  await page.waitForSelector('.drag-ghost', { state: 'detached' });
}

async function serverMoves(id) {
  return (await getJSON(`/api/games/${id}`)).moves.map((m) => m.move);
}

/** The text written on the piece of `seat` with `letter` (promoted: `+` first), or on a cell. */
async function pieceText(page, selector) {
  return page.locator(`#board ${selector} .piece text`).first().textContent();
}

describe('drag-and-drop, kanji pieces and the phone layout', { concurrency: false }, () => {
  let browser;
  before(async () => { browser = await launch(); });
  after(async () => { await browser?.close(); });

  test('drags play legal moves and drops, an illegal drag plays nothing, kanji are chosen and remembered', T, async () => {
    const created = await humanGame('sannin');
    const { page, context } = await newPage(browser);
    await page.goto(BASE + hotseatLink(created));
    await page.waitForSelector('#game[data-ply="0"]');
    await waitActing(page, 'First');

    // A press and release without moving is a click: the piece is selected, nothing dragged.
    await page.click('[data-cell="3a"]');
    await page.waitForSelector('[data-cell="3a"].selected');
    assert.equal(await page.locator('.drag-ghost').count(), 0);
    await page.keyboard.press('Escape');
    await page.waitForSelector('#board .cell.selected', { state: 'detached' });

    // A drag to a legal cell plays it; the destinations show while the piece is held.
    const legal = (await getJSON(`/api/games/${created.id}`)).legal_moves;
    const pawnDests = legal.filter((m) => m.startsWith('P3a-')).map((m) => m.slice(4)).sort();
    await drag(page, await cellCentre(page, '3a'), await cellCentre(page, '4a'), async () => {
      await page.waitForSelector('[data-cell="4a"].dest.drag-over');
      assert.deepEqual(await page.$$eval('#board .cell.dest', (c) => c.map((x) => x.dataset.cell).sort()), pawnDests);
      assert.ok(await page.locator('[data-cell="3a"].drag-origin').count(), 'the piece is faint where it stood');
      await screenshot(page, 'drag-in-progress.png');
    });
    await waitPly(page, 1);
    assert.deepEqual(await serverMoves(created.id), ['P3a-4a']);
    assert.equal((await boardOf(page))['4a'], 'First:P');

    // Middle drags his silver to a cell it cannot reach: nothing is played, the silver stays.
    await waitActing(page, 'Middle');
    const middleLegal = (await getJSON(`/api/games/${created.id}`)).legal_moves;
    assert.ok(!middleLegal.some((m) => m.startsWith('S12m') && m.endsWith('7g')), '7g is out of the silver\'s reach');
    await drag(page, await cellCentre(page, '12m'), await cellCentre(page, '7g'));
    assert.equal(await page.locator('#board .cell.selected, #board .cell.dest').count(), 0, 'the selection is dropped');
    assert.equal(await page.locator('#board .drag-origin').count(), 0);
    assert.equal((await boardOf(page))['12m'], 'Middle:S', 'the silver is back on its cell');
    assert.equal(await page.locator('#game').getAttribute('data-ply'), '1');
    assert.ok(await page.locator('#notice').isHidden(), 'no move was refused: none was sent');
    // The next move the server records is the one Middle plays now.
    await typeMove(page, 'S12m-11l');
    assert.deepEqual(await serverMoves(created.id), ['P3a-4a', 'S12m-11l']);

    // Kanji, chosen here, are on the board at once and in the promotion question.
    await page.selectOption('#piece-set', 'kanji');
    await page.waitForFunction(() => document.querySelector('#board [data-piece="First:K"] .piece text')?.textContent === '玉');
    await typeMove(page, 'P7c-7d');
    // A capture by dragging, with the promotion question answered.
    await drag(page, await cellCentre(page, '4a'), await cellCentre(page, '5a'));
    await page.waitForSelector('#promotion[open]');
    assert.equal(await page.locator('#promote-yes .glyph-chip').textContent(), 'と');
    assert.equal(await page.locator('#promote-no .glyph-chip').textContent(), '歩');
    await screenshot(page, 'kanji-promotion.png');
    await page.click('#promote-yes');
    await waitPly(page, 4);
    assert.deepEqual((await serverMoves(created.id)).slice(3), ['P4ax5a+']);
    await typeMove(page, 'G9m-9l');
    await typeMove(page, 'P6b-6c');
    await waitActing(page, 'First');

    // The choice survives a reload: kanji on the board, promoted and not, and in the hand.
    await page.goto(BASE + hotseatLink(created));
    await waitActing(page, 'First');
    assert.equal(await page.locator('#piece-set').inputValue(), 'kanji');
    assert.equal(await pieceText(page, '[data-piece="First:K"]'), '玉');
    assert.equal(await pieceText(page, '[data-piece="Middle:R"]'), '飛');
    assert.equal(await pieceText(page, '[data-cell="5a"]'), 'と');
    const hand = page.locator('.player[data-seat="First"] .hand button[data-letter="P"]');
    assert.equal(await hand.locator('.glyph').textContent(), '歩');
    await screenshot(page, 'kanji-sannin-hand.png');

    // A drag from the hand drops the pawn.
    const dropCells = (await getJSON(`/api/games/${created.id}`)).legal_moves.filter((m) => m.startsWith('P*'));
    assert.ok(dropCells.includes('P*5e'));
    await drag(page, await centreOf(hand), await cellCentre(page, '5e'), async () => {
      await page.waitForSelector('[data-cell="5e"].dest.drag-over');
      assert.equal(await page.locator('#board .cell.dest').count(), dropCells.length);
    });
    await waitPly(page, 7);
    assert.equal((await serverMoves(created.id))[6], 'P*5e');
    assert.equal((await boardOf(page))['5e'], 'First:P');
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  test('every game wears its kanji once chosen, and letters again when chosen', T, async () => {
    const { page, context } = await newPage(browser);
    for (const variant of ['sannin', 'tphs91', 'hexshogi91', 'sankaku']) {
      const created = await humanGame(variant);
      const { kanji, pieces } = await getJSON(`/api/variants/${variant}/layout`);
      const [royal] = Object.entries(pieces).find(([, name]) => /^(king|emperor)$/.test(name));
      const seat = created.seats[0].seat;
      await page.goto(BASE + seatLink(created, seat));
      await page.waitForSelector('#game[data-ply="0"]');
      await page.selectOption('#piece-set', 'kanji');
      await page.waitForFunction(([s, l, k]) => document.querySelector(`#board [data-piece="${s}:${l}"] .piece text`)?.textContent === k, [seat, royal, kanji[royal]]);
      // Every piece on the board wears its letter's kanji, none a Latin letter.
      const texts = await page.$$eval('#board .piece text', (t) => [...new Set(t.map((x) => x.textContent))]);
      assert.ok(texts.every((t) => Object.values(kanji).includes(t)), `${variant}: ${texts.join(' ')}`);
      await screenshot(page, `kanji-${variant}.png`);
    }
    await page.selectOption('#piece-set', 'letters');
    await page.waitForFunction(() => document.querySelector('#board [data-piece="Black:E"] .piece text')?.textContent === 'E');
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  for (const [variant, seat] of [['sannin', 'First'], ['hexshogi91', 'Black']]) {
    test(`on a 390×844 phone, ${variant}'s board, hands and clocks fit the first screen`, T, async () => {
      const created = await humanGame(variant, { initial_ms: 600000, increment_ms: 0 });
      if (variant === 'sannin') {
        // A pawn in First's hand, so that a hand holds a piece.
        const { page, context } = await newPage(browser);
        await page.goto(BASE + hotseatLink(created));
        await waitActing(page, 'First');
        for (const mv of ['P3a-4a', 'S12m-11l', 'P7c-7d', 'P4ax5a+']) await typeMove(page, mv);
        await context.close();
      }
      const { page, context } = await newPage(browser, PHONE);
      await page.goto(BASE + seatLink(created, seat));
      await page.waitForSelector('#game[aria-busy="false"]');
      await page.waitForSelector('#players .clock:not([hidden])');
      const boxes = await page.evaluate(() => {
        const box = (e) => {
          const r = e.getBoundingClientRect();
          return { top: r.top + window.scrollY, bottom: r.bottom + window.scrollY, left: r.left, right: r.right };
        };
        return {
          board: box(document.querySelector('#board svg')),
          hands: [...document.querySelectorAll('#players .hand')].map(box),
          clocks: [...document.querySelectorAll('#players .clock')].map(box),
          moves: box(document.querySelector('#moves')),
          width: document.documentElement.scrollWidth,
        };
      });
      const seats = created.seats.length;
      assert.equal(boxes.hands.length, seats);
      assert.equal(boxes.clocks.length, seats);
      for (const [what, b] of [['board', boxes.board], ...boxes.hands.map((b) => ['hand', b]), ...boxes.clocks.map((b) => ['clock', b])]) {
        assert.ok(b.top >= 0 && b.bottom <= 844, `${variant}: the ${what} (${Math.round(b.top)}–${Math.round(b.bottom)} px) lies in the first screen`);
        assert.ok(b.left >= 0 && b.right <= 390, `${variant}: the ${what} is not cut at the sides`);
      }
      assert.ok(boxes.board.bottom - boxes.board.top > 300, 'the board is not shrunk to fit');
      assert.ok(boxes.moves.top > Math.max(...boxes.hands.map((b) => b.bottom)), 'the move list follows the players');
      assert.ok(boxes.width <= 390, 'nothing scrolls sideways');
      await screenshot(page, `phone-${variant}-${seat}.png`);
      await screenshot(page, `phone-${variant}-${seat}-full.png`, { fullPage: true });
      if (variant === 'hexshogi91') {
        // A finger drags a pawn forward: the move is played and the page does not scroll.
        const state = await getJSON(`/api/games/${created.id}`);
        const { from, to } = cellsOf(state.legal_moves.find((m) => /^P\w+-\w+$/.test(m)));
        const start = await cellCentre(page, from);
        const end = await cellCentre(page, to);
        const cdp = await context.newCDPSession(page);
        const touch = (type, points) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points });
        await touch('touchStart', [start]);
        for (let i = 1; i <= 8; i++) {
          await touch('touchMove', [{ x: start.x + ((end.x - start.x) * i) / 8, y: start.y + ((end.y - start.y) * i) / 8 }]);
        }
        await page.waitForSelector('.drag-ghost');
        await touch('touchEnd', []);
        await waitPly(page, 1);
        assert.equal((await getJSON(`/api/games/${created.id}`)).moves[0].move, `P${from}-${to}`);
        assert.equal(await page.evaluate(() => window.scrollY), 0, 'the page did not scroll under the finger');
      }
      assert.deepEqual(page.errors, []);
      await context.close();
    });
  }
});
