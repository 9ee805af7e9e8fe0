//! Move text (FORMATS.md) for every game: the canonical machine form (`P3c-4d`, `+K7g!5e,9i`)
//! and the short form people write (`S-2d`, `Bx12l`, `R-7g+`), both read against the legal
//! moves of a position.

use std::fmt;

use crate::geometry::{Cell, ParseCellError};
use crate::mv::{HourSet, Move};
use crate::piece::Role;
use crate::rules::Rules;

/// Why a move text was refused. Columns count characters from 1.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveTextError {
    Syntax {
        text: String,
        column: usize,
        expected: &'static str,
    },
    Cell {
        text: String,
        column: usize,
        error: ParseCellError,
    },
    /// Well formed, but no legal move matches it.
    NotLegal {
        text: String,
        reason: String,
    },
    /// Several legal moves match; the text must name the origin.
    Ambiguous {
        text: String,
        candidates: Vec<String>,
    },
}

impl fmt::Display for MoveTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveTextError::Syntax { text, column, expected } => {
                write!(f, "`{text}`, column {column}: expected {expected}")
            }
            MoveTextError::Cell { text, column, error } => write!(f, "`{text}`, column {column}: {error}"),
            MoveTextError::NotLegal { text, reason } => write!(f, "`{text}` is not legal: {reason}"),
            MoveTextError::Ambiguous { text, candidates } => {
                write!(f, "`{text}` is ambiguous: it could be {}", candidates.join(" or "))
            }
        }
    }
}

impl std::error::Error for MoveTextError {}

/// The parts of a move text before it is matched against the position.
#[derive(Clone, PartialEq, Eq, Debug)]
enum MoveShape {
    Pass,
    Drop { role: Role, to: Cell },
    Board { promoted: bool, letter: char, from: Option<Cell>, capture: bool, to: Cell, promote: Option<bool> },
    Illuminate { from: Option<Cell>, targets: Vec<Cell> },
}

/// The canonical text of a legal move: always with its origin.
pub fn canonical<P: Rules>(pos: &P, m: Move) -> String {
    match m {
        Move::Normal { from, .. } => board_move(pos, m, Some(from)),
        Move::Drop { role, to } => format!("{}*{}", role.letter(), pos.cell_name(to)),
        Move::Illuminate { from, rays } => illumination(pos, from, rays, true),
        Move::Pass => "pass".to_string(),
    }
}

/// The short text of a legal move: the origin only where another legal move of the same kind
/// of piece reaches the same cell.
pub fn short<P: Rules>(pos: &P, legal: &[Move], m: Move) -> String {
    match m {
        Move::Normal { from, to, .. } => {
            let piece = pos.piece_text(from).expect("a move starts from a piece");
            let ambiguous = legal.iter().any(|&other| match other {
                Move::Normal { from: f, to: t, .. } => {
                    t == to && f != from && pos.piece_text(f).is_some_and(|p| same_kind(p, piece))
                }
                _ => false,
            });
            board_move(pos, m, ambiguous.then_some(from))
        }
        Move::Illuminate { from, rays } => illumination(pos, from, rays, false),
        _ => canonical(pos, m),
    }
}

fn same_kind(a: crate::rules::PieceText, b: crate::rules::PieceText) -> bool {
    a.letter == b.letter && a.promoted == b.promoted
}

/// `+R7g-7l`: promoted mark, letter, origin (if given), `-` or `x`, destination, `+`.
fn board_move<P: Rules>(pos: &P, m: Move, origin: Option<Cell>) -> String {
    let Move::Normal { from, to, promote } = m else { unreachable!("only board moves") };
    let piece = pos.piece_text(from).expect("a move starts from a piece");
    format!(
        "{}{}{}{}{}{}",
        if piece.promoted { "+" } else { "" },
        piece.letter,
        origin.map(|c| pos.cell_name(c)).unwrap_or_default(),
        if pos.is_capture(m) { 'x' } else { '-' },
        pos.cell_name(to),
        if promote { "+" } else { "" }
    )
}

/// `+K7g!5e,9i`: the king's cell (when asked for), then the removed cells by (column, rank).
fn illumination<P: Rules>(pos: &P, from: Cell, rays: HourSet, with_origin: bool) -> String {
    let mut targets: Vec<String> = pos.illumination_targets(from, rays).map(|c| pos.cell_name(c)).collect();
    targets.sort_by_key(|name| name_order(name));
    let origin = if with_origin { pos.cell_name(from) } else { String::new() };
    format!("+K{origin}!{}", targets.join(","))
}

