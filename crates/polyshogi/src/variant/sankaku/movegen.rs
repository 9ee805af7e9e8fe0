//! Legal move generation for Sankaku Shogi (RULES.md §3.3), from the board's precomputed
//! tables and without allocating. There is no check: the only move refused here is the
//! Emperor's capture of a defended Emperor (`Game` adds the repetition rule).

use super::position::SankakuPosition;
use super::tables::SankakuRole;
use crate::cellset::CellSet;
use crate::geometry::{Cell, TriDirection};
use crate::mv::{Move, MoveCount, MoveList, MoveSampler, MoveSink};
use crate::splitmix::SplitMix;

impl SankakuPosition {
    /// Every legal move of the player to move, ignoring the history.
    pub fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        self.generate::<false>(out);
    }

    /// The legal moves that capture (run-downs included), in `legal_moves`' order. The
    /// engine's quiescence search looks at no others.
    pub fn legal_captures(&self, out: &mut MoveList) {
        out.clear();
        self.generate::<true>(out);
    }

    /// How many legal moves `legal_moves` would list, without listing them.
    pub fn legal_move_count(&self) -> usize {
        let mut count = MoveCount::default();
        self.generate::<false>(&mut count);
        count.0
    }

    /// One of the moves `legal_moves` would list, chosen uniformly at random without listing
    /// them; `None` when there is none.
    pub fn random_legal_move(&self, rng: &mut SplitMix) -> Option<Move> {
        let mut sampler = MoveSampler::new(rng);
        self.generate::<false>(&mut sampler);
        sampler.chosen()
    }

    /// Pushes every legal move, or with `CAPTURES` only the captures. The choice is a
    /// constant so that the full generator, perft's, tests nothing for it.
    pub(super) fn generate<const CAPTURES: bool>(&self, out: &mut impl MoveSink) {
        if self.outcome.is_some() {
            return;
        }
        let grid = self.grid;
        let mover = self.to_move;
        let own = self.by_player[mover];
        let enemy = self.by_player[self.them()];
        let empty = if CAPTURES { CellSet::EMPTY } else { grid.all() - self.occupied };
        let open = empty | enemy;

        // Soldiers: a step to a side neighbour, and a capture-only leap to a second-orthogonal
        // cell through an empty first cell. A Soldier never captures a Chariot.
        let soldier_prey = enemy - self.role_cells(SankakuRole::Chariot);
        let step_to = if self.rules.soldier_step_captures { empty | soldier_prey } else { empty };
        for from in own & self.role_cells(SankakuRole::Soldier) {
            out.push_targets(from, grid.sides(from) & step_to, false);
            for s in grid.second_orthogonals(from) {
                if soldier_prey.contains(s.target) && !self.occupied.contains(s.via) {
                    out.push(Move::Normal { from, to: s.target, promote: false });
                }
            }
        }

        for from in own & self.role_cells(SankakuRole::Cavalry) {
            out.push_targets(from, self.cavalry_reach(from, own, open), false);
        }

        for from in own & self.role_cells(SankakuRole::Chariot) {
            self.push_chariot_moves::<CAPTURES>(from, enemy, out);
        }

        for from in own & self.role_cells(SankakuRole::General) {
            out.push_targets(from, grid.adjacent(from) & open, false);
        }

        // The Emperor jumps anywhere not holding a friend, but may not take a defended Emperor.
        if let Some(from) = self.emperors[mover] {
            let mut targets = open;
            if let Some(target) = self.emperors[self.them()] {
                if self.emperor_defended(target, from) {
                    targets.remove(target);
                }
            }
            out.push_targets(from, targets, false);
        }
    }

    /// Where a Cavalry on `from` can end: a second-orthogonal leap onto an empty or enemy cell;
    /// a leap onto a friend must go on with exactly one more leap, in any direction but back
    /// to `from`. Several paths to one cell make one move.
    #[inline]
    fn cavalry_reach(&self, from: Cell, own: CellSet, open: CellSet) -> CellSet {
        let grid = self.grid;
        let leaps = grid.second_orthogonal_set(from);
        let mut reach = leaps & open;
        for relay in leaps & own {
            // `from` is emptied by the move, so without the ban the relay could return there.
            reach |= (grid.second_orthogonal_set(relay).without(from)) & open;
        }
        reach
    }

    /// A Chariot ranges along its six rays, stopping before a friend or on the first enemy.
    /// An enemy Soldier met first may instead be run down: captured in passing, the slide
    /// going on to a later empty cell or to the next enemy, which ends it (any number of
    /// Soldiers under `chariot_run_down_multiple`).
    /// With `CAPTURES`, only the slides that take a piece: onto an enemy, or past a Soldier
    /// run down.
    #[inline]
    fn push_chariot_moves<const CAPTURES: bool>(&self, from: Cell, enemy: CellSet, out: &mut impl MoveSink) {
        let grid = self.grid;
        let multiple = self.rules.chariot_run_down_multiple;
        // Each side neighbour starts two rays: move there once, then follow both rays on.
        let empty = if CAPTURES { CellSet::EMPTY } else { grid.all() - self.occupied };
        out.push_targets(from, grid.sides(from) & (enemy | empty), false);
        let soldiers = enemy & self.role_cells(SankakuRole::Soldier);
        for dir in TriDirection::ALL {
            let Some((&first, beyond)) = grid.ray(from, dir).split_first() else { continue };
            let mut may_run_down = if !self.occupied.contains(first) {
                true
            } else if soldiers.contains(first) {
                multiple
            } else {
                continue;
            };
            // Whether the slide has run a Soldier down, so that ending on an empty cell takes it.
            let mut ran_down = self.occupied.contains(first);
            for &to in beyond {
                if !self.occupied.contains(to) {
                    if !CAPTURES || ran_down {
                        out.push(Move::Normal { from, to, promote: false });
                    }
                    continue;
                }
                if !enemy.contains(to) {
                    break;
                }
                out.push(Move::Normal { from, to, promote: false });
                if may_run_down && soldiers.contains(to) {
                    may_run_down = multiple;
                    ran_down = true;
                    continue;
                }
                break;
            }
        }
    }

    /// §3.3 [DEF]: whether the enemy Emperor on `target` is defended against the mover's
    /// Emperor taking it from `from`. It is when, after that capture (`from` emptied, the
    /// mover's Emperor on `target`), some enemy piece could capture on `target` by any of its
    /// moves: General step, Soldier step or second-orthogonal capture, Cavalry leap or relay,
    /// Chariot slide or run-down. Every such relation is symmetric, so it is read outward
    /// from `target`.
    pub(super) fn emperor_defended(&self, target: Cell, from: Cell) -> bool {
        let grid = self.grid;
        let occupied = self.occupied.without(from);
        let defenders = self.by_player[self.them()].without(target);
        let of = |role: SankakuRole| defenders & self.role_cells(role);

        if !(grid.adjacent(target) & of(SankakuRole::General)).is_empty() {
            return true;
        }
        let soldiers = of(SankakuRole::Soldier);
        if self.rules.soldier_step_captures && !(grid.sides(target) & soldiers).is_empty() {
            return true;
        }
        if grid.second_orthogonals(target).iter().any(|s| soldiers.contains(s.target) && !occupied.contains(s.via)) {
            return true;
        }
        let cavalry = of(SankakuRole::Cavalry);
        let leaps = grid.second_orthogonal_set(target);
        if !(leaps & cavalry).is_empty() {
            return true;
        }
        // A relay: a Cavalry leaps onto a friend standing a leap from `target`, then on to it
        // (never its own start cell, since `target` holds the capturer).
        if (leaps & defenders).into_iter().any(|relay| !(grid.second_orthogonal_set(relay) & cavalry).is_empty()) {
            return true;
        }
        let chariots = of(SankakuRole::Chariot);
        // The mover's Soldiers, which a defending Chariot may run down on its way.
        let run_down = self.by_player[self.to_move] & self.role_cells(SankakuRole::Soldier);
        TriDirection::ALL.into_iter().any(|dir| {
            if (grid.ray_set(target, dir) & chariots).is_empty() {
                return false;
            }
            let mut soldiers_passed = 0;
            for &cell in grid.ray(target, dir) {
                if !occupied.contains(cell) {
                    continue;
                }
                if chariots.contains(cell) {
                    return true;
                }
                if run_down.contains(cell) && (soldiers_passed == 0 || self.rules.chariot_run_down_multiple) {
                    soldiers_passed += 1;
                    continue;
                }
                return false;
            }
            false
        })
    }

    /// Whether the player to move has a legal move. He always has one in a valid position:
    /// his Emperor may take any enemy piece but a defended Emperor, and the enemy has either
    /// another piece or an undefended Emperor. Such a capture even escapes super-ko, since
    /// no earlier position of the game had fewer pieces. The full test stays for the rule's
    /// sake (§3.5 [DEF]: a player without a legal move loses), behind the quick proof.
    pub(super) fn has_move(&self) -> bool {
        if self.outcome.is_some() {
            return false;
        }
        let them = self.by_player[self.them()];
        if self.emperors[self.to_move].is_some() && !them.is_empty() {
            return true;
        }
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        !moves.is_empty()
    }
}
