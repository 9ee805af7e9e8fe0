// Shared by the browser tests: the server's address, Chromium, the API, and waiting for the
// game page to reach a state. Run through scripts/browser-test.sh, which starts the server.

import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

export const BASE = (process.env.POLYSHOGI_URL || '').replace(/\/$/, '');
if (!BASE) throw new Error('POLYSHOGI_URL is not set: run scripts/browser-test.sh (or set it to a running `polyshogi serve`)');

export const ARTIFACTS = path.resolve(process.env.POLYSHOGI_ARTIFACTS || 'test-artifacts');
fs.mkdirSync(ARTIFACTS, { recursive: true });

/** Debian's Chromium, never a downloaded one. Playwright gives each launch a fresh temporary
 *  --user-data-dir of its own (passing one in `args` is refused by Playwright). */
export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
}

/** A new page in a new context; page errors fail the test through `errors`. */
export async function newPage(browser, contextOptions = {}) {
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 }, ...contextOptions });
  context.setDefaultTimeout(Number(process.env.POLYSHOGI_TEST_TIMEOUT_MS || 20000));
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  return { context, page };
}

export async function getJSON(p) {
  const res = await fetch(BASE + p);
  if (!res.ok) throw new Error(`GET ${p}: ${res.status} ${await res.text()}`);
  return res.json();
}

export async function createGame(body) {
  const res = await fetch(`${BASE}/api/games`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`POST /api/games: ${res.status} ${await res.text()}`);
  return res.json();
}

export function seatLink(created, seat) {
  return created.seats.find((s) => s.seat === seat).link;
}

/** Waits until the game page shows at least `ply` moves. */
export async function waitPly(page, ply) {
  await page.waitForFunction((n) => Number(document.querySelector('#game')?.dataset.ply) >= n, ply);
}

/** Waits until this page may move for `seat`. */
export async function waitActing(page, seat) {
  await page.waitForFunction((s) => document.querySelector('#game')?.dataset.acting === s, seat);
}

/**
 * Waits until this page may move for `seat` again after move `ply`. How many moves that takes
 * is not fixed: a mate takes the mated seat out and gives the mating seat the next move.
 */
export async function waitTurnAfter(page, seat, ply) {
  await page.waitForFunction(([s, n]) => {
    const game = document.querySelector('#game');
    return Number(game?.dataset.ply) >= n && game?.dataset.acting === s;
  }, [seat, ply]);
}

/**
 * Waits until the page shows the position after move `viewing` ('live' for the game as it
 * stands) with its pieces drawn: an earlier position may first have to come from the server.
 */
export async function waitViewing(page, viewing) {
  await page.waitForSelector(`#game[data-viewing="${viewing}"]`);
  await page.waitForSelector('#board:not(.unavailable)');
}

export function cellsOf(text) {
  const m = /^\+?[A-Z](\d{1,2}[a-z]|[a-z]\d{1,2})[-x](\d{1,2}[a-z]|[a-z]\d{1,2})\+?$/.exec(text);
  return m ? { from: m[1], to: m[2] } : null;
}

/**
 * Plays a board move by clicking its two cells (answering the promotion question when asked),
 * and waits until the server's answer shows it in the move list.
 */
export async function clickMove(page, text) {
  const { from, to } = cellsOf(text);
  const before = Number(await page.locator('#game').getAttribute('data-ply'));
  await page.click(`[data-cell="${from}"]`);
  await page.waitForSelector(`[data-cell="${to}"].dest`);
  await page.click(`[data-cell="${to}"]`);
  // Either the move went out (and came back), or the page asks about promotion first.
  await page.waitForFunction(
    (n) => Number(document.querySelector('#game').dataset.ply) > n || document.querySelector('#promotion').open, before,
  );
  if (await page.locator('#promotion[open]').count()) {
    await page.click(text.endsWith('+') ? '#promote-yes' : '#promote-no');
  }
  await waitPly(page, before + 1);
  const played = await page.locator(`#moves [data-ply="${before + 1}"]`).getAttribute('data-move');
  if (played !== text) throw new Error(`played ${played}, wanted ${text}`);
}

export async function screenshot(page, name, options = {}) {
  await page.screenshot({ path: path.join(ARTIFACTS, name), ...options });
}

/** Pieces on the board as the page draws them: cell → "Seat:Letter" ("Seat:+Letter" promoted). */
export async function boardOf(page) {
  return page.evaluate(() => Object.fromEntries(
    [...document.querySelectorAll('#board [data-cell][data-piece]')].map((g) => [g.dataset.cell, g.dataset.piece]),
  ));
}

/** The server's pieces in the same form. */
export function serverBoard(state) {
  return Object.fromEntries(state.board.map((p) => [p.cell, `${p.seat}:${p.promoted ? '+' : ''}${p.letter}`]));
}
