//! Duniho's Hex Shogi 91 (two players, RULES.md §2.1–2.6) and Three Player Hex Shogi 91
//! (§2.7–2.8): one piece table and one rules module for both games on the 91-cell board.
//! Tables are data (`tables`); the rules that differ between the games are code (`movegen`,
//! `play`): check and mate for two players, king collection and forced passes for three.

mod api;
mod key;
mod movegen;
mod play;
mod position;
mod rules;
mod sample;
mod tables;
mod text;

pub use crate::catalog::TPHS91_SETUP_NOTE;
pub use position::{CheckCells, HexShogiPosition, HexShogiSetup, PositionError};
pub use rules::{HexShogiRules, HexVariant};
pub use tables::{HexShogiTables, FORWARD_HEXSHOGI91, FORWARD_TPHS91, TPHS91_START_OWN_FRAME};

use crate::catalog::Variant;
use crate::game::Game;
use crate::player::Player;

/// A Hex Shogi 91 game of either kind: the position and its history.
pub type HexShogiGame = Game<HexShogiPosition>;

/// The seat names of both games: Black, White, Gray (the two-player game has no Gray).
pub fn seat_name(player: Player) -> &'static str {
    Variant::Tphs91.seat_name(player)
}

pub fn seat_letter(player: Player) -> char {
    Variant::Tphs91.seat_letter(player)
}
