//! The transposition table: a fixed-size table of search results keyed by the position's
//! Zobrist key (the rules library keeps it up to date move by move), two entries per bucket.

use polyshogi::mv::Move;

use crate::eval::WIN_BOUND;

/// What a stored score says about the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    Exact,
    /// The true value is at least the score (a cut-off).
    Lower,
    /// The true value is at most the score (no move reached alpha).
    Upper,
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    /// `Move::pack`, or 0 for none.
    mv: u32,
    score: i16,
    depth: i8,
    /// Bound in bits 0..2 (0 = empty), age in bits 2..8.
    flags: u8,
}

/// A probe's answer.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    pub mv: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

pub struct TranspositionTable {
    buckets: Vec<[Entry; 2]>,
    age: u8,
}

impl TranspositionTable {
    /// A table of about `megabytes` MiB (at least one bucket).
    pub fn new(megabytes: usize) -> TranspositionTable {
        let bucket = std::mem::size_of::<[Entry; 2]>();
        let count = (megabytes * 1024 * 1024 / bucket).max(1);
        TranspositionTable { buckets: vec![[Entry::default(); 2]; count], age: 0 }
    }

    pub fn megabytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<[Entry; 2]>() / (1024 * 1024)
    }

    pub fn clear(&mut self) {
        self.buckets.iter_mut().for_each(|b| *b = [Entry::default(); 2]);
        self.age = 0;
    }

    /// Marks a new search, so that older entries are replaced first.
    pub fn new_search(&mut self) {
        self.age = (self.age + 1) & 0x3f;
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.buckets.len() as u128) >> 64) as usize
    }

    /// The entry of `key`; mate scores are made relative to the root `ply` plies up.
    pub fn probe(&self, key: u64, ply: usize) -> Option<Hit> {
        let bucket = &self.buckets[self.index(key)];
        let entry = bucket.iter().find(|e| e.key == key && e.flags & 3 != 0)?;
        let bound = match entry.flags & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Hit { mv: Move::unpack(entry.mv), score: from_tt(entry.score as i32, ply), depth: entry.depth as i32, bound })
    }

    /// Stores a result, keeping the deeper or newer of two entries per bucket.
    pub fn store(&mut self, key: u64, ply: usize, mv: Option<Move>, score: i32, depth: i32, bound: Bound) {
        let age = self.age;
        let index = self.index(key);
        let bucket = &mut self.buckets[index];
        let slot = if let Some(i) = bucket.iter().position(|e| e.key == key) {
            i
        } else {
            // Replace the entry of an older search first, else the shallower one.
            let value = |e: &Entry| -> i32 {
                if e.flags >> 2 != age {
                    -1000
                } else {
                    e.depth as i32
                }
            };
            if value(&bucket[0]) <= value(&bucket[1]) {
                0
            } else {
                1
            }
        };
        let old = bucket[slot];
        // Keep a known move when the new result has none.
        let mv = mv.map(Move::pack).unwrap_or(if old.key == key { old.mv } else { 0 });
        let bound = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        bucket[slot] = Entry {
            key,
            mv,
            score: to_tt(score, ply).clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.clamp(-100, 100) as i8,
            flags: bound | age << 2,
        };
    }
}

/// Win scores are stored relative to the node, not the root.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score + ply as i32
    } else if score < -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score - ply as i32
    } else if score < -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::WIN;
    use polyshogi::geometry::Cell;

    #[test]
    fn stored_entries_come_back_with_win_scores_relative_to_the_root() {
        let mut tt = TranspositionTable::new(1);
        let m = Move::Normal { from: Cell::new(3).unwrap(), to: Cell::new(9).unwrap(), promote: false };
        tt.store(42, 3, Some(m), WIN - 5, 4, Bound::Exact);
        let hit = tt.probe(42, 1).unwrap();
        assert_eq!(hit.mv, Some(m));
        assert_eq!(hit.score, WIN - 3);
        assert_eq!(hit.depth, 4);
        assert_eq!(hit.bound, Bound::Exact);
        assert!(tt.probe(43, 0).is_none());
        tt.store(42, 0, None, 10, 5, Bound::Lower);
        let hit = tt.probe(42, 0).unwrap();
        assert_eq!(hit.mv, Some(m), "the move survives a store without one");
        assert_eq!(hit.bound, Bound::Lower);
    }
}
