// A draw offered by the others, as a notice with Accept and Decline; and the word, to the
// player who offered, that his offer was turned down.

import { state, drawSeats, mySeats } from './game-state.js';
import { send } from './connection.js';
import { showNotice } from './notices.js';

const $ = (id) => document.getElementById(id);

/** The offers and the move count of the last state drawn, to tell a decline from a move. */
let seen = { offered: [], plies: 0 };

export function wireDrawOffer() {
  $('draw-accept').addEventListener('click', () => {
    for (const seat of drawSeats()) send(seat, { type: 'offer_draw' });
  });
  $('draw-decline').addEventListener('click', () => {
    const [seat] = drawSeats();
    if (seat) send(seat, { type: 'decline_draw' });
  });
}

export function renderDrawOffer() {
  const { game } = state;
  if (!game) return;
  const offered = game.draw_offered_by || [];
  const plies = game.moves?.length || 0;
  const mine = mySeats();
  // Offers gone without a move or an end: someone declined. Tell those who had offered.
  const mineOffered = seen.offered.some((s) => mine.has(s));
  if (mineOffered && !offered.length && plies === seen.plies && !game.outcome) {
    showNotice('Your draw offer was declined.');
  }
  seen = { offered, plies };

  const answering = drawSeats();
  const box = $('draw-offer');
  box.hidden = !offered.length || !answering.length || Boolean(game.outcome);
  if (!box.hidden) {
    const who = offered.join(' and ');
    $('draw-offer-text').textContent = `${who} ${offered.length > 1 ? 'offer' : 'offers'} a draw.`;
  }
}
