// The engine's review on the game page: a game not over offers none; a finished Sannin game
// between three bots is reviewed on request (progress, then the chart with one line per seat
// and one point per position, the marks in the move list, each seat's summary); a click on the
// chart shows that ply with the engine's moves the server gave; the review is stored and shows
// at once on a new visit; on a phone the chart spans the page under the board and takes taps.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASE, launch, newPage, getJSON, createGame, waitViewing, cellsOf, screenshot,
} from './helpers.mjs';

const T = { timeout: 180000 };
const PLIES = 24; // the move limit of the reviewed game: reviewed in half a minute, with a few marks as a rule

/** Opens the game page of a finished game as a spectator, the end screen closed. */
async function openFinished(page, id) {
  await page.goto(`${BASE}/play/${id}`);
  await page.waitForSelector('#game[data-over="1"]');
  await page.waitForSelector('#game-end[open]');
  await page.click('#end-review');
}

/** Clicks (or taps) the chart over `ply`, of `last` plies. */
async function pickOnChart(page, ply, last, { tap = false } = {}) {
  await page.locator('#review-chart').scrollIntoViewIfNeeded();
  const box = await page.locator('#review-chart .hit').boundingBox();
  const x = box.x + (box.width * ply) / last;
  const y = box.y + box.height / 2;
  if (tap) await page.touchscreen.tap(x, y);
  else await page.mouse.click(x, y);
}

