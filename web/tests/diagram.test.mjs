// Pictures of a position (docs/API.md, "Pictures of a position"): on the game page the SVG and
// PNG buttons download the position shown, as the viewer sees it (the ply looked at, the seat at
// the bottom); the SVG holds every piece of that position once, the PNG is a real image twice
// the SVG's size. Each variant's picture is drawn in Chromium and saved as
// test-artifacts/diagram-<variant>.png (and two from the second seat's side) to be looked at.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  BASE, ARTIFACTS, launch, newPage, getJSON, createGame, seatLink, waitActing, waitTurnAfter, waitViewing,
  clickMove, cellsOf, serverBoard,
} from './helpers.mjs';

const T = { timeout: 240000 };
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The pieces a picture draws on its board: cell → "Seat:Letter" ("Seat:+Letter" promoted). */
function picturePieces(svg) {
  const pieces = {};
  for (const [, cell, seat, piece] of svg.matchAll(/<g class="piece[^"]*" data-cell="([^"]+)" data-seat="([^"]+)" data-piece="([^"]+)"/g)) {
    assert.equal(pieces[cell], undefined, `${cell} drawn twice`);
    pieces[cell] = `${seat}:${piece}`;
  }
  return pieces;
}

/** The root's width and height, the picture's size in CSS pixels. */
function pictureSize(svg) {
  const root = /<svg [^>]*>/.exec(svg)[0];
  return { width: Number(/ width="([\d.]+)"/.exec(root)[1]), height: Number(/ height="([\d.]+)"/.exec(root)[1]) };
}

/** Clicks one of the picture buttons; the downloaded file, saved under test-artifacts/. */
async function download(page, button) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
  const saved = path.join(ARTIFACTS, file.suggestedFilename());
  await file.saveAs(saved);
  return { name: file.suggestedFilename(), saved };
}

/**
 * Downloads the SVG of the position the page shows and checks it against the server's
 * position at that ply: its name, its pieces, the seat at the bottom. Answers its text and file.
 */
