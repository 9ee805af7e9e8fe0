//! The Sannin position string (docs/FORMATS.md): one line with the board, the player to move,
//! the hands and every flag that decides the legal moves, written and read back exactly.
//!
//! `sannin <board> <to-move> <hands> <state>`, e.g. the start:
//! `sannin lL1lP1fP1fL/…/mLmSmGmKmGmSmL F F:-/M:-/L:- castle=FML;ready=FML;allies=-;former=-;out=-;ply=0`

use super::alliance::{LastAction, PlayedAction, Threats};
use super::position::{SanninPosition, SanninSetup};
use super::rules::SanninRules;
use crate::cellset::CellSet;
use crate::geometry::Cell;
use crate::layout::{BoardLayout, CellLayout, CellShape};
use crate::mv::Move;
use crate::notation::board_text::{self, hand_text, hands_text, parse_board, parse_hands, write_board, HandLimits, SeatLetters};
use crate::notation::diagram::diagram;
use crate::notation::position_error::{Fields, ParsePositionError};
use crate::outcome::{AllianceCause, AllianceFormation, DrawReason, Outcome, WinReason};
use crate::piece::Piece;
use crate::player::{ByPlayer, Player, PlayerSet};
use crate::rules::Rules;

const SEAT_LETTERS: [char; 3] = ['F', 'M', 'L'];

fn seat_letter(p: Player) -> char {
    SEAT_LETTERS[p.index()]
}

fn seat_of(c: char) -> Option<Player> {
    SEAT_LETTERS.iter().position(|&l| l == c.to_ascii_uppercase()).and_then(Player::from_index)
}

fn seats_text(set: PlayerSet) -> String {
    if set.is_empty() {
        "-".to_string()
    } else {
        set.iter().map(seat_letter).collect()
    }
}

/// Cell names grouped by rank, top rank first, each rank left to right in Middle's view.
fn ranks(pos: &SanninPosition) -> Vec<Vec<Cell>> {
    board_text::ranks(pos.tables().grid.cells(), |cell| pos.cell_name(cell))
}

const SEATS: SeatLetters<'static> = SeatLetters { players: &Player::ALL, letter: seat_letter };

fn cells_text(pos: &SanninPosition, cells: CellSet) -> String {
    if cells.is_empty() {
        "-".to_string()
    } else {
        cells.map(|c| pos.cell_name(c)).collect::<Vec<_>>().join(".")
    }
}

impl SanninPosition {
    /// The position string.
    pub fn to_text(&self) -> String {
        let board = write_board(&ranks(self), |cell| self.piece_at(cell), SEATS);
        let hands = hands_text(|p| hand_text(self.store.hand(p)), SEATS);
        let flag_seats = |flags: ByPlayer<bool>| {
            let mut set = PlayerSet::EMPTY;
            for p in Player::ALL.into_iter().filter(|&p| flags[p]) {
                set.insert(p);
            }
            seats_text(set)
        };
        let mut state = format!(
            "castle={};ready={};allies={};former={};out={};ply={}",
            flag_seats(self.may_castle),
            flag_seats(self.illumination_ready),
            seats_text(self.allies),
            seats_text(self.former_allies),
            eliminations_text(self),
            self.plies
        );
        match self.outcome {
            Some(Outcome::Win { winner, reason }) => {
                state.push_str(&format!(";end=win:{}:{}", seat_letter(winner), reason.name()))
            }
            Some(Outcome::Draw { players, reason }) => {
                state.push_str(&format!(";end=draw:{}:{}", seats_text(players), reason.name()))
            }
            None => {}
        }
        if let Some(last) = self.last_action() {
            let threats: Vec<String> = Player::ALL
                .iter()
                .map(|&p| {
                    let t = last.new_threats[p];
                    format!("{}{}", cells_text(self, t.targets), if t.mate { "!" } else { "" })
                })
                .collect();
            state.push_str(&format!(
                ";last={}:{}:{}:{:x}",
                seat_letter(last.mover),
                u8::from(last.defensive),
                threats.join(":"),
                last.mv.pack()
            ));
        }
        if let Some(f) = self.proposal {
            // The cause's own fields: a discovered attack's line piece, a dual attack's first move.
            let (cause, line, earlier) = match f.cause {
                AllianceCause::DiscoveredAttack { line, .. } => ("discovered", self.cell_name(line), 0),
                AllianceCause::DualAttack { earlier_move } => ("dual", "-".to_string(), earlier_move.pack()),
            };
            state.push_str(&format!(
                ";proposal={}:{}:{cause}:{}:{line}:{earlier:x}:{:x}",
                seats_text(f.allies),
                seat_letter(f.against),
                cells_text(self, f.targets),
                f.move_.pack()
            ));
        }
        format!("sannin {board} {} {hands} {state}", seat_letter(self.to_move))
    }