/// Names sort by their number, then their letters (`2d` before `10a`).
fn name_order(name: &str) -> (u32, String) {
    let digits: String = name.chars().take_while(|c| c.is_ascii_digit()).collect();
    (digits.parse().unwrap_or(0), name[digits.len()..].to_string())
}

/// Reads canonical or short move text and finds the legal move it names.
pub fn parse<P: Rules>(pos: &P, legal: &[Move], text: &str) -> Result<Move, MoveTextError> {
    let shape = parse_shape(pos, text)?;
    resolve(pos, legal, text, shape)
}

/// The cells a move text names, read without matching it against the legal moves: for a move
/// already played, to mark it on a diagram. A board move names its origin (when written) and
/// its destination, a drop its cell, an illumination its king (when written) and the cells it
/// cleared, a pass none.
pub fn named_cells<P: Rules>(pos: &P, text: &str) -> Result<Vec<Cell>, MoveTextError> {
    Ok(match parse_shape(pos, text)? {
        MoveShape::Pass => Vec::new(),
        MoveShape::Drop { to, .. } => vec![to],
        MoveShape::Board { from, to, .. } => from.into_iter().chain([to]).collect(),
        MoveShape::Illuminate { from, targets } => from.into_iter().chain(targets).collect(),
    })
}

/// Splits a comma-separated move list; a comma followed by a bare cell name continues the
/// target list of an illumination (`+K7g!5e,9i,P-4e`). Empty entries are kept, so that the
/// caller can refuse them; blank text is no moves at all.
pub fn split_move_list(text: &str) -> Vec<String> {
    let mut moves: Vec<String> = Vec::new();
    if text.trim().is_empty() {
        return moves;
    }
    for token in text.split(',').map(str::trim) {
        let is_bare_cell =
            !token.is_empty() && token.chars().all(|c| c.is_ascii_digit() || c.is_ascii_lowercase()) && token != "pass";
        match moves.last_mut() {
            Some(last) if is_bare_cell && last.contains('!') => {
                last.push(',');
                last.push_str(token);
            }
            _ => moves.push(token.to_string()),
        }
    }
    moves
}

struct Cursor<'a> {
    text: &'a str,
    pos: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn column(&self) -> usize {
        self.text[..self.pos].chars().count() + 1
    }

    fn syntax(&self, expected: &'static str) -> MoveTextError {
        MoveTextError::Syntax { text: self.text.to_string(), column: self.column(), expected }
    }

    /// Whether a cell name may start here: every game's cell names start with a digit or a
    /// lowercase letter other than `x` (which marks a capture).
    fn at_cell(&self) -> bool {
        self.peek().is_some_and(|c| c.is_ascii_digit() || (c.is_ascii_lowercase() && c != 'x'))
    }

    /// Reads the longest cell name (two or three characters) the game accepts here.
    fn cell<P: Rules>(&mut self, pos: &P) -> Result<Cell, MoveTextError> {
        let rest = &self.text[self.pos..];
        let column = self.column();
        if !self.at_cell() {
            return Err(self.syntax("a cell name"));
        }
        let run = rest.chars().take_while(|c| c.is_ascii_alphanumeric()).count().min(3);
        let mut first_error = None;
        for len in (2..=run).rev() {
            if !rest.is_char_boundary(len) {
                continue;
            }
            match pos.parse_cell(&rest[..len]) {
                Ok(cell) => {
                    self.pos += len;
                    return Ok(cell);
                }
                Err(error) => first_error = first_error.or(Some(error)),
            }
        }
        let error = first_error.unwrap_or_else(|| ParseCellError::Malformed(rest.chars().take(3).collect()));
        Err(MoveTextError::Cell { text: self.text.to_string(), column, error })
    }
}

