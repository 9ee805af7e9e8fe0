// The board seen from one's own side (each seat's king at the bottom, its letters upright), the
// rotate button and a spectator's seat picker, remembered per game; the king in check marked;
// the moves since one's last move highlighted in their seats' colours; the bots' moves shown one
// after another at the default pace; the sounds and the remembered mute.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASE, launch, newPage, getJSON, createGame, seatLink, waitActing, waitPly, waitTurnAfter, clickMove, cellsOf, screenshot,
} from './helpers.mjs';

const T = { timeout: 180000 };

/** A game of `variant` with every seat human, without a clock; its royal piece's letter. */
async function humanGame(variant) {
  const info = (await getJSON('/api/variants')).find((v) => v.name === variant);
  const { pieces } = await getJSON(`/api/variants/${variant}/layout`);
  const [king] = Object.entries(pieces).find(([, name]) => /^(king|emperor)$/i.test(name));
  const created = await createGame({ variant, rules: [], clock: null, seats: info.seats.map(() => ({ kind: 'human' })) });
  return { created, seats: info.seats, king };
}

/**
 * Where `seat`'s king (`letter`) is drawn: the height of its cell's centre within the board, 0 at
 * the top and 1 at the bottom; and the turn of its letter, in degrees modulo 360.
 */
async function kingOnScreen(page, seat, letter = 'K') {
  return page.evaluate(([s, l]) => {
    const cell = document.querySelector(`#board [data-piece="${s}:${l}"]`);
    const board = document.querySelector('#board .cells').getBoundingClientRect();
    const box = cell.querySelector('polygon').getBoundingClientRect();
    const turn = Number(/rotate\((-?[\d.]+)\)/.exec(cell.querySelector('.piece').getAttribute('transform'))[1]);
    return { height: (box.top + box.height / 2 - board.top) / board.height, turn: ((turn % 360) + 360) % 360 };
  }, [seat, letter]);
}

async function assertKingAtBottom(page, seat, what, letter = 'K') {
  const king = await kingOnScreen(page, seat, letter);
  assert.ok(king.height > 2 / 3, `${what}: ${seat}'s king is in the bottom third (at ${king.height.toFixed(2)})`);
  assert.equal(king.turn, 0, `${what}: ${seat}'s letters are upright`);
}

/** The seat the board is seen from, once the page drew it. */
async function viewSeat(page) {
  return page.locator('#board svg').getAttribute('data-view-seat');
}

