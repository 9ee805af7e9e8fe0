//! Sannin move text (FORMATS.md): the canonical machine form (`P3c-4d`, `+K7g!5e,9i`) and
//! the short form people write (`S-2d`, `Bx12l`, `R-7g+`), both read against the legal moves.

use std::fmt;

use crate::geometry::{Cell, HexNaming, ParseCellError};
use crate::mv::{HourSet, Move};
use crate::piece::Role;
use crate::variant::sannin::SanninPosition;

/// Why a move text was refused. Columns count characters from 1.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveTextError {
    Syntax { text: String, column: usize, expected: &'static str },
    Cell { text: String, column: usize, error: ParseCellError },
    /// Well formed, but no legal move matches it.
    NotLegal { text: String, reason: String },
    /// Several legal moves match; the text must name the origin.
    Ambiguous { text: String, candidates: Vec<String> },
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
    Board { promoted: bool, role: Role, from: Option<Cell>, capture: bool, to: Cell, promote: Option<bool> },
    Illuminate { from: Option<Cell>, targets: Vec<Cell> },
}

fn naming_name(pos: &SanninPosition, cell: Cell) -> String {
    HexNaming::Sannin.name(pos.tables().grid, cell)
}

/// The canonical text of a legal move: always with its origin.
pub fn canonical(pos: &SanninPosition, m: Move) -> String {
    let name = |c: Cell| naming_name(pos, c);
    match m {
        Move::Normal { from, to, promote } => {
            let piece = pos.piece_at(from).expect("a move starts from a piece");
            let capture = if pos.piece_at(to).is_some() { 'x' } else { '-' };
            format!(
                "{}{}{}{}{}{}",
                if piece.promoted { "+" } else { "" },
                piece.role.letter(),
                name(from),
                capture,
                name(to),
                if promote { "+" } else { "" }
            )
        }
        Move::Drop { role, to } => format!("{}*{}", role.letter(), name(to)),
        Move::Illuminate { from, rays } => illumination(pos, from, rays, true),
        Move::Pass => "pass".to_string(),
    }
}

/// `+K7g!5e,9i`: the king's cell (when asked for), then the removed cells by (column, rank).
fn illumination(pos: &SanninPosition, from: Cell, rays: HourSet, with_origin: bool) -> String {
    let mut targets: Vec<Cell> = pos.illumination_targets(from, rays).collect();
    targets.sort_by_key(|&c| cell_order(pos, c));
    let list: Vec<String> = targets.into_iter().map(|c| naming_name(pos, c)).collect();
    let origin = if with_origin { naming_name(pos, from) } else { String::new() };
    format!("+K{origin}!{}", list.join(","))
}

/// Cells sort by (column, rank), as illumination target lists are written.
fn cell_order(pos: &SanninPosition, cell: Cell) -> (u32, String) {
    let name = naming_name(pos, cell);
    let digits: String = name.chars().take_while(|c| c.is_ascii_digit()).collect();
    (digits.parse().unwrap_or(0), name[digits.len()..].to_string())
}

/// The short text of a legal move: the origin only where another legal move of the same kind
/// of piece reaches the same cell.
pub fn short(pos: &SanninPosition, legal: &[Move], m: Move) -> String {
    match m {
        Move::Normal { from, to, promote } => {
            let piece = pos.piece_at(from).expect("a move starts from a piece");
            let ambiguous = legal.iter().any(|&other| match other {
                Move::Normal { from: f, to: t, .. } => {
                    t == to && f != from && pos.piece_at(f).is_some_and(|p| p.role == piece.role && p.promoted == piece.promoted)
                }
                _ => false,
            });
            format!(
                "{}{}{}{}{}{}",
                if piece.promoted { "+" } else { "" },
                piece.role.letter(),
                if ambiguous { naming_name(pos, from) } else { String::new() },
                if pos.piece_at(to).is_some() { 'x' } else { '-' },
                naming_name(pos, to),
                if promote { "+" } else { "" }
            )
        }
        Move::Illuminate { from, rays } => illumination(pos, from, rays, false),
        _ => canonical(pos, m),
    }
}

/// Reads canonical or short move text and finds the legal move it names.
pub fn parse(pos: &SanninPosition, legal: &[Move], text: &str) -> Result<Move, MoveTextError> {
    let shape = parse_shape(pos, text)?;
    resolve(pos, legal, text, shape)
}

