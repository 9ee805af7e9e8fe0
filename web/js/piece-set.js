// What is written on the pieces: the Latin letters of move text, or the kanji of a traditional
// set (the layout's `kanji`, so no game's glyphs live here); the viewer's choice is remembered.

const SET_KEY = 'polyshogi.pieceSet';

/** The piece sets a viewer may choose, by the value remembered. */
export const PIECE_SETS = { letters: 'Letters', kanji: 'Kanji' };

let kanji = {}; // "R" / "+R" → glyph, from the layout

/** The kanji of the game being shown (the layout's `kanji`; absent from older servers). */
export function setKanji(map) {
  kanji = map || {};
}

/** Whether this game has kanji to choose. */
export function hasKanji() {
  return Object.keys(kanji).length > 0;
}

/** The remembered set, letters unless kanji were chosen. */
export function pieceSet() {
  try {
    return localStorage.getItem(SET_KEY) === 'kanji' ? 'kanji' : 'letters';
  } catch {
    return 'letters';
  }
}

export function setPieceSet(set) {
  try {
    localStorage.setItem(SET_KEY, set in PIECE_SETS ? set : 'letters');
  } catch { /* not remembered past this page */ }
}

/**
 * Fills the `select` of piece sets, hides its `row` when the game has no kanji (nothing to
 * choose), and remembers a choice before calling `onChange` to draw the pieces again.
 */
export function wirePieceSetChoice(select, row, onChange) {
  select.replaceChildren(...Object.entries(PIECE_SETS).map(([value, label]) => new Option(label, value)));
  select.value = pieceSet();
  row.hidden = !hasKanji();
  select.addEventListener('change', () => {
    setPieceSet(select.value);
    onChange();
  });
}

/** A small piece (a pentagon with its glyph) for text: the promotion question's choices. */
export function glyphChip(letter, promoted = false) {
  const glyph = pieceGlyph(letter, promoted);
  const chip = document.createElement('span');
  chip.className = `glyph-chip${glyph.kanji ? ' kanji' : ''}${promoted ? ' promoted' : ''}`;
  chip.textContent = glyph.text;
  chip.setAttribute('aria-hidden', 'true');
  return chip;
}

/**
 * What a piece wears: `text`, and `kanji` when that text is a kanji. A promoted piece's kanji is
 * a glyph of its own (龍, と), so it needs no `+`; a piece without a kanji keeps its letter.
 */
export function pieceGlyph(letter, promoted = false) {
  const key = `${promoted ? '+' : ''}${letter}`;
  if (pieceSet() === 'kanji' && kanji[key]) return { text: kanji[key], kanji: true };
  return { text: key, kanji: false };
}
