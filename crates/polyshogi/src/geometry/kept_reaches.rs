//! What ranging pieces reach, kept by cell: a ray's reach changes only when a cell on it up to
//! its first piece is emptied or filled, and a move changes two cells, so a piece's reach is
//! usually found once for many nodes. The evaluations' attack maps and Sannin's alliance
//! detector keep their own, one per search or per thread.

use crate::cell::Cell;
use crate::cellset::CellSet;
use crate::mv::HourSet;

/// What a ranging piece on one cell reaches along `hours`, found on `occupied`. A blank entry
/// ranges along no hour, which no ranging piece does, so that it never answers.
#[derive(Clone, Copy, Default)]
struct Reach {
    hours: HourSet,
    occupied: CellSet,
    cells: CellSet,
}

/// The last reach found from each cell.
pub struct KeptReaches {
    by_cell: Box<[Reach; 128]>,
}

impl KeptReaches {
    pub fn new() -> KeptReaches {
        KeptReaches { by_cell: Box::new([Reach::default(); 128]) }
    }

    /// What a piece on `from` ranging along `hours` reaches on a board whose occupied cells are
    /// `occupied`: found by `find` unless kept for this cell and these hours with no cell of it
    /// emptied or filled since.
    #[inline]
    pub fn reach(&mut self, from: Cell, hours: HourSet, occupied: CellSet, find: impl FnOnce() -> CellSet) -> CellSet {
        let kept = &mut self.by_cell[from.usize()];
        if kept.hours != hours || !((kept.occupied ^ occupied) & kept.cells).is_empty() {
            *kept = Reach { hours, occupied, cells: find() };
        }
        kept.cells
    }
}

impl Default for KeptReaches {
    fn default() -> KeptReaches {
        KeptReaches::new()
    }
}
