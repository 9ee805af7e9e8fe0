//! The repetition key: a 64-bit Zobrist hash of what makes two Hex Shogi 91 positions the
//! same for threefold repetition (§2.6, §2.7): board (owner, role, promoted), every hand and
//! the player to move. Board and hands are kept up to date move by move.

use super::position::HexShogiPosition;
use crate::piece_store::{GameKeys, MaterialKeys};
use crate::zobrist;

/// Where Hex Shogi's features start: apart from Sannin's.
const BASE: u64 = 1 << 24;

/// The keys Hex Shogi's piece store hashes board and hands with.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct HexKeys;

static MATERIAL_KEYS: MaterialKeys = MaterialKeys::new(BASE);

impl GameKeys for HexKeys {
    #[inline]
    fn keys() -> &'static MaterialKeys {
        &MATERIAL_KEYS
    }
}

const TURN_KEYS: [u64; 3] =
    [zobrist::feature(BASE + (1 << 20)), zobrist::feature(BASE + (1 << 20) + 1), zobrist::feature(BASE + (1 << 20) + 2)];

impl HexShogiPosition {
    /// Equal for positions that are the same for the repetition rule. The draw counters are
    /// left out on purpose: they do not make a position different.
    #[inline]
    pub fn repetition_key(&self) -> u64 {
        self.store.material_key() ^ TURN_KEYS[self.to_move.index()]
    }

    /// The board-and-hands part of the key computed from scratch, to check the running one.
    pub fn recomputed_material_key(&self) -> u64 {
        self.store.recomputed_material_key()
    }

    /// The running board-and-hands key.
    pub fn material_key(&self) -> u64 {
        self.store.material_key()
    }
}
