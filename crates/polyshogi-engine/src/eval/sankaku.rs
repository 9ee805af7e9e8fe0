//! Sankaku Shogi evaluation (RULES.md §3): material, and the safety of the Emperor, which the
//! enemy Emperor may take from anywhere on the board unless it is defended.

use polyshogi::cellset::CellSet;
use polyshogi::geometry::{Cell, TriDirection, TriGrid};
use polyshogi::mv::{Move, MoveList};
use polyshogi::player::{ByPlayer, Player, PlayerSet};
use polyshogi::variant::sankaku::{SankakuPiece, SankakuPosition, SankakuRole};

use super::{utilities, Evaluate, SankakuWeights, Values, Weights};

/// What taking an Emperor is worth to move ordering (it ends the game).
const EMPEROR_VALUE: i32 = 5_000;

pub fn role_value(role: SankakuRole, w: &SankakuWeights) -> i32 {
    match role {
        SankakuRole::Emperor => EMPEROR_VALUE,
        SankakuRole::Chariot => w.chariot,
        SankakuRole::Cavalry => w.cavalry,
        SankakuRole::General => w.general,
        SankakuRole::Soldier => w.soldier,
    }
}

/// The cells the piece on `from` could capture on, if an enemy stood there (the Emperor
/// excepted: it reaches everything).
fn attacks(pos: &SankakuPosition, grid: &TriGrid, piece: SankakuPiece, from: Cell, own: CellSet) -> CellSet {
    let occupied = pos.occupied();
    match piece.role {
        SankakuRole::Emperor => CellSet::EMPTY,
        SankakuRole::General => grid.adjacent(from),
        SankakuRole::Soldier => {
            let mut map = if pos.rules().soldier_step_captures { grid.sides(from) } else { CellSet::EMPTY };
            for s in grid.second_orthogonals(from) {
                if !occupied.contains(s.via) {
                    map.insert(s.target);
                }
            }
            map
        }
        SankakuRole::Cavalry => {
            let leaps = grid.second_orthogonal_set(from);
            let mut map = leaps;
            for relay in leaps & own {
                map |= grid.second_orthogonal_set(relay).without(from);
            }
            map
        }
        SankakuRole::Chariot => {
            let mut map = grid.sides(from);
            let enemy_soldiers = pos.role_cells(SankakuRole::Soldier) - own;
            for dir in TriDirection::ALL {
                let mut passed_soldier = false;
                for &cell in grid.ray(from, dir) {
                    map.insert(cell);
                    if occupied.contains(cell) {
                        if enemy_soldiers.contains(cell) && !passed_soldier {
                            passed_soldier = true;
                            continue;
                        }
                        break;
                    }
                }
            }
            map
        }
    }
}

impl Evaluate for SankakuPosition {
    fn evaluate(&self, weights: &Weights) -> Values {
        let w = &weights.sankaku;
        let grid = self.grid();
        let seats = [Player::First, Player::Second];
        let mut maps = ByPlayer([CellSet::EMPTY; 3]);
        for p in seats {
            let own = self.pieces_of(p);
            for cell in own {
                maps[p] |= attacks(self, grid, self.piece_at(cell).expect("occupied"), cell, own);
            }
        }
        let mut raw = [0; 3];
        for p in seats {
            let enemy = if p == Player::First { Player::Second } else { Player::First };
            let own = self.pieces_of(p);
            let mut score = 0;
            for cell in own {
                let role = self.piece_at(cell).expect("occupied").role;
                if role == SankakuRole::Emperor {
                    continue;
                }
                let value = role_value(role, w);
                score += value;
                if !maps[p].contains(cell) {
                    score -= value * w.undefended_pct / 100;
                }
            }
            if let Some(emperor) = self.emperor(p) {
                let defenders = self.pieces_of(p).into_iter().filter(|&c| {
                    let piece = self.piece_at(c).expect("occupied");
                    c != emperor && attacks(self, grid, piece, c, own).contains(emperor)
                });
                let count = defenders.count() as i32;
                score += count.min(4) * w.emperor_defender;
                if count == 0 && self.emperor(enemy).is_some() {
                    score -= w.emperor_undefended;
                }
                if maps[enemy].contains(emperor) {
                    let attackers = self
                        .pieces_of(enemy)
                        .into_iter()
                        .filter(|&c| {
                            let piece = self.piece_at(c).expect("occupied");
                            attacks(self, grid, piece, c, self.pieces_of(enemy)).contains(emperor)
                        })
                        .count() as i32;
                    score -= attackers * w.emperor_attacker;
                }
            }
            raw[p.index()] = score;
        }
        utilities(raw, &seats, PlayerSet::of(&seats), PlayerSet::EMPTY, &weights.common)
    }

    fn piece_value(&self, cell: Cell, weights: &Weights) -> i32 {
        self.piece_at(cell).map_or(0, |p| role_value(p.role, &weights.sankaku))
    }

    /// A gain comes only from a capture (with the promotion it brings).
    fn capture_candidates(&self, out: &mut MoveList) {
        self.legal_captures(out);
    }

    /// Run-down victims count, and a Soldier or Cavalry that captures becomes a General.
    fn capture_gain(&self, m: Move, weights: &Weights) -> i32 {
        let Move::Normal { from, to, .. } = m else { return 0 };
        let w = &weights.sankaku;
        let mover = self.to_move();
        let mut gain = 0;
        let mut captures = CellSet::EMPTY;
        if self.piece_at(to).is_some_and(|p| p.player != mover) {
            captures.insert(to);
        }
        let Some(piece) = self.piece_at(from) else { return 0 };
        if piece.role == SankakuRole::Chariot {
            captures |= self.grid().between(from, to) & self.occupied();
        }
        for cell in captures {
            gain += self.piece_value(cell, weights);
        }
        if !captures.is_empty() && piece.role.promotes_on_capture() {
            gain += w.general - role_value(piece.role, w);
        }
        gain
    }
}
