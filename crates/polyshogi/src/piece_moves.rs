//! Where each piece of a game moves from the middle of an otherwise empty board: what the
//! rules pages draw, computed by the rules themselves rather than typed in.
//!
//! The piece belongs to the seat drawn at the bottom of the board (its forward is up), and the
//! kings the rules need stand far away. A king in the way would cut a ray short (and a king
//! attacked by the piece can make the position one the rules refuse), so the moves are listed
//! with the kings in several far-apart placements and the reaches of the accepted ones are
//! joined: a cell a king blocks in one placement is free in another.

use crate::catalog::Variant;
use crate::geometry::Cell;
use crate::layout::BoardLayout;
use crate::mv::{Move, MoveList};
use crate::piece::{Hand, Piece, Role};
use crate::player::{ByPlayer, Player, PlayerSet};
use crate::variant::hexshogi::{HexShogiPosition, HexShogiRules, HexShogiSetup, HexVariant};
use crate::variant::sankaku::{SankakuPiece, SankakuPosition, SankakuRole, SankakuRules, SankakuSetup};
use crate::variant::sannin::{SanninPosition, SanninRules, SanninSetup};
use crate::variant::AnyGame;

/// One piece kind and the cells it reaches in one move from `from`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PieceMoves {
    pub letter: char,
    pub promoted: bool,
    pub from: Cell,
    /// In cell order, each once (a move that may promote or not counts once).
    pub reach: Vec<Cell>,
}

/// Every piece kind of `variant`, unpromoted and promoted where it promotes, under the default
/// rules.
pub fn piece_moves(variant: Variant) -> Vec<PieceMoves> {
    let layout = AnyGame::new(variant, &[] as &[&str]).expect("the default rules start a game").layout();
    let from = centre_cell(&layout);
    let mover = bottom_seat(variant, &layout);
    let placements = king_placements(&layout, from, variant.seats().len());
    let mut all = Vec::new();
    for name in variant.piece_names() {
        for promoted in [false, true] {
            let mut reach: Vec<Cell> = Vec::new();
            let mut exists = false;
            for kings in &placements {
                if let Some(cells) = reach_with(variant, name.letter, promoted, mover, from, kings) {
                    exists = true;
                    reach.extend(cells);
                }
            }
            if exists {
                reach.sort_by_key(|c| c.index());
                reach.dedup();
                all.push(PieceMoves { letter: name.letter, promoted, from, reach });
            }
        }
    }
    all
}

/// The cell nearest the middle of the board.
fn centre_cell(layout: &BoardLayout) -> Cell {
    let n = layout.cells.len() as f64;
    let (mx, my) = layout.cells.iter().fold((0.0, 0.0), |(x, y), c| (x + c.x / n, y + c.y / n));
    let distance = |c: &&crate::layout::CellLayout| (c.x - mx).powi(2) + (c.y - my).powi(2);
    layout.cells.iter().min_by(|a, b| distance(a).total_cmp(&distance(b))).expect("a board has cells").cell
}

/// The seat whose pieces are drawn pointing up.
fn bottom_seat(variant: Variant, layout: &BoardLayout) -> Player {
    let seats = variant.seats();
    seats.iter().zip(&layout.seat_rotation).find(|(_, &r)| r == 0).map_or(seats[0], |(&p, _)| p)
}

/// How many placements of the kings are tried.
const PLACEMENTS: usize = 8;

/// Sets of cells for the kings of every seat, far from `from` and from each other (no king
/// attacks another); each set starts further down the list of far cells.
fn king_placements(layout: &BoardLayout, from: Cell, seats: usize) -> Vec<Vec<Cell>> {
    let at = |cell: Cell| layout.cells.iter().find(|c| c.cell == cell).map(|c| (c.x, c.y)).unwrap_or_default();
    let (fx, fy) = at(from);
    let mut far: Vec<&crate::layout::CellLayout> = layout.cells.iter().collect();
    far.sort_by(|a, b| ((b.x - fx).powi(2) + (b.y - fy).powi(2)).total_cmp(&((a.x - fx).powi(2) + (a.y - fy).powi(2))));
    (0..PLACEMENTS)
        .map(|k| {
            let mut taken: Vec<(f64, f64)> = Vec::new();
            let mut placement = Vec::new();
            for c in far.iter().skip(k * 2) {
                if placement.len() == seats {
                    break;
                }
                // Further than any king's or Emperor's step (12 neighbours on both boards).
                if taken.iter().all(|&(x, y)| (c.x - x).powi(2) + (c.y - y).powi(2) > 3.5_f64.powi(2)) {
                    taken.push((c.x, c.y));
                    placement.push(c.cell);
                }
            }
            placement
        })
        .collect()
}

