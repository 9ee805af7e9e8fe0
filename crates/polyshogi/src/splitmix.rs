//! SplitMix64 (Steele, Lea and Flood, 2014), the one mixer of the project: its finaliser spreads
//! a number over 64 bits (Zobrist keys, search salts, evaluation noise), and its stream gives
//! pseudo-random numbers that a seed reproduces (bots, openings, test playouts).

/// The golden-ratio increment of the stream.
const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// SplitMix64's finaliser: every bit of `z` affects every bit of the result.
#[inline]
pub const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The `index`-th value of a fixed pseudo-random sequence: what the stream seeded with 0 gives
/// as its `index`-th output, computed directly (usable in `const` tables).
#[inline]
pub const fn nth(index: u64) -> u64 {
    mix(index.wrapping_mul(GAMMA))
}

/// A SplitMix64 stream: the same seed gives the same numbers.
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GAMMA);
        mix(self.0)
    }

    /// A number below `n` (n > 0); the bias of the modulo is negligible for small `n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// One of `items` chosen uniformly (with `below`'s bias), `None` when there is none.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        (!items.is_empty()).then(|| items[self.below(items.len())])
    }

    /// A number below `n` (n > 0) from the high half of a product instead of a division (Lemire
    /// 2019): cheaper where draws are many, with the same negligible bias for small `n`.
    #[inline]
    pub fn below_by_product(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_and_nth_agree() {
        let mut stream = SplitMix::new(0);
        for index in 1..=100 {
            assert_eq!(stream.next_u64(), nth(index));
        }
    }

    #[test]
    fn the_stream_reproduces_the_published_values() {
        // The first outputs of SplitMix64 seeded with 1234567 (the reference C code).
        let mut stream = SplitMix::new(1234567);
        assert_eq!(stream.next_u64(), 6457827717110365317);
        assert_eq!(stream.next_u64(), 3203168211198807973);
    }
}
