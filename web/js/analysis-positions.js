// The positions of the analysis board: each node of the move tree's position as the server
// plays it (POST /api/study/position with the setup and the moves from the start), asked for
// once and kept; and a record or a game's record read into a setup and its moves.

import { getText, postJSON } from './api.js';

export const studyPosition = (body) => postJSON('/api/study/position', body);

/**
 * Where the analysis starts: `{ variant, rules, start }` (`start` a position string or null for
 * the variant's start), and the positions reached from it, by node.
 */
export class Positions {
  constructor(setup) {
    this.setup = setup;
    this.cache = new Map(); // node id → the study answer
  }

  /** The request body for the position after `moves`. */
  body(moves) {
    const { variant, rules, start } = this.setup;
    return { variant, rules, start, moves };
  }

  /** The position at `node` of `tree`: kept, or asked for. */
  async at(tree, node) {
    const kept = this.cache.get(node.id);
    if (kept) return kept;
    const answer = await studyPosition(this.body(tree.movesTo(node)));
    this.cache.set(node.id, answer);
    return answer;
  }

  /**
   * Plays `text` after `node`: answers the move as the server read it ({ move, short, seat,
   * events }) and the position it reaches; throws with the server's words when it is refused.
   */
  async play(tree, node, text) {
    const answer = await studyPosition(this.body([...tree.movesTo(node), text]));
    const played = answer.moves[answer.moves.length - 1];
    // An alliance answer ("accept", "refuse") adds no move: it is told among the last move's events.
    if (!played || answer.moves.length !== node.ply + 1) return { entry: null, answer };
    return { entry: played, answer };
  }

  /** Forgets every position (the rules changed). */
  clear() {
    this.cache.clear();
  }
}

/** A record's setup and moves, read by the server: `{ setup, moves: [entries], answer }` (the position at its end). */
export async function readRecord(record) {
  const answer = await studyPosition({ record });
  return {
    setup: { variant: answer.variant, rules: answer.rules, start: answer.start },
    moves: answer.moves,
    answer,
  };
}

/** A game's record (GET /api/games/{id}/record), read as above. */
export async function readGame(id) {
  const record = await getText(`/api/games/${encodeURIComponent(id)}/record`, { live: true });
  return readRecord(record);
}
