//! Each seat's attack map and material, kept for one search (whose weights do not change).
//! What its steps and leaps attack and its material are fixed by where its own pieces stand,
//! and kept by its board key: a move changes the placement of one seat (two with a capture),
//! so most of a node's seats come back as they stood at its parent, and their pieces need not
//! be walked again. What its ranging pieces reach depends on the other pieces too: it is kept
//! with the occupied cells it was found on, while none of the cells it reaches changes. When
//! one has, each ranging piece's own reach is kept the same way, by its cell (`KeptReaches`): a
//! move seldom changes what more than one of a seat's ranging pieces reaches.

use polyshogi::cellset::CellSet;
use polyshogi::geometry::{Cell, KeptReaches};
use polyshogi::mv::HourSet;

/// Entries (a power of two): 4 K of 64 bytes.
const ENTRIES: usize = 1 << 12;

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    map: CellSet,
    value: i32,
    /// The occupied cells `ranges` was found on.
    occupied: CellSet,
    ranges: CellSet,
}

pub struct AttackMapCache {
    entries: Box<[Entry]>,
    reaches: KeptReaches,
}

impl AttackMapCache {
    /// An empty cache. Its blank entries hold key 0 with no cells and no value: what a seat
    /// with no piece on the board (key 0) has, so that they need no mark of their own.
    pub fn new() -> AttackMapCache {
        AttackMapCache { entries: vec![Entry::default(); ENTRIES].into_boxed_slice(), reaches: KeptReaches::new() }
    }

    /// Starts loading the entry of board key `key`, for a position about to be evaluated.
    pub fn prefetch(&self, key: u64) {
        crate::prefetch::prefetch(&self.entries[Self::index(key)].key);
    }

    fn index(key: u64) -> usize {
        (key >> (64 - ENTRIES.trailing_zeros())) as usize
    }

    /// The attack map and value of the placement with board key `key` on a board whose
    /// occupied cells are `occupied`: the step map and value computed by `steps` unless kept,
    /// and the union of what the seat's `ranging_pieces` (each a cell and the hours it ranges
    /// along) reach, each found by `reach` unless kept and no cell of it has been emptied or
    /// filled since (a ray's reach changes only when a cell on it up to its first piece does).
    #[inline]
    pub fn get_or_insert(
        &mut self,
        key: u64,
        occupied: CellSet,
        steps: impl FnOnce() -> (CellSet, i32),
        ranging_pieces: impl Iterator<Item = (Cell, HourSet)>,
        reach: impl Fn(Cell, HourSet) -> CellSet,
    ) -> (CellSet, i32) {
        let entry = &mut self.entries[Self::index(key)];
        if entry.key != key {
            let (map, value) = steps();
            let ranges = Self::ranges(&mut self.reaches, occupied, ranging_pieces, reach);
            *entry = Entry { key, map, value, occupied, ranges };
        } else if !((entry.occupied ^ occupied) & entry.ranges).is_empty() {
            entry.ranges = Self::ranges(&mut self.reaches, occupied, ranging_pieces, reach);
            entry.occupied = occupied;
        }
        (entry.map | entry.ranges, entry.value)
    }

    /// The union of what `ranging_pieces` reach, each piece's reach kept by its cell.
    fn ranges(
        reaches: &mut KeptReaches,
        occupied: CellSet,
        ranging_pieces: impl Iterator<Item = (Cell, HourSet)>,
        reach: impl Fn(Cell, HourSet) -> CellSet,
    ) -> CellSet {
        ranging_pieces
            .fold(CellSet::EMPTY, |map, (from, hours)| map | reaches.reach(from, hours, occupied, || reach(from, hours)))
    }
}

