//! How games end and what a move may set off: outcomes and the events `play` reports.

use arrayvec::ArrayVec;

use crate::cellset::CellSet;
use crate::geometry::Cell;
use crate::mv::Move;
use crate::piece::Piece;
use crate::player::{ByPlayer, Player, PlayerSet};

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum WinReason {
    /// Every other player has been eliminated.
    LastStanding,
    /// The winner's king entered the Pleasure Garden (Sannin).
    Garden,
    /// An allied player was mated, so both allies lost to the lone player (Sannin).
    AllyMated,
    /// The loser was checkmated (two-player games).
    Checkmate,
    /// The winner holds all three kings (Three Player Hex Shogi 91).
    KingsCollected,
    /// The winner captured the enemy Emperor (Sankaku).
    EmperorCaptured,
    /// The loser had no legal move (Sankaku).
    NoLegalMove,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum DrawReason {
    /// A player without a legal action ended the game under `stalemate=draw`.
    Stalemate,
    /// The safety cap on the number of plies was reached.
    PlyCap,
    /// The same position occurred for the third time.
    Repetition,
    /// Too many moves in a row without a capture.
    NoCapture,
    /// Every player still in the game was forced to pass for a whole round.
    AllPassed,
    /// The players agreed to a draw.
    Agreement,
}

impl WinReason {
    pub const ALL: [WinReason; 7] = [
        WinReason::LastStanding,
        WinReason::Garden,
        WinReason::AllyMated,
        WinReason::Checkmate,
        WinReason::KingsCollected,
        WinReason::EmperorCaptured,
        WinReason::NoLegalMove,
    ];

    pub fn name(self) -> &'static str {
        match self {
            WinReason::LastStanding => "last_standing",
            WinReason::Garden => "garden",
            WinReason::AllyMated => "ally_mated",
            WinReason::Checkmate => "checkmate",
            WinReason::KingsCollected => "kings_collected",
            WinReason::EmperorCaptured => "emperor_captured",
            WinReason::NoLegalMove => "no_legal_move",
        }
    }

    pub fn from_name(name: &str) -> Option<WinReason> {
        WinReason::ALL.into_iter().find(|r| r.name() == name)
    }
}

impl DrawReason {
    pub const ALL: [DrawReason; 6] = [
        DrawReason::Stalemate,
        DrawReason::PlyCap,
        DrawReason::Repetition,
        DrawReason::NoCapture,
        DrawReason::AllPassed,
        DrawReason::Agreement,
    ];

    pub fn name(self) -> &'static str {
        match self {
            DrawReason::Stalemate => "stalemate",
            DrawReason::PlyCap => "ply_cap",
            DrawReason::Repetition => "repetition",
            DrawReason::NoCapture => "no_capture",
            DrawReason::AllPassed => "all_passed",
            DrawReason::Agreement => "agreement",
        }
    }

    pub fn from_name(name: &str) -> Option<DrawReason> {
        DrawReason::ALL.into_iter().find(|r| r.name() == name)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    Win { winner: Player, reason: WinReason },
    Draw { players: PlayerSet, reason: DrawReason },
}

/// How two players came to coordinate against the third (Sannin §1.13).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum AllianceCause {
    /// One player's move cleared a line for another player's ranging piece, on `line`.
    DiscoveredAttack { line: Cell, piece: Piece },
    /// Two players, on consecutive turns, each threatened a different piece; the second move
    /// is the formation's own, `earlier_move` the first.
    DualAttack { earlier_move: Move },
}

/// A compulsory alliance: who, against whom, why, and the moves that made it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct AllianceFormation {
    pub allies: PlayerSet,
    pub against: Player,
    pub cause: AllianceCause,
    /// The threatened pieces of the lone player.
    pub targets: CellSet,
    /// The move after which the alliance forms.
    pub move_: Move,
}

/// Something a move caused beyond moving pieces.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Event {
    /// `player` was checkmated by the move of `by` and leaves the game.
    Checkmated { player: Player, by: Player },
    /// `player` had no legal action at his turn and leaves the game.
    Stalemated { player: Player },
    /// `player` resigned and leaves the game.
    Resigned { player: Player },
    /// `player`'s clock ran out: he leaves the game (Three Player Hex Shogi 91 with three
    /// still in: he has lost, passes from now on, and his pieces stay).
    TimedOut { player: Player },
    /// A compulsory alliance formed.
    AllianceFormed(AllianceFormation),
    /// Under `compulsory=confirm`: the alliance waits for the players' answer.
    AllianceProposed(AllianceFormation),
    /// Under `compulsory=confirm`: the players refused the alliance.
    AllianceRefused(AllianceFormation),
    /// The lone player was eliminated, so the alliance of `allies` ended.
    AllianceDissolved { allies: PlayerSet },
    /// The game ended; `placings` ranks every seat from 1 (ties share a place).
    GameOver { outcome: Outcome, placings: ByPlayer<u8> },
}

/// The events of one move, in the order they happened.
pub type Events = ArrayVec<Event, 8>;
