// Hot-seat games (every seat human, one page acting for whoever is to move): the promotion
// choice, drops, the illumination of a promoted king, the alliance shown, eliminations, the
// game-end screen and the record download.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  BASE, ARTIFACTS, launch, newPage, getJSON, waitPly, waitActing, waitViewing, boardOf, clickMove, screenshot,
} from './helpers.mjs';

const T = { timeout: 180000 };

/** Creates a hot-seat Sannin game in the lobby, with the given rule options changed. */
async function startHotseat(page, rules = {}) {
  await page.goto(`${BASE}/`);
  await page.waitForSelector('#create-button:not([disabled])');
  await page.selectOption('#variant', 'sannin');
  await page.check('input[name="mode"][value="hotseat"]');
  for (const seat of await page.locator('#seats select').all()) assert.equal(await seat.inputValue(), 'human');
  await page.uncheck('#use-clock');
  if (Object.keys(rules).length) {
    await page.click('#rules-details summary');
    for (const [key, value] of Object.entries(rules)) await page.selectOption(`#rules [data-key="${key}"]`, value);
  }
  await page.click('#create-button');
  await page.waitForSelector('#hotseat-start:not([hidden])');
  await page.click('#hotseat-link');
  await page.waitForSelector('#game[data-ply="0"]');
  await waitActing(page, 'First');
  return page.url().match(/\/play\/([^/?#]+)/)[1];
}

describe('hot-seat games', { concurrency: false }, () => {
  let browser;
  before(async () => { browser = await launch(); });
  after(async () => { await browser?.close(); });

  test('promotion choice, a drop, eliminations, the end screen and the record', T, async () => {
    const { page, context } = await newPage(browser);
    const id = await startHotseat(page);
    // Each seat's socket is confirmed on its own: the line names all three once all have answered.
    await page.waitForFunction(() => /hot-seat \(First, Middle, Last\)/.test(document.querySelector('#connection').textContent));
    assert.equal(await page.locator('#players .clock:not([hidden])').count(), 0, 'no clock');
    await clickMove(page, 'P3a-4a');
    await waitActing(page, 'Middle'); // the same page now acts for Middle
    await clickMove(page, 'S12m-11l');
    await clickMove(page, 'P7c-7d');
    // P4ax5a may promote or not: the page asks.
    await page.click('[data-cell="4a"]');
    await page.click('[data-cell="5a"]');
    await page.waitForSelector('#promotion[open]');
    assert.match(await page.locator('#promotion-text').innerText(), /4a.*5a/);
    await screenshot(page, 'sannin-promotion-choice.png');
    await page.click('#promote-yes');
    await waitPly(page, 4);
    assert.equal(await page.locator('#moves [data-ply="4"]').getAttribute('data-move'), 'P4ax5a+');
    assert.equal((await boardOf(page))['5a'], 'First:+P');
    assert.equal(await page.locator('.player[data-seat="First"] .hand button[data-letter="P"]').innerText(), 'P×1');
    await clickMove(page, 'G9m-9l');
    await clickMove(page, 'P6b-6c');
    // A drop: the pawn in First's hand, onto one of the cells the server allows.
    const state = await getJSON(`/api/games/${id}`);
    const dropCells = state.legal_moves.filter((m) => m.startsWith('P*')).map((m) => m.slice(2)).sort();
    await page.click('.player[data-seat="First"] .hand button[data-letter="P"]');
    await page.waitForSelector('#board .cell.dest');
    assert.deepEqual(await page.$$eval('#board .cell.dest', (c) => c.map((x) => x.dataset.cell).sort()), dropCells);
    assert.ok(dropCells.includes('5e'));
    await page.click('[data-cell="5e"]');
    await waitPly(page, 7);
    assert.equal(await page.locator('#moves [data-ply="7"]').getAttribute('data-move'), 'P*5e');
    assert.equal((await boardOf(page))['5e'], 'First:P');
    assert.match(await page.locator('.player[data-seat="First"] .hand').innerText(), /no pieces in hand/);
    // Middle resigns: he is out; Last resigns: First wins.
    await waitActing(page, 'Middle');
    await page.click('#resign');
    await page.waitForSelector('#confirm[open]');
    assert.match(await page.locator('#confirm-text').innerText(), /Middle/);
    await page.click('#confirm-yes');
    await page.waitForSelector('.player[data-seat="Middle"][data-out="1"]');
    assert.match(await page.locator('.player[data-seat="Middle"] .tags').innerText(), /out/);
    await page.waitForFunction(() => /resign/i.test(document.querySelector('#moves').innerText));
    await waitActing(page, 'Last');
    await page.click('#resign');
    await page.click('#confirm-yes');
    await page.waitForSelector('#game-end[open]');
    assert.match(await page.locator('#game-end-text').innerText(), /First/);
    assert.match(await page.locator('#placings').innerText(), /First — 1st/);
    assert.equal(await page.locator('#game').getAttribute('data-over'), '1');
    await screenshot(page, 'sannin-game-end.png');
    // The record, downloaded from the end screen.
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#end-export')]);
    const file = path.join(ARTIFACTS, `record-${id}.psn`);
    await download.saveAs(file);
    const record = fs.readFileSync(file, 'utf8');
    assert.match(record, /\[Variant "sannin"\]/);
    assert.match(record, /P\*5e/);
    assert.equal(record, await (await fetch(`${BASE}/api/games/${id}/record`)).text());
    // The end screen closes to review the game.
    await page.click('#end-review');
    await page.click('#moves [data-ply="4"]');
    await waitViewing(page, 4);
    assert.equal((await boardOf(page))['5a'], 'First:+P');
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  test('illumination by a promoted king under a pre-game alliance', T, async () => {
    const { page, context } = await newPage(browser);
    const id = await startHotseat(page, { alliance: 'ML' });
    const first = await getJSON(`/api/games/${id}`);
    assert.deepEqual(first.rules, ['alliance=ML']);
    assert.equal((await boardOf(page))['1d'], 'First:+K', 'the lone player\'s king starts promoted');
    assert.match(await page.locator('#alliance').innerText(), /Middle \+ Last against First/);
    for (const mv of ['L1a-2a', 'G11m-11l', 'N9e-8c', 'R2b-2c', 'P10k-10j', 'B7bx3f']) await clickMove(page, mv);
    await waitActing(page, 'First');
    const state = await getJSON(`/api/games/${id}`);
    const illuminations = state.legal_moves.filter((m) => m.startsWith('+K1d!'));
    assert.ok(illuminations.includes('+K1d!3f'), `illuminations: ${illuminations}`);
    await page.click('[data-cell="1d"]');
    await page.waitForSelector('#illuminate:not([hidden])');
    await page.click('#illuminate');
    await page.waitForSelector('[data-cell="3f"].target');
    // With a single possible illumination its target comes chosen; a click takes it back.
    if (await page.locator('[data-cell="3f"].chosen').count()) {
      await page.click('[data-cell="3f"]');
      await page.waitForSelector('[data-cell="3f"]:not(.chosen)');
    }
    assert.ok(await page.locator('#illuminate-confirm').isDisabled(), 'nothing chosen: nothing to confirm');
    await page.click('[data-cell="3f"]');
    await page.waitForSelector('[data-cell="3f"].chosen');
    assert.ok(await page.locator('#illuminate-confirm').isEnabled());
    await screenshot(page, 'sannin-illumination.png');
    await page.click('#illuminate-confirm');
    await waitPly(page, 7);
    assert.equal(await page.locator('#moves [data-ply="7"]').getAttribute('data-move'), '+K1d!3f');
    const drawn = await boardOf(page);
    assert.equal(drawn['3f'], undefined);
    assert.equal(drawn['1d'], 'First:+K', 'the king did not move');
    assert.match(await page.locator('.player[data-seat="First"] .hand').innerText(), /B×1/);
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  test('typed moves, and a proposed alliance answered by both allies (compulsory=confirm)', T, async () => {
    const { page, context } = await newPage(browser);
    const id = await startHotseat(page, { compulsory: 'confirm' });
    // Typed moves, canonical or short; the last one forms the alliance of First and Middle.
    const moves = ['P3a-4a', 'S-11l', 'L7a-6a', 'P4ax5a+', 'B12lx8d+'];
    for (const [i, text] of moves.entries()) {
      await page.fill('#move-input', text);
      await page.press('#move-input', 'Enter');
      await waitPly(page, i + 1);
    }
    const state = await getJSON(`/api/games/${id}`);
    assert.deepEqual(state.pending_alliance, { allies: ['First', 'Middle'], against: 'Last' });
    await page.waitForSelector('#alliance-question:not([hidden])');
    assert.match(await page.locator('#alliance-question-text').innerText(), /First \+ Middle against Last.*First may accept/);
    assert.equal(await page.locator('#game').getAttribute('data-acting'), '', 'nobody moves while the alliance waits');
    await screenshot(page, 'sannin-alliance-question.png');
    await page.click('#alliance-accept');
    // Then Middle, the other ally, is asked on this device.
    await page.waitForFunction(() => /Middle may accept/.test(document.querySelector('#alliance-question-text').innerText));
    await page.click('#alliance-accept');
    await page.waitForSelector('#alliance.formed');
    assert.match(await page.locator('#alliance').innerText(), /First \+ Middle against Last/);
    assert.ok(await page.locator('#alliance-question').isHidden());
    assert.equal((await boardOf(page))['10d'], 'Last:+K', 'the lone player\'s king is promoted');
    const after = await getJSON(`/api/games/${id}`);
    assert.deepEqual(after.alliance, { allies: ['First', 'Middle'], against: 'Last' });
    await waitActing(page, after.to_move);
    assert.deepEqual(page.errors, []);
    await context.close();
  });
});
