// Making a move on the game page: clicks and keys on the board and the pieces in hand (picked
// as move-picker.js does), and the typed move; each move goes to the server for the acting seat.
// (Dragging a piece, drag-move.js, plays through `gamePicker` too.)

import { pickCell, pickHand, wireSelectionBar } from './move-picker.js';
import { state, mySeats, actingSeat, canAct } from './game-state.js';
import { send } from './connection.js';
import { render } from './game-view.js';
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
  if (send(seat, { type: 'move', move: text })) state.awaiting = true;
  render();
}

/** The game page's side of move-picker.js: its state, and moves sent for the acting seat. */
export const gamePicker = {
  state,
  variant: () => state.game.variant,
  position: () => state.game,
  canMove: canAct,
  play: playMove,
  render: () => render(),
  refuse: () => {
    if (state.viewPly !== null) showNotice('You are looking at an earlier position. Go back to the game to move.');
    else if (!mySeats().size) showNotice('Spectators cannot move.');
  },
};

/** A click (or Enter) on a board cell. */
export function onCell(cell) {
  if (state.game) pickCell(gamePicker, cell);
}

/** A click on a piece in hand. */
export function onPickHand(letter) {
  pickHand(gamePicker, letter);
}

export function wireMoveInput() {
  wireSelectionBar(gamePicker);
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
}