    /// Reads a position string (see `to_text`) under `rules`.
    pub fn from_text(text: &str, rules: SanninRules) -> Result<SanninPosition, ParsePositionError> {
        let start = SanninPosition::start(rules);
        let mut fields = Fields::new(text.trim_end());
        let (column, variant) = fields.next("the variant name `sannin`")?;
        if variant != "sannin" {
            return Err(ParsePositionError::at(column, format!("expected `sannin`, found `{variant}`")));
        }
        let (board_column, board) = fields.next("the board")?;
        let pieces = parse_board(&ranks(&start), board, board_column, SEATS)?;
        let (column, to_move) = fields.next("the player to move (F, M or L)")?;
        let to_move = single_seat(to_move, column)?;
        let (hands_column, hands_text) = fields.next("the hands, like F:2P/M:-/L:-")?;
        let hands = parse_hands(hands_text, hands_column, SEATS, HandLimits { most: 24, kings: false })?;
        let (state_column, state) = fields.next("the state, like castle=FML;ready=FML;…")?;
        fields.finish()?;

        let mut setup = SanninSetup {
            pieces,
            hands,
            to_move,
            eliminated: PlayerSet::EMPTY,
            allies: PlayerSet::EMPTY,
            former_allies: PlayerSet::EMPTY,
            may_castle: ByPlayer([false; 3]),
            illumination_ready: ByPlayer([false; 3]),
            plies: 0,
        };
        let mut last_action = None;
        let mut proposal = None;
        let mut eliminations = Vec::new();
        let mut outcome = None;
        let mut column = state_column;
        for item in state.split(';') {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| ParsePositionError::at(column, format!("expected key=value, found `{item}`")))?;
            let value_column = column + key.chars().count() + 1;
            match key {
                "castle" => setup.may_castle = seat_flags(value, value_column)?,
                "ready" => setup.illumination_ready = seat_flags(value, value_column)?,
                "allies" => setup.allies = seat_set(value, value_column)?,
                "former" => setup.former_allies = seat_set(value, value_column)?,
                "out" => {
                    eliminations = parse_eliminations(value, value_column)?;
                    setup.eliminated = eliminations.iter().fold(PlayerSet::EMPTY, |mut set, &(p, _)| {
                        set.insert(p);
                        set
                    });
                }
                "end" => outcome = Some(parse_outcome(value, value_column)?),
                "ply" => {
                    setup.plies = value.parse().map_err(|_| ParsePositionError::at(value_column, "expected the ply count"))?
                }
                "last" => last_action = Some(parse_last_action(&start, value, value_column)?),
                "proposal" => proposal = Some(parse_proposal(&start, &setup.pieces, value, value_column)?),
                _ => return Err(ParsePositionError::at(column, format!("unknown state key `{key}`"))),
            }
            column += item.chars().count() + 1;
        }
        if let Some(proposal) = proposal {
            // A proposal stands for an alliance that could form: two players against the third,
            // all three in the game, nobody allied before; a discovered attack names an ally's piece.
            let in_game = |p: Player| !setup.eliminated.contains(p);
            let line_fits = match proposal.cause {
                AllianceCause::DiscoveredAttack { piece, .. } => proposal.allies.contains(piece.player),
                AllianceCause::DualAttack { .. } => true,
            };
            let valid = line_fits
                && proposal.allies.len() == 2
                && !proposal.allies.contains(proposal.against)
                && Player::ALL.into_iter().all(in_game)
                && setup.allies.is_empty()
                && setup.former_allies.is_empty()
                && outcome.is_none();
            if !valid {
                return Err(ParsePositionError::at(state_column, "the proposal is not an alliance that could form here"));
            }
        }
        let mut pos = SanninPosition::validate(setup, rules, outcome.is_some())
            .map_err(|e| ParsePositionError::at(board_column, format!("not a valid position: {e}")))?;
        pos.last_action = last_action.map(PlayedAction::from);
        pos.proposal = proposal;
        pos.eliminations = eliminations.into_iter().collect();
        pos.outcome = outcome;
        Ok(pos)
    }
}

/// `L@12,F@30`: who left the game, in order, with the ply; `-` for nobody.
fn eliminations_text(pos: &SanninPosition) -> String {
    if pos.eliminations.is_empty() {
        return "-".to_string();
    }
    pos.eliminations.iter().map(|&(p, ply)| format!("{}@{ply}", seat_letter(p))).collect::<Vec<_>>().join(",")
}

