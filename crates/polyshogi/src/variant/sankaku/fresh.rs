//! Super-ko's count without a move list: how many legal moves lead to a position not seen
//! before. A capture never does, since no piece ever comes back to the board (there are no
//! drops): the position after it has fewer pieces than every earlier one. And a quiet step
//! (no promotion without a capture) changes the key by the piece's keys on two cells, so each
//! earlier key names the one cell a piece could step to to recur: for a piece with more steps
//! than there are earlier positions (the Emperor's jumps), one look-up per earlier key.

use super::key::{cell_with_key, piece_key, WHITE_TO_MOVE};
use super::position::SankakuPosition;
use crate::cellset::CellSet;
use crate::geometry::Cell;
use crate::mv::{Move, MoveSink};
use crate::piece::Role;

/// Counts every legal move and the fresh ones among them.
struct FreshCount<'a> {
    position: &'a SankakuPosition,
    earlier: &'a [u64],
    all: usize,
    fresh: usize,
}

impl FreshCount<'_> {
    #[inline]
    fn is_fresh(&self, key: u64) -> bool {
        key != self.position.key && !self.earlier.contains(&key)
    }
}

impl MoveSink for FreshCount<'_> {
    fn push(&mut self, m: Move) {
        self.all += 1;
        let capture = matches!(m, Move::Normal { to, .. } if self.position.occupied.contains(to));
        if capture || self.is_fresh(self.position.key_after(m)) {
            self.fresh += 1;
        }
    }

    #[inline]
    fn push_targets(&mut self, from: Cell, targets: CellSet, _: bool) {
        self.all += targets.count() as usize;
        let quiet = targets - self.position.occupied;
        self.fresh += (targets & self.position.occupied).count() as usize;
        if quiet.is_empty() {
            return;
        }
        let code = self.position.board[from.usize()];
        let lifted = self.position.key ^ WHITE_TO_MOVE ^ piece_key(code, from.usize());
        if quiet.count() as usize <= self.earlier.len() {
            // Fewer steps than earlier positions (a Soldier's, a General's): each step keyed.
            self.fresh += quiet.into_iter().filter(|to| self.is_fresh(lifted ^ piece_key(code, to.usize()))).count();
            return;
        }
        // Many steps (the Emperor's jumps): a step to `to` reaches `lifted ^ piece_key(code,
        // to)`, so it recurs to the key `k` exactly when the piece's key on `to` is
        // `lifted ^ k`, and one look-up per earlier key finds the only cell that could.
        let mut recurring = CellSet::EMPTY;
        for &key in std::iter::once(&self.position.key).chain(self.earlier) {
            if let Some(cell) = cell_with_key(code, lifted ^ key) {
                recurring.insert(Cell::new(cell as u8).expect("a board cell"));
            }
        }
        self.fresh += (quiet - recurring).count() as usize;
    }

    fn push_drops(&mut self, _: Role, _: CellSet) {
        unreachable!("Sankaku has no drops")
    }

    fn push_split(&mut self, _: Cell, _: CellSet, _: CellSet) {
        unreachable!("Sankaku has no choice of promotion")
    }

    fn count(&self) -> usize {
        self.all
    }
}

impl SankakuPosition {
    /// (every legal move, those leading to a position whose key is neither the present one
    /// nor in `earlier`): `Rules::fresh_move_count` without listing the moves.
    pub fn fresh_move_count(&self, earlier: &[u64]) -> (usize, usize) {
        let mut count = FreshCount { position: self, earlier, all: 0, fresh: 0 };
        self.generate(&mut count);
        (count.all, count.fresh)
    }
}
