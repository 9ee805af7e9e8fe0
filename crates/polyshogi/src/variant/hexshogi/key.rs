//! The repetition key: a 64-bit Zobrist hash of what makes two Hex Shogi 91 positions the
//! same for threefold repetition (§2.6, §2.7): board (owner, role, promoted), every hand and
//! the player to move. Board and hands are kept up to date move by move.

use super::position::HexShogiPosition;
use super::tables::CODES;
use crate::piece::{Hand, Role};
use crate::player::Player;

/// A fixed pseudo-random 64-bit value per feature (SplitMix64 finaliser). The features are
/// numbered apart from Sannin's, so keys of different games never look alike by accident.
const fn feature(index: u64) -> u64 {
    let mut z = (index + (1 << 24)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Hand counts hashed per (player, role, count); three armies hold 27 pawns at most.
const MAX_HAND_COUNT: usize = 32;

static PIECE_KEYS: [[u64; 128]; CODES] = {
    let mut keys = [[0; 128]; CODES];
    let mut code = 1;
    while code < CODES {
        let mut cell = 0;
        while cell < 128 {
            keys[code][cell] = feature((code * 128 + cell) as u64);
            cell += 1;
        }
        code += 1;
    }
    keys
};

static HAND_KEYS: [[[u64; MAX_HAND_COUNT]; 8]; 3] = {
    let mut keys = [[[0; MAX_HAND_COUNT]; 8]; 3];
    let mut player = 0;
    while player < 3 {
        let mut role = 0;
        while role < 8 {
            // Count 0 hashes to 0, so an empty hand adds nothing.
            let mut count = 1;
            while count < MAX_HAND_COUNT {
                keys[player][role][count] = feature((1 << 16) + ((player * 8 + role) * MAX_HAND_COUNT + count) as u64);
                count += 1;
            }
            role += 1;
        }
        player += 1;
    }
    keys
};

const TURN_KEYS: [u64; 3] = [feature(1 << 20), feature((1 << 20) + 1), feature((1 << 20) + 2)];

#[inline]
pub(super) fn piece_key(code: u8, cell: usize) -> u64 {
    PIECE_KEYS[code as usize][cell]
}

#[inline]
pub(super) fn hand_key(player: Player, role: Role, count: u8) -> u64 {
    HAND_KEYS[player.index()][role.index()][count as usize % MAX_HAND_COUNT]
}

pub(super) fn whole_hand_key(player: Player, hand: &Hand) -> u64 {
    Role::ALL.iter().fold(0, |key, &role| key ^ hand_key(player, role, hand.count(role)))
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
