// Where the analysis board starts, read from its address: `?variant=&rules=&position=&moves=&ply=`
// (a variant's start or a position string, moves after it, the ply shown) or `?game={id}&ply=`
// (a game's record); and the "Start from" form, which leads to such an address.

import { readGame, readRecord, studyPosition } from './analysis-positions.js';

const $ = (id) => document.getElementById(id);

/** Moves in an address: separated by spaces or commas. */
const splitMoves = (text) => (text || '').split(/[\s,]+/).filter(Boolean);

/** The address of the analysis board for `setup` (`{ variant, rules, start }`), `moves` and the shown `ply`. */
export function analysisHref({ variant, rules = [], start = null }, moves = [], ply = null) {
  const query = new URLSearchParams({ variant });
  if (rules.length) query.set('rules', rules.join(','));
  if (start) query.set('position', start);
  if (moves.length) query.set('moves', moves.join(' '));
  if (ply != null && ply !== moves.length) query.set('ply', String(ply));
  return `/analysis?${query}`;
}

/**
 * The board's start from the address: `{ setup, entries (the main line's moves as the study
 * answer gives them), ply (shown), game (an id or null) }`. Throws with the server's words.
 */
export async function startFromAddress(search, defaultVariant) {
  const params = new URLSearchParams(search);
  const plyParam = params.get('ply');
  const ply = plyParam != null && /^\d+$/.test(plyParam) ? Number(plyParam) : null;
  const game = params.get('game');
  if (game) {
    const { setup, moves } = await readGame(game);
    return { setup, entries: moves, ply: ply ?? moves.length, game };
  }
  const setup = {
    variant: params.get('variant') || defaultVariant,
    rules: splitMoves(params.get('rules')),
    start: params.get('position') || null,
  };
  const moves = splitMoves(params.get('moves'));
  const answer = await studyPosition({ ...setup, moves });
  return {
    setup: { ...setup, rules: answer.rules },
    entries: answer.moves,
    ply: Math.min(ply ?? answer.moves.length, answer.moves.length),
    game: null,
  };
}

/** Whether pasted text is a record (tag pairs or numbered moves) rather than a position string. */
function looksLikeRecord(text) {
  return /^\s*\[/.test(text) || /(^|\s)1\.\s/.test(text);
}

/**
 * Wires the "Start from" form: the game picker and its start position, and the pasted position
 * string or record, each leading to the board's address for it.
 */
export function wireStartForm(variants, current) {
  const select = $('load-variant');
  select.replaceChildren(...variants.map((v) => new Option(v.title, v.name)));
  select.value = current;
  const fail = (message) => {
    $('load-error').textContent = message;
    $('load-error').hidden = !message;
  };
  $('load-new').addEventListener('click', () => {
    location.assign(analysisHref({ variant: select.value }));
  });
  $('load-text').addEventListener('input', () => fail(''));
  $('load-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const text = $('load-text').value.trim();
    if (!text) {
      fail('Paste a position string or a record first.');
      return;
    }
    try {
      if (looksLikeRecord(text)) {
        const { setup, moves } = await readRecord(text);
        // A record without a [Position] tag starts from its game's start: the address needs no position.
        const start = /\[Position\s/.test(text) ? setup.start : null;
        location.assign(analysisHref({ ...setup, start }, moves.map((m) => m.move), 0));
      } else {
        const variant = text.split(/\s+/)[0];
        const answer = await studyPosition({ variant, rules: [], start: text, moves: [] });
        location.assign(analysisHref({ variant: answer.variant, start: answer.start }));
      }
    } catch (err) {
      fail(err.message);
    }
  });
}
