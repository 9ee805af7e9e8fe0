//! The repetition key: a 64-bit hash of everything that makes two Sannin positions the same
//! position for the repetition rule (§1.14): board, hands, turn, alliance and flags.

use super::position::SanninPosition;
use crate::piece::Role;
use crate::player::Player;

/// A fixed pseudo-random 64-bit value per feature (SplitMix64 finaliser).
const fn feature(index: u64) -> u64 {
    let mut z = index.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

const BOARD: u64 = 0;
const HANDS: u64 = 1 << 16;
const FLAGS: u64 = 1 << 20;

impl SanninPosition {
    pub fn repetition_key(&self) -> u64 {
        let mut key = 0;
        for cell in self.occupied {
            key ^= feature(BOARD + self.board[cell.usize()] as u64 * 128 + cell.index() as u64);
        }
        for player in Player::ALL {
            for role in Role::ALL {
                let count = self.hands[player].count(role) as u64;
                key ^= feature(HANDS + (player.index() as u64 * 8 + role.index() as u64) * 64 + count);
            }
            let p = player.index() as u64;
            key ^= feature(FLAGS + p * 8) * self.may_castle[player] as u64;
            key ^= feature(FLAGS + p * 8 + 1) * self.illumination_ready[player] as u64;
            key ^= feature(FLAGS + p * 8 + 2) * self.active.contains(player) as u64;
            key ^= feature(FLAGS + p * 8 + 3) * self.allies.contains(player) as u64;
            key ^= feature(FLAGS + p * 8 + 4) * self.former_allies.contains(player) as u64;
        }
        key ^ feature(FLAGS + 64 + self.to_move.index() as u64)
    }
}
