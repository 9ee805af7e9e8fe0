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

  /** Keeps the position of a state after `moves.length` plies: whose turn, board, hands,
   *  checks. A state with fewer moves follows a takeback: the positions after it are gone. */
  record(state) {
    const { to_move, board, hands, in_check } = state;
    const plies = state.moves.length;
    for (const ply of this.positions.keys()) {
      if (ply > plies) this.positions.delete(ply);
    }
    this.positions.set(plies, { to_move, board, hands, in_check });
  }

  /** A promise of the position after `ply` plies, fetched when not known. */
  async load(ply) {
    const known = this.positions.get(ply);
    if (known) return known;
    const position = await api.position(this.gameId, ply);
    this.positions.set(ply, position);
    return position;
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