/// Splits a comma-separated move list; a comma followed by a bare cell name continues the
/// target list of an illumination (`+K7g!5e,9i,P-4e`).
pub fn split_move_list(text: &str) -> Vec<String> {
    let mut moves: Vec<String> = Vec::new();
    if text.trim().is_empty() {
        return moves;
    }
    for token in text.split(',').map(str::trim) {
        let is_bare_cell = token.len() >= 2
            && token.chars().next().is_some_and(|c| c.is_ascii_digit())
            && token.chars().all(|c| c.is_ascii_alphanumeric());
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

    fn cell(&mut self, pos: &SanninPosition) -> Result<Cell, MoveTextError> {
        let start = self.pos;
        let rest = &self.text[start..];
        let digits = rest.chars().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 {
            return Err(self.syntax("a cell name (number and rank letter, like 7g)"));
        }
        let len = digits + rest[digits..].chars().next().filter(|c| c.is_ascii_lowercase()).map_or(0, |_| 1);
        let name = &rest[..len];
        let column = self.column();
        self.pos += len;
        HexNaming::Sannin.parse(pos.tables().grid, name).map_err(|error| MoveTextError::Cell {
            text: self.text.to_string(),
            column,
            error,
        })
    }

    fn at_cell(&self) -> bool {
        self.peek().is_some_and(|c| c.is_ascii_digit())
    }
}

fn parse_shape(pos: &SanninPosition, text: &str) -> Result<MoveShape, MoveTextError> {
    if text == "pass" {
        return Ok(MoveShape::Pass);
    }
    let mut cur = Cursor { text, pos: 0 };
    let promoted = cur.eat('+');
    let role = cur
        .peek()
        .and_then(Role::from_letter)
        .ok_or_else(|| cur.syntax("a piece letter (K R B G S N L P), `+` or `pass`"))?;
    cur.pos += 1;
    if !promoted && cur.eat('*') {
        let to = cur.cell(pos)?;
        return finish(&cur, MoveShape::Drop { role, to });
    }
    let from = if cur.at_cell() { Some(cur.cell(pos)?) } else { None };
    if cur.eat('!') {
        if role != Role::King || !promoted {
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
    finish(&cur, MoveShape::Board { promoted, role, from, capture, to, promote })
}

fn finish(cur: &Cursor, shape: MoveShape) -> Result<MoveShape, MoveTextError> {
    if cur.pos == cur.text.len() {
        Ok(shape)
    } else {
        Err(cur.syntax("the end of the move"))
    }
}

fn resolve(pos: &SanninPosition, legal: &[Move], text: &str, shape: MoveShape) -> Result<Move, MoveTextError> {
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
            let reason = if pos.hand(mover).count(role) == 0 {
                format!("no {} in hand", role_name(role))
            } else if pos.piece_at(to).is_some() {
                format!("{} is occupied", naming_name(pos, to))
            } else {
                format!("a {} may not be dropped on {} here", role_name(role), naming_name(pos, to))
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
        MoveShape::Board { promoted, role, from, capture, to, promote } => {
            let matching: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|&m| match m {
                    Move::Normal { from: f, to: t, promote: p } => {
                        let piece = pos.piece_at(f).expect("moves start from pieces");
                        t == to
                            && piece.role == role
                            && piece.promoted == promoted
                            && from.is_none_or(|c| c == f)
                            && promote.is_none_or(|want| want == p)
                    }
                    _ => false,
                })
                .collect();
            let piece_name = format!("{}{}", if promoted { "promoted " } else { "" }, role_name(role));
            if matching.is_empty() {
                let other_promotion = legal.iter().any(|&m| match m {
                    Move::Normal { from: f, to: t, .. } => {
                        let piece = pos.piece_at(f).expect("moves start from pieces");
                        t == to && piece.role == role && piece.promoted == promoted && from.is_none_or(|c| c == f)
                    }
                    _ => false,
                });
                let reason = match from {
                    _ if other_promotion && promote == Some(true) => {
                        format!("the {piece_name} may not promote on this move")
                    }
                    _ if other_promotion => format!("the {piece_name} must promote on this move (write `+`)"),
                    Some(f) if pos.piece_at(f).is_none_or(|p| p.player != mover || p.role != role || p.promoted != promoted) => {
                        format!("you have no {piece_name} on {}", naming_name(pos, f))
                    }
                    _ => format!("no {piece_name} of yours can move to {} now", naming_name(pos, to)),
                };
                return Err(not_legal(reason));
            }
            if capture != pos.piece_at(to).is_some() {
                let reason = if capture {
                    format!("`x` marks a capture but {} is empty", naming_name(pos, to))
                } else {
                    format!("{} is occupied: a capture is written with `x`", naming_name(pos, to))
                };
                return Err(not_legal(reason));
            }
            // Without a suffix the move does not promote, unless promotion is compulsory.
            let plain: Vec<Move> = matching.iter().copied().filter(|m| matches!(m, Move::Normal { promote: false, .. })).collect();
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

fn role_name(role: Role) -> &'static str {
    match role {
        Role::King => "king",
        Role::Rook => "rook",
        Role::Bishop => "bishop",
        Role::Gold => "gold",
        Role::Silver => "silver",
        Role::Knight => "knight",
        Role::Lance => "lance",
        Role::Pawn => "pawn",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mv::MoveList;
    use crate::variant::sannin::SanninRules;

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
    fn bad_text_is_refused_with_its_column() {
        let (pos, moves) = start();
        let err = parse(&pos, &moves, "P3c-4q").unwrap_err();
        assert!(matches!(err, MoveTextError::Cell { column: 5, .. }), "{err:?}");
        let err = parse(&pos, &moves, "Q3c-4d").unwrap_err();
        assert!(matches!(err, MoveTextError::Syntax { column: 1, .. }), "{err:?}");
        let err = parse(&pos, &moves, "P3c-4d?").unwrap_err();
        assert!(matches!(err, MoveTextError::Syntax { column: 7, .. }), "{err:?}");
        let err = parse(&pos, &moves, "P3c-5e").unwrap_err();
        assert!(matches!(err, MoveTextError::NotLegal { .. }), "{err}");
        let err = parse(&pos, &moves, "P-4d").unwrap_err();
        assert!(matches!(err, MoveTextError::NotLegal { .. } | MoveTextError::Ambiguous { .. }), "{err}");
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