/// The cells the piece reaches with the kings on `kings` (one per seat, in seat order; the
/// mover's own is left out when the piece is his king). `None` when the piece does not exist.
fn reach_with(variant: Variant, letter: char, promoted: bool, mover: Player, from: Cell, kings: &[Cell]) -> Option<Vec<Cell>> {
    let seats = variant.seats();
    let mut moves = MoveList::new();
    match variant {
        Variant::Sannin | Variant::HexShogi91 | Variant::Tphs91 => {
            let role = Role::from_letter(letter)?;
            let mut pieces = vec![(from, Piece { player: mover, role, promoted })];
            for (&seat, &cell) in seats.iter().zip(kings) {
                if !(seat == mover && role == Role::King) {
                    pieces.push((cell, Piece { player: seat, role: Role::King, promoted: false }));
                }
            }
            if variant == Variant::Sannin {
                let setup = SanninSetup {
                    pieces,
                    hands: ByPlayer::<Hand>::default(),
                    to_move: mover,
                    eliminated: PlayerSet::EMPTY,
                    allies: PlayerSet::EMPTY,
                    former_allies: PlayerSet::EMPTY,
                    may_castle: ByPlayer([false; 3]),
                    illumination_ready: ByPlayer([false; 3]),
                    plies: 0,
                };
                SanninPosition::from_setup(setup, SanninRules::default()).ok()?.legal_moves(&mut moves);
            } else {
                let hex = HexVariant::from_variant(variant).expect("a Hex Shogi 91 game");
                let setup = HexShogiSetup { pieces, to_move: mover, ..HexShogiSetup::start(hex) };
                HexShogiPosition::from_setup(setup, HexShogiRules::new(hex)).ok()?.legal_moves(&mut moves);
            }
        }
        Variant::Sankaku => {
            if promoted {
                return None;
            }
            let role = SankakuRole::from_letter(letter)?;
            let mut pieces = vec![(from, SankakuPiece { player: mover, role })];
            for (&seat, &cell) in seats.iter().zip(kings) {
                if !(seat == mover && role == SankakuRole::Emperor) {
                    pieces.push((cell, SankakuPiece { player: seat, role: SankakuRole::Emperor }));
                }
            }
            let setup = SankakuSetup { pieces, to_move: mover };
            SankakuPosition::from_setup(setup, SankakuRules::default()).ok()?.legal_moves(&mut moves);
        }
    }
    Some(
        moves
            .iter()
            .filter_map(|m| match *m {
                Move::Normal { from: f, to, .. } if f == from => Some(to),
                _ => None,
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reach(variant: Variant, letter: char, promoted: bool) -> usize {
        let all = piece_moves(variant);
        all.iter().find(|p| p.letter == letter && p.promoted == promoted).map(|p| p.reach.len()).unwrap_or(0)
    }

    #[test]
    fn kings_step_in_twelve_directions_and_every_piece_moves() {
        // Sannin's king steps to its six neighbours; Hex Shogi 91's also diagonally, twelve in all.
        assert_eq!(reach(Variant::Sannin, 'K', false), 6);
        assert_eq!(reach(Variant::HexShogi91, 'K', false), 12);
        assert_eq!(reach(Variant::Tphs91, 'K', false), 12);
        // A pawn steps along its two forward orthogonals (Hex Shogi 91).
        assert_eq!(reach(Variant::HexShogi91, 'P', false), 2);
        // A rook ranges further than a gold steps.
        assert!(reach(Variant::Sannin, 'R', false) > reach(Variant::Sannin, 'G', false));
        for variant in Variant::ALL {
            let all = piece_moves(variant);
            for name in variant.piece_names() {
                assert!(all.iter().any(|p| p.letter == name.letter && !p.promoted), "{variant:?} {}", name.letter);
            }
            assert!(all.iter().all(|p| !p.reach.is_empty() && !p.reach.contains(&p.from)), "{variant:?}");
        }
        // Gold and king never promote; Sankaku has no promoted forms.
        assert_eq!(reach(Variant::HexShogi91, 'G', true), 0);
        assert!(piece_moves(Variant::Sankaku).iter().all(|p| !p.promoted));
        // Sannin's promoted king ranges in all twelve directions.
        assert!(reach(Variant::Sannin, 'K', true) > 12);
    }
}
