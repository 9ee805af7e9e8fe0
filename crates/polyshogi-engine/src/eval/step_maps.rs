//! The part of a seat's attack map and material that only where its own pieces stand fixes,
//! kept by the seat's board key for one search (whose weights do not change). A move changes
//! the placement of one seat (two with a capture), so most of a node's seats come back as
//! they stood at its parent, and their pieces need not be walked again.

use polyshogi::cellset::CellSet;

/// Entries (a power of two): 4 K of 48 bytes.
const ENTRIES: usize = 1 << 12;

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    map: CellSet,
    value: i32,
}

pub struct StepMaps {
    entries: Box<[Entry]>,
}

impl StepMaps {
    /// An empty cache. Its blank entries hold key 0 with no cells and no value: what a seat
    /// with no piece on the board (key 0) has, so that they need no mark of their own.
    pub fn new() -> StepMaps {
        StepMaps { entries: vec![Entry::default(); ENTRIES].into_boxed_slice() }
    }

    /// The step map and value of the placement with board key `key`, computed by `compute`
    /// unless kept.
    #[inline]
    pub fn get_or_insert(&mut self, key: u64, compute: impl FnOnce() -> (CellSet, i32)) -> (CellSet, i32) {
        let entry = &mut self.entries[(key >> (64 - ENTRIES.trailing_zeros())) as usize];
        if entry.key != key {
            let (map, value) = compute();
            *entry = Entry { key, map, value };
        }
        (entry.map, entry.value)
    }
}

impl Default for StepMaps {
    fn default() -> StepMaps {
        StepMaps::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use polyshogi::geometry::Cell;

    /// What comes back is what was computed for that key, across keys that share entries.
    #[test]
    fn keeps_each_key_s_own_result() {
        let mut maps = StepMaps::new();
        let result = |key: u64| (CellSet::from_cell(Cell::new((key % 100) as u8).expect("a cell")), key as i32 % 1000);
        let mut computed = 0;
        for round in 0..3 {
            for i in 0..50u64 {
                // Small keys all fall on one entry (the entry is picked by the top bits).
                let key = i << 1 | 1;
                let got = maps.get_or_insert(key, || {
                    computed += 1;
                    result(key)
                });
                assert_eq!(got, result(key), "round {round}, key {key}");
            }
        }
        // Every key shares entry 0, so each lookup after another key's computes again.
        assert_eq!(computed, 150);
        let mut again = 0;
        let key = (1u64 << 63) | 5;
        for _ in 0..3 {
            maps.get_or_insert(key, || {
                again += 1;
                result(key)
            });
        }
        assert_eq!(again, 1, "a key looked up twice in a row is computed once");
        let mut fresh = StepMaps::new();
        assert_eq!(fresh.get_or_insert(0, || unreachable!("a blank entry answers key 0")), (CellSet::EMPTY, 0));
    }
}
