//! The repetition key: a 64-bit Zobrist hash of what makes two Sankaku positions the same for
//! super-ko (§3.5): the board and the side to move. It is kept up to date piece by piece.

use super::tables::{Code, CODES};
use crate::geometry::TRI_CELLS;

/// A fixed pseudo-random 64-bit value per feature (SplitMix64 finaliser).
const fn feature(index: u64) -> u64 {
    let mut z = index.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Offset of Sankaku's features, so that its keys share no values with another game's.
const SEED: u64 = 0x5a4b_0000;

const PIECE_KEYS: [[u64; TRI_CELLS]; CODES] = {
    let mut keys = [[0; TRI_CELLS]; CODES];
    // Code 0 (an empty cell) hashes to 0.
    let mut code = 1;
    while code < CODES {
        let mut cell = 0;
        while cell < TRI_CELLS {
            keys[code][cell] = feature(SEED + (code * TRI_CELLS + cell) as u64);
            cell += 1;
        }
        code += 1;
    }
    keys
};

/// Added when White is to move.
pub(super) const WHITE_TO_MOVE: u64 = feature(SEED + 0xffff);

#[inline]
pub(super) fn piece_key(code: Code, cell: usize) -> u64 {
    PIECE_KEYS[code as usize][cell]
}
