// Each variant's board as drawn from its layout (saved as screenshots), and the pages on a
// phone-sized screen.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {
  ARTIFACTS, BASE, launch, newPage, getJSON, createGame, seatLink, waitActing, waitPly, boardOf, serverBoard, screenshot, cellsOf,
} from './helpers.mjs';

const T = { timeout: 120000 };

describe('boards and screens', { concurrency: false }, () => {
  let browser;
  before(async () => { browser = await launch(); });
  after(async () => { await browser?.close(); });

  test('every variant\'s board: cells, the marked cells, pieces turned to their facing', T, async () => {
    const variants = await getJSON('/api/variants');
    assert.ok(variants.length >= 1);
    for (const variant of variants) {
      const layout = await getJSON(`/api/variants/${variant.name}/layout`);
      const created = await createGame({
        variant: variant.name, rules: [], clock: null, seats: variant.seats.map(() => ({ kind: 'human' })),
      });
      const { page, context } = await newPage(browser);
      await page.goto(BASE + seatLink(created, variant.seats[0]));
      await waitActing(page, variant.seats[0]);
      assert.equal(await page.locator('#board .cell').count(), layout.cells.length, `${variant.name}: one cell per layout cell`);
      const shapes = await page.$$eval('#board .cell polygon', (ps) => ps.map((p) => p.getAttribute('points').split(' ').length));
      const expected = layout.cells.map((c) => (c.shape === 'hexagon' ? 6 : 3));
      assert.deepEqual(shapes, expected, `${variant.name}: hexagons have 6 corners, triangles 3`);
      const marked = await page.$$eval('#board .cell.marked', (cs) => cs.map((c) => c.dataset.cell).sort());
      assert.deepEqual(marked, [...layout.marked].sort(), `${variant.name}: the marked cells`);
      const state = await getJSON(`/api/games/${created.id}`);
      assert.deepEqual(await boardOf(page), serverBoard(state), `${variant.name}: the pieces of the start position`);
      // Each piece is turned by its seat's rotation, on a board turned to the viewer's side.
      const turn = Number(await page.locator('#board svg').getAttribute('data-turn'));
      for (const [i, seat] of variant.seats.entries()) {
        const piece = state.board.find((p) => p.seat === seat);
        if (!piece) continue;
        const transform = await page.locator(`[data-cell="${piece.cell}"] .piece`).getAttribute('transform');
        const rotation = Number(/rotate\((-?[\d.]+)\)/.exec(transform)[1]);
        assert.equal((((rotation - turn - layout.seat_rotation[i]) % 360) + 360) % 360, 0, `${variant.name}: ${seat}'s facing`);
      }
      // The layout declares its conventions, and pieces are named with its names.
      assert.equal(layout.centre, 'centroid', `${variant.name}: centres are centroids`);
      // Players read the game's title, and an example move in its own notation.
      assert.match(await page.locator('#game-title').innerText(), new RegExp(`^${variant.title} · game`));
      const example = (await page.locator('#move-input').getAttribute('placeholder')).replace('Type a move, e.g. ', '');
      assert.ok(state.legal_moves.includes(example), `${variant.name}: the example ${example} is a legal move`);
      for (const piece of state.board.slice(0, 6)) {
        const name = layout.pieces[piece.letter];
        assert.ok(name, `${variant.name}: the layout names the piece ${piece.letter}`);
        const title = await page.locator(`[data-cell="${piece.cell}"] .piece title`).textContent();
        assert.equal(title, `${piece.seat} ${piece.promoted ? 'promoted ' : ''}${name}`, `${variant.name}: ${piece.cell}`);
      }
      await screenshot(page, `board-${variant.name}.png`, { fullPage: true });
      await page.locator('#board svg').screenshot({ path: path.join(ARTIFACTS, `board-${variant.name}-only.png`) });
      // A move by clicking on this board: the first piece that can move, to its first destination.
      const from = await page.locator('#board .cell.movable').first().getAttribute('data-cell');
      await page.click(`[data-cell="${from}"]`);
      await page.waitForSelector('#board .cell.dest');
      const to = await page.locator('#board .cell.dest').first().getAttribute('data-cell');
      await page.click(`[data-cell="${to}"]`);
      if (await page.locator('#promotion[open]').count()) await page.click('#promote-no');
      await waitPly(page, 1);
      const played = cellsOf(await page.locator('#moves [data-ply="1"]').getAttribute('data-move'));
      assert.deepEqual([played?.from, played?.to], [from, to], `${variant.name}: the clicked move`);
      assert.match((await boardOf(page))[to] || '', new RegExp(`^${variant.seats[0]}:`));
      assert.deepEqual(page.errors, []);
      await context.close();
    }
  });

  test('a triangle board (Sankaku, RULES.md §3.1) is drawn from its layout', T, async () => {
    // The served client draws a layout built here: 44 triangles of side 2, their centres
    // declared (`centre`) as centroids, as the server sends them, or as box centres.
    const { page, context } = await newPage(browser);
    await page.goto(`${BASE}/`);
    const result = await page.evaluate(async () => {
      const { BoardView } = await import('/static/js/board.js');
      const h = Math.sqrt(3);
      const ranks = { 8: 'cde', 7: 'bcdef', 6: 'abcdefg', 5: 'abcdefg', 4: 'abcdefg', 3: 'abcdefg', 2: 'bcdef', 1: 'cde' };
      const layout = (centroid) => {
        const cells = [];
        for (const [rank, files] of Object.entries(ranks)) {
          for (const file of files) {
            const f = file.charCodeAt(0) - 97;
            const up = (f + Number(rank)) % 2 === 0;
            const top = (8 - Number(rank)) * h;
            const y = centroid ? top + (up ? (2 * h) / 3 : h / 3) : top + h / 2;
            cells.push({ name: `${file}${rank}`, shape: up ? 'triangle_up' : 'triangle_down', x: f + 1, y });
          }
        }
        return { cells, centre: centroid ? 'centroid' : 'box', marked: [], seat_rotation: [0, 180] };
      };
      const draw = (centroid) => {
        const box = document.createElement('div');
        box.className = 'board';
        box.style.width = '480px';
        document.body.prepend(box);
        const view = new BoardView(box, layout(centroid), { variant: 'sankaku', seats: ['Black', 'White'], onActivate: () => {} });
        view.render({ board: [
          { cell: 'd1', seat: 'Black', letter: 'E', promoted: false }, { cell: 'c1', seat: 'Black', letter: 'C', promoted: false },
          { cell: 'd8', seat: 'White', letter: 'E', promoted: false }, { cell: 'e7', seat: 'White', letter: 'G', promoted: true },
        ] });
        return [...box.querySelectorAll('.cell')].map((g) => ({
          cell: g.dataset.cell,
          points: g.querySelector('polygon').getAttribute('points').split(' ').map((p) => p.split(',').map(Number)),
          piece: g.querySelector('.piece')?.getAttribute('transform') || null,
        }));
      };
      return { centroid: draw(true), box: draw(false) };
    });
    for (const [convention, cells] of Object.entries(result)) {
      assert.equal(cells.length, 44, convention);
      for (const { cell, points } of cells) {
        assert.equal(points.length, 3, `${convention} ${cell}: a triangle`);
        for (let i = 0; i < 3; i++) {
          const [a, b] = [points[i], points[(i + 1) % 3]];
          assert.ok(Math.abs(Math.hypot(a[0] - b[0], a[1] - b[1]) - 2) < 1e-3, `${convention} ${cell}: sides of 2`);
        }
      }
      // Neighbours in a rank share a side: the triangles tile the board.
      const byName = Object.fromEntries(cells.map((c) => [c.cell, c.points.map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`)]));
      for (const [a, b] of [['c1', 'd1'], ['d1', 'e1'], ['a4', 'b4'], ['f6', 'g6'], ['d8', 'e8']]) {
        const shared = byName[a].filter((p) => byName[b].includes(p));
        assert.equal(shared.length, 2, `${convention}: ${a} and ${b} share a side`);
      }
      // And ranks stack: the down triangle c1 and the up triangle c2 above it share a side.
      const shared = byName.c2.filter((p) => byName.c1.includes(p));
      assert.equal(shared.length, 2, `${convention}: c1 and c2 share a side`);
      const white = cells.find((c) => c.cell === 'd8').piece;
      assert.match(white, /rotate\(180\)/, 'White\'s pieces face down the board');
    }
    assert.deepEqual(result.centroid.map((c) => c.points), result.box.map((c) => c.points), 'both conventions draw the same board');
    await page.locator('.board').first().screenshot({ path: path.join(ARTIFACTS, 'board-triangles-synthetic.png') });
    // Arrow keys on triangles: right stays in the rank, up goes to the rank above.
    await page.focus('.board >> nth=0 >> [data-cell="d4"]');
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.cell), 'e4');
    await page.keyboard.press('ArrowUp');
    assert.match(await page.evaluate(() => document.activeElement.dataset.cell), /5$/);
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  test('the Sannin Garden is marked and named', T, async () => {
    const layout = await getJSON('/api/variants/sannin/layout');
    assert.deepEqual(layout.marked, ['7g']);
    const created = await createGame({ variant: 'sannin', rules: [], clock: null, seats: [{ kind: 'human' }, { kind: 'human' }, { kind: 'human' }] });
    const { page, context } = await newPage(browser);
    await page.goto(BASE + created.spectator_link);
    await page.waitForSelector('[data-cell="7g"].marked');
    assert.match(await page.locator('[data-cell="7g"]').getAttribute('aria-label'), /Pleasure Garden/);
    await context.close();
  });

  test('on a 390×844 phone the pages do not scroll sideways and a tap plays', T, async () => {
    const { page, context } = await newPage(browser, {
      viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true,
    });
    const noSideScroll = async (what) => {
      const { scroll, width } = await page.evaluate(() => ({
        scroll: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth), width: window.innerWidth,
      }));
      assert.ok(scroll <= width, `${what}: page is ${scroll}px wide in a ${width}px window`);
    };
    await page.goto(`${BASE}/`);
    await page.waitForSelector('#create-button:not([disabled])');
    await noSideScroll('lobby');
    await page.click('#rules-details summary');
    await noSideScroll('lobby with the rule options open');
    await screenshot(page, 'phone-lobby.png', { fullPage: true });
    await page.selectOption('#seat-0', 'human');
    await page.click('#create-button');
    // The creator lands on his own seat.
    await waitActing(page, 'First');
    await noSideScroll('game page');
    const box = await page.locator('#board svg').boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 390, 'the board fits the screen');
    assert.ok(box.width >= 300, `the board uses the width (${box.width}px)`);
    await page.tap('[data-cell="3c"]');
    await page.waitForSelector('[data-cell="4d"].dest');
    await screenshot(page, 'phone-game.png');
    await page.tap('[data-cell="4d"]');
    await waitPly(page, 1);
    assert.equal(await page.locator('#moves [data-ply="1"]').getAttribute('data-move'), 'P3c-4d');
    await noSideScroll('game page after a move');
    await screenshot(page, 'phone-game-full.png', { fullPage: true });
    assert.deepEqual(page.errors, []);
    await context.close();
  });
});
