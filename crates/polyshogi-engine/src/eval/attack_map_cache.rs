//! Each seat's attack map and material, kept for one search (whose weights do not change).
//! What its steps and leaps attack and its material are fixed by where its own pieces stand,
//! and kept by its board key: a move changes the placement of one seat (two with a capture),
//! so most of a node's seats come back as they stood at its parent, and their pieces need not
//! be walked again. What its ranging pieces reach depends on the other pieces too: it is kept
//! with the occupied cells it was found on, while none of the cells it reaches changes.

use polyshogi::cellset::CellSet;

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
}

impl AttackMapCache {
    /// An empty cache. Its blank entries hold key 0 with no cells and no value: what a seat
    /// with no piece on the board (key 0) has, so that they need no mark of their own.
    pub fn new() -> AttackMapCache {
        AttackMapCache { entries: vec![Entry::default(); ENTRIES].into_boxed_slice() }
    }

    /// The attack map and value of the placement with board key `key` on a board whose
    /// occupied cells are `occupied`: the step map and value computed by `steps` unless kept,
    /// the ranging pieces' reach by `ranges` unless kept and no cell of it has been emptied or
    /// filled since (a ray's reach changes only when a cell on it up to its first piece does).
    #[inline]
    pub fn get_or_insert(
        &mut self,
        key: u64,
        occupied: CellSet,
        steps: impl FnOnce() -> (CellSet, i32),
        ranges: impl FnOnce() -> CellSet,
    ) -> (CellSet, i32) {
        let entry = &mut self.entries[(key >> (64 - ENTRIES.trailing_zeros())) as usize];
        if entry.key != key {
            let (map, value) = steps();
            *entry = Entry { key, map, value, occupied, ranges: ranges() };
        } else if !((entry.occupied ^ occupied) & entry.ranges).is_empty() {
            entry.ranges = ranges();
            entry.occupied = occupied;
        }
        (entry.map | entry.ranges, entry.value)
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
    use polyshogi::geometry::Cell;

    fn cells(indices: &[u8]) -> CellSet {
        indices.iter().map(|&i| Cell::new(i).expect("a cell")).collect()
    }

    /// What comes back is what was computed for that key, across keys that share entries.
    #[test]
    fn keeps_each_key_s_own_result() {
        let mut maps = AttackMapCache::new();
        let result = |key: u64| (cells(&[(key % 100) as u8]), key as i32 % 1000);
        let ranges = |key: u64| cells(&[100 + (key % 20) as u8]);
        let mut computed = 0;
        for round in 0..3 {
            for i in 0..50u64 {
                // Small keys all fall on one entry (the entry is picked by the top bits).
                let key = i << 1 | 1;
                let got = maps.get_or_insert(
                    key,
                    CellSet::EMPTY,
                    || {
                        computed += 1;
                        result(key)
                    },
                    || ranges(key),
                );
                assert_eq!(got, (result(key).0 | ranges(key), result(key).1), "round {round}, key {key}");
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
            maps.get_or_insert(key, CellSet::EMPTY, steps, || ranges(key));
        }
        assert_eq!(again, 1, "a key looked up twice in a row is computed once");
        let mut fresh = AttackMapCache::new();
        let blank = fresh.get_or_insert(0, cells(&[7]), || unreachable!("a blank entry answers key 0"), || unreachable!());
        assert_eq!(blank, (CellSet::EMPTY, 0));
    }

    /// The ranging part is found again when a cell it reaches is emptied or filled, and kept
    /// when only other cells change.
    #[test]
    fn ranges_are_found_again_when_a_cell_they_reach_changes() {
        let mut maps = AttackMapCache::new();
        let key = 12_345;
        let steps = || (cells(&[1]), 300);
        let reach = cells(&[10, 11, 12]);
        let found = std::cell::Cell::new(0);
        let mut look = |occupied: CellSet| {
            maps.get_or_insert(key, occupied, steps, || {
                found.set(found.get() + 1);
                reach
            })
        };
        // 12 holds the piece that ends the reach; 40 is beyond it.
        assert_eq!(look(cells(&[12, 40])), (cells(&[1, 10, 11, 12]), 300));
        look(cells(&[12]));
        look(cells(&[12, 41]));
        assert_eq!(found.get(), 1, "cells the reach does not hold changed");
        look(cells(&[11, 12, 41]));
        assert_eq!(found.get(), 2, "a cell of the reach was filled");
        look(cells(&[11, 41]));
        assert_eq!(found.get(), 3, "the piece ending the reach left");
    }
}
