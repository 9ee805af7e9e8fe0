// Move text (docs/FORMATS.md) as far as the client needs it: reading the server's canonical
// legal moves into "what can the piece on this cell do", and the names of the pieces.

const CELL = '(\\d{1,2}[a-z]|[a-z]\\d{1,2})';
const BOARD_RE = new RegExp(`^(\\+)?([A-Z])${CELL}([-x=])${CELL}([+=])?$`);
const DROP_RE = new RegExp(`^([A-Z])\\*${CELL}$`);
const CELL_NC = '(?:\\d{1,2}[a-z]|[a-z]\\d{1,2})';
const ILLUMINATE_RE = new RegExp(`^\\+K${CELL}!(${CELL_NC}(?:,${CELL_NC})*)$`);

/** Reads one canonical move text; null when it is not one the client understands. */
export function parseMove(text) {
  if (text === 'pass') return { kind: 'pass', text };
  let m = BOARD_RE.exec(text);
  if (m) {
    return {
      kind: 'board', text, promotedPiece: m[1] === '+', letter: m[2], from: m[3],
      capture: m[4] === 'x', to: m[5], promote: m[6] === '+',
    };
  }
  m = DROP_RE.exec(text);
  if (m) return { kind: 'drop', text, letter: m[1], to: m[2] };
  m = ILLUMINATE_RE.exec(text);
  if (m) return { kind: 'illuminate', text, from: m[1], targets: m[2].split(',') };
  return null;
}

/**
 * The legal moves grouped for clicking:
 * - `from`: cell → list of board moves starting there,
 * - `drops`: letter → Map(cell → move text),
 * - `illuminations`: cell of the king → list of { targets: Set, text },
 * - `pass`: the pass text or null,
 * - `unknown`: texts the client could not read (still playable by typing).
 */
export function indexLegalMoves(legalMoves) {
  const index = { from: new Map(), drops: new Map(), illuminations: new Map(), pass: null, unknown: [] };
  for (const text of legalMoves || []) {
    const mv = parseMove(text);
    if (!mv) {
      index.unknown.push(text);
    } else if (mv.kind === 'pass') {
      index.pass = text;
    } else if (mv.kind === 'board') {
      if (!index.from.has(mv.from)) index.from.set(mv.from, []);
      index.from.get(mv.from).push(mv);
    } else if (mv.kind === 'drop') {
      if (!index.drops.has(mv.letter)) index.drops.set(mv.letter, new Map());
      index.drops.get(mv.letter).set(mv.to, text);
    } else if (mv.kind === 'illuminate') {
      if (!index.illuminations.has(mv.from)) index.illuminations.set(mv.from, []);
      index.illuminations.get(mv.from).push({ targets: new Set(mv.targets), text });
    }
  }
  return index;
}

/** The destinations of the piece on `cell`: Map(to → [moves]) (one or two: with and without promotion). */
export function destinations(index, cell) {
  const byTo = new Map();
  for (const mv of index.from.get(cell) || []) {
    if (!byTo.has(mv.to)) byTo.set(mv.to, []);
    byTo.get(mv.to).push(mv);
  }
  return byTo;
}

/** Every cell an illumination from `cell` can remove. */
export function illuminationTargets(index, cell) {
  const all = new Set();
  for (const option of index.illuminations.get(cell) || []) for (const t of option.targets) all.add(t);
  return all;
}

/** The legal illumination removing exactly `chosen`, or null. */
export function matchIllumination(index, cell, chosen) {
  for (const option of index.illuminations.get(cell) || []) {
    if (option.targets.size === chosen.size && [...chosen].every((c) => option.targets.has(c))) return option.text;
  }
  return null;
}

/** Piece names for screen readers and titles, by variant, as the server's layout gives them. */
const pieceNames = new Map();

/** Remembers a variant's piece names (`layout.pieces`: letter → name). */
export function setPieceNames(variant, names) {
  pieceNames.set(variant, names || {});
}

export function pieceName(variant, letter, promoted = false) {
  const name = pieceNames.get(variant)?.[letter] || letter;
  return promoted ? `promoted ${name}` : name;
}
