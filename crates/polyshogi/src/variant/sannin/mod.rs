//! Sannin shogi (kokusai sannin shōgi): three players on 127 hexes, RULES.md §1.
//! Tables are data (`tables`); the irreducible rules are code (`movegen`, `play`).

mod alliance;
mod api;
mod attack_maps;
mod key;
mod movegen;
mod parry;
mod play;
mod position;
mod rules;
mod tables;
mod text;

pub use crate::rules::IllegalMove;
pub use alliance::{LastAction, Threats};
pub use position::{CheckContext, PositionError, SanninPosition, SanninSetup};
pub use rules::{
    AlliedPromotion, Compulsory, DeadCellRule, Illumination, MateEvaluation, PreGameAlliance, Repetition, SanninRules, Stalemate,
    TurnAfterMate,
};
pub use tables::{SanninTables, FORWARD};

use crate::catalog::Variant;
use crate::game::Game;
use crate::player::Player;

/// A Sannin game: the position and its history.
pub type SanninGame = Game<SanninPosition>;

/// The seat names of Sannin shogi: First, Middle, Last.
pub fn player_name(player: Player) -> &'static str {
    Variant::Sannin.seat_name(player)
}

pub fn player_letter(player: Player) -> char {
    Variant::Sannin.seat_letter(player)
}
