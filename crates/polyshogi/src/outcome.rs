//! How games end and what a move may set off: outcomes and the events `play` reports.

use arrayvec::ArrayVec;

use crate::player::{Player, PlayerSet};

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum WinReason {
    /// Every other player has been eliminated.
    LastStanding,
    /// The winner's king entered the Pleasure Garden (Sannin).
    Garden,
    /// An allied player was mated, so both allies lost to the lone player (Sannin).
    AllyMated,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum DrawReason {
    /// A player without a legal action ended the game under `stalemate=draw`.
    Stalemate,
    /// The safety cap on the number of plies was reached.
    PlyCap,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    Win { winner: Player, reason: WinReason },
    Draw { players: PlayerSet, reason: DrawReason },
}

/// Something a move caused beyond moving pieces.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Event {
    /// `player` was checkmated by the move of `by` and leaves the game.
    Checkmated { player: Player, by: Player },
    /// `player` had no legal action at his turn and leaves the game.
    Stalemated { player: Player },
    /// The lone player was eliminated, so the alliance of `allies` ended.
    AllianceDissolved { allies: PlayerSet },
    GameOver(Outcome),
}

/// The events of one move, in the order they happened.
pub type Events = ArrayVec<Event, 8>;
