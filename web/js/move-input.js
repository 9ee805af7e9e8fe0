// Making a move: clicks and keys on the board, a piece in hand to drop, the promotion question,
// illumination, pass, and the typed move; each move goes to the server for the acting seat.
// (Dragging a piece, drag-move.js, ends in `playSelectionTo` here.)

import { destinations, illuminationTargets, matchIllumination } from './moves.js';
import { state, mySeats, actingSeat, canAct } from './game-state.js';
import { send } from './connection.js';
import { render } from './game-view.js';
import { askPromotion } from './dialogs.js';
import { showNotice } from './notices.js';

const $ = (id) => document.getElementById(id);

/** A typed move on its way to the server, with the move count it was sent at; `null` when none
 *  is. Its refusal is shown under the input, which keeps the text to be mended. */
let typed = null;

function showMoveError(text) {
  const box = $('move-error');
  box.textContent = text;
  box.hidden = !text;
  $('move-input').setAttribute('aria-invalid', text ? 'true' : 'false');
}

/** The server refused the last thing sent: if it was a typed move, say why next to it.
 *  Returns whether the refusal was shown there. */
export function showTypedMoveRefusal(message) {
  if (!typed) return false;
  typed = null;
  showMoveError(message);
  $('move-input').focus();
  $('move-input').select();
  return true;
}

/** A new state: once the typed move is played, the input empties. */
export function noteStateForTypedMove(game) {
  if (typed && (game.moves?.length || 0) > typed.plies) {
    typed = null;
    $('move-input').value = '';
    showMoveError('');
  }
}

function playMove(text) {
  const seat = actingSeat();
  if (!seat) return;
  state.selection = null;
  if (send(seat, { type: 'move', move: text })) state.awaiting = true;
  render();
}

/** Plays one of the moves to a cell: with and without promotion, the player chooses. */
async function chooseMove(moves) {
  const promote = moves.find((m) => m.promote);
  const keep = moves.find((m) => !m.promote);
  if (promote && keep) {
    const answer = await askPromotion(state.game.variant, promote);
    if (answer === 'promote') playMove(promote.text);
    else if (answer === 'keep') playMove(keep.text);
    else render();
    return;
  }
  playMove(moves[0].text);
}

/**
 * Plays the selected piece, or the selected piece in hand, to `cell` when that is one of its
 * legal moves (asking about promotion first where both are legal). Returns whether it was.
 */
export function playSelectionTo(cell) {
  const { legal, selection } = state;
  if (selection?.kind === 'piece') {
    const moves = destinations(legal, selection.cell).get(cell);
    if (moves) {
      chooseMove(moves);
      return true;
    }
  }
  if (selection?.kind === 'hand') {
    const drop = legal.drops.get(selection.letter)?.get(cell);
    if (drop) {
      playMove(drop);
      return true;
    }
  }
  return false;
}

/** A click (or Enter) on a board cell: select a piece, play to a destination, choose targets. */
export function onCell(cell) {
  const { game, legal, selection } = state;
  if (!game) return;
  if (state.viewPly !== null) {
    showNotice('You are looking at an earlier position. Go back to the game to move.');
    return;
  }
  if (!canAct()) {
    if (!mySeats().size) showNotice('Spectators cannot move.');
    return;
  }
  if (selection?.kind === 'illuminate') {
    if (illuminationTargets(legal, selection.cell).has(cell)) {
      if (selection.chosen.has(cell)) selection.chosen.delete(cell);
      else selection.chosen.add(cell);
    } else if (cell === selection.cell) {
      state.selection = { kind: 'piece', cell };
    }
    render();
    return;
  }
  if (playSelectionTo(cell)) return;
  if (legal.from.has(cell) || legal.illuminations.has(cell)) {
    state.selection = selection?.kind === 'piece' && selection.cell === cell ? null : { kind: 'piece', cell };
  } else {
    state.selection = null;
  }
  render();
}

/** A click on a piece in hand: select it for a drop, or drop the selection. */
export function onPickHand(letter) {
  const { selection } = state;
  state.selection = selection?.kind === 'hand' && selection.letter === letter ? null : { kind: 'hand', letter };
  render();
}

export function wireMoveInput() {
  $('selection-cancel').addEventListener('click', () => {
    state.selection = null;
    render();
  });
  $('illuminate').addEventListener('click', () => {
    const { legal, selection } = state;
    if (selection?.kind !== 'piece') return;
    const options = legal.illuminations.get(selection.cell) || [];
    // With one possible illumination (e.g. `illumination=all`), its targets are chosen already.
    const chosen = options.length === 1 ? new Set(options[0].targets) : new Set();
    state.selection = { kind: 'illuminate', cell: selection.cell, chosen };
    render();
  });
  $('illuminate-confirm').addEventListener('click', () => {
    const { legal, selection } = state;
    if (selection?.kind !== 'illuminate') return;
    const text = matchIllumination(legal, selection.cell, selection.chosen);
    if (text) playMove(text);
  });
  $('pass').addEventListener('click', () => state.legal.pass && playMove(state.legal.pass));
  $('move-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const text = $('move-input').value.trim();
    const seat = actingSeat();
    if (!text) return;
    if (!seat) {
      showNotice(state.game?.outcome ? 'The game is over.' : 'It is not your turn.');
      return;
    }
    showMoveError('');
    if (send(seat, { type: 'move', move: text })) {
      state.awaiting = true;
      typed = { text, plies: state.game?.moves?.length || 0 };
    }
    render();
  });
  $('move-input').addEventListener('input', () => showMoveError(''));
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && state.selection && !document.querySelector('dialog[open]')) {
      state.selection = null;
      render();
    }
  });
}
