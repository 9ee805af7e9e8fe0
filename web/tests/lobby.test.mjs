// The lobby in players' words (game titles, playing levels with their strength, rule options
// explained) and the rules pages (options, piece diagrams from the rules, the guide), reached
// from the lobby and from a game. Screenshots of each, on a desktop and on a phone.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, newPage, getJSON, createGame, seatLink, waitActing, screenshot } from './helpers.mjs';

const T = { timeout: 120000 };
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

async function openLobby(page) {
  await page.goto(`${BASE}/`);
  await page.waitForSelector('#create-button:not([disabled])');
}

async function noSideScroll(page, what) {
  const { scroll, width } = await page.evaluate(() => ({
    scroll: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth), width: window.innerWidth,
  }));
  assert.ok(scroll <= width, `${what}: page is ${scroll}px wide in a ${width}px window`);
}

describe('lobby and rules pages', { concurrency: false }, () => {
  let browser;
  let variants;
  let levels;
  before(async () => {
    browser = await launch();
    variants = await getJSON('/api/variants');
    levels = await getJSON('/api/levels');
  });
  after(async () => { await browser?.close(); });

  test('games by their titles, bots by playing level with a strength hint and a default', T, async () => {
    const { page, context } = await newPage(browser);
    await openLobby(page);
    const titles = await page.$$eval('#variant option', (os) => os.map((o) => o.textContent));
    assert.deepEqual(titles, ['Sannin shogi · 3 players', 'Hex Shogi 91', 'Three Player Hex Shogi 91', 'Sankaku shogi']);
    const byValue = Object.fromEntries(await page.$$eval('#variant option', (os) => os.map((o) => [o.value, o.textContent])));
    assert.equal(byValue.sannin, 'Sannin shogi · 3 players', 'the select sends the key, shows the title');

    const defaultLevel = levels.find((l) => l.default);
    assert.ok(defaultLevel, 'the server names a default level');
    for (const variant of variants) {
      await page.selectOption('#variant', variant.name);
      const seats = page.locator('#seats select');
      assert.equal(await seats.count(), variant.seats.length, `${variant.name}: one row per seat`);
      // Only the playing levels, each said in words with its strength; never an engine name.
      const offered = await page.$$eval('#seat-1 option', (os) => os.map((o) => ({ value: o.value, text: o.textContent, hint: o.title })));
      assert.deepEqual(offered.map((o) => o.value), ['me', 'open', 'human', ...levels.map((l) => `bot:${l.name}`)], variant.name);
      assert.deepEqual(offered.slice(0, 3).map((o) => o.text), ['Me', 'Open to anyone', 'Friend by link'], variant.name);
      for (const level of levels) {
        const option = offered.find((o) => o.value === `bot:${level.name}`);
        assert.equal(option.text, `Bot: ${level.label}`);
        assert.equal(option.hint, level.strength);
      }
      for (const engine of ['random', 'greedy', 'alphabeta', 'paranoid', 'brs', 'maxn', 'mcts']) {
        assert.ok(!offered.some((o) => o.value.endsWith(`:${engine}`)), `${variant.name}: no engine ${engine} offered`);
      }
      // The first seat the creator's, the others the default level, its strength said under it.
      assert.equal(await page.locator('#seat-0').inputValue(), 'me');
      assert.equal(await page.locator('#seat-1').inputValue(), `bot:${defaultLevel.name}`);
      assert.equal(await page.locator('#seat-hint-1').innerText(), defaultLevel.strength);
      assert.ok(await page.locator('#seat-hint-0').isHidden(), "the creator's seat has no strength hint");
      // The rules link follows the chosen game.
      assert.equal(await page.locator('#rules-link').getAttribute('href'), `/rules/${variant.name}`);
    }
    await page.selectOption('#seat-1', 'bot:max');
    assert.equal(await page.locator('#seat-hint-1').innerText(), levels.find((l) => l.name === 'max').strength);
    await context.close();
  });

  test('rule options as labelled controls with their explanation and source', T, async () => {
    const { page, context } = await newPage(browser);
    await openLobby(page);
    await page.selectOption('#variant', 'sannin');
    await page.click('#rules-details summary');
    const sannin = variants.find((v) => v.name === 'sannin');
    const rows = page.locator('#rules .rule-row');
    assert.equal(await rows.count(), sannin.options.length);
    for (const [i, option] of sannin.options.entries()) {
      const row = rows.nth(i);
      assert.equal(await row.locator('label').innerText(), option.label);
      assert.doesNotMatch(option.label, /_/, 'a label, not a key');
      const explanation = await row.locator('.explanation').innerText();
      assert.ok(explanation.includes(option.explanation), `${option.key}: its explanation`);
      assert.ok(explanation.includes(option.source), `${option.key}: its source`);
      const control = row.locator('[data-key]');
      assert.equal(await control.evaluate((e) => e.tagName), option.values ? 'SELECT' : 'INPUT', `${option.key}: select for choices`);
      if (!option.values) assert.equal(await control.getAttribute('type'), 'number', `${option.key}: a number input`);
    }
    // On/off options read yes and no; the key=value text is still what is sent.
    const drop = page.locator('#rules [data-key="forbid_pawn_drop_mate"]');
    assert.deepEqual(await drop.locator('option').allInnerTexts(), ['yes (default)', 'no']);
    await drop.selectOption('false');
    await page.locator('#rules [data-key="compulsory"]').selectOption('confirm');
    assert.equal(await page.locator('#rules-summary').innerText(), '(Compulsory alliances: confirm; No mate by pawn drop: no)');
    await screenshot(page, 'lobby-options.png', { fullPage: true });
    await context.close();
  });

  test('a rules page for every game: options, and each piece\'s moves drawn from the rules', T, async () => {
    for (const variant of variants) {
      const pieces = await getJSON(`/api/variants/${variant.name}/pieces`);
      const layout = await getJSON(`/api/variants/${variant.name}/layout`);
      const { page, context } = await newPage(browser);
      await page.goto(`${BASE}/rules/${variant.name}`);
      await page.waitForSelector('body[data-ready="1"]');
      assert.equal(await page.locator('#rules-title').innerText(), `How to play ${variant.title}`);
      // Every option, in words.
      assert.equal(await page.locator('#options-table tbody tr').count(), variant.options.length, variant.name);
      const firstRow = await page.locator('#options-table tbody tr').first().locator('td').allInnerTexts();
      assert.equal(firstRow[0], variant.options[0].label);
      assert.equal(firstRow[2], variant.options[0].explanation);
      // One diagram per piece kind, each the whole board, its reach marked.
      assert.equal(await page.locator('.piece-figure').count(), pieces.length, `${variant.name}: one diagram per piece`);
      for (const name of Object.keys(layout.pieces)) {
        assert.equal(await page.locator(`.piece-figure[data-piece="${name}"]`).count(), 1, `${variant.name}: a diagram of ${name}`);
      }
      for (const piece of pieces) {
        const figure = page.locator(`.piece-figure[data-piece="${piece.promoted ? '+' : ''}${piece.letter}"]`);
        assert.equal(await figure.locator('polygon').count(), layout.cells.length, `${variant.name} ${piece.letter}: the whole board`);
        const reached = await figure.locator('polygon[data-kind="reach"]').evaluateAll((ps) => ps.map((p) => p.dataset.cell).sort());
        assert.deepEqual(reached, [...piece.reach].sort(), `${variant.name} ${piece.letter}: the cells of the rules`);
        assert.equal(await figure.locator('polygon[data-kind="from"]').getAttribute('data-cell'), piece.from);
      }
      // Sannin's king steps to its six neighbours, Hex Shogi 91's to twelve (diagonals too); a
      // rook reaches further than a gold.
      if (layout.cells[0].shape === 'hexagon') {
        const king = variant.name === 'sannin' ? 6 : 12;
        assert.equal(await page.locator('.piece-figure[data-piece="K"] polygon[data-kind="reach"]').count(), king, `${variant.name}: king`);
        const reach = async (p) => Number(await page.locator(`.piece-figure[data-piece="${p}"]`).getAttribute('data-reach'));
        assert.ok(await reach('R') > await reach('G'), `${variant.name}: rook and gold`);
      } else {
        assert.equal(await page.locator('.piece-figure[data-piece="E"]').count(), 1, 'the Emperor');
      }
      // The guide is there, with no reference to the specification outside the repository.
      const text = await page.locator('#rules-text').innerText();
      assert.match(text, /Rule options|Move notation/);
      assert.doesNotMatch(text, /RULES\.md|RULES §/);
      assert.deepEqual(page.errors, []);
      await screenshot(page, `rules-${variant.name}.png`, { fullPage: true });
      await context.close();

      const phone = await newPage(browser, PHONE);
      await phone.page.goto(`${BASE}/rules/${variant.name}`);
      await phone.page.waitForSelector('body[data-ready="1"]');
      await noSideScroll(phone.page, `rules of ${variant.name}`);
      await screenshot(phone.page, `phone-rules-${variant.name}.png`);
      await phone.context.close();
    }
  });

  test('the rules page is reached from the lobby and from a game, whose header says its options in words', T, async () => {
    const { page, context } = await newPage(browser);
    await openLobby(page);
    await page.selectOption('#variant', 'tphs91');
    await screenshot(page, 'lobby.png', { fullPage: true });
    await page.click('#rules-link');
    await page.waitForSelector('body[data-ready="1"]');
    assert.equal(new URL(page.url()).pathname, '/rules/tphs91');
    // The setup note speaks of this page, not of a document outside the repository.
    const tphs91 = variants.find((v) => v.name === 'tphs91');
    assert.doesNotMatch(tphs91.note, /RULES/);

    const created = await createGame({
      variant: 'sannin', rules: ['compulsory=confirm', 'max_plies=500'], clock: null,
      seats: [{ kind: 'human' }, { kind: 'human' }, { kind: 'human' }],
    });
    await page.goto(BASE + seatLink(created, 'First'));
    await waitActing(page, 'First');
    await page.waitForFunction(() => document.querySelector('#game-title').textContent.includes('Compulsory alliances'));
    const header = await page.locator('#game-title').innerText();
    assert.match(header, /Compulsory alliances: confirm; Move limit: 500/);
    assert.doesNotMatch(header, /compulsory=|max_plies/);
    assert.equal(await page.locator('#rules-page-link').getAttribute('href'), '/rules/sannin');
    await screenshot(page, 'game-header-rules.png');
    await context.close();

    const phone = await newPage(browser, PHONE);
    await openLobby(phone.page);
    await noSideScroll(phone.page, 'lobby');
    await phone.page.click('#rules-details summary');
    await noSideScroll(phone.page, 'lobby with the rule options open');
    await screenshot(phone.page, 'phone-lobby-options.png', { fullPage: true });
    await phone.context.close();
  });
});
