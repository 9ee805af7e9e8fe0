//! The repetition key: a 64-bit Zobrist hash of everything that makes two Sannin positions
//! the same position for the repetition rule (§1.14): board, hands, turn, alliance and flags.
//! Board and hands are kept up to date move by move; the few flags are hashed on demand.

use super::position::SanninPosition;
use crate::piece_store::{GameKeys, MaterialKeys};
use crate::player::Player;
use crate::zobrist;

/// Where Sannin's features start.
const BASE: u64 = 1;

/// The keys Sannin's piece store hashes board and hands with.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SanninKeys;

static MATERIAL_KEYS: MaterialKeys = MaterialKeys::new(BASE);

impl GameKeys for SanninKeys {
    #[inline]
    fn keys() -> &'static MaterialKeys {
        &MATERIAL_KEYS
    }
}

/// Six per player (may castle, illumination ready, active, allied, former ally, one spare),
/// then from 18 on the player to move.
const FLAG_KEYS: [u64; 24] = {
    let mut keys = [0; 24];
    let mut i = 0;
    while i < 24 {
        keys[i] = zobrist::feature(BASE + (1 << 20) + i as u64);
        i += 1;
    }
    keys
};

impl SanninPosition {
    /// Equal for positions that are the same for the repetition rule.
    pub fn repetition_key(&self) -> u64 {
        let mut key = self.store.material_key() ^ FLAG_KEYS[18 + self.to_move.index()];
        for player in Player::ALL {
            let base = player.index() * 6;
            let flags = [
                self.may_castle[player],
                self.illumination_ready[player],
                self.active.contains(player),
                self.allies.contains(player),
                self.former_allies.contains(player),
            ];
            for (i, on) in flags.into_iter().enumerate() {
                key ^= FLAG_KEYS[base + i] * on as u64;
            }
        }
        key
    }

    /// The board-and-hands part of the key computed from scratch, to check the running one.
    pub fn recomputed_material_key(&self) -> u64 {
        self.store.recomputed_material_key()
    }
}

#[cfg(test)]
mod tests {
    use super::super::{SanninGame, SanninPosition, SanninRules};
    use crate::mv::MoveList;
    use crate::splitmix::SplitMix;

    #[test]
    fn running_keys_equal_recomputed_keys_along_a_game() {
        let mut game = SanninGame::new(SanninPosition::start(SanninRules::default()));
        let mut moves = MoveList::new();
        let mut rng = SplitMix::new(12345);
        for _ in 0..300 {
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            // Prefer captures so that hands fill up.
            let pos = game.position();
            let prefer_capture = rng.below(3) == 0;
            let pick = moves
                .iter()
                .copied()
                .find(|m| prefer_capture && matches!(m, crate::Move::Normal { to, .. } if pos.piece_at(*to).is_some()))
                .unwrap_or(moves[rng.below(moves.len())]);
            game.play_unchecked(pick);
            let pos = game.position();
            assert_eq!(pos.store.material_key(), pos.recomputed_material_key());
            for player in crate::player::Player::ALL {
                assert_eq!(pos.store.board_key(player), pos.store.recomputed_board_key(player), "{player:?}");
            }
        }
    }
}
