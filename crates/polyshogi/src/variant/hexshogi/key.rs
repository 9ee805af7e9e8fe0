//! The repetition key: a 64-bit Zobrist hash of what makes two Hex Shogi 91 positions the
//! same for threefold repetition (§2.6, §2.7): board (owner, role, promoted), every hand and
//! the player to move. Board and hands are kept up to date move by move.

use super::position::HexShogiPosition;
use super::tables::CODES;
use crate::piece::{Hand, Role};
use crate::player::Player;
use crate::zobrist::{self, HandKeys};

/// Where Hex Shogi's features start: apart from Sannin's.
const BASE: u64 = 1 << 24;

static PIECE_KEYS: [[u64; 128]; CODES] = zobrist::piece_keys(BASE);
static HAND_KEYS: HandKeys = zobrist::hand_keys(BASE);

const TURN_KEYS: [u64; 3] =
    [zobrist::feature(BASE + (1 << 20)), zobrist::feature(BASE + (1 << 20) + 1), zobrist::feature(BASE + (1 << 20) + 2)];

#[inline]
pub(super) fn piece_key(code: u8, cell: usize) -> u64 {
    PIECE_KEYS[code as usize][cell]
}

#[inline]
pub(super) fn hand_key(player: Player, role: Role, count: u8) -> u64 {
    zobrist::hand_key(&HAND_KEYS, player, role, count)
}

pub(super) fn whole_hand_key(player: Player, hand: &Hand) -> u64 {
    zobrist::whole_hand_key(&HAND_KEYS, player, hand)
}

impl HexShogiPosition {
    /// Equal for positions that are the same for the repetition rule. The draw counters are
    /// left out on purpose: they do not make a position different.
    #[inline]
    pub fn repetition_key(&self) -> u64 {
        self.material_key ^ TURN_KEYS[self.to_move.index()]
    }

    /// The board-and-hands part of the key computed from scratch, to check the running one.
    pub fn recomputed_material_key(&self) -> u64 {
        let mut key = 0;
        for cell in self.occupied {
            key ^= piece_key(self.board[cell.usize()], cell.usize());
        }
        for player in Player::ALL {
            key ^= whole_hand_key(player, &self.hands[player]);
        }
        key
    }

    /// The running board-and-hands key.
    pub fn material_key(&self) -> u64 {
        self.material_key
    }
}
