//! `Cell`: a checked board-cell index below 128.

use std::fmt;
use std::num::NonZeroU8;

/// A cell index on some board (0..128). The index is stored with its top bit set, so that
/// `Option<Cell>` stays one byte.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(NonZeroU8);

impl Cell {
    /// A cell from an index known to be below 128 (the caller checks it against its board).
    #[inline]
    pub const fn new_unchecked(index: u8) -> Cell {
        match NonZeroU8::new(index | 0x80) {
            Some(v) => Cell(v),
            None => unreachable!(),
        }
    }

    /// A cell from an index, or `None` when it cannot be a cell of any board.
    pub const fn new(index: u8) -> Option<Cell> {
        if index < 128 {
            Some(Cell::new_unchecked(index))
        } else {
            None
        }
    }

    #[inline]
    pub const fn index(self) -> u8 {
        self.0.get() & 0x7f
    }

    #[inline]
    pub const fn usize(self) -> usize {
        self.index() as usize
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Cell({})", self.index())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_cell_is_one_byte() {
        assert_eq!(std::mem::size_of::<Option<Cell>>(), 1);
        assert_eq!(Cell::new(127).unwrap().index(), 127);
        assert!(Cell::new(128).is_none());
    }
}
