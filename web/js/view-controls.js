// The board's own controls: turning it (the rotate button for anyone, the seat picker for a
// spectator), the pace at which the others' moves are shown, the sounds on or off, and the
// piece set (letters or kanji).

import { nextViewSeat, rememberViewSeat } from './orientation.js';
import { paceMs, setPaceMs } from './pacing.js';
import { isMuted, setMuted } from './sound.js';
import { wirePieceSetChoice } from './piece-set.js';

const $ = (id) => document.getElementById(id);

/**
 * Wires the controls to `board` (a BoardView) of game `gameId` with `seats` in turn order;
 * `onPieceSet` draws the pieces again once the viewer chose another set.
 */
export function wireViewControls({ board, layout, seats, gameId, spectator, onPieceSet }) {
  const picker = $('view-seat');
  const rotate = $('rotate');
  const view = (seat) => {
    board.setViewSeat(seat);
    rememberViewSeat(gameId, seat);
    picker.value = seat;
  };
  picker.replaceChildren(...seats.map((seat) => new Option(seat, seat)));
  picker.value = board.viewSeat;
  $('view-seat-row').hidden = !spectator;
  picker.addEventListener('change', () => view(picker.value));
  const step = 360 / seats.length;
  rotate.title = `Turn the board by ${step}° (to the next seat's side)`;
  rotate.addEventListener('click', () => view(nextViewSeat(layout, seats, board.viewSeat)));

  const pace = $('pace');
  const ms = String(paceMs());
  if (![...pace.options].some((o) => o.value === ms)) pace.add(new Option(`${ms} ms`, ms));
  pace.value = ms;
  pace.addEventListener('change', () => setPaceMs(Number(pace.value)));

  const sound = $('sound-on');
  sound.checked = !isMuted();
  sound.addEventListener('change', () => setMuted(!sound.checked));

  wirePieceSetChoice($('piece-set'), $('piece-set-row'), () => onPieceSet?.());
}
