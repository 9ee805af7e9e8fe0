//! Zobrist keys for the games' repetition keys: a fixed pseudo-random 64-bit value per feature
//! of a position (a piece on a cell, a count in hand, a flag). Each game numbers its features
//! from a base of its own, so that keys of different games never look alike by accident.

use crate::piece::{Hand, Role};
use crate::player::Player;
use crate::splitmix;

/// The value of feature `index`.
pub(crate) const fn feature(index: u64) -> u64 {
    splitmix::nth(index)
}

/// One key per (piece code, cell), features `base + code × CELLS + cell`. Code 0 (an empty
/// cell) hashes to 0.
pub(crate) const fn piece_keys<const CODES: usize, const CELLS: usize>(base: u64) -> [[u64; CELLS]; CODES] {
    let mut keys = [[0; CELLS]; CODES];
    let mut code = 1;
    while code < CODES {
        let mut cell = 0;
        while cell < CELLS {
            keys[code][cell] = feature(base + (code * CELLS + cell) as u64);
            cell += 1;
        }
        code += 1;
    }
    keys
}

/// Hand counts are hashed per (player, role, count); more pieces of one role never fit in hand.
pub(crate) const MAX_HAND_COUNT: usize = 32;

/// The keys of every count of every role in every player's hand.
pub(crate) type HandKeys = [[[u64; MAX_HAND_COUNT]; 8]; 3];

/// Hand keys from feature `base + 2^16` on. Count 0 hashes to 0, so an empty hand adds nothing.
pub(crate) const fn hand_keys(base: u64) -> HandKeys {
    let mut keys = [[[0; MAX_HAND_COUNT]; 8]; 3];
    let mut player = 0;
    while player < 3 {
        let mut role = 0;
        while role < 8 {
            let mut count = 1;
            while count < MAX_HAND_COUNT {
                keys[player][role][count] = feature(base + (1 << 16) + ((player * 8 + role) * MAX_HAND_COUNT + count) as u64);
                count += 1;
            }
            role += 1;
        }
        player += 1;
    }
    keys
}

#[inline]
pub(crate) fn hand_key(keys: &HandKeys, player: Player, role: Role, count: u8) -> u64 {
    keys[player.index()][role.index()][count as usize % MAX_HAND_COUNT]
}

/// The key of a whole hand.
pub(crate) fn whole_hand_key(keys: &HandKeys, player: Player, hand: &Hand) -> u64 {
    Role::ALL.iter().fold(0, |key, &role| key ^ hand_key(keys, player, role, hand.count(role)))
}