fn parse_shape<P: Rules>(pos: &P, text: &str) -> Result<MoveShape, MoveTextError> {
    if text == "pass" {
        return Ok(MoveShape::Pass);
    }
    let mut cur = Cursor { text, pos: 0 };
    let promoted = cur.eat('+');
    let letter = cur.peek().filter(char::is_ascii_uppercase).ok_or_else(|| cur.syntax("a piece letter, `+` or `pass`"))?;
    cur.pos += 1;
    if !promoted && cur.eat('*') {
        let role = Role::from_letter(letter).ok_or(MoveTextError::Syntax {
            text: text.to_string(),
            column: 1,
            expected: "the letter of a piece that can be dropped",
        })?;
        let to = cur.cell(pos)?;
        return finish(&cur, MoveShape::Drop { role, to });
    }
    let from = if cur.at_cell() { Some(cur.cell(pos)?) } else { None };
    if cur.eat('!') {
        if letter != 'K' || !promoted {
            return Err(MoveTextError::Syntax {
                text: text.to_string(),
                column: cur.column() - 1,
                expected: "`!` only after `+K` (only a promoted king illuminates)",
            });
        }
        let mut targets = vec![cur.cell(pos)?];
        while cur.eat(',') {
            targets.push(cur.cell(pos)?);
        }
        return finish(&cur, MoveShape::Illuminate { from, targets });
    }
    let capture = if cur.eat('x') {
        true
    } else if cur.eat('-') || cur.eat('=') {
        false
    } else {
        return Err(cur.syntax(if from.is_some() { "`-`, `x` or `!`" } else { "a cell, `-`, `x`, `*` or `!`" }));
    };
    let to = cur.cell(pos)?;
    let promote = if cur.eat('+') {
        Some(true)
    } else if cur.eat('=') {
        Some(false)
    } else {
        None
    };
    finish(&cur, MoveShape::Board { promoted, letter, from, capture, to, promote })
}

fn finish(cur: &Cursor, shape: MoveShape) -> Result<MoveShape, MoveTextError> {
    if cur.pos == cur.text.len() {
        Ok(shape)
    } else {
        Err(cur.syntax("the end of the move"))
    }
}

