// Moves shown one at a time: when several moves come at once or faster than the pace (bots
// answer within milliseconds), each is shown at least `pace` ms after the one before, so that a
// reader can follow them. The page's own moves show at once. The pace is a setting remembered
// in localStorage (0: every state as it comes).

const PACE_KEY = 'polyshogi.pace';
export const DEFAULT_PACE_MS = 600;

export function paceMs() {
  try {
    const stored = localStorage.getItem(PACE_KEY);
    const ms = stored === null ? DEFAULT_PACE_MS : Number(stored);
    return Number.isFinite(ms) && ms >= 0 ? ms : DEFAULT_PACE_MS;
  } catch {
    return DEFAULT_PACE_MS;
  }
}

export function setPaceMs(ms) {
  try {
    localStorage.setItem(PACE_KEY, String(ms));
  } catch { /* this page keeps the default */ }
}

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

export class Pacer {
  /**
   * @param show(game) draws a game state (the server's, or one built for a ply in between)
   * @param positionAt(ply) a promise of the position after `ply` plies (GET …/positions/{ply})
   * @param isOwn(seat) whether the page plays for `seat`: its moves are not held back
   * @param catchUp more moves than this at once (a reload, a reconnection) show at once
   */
  constructor({ show, positionAt, isOwn, catchUp }) {
    Object.assign(this, { show, positionAt, isOwn, catchUp });
    this.latest = null;  // the newest state from the server
    this.shown = null;   // the state drawn
    this.shownAt = 0;
    this.running = false;
  }

  /** Takes a state from the server; the first one shows at once. */
  push(game) {
    // Never back to an older state; a takeback has fewer moves but a higher version.
    if (this.latest && game.version < this.latest.version) return;
    this.latest = game;
    if (!this.shown) this.display(game);
    else if (!this.running) this.run();
  }

  display(game) {
    this.shown = game;
    this.shownAt = performance.now();
    this.show(game);
  }

  /** Steps toward the newest state, one ply at a time, until it is drawn. */
  async run() {
    this.running = true;
    try {
      while (this.latest !== this.shown) {
        const ply = this.shown.moves.length;
        const ahead = this.latest.moves.length - ply;
        if (ahead <= 0 || ahead > this.catchUp || paceMs() === 0) {
          this.display(this.latest);
          continue;
        }
        if (!this.isOwn(this.latest.moves[ply].seat)) {
          await sleep(this.shownAt + paceMs() - performance.now());
        }
        // More may have come meanwhile; the next ply is the newest state itself or one between.
        const target = this.latest;
        if (target.moves.length === ply + 1) this.display(target);
        else this.display(await this.between(target, ply + 1));
      }
    } finally {
      this.running = false;
    }
  }

  /** The state after `ply` plies of `target`'s game, built from that position (or `target`). */
  async between(target, ply) {
    let position;
    try {
      position = await this.positionAt(ply);
    } catch {
      return target; // the position is not to be had: show the newest state instead
    }
    const { to_move, board, hands, in_check } = position;
    return {
      ...target,
      to_move,
      board,
      hands,
      in_check: in_check || [],
      moves: target.moves.slice(0, ply),
      legal_moves: [],
      outcome: null,
      pending_alliance: null,
    };
  }
}
