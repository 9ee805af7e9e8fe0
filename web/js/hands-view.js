// A seat's pieces in hand as buttons (their glyphs and counts), in the order shogi sets them
// out; those that may be dropped now are enabled and pick the drop. Shared by the game page's
// players panel and the analysis board.

import { pieceName } from './moves.js';
import { pieceGlyph } from './piece-set.js';

/** The order of the letters in a hand: Shogi's pieces, then Sankaku's. */
const HAND_ORDER = ['K', 'R', 'B', 'G', 'S', 'N', 'L', 'P', 'E', 'C', 'H'];

/**
 * Draws `hand` (letter → count) of `seat` into `box`. `canDrop(letter)`: the piece may be
 * dropped now; `picked(letter)`: it is the piece picked; a click calls `onPick(letter)`.
 */
export function renderHand(box, { seat, hand = {}, variant, canDrop, picked, onPick }) {
  const letters = Object.keys(hand).filter((l) => hand[l] > 0)
    .sort((a, b) => HAND_ORDER.indexOf(a) - HAND_ORDER.indexOf(b));
  box.replaceChildren();
  if (!letters.length) {
    const empty = document.createElement('span');
    empty.className = 'empty';
    empty.textContent = 'no pieces in hand';
    box.appendChild(empty);
    return;
  }
  for (const letter of letters) {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.letter = letter;
    const droppable = canDrop(letter);
    b.disabled = !droppable;
    b.setAttribute('aria-pressed', String(picked(letter)));
    b.setAttribute('aria-label', `${seat} ${pieceName(variant, letter)} in hand, ${hand[letter]}${droppable ? ', drop' : ''}`);
    const glyph = pieceGlyph(letter);
    const face = document.createElement('span');
    face.className = glyph.kanji ? 'glyph kanji' : 'glyph';
    face.textContent = glyph.text;
    const count = document.createElement('span');
    count.className = 'count';
    count.textContent = `×${hand[letter]}`;
    b.replaceChildren(face, count);
    b.addEventListener('click', () => onPick(letter));
    box.appendChild(b);
  }
}