fn parse_eliminations(text: &str, column: usize) -> Result<Vec<(Player, u32)>, ParsePositionError> {
    if text == "-" {
        return Ok(Vec::new());
    }
    let mut out: Vec<(Player, u32)> = Vec::new();
    for item in text.split(',') {
        let (seat, ply) =
            item.split_once('@').ok_or_else(|| ParsePositionError::at(column, "expected <seat>@<ply>, like L@12"))?;
        let ply = ply.parse().map_err(|_| ParsePositionError::at(column, format!("bad ply in `{item}`")))?;
        let player = single_seat(seat, column)?;
        if out.iter().any(|&(p, _)| p == player) {
            return Err(ParsePositionError::at(column, format!("{seat} leaves the game twice")));
        }
        out.push((player, ply));
    }
    if out.len() > 2 {
        return Err(ParsePositionError::at(column, "at most two players can leave a game"));
    }
    Ok(out)
}

/// `win:M:garden` or `draw:FM:ply_cap`.
fn parse_outcome(text: &str, column: usize) -> Result<Outcome, ParsePositionError> {
    let bad = || ParsePositionError::at(column, format!("expected win:<seat>:<reason> or draw:<seats>:<reason>, found `{text}`"));
    let parts: Vec<&str> = text.split(':').collect();
    match parts.as_slice() {
        ["win", seat, reason] => {
            Ok(Outcome::Win { winner: single_seat(seat, column)?, reason: WinReason::from_name(reason).ok_or_else(bad)? })
        }
        ["draw", seats, reason] => {
            Ok(Outcome::Draw { players: seat_set(seats, column)?, reason: DrawReason::from_name(reason).ok_or_else(bad)? })
        }
        _ => Err(bad()),
    }
}

impl SanninPosition {
    /// The board for drawing: hexagons, the Garden marked, pieces turned toward their
    /// owner's forward hour (First's 12 o'clock is screen 8: −120°; Last's is screen 4: +120°).
    pub fn layout(&self) -> BoardLayout {
        let grid = self.tables().grid;
        let cells = grid
            .cells()
            .map(|cell| {
                let (x, y) = grid.pixel_centre(cell);
                CellLayout { cell, name: self.cell_name(cell), shape: CellShape::Hexagon, x, y }
            })
            .collect();
        let seat_rotation =
            Player::ALL.iter().map(|&p| i32::from(super::FORWARD[p]) * 30).map(|d| if d > 180 { d - 360 } else { d }).collect();
        BoardLayout { cells, marked: vec![self.tables().garden], seat_rotation }
    }

    /// The board as text for a terminal, with the player to move, hands and alliance below.
    pub fn diagram(&self) -> String {
        let ranks = ranks(self);
        let widest = ranks.iter().map(Vec::len).max().unwrap_or(0);
        let rows = ranks.into_iter().map(|rank| (widest - rank.len(), rank)).collect();
        let mut text = diagram(self, &rows);
        for p in Player::ALL {
            let status = if !self.active.contains(p) {
                " (out)"
            } else if self.to_move == p && self.outcome.is_none() {
                " (to move)"
            } else {
                ""
            };
            text.push_str(&format!("{}{status}: hand {}\n", self.seat_name(p), hand_text(self.store.hand(p))));
        }
        if !self.allies.is_empty() {
            text.push_str(&format!("alliance: {}\n", seats_text(self.allies)));
        }
        text
    }
}

fn single_seat(text: &str, column: usize) -> Result<Player, ParsePositionError> {
    let mut chars = text.chars();
    match (chars.next().and_then(seat_of), chars.next()) {
        (Some(p), None) if text.chars().all(|c| c.is_ascii_uppercase()) => Ok(p),
        _ => Err(ParsePositionError::at(column, format!("expected F, M or L, found `{text}`"))),
    }
}

fn seat_set(text: &str, column: usize) -> Result<PlayerSet, ParsePositionError> {
    let mut set = PlayerSet::EMPTY;
    if text == "-" {
        return Ok(set);
    }
    for (i, c) in text.chars().enumerate() {
        let p = seat_of(c)
            .filter(|_| c.is_ascii_uppercase())
            .ok_or_else(|| ParsePositionError::at(column + i, format!("expected F, M, L or `-`, found `{c}`")))?;
        set.insert(p);
    }
    Ok(set)
}

fn seat_flags(text: &str, column: usize) -> Result<ByPlayer<bool>, ParsePositionError> {
    let set = seat_set(text, column)?;
    Ok(ByPlayer::new(|p| set.contains(p)))
}

