//! Each player's attacks split by the value of the attacking piece: what the compulsory-alliance
//! detector reads its material-loss threats from (RULES.md §1.13 step 1). Mapped for every
//! player at every node that lists actions, so the part fixed by where a player's pieces stand
//! (their steps and leaps) is kept, per thread, by his board key: a move changes one player's
//! placement (two with a capture), so most players come back as they stood a node before.
//! What each ranging piece reaches is kept by its cell while no cell of it changes.

use std::cell::RefCell;

use super::alliance::value;
use super::position::SanninPosition;
use crate::cellset::CellSet;
use crate::geometry::KeptReaches;
use crate::piece_store::piece_of;
use crate::player::Player;

/// The cells a player's pieces attack, by the value of the attacking piece (index 1 to 4).
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub(super) struct AttackMaps {
    pub(super) by_value: [CellSet; 5],
}

impl AttackMaps {
    pub(super) fn all(&self) -> CellSet {
        self.cheaper_than(5)
    }

    /// The cells attacked by a piece worth less than `value`.
    pub(super) fn cheaper_than(&self, value: u8) -> CellSet {
        self.by_value[..value as usize].iter().fold(CellSet::EMPTY, |all, &map| all | map)
    }

    /// These attacks but on `cells`.
    pub(super) fn without(&self, cells: CellSet) -> AttackMaps {
        AttackMaps { by_value: self.by_value.map(|map| map - cells) }
    }

    /// The attacks of both sets of pieces.
    pub(super) fn with(&self, other: &AttackMaps) -> AttackMaps {
        AttackMaps { by_value: std::array::from_fn(|value| self.by_value[value] | other.by_value[value]) }
    }
}

/// Entries (a power of two): 2 K of 104 bytes.
const ENTRIES: usize = 1 << 11;

/// The step maps of one placement. A hit must match the cells the pieces stand on as well as
/// the board key: these maps decide rules, not only a search, so two placements must share a
/// 64-bit key and every cell to be taken for each other. The rules' tables need no part in it:
/// their one option changes a range, never a step (`every_table_set_steps_alike`).
#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    pieces: CellSet,
    steps: AttackMaps,
}

thread_local! {
    static STEP_MAPS: RefCell<Box<[Entry]>> = RefCell::new(vec![Entry::default(); ENTRIES].into_boxed_slice());
    static REACHES: RefCell<KeptReaches> = RefCell::new(KeptReaches::new());
}

impl SanninPosition {
    /// What `player`'s pieces attack, by the value of each attacker.
    pub(super) fn attack_maps(&self, player: Player) -> AttackMaps {
        let mut maps = self.kept_step_maps(player);
        let occupied = self.store.occupied();
        REACHES.with_borrow_mut(|reaches| {
            for from in self.store.pieces_of(player) & self.rangers {
                let code = self.store.code(from) as usize;
                let hours = self.tables.range_hours[code];
                maps.by_value[attacker_value(code)] |= reaches.reach(from, hours, occupied, || self.reach_along(from, hours));
            }
        });
        maps
    }

    /// The attacks of `player`'s steps and leaps by value, from the thread's entries when they
    /// hold his placement.
    fn kept_step_maps(&self, player: Player) -> AttackMaps {
        let key = self.board_key(player);
        let pieces = self.store.pieces_of(player);
        STEP_MAPS.with_borrow_mut(|entries| {
            let entry = &mut entries[(key >> (64 - ENTRIES.trailing_zeros())) as usize];
            if entry.key != key || entry.pieces != pieces {
                *entry = Entry { key, pieces, steps: self.step_maps(player) };
            }
            entry.steps
        })
    }

    /// The attacks of `player`'s steps and leaps by value, found from the board.
    fn step_maps(&self, player: Player) -> AttackMaps {
        let mut maps = AttackMaps::default();
        for from in self.store.pieces_of(player) {
            let code = self.store.code(from) as usize;
            maps.by_value[attacker_value(code)] |= self.tables.step_targets[code][from.usize()];
        }
        maps
    }
}

/// The value index of the piece with cell code `code`.
fn attacker_value(code: usize) -> usize {
    value(piece_of(code as u8).expect("an attacker stands on the cell").role) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mv::MoveList;
    use crate::piece::Role;
    use crate::rules::Rules;
    use crate::splitmix::SplitMix;
    use crate::variant::sannin::{SanninRules, SanninTables};

    /// The entries are kept by placement alone because the tables of every rule set give each
    /// piece the same steps: should an option ever change a step, the entry must name its tables.
    #[test]
    fn every_table_set_steps_alike() {
        assert_eq!(SanninTables::get(false).step_targets, SanninTables::get(true).step_targets);
        assert_ne!(SanninTables::get(false).range_hours, SanninTables::get(true).range_hours);
    }

    /// What each piece attacks, found one piece at a time with its whole reach.
    fn mapped_piece_by_piece(pos: &SanninPosition, player: Player) -> AttackMaps {
        let mut maps = AttackMaps::default();
        for from in pos.store.pieces_of(player) {
            maps.by_value[attacker_value(pos.store.code(from) as usize)] |= pos.attacks_from(from);
        }
        maps
    }

    /// The kept maps are those found afresh, along random games played move for move under
    /// the default tables and under those where a promoted rook keeps its rear diagonal range,
    /// in one thread: each placement is read under both, so that a reach kept from a promoted
    /// rook of the other rules (the same cell and board, other hours) would show.
    #[test]
    fn kept_attack_maps_are_those_of_the_board() {
        let mut rear = SanninRules::default();
        rear.set("promoted_rook_keeps_rear_diagonal=true").unwrap();
        let starts = [SanninPosition::start(SanninRules::default()), SanninPosition::start(rear)];
        assert!(!std::ptr::eq(starts[0].tables, starts[1].tables), "two sets of tables");
        let mut games = starts.clone();
        let mut rng = SplitMix::new(54);
        let (mut compared, mut with_promoted_rook) = (0, 0);
        for _ in 0..3000 {
            for pos in &games {
                for p in Player::ALL {
                    assert_eq!(pos.attack_maps(p), mapped_piece_by_piece(pos, p), "{p:?} in {pos:?}");
                    compared += 1;
                }
            }
            let promoted_rook = |cell| games[0].piece_at(cell).is_some_and(|piece| piece.role == Role::Rook && piece.promoted);
            with_promoted_rook += usize::from(games[0].store.occupied().into_iter().any(promoted_rook));
            let mut moves = MoveList::new();
            games[0].legal_moves(&mut moves);
            let played = rng.pick(&moves).is_some_and(|m| games.iter_mut().all(|pos| pos.play(m).is_ok()));
            if !played || games.iter().any(|pos| pos.outcome().is_some()) {
                games = starts.clone();
            }
        }
        assert!(compared == 18_000 && with_promoted_rook > 100, "{with_promoted_rook} positions with a promoted rook");
    }
}