fn resolve<P: Rules>(pos: &P, legal: &[Move], text: &str, shape: MoveShape) -> Result<Move, MoveTextError> {
    let not_legal = |reason: String| MoveTextError::NotLegal { text: text.to_string(), reason };
    let mover = pos.to_move();
    match shape {
        MoveShape::Pass => legal
            .iter()
            .copied()
            .find(|&m| m == Move::Pass)
            .ok_or_else(|| not_legal("a player may pass only when he has no other legal action".into())),
        MoveShape::Drop { role, to } => {
            let m = Move::Drop { role, to };
            if legal.contains(&m) {
                return Ok(m);
            }
            let reason = if pos.in_hand(mover, role) == 0 {
                format!("no {} in hand", role.letter())
            } else if pos.piece_text(to).is_some() {
                format!("{} is occupied", pos.cell_name(to))
            } else {
                format!("{} may not be dropped on {} here", role.letter(), pos.cell_name(to))
            };
            Err(not_legal(reason))
        }
        MoveShape::Illuminate { from, targets } => {
            let mut wanted = targets.clone();
            wanted.sort();
            let found = legal.iter().copied().find(|&m| match m {
                Move::Illuminate { from: f, rays } => {
                    let mut cells: Vec<Cell> = pos.illumination_targets(f, rays).collect();
                    cells.sort();
                    from.is_none_or(|c| c == f) && cells == wanted
                }
                _ => false,
            });
            found.ok_or_else(|| not_legal("no legal illumination removes exactly those pieces".into()))
        }
        MoveShape::Board { promoted, letter, from, capture, to, promote } => {
            let piece_word = format!("{}{letter}", if promoted { "+" } else { "" });
            let same_piece = |f: Cell| pos.piece_text(f).is_some_and(|p| p.letter == letter && p.promoted == promoted);
            let reaching: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|&m| matches!(m, Move::Normal { from: f, to: t, .. } if t == to && same_piece(f) && from.is_none_or(|c| c == f)))
                .collect();
            let matching: Vec<Move> = reaching
                .iter()
                .copied()
                .filter(|&m| matches!(m, Move::Normal { promote: p, .. } if promote.is_none_or(|want| want == p)))
                .collect();
            if matching.is_empty() {
                let reason = match from {
                    _ if !reaching.is_empty() && promote == Some(true) => {
                        format!("the {piece_word} may not promote on this move")
                    }
                    _ if !reaching.is_empty() => format!("the {piece_word} must promote on this move (write `+`)"),
                    Some(f) if !same_piece(f) || pos.piece_text(f).is_some_and(|p| p.player != mover) => {
                        format!("you have no {piece_word} on {}", pos.cell_name(f))
                    }
                    _ => format!("no {piece_word} of yours can move to {} now", pos.cell_name(to)),
                };
                return Err(not_legal(reason));
            }
            // A run-down captures on its way even onto an empty cell, so the mark is checked
            // against each move, not against the destination alone.
            let matching: Vec<Move> = if matching.iter().any(|&m| pos.is_capture(m) == capture) {
                matching.into_iter().filter(|&m| pos.is_capture(m) == capture).collect()
            } else {
                let reason = if capture {
                    format!("`x` marks a capture but {} is empty", pos.cell_name(to))
                } else if pos.piece_text(to).is_some() {
                    format!("{} is occupied: a capture is written with `x`", pos.cell_name(to))
                } else {
                    format!("the move captures on its way to {}: a capture is written with `x`", pos.cell_name(to))
                };
                return Err(not_legal(reason));
            };
            // Without a suffix the move does not promote, unless promotion is compulsory.
            let plain: Vec<Move> =
                matching.iter().copied().filter(|m| matches!(m, Move::Normal { promote: false, .. })).collect();
            let chosen = if promote.is_none() && !plain.is_empty() { plain } else { matching };
            match chosen.as_slice() {
                [m] => Ok(*m),
                _ => Err(MoveTextError::Ambiguous {
                    text: text.to_string(),
                    candidates: chosen.iter().map(|&m| canonical(pos, m)).collect(),
                }),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mv::MoveList;
    use crate::variant::sannin::{SanninPosition, SanninRules};

    fn start() -> (SanninPosition, MoveList) {
        let pos = SanninPosition::start(SanninRules::default());
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        (pos, moves)
    }

    #[test]
    fn canonical_text_of_every_start_move_parses_back_to_it() {
        let (pos, moves) = start();
        for &m in &moves {
            assert_eq!(parse(&pos, &moves, &canonical(&pos, m)), Ok(m));
            assert_eq!(parse(&pos, &moves, &short(&pos, &moves, m)), Ok(m));
        }
    }

    #[test]
    fn named_cells_are_read_from_the_text_alone() {
        let (pos, _) = start();
        let names = |text: &str| named_cells(&pos, text).map(|cells| cells.iter().map(|&c| pos.cell_name(c)).collect::<Vec<_>>());
        assert_eq!(names("P3c-4d"), Ok(vec!["3c".to_string(), "4d".to_string()]));
        // Neither a legal move here nor one with its origin: only its text counts.
        assert_eq!(names("Bx12l+"), Ok(vec!["12l".to_string()]));
        assert_eq!(names("P*7g"), Ok(vec!["7g".to_string()]));
        assert_eq!(names("+K7g!5e,9i"), Ok(vec!["7g".to_string(), "5e".to_string(), "9i".to_string()]));
        assert_eq!(names("pass"), Ok(vec![]));
        assert!(matches!(named_cells(&pos, "P3c-4q"), Err(MoveTextError::Cell { column: 5, .. })));
    }

    #[test]
    fn bad_text_is_refused_with_its_column() {
        let (pos, moves) = start();
        let err = parse(&pos, &moves, "P3c-4q").unwrap_err();
        assert!(matches!(err, MoveTextError::Cell { column: 5, .. }), "{err:?}");
        let err = parse(&pos, &moves, "Q3c-4d").unwrap_err();
        assert!(matches!(err, MoveTextError::NotLegal { .. }), "{err:?}");
        let err = parse(&pos, &moves, "p3c-4d").unwrap_err();
        assert!(matches!(err, MoveTextError::Syntax { column: 1, .. }), "{err:?}");
        let err = parse(&pos, &moves, "P3c-4d?").unwrap_err();
        assert!(matches!(err, MoveTextError::Syntax { column: 7, .. }), "{err:?}");
        let err = parse(&pos, &moves, "P3c-5e").unwrap_err();
        assert!(matches!(err, MoveTextError::NotLegal { .. }), "{err}");
        let err = parse(&pos, &moves, "P-4d").unwrap_err();
        assert!(matches!(err, MoveTextError::Ambiguous { .. }), "{err}");
    }

    #[test]
    fn move_lists_keep_illumination_targets_together() {
        assert_eq!(split_move_list("P3c-4d,+K7g!5e,9i,S-2d"), ["P3c-4d", "+K7g!5e,9i", "S-2d"]);
        assert_eq!(split_move_list(" P-4e "), ["P-4e"]);
        assert!(split_move_list(" ").is_empty());
        // An empty entry stays, so that the caller can refuse it.
        assert_eq!(split_move_list("P-4e,,S-2d"), ["P-4e", "", "S-2d"]);
    }
}
