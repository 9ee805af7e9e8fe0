// Actions around the moves in a two-player game between two browser contexts: a draw offer
// shows as a notice that the other player declines, a takeback is asked for, declined and then
// granted, and a typed move the server refuses says why next to the input, which keeps the text.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASE, launch, newPage, createGame, seatLink, waitPly, waitActing, screenshot,
} from './helpers.mjs';

const T = { timeout: 120000 };

describe('draw offers, takebacks and typed moves in Hex Shogi 91', { concurrency: false }, () => {
  let browser;
  let black;
  let white;

  before(async () => {
    browser = await launch();
    const created = await createGame({
      variant: 'hexshogi91', clock: null, seats: [{ kind: 'human' }, { kind: 'human' }],
    });
    black = (await newPage(browser)).page;
    white = (await newPage(browser)).page;
    await black.goto(BASE + seatLink(created, 'Black'));
    await white.goto(BASE + seatLink(created, 'White'));
    await waitActing(black, 'Black');
  });

  after(async () => {
    await browser?.close();
  });

  test('a refused typed move is explained under the input, which keeps the text', T, async () => {
    await black.fill('#move-input', 'P6f-6a');
    await black.click('#move-submit');
    await black.waitForSelector('#move-error:not([hidden])');
    const error = await black.locator('#move-error').innerText();
    assert.ok(error.length > 10, `a reason is given: "${error}"`);
    assert.equal(await black.inputValue('#move-input'), 'P6f-6a', 'the text is kept to be mended');
    assert.equal(await black.locator('#move-input').getAttribute('aria-invalid'), 'true');
    await screenshot(black, 'typed-move-refused.png');
    // Mending it clears the error; a legal move plays and empties the input.
    await black.fill('#move-input', 'P-10g');
    assert.equal(await black.locator('#move-error').isHidden(), true);
    await black.click('#move-submit');
    await waitPly(black, 1);
    await black.waitForFunction(() => document.querySelector('#move-input').value === '');
    assert.equal(await black.locator('#move-error').isHidden(), true);
  });

  test('a draw offer shows as a notice, and a decline is told to the offerer', T, async () => {
    await waitActing(white, 'White');
    await white.click('#offer-draw');
    await black.waitForSelector('#draw-offer:not([hidden])');
    assert.equal(await black.locator('#draw-offer-text').innerText(), 'White offers a draw.');
    assert.equal(await white.locator('#draw-offer').isHidden(), true, 'not shown to the one who offered');
    await screenshot(black, 'draw-offered.png');
    await black.click('#draw-decline');
    await white.waitForSelector('#notice:not([hidden])');
    assert.equal(await white.locator('#notice').innerText(), 'Your draw offer was declined.');
    await black.waitForSelector('#draw-offer', { state: 'hidden' });
    // The move list tells it after the move it followed.
    await white.waitForFunction(() => document.querySelector('#moves').innerText.includes('Black declines the draw'));
    // The game goes on, without a result.
    assert.equal(await white.locator('#game').getAttribute('data-acting'), 'White');
  });

  test('a takeback is declined, then asked again and granted', T, async () => {
    const plyIs = (page, n) => page.waitForFunction((k) => Number(document.querySelector('#game').dataset.ply) === k, n);
    await white.fill('#move-input', 'P7d-6e');
    await white.click('#move-submit');
    await waitPly(black, 2);
    await white.waitForSelector('#takeback:not([disabled])');
    await white.click('#takeback');
    await black.waitForSelector('#takeback-request:not([hidden])');
    assert.equal(await black.locator('#takeback-text').innerText(), 'White asks to take back the last move.');
    await screenshot(black, 'takeback-asked.png');
    await black.click('#takeback-decline');
    await white.waitForFunction(() => document.querySelector('#notice').innerText === 'Your takeback request was declined.');
    await black.waitForSelector('#takeback-request', { state: 'hidden' });
    await white.waitForSelector('#takeback:not([disabled])');
    await white.click('#takeback');
    await black.waitForSelector('#takeback-request:not([hidden])');
    await black.click('#takeback-accept');
    // White's move is undone on both screens, and it is his move again.
    await plyIs(white, 1);
    await plyIs(black, 1);
    await waitActing(white, 'White');
    await white.waitForFunction(() => document.querySelector('#moves').innerText.includes('White takes back a move'));
  });
});
