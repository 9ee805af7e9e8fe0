// What the page knows about the game: the server's latest state, its legal moves indexed for
// clicking, the selection and the position under review; and the views derived from them.

import { indexLegalMoves } from './moves.js';
import { heldSeats } from './connection.js';
import { hotseat } from './page-link.js';

export const state = {
  game: null,            // the latest state from the server
  receivedAt: 0,         // when it came (for the running clock)
  legal: indexLegalMoves([]),
  history: null,         // History: the positions per ply, for going back through the game
  selection: null,       // {kind:'piece', cell} | {kind:'hand', letter} | {kind:'illuminate', cell, chosen:Set}
  viewPly: null,         // null: the live position; else a ply number being reviewed
  awaiting: false,       // a move was sent and no answer came yet
  badToken: false,       // the server refused a seat link's token
};

let lastTurnKey = '';
let answered = { key: '', seats: new Set() }; // this page's answers to the pending alliance

/** Takes a state from the server; false when it is older than the one known. */
export function receive(next) {
  // With several sockets (hot-seat), never step back to an older state. A takeback has fewer
  // moves but a higher version.
  if (state.game && next.version < state.game.version) return false;
  const turnKey = `${next.moves.length}|${next.to_move}|${next.outcome ? 1 : 0}|${next.pending_alliance ? 1 : 0}`;
  state.game = next;
  state.receivedAt = performance.now();
  state.history?.record(next);
  state.legal = indexLegalMoves(next.legal_moves);
  if (turnKey !== lastTurnKey) {
    // A new position: the sent move (if any) was answered; the selection is stale.
    state.selection = null;
    state.awaiting = false;
    lastTurnKey = turnKey;
  }
  return true;
}

export function seatIndex(seat) {
  return state.game ? state.game.seats.findIndex((s) => s.seat === seat) : -1;
}

export function seatKind(seat) {
  return state.game?.seats.find((s) => s.seat === seat);
}

/** The seats this page may act for (confirmed by the server). */
export function mySeats() {
  return heldSeats();
}

/** The seat this page moves for now, or null. */
export function actingSeat() {
  const { game } = state;
  // A game waiting for its players (open seats) takes no move yet.
  if (!game || game.outcome || game.pending_alliance || game.open_until_ms) return null;
  return mySeats().has(game.to_move) ? game.to_move : null;
}

export function canAct() {
  return !!actingSeat() && state.viewPly === null && !state.awaiting;
}

/** The seat a resignation or draw offer is for: one's own, or (hot-seat) the seat to move. */
export function resigningSeat() {
  const { game } = state;
  if (!game || game.outcome || game.open_until_ms) return null;
  const mine = mySeats();
  if (mine.has(game.to_move)) return game.to_move;
  const active = game.seats.filter((s) => s.active !== false && mine.has(s.seat));
  return active.length === 1 ? active[0].seat : null;
}

/** The seats a draw offer is made for: one's own; in hot-seat, every seat here still playing. */
export function drawSeats() {
  const { game } = state;
  if (!game || game.outcome) return [];
  const offered = game.draw_offered_by || [];
  if (!hotseat) {
    const seat = resigningSeat();
    return seat && !offered.includes(seat) ? [seat] : [];
  }
  const mine = mySeats();
  return game.seats.filter((s) => s.active !== false && mine.has(s.seat) && !offered.includes(s.seat)).map((s) => s.seat);
}

/** The seat of this page that still has to answer the proposed alliance (both allies answer). */
export function allianceAnswerer() {
  const { game } = state;
  const pending = game?.pending_alliance;
  if (!pending) return null;
  const key = `${game.moves.length}|${pending.allies.join('+')}|${pending.against}`;
  if (answered.key !== key) answered = { key, seats: new Set() };
  const mine = mySeats();
  return pending.allies.find((s) => mine.has(s) && !answered.seats.has(s)) || null;
}

/** Notes that `seat` answered the pending alliance, so the question is not asked again. */
export function markAnswered(seat) {
  answered.seats.add(seat);
}

/** The ply shown: the one under review, or the live one. */
export function currentPly() {
  return state.viewPly === null ? state.game?.moves.length || 0 : state.viewPly;
}