fn parse_cells(start: &SanninPosition, text: &str, column: usize) -> Result<CellSet, ParsePositionError> {
    if text == "-" {
        return Ok(CellSet::EMPTY);
    }
    let mut cells = CellSet::EMPTY;
    for name in text.split('.') {
        let cell = start.parse_cell(name).map_err(|e| ParsePositionError::at(column, e.to_string()))?;
        cells.insert(cell);
    }
    Ok(cells)
}

fn parse_packed_move(text: &str, column: usize) -> Result<Move, ParsePositionError> {
    u32::from_str_radix(text, 16)
        .ok()
        .and_then(Move::unpack)
        .ok_or_else(|| ParsePositionError::at(column, format!("`{text}` is not a packed move")))
}

/// `last=<mover>:<defensive 0|1>:<threats on F>:<on M>:<on L>:<packed move>`; threats are cell
/// lists joined by `.` (`-` for none), with `!` for a mate threat.
fn parse_last_action(start: &SanninPosition, text: &str, column: usize) -> Result<LastAction, ParsePositionError> {
    let parts: Vec<&str> = text.split(':').collect();
    if parts.len() != 6 {
        return Err(ParsePositionError::at(column, "expected last=<mover>:<0|1>:<threats F>:<threats M>:<threats L>:<move>"));
    }
    let mover = single_seat(parts[0], column)?;
    let defensive = match parts[1] {
        "0" => false,
        "1" => true,
        _ => return Err(ParsePositionError::at(column, "expected 0 or 1 for the defence flag")),
    };
    let mut new_threats = ByPlayer::<Threats>::default();
    for (p, part) in Player::ALL.into_iter().zip(&parts[2..5]) {
        let mate = part.ends_with('!');
        let targets = parse_cells(start, part.trim_end_matches('!'), column)?;
        new_threats[p] = Threats { targets, mate };
    }
    let mv = parse_packed_move(parts[5], column)?;
    Ok(LastAction { mover, mv, new_threats, defensive })
}

/// `proposal=<allies>:<against>:<discovered|dual>:<targets>:<line piece or ->:<earlier move or 0>:<move>`.
/// The line piece of a discovered attack is read from `board`, where the proposal was made.
fn parse_proposal(
    start: &SanninPosition,
    board: &[(Cell, Piece)],
    text: &str,
    column: usize,
) -> Result<AllianceFormation, ParsePositionError> {
    let parts: Vec<&str> = text.split(':').collect();
    if parts.len() != 7 {
        return Err(ParsePositionError::at(
            column,
            "expected proposal=<allies>:<against>:<cause>:<targets>:<line piece>:<earlier>:<move>",
        ));
    }
    let cause = match (parts[2], parts[4], parts[5]) {
        ("discovered", name, "0") => {
            let line = start.parse_cell(name).map_err(|e| ParsePositionError::at(column, e.to_string()))?;
            let piece = board.iter().find(|&&(c, _)| c == line).map(|&(_, piece)| piece);
            let piece = piece.ok_or_else(|| ParsePositionError::at(column, format!("no attacking piece on {name}")))?;
            AllianceCause::DiscoveredAttack { line, piece }
        }
        ("dual", "-", earlier) => AllianceCause::DualAttack { earlier_move: parse_packed_move(earlier, column)? },
        _ => {
            return Err(ParsePositionError::at(
                column,
                "expected `discovered:<targets>:<line piece>:0` or `dual:<targets>:-:<earlier move>`",
            ))
        }
    };
    Ok(AllianceFormation {
        allies: seat_set(parts[0], column)?,
        against: single_seat(parts[1], column)?,
        cause,
        targets: parse_cells(start, parts[3], column)?,
        move_: parse_packed_move(parts[6], column)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_string_reads_back() {
        let start = SanninPosition::start(SanninRules::default());
        let text = start.to_text();
        assert!(text.starts_with("sannin lL1lP1fP1fL/"), "{text}");
        assert_eq!(SanninPosition::from_text(&text, SanninRules::default()), Ok(start));
    }

    #[test]
    fn errors_name_the_column() {
        let start = SanninPosition::start(SanninRules::default()).to_text();
        let bad = start.replacen("lL1lP", "lL1lQ", 1);
        let err = SanninPosition::from_text(&bad, SanninRules::default()).unwrap_err();
        assert_eq!(err.column, 12, "{err}");
        let err = SanninPosition::from_text("sannin", SanninRules::default()).unwrap_err();
        assert!(err.message.contains("board"), "{err}");
    }
}
