//! Sankaku Shogi (L. Lynn Smith, 2004): two players on 44 triangles, RULES.md §3.
//! The board is geometry (`geometry::TRI44`); pieces and setup are data (`tables`); the
//! irreducible rules — relay, run-down, the defended Emperor — are code (`movegen`, `play`).

mod api;
mod fresh;
mod key;
mod movegen;
mod play;
mod position;
mod rules;
mod tables;
mod text;
mod view;

pub use position::{PositionError, SankakuPosition, SankakuSetup};
pub use rules::{Repetition, SankakuRules};
pub use tables::{SankakuPiece, SankakuRole, ARMY};

use crate::catalog::Variant;
use crate::game::Game;
use crate::player::Player;

/// A Sankaku game: the position and its history.
pub type SankakuGame = Game<SankakuPosition>;

/// The seat names of Sankaku: Black, White.
pub fn player_name(player: Player) -> &'static str {
    Variant::Sankaku.seat_name(player)
}

/// The seat letters of FORMATS.md: B and W.
pub fn player_letter(player: Player) -> char {
    Variant::Sankaku.seat_letter(player)
}

/// The other seat of a two-player game.
#[inline]
pub const fn opponent(player: Player) -> Player {
    match player {
        Player::First => Player::Second,
        _ => Player::First,
    }
}
