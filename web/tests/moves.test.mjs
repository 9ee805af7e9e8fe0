// The client's reading of move text (web/js/moves.js), without a browser: the forms of
// docs/FORMATS.md, and every legal move the server sends for some real positions.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  parseMove, indexLegalMoves, destinations, illuminationTargets, matchIllumination,
} from '../js/moves.js';
import { createGame, getJSON } from './helpers.mjs';

test('the canonical forms of FORMATS.md are read', () => {
  assert.deepEqual(parseMove('P3c-4d'), {
    kind: 'board', text: 'P3c-4d', promotedPiece: false, letter: 'P', from: '3c', capture: false, to: '4d', promote: false,
  });
  assert.equal(parseMove('R7l-7g+').promote, true);
  assert.equal(parseMove('B7bx12l').capture, true);
  assert.equal(parseMove('+R7g-7l').promotedPiece, true);
  assert.equal(parseMove('K10mx12k').to, '12k');
  assert.deepEqual(parseMove('P*5e'), { kind: 'drop', text: 'P*5e', letter: 'P', to: '5e' });
  assert.deepEqual(parseMove('+K7g!5e,9i'), { kind: 'illuminate', text: '+K7g!5e,9i', from: '7g', targets: ['5e', '9i'] });
  assert.equal(parseMove('pass').kind, 'pass');
  assert.equal(parseMove('Ed1xd2').from, 'd1', 'Sankaku cells');
  assert.equal(parseMove('P-4d'), null, 'short text is not what the server sends as legal moves');
  assert.equal(parseMove('+K7g!'), null);
});

test('legal moves are grouped by piece, drop and illumination', () => {
  const index = indexLegalMoves(['P4ax5a+', 'P4ax5a', 'P4a-5b', 'P*5e', 'P*6e', '+K1d!3f', '+K1d!3f,5d', '+K1d-2c', 'pass']);
  const dests = destinations(index, '4a');
  assert.deepEqual([...dests.keys()].sort(), ['5a', '5b']);
  assert.equal(dests.get('5a').length, 2, 'with and without promotion');
  assert.deepEqual([...index.drops.get('P').keys()].sort(), ['5e', '6e']);
  assert.deepEqual([...illuminationTargets(index, '1d')].sort(), ['3f', '5d']);
  assert.equal(matchIllumination(index, '1d', new Set(['5d', '3f'])), '+K1d!3f,5d');
  assert.equal(matchIllumination(index, '1d', new Set(['5d'])), null);
  assert.equal(index.pass, 'pass');
  assert.deepEqual([...destinations(index, '1d').keys()], ['2c']);
});

test('every legal move the server sends is understood', { timeout: 30000 }, async () => {
  for (const rules of [[], ['alliance=ML']]) {
    const created = await createGame({ variant: 'sannin', rules, clock: null, seats: [{ kind: 'human' }, { kind: 'human' }, { kind: 'human' }] });
    const state = await getJSON(`/api/games/${created.id}`);
    assert.ok(state.legal_moves.length > 0);
    const index = indexLegalMoves(state.legal_moves);
    assert.deepEqual(index.unknown, [], `unreadable: ${index.unknown.join(' ')}`);
    const cells = new Set((await getJSON('/api/variants/sannin/layout')).cells.map((c) => c.name));
    for (const text of state.legal_moves) {
      const mv = parseMove(text);
      for (const cell of [mv.from, mv.to, ...(mv.targets || [])].filter(Boolean)) assert.ok(cells.has(cell), `${text}: ${cell}`);
    }
    if (rules.length) assert.ok(index.from.has('1d'), 'the promoted king of First moves');
  }
  const start = await getJSON(`/api/games/${(await createGame({ variant: 'sannin', rules: [], clock: null, seats: [{ kind: 'human' }, { kind: 'human' }, { kind: 'human' }] })).id}`);
  assert.equal(start.legal_moves.length, 48, 'RULES.md §1.5: 48 moves from the start');
});
