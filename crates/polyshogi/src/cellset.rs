//! `CellSet`: a set of board cells as one `u128`.
//! Every board polyshogi knows (127, 91 and 44 cells) fits, so set algebra is a few instructions.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Sub};

use crate::cell::Cell;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CellSet(pub u128);

impl CellSet {
    pub const EMPTY: CellSet = CellSet(0);

    #[inline]
    pub const fn from_cell(cell: Cell) -> CellSet {
        CellSet(1u128 << cell.index())
    }

    /// Tests a bit of one 64-bit half, a single bit-test instruction: shifting all 128 bits
    /// by a variable count takes half a dozen, and move generation asks this all the time.
    #[inline]
    pub const fn contains(self, cell: Cell) -> bool {
        let index = cell.index();
        let half = if index < 64 { self.0 as u64 } else { (self.0 >> 64) as u64 };
        (half >> (index & 63)) & 1 != 0
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    #[inline]
    pub fn insert(&mut self, cell: Cell) {
        self.0 |= 1u128 << cell.index();
    }

    #[inline]
    pub fn remove(&mut self, cell: Cell) {
        self.0 &= !(1u128 << cell.index());
    }

    #[inline]
    pub const fn with(self, cell: Cell) -> CellSet {
        CellSet(self.0 | (1u128 << cell.index()))
    }

    #[inline]
    pub const fn without(self, cell: Cell) -> CellSet {
        CellSet(self.0 & !(1u128 << cell.index()))
    }

    /// The cell with the lowest index.
    #[inline]
    pub fn first(self) -> Option<Cell> {
        if self.0 == 0 {
            None
        } else {
            Some(Cell::new_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// The cell with the highest index.
    #[inline]
    pub fn last(self) -> Option<Cell> {
        if self.0 == 0 {
            None
        } else {
            Some(Cell::new_unchecked(127 - self.0.leading_zeros() as u8))
        }
    }

    /// Every cell index up to the set's first cell, that one included; every index when the
    /// set is empty.
    #[inline]
    pub const fn up_to_first(self) -> CellSet {
        CellSet(self.0 ^ self.0.wrapping_sub(1))
    }

    /// Every cell index from the set's last cell up, that one included; every index when the
    /// set is empty.
    #[inline]
    pub const fn from_last(self) -> CellSet {
        CellSet(u128::MAX << (127 - (self.0 | 1).leading_zeros()))
    }

    /// True when the set has exactly one cell.
    #[inline]
    pub const fn is_single(self) -> bool {
        self.0 != 0 && self.0 & (self.0 - 1) == 0
    }
}

impl Iterator for CellSet {
    type Item = Cell;

    /// Scans one 64-bit half at a time: clearing the lowest cell of a half is one instruction,
    /// of the whole 128-bit set several.
    #[inline]
    fn next(&mut self) -> Option<Cell> {
        let (low, high) = (self.0 as u64, (self.0 >> 64) as u64);
        if low != 0 {
            self.0 = (u128::from(high) << 64) | u128::from(low & (low - 1));
            Some(Cell::new_unchecked(low.trailing_zeros() as u8))
        } else if high != 0 {
            self.0 = u128::from(high & (high - 1)) << 64;
            Some(Cell::new_unchecked(64 + high.trailing_zeros() as u8))
        } else {
            None
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl FromIterator<Cell> for CellSet {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> Self {
        let mut set = CellSet::EMPTY;
        for cell in iter {
            set.insert(cell);
        }
        set
    }
}

impl BitAnd for CellSet {
    type Output = CellSet;
    #[inline]
    fn bitand(self, rhs: CellSet) -> CellSet {
        CellSet(self.0 & rhs.0)
    }
}

impl BitOr for CellSet {
    type Output = CellSet;
    #[inline]
    fn bitor(self, rhs: CellSet) -> CellSet {
        CellSet(self.0 | rhs.0)
    }
}

impl BitXor for CellSet {
    type Output = CellSet;
    #[inline]
    fn bitxor(self, rhs: CellSet) -> CellSet {
        CellSet(self.0 ^ rhs.0)
    }
}

impl Sub for CellSet {
    type Output = CellSet;
    #[inline]
    fn sub(self, rhs: CellSet) -> CellSet {
        CellSet(self.0 & !rhs.0)
    }
}

impl Not for CellSet {
    type Output = CellSet;
    #[inline]
    fn not(self) -> CellSet {
        CellSet(!self.0)
    }
}

impl BitAndAssign for CellSet {
    #[inline]
    fn bitand_assign(&mut self, rhs: CellSet) {
        self.0 &= rhs.0;
    }
}

impl BitOrAssign for CellSet {
    #[inline]
    fn bitor_assign(&mut self, rhs: CellSet) {
        self.0 |= rhs.0;
    }
}

impl fmt::Debug for CellSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.map(|c| c.index())).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iteration_is_in_index_order_and_first_last_agree() {
        let set: CellSet = [5u8, 0, 126, 64].into_iter().map(Cell::new_unchecked).collect();
        let indices: Vec<u8> = set.map(|c| c.index()).collect();
        assert_eq!(indices, vec![0, 5, 64, 126]);
        assert_eq!(set.first().unwrap().index(), 0);
        assert_eq!(set.last().unwrap().index(), 126);
        assert_eq!(set.count(), 4);
        assert!(!set.is_single());
        assert!(CellSet::from_cell(Cell::new_unchecked(9)).is_single());
    }

    #[test]
    fn contains_answers_for_every_index_of_both_halves() {
        let mut rng = crate::splitmix::SplitMix::new(3);
        for _ in 0..100 {
            let bits = u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64());
            let set = CellSet(bits);
            for index in 0..128u8 {
                assert_eq!(set.contains(Cell::new_unchecked(index)), bits >> index & 1 == 1, "{bits:#x} {index}");
            }
        }
    }

    #[test]
    fn up_to_first_runs_through_the_first_cell_in_either_half() {
        let up_to = |last: u8| -> CellSet { (0..=last).map(Cell::new_unchecked).collect() };
        let of = |indices: &[u8]| -> CellSet { indices.iter().map(|&i| Cell::new_unchecked(i)).collect() };
        assert_eq!(CellSet::EMPTY.up_to_first(), up_to(127));
        assert_eq!(of(&[0]).up_to_first(), up_to(0));
        assert_eq!(of(&[5, 70]).up_to_first(), up_to(5));
        assert_eq!(of(&[63, 64]).up_to_first(), up_to(63));
        assert_eq!(of(&[64, 100]).up_to_first(), up_to(64));
        assert_eq!(of(&[127]).up_to_first(), up_to(127));
    }

    #[test]
    fn from_last_runs_from_the_last_cell_in_either_half() {
        let from = |first: u8| -> CellSet { (first..=127).map(Cell::new_unchecked).collect() };
        let of = |indices: &[u8]| -> CellSet { indices.iter().map(|&i| Cell::new_unchecked(i)).collect() };
        assert_eq!(CellSet::EMPTY.from_last(), from(0));
        assert_eq!(of(&[0]).from_last(), from(0));
        assert_eq!(of(&[5, 70]).from_last(), from(70));
        assert_eq!(of(&[63, 64]).from_last(), from(64));
        assert_eq!(of(&[2, 63]).from_last(), from(63));
        assert_eq!(of(&[127]).from_last(), from(127));
    }
}
