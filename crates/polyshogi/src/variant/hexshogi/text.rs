//! The Hex Shogi 91 and TPHS91 position strings (docs/FORMATS.md), the terminal diagram and
//! the board for drawing.
//!
//! `hexshogi91|tphs91 <board> <to-move> <hands> <state>`: ranks a (top) to k separated by `/`,
//! each rank left to right; a piece is its owner's letter in lower case (b, w, g), `+` if
//! promoted, and its letter; runs of empty cells are digits. Hands `B:2P/W:-[/G:-]`. State
//! `ply=N;nocapture=N;passes=N` and, once the game is over, `end=…`.

use super::position::{HexShogiPosition, HexShogiSetup};
use super::rules::{HexShogiRules, HexVariant};
use super::tables::{FORWARD_HEXSHOGI91, FORWARD_TPHS91};
use super::{seat_letter, seat_name};
use crate::geometry::Cell;
use crate::layout::{BoardLayout, CellLayout, CellShape};
use crate::notation::diagram::diagram;
use crate::notation::position_error::{Fields, ParsePositionError};
use crate::outcome::{DrawReason, Outcome, WinReason};
use crate::piece::{Hand, Piece, Role};
use crate::player::{ByPlayer, Player, PlayerSet};
use crate::rules::Rules;

fn seat_of(c: char, seats: &[Player]) -> Option<Player> {
    seats.iter().copied().find(|&p| seat_letter(p) == c.to_ascii_uppercase())
}

/// The cells by rank, top first, each left to right (cell order is row by row).
fn ranks(pos: &HexShogiPosition) -> Vec<Vec<Cell>> {
    let mut ranks: Vec<Vec<Cell>> = Vec::new();
    let mut last = None;
    for cell in pos.tables().grid.cells() {
        let letter = pos.cell_name(cell).chars().last();
        if letter != last {
            ranks.push(Vec::new());
            last = letter;
        }
        ranks.last_mut().expect("a rank").push(cell);
    }
    ranks
}

fn hand_text(hand: &Hand) -> String {
    let text: String = Role::ALL
        .iter()
        .filter(|&&r| hand.count(r) > 0)
        .map(|&r| match hand.count(r) {
            1 => r.letter().to_string(),
            n => format!("{n}{}", r.letter()),
        })
        .collect();
    if text.is_empty() {
        "-".to_string()
    } else {
        text
    }
}

