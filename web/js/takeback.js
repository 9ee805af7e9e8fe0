// Taking back a move: the button that asks, the notice with Accept and Decline for the players
// whose consent it waits for, and the word, to the asker, that it was turned down.

import { state, mySeats, resigningSeat } from './game-state.js';
import { send } from './connection.js';
import { showNotice } from './notices.js';

const $ = (id) => document.getElementById(id);

/** The request and the move count of the last state drawn, to tell a refusal from a takeback. */
let seen = { request: null, plies: 0 };

/** The seat of this page that the request waits for, if any. */
function answeringSeat() {
  const waiting = state.game?.takeback?.waiting_for || [];
  const mine = mySeats();
  return waiting.find((seat) => mine.has(seat)) || null;
}

/** The seat of this page that may ask: one that has moved and is still in. */
function askingSeat() {
  const { game } = state;
  const seat = resigningSeat();
  if (!seat || game.takeback || game.pending_alliance) return null;
  return (game.moves || []).some((m) => m.seat === seat) ? seat : null;
}

export function wireTakeback() {
  $('takeback').addEventListener('click', () => {
    const seat = askingSeat();
    if (seat) send(seat, { type: 'takeback' });
  });
  for (const [id, accept] of [['takeback-accept', true], ['takeback-decline', false]]) {
    $(id).addEventListener('click', () => {
      const seat = answeringSeat();
      if (seat) send(seat, { type: 'takeback_answer', accept });
    });
  }
}

export function renderTakeback() {
  const { game } = state;
  if (!game) return;
  const request = game.takeback || null;
  const plies = game.moves?.length || 0;
  // A request of ours gone while the moves stayed: someone declined it.
  if (seen.request && mySeats().has(seen.request.by) && !request && plies === seen.plies && !game.outcome) {
    showNotice('Your takeback request was declined.');
  }
  seen = { request, plies };

  $('takeback').disabled = !askingSeat();
  $('takeback').textContent = request && mySeats().has(request.by) ? 'Takeback asked…' : 'Take back';
  const box = $('takeback-request');
  box.hidden = !answeringSeat();
  if (!box.hidden) {
    const undone = plies - request.to_ply;
    const what = undone === 1 ? 'the last move' : `the last ${undone} moves`;
    $('takeback-text').textContent = `${request.by} asks to take back ${what}.`;
  }
}
