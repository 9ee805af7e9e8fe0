// The page's modal dialogs: the promotion question, the confirmation of a resignation, and
// the end of the game with each seat's place.

import { ordinal } from './places.js';
import { pieceName } from './moves.js';
import { glyphChip } from './piece-set.js';

const $ = (id) => document.getElementById(id);

/** Asks whether to promote on `mv`; answers 'promote', 'keep' or 'cancel'. */
export function askPromotion(variant, mv) {
  const dialog = $('promotion');
  $('promotion-text').textContent =
    `${pieceName(variant, mv.letter, mv.promotedPiece)} from ${mv.from} to ${mv.to}: promote it?`;
  // Each choice shows the piece it leaves on the board, in the viewer's piece set.
  $('promote-yes').replaceChildren('Promote ', glyphChip(mv.letter, true));
  $('promote-no').replaceChildren('Do not promote ', glyphChip(mv.letter, false));
  return new Promise((resolve) => {
    dialog.returnValue = '';
    dialog.addEventListener('close', () => resolve(dialog.returnValue || 'cancel'), { once: true });
    dialog.showModal();
    $('promote-yes').focus();
  });
}

/** Asks a yes-or-no question; answers true for yes. */
export function confirmAction(text) {
  const dialog = $('confirm');
  $('confirm-text').textContent = text;
  return new Promise((resolve) => {
    dialog.returnValue = '';
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'yes'), { once: true });
    dialog.showModal();
    $('confirm-no').focus();
  });
}

/** The end screen: the outcome and the seats by place. */
export function showEnd(game) {
  const dialog = $('game-end');
  const expired = game.outcome.aborted && /^expired/i.test(game.outcome.text);
  $('game-end-h').textContent = expired ? 'Game expired' : game.outcome.aborted ? 'Game aborted' : 'Game over';
  // Under the heading "Game aborted", the server's "Game aborted: First did not…" says only why.
  const why = game.outcome.aborted ? game.outcome.text.replace(/^game aborted:\s*/i, '') : game.outcome.text;
  $('game-end-text').textContent = why.charAt(0).toUpperCase() + why.slice(1);
  const placings = game.outcome.placings || {};
  // Without places (an abort, a draw) the seats are not listed as if ranked.
  const rows = Object.keys(placings).length
    ? game.seats.map((s) => [s.seat, placings[s.seat]]).sort((a, b) => (a[1] ?? 99) - (b[1] ?? 99))
    : [];
  $('placings').replaceChildren(...rows.map(([seat, place]) => {
    const li = document.createElement('li');
    const player = game.seats.find((s) => s.seat === seat)?.player;
    li.textContent = `${seat}${place != null ? ` — ${ordinal(place)}` : ''}${player ? ` · ${player.name}` : ''}`;
    return li;
  }));
  if (!dialog.open) dialog.showModal();
}