describe('the board seen from one\'s seat', { concurrency: false }, () => {
  let browser;
  before(async () => { browser = await launch(); });
  after(async () => { await browser?.close(); });

  test('each seat of every game sees its own king at the bottom, upright', T, async () => {
    for (const variant of ['sannin', 'tphs91', 'hexshogi91', 'sankaku']) {
      const { created, seats, king } = await humanGame(variant);
      for (const seat of seats) {
        const { page, context } = await newPage(browser);
        await page.goto(BASE + seatLink(created, seat));
        await page.waitForSelector('#game[data-ply="0"]');
        assert.equal(await viewSeat(page), seat);
        await assertKingAtBottom(page, seat, variant, king);
        // The other armies' letters face their own sides, not the viewer.
        for (const other of seats.filter((s) => s !== seat)) {
          assert.notEqual((await kingOnScreen(page, other, king)).turn, 0, `${variant}: ${other}'s letters face ${other}`);
        }
        await screenshot(page, `board-${variant}-${seat}.png`);
        assert.deepEqual(page.errors, []);
        await context.close();
      }
    }
  });

  test('on a phone asking for reduced motion, First of Sannin sees his army at the bottom; pieces do not slide', T, async () => {
    const { created } = await humanGame('sannin');
    const { page, context } = await newPage(browser, {
      viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, reducedMotion: 'reduce',
    });
    await page.goto(BASE + seatLink(created, 'First'));
    await page.waitForSelector('#game[data-ply="0"]');
    await assertKingAtBottom(page, 'First', 'phone');
    await screenshot(page, 'board-sannin-First-phone.png', { fullPage: true });
    await clickMove(page, 'P3c-4d');
    const slot = page.locator('[data-cell="4d"] .piece-slot.sliding');
    assert.equal(await slot.evaluate((g) => getComputedStyle(g).transitionDuration), '0s');
    await context.close();
  });

  test('the rotate button turns the board through every seat and is remembered', T, async () => {
    const { created, seats } = await humanGame('sannin');
    const { page, context } = await newPage(browser);
    await page.goto(BASE + seatLink(created, 'First'));
    await page.waitForSelector('#game[data-ply="0"]');
    assert.ok(await page.locator('#view-seat-row').isHidden(), 'a player has the rotate button, not the seat picker');
    const seen = [await viewSeat(page)];
    for (let i = 0; i < seats.length; i++) {
      await page.click('#rotate');
      await page.waitForFunction((prev) => document.querySelector('#board svg').dataset.viewSeat !== prev, seen[seen.length - 1]);
      const seat = await viewSeat(page);
      seen.push(seat);
      await assertKingAtBottom(page, seat, `rotated to ${seat}`);
    }
    assert.deepEqual([...seen.slice(0, 3)].sort(), [...seats].sort(), 'three turns show each seat once');
    assert.equal(seen[3], 'First', 'the fourth turn is back at First');
    // Turned to Middle, the view survives a reload, and clicks still reach the right cells.
    await page.click('#rotate');
    const turned = await viewSeat(page);
    assert.notEqual(turned, 'First');
    await page.reload();
    await page.waitForSelector('#game[data-ply="0"]');
    assert.equal(await viewSeat(page), turned, 'the turn is remembered for this game');
    await screenshot(page, `board-sannin-First-rotated-to-${turned}.png`);
    await clickMove(page, 'P3c-4d');
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  test('a spectator chooses the seat to view from', T, async () => {
    const { created, seats } = await humanGame('hexshogi91');
    const { page, context } = await newPage(browser);
    await page.goto(BASE + created.spectator_link);
    await page.waitForSelector('#game[data-ply="0"]');
    assert.equal(await viewSeat(page), seats[0], 'a spectator first sees the first seat\'s side');
    await page.waitForSelector('#view-seat-row:not([hidden])');
    await page.selectOption('#view-seat', seats[1]);
    await page.waitForFunction((s) => document.querySelector('#board svg').dataset.viewSeat === s, seats[1]);
    await assertKingAtBottom(page, seats[1], 'spectator');
    await screenshot(page, `board-hexshogi91-spectator-${seats[1]}.png`);
    await page.reload();
    await page.waitForSelector('#game[data-ply="0"]');
    assert.equal(await viewSeat(page), seats[1], 'the chosen seat is remembered');
    assert.equal(await page.locator('#view-seat').inputValue(), seats[1]);
    await context.close();
  });
});

/** The seat whose move marks `cell` on the board, or null. */
async function trailAt(page, cell) {
  return page.locator(`[data-cell="${cell}"]`).getAttribute('data-trail');
}

/** Starts recording every ply the page shows (#game[data-ply]), in order. */
async function recordPlies(page) {
  await page.evaluate(() => {
    const game = document.querySelector('#game');
    window.shownPlies = [game.dataset.ply];
    // Each change's old value, then the value now: no ply shown between two records is lost.
    new MutationObserver((records) => {
      for (const r of records) window.shownPlies.push(r.oldValue);
    }).observe(game, { attributes: true, attributeFilter: ['data-ply'], attributeOldValue: true });
  });
}

async function recordedPlies(page) {
  const plies = await page.evaluate(() => [...window.shownPlies, document.querySelector('#game').dataset.ply].map(Number));
  return plies.filter((p, i) => i === 0 || p !== plies[i - 1]);
}

describe('moves made visible', { concurrency: false }, () => {
  let browser;
  before(async () => { browser = await launch(); });
  after(async () => { await browser?.close(); });

  test('at the default pace the bots\' moves are shown one after another, each in its colour', T, async () => {
    const levels = await getJSON('/api/levels');
    const created = await createGame({
      variant: 'sannin', rules: [], clock: null,
      seats: [{ kind: 'human' }, { kind: 'bot', level: levels[0].name }, { kind: 'bot', level: levels[0].name }],
    });
    const { page, context } = await newPage(browser);
    await page.goto(BASE + seatLink(created, 'First'));
    await waitActing(page, 'First');
    assert.equal(await page.locator('#pace').inputValue(), '600', 'the default pace is 0.6 s');
    await recordPlies(page);
    await clickMove(page, 'P3c-4d');
    await waitTurnAfter(page, 'First', 3);
    assert.deepEqual((await recordedPlies(page)).slice(0, 4), [0, 1, 2, 3], 'each bot move was shown on its own');
    // Marked: the moves since First's own, each in its seat's colour, the latest strongest.
    const { moves } = await getJSON(`/api/games/${created.id}`);
    const [middle, last] = [cellsOf(moves[1].move), cellsOf(moves[2].move)];
    for (const cell of [last.from, last.to]) {
      assert.equal(await trailAt(page, cell), 'Last', `${cell}: Last's move`);
      assert.ok(await page.locator(`[data-cell="${cell}"].latest`).count(), `${cell}: the latest move`);
    }
    for (const cell of [middle.from, middle.to].filter((c) => c !== last.from && c !== last.to)) {
      assert.equal(await trailAt(page, cell), 'Middle', `${cell}: Middle's move`);
      assert.equal(await page.locator(`[data-cell="${cell}"].latest`).count(), 0, `${cell}: not the latest`);
    }
    const touched = new Set([middle.from, middle.to, last.from, last.to]);
    for (const cell of ['3c', '4d'].filter((c) => !touched.has(c))) {
      assert.equal(await trailAt(page, cell), null, `${cell}: First's own move is no longer marked`);
    }
    const colours = await page.evaluate(() => Object.fromEntries(['Middle', 'Last'].map((s) => [s,
      getComputedStyle(document.querySelector(`[data-trail="${s}"] polygon`)).fill])));
    assert.notEqual(colours.Middle, colours.Last, 'the two seats\' moves are marked in different colours');
    await screenshot(page, 'board-sannin-trail.png');
    // At the pace 0 the page shows the states as they come, and remembers it.
    await page.selectOption('#pace', '0');
    await page.reload();
    await waitActing(page, 'First');
    assert.equal(await page.locator('#pace').inputValue(), '0');
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  test('a check marks the king and sounds; mute is remembered', T, async () => {
    const { created } = await humanGame('hexshogi91');
    const black = (await newPage(browser)).page;
    const white = (await newPage(browser)).page; // a browser context of its own: its own settings
    await black.goto(BASE + seatLink(created, 'Black'));
    await white.goto(BASE + seatLink(created, 'White'));
    await waitActing(black, 'Black');
    await white.waitForSelector('#game[data-ply="0"]');
    // White mutes the sounds; a reload keeps them muted.
    assert.ok(await white.locator('#sound-on').isChecked(), 'sounds are on by default');
    await white.uncheck('#sound-on');
    await white.reload();
    await white.waitForSelector('#game[data-ply="0"]');
    assert.equal(await white.locator('#sound-on').isChecked(), false, 'the mute is remembered');

    await clickMove(black, 'K4j-4i');
    assert.equal(await black.locator('body').getAttribute('data-sound'), 'move');
    await waitActing(white, 'White');
    // Black's king slid to its cell on White's screen.
    const slid = white.locator('[data-cell="4i"] .piece-slot.sliding');
    assert.notEqual(await slid.evaluate((g) => getComputedStyle(g).transitionDuration), '0s');
    // The bishop's move gives check to Black's king.
    await clickMove(white, 'B6b-7c');
    await waitActing(black, 'Black');
    const { in_check: inCheck } = await getJSON(`/api/games/${created.id}`);
    assert.deepEqual(inCheck, ['Black'], 'the server says Black is in check');
    assert.equal(await black.locator('body').getAttribute('data-sound'), 'check');
    assert.equal(await black.locator('body').getAttribute('data-sound-count'), '2');
    assert.equal(await white.locator('body').getAttribute('data-sound-count'), null, 'muted: no sound asked for');
    const king = black.locator('[data-piece="Black:K"]');
    assert.equal(await king.getAttribute('data-cell'), '4i');
    assert.match(await king.getAttribute('class'), /\bin-check\b/);
    assert.equal(await king.locator('.check-glow').count(), 1, 'the red glow under the king');
    assert.match(await king.getAttribute('aria-label'), /in check/);
    assert.match(await black.locator('.player[data-seat="Black"] .tag.check').innerText(), /in check/);
    assert.match(await black.locator('#turn').innerText(), /in check/);
    // Marked on Black's board: White's move since his own, not his own king move.
    assert.equal(await trailAt(black, '7c'), 'White');
    assert.equal(await trailAt(black, '4j'), null);
    await screenshot(black, 'board-hexshogi91-check-Black.png');
    await screenshot(white, 'board-hexshogi91-check-White.png');
    // Any answer to the check takes the mark away.
    const { legal_moves: legal } = await getJSON(`/api/games/${created.id}`);
    await clickMove(black, legal.find((m) => cellsOf(m)));
    await black.waitForFunction(() => !document.querySelector('#board .in-check'));
    assert.equal(await black.locator('#board .check-glow').count(), 0);
    assert.equal(await black.locator('.player .tag.check').count(), 0);
    assert.deepEqual(black.errors, []);
    assert.deepEqual(white.errors, []);
    await black.context().close();
    await white.context().close();
  });
});
