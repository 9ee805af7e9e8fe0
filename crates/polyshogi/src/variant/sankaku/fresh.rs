//! Super-ko's count without a move list: how many legal moves lead to a position not seen
//! before. A capture never does, since no piece ever comes back to the board (there are no
//! drops): the position after it has fewer pieces than every earlier one. A quiet move (no
//! capture, so no promotion either) changes the key by the side to move and the piece's keys
//! on two cells, so each earlier key names at most one quiet move that would bring it back.
//! Those few moves are found first, one look-up per earlier key; the count then only has to
//! leave them out.

use arrayvec::ArrayVec;

use super::key::{step_with_change, WHITE_TO_MOVE};
use super::position::SankakuPosition;
use super::tables::{piece_of, ARMY_SIZE};
use crate::cellset::CellSet;
use crate::geometry::Cell;
use crate::mv::{Move, MoveSink};
use crate::piece::Role;

/// The quiet moves of the player to move that would recreate an earlier position, as target
/// sets by the cell moved from (one of the player's pieces, so at most an army's worth).
#[derive(Default)]
struct Recurring {
    from: CellSet,
    targets: ArrayVec<(Cell, CellSet), ARMY_SIZE>,
}

impl Recurring {
    /// Notes the quiet moves of `position`'s player to move that lead to a key of `earlier`.
    /// They need not be legal: the count asks about legal ones only. `earlier` holds a key per
    /// ply, oldest first (as `Game` keeps them); the sides alternate, so only every other key,
    /// from the last one back, has the side to move that a move hands the turn to.
    fn find(&mut self, position: &SankakuPosition, earlier: &[u64]) {
        for &key in earlier.iter().rev().step_by(2) {
            let Some((code, [a, b])) = step_with_change(position.key ^ WHITE_TO_MOVE ^ key) else { continue };
            if piece_of(code).is_none_or(|piece| piece.player != position.to_move) {
                continue;
            }
            for (from, to) in [(a, b), (b, a)] {
                if position.board[from] == code && position.board[to] == 0 {
                    self.insert(Cell::new(from as u8).expect("a board cell"), Cell::new(to as u8).expect("a board cell"));
                }
            }
        }
    }

    fn insert(&mut self, from: Cell, to: Cell) {
        if !self.from.contains(from) {
            self.from.insert(from);
            self.targets.push((from, CellSet::EMPTY));
        }
        let (_, targets) = self.targets.iter_mut().find(|(cell, _)| *cell == from).expect("noted above");
        targets.insert(to);
    }

    #[inline]
    fn targets(&self, from: Cell) -> CellSet {
        if !self.from.contains(from) {
            return CellSet::EMPTY;
        }
        self.targets.iter().find(|(cell, _)| *cell == from).map_or(CellSet::EMPTY, |(_, targets)| *targets)
    }
}

/// Counts every legal move and the fresh ones among them.
struct FreshCount<'a> {
    position: &'a SankakuPosition,
    recurring: Recurring,
    all: usize,
    fresh: usize,
}

impl MoveSink for FreshCount<'_> {
    /// A Soldier's capturing leap, or a Chariot's slide past its first cell: a slide that
    /// runs a Soldier down captures in passing, so only a slide over empty cells can recur.
    fn push(&mut self, m: Move) {
        self.all += 1;
        let Move::Normal { from, to, .. } = m else { unreachable!("Sankaku has only board moves") };
        let position = self.position;
        let recurs =
            self.recurring.targets(from).contains(to) && (position.grid.between(from, to) & position.occupied).is_empty();
        if !recurs {
            self.fresh += 1;
        }
    }

    /// Single steps and jumps, captures among them: the recurring moves are all quiet.
    #[inline]
    fn push_targets(&mut self, from: Cell, targets: CellSet, _: bool) {
        self.all += targets.count() as usize;
        self.fresh += (targets - self.recurring.targets(from)).count() as usize;
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
    /// nor in `earlier`): `Rules::fresh_move_count` without listing the moves. The present
    /// key has the other side to move, so no move leads back to it.
    pub fn fresh_move_count(&self, earlier: &[u64]) -> (usize, usize) {
        // Built in place: the list is small, but copying it whole per count would show.
        let mut count = FreshCount { position: self, recurring: Recurring::default(), all: 0, fresh: 0 };
        count.recurring.find(self, earlier);
        self.generate::<false>(&mut count);
        (count.all, count.fresh)
    }
}