impl HexShogiPosition {
    pub fn to_text(&self) -> String {
        let board: Vec<String> = ranks(self)
            .iter()
            .map(|rank| {
                let mut text = String::new();
                let mut empty = 0;
                for &cell in rank {
                    match self.piece_at(cell) {
                        None => empty += 1,
                        Some(piece) => {
                            if empty > 0 {
                                text.push_str(&empty.to_string());
                                empty = 0;
                            }
                            text.push(seat_letter(piece.player).to_ascii_lowercase());
                            if piece.promoted {
                                text.push('+');
                            }
                            text.push(piece.role.letter());
                        }
                    }
                }
                if empty > 0 {
                    text.push_str(&empty.to_string());
                }
                text
            })
            .collect();
        let hands: Vec<String> =
            self.seats().iter().map(|&p| format!("{}:{}", seat_letter(p), hand_text(self.hand(p)))).collect();
        let mut state =
            format!("ply={};nocapture={};passes={}", self.plies(), self.plies_without_capture(), self.passes_in_a_row());
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
        format!("{} {} {} {} {state}", self.variant().name(), board.join("/"), seat_letter(self.to_move()), hands.join("/"))
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
        let pieces = parse_board(&start, board, board_column)?;
        let (column, seat) = fields.next("the player to move")?;
        let to_move = Some(seat)
            .filter(|s| s.len() == 1 && s.chars().all(|c| c.is_ascii_uppercase()))
            .and_then(|s| seat_of(s.chars().next()?, seats))
            .ok_or_else(|| ParsePositionError::at(column, format!("expected the letter of a seat, found `{seat}`")))?;
        let (hands_column, hands_text) = fields.next("the hands, like B:2P/W:-")?;
        let hands = parse_hands(hands_text, hands_column, seats)?;
        let mut setup = HexShogiSetup { pieces, hands, to_move, plies: 0, plies_without_capture: 0, passes_in_a_row: 0 };
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

fn parse_board(start: &HexShogiPosition, text: &str, column: usize) -> Result<Vec<(Cell, Piece)>, ParsePositionError> {
    let ranks = ranks(start);
    let seats = start.seats();
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != ranks.len() {
        return Err(ParsePositionError::at(
            column,
            format!("the board needs {} ranks separated by `/`, found {}", ranks.len(), rows.len()),
        ));
    }
    let mut pieces = Vec::new();
    let mut col = column;
    for (row, cells) in rows.iter().zip(&ranks) {
        let chars: Vec<char> = row.chars().collect();
        let mut i = 0;
        let mut file = 0;
        while i < chars.len() {
            let here = col + i;
            if chars[i].is_ascii_digit() {
                let digits: String = chars[i..].iter().take_while(|c| c.is_ascii_digit()).collect();
                file += digits.parse::<usize>().map_err(|_| ParsePositionError::at(here, "bad count of empty cells"))?;
                i += digits.len();
                continue;
            }
            let player = Some(chars[i]).filter(char::is_ascii_lowercase).and_then(|c| seat_of(c, seats)).ok_or_else(|| {
                ParsePositionError::at(here, format!("expected a seat letter in lower case or a digit, found `{}`", chars[i]))
            })?;
            i += 1;
            let promoted = chars.get(i) == Some(&'+');
            if promoted {
                i += 1;
            }
            let role = chars
                .get(i)
                .and_then(|&c| Role::from_letter(c))
                .ok_or_else(|| ParsePositionError::at(col + i, "expected a piece letter (K R B G S N L P)"))?;
            i += 1;
            let cell =
                *cells.get(file).ok_or_else(|| ParsePositionError::at(here, format!("rank has only {} cells", cells.len())))?;
            pieces.push((cell, Piece { player, role, promoted }));
            file += 1;
        }
        if file != cells.len() {
            return Err(ParsePositionError::at(col, format!("rank describes {file} cells, the board has {}", cells.len())));
        }
        col += chars.len() + 1;
    }
    Ok(pieces)
}

fn parse_hands(text: &str, column: usize, seats: &[Player]) -> Result<ByPlayer<Hand>, ParsePositionError> {
    let mut hands = ByPlayer::<Hand>::default();
    let groups: Vec<&str> = text.split('/').collect();
    if groups.len() != seats.len() {
        return Err(ParsePositionError::at(column, format!("expected {} hands separated by `/`", seats.len())));
    }
    let mut col = column;
    for (group, &expected) in groups.iter().zip(seats) {
        let bad = |what: String| ParsePositionError::at(col, what);
        let (seat, list) =
            group.split_once(':').ok_or_else(|| bad(format!("expected `{}:` before a hand", seat_letter(expected))))?;
        if seat.len() != 1
            || seat_of(seat.chars().next().unwrap_or(' '), seats) != Some(expected)
            || seat != seat.to_ascii_uppercase()
        {
            return Err(bad(format!("expected the hand of {} here", seat_letter(expected))));
        }
        if list != "-" {
            let chars: Vec<char> = list.chars().collect();
            let mut i = 0;
            while i < chars.len() {
                let digits: String = chars[i..].iter().take_while(|c| c.is_ascii_digit()).collect();
                let count: u8 = if digits.is_empty() {
                    1
                } else {
                    digits.parse().ok().filter(|&n: &u8| n <= 27).ok_or_else(|| bad("a count in hand is at most 27".into()))?
                };
                i += digits.len();
                let role =
                    chars.get(i).and_then(|&c| Role::from_letter(c)).ok_or_else(|| bad("expected a piece letter".into()))?;
                if hands[expected].count(role) as u32 + count as u32 > 27 {
                    return Err(bad("more than 27 pieces of one kind in a hand".into()));
                }
                for _ in 0..count {
                    hands[expected].add(role);
                }
                i += 1;
            }
        }
        col += group.chars().count() + 1;
    }
    Ok(hands)
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