async function downloadShownSvg(page, id) {
  const viewing = await page.locator('#game').getAttribute('data-viewing');
  const ply = viewing === 'live' ? Number(await page.locator('#game').getAttribute('data-ply')) : Number(viewing);
  const { name, saved } = await download(page, '#picture-svg');
  assert.equal(name, `polyshogi-${id}-${ply}.svg`);
  const svg = fs.readFileSync(saved, 'utf8');
  assert.match(svg, /^<\?xml[^>]*>\s*<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  const position = await getJSON(`/api/games/${id}/positions/${ply}`);
  assert.deepEqual(picturePieces(svg), serverBoard(position), `the pieces after move ${ply}`);
  const viewSeat = await page.locator('#board svg').getAttribute('data-view-seat');
  assert.match(svg, new RegExp(`data-view-seat="${viewSeat}"`), 'seen from the seat the board is seen from');
  return { svg, saved, ply };
}

/** Draws a downloaded SVG in a page of its size and saves the screenshot as `name`. */
async function renderPicture(browser, file, name) {
  const { width, height } = pictureSize(fs.readFileSync(file, 'utf8'));
  const { context, page } = await newPage(browser, { viewport: { width: Math.ceil(width), height: Math.ceil(height) } });
  await page.goto(pathToFileURL(file).href);
  await page.screenshot({ path: path.join(ARTIFACTS, name) });
  await context.close();
}

/**
 * Plays up to `rounds` moves for `seat` by typing them (a capture when there is one, so that
 * hands fill), each time waiting for the bots' answers; a capture may end the game sooner.
 */
async function playRounds(page, id, seat, rounds) {
  for (let round = 0; round < rounds; round++) {
    await waitActing(page, seat);
    const state = await getJSON(`/api/games/${id}`);
    const captures = state.legal_moves.filter((m) => m.includes('x') && !m.includes('!'));
    const steps = state.legal_moves.filter((m) => cellsOf(m));
    const move = captures[0] || steps[round % steps.length];
    await page.fill('#move-input', move);
    await page.click('#move-submit');
    await page.waitForFunction(([s, n]) => {
      const game = document.querySelector('#game');
      return Number(game.dataset.ply) >= n && (game.dataset.acting === s || game.dataset.over === '1');
    }, [seat, state.moves.length + 1]);
    if (await page.locator('#game[data-over="1"]').count()) {
      await page.click('#end-review');
      return;
    }
  }
}

/** A game of `variant` with the first seat ours and every other a beginner bot, opened. */
async function openGameAgainstBots(browser, variant) {
  const info = (await getJSON('/api/variants')).find((v) => v.name === variant);
  const created = await createGame({
    variant,
    seats: info.seats.map((_, i) => (i === 0 ? { kind: 'human' } : { kind: 'bot', level: 'beginner' })),
  });
  const { context, page } = await newPage(browser);
  await page.goto(BASE + seatLink(created, info.seats[0]));
  await waitActing(page, info.seats[0]);
  return { context, page, id: created.id, seats: info.seats };
}

describe('pictures of a position', { concurrency: false }, () => {
  let browser;

  before(async () => {
    browser = await launch();
  });

  after(async () => {
    await browser?.close();
  });

  test('the SVG and the PNG of the position shown download from the game page', T, async () => {
    const { context, page, id } = await openGameAgainstBots(browser, 'sannin');
    const state = await getJSON(`/api/games/${id}`);
    const step = state.legal_moves.find((m) => cellsOf(m) && m.startsWith('P'));
    await clickMove(page, step);
    await waitTurnAfter(page, 'First', 1);

    await page.locator('section[aria-labelledby="record-h"]').screenshot({ path: path.join(ARTIFACTS, 'diagram-buttons.png') });
    // The live position: every piece once where the server has it, the last move marked.
    const live = await downloadShownSvg(page, id);
    assert.equal((live.svg.match(/class="last-move"/g) || []).length, 2, "the last move's two cells are marked");
    assert.match(live.svg, /<title>Sannin shogi — First to move<\/title>/);

    // Going back: the picture is of the position looked at, here after First's move.
    await page.click(`#moves [data-ply="1"]`);
    await waitViewing(page, '1');
    const first = await downloadShownSvg(page, id);
    assert.equal(first.ply, 1);
    assert.match(first.svg, new RegExp(`After move 1 \\(First [^)]+\\) · Middle to move`));
    const { from, to } = cellsOf(step);
    assert.equal(picturePieces(first.svg)[to], 'First:P', `First's pawn on ${to}`);
    assert.equal(picturePieces(first.svg)[from], undefined, `and no longer on ${from}`);
    await renderPicture(browser, first.saved, 'diagram-sannin.png');
    // The board on the page beside it, to compare the two by eye.
    await page.locator('#board').screenshot({ path: path.join(ARTIFACTS, 'diagram-sannin-page-board.png') });

    // The PNG of the same position: a PNG twice the SVG's size, with a board's worth of pixels.
    const png = await download(page, '#picture-png');
    assert.equal(png.name, `polyshogi-${id}-1.png`);
    const bytes = fs.readFileSync(png.saved);
    assert.deepEqual(bytes.subarray(0, 8), PNG_SIGNATURE);
    const { width, height } = pictureSize(first.svg);
    assert.equal(bytes.readUInt32BE(16), Math.round(2 * width), 'IHDR width');
    assert.equal(bytes.readUInt32BE(20), Math.round(2 * height), 'IHDR height');
    assert.ok(bytes.length > 50000, `a real picture, not an empty canvas (${bytes.length} bytes)`);

    // Turned to Middle's side (the rotate button turns to the next seat clockwise, Last's, first),
    // in kanji, without cell names.
    const viewSeat = () => page.locator('#board svg').getAttribute('data-view-seat');
    for (let turns = 0; turns < 3 && (await viewSeat()) !== 'Middle'; turns++) await page.click('#rotate');
    assert.equal(await viewSeat(), 'Middle');
    await page.selectOption('#piece-set', 'kanji');
    await page.uncheck('#show-coords');
    const middle = await downloadShownSvg(page, id);
    assert.match(middle.svg, />歩</);
    assert.doesNotMatch(middle.svg, /class="coordinate"/);
    await renderPicture(browser, middle.saved, 'diagram-sannin-middle-kanji.png');
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  for (const variant of ['hexshogi91', 'tphs91', 'sankaku']) {
    test(`a picture of ${variant} after a few moves`, T, async () => {
      const { context, page, id, seats } = await openGameAgainstBots(browser, variant);
      await playRounds(page, id, seats[0], 5);
      const picture = await downloadShownSvg(page, id);
      await renderPicture(browser, picture.saved, `diagram-${variant}.png`);
      if (variant === 'sankaku') {
        // The half turn: the second seat's side at the bottom, its triangles flipped.
        await page.click('#rotate');
        await page.waitForSelector(`#board svg[data-view-seat="${seats[1]}"]`);
        const second = await downloadShownSvg(page, id);
        await renderPicture(browser, second.saved, `diagram-${variant}-${seats[1].toLowerCase()}.png`);
      }
      assert.deepEqual(page.errors, []);
      await context.close();
    });
  }
});
