// The positions of a game as this browser saw them, one per ply, kept in localStorage so that
// a reload can still go back through the game. The server sends only the current position.

import { applyMove } from './moves.js';

const PREFIX = 'polyshogi:pos:';
const INDEX = 'polyshogi:games';
const MAX_GAMES = 20;

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export class History {
  constructor(gameId) {
    this.gameId = gameId;
    this.memory = new Map();
    this.store = storage();
    this.touch();
  }

  key(ply) {
    return `${PREFIX}${this.gameId}:${ply}`;
  }

  /** Notes this game as recently used; forgets the oldest games beyond MAX_GAMES. */
  touch() {
    if (!this.store) return;
    try {
      const index = JSON.parse(this.store.getItem(INDEX) || '{}');
      index[this.gameId] = Date.now();
      const games = Object.entries(index).sort((a, b) => b[1] - a[1]);
      for (const [old] of games.slice(MAX_GAMES)) {
        this.forget(old);
        delete index[old];
      }
      this.store.setItem(INDEX, JSON.stringify(index));
    } catch { /* storage full or unavailable: memory only */ }
  }

  forget(gameId) {
    const prefix = `${PREFIX}${gameId}:`;
    for (let i = this.store.length - 1; i >= 0; i--) {
      const k = this.store.key(i);
      if (k && k.startsWith(prefix)) this.store.removeItem(k);
    }
  }

  /** Keeps the position of a state (after `moves.length` plies). */
  record(state) {
    const ply = state.moves.length;
    const snap = { board: state.board, hands: state.hands, to_move: state.to_move };
    this.memory.set(ply, snap);
    if (!this.store) return;
    const text = JSON.stringify(snap);
    try {
      if (this.store.getItem(this.key(ply)) !== text) this.store.setItem(this.key(ply), text);
    } catch {
      // Quota: drop other games' positions once, then give up quietly.
      try {
        const index = JSON.parse(this.store.getItem(INDEX) || '{}');
        for (const id of Object.keys(index)) if (id !== this.gameId) this.forget(id);
        this.store.setItem(this.key(ply), text);
      } catch { /* memory only */ }
    }
  }

  exact(ply) {
    if (this.memory.has(ply)) return this.memory.get(ply);
    if (!this.store) return null;
    try {
      const text = this.store.getItem(this.key(ply));
      if (!text) return null;
      const snap = JSON.parse(text);
      this.memory.set(ply, snap);
      return snap;
    } catch {
      return null;
    }
  }

  /**
   * The position after `ply` plies: { snap, exact } — exact when seen, else rebuilt from the
   * nearest earlier position seen and the move texts — or null when nothing earlier was seen.
   */
  at(ply, moves) {
    const seen = this.exact(ply);
    if (seen) return { snap: seen, exact: true };
    for (let base = ply - 1; base >= 0; base--) {
      let snap = this.exact(base);
      if (!snap) continue;
      for (let p = base + 1; p <= ply && snap; p++) {
        const mv = moves[p - 1];
        snap = mv ? applyMove(snap, mv.move, mv.seat, mv.events || []) : null;
      }
      return snap ? { snap, exact: false } : null;
    }
    return null;
  }
}
