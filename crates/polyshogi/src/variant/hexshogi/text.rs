//! The Hex Shogi 91 and TPHS91 position strings (docs/FORMATS.md), the terminal diagram and
//! the board for drawing.
//!
//! `hexshogi91|tphs91 <board> <to-move> <hands> <state>`: ranks a (top) to k separated by `/`,
//! each rank left to right; a piece is its owner's letter in lower case (b, w, g), `+` if
//! promoted, and its letter; runs of empty cells are digits. Hands `B:2P/W:-[/G:-]`. State
//! `ply=N;nocapture=N;passes=N`, then `timedout=<seat>` (TPHS91, after a time-out) and, once
//! the game is over, `end=…`.

use super::position::{HexShogiPosition, HexShogiSetup};
use super::rules::{HexShogiRules, HexVariant};
use super::tables::{FORWARD_HEXSHOGI91, FORWARD_TPHS91};
use super::{seat_letter, seat_name};
use crate::geometry::Cell;
use crate::layout::{BoardLayout, CellLayout, CellShape};
use crate::notation::board_text::{self, hand_text, hands_text, parse_board, parse_hands, write_board, HandLimits, SeatLetters};
use crate::notation::diagram::diagram;
use crate::notation::position_error::{Fields, ParsePositionError};
use crate::outcome::{DrawReason, Outcome, WinReason};
use crate::player::{Player, PlayerSet};
use crate::rules::Rules;

fn seat_of(c: char, seats: &[Player]) -> Option<Player> {
    seats.iter().copied().find(|&p| seat_letter(p) == c.to_ascii_uppercase())
}

/// The cells by rank, top first, each left to right (cell order is row by row).
fn ranks(pos: &HexShogiPosition) -> Vec<Vec<Cell>> {
    board_text::ranks(pos.tables().grid.cells(), |cell| pos.cell_name(cell))
}

fn seat_letters(pos: &HexShogiPosition) -> SeatLetters<'static> {
    SeatLetters { players: pos.seats(), letter: seat_letter }
}

/// Three armies hold 27 pawns at most, and TPHS91 collects kings.
const HAND_LIMITS: HandLimits = HandLimits { most: 27, kings: true };

impl HexShogiPosition {
    pub fn to_text(&self) -> String {
        let board = write_board(&ranks(self), |cell| self.piece_at(cell), seat_letters(self));
        let hands = hands_text(|p| hand_text(self.hand(p)), seat_letters(self));
        let mut state =
            format!("ply={};nocapture={};passes={}", self.plies(), self.plies_without_capture(), self.passes_in_a_row());
        if !self.timed_out().is_empty() {
            let seats: String = self.timed_out().iter().map(seat_letter).collect();
            state.push_str(&format!(";timedout={seats}"));
        }
        match self.outcome() {
            Some(Outcome::Win { winner, reason }) => {
                state.push_str(&format!(";end=win:{}:{}", seat_letter(winner), reason.name()))
            }
            Some(Outcome::Draw { players, reason }) => {
                let seats: String = players.iter().map(seat_letter).collect();
                state.push_str(&format!(";end=draw:{seats}:{}", reason.name()))
            }
            None => {}
        }
        format!("{} {board} {} {hands} {state}", self.variant().name(), seat_letter(self.to_move()))
    }

