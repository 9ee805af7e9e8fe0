//! The repetition keys of the positions a game has passed through, oldest first, kept so that
//! asking whether or how often a position occurred costs the same however long the game (the
//! server and random playouts ask after every move).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Keys before this index are looked through, later ones are counted in a map. Looking through
/// a few dozen keys is faster than keeping a map up to date, and perft and most of a game's
/// opening never get further; past it the cost per question stays the same.
const LOOKED_THROUGH: usize = 64;

#[derive(Clone, Debug, Default)]
pub struct KeyHistory {
    keys: Vec<u64>,
    /// How often each key from index `LOOKED_THROUGH` on occurs.
    later_counts: HashMap<u64, u32, BuildHasherDefault<ZobristKeyHasher>>,
}

impl KeyHistory {
    pub fn new() -> KeyHistory {
        KeyHistory::default()
    }

    /// The keys, oldest first.
    pub fn as_slice(&self) -> &[u64] {
        &self.keys
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    pub fn push(&mut self, key: u64) {
        if self.keys.len() >= LOOKED_THROUGH {
            *self.later_counts.entry(key).or_insert(0) += 1;
        }
        self.keys.push(key);
    }

    /// Forgets the newest key, if any.
    pub fn pop(&mut self) {
        if let Some(key) = self.keys.pop() {
            if self.keys.len() >= LOOKED_THROUGH {
                self.forget_later(key);
            }
        }
    }

    /// Keeps the oldest `len` keys. Both lists keep their room, so a game taken back to its
    /// start and played again (random playouts) allocates nothing.
    pub fn truncate(&mut self, len: usize) {
        if len <= LOOKED_THROUGH {
            self.later_counts.clear();
            self.keys.truncate(len);
            return;
        }
        while self.keys.len() > len {
            self.pop();
        }
    }

    /// How many times `key` occurs.
    pub fn occurrences(&self, key: u64) -> u32 {
        let early = self.early().iter().filter(|&&k| k == key).count() as u32;
        early + self.later_counts.get(&key).copied().unwrap_or(0)
    }

    pub fn contains(&self, key: u64) -> bool {
        self.early().contains(&key) || self.later_counts.contains_key(&key)
    }

    /// The keys that are looked through rather than counted.
    fn early(&self) -> &[u64] {
        &self.keys[..self.keys.len().min(LOOKED_THROUGH)]
    }

    fn forget_later(&mut self, key: u64) {
        let count = self.later_counts.get_mut(&key).expect("every later key is counted");
        *count -= 1;
        if *count == 0 {
            self.later_counts.remove(&key);
        }
    }
}

/// Repetition keys are Zobrist hashes, uniformly spread over all 64 bits already, so the map
/// uses them as they are instead of hashing them again.
#[derive(Default)]
struct ZobristKeyHasher(u64);

impl Hasher for ZobristKeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `u64` keys are hashed; this folds any other input in rather than dropping it.
        for &byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(byte);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::splitmix::SplitMix;

    #[test]
    fn counts_follow_pushes_pops_and_truncation_on_both_sides_of_the_looked_through_keys() {
        let mut rng = SplitMix::new(3);
        let mut history = KeyHistory::new();
        // Few distinct keys, so that many repeat.
        let key = |k: usize| k as u64 * 0x9E37_79B9_7F4A_7C15;
        let agrees_with_a_scan = |history: &KeyHistory| {
            for k in 0..13 {
                let scanned = history.as_slice().iter().filter(|&&earlier| earlier == key(k)).count() as u32;
                assert_eq!(history.occurrences(key(k)), scanned, "{} keys", history.len());
                assert_eq!(history.contains(key(k)), scanned > 0, "{} keys", history.len());
            }
        };
        // Each round grows the history well past the looked-through keys and shrinks it back
        // below them, by pops and by truncations.
        for _ in 0..6 {
            let high = LOOKED_THROUGH + 50 + rng.below(150);
            while history.len() < high {
                if rng.below(5) == 0 {
                    history.pop();
                } else {
                    history.push(key(rng.below(12)));
                }
                agrees_with_a_scan(&history);
            }
            let low = rng.below(LOOKED_THROUGH);
            while history.len() > low {
                match rng.below(4) {
                    0 => history.truncate(history.len().saturating_sub(rng.below(8)).max(low)),
                    1 => history.push(key(rng.below(12))),
                    _ => history.pop(),
                }
                agrees_with_a_scan(&history);
            }
        }
    }
}
