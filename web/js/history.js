// The positions of a game, one per ply: those this page saw arrive, and earlier ones fetched
// from the server when the player goes back to them (GET /api/games/{id}/positions/{ply}).

import { api } from './api.js';

export class History {
  /** `onFetched(ply)` is called when a position asked for has arrived. */
  constructor(gameId, onFetched) {
    this.gameId = gameId;
    this.onFetched = onFetched;
    this.positions = new Map();
    this.fetching = new Set();
  }

  /** Keeps the position of a state: the board and the hands after `moves.length` plies. A
   *  state with fewer moves follows a takeback: the positions after it no longer exist. */
  record(state) {
    const plies = state.moves.length;
    for (const ply of this.positions.keys()) {
      if (ply > plies) this.positions.delete(ply);
    }
    this.positions.set(plies, { board: state.board, hands: state.hands });
  }

  /**
   * The position after `ply` plies, or null while it is fetched. A failed fetch rejects the
   * promise that `onError` gets, and a later call asks again.
   */
  at(ply, onError) {
    const known = this.positions.get(ply);
    if (known) return known;
    if (!this.fetching.has(ply)) {
      this.fetching.add(ply);
      api.position(this.gameId, ply)
        .then((position) => {
          this.positions.set(ply, position);
          this.onFetched(ply);
        })
        .catch(onError)
        .finally(() => this.fetching.delete(ply));
    }
    return null;
  }
}