    pub fn from_text(text: &str, rules: HexShogiRules) -> Result<HexShogiPosition, ParsePositionError> {
        let start = HexShogiPosition::start(rules);
        let seats = start.seats();
        let mut fields = Fields::new(text.trim_end());
        let (column, variant) = fields.next("the variant name")?;
        if variant != start.variant().name() {
            return Err(ParsePositionError::at(column, format!("expected `{}`, found `{variant}`", start.variant().name())));
        }
        let (board_column, board) = fields.next("the board")?;
        let pieces = parse_board(&ranks(&start), board, board_column, seat_letters(&start))?;
        let (column, seat) = fields.next("the player to move")?;
        let to_move = Some(seat)
            .filter(|s| s.len() == 1 && s.chars().all(|c| c.is_ascii_uppercase()))
            .and_then(|s| seat_of(s.chars().next()?, seats))
            .ok_or_else(|| ParsePositionError::at(column, format!("expected the letter of a seat, found `{seat}`")))?;
        let (hands_column, hands_text) = fields.next("the hands, like B:2P/W:-")?;
        let hands = parse_hands(hands_text, hands_column, seat_letters(&start), HAND_LIMITS)?;
        let mut setup = HexShogiSetup {
            pieces,
            hands,
            to_move,
            plies: 0,
            plies_without_capture: 0,
            passes_in_a_row: 0,
            timed_out: PlayerSet::EMPTY,
        };
        let mut outcome = None;
        let (mut column, state) = fields.next("the state, like ply=0;nocapture=0;passes=0")?;
        fields.finish()?;
        for item in state.split(';') {
            let bad = |what: &str| ParsePositionError::at(column, format!("{what} in `{item}`"));
            let number = |n: &str| n.parse::<u32>().map_err(|_| bad("expected a whole number"));
            match item.split_once('=') {
                Some(("ply", n)) => setup.plies = number(n)?,
                Some(("nocapture", n)) => setup.plies_without_capture = number(n)?,
                Some(("passes", n)) => setup.passes_in_a_row = number(n)?.min(u32::from(u8::MAX)) as u8,
                Some(("timedout", letters)) => {
                    for c in letters.chars() {
                        let seat = seat_of(c, seats).ok_or_else(|| bad("expected the letters of seats"))?;
                        setup.timed_out.insert(seat);
                    }
                }
                Some(("end", end)) => {
                    outcome = Some(
                        parse_outcome(end, seats).ok_or_else(|| bad("expected win:<seat>:<reason> or draw:<seats>:<reason>"))?,
                    )
                }
                _ => return Err(bad("unknown state item")),
            }
            column += item.chars().count() + 1;
        }
        let mut pos = HexShogiPosition::validate(setup, rules, outcome.is_some())
            .map_err(|e| ParsePositionError::at(board_column, format!("not a valid position: {e}")))?;
        if outcome.is_some() {
            pos.outcome = outcome;
        }
        Ok(pos)
    }

    /// The board as text for a terminal, with the hands below it.
    pub fn diagram(&self) -> String {
        let ranks = ranks(self);
        let widest = ranks.iter().map(Vec::len).max().unwrap_or(0);
        let rows = ranks.into_iter().map(|rank| (widest - rank.len(), rank)).collect();
        let mut text = diagram(self, &rows);
        for &p in self.seats() {
            let to_move = if self.to_move() == p && self.outcome().is_none() { " (to move)" } else { "" };
            text.push_str(&format!("{}{to_move}: hand {}\n", seat_name(p), hand_text(self.hand(p))));
        }
        if self.hex_variant() == HexVariant::Tphs91 {
            text.push_str(&format!("note: {}\n", super::TPHS91_SETUP_NOTE));
        }
        text
    }

    /// The board for drawing: hexagons, pieces turned toward their owner's forward hour.
    pub fn layout(&self) -> BoardLayout {
        let grid = self.tables().grid;
        let cells = grid
            .cells()
            .map(|cell| {
                let (x, y) = grid.pixel_centre(cell);
                CellLayout { cell, name: self.cell_name(cell), shape: CellShape::Hexagon, x, y }
            })
            .collect();
        let forward = match self.hex_variant() {
            HexVariant::HexShogi91 => FORWARD_HEXSHOGI91,
            HexVariant::Tphs91 => FORWARD_TPHS91,
        };
        let seat_rotation =
            self.seats().iter().map(|&p| i32::from(forward[p]) * 30).map(|d| if d > 180 { d - 360 } else { d }).collect();
        BoardLayout { cells, marked: Vec::new(), seat_rotation }
    }
}

fn parse_outcome(text: &str, seats: &[Player]) -> Option<Outcome> {
    let parts: Vec<&str> = text.split(':').collect();
    match parts.as_slice() {
        ["win", seat, reason] if seat.len() == 1 => {
            Some(Outcome::Win { winner: seat_of(seat.chars().next()?, seats)?, reason: WinReason::from_name(reason)? })
        }
        ["draw", letters, reason] => {
            let mut players = PlayerSet::EMPTY;
            for c in letters.chars() {
                players.insert(seat_of(c, seats)?);
            }
            Some(Outcome::Draw { players, reason: DrawReason::from_name(reason)? })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_start_position_strings_read_back() {
        for rules in [HexShogiRules::hexshogi91(), HexShogiRules::tphs91()] {
            let start = HexShogiPosition::start(rules);
            let text = start.to_text();
            let back = HexShogiPosition::from_text(&text, rules).unwrap();
            assert_eq!(back.to_text(), text);
        }
        let text = HexShogiPosition::start(HexShogiRules::hexshogi91()).to_text();
        assert!(text.starts_with("hexshogi91 wLwNwGwGwNwL/"), "{text}");
    }
}
