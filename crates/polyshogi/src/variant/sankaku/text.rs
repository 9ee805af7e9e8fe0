//! The Sankaku position string (docs/FORMATS.md) and the terminal diagram. SFEN-like: ranks
//! from 8 down to 1 separated by `/`, each rank from file a rightward, Black's pieces in upper
//! case and White's in lower case (E C H G S), runs of empty cells as digits.
//!
//! `sankaku <board> <to-move B|W> <state>`, state `ply=N` and, once the game is over, `end=…`.

use super::player_letter;
use super::position::{SankakuPosition, SankakuSetup};
use super::rules::SankakuRules;
use super::tables::{SankakuPiece, SankakuRole};
use crate::geometry::Cell;
use crate::notation::board_text::{self, parse_ranks};
use crate::notation::diagram::{diagram_with, Rows};
use crate::notation::position_error::{Fields, ParsePositionError};
use crate::outcome::{DrawReason, Outcome, WinReason};
use crate::player::{Player, PlayerSet};
use crate::rules::Rules;

/// The cells by rank, top (rank 8) first, each rank from its lowest file.
fn ranks(pos: &SankakuPosition) -> Vec<Vec<Cell>> {
    let mut cells: Vec<(char, char, Cell)> = pos
        .grid
        .cells()
        .map(|cell| {
            let name = pos.grid.name(cell);
            let mut chars = name.chars();
            let file = chars.next().unwrap_or('a');
            let rank = chars.next().unwrap_or('1');
            (rank, file, cell)
        })
        .collect();
    cells.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    board_text::ranks(cells.into_iter().map(|(_, _, cell)| cell), |cell| pos.grid.name(cell))
}

fn seat_of(c: char) -> Option<Player> {
    match c {
        'B' => Some(Player::First),
        'W' => Some(Player::Second),
        _ => None,
    }
}

impl SankakuPosition {
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
                            let letter = piece.role.letter();
                            text.push(if piece.player == Player::First { letter } else { letter.to_ascii_lowercase() });
                        }
                    }
                }
                if empty > 0 {
                    text.push_str(&empty.to_string());
                }
                text
            })
            .collect();
        let mut state = format!("ply={}", self.plies);
        match self.outcome {
            Some(Outcome::Win { winner, reason }) => {
                state.push_str(&format!(";end=win:{}:{}", player_letter(winner), reason.name()))
            }
            Some(Outcome::Draw { players, reason }) => {
                let seats: String = players.iter().map(player_letter).collect();
                state.push_str(&format!(";end=draw:{seats}:{}", reason.name()))
            }
            None => {}
        }
        format!("sankaku {} {} {state}", board.join("/"), player_letter(self.to_move))
    }

    pub fn from_text(text: &str, rules: SankakuRules) -> Result<SankakuPosition, ParsePositionError> {
        let start = SankakuPosition::start(rules);
        let mut fields = Fields::new(text.trim_end());
        let (column, variant) = fields.next("the variant name `sankaku`")?;
        if variant != "sankaku" {
            return Err(ParsePositionError::at(column, format!("expected `sankaku`, found `{variant}`")));
        }
        let (board_column, board) = fields.next("the board")?;
        let pieces = parse_board(&start, board, board_column)?;
        let (column, seat) = fields.next("the player to move (B or W)")?;
        let to_move = Some(seat)
            .filter(|s| s.len() == 1)
            .and_then(|s| seat_of(s.chars().next()?))
            .ok_or_else(|| ParsePositionError::at(column, format!("expected B or W, found `{seat}`")))?;
        let mut plies = 0;
        let mut outcome = None;
        if let Some((mut column, state)) = fields.optional() {
            for item in state.split(';') {
                let bad = |what: &str| ParsePositionError::at(column, format!("{what} in `{item}`"));
                match item.split_once('=') {
                    Some(("ply", n)) => plies = n.parse().map_err(|_| bad("expected a ply count"))?,
                    Some(("end", end)) => {
                        outcome =
                            Some(parse_outcome(end).ok_or_else(|| bad("expected win:<B|W>:<reason> or draw:<BW>:<reason>"))?)
                    }
                    _ => return Err(bad("unknown state item")),
                }
                column += item.chars().count() + 1;
            }
        }
        fields.finish()?;
        let setup = SankakuSetup { pieces, to_move };
        let mut pos = SankakuPosition::validate(setup, rules, outcome.is_some())
            .map_err(|e| ParsePositionError::at(board_column, format!("not a valid position: {e}")))?;
        pos.plies = plies;
        pos.outcome = outcome;
        Ok(pos)
    }

    /// The board for a terminal: `^` and `v` mark empty triangles pointing up and down.
    pub fn diagram(&self) -> String {
        let rows: Rows = ranks(self)
            .into_iter()
            .map(|rank| {
                let first_file = rank.first().map(|&c| self.grid.name(c).as_bytes()[0] - b'a').unwrap_or(0);
                (2 * first_file as usize, rank)
            })
            .collect();
        let empty = |cell: Cell| if self.grid.is_up(cell) { "^".to_string() } else { "v".to_string() };
        let mut text = diagram_with(self, &rows, empty);
        let status = if self.outcome.is_some() { "game over" } else { "to move" };
        text.push_str(&format!("{} {status}\n", self.seat_name(self.to_move)));
        text
    }
}

fn parse_outcome(text: &str) -> Option<Outcome> {
    let parts: Vec<&str> = text.split(':').collect();
    match parts.as_slice() {
        ["win", seat, reason] if seat.len() == 1 => {
            Some(Outcome::Win { winner: seat_of(seat.chars().next()?)?, reason: WinReason::from_name(reason)? })
        }
        ["draw", seats, reason] => {
            let mut players = PlayerSet::EMPTY;
            for c in seats.chars() {
                players.insert(seat_of(c)?);
            }
            Some(Outcome::Draw { players, reason: DrawReason::from_name(reason)? })
        }
        _ => None,
    }
}

fn parse_board(start: &SankakuPosition, text: &str, column: usize) -> Result<Vec<(Cell, SankakuPiece)>, ParsePositionError> {
    parse_ranks(&ranks(start), text, column, |chars, here| {
        let role = SankakuRole::from_letter(chars[0].to_ascii_uppercase()).ok_or_else(|| {
            ParsePositionError::at(
                here,
                format!("expected a piece letter (E C H G S, lower case for White) or a digit, found `{}`", chars[0]),
            )
        })?;
        let player = if chars[0].is_ascii_uppercase() { Player::First } else { Player::Second };
        Ok((SankakuPiece { player, role }, 1))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_string_reads_back() {
        let start = SankakuPosition::start(SankakuRules::default());
        let text = start.to_text();
        assert!(text.starts_with("sankaku cec/hhghh/1sssss1/7/7/1SSSSS1/HHGHH/CEC B"), "{text}");
        let back = SankakuPosition::from_text(&text, SankakuRules::default()).unwrap();
        assert_eq!(back.to_text(), text);
    }
}
