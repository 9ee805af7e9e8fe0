//! The repetition key: a 64-bit Zobrist hash of what makes two Sankaku positions the same for
//! super-ko (§3.5): the board and the side to move. It is kept up to date piece by piece.

use super::tables::{Code, CODES};
use crate::geometry::TRI_CELLS;
use crate::zobrist;

/// Where Sankaku's features start, so that its keys share no values with another game's.
const BASE: u64 = 0x5a4b_0001;

static PIECE_KEYS: [[u64; TRI_CELLS]; CODES] = zobrist::piece_keys(BASE);

/// Added when White is to move.
pub(super) const WHITE_TO_MOVE: u64 = zobrist::feature(BASE + 0xffff);

#[inline]
pub(super) fn piece_key(code: Code, cell: usize) -> u64 {
    PIECE_KEYS[code as usize][cell]
}
