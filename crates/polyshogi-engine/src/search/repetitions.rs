//! The positions a search must not repeat: the game's up to the root, then the search path's.
//! A count of keys per bucket answers almost every "was this position seen?" at once, so that
//! a node costs the same late in a long game as early in it; only a bucket that holds keys is
//! scanned.

/// Buckets, by the top bits of the key: 16 KiB of counts, a few times more buckets than a
/// game and a search path hold keys.
const BUCKET_BITS: u32 = 12;

pub struct Repetitions {
    keys: Vec<u64>,
    counts: Box<[u32; 1 << BUCKET_BITS]>,
}

impl Repetitions {
    /// The keys of a game's positions, from its start to the root.
    pub fn new(keys: &[u64]) -> Repetitions {
        let mut repetitions = Repetitions { keys: Vec::with_capacity(keys.len() + 256), counts: Box::new([0; 1 << BUCKET_BITS]) };
        for &key in keys {
            repetitions.push(key);
        }
        repetitions
    }

    #[inline]
    fn bucket(key: u64) -> usize {
        (key >> (64 - BUCKET_BITS)) as usize
    }

    /// Adds the key of a position on the search path.
    #[inline]
    pub fn push(&mut self, key: u64) {
        self.keys.push(key);
        self.counts[Self::bucket(key)] += 1;
    }

    /// Takes back the last key pushed.
    #[inline]
    pub fn pop(&mut self) {
        if let Some(key) = self.keys.pop() {
            self.counts[Self::bucket(key)] -= 1;
        }
    }

    /// Whether a position with this key occurred before, in the game or on the search path.
    #[inline]
    pub fn contains(&self, key: u64) -> bool {
        self.counts[Self::bucket(key)] != 0 && self.keys.iter().rev().any(|&k| k == key)
    }

    /// Every key, the game's first.
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }
}

impl Default for Repetitions {
    fn default() -> Repetitions {
        Repetitions::new(&[])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use polyshogi::splitmix::mix;

    /// Against a plain list, along pushes and pops of 40 keys in three buckets.
    #[test]
    fn answers_as_a_scan_of_every_key_would() {
        let key = |i: u64| mix(i % 40) & !(0xfff << 52) | (i % 3) << 52;
        let mut repetitions = Repetitions::new(&[key(1), key(2)]);
        let mut plain = vec![key(1), key(2)];
        for step in 0..2_000u64 {
            if mix(step).is_multiple_of(3) && !plain.is_empty() {
                repetitions.pop();
                plain.pop();
            } else {
                repetitions.push(key(step));
                plain.push(key(step));
            }
            for probe in 0..45 {
                assert_eq!(repetitions.contains(key(probe)), plain.contains(&key(probe)), "step {step}, key {probe}");
            }
        }
        assert_eq!(repetitions.keys(), &plain[..]);
        while !plain.is_empty() {
            repetitions.pop();
            plain.pop();
        }
        assert!((0..45).all(|probe| !repetitions.contains(key(probe))));
    }
}
