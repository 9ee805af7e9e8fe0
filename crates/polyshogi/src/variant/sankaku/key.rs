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

/// Slots of the table that finds a piece key's cell (a power of two, over twice the keys).
const LOOKUP_SLOTS: usize = 1024;

/// Every piece key by value, open addressing on its low bits: (key, cell + 1), 0 for empty.
static CELL_OF_KEY: [(u64, u8); LOOKUP_SLOTS] = cell_lookup();

const fn cell_lookup() -> [(u64, u8); LOOKUP_SLOTS] {
    let mut slots = [(0u64, 0u8); LOOKUP_SLOTS];
    let mut code = 1;
    while code < CODES {
        let mut cell = 0;
        while cell < TRI_CELLS {
            let key = PIECE_KEYS[code][cell];
            let mut slot = key as usize % LOOKUP_SLOTS;
            while slots[slot].1 != 0 {
                slot = (slot + 1) % LOOKUP_SLOTS;
            }
            slots[slot] = (key, cell as u8 + 1);
            cell += 1;
        }
        code += 1;
    }
    slots
}

/// The cell on which a piece of `code` has the key `key`, if any: what turns "which move
/// would reach this earlier position" into one look-up.
#[inline]
pub(super) fn cell_with_key(code: Code, key: u64) -> Option<usize> {
    let mut slot = key as usize % LOOKUP_SLOTS;
    loop {
        let (stored, cell) = CELL_OF_KEY[slot];
        if cell == 0 {
            return None;
        }
        if stored == key {
            let cell = cell as usize - 1;
            // Keys are distinct across codes too; the check keeps a collision harmless.
            return (PIECE_KEYS[code as usize][cell] == key).then_some(cell);
        }
        slot = (slot + 1) % LOOKUP_SLOTS;
    }
}