describe('the game review', { concurrency: false }, () => {
  let browser;
  let id;      // the finished game
  let game;    // its state
  let review;  // its review, once done

  before(async () => {
    browser = await launch();
    const created = await createGame({
      variant: 'sannin', clock: null, rules: [`max_plies=${PLIES}`],
      seats: [1, 2, 3].map(() => ({ kind: 'bot', level: 'beginner' })),
    });
    id = created.id;
  });

  after(async () => {
    await browser?.close();
  });

  test('a game that is not over offers no review', T, async () => {
    const created = await createGame({
      variant: 'hexshogi91', clock: null, seats: [{ kind: 'human' }, { kind: 'bot', level: 'beginner' }],
    });
    const { context, page } = await newPage(browser);
    await page.goto(`${BASE}/play/${created.id}`);
    await page.waitForSelector('#game[aria-busy="false"]');
    await page.waitForSelector('#board svg');
    assert.equal(await page.locator('#review').isHidden(), true);
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  test('Review: the progress, then a line per seat, the marks and the summary', T, async () => {
    const { context, page } = await newPage(browser);
    await openFinished(page, id);
    game = await getJSON(`/api/games/${id}`);
    assert.equal(game.moves.length, PLIES, 'the move limit ended the game');
    // Nobody asked yet: the button, no chart.
    await page.waitForSelector('#review-ask-row:not([hidden])');
    assert.equal(await page.locator('#review-ask').innerText(), 'Review');
    assert.match(await page.locator('#review-ask-text').innerText(), /Ask the engine to review this game/);
    assert.equal(await page.locator('#review-result').isHidden(), true);
    // Every progress line the page writes, kept.
    await page.evaluate(() => {
      window.progressLines = [];
      const p = document.querySelector('#review-progress-text');
      new MutationObserver(() => window.progressLines.push(p.textContent)).observe(p, { childList: true, characterData: true, subtree: true });
    });
    await page.click('#review-ask');
    // The POST answers a new review as queued; the polls then follow it to its end.
    await page.waitForSelector('#review-progress-box:not([hidden])');
    await page.waitForSelector('#review[data-status="done"]', { timeout: 150000 });
    assert.equal(await page.locator('#review-progress-box').isHidden(), true);
    const lines = await page.evaluate(() => window.progressLines);
    assert.equal(lines[0], 'Queued: the engine reviews one game at a time.');
    const counts = lines.slice(1).map((line) => {
      const m = new RegExp(`^Reviewing: (\\d+) of ${PLIES + 1} positions$`).exec(line);
      assert.ok(m || line === lines[0], `a progress line: ${line}`);
      return m ? Number(m[1]) : 0;
    });
    assert.deepEqual(counts, [...counts].sort((a, b) => a - b), 'the count only grows');
    review = await getJSON(`/api/games/${id}/review`);
    assert.equal(review.status, 'done');
    assert.equal(review.plies.length, PLIES + 1);

    // One line per seat, in the seats' order, each with a point per position.
    const seatLines = page.locator('#review-chart polyline.seat-line');
    assert.equal(await seatLines.count(), game.seats.length);
    for (let i = 0; i < game.seats.length; i += 1) {
      assert.equal(await seatLines.nth(i).getAttribute('data-seat'), game.seats[i].seat);
      const points = (await seatLines.nth(i).getAttribute('points')).trim().split(/\s+/);
      assert.equal(points.length, PLIES + 1, `${game.seats[i].seat}: a point per position`);
    }
    assert.match(await page.locator('#review-chart svg title').textContent(), /evaluation of each seat/);
    // The marks the server gave, after their moves in the list and as dots on the chart.
    const marked = review.plies.filter((p) => p.ply > 0 && p.mark);
    assert.equal(await page.locator('#moves .review-mark').count(), marked.length);
    assert.equal(await page.locator('#review-chart circle.mark').count(), marked.length);
    for (const p of marked) {
      const mark = page.locator(`#moves [data-ply="${p.ply}"] .review-mark`);
      assert.equal(await mark.getAttribute('data-mark'), p.mark);
      assert.equal(await mark.innerText(), { inaccuracy: '?!', mistake: '?', blunder: '??' }[p.mark]);
      assert.match(await mark.getAttribute('title'), /^(Inaccuracy|Mistake|Blunder): lost \d+\.\d pawns?$/);
    }
    // The summary: a row per seat, named as the players panel names them.
    const rows = page.locator('#review-summary-body tr');
    assert.equal(await rows.count(), game.seats.length);
    for (let i = 0; i < game.seats.length; i += 1) {
      assert.equal(await rows.nth(i).locator('th').innerText(), `${game.seats[i].seat} (bot, beginner)`);
      const count = (mark) => marked.filter((p) => game.moves[p.ply - 1].seat === game.seats[i].seat && p.mark === mark).length;
      const cells = await rows.nth(i).locator('td').allInnerTexts();
      assert.deepEqual(cells.slice(0, 3).map(Number), [count('inaccuracy'), count('mistake'), count('blunder')]);
    }
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  test('a click on the chart shows that ply, with the engine\'s moves there', T, async () => {
    const { context, page } = await newPage(browser);
    await openFinished(page, id);
    // Asked before: the review shows at once, no button to press.
    await page.waitForSelector('#review[data-status="done"]');
    assert.equal(await page.locator('#review-ask-row').isHidden(), true);
    // A marked board move when there is one (its words then say the mark), else the first
    // board move: a drop marks one cell, and the check below reads a move's two.
    const boardMove = (p) => p.ply > 1 && p.ply < PLIES - 1 && cellsOf(game.moves[p.ply - 1].move) !== null;
    const ply = (review.plies.find((p) => p.mark && boardMove(p)) ?? review.plies.find(boardMove)).ply;
    await pickOnChart(page, ply, PLIES);
    await waitViewing(page, String(ply));
    assert.equal(await page.locator('#moves [aria-current="true"]').getAttribute('data-ply'), String(ply));
    assert.equal(await page.locator('#review-chart svg').getAttribute('data-current'), String(ply));
    // The board marks the move that led here.
    const mv = game.moves[ply - 1];
    const { from, to } = cellsOf(mv.move);
    const last = await page.locator('#board .cell.last').evaluateAll((cells) => cells.map((c) => c.dataset.cell).sort());
    assert.deepEqual(last, [from, to].sort());
    // The engine's words are the server's: its move where this one was played, and its move here.
    const before = review.plies[ply - 1];
    const here = review.plies[ply];
    const played = await page.locator('#review-played').innerText();
    assert.ok(played.startsWith(`Move ${ply}, ${mv.seat} ${mv.short}`), played);
    if (here.mark) assert.ok(played.includes(' — Mistake: ') || played.includes(' — Blunder: ') || played.includes(' — Inaccuracy: '), played);
    if (before.best === mv.move) {
      assert.match(played, /The engine would have played it too\.$/);
    } else {
      assert.equal(await page.locator('#review-played .engine-move').innerText(), before.best_short);
      assert.ok(played.endsWith(`The engine preferred ${before.best_short}.`), played);
    }
    assert.equal(await page.locator('#review-next .engine-move').innerText(), here.best_short);
    assert.equal(await page.locator('#review-next').innerText(), `Best here for ${game.moves[ply].seat}: ${here.best_short}.`);
    // The moves' buttons go on from there, and the marker follows.
    await page.click('#nav-next');
    await waitViewing(page, String(ply + 1));
    assert.equal(await page.locator('#review-chart svg').getAttribute('data-current'), String(ply + 1));
    // Hovering says the ply and each seat's value.
    await page.locator('#review-chart').scrollIntoViewIfNeeded();
    const box = await page.locator('#review-chart .hit').boundingBox();
    await page.mouse.move(box.x + (box.width * 2) / PLIES, box.y + box.height / 2);
    await page.waitForSelector('.review-tip[data-ply="2"]');
    assert.match(await page.locator('.review-tip').innerText(), /^Move 2: \w+ .* · First [+−]?\d+\.\d · Middle [+−]?\d+\.\d · Last [+−]?\d+\.\d$/);
    await page.mouse.move(0, 0);
    await page.waitForSelector('.review-tip:not([data-ply])');
    assert.equal(await page.locator('.review-tip').innerText(), 'Click the chart to see the position after a move.');
    // Every seat's view of it, for the eye.
    await pickOnChart(page, ply, PLIES);
    await waitViewing(page, String(ply));
    for (const s of game.seats) {
      await page.selectOption('#view-seat', s.seat);
      await page.waitForFunction((seat) => document.querySelector('#board svg')?.dataset.viewSeat === seat, s.seat);
      await screenshot(page, `review-${s.seat}.png`, { fullPage: true });
    }
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  test('after a reload the stored review shows without asking', T, async () => {
    const { context, page } = await newPage(browser);
    await openFinished(page, id);
    await page.waitForSelector('#review[data-status="done"]');
    await page.reload();
    await page.waitForSelector('#review[data-status="done"]');
    assert.equal(await page.locator('#review-ask-row').isHidden(), true);
    assert.equal(await page.locator('#review-progress-box').isHidden(), true);
    assert.equal(await page.locator('#review-chart polyline.seat-line').count(), 3);
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  test('on a phone the chart spans the page under the board and takes a tap', T, async () => {
    const { context, page } = await newPage(browser, {
      viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2,
    });
    await openFinished(page, id);
    await page.waitForSelector('#review[data-status="done"]');
    const board = await page.locator('#board').boundingBox();
    const chart = await page.locator('#review-chart').boundingBox();
    assert.ok(chart.y >= board.y + board.height, 'the chart is under the board');
    assert.ok(chart.width >= 390 - 40, `the chart takes the page's width (${chart.width} px)`);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `nothing wider than the phone (${width} px)`);
    await pickOnChart(page, 3, PLIES, { tap: true });
    await waitViewing(page, '3');
    await screenshot(page, 'review-phone.png', { fullPage: true });
    assert.deepEqual(page.errors, []);
    await context.close();
  });
});