impl Default for AttackMapCache {
    fn default() -> AttackMapCache {
        AttackMapCache::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    fn cells(indices: &[u8]) -> CellSet {
        indices.iter().map(|&i| Cell::new(i).expect("a cell")).collect()
    }

    fn cell(index: u8) -> Cell {
        Cell::new(index).expect("a cell")
    }

    fn hours(bits: u16) -> HourSet {
        HourSet::from_bits(bits)
    }

    /// What comes back is what was computed for that key, across keys that share entries.
    #[test]
    fn keeps_each_key_s_own_result() {
        let mut maps = AttackMapCache::new();
        let result = |key: u64| (cells(&[(key % 100) as u8]), key as i32 % 1000);
        // Each key's one ranging piece, on a cell of its own among 20, and what it reaches there.
        let ranger = |key: u64| (cell(100 + (key % 20) as u8), hours(1));
        let reach = |from: Cell, _: HourSet| CellSet::from_cell(from);
        let mut computed = 0;
        for round in 0..3 {
            for i in 0..50u64 {
                // Small keys all fall on one entry (the entry is picked by the top bits).
                let key = i << 1 | 1;
                let steps = || {
                    computed += 1;
                    result(key)
                };
                let got = maps.get_or_insert(key, CellSet::EMPTY, steps, [ranger(key)].into_iter(), reach);
                assert_eq!(got, (result(key).0.with(ranger(key).0), result(key).1), "round {round}, key {key}");
            }
        }
        // Every key shares entry 0, so each lookup after another key's computes again.
        assert_eq!(computed, 150);
        let mut again = 0;
        let key = (1u64 << 63) | 5;
        for _ in 0..3 {
            let steps = || {
                again += 1;
                result(key)
            };
            maps.get_or_insert(key, CellSet::EMPTY, steps, std::iter::empty(), reach);
        }
        assert_eq!(again, 1, "a key looked up twice in a row is computed once");
        let mut fresh = AttackMapCache::new();
        let blank = fresh.get_or_insert(
            0,
            cells(&[7]),
            || unreachable!("a blank entry answers key 0"),
            std::iter::empty(),
            |_, _| unreachable!(),
        );
        assert_eq!(blank, (CellSet::EMPTY, 0));
    }

    /// A ranging piece's reach is found again when a cell it reaches is emptied or filled, or
    /// when another piece ranges from its cell, and kept otherwise: the others' reaches are
    /// kept when one is found again.
    #[test]
    fn each_reach_is_found_again_when_a_cell_it_reaches_changes() {
        let mut maps = AttackMapCache::new();
        let steps = || (cells(&[1]), 300);
        // Two ranging pieces; 12 holds the piece that ends the first one's reach, 21 the second's.
        let (first, second) = ((cell(5), hours(1)), (cell(6), hours(2)));
        let found = RefCell::new(Vec::new());
        let reach = |from: Cell, along: HourSet| {
            found.borrow_mut().push((from, along));
            match (from.index(), along.bits()) {
                (5, 1) => cells(&[10, 11, 12]),
                (6, 2) => cells(&[20, 21]),
                _ => cells(&[30]),
            }
        };
        let mut look = |key: u64, occupied: CellSet, pieces: &[(Cell, HourSet)]| {
            let got = maps.get_or_insert(key, occupied, steps, pieces.iter().copied(), reach);
            (got, found.borrow_mut().split_off(0))
        };
        let both = [first, second];
        let (got, computed) = look(1, cells(&[12, 21, 40]), &both);
        assert_eq!(got, (cells(&[1, 10, 11, 12, 20, 21]), 300));
        assert_eq!(computed, both);
        assert_eq!(look(1, cells(&[12, 21]), &both).1, [], "cells no reach holds changed");
        assert_eq!(look(1, cells(&[11, 12, 21]), &both).1, [first], "a cell of the first reach was filled");
        assert_eq!(look(1, cells(&[11, 12]), &both).1, [second], "the piece ending the second reach left");
        // Another placement (key), with a piece ranging from the first one's cell along other
        // hours, on the same board.
        let other = (cell(5), hours(4));
        let (got, computed) = look(2, cells(&[11, 12]), &[other, second]);
        assert_eq!(computed, [other]);
        assert_eq!(got, (cells(&[1, 20, 21, 30]), 300));
    }
}
