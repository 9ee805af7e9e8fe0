// The analysis board (/analysis) and the 1932 study (/study/1932): a pasted record stepped
// through, the engine's values and lines from the server, a variation and the way back to the
// main line, a drop, the end of an analysis in words, the study's notes and its way to the
// analysis board, a game's "Analyse" link; screenshots from every seat and on a phone.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  BASE, launch, newPage, getJSON, createGame, seatLink, waitActing, clickMove, boardOf, serverBoard, screenshot, cellsOf,
} from './helpers.mjs';

const T = { timeout: 180000 };
const RECORD = fs.readFileSync(path.resolve('records/sannin-1932-sample.psn'), 'utf8');

async function study(body) {
  const res = await fetch(`${BASE}/api/study/position`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST /api/study/position: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Waits until the analysis board shows the position after `ply` moves, drawn. */
async function waitShown(page, ply) {
  await page.waitForFunction((n) => {
    const main = document.querySelector('#analysis');
    return main?.dataset.ready === '1' && Number(main.dataset.ply) === n;
  }, ply);
}

/** Waits for an engine report of the shown position with `lines` lines and a value for every seat. */
async function waitReport(page, lines, seats) {
  await page.waitForFunction(([n, s]) => {
    const engine = document.querySelector('#engine');
    return Number(engine.dataset.depth) > 0
      && document.querySelectorAll('#engine-pvs .pv').length === n
      && document.querySelectorAll('#engine-evals li[data-score]').length === s;
  }, [lines, seats]);
}

const firstMoves = (page) => page.$$eval('#engine-pvs .pv-first', (bs) => bs.map((b) => b.dataset.move));

describe('the analysis board and the 1932 study', { concurrency: false }, () => {
  let browser;
  before(async () => { browser = await launch(); });
  after(async () => { await browser?.close(); });

  test('a pasted record, stepped to ply 10, analysed; a variation and back to the main line; stopped', T, async () => {
    const { page, context } = await newPage(browser);
    await page.goto(`${BASE}/analysis`);
    await waitShown(page, 0);
    await page.fill('#load-text', RECORD);
    await page.click('#load-submit');
    await page.waitForURL(/variant=sannin/);
    await waitShown(page, 0);
    assert.equal(await page.locator('#tree .mainline .mv[data-move]').count(), 18, 'the record\'s 18 moves are the main line');

    // The arrow keys step through it.
    for (let ply = 1; ply <= 10; ply++) {
      await page.keyboard.press('ArrowRight');
      await waitShown(page, ply);
    }
    const at10 = await study({ record: RECORD, ply: 10 });
    assert.deepEqual(await boardOf(page), serverBoard(at10), 'the board after move 10');
    assert.equal(await page.locator('#analysis').getAttribute('data-to-move'), 'Middle');
    assert.match(await page.locator('#turn').innerText(), /Middle to move/);

    // The engine: a value for every seat, three lines, each starting with a different legal move.
    await page.click('#engine-toggle');
    await waitReport(page, 3, 3);
    const evals = await page.$$eval('#engine-evals li', (lis) => lis.map((li) => [li.dataset.seat, li.querySelector('.value').textContent]));
    assert.deepEqual(evals.map(([seat]) => seat), ['First', 'Middle', 'Last']);
    for (const [seat, value] of evals) assert.match(value, /^([+−]\d+\.\d\d|0\.00|winning|losing)$/, `${seat}'s value in words or pawns`);
    assert.ok(Number(await page.locator('#engine').getAttribute('data-depth')) > 0, 'a depth from the server');
    assert.match(await page.locator('#engine-stats').innerText(), /^Depth \d+ · .* nodes\/s · \d+\.\d s$/);
    const firsts = await firstMoves(page);
    assert.equal(new Set(firsts).size, 3, `three different first moves: ${firsts}`);
    for (const mv of firsts) assert.ok(at10.legal_moves.includes(mv), `${mv} is a legal move after move 10`);
    for (const seat of ['First', 'Middle', 'Last']) {
      await page.selectOption('#view-seat', seat);
      await page.waitForSelector(`#analysis[data-view="${seat}"]`);
      await screenshot(page, `analysis-${seat}.png`, { fullPage: true });
    }
    await page.selectOption('#view-seat', 'Middle');

    // A variation: another move than the record's R7l-7g+ at move 11, played on the board.
    const other = at10.legal_moves.find((m) => m.startsWith('P') && !m.endsWith('+') && !m.endsWith('=') && cellsOf(m));
    const { from, to } = cellsOf(other);
    await page.click(`#board [data-cell="${from}"]`);
    await page.waitForSelector(`#board [data-cell="${to}"].dest`);
    await page.click(`#board [data-cell="${to}"]`);
    await waitShown(page, 11);
    assert.equal(await page.locator('#analysis').getAttribute('data-main'), '', 'the new move is a variation');
    const variation = page.locator('#tree .variation .mv[aria-current="true"]');
    assert.equal(await variation.getAttribute('data-move'), other, 'the variation is drawn under the main line, marked as shown');
    assert.equal(await page.locator('#tree .mainline > .mv[data-ply="11"]').getAttribute('data-move'), 'R7l-7g+', 'the main line keeps its move 11');
    const afterOther = await study({ variant: 'sannin', rules: [], start: null, moves: [...at10.moves.map((m) => m.move), other] });
    assert.deepEqual(await boardOf(page), serverBoard(afterOther), 'the board after the variation\'s move');
    // The engine follows the board: its lines are now the new position's.
    await page.waitForFunction((legal) => {
      const moves = [...document.querySelectorAll('#engine-pvs .pv-first')].map((b) => b.dataset.move);
      return Number(document.querySelector('#engine').dataset.depth) > 0 && moves.length === 3 && moves.every((m) => legal.includes(m));
    }, afterOther.legal_moves);

    // Back to the main line: move 10 shown, then → goes on with the record's move.
    await page.click('#tree-main');
    await waitShown(page, 10);
    assert.equal(await page.locator('#analysis').getAttribute('data-main'), '1');
    assert.deepEqual(await boardOf(page), serverBoard(at10), 'back at the main line\'s move 10');
    await page.keyboard.press('ArrowRight');
    await waitShown(page, 11);
    assert.equal(await page.locator('#tree .mv[aria-current="true"]').getAttribute('data-move'), 'R7l-7g+');
    assert.equal(await page.locator('#tree .variation .mv').count(), 1, 'the variation is still there');

    // Stopping says so.
    await page.click('#engine-toggle');
    await page.waitForSelector('#engine[data-end="stopped"]');
    assert.equal(await page.locator('#engine-status').innerText(), 'Stopped');
    assert.equal(await page.locator('#engine-toggle').innerText(), 'Start analysis');

    // Deleting the variation leaves the main line alone.
    await page.click('#tree .variation .mv');
    await waitShown(page, 11);
    await page.click('#tree-delete');
    await waitShown(page, 10);
    assert.equal(await page.locator('#tree .variation').count(), 0, 'the variation is gone');
    assert.equal(await page.locator('#tree .mainline .mv[data-move]').count(), 18);
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  test('a piece in hand dropped on the analysis board (1932 game, move 14: Last holds a bishop); an alliance as a rule option', T, async () => {
    const whole = await study({ record: RECORD });
    const moves = whole.moves.map((m) => m.move);
    const at14 = await study({ record: RECORD, ply: 14 });
    const drop = at14.legal_moves.find((m) => m.startsWith('B*'));
    assert.ok(drop, 'Last may drop the bishop');
    const { page, context } = await newPage(browser);
    await page.goto(`${BASE}/analysis?variant=sannin&moves=${encodeURIComponent(moves.join(' '))}&ply=14`);
    await waitShown(page, 14);
    await page.click('#players [data-seat="Last"] .hand button[data-letter="B"]');
    const cell = drop.slice(2);
    await page.waitForSelector(`#board [data-cell="${cell}"].dest`);
    await page.click(`#board [data-cell="${cell}"]`);
    await waitShown(page, 15);
    assert.equal(await page.locator('#tree .mv[aria-current="true"]').getAttribute('data-move'), drop);
    assert.equal((await boardOf(page))[cell], 'Last:B', 'the bishop stands on its cell');

    // The rule options: a pre-game alliance of Middle and Last. This game's moves break it (allies
    // may not promote on move 11 as Middle did), which is said, and the option goes back.
    assert.equal(await page.locator('#alliance').innerText(), 'No alliance');
    await page.click('#rules-box summary');
    await page.selectOption('#rule-alliance', 'ML');
    await page.waitForSelector('#notice:not([hidden])');
    assert.match(await page.locator('#notice').innerText(), /^Under that rule: move 11: `R7l-7g\+` is not legal/);
    assert.equal(await page.locator('#rule-alliance').inputValue(), 'none');
    // From the start it holds: the same first moves studied as if the two had allied.
    await page.click('#tree-first');
    await waitShown(page, 0);
    await page.selectOption('#rule-alliance', 'ML');
    await page.waitForFunction(() => document.querySelector('#alliance').textContent === 'Alliance: Middle and Last against First');
    await page.click('#tree-next');
    await waitShown(page, 1);
    assert.equal(await page.locator('#alliance').innerText(), 'Alliance: Middle and Last against First');
    assert.match(page.url(), /rules=alliance%3DML/);
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  test('Hex Shogi 91: both values and the lines; the board on a phone', T, async () => {
    const { page, context } = await newPage(browser);
    await page.goto(`${BASE}/analysis?variant=hexshogi91`);
    await waitShown(page, 0);
    await page.click('#engine-toggle');
    await waitReport(page, 3, 2);
    const seats = await page.$$eval('#engine-evals li', (lis) => lis.map((li) => li.dataset.seat));
    assert.deepEqual(seats, ['Black', 'White']);
    await screenshot(page, 'analysis-hexshogi91.png', { fullPage: true });
    await page.click('#engine-toggle');
    await page.waitForSelector('#engine[data-end="stopped"]');
    await context.close();

    const whole = await study({ record: RECORD });
    const phone = await newPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await phone.page.goto(`${BASE}/analysis?variant=sannin&moves=${encodeURIComponent(whole.moves.map((m) => m.move).join(' '))}&ply=12`);
    await waitShown(phone.page, 12);
    const fits = await phone.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
    assert.ok(fits, 'nothing wider than the phone');
    const boardBox = await phone.page.locator('#board svg').boundingBox();
    assert.ok(boardBox.width > 330, `the board takes the phone's width (${boardBox.width})`);
    assert.ok(boardBox.y < 150, 'the board comes first');
    await screenshot(phone.page, 'analysis-phone.png', { fullPage: true });
    assert.deepEqual(phone.page.errors, []);
    await phone.context.close();
  });

  test('the 1932 study explains its moves and opens the analysis board at a ply', T, async () => {
    const { page, context } = await newPage(browser);
    await page.goto(`${BASE}/study/1932`);
    await page.waitForSelector('#study[data-ready="1"][data-ply="0"]');
    assert.equal(await page.locator('#notes .note-item').count(), 19, 'the start and the 18 moves');
    assert.match(await page.locator('#notes [data-ply="12"]').innerText(), /Bx12l[\s\S]*takes Middle's bishop on 12l/);
    assert.match(await page.locator('#notes [data-ply="14"]').innerText(), /Sx12l[\s\S]*bishops are traded/);
    assert.match(await page.locator('#notes [data-ply="11"]').innerText(), /promotes/);
    await page.click('#notes [data-ply="12"] button');
    await page.waitForSelector('#study[data-ply="12"]');
    const at12 = await study({ record: RECORD, ply: 12 });
    await page.waitForFunction(() => document.querySelector('#board [data-cell="12l"]')?.dataset.piece === 'Last:B');
    assert.deepEqual(await boardOf(page), serverBoard(at12), 'the study\'s board after move 12');
    assert.match(await page.locator('#current-note').innerText(), /Last's bishop takes Middle's bishop/);
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector('#study[data-ply="13"]');
    await page.keyboard.press('ArrowLeft');
    await page.waitForSelector('#study[data-ply="12"]');
    await screenshot(page, 'study-1932.png', { fullPage: true });
    await page.click('#analyse');
    await page.waitForURL(/\/analysis\?/);
    await waitShown(page, 12);
    assert.deepEqual(await boardOf(page), serverBoard(at12), 'the analysis board at the same position');
    assert.equal(await page.locator('#tree .mainline .mv[data-move]').count(), 18, 'with the whole game as its main line');
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  test('a game\'s "Analyse" link opens the analysis board at the move shown', T, async () => {
    const created = await createGame({ variant: 'hexshogi91', rules: [], clock: null, seats: [{ kind: 'human' }, { kind: 'human' }] });
    const { page, context } = await newPage(browser);
    await page.goto(BASE + seatLink(created, 'Black'));
    await waitActing(page, 'Black');
    const state = await getJSON(`/api/games/${created.id}`);
    const move = state.legal_moves.find((m) => m.startsWith('P') && !m.endsWith('+') && !m.endsWith('='));
    await clickMove(page, move);
    assert.equal(await page.locator('#analyse-link').getAttribute('href'), `/analysis?game=${created.id}&ply=1`);
    await page.click('#analyse-link');
    await page.waitForURL(/\/analysis\?game=/);
    await waitShown(page, 1);
    const after1 = await getJSON(`/api/games/${created.id}`);
    assert.deepEqual(await boardOf(page), serverBoard(after1), 'the game\'s position after its move');
    assert.match(await page.locator('#analysis-title').innerText(), new RegExp(`game ${created.id}`));
    assert.deepEqual(page.errors, []);
    await context.close();
  });
});
