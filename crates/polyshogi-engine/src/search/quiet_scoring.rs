//! Scores for the moves that win nothing, given as the move generator lists them: a node's
//! quiet moves go straight into its `OrderedMoves`, with no list in between, and each piece's
//! row of the history table is found once for all its moves.

use polyshogi::cellset::CellSet;
use polyshogi::geometry::Cell;
use polyshogi::mv::{Move, MoveSink};
use polyshogi::piece::Role;

use super::{OrderedMoves, ORDER_KILLER, ORDER_PROMOTION};

/// A move sink that pushes each move into `ordered` with the score `Ctx::order_score` gives a
/// move that is not the table's and gains nothing: a promotion's, a killer's, or its history.
pub(super) struct QuietScoring<'a> {
    pub(super) ordered: &'a mut OrderedMoves,
    /// The mover's history, laid out as `Heuristics::history_index` lays it out: a row of 128
    /// destinations per origin, the cells first and then the roles dropped.
    pub(super) history: &'a [i32],
    /// The ply's killers, packed.
    pub(super) killers: [u32; 2],
    /// How many moves came in (the generator's `count`).
    pub(super) pushed: usize,
}

/// The history row of the moves from `origin`: a cell's index, or 128 plus a dropped role's.
#[inline]
fn row(history: &[i32], origin: usize) -> &[i32] {
    &history[origin * 128..][..128]
}

impl QuietScoring<'_> {
    /// The score of `m`, no promotion: a killer's, or else `history`.
    #[inline]
    fn plain_score(&self, m: Move, history: impl FnOnce() -> i32) -> i32 {
        let packed = m.pack();
        match self.killers.iter().position(|&k| k == packed) {
            Some(rank) => ORDER_KILLER - rank as i32,
            None => history(),
        }
    }

    #[inline]
    fn push_scored(&mut self, score: i32, m: Move) {
        self.ordered.push(score, m);
        self.pushed += 1;
    }
}

impl MoveSink for QuietScoring<'_> {
    fn push(&mut self, m: Move) {
        let history = self.history;
        let score = match m {
            Move::Normal { promote: true, .. } => ORDER_PROMOTION,
            Move::Normal { from, to, .. } => self.plain_score(m, || row(history, from.usize())[to.usize()]),
            Move::Drop { role, to } => self.plain_score(m, || row(history, 128 + role.index())[to.usize()]),
            Move::Illuminate { .. } | Move::Pass => self.plain_score(m, || 0),
        };
        self.push_scored(score, m);
    }

    #[inline]
    fn push_targets(&mut self, from: Cell, targets: CellSet, promote: bool) {
        if promote {
            for to in targets {
                self.push_scored(ORDER_PROMOTION, Move::Normal { from, to, promote });
            }
            return;
        }
        let row = row(self.history, from.usize());
        for to in targets {
            let m = Move::Normal { from, to, promote };
            self.push_scored(self.plain_score(m, || row[to.usize()]), m);
        }
    }

    #[inline]
    fn push_drops(&mut self, role: Role, targets: CellSet) {
        let row = row(self.history, 128 + role.index());
        for to in targets {
            let m = Move::Drop { role, to };
            self.push_scored(self.plain_score(m, || row[to.usize()]), m);
        }
    }

    fn push_split(&mut self, from: Cell, plain: CellSet, promoted: CellSet) {
        for to in plain | promoted {
            if promoted.contains(to) {
                self.push(Move::Normal { from, to, promote: true });
            }
            if plain.contains(to) {
                self.push(Move::Normal { from, to, promote: false });
            }
        }
    }

    fn count(&self) -> usize {
        self.pushed
    }
}
