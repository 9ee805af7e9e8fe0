//! polyshogi: the rules of shogi variants on hexagonal and triangular boards, for two and
//! three players. No I/O: boards, positions, moves, move text and perft.

pub mod catalog;
pub mod cell;
pub mod cellset;
pub mod game;
pub mod geometry;
pub mod key_history;
pub mod layout;
pub mod mv;
pub mod notation;
pub mod outcome;
pub mod perft;
pub mod piece;
pub mod piece_moves;
mod piece_store;
pub mod player;
pub mod replay;
pub mod rules;
pub mod splitmix;
pub mod variant;
mod zobrist;

pub use catalog::Variant;
pub use cellset::CellSet;
pub use game::{Departure, Game};
pub use geometry::{Cell, Hour};
pub use mv::{HourSet, Move, MoveList};
pub use outcome::{Event, Events, Outcome};
pub use piece::{Hand, Piece, Role};
pub use player::{ByPlayer, Player, PlayerSet};
pub use rules::Rules;
