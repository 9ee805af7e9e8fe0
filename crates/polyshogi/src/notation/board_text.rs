//! The parts of the position strings that are written alike (docs/FORMATS.md): the board rank
//! by rank (every game; Sankaku reads its own piece letters through `parse_ranks`), and the
//! Sannin and Hex Shogi hands.
//!
//! Board: ranks separated by `/`, each left to right; a piece is its owner's seat letter in
//! lower case, `+` if promoted, and its letter; runs of empty cells are digits.
//! Hands: `F:2P/M:-/L:-`, one per seat in seat order.

use crate::geometry::Cell;
use crate::notation::position_error::ParsePositionError;
use crate::piece::{Hand, Piece, Role};
use crate::player::{ByPlayer, Player};

/// The seats of a game in seat order, with each seat's letter (upper case).
#[derive(Clone, Copy)]
pub(crate) struct SeatLetters<'a> {
    pub players: &'a [Player],
    pub letter: fn(Player) -> char,
}

impl SeatLetters<'_> {
    /// The seat of a letter, in either case.
    pub fn seat_of(&self, c: char) -> Option<Player> {
        self.players.iter().copied().find(|&p| (self.letter)(p) == c.to_ascii_uppercase())
    }

    /// The letters as a board writes them: `f, m, l`.
    fn lower_case_list(&self) -> String {
        self.players.iter().map(|&p| (self.letter)(p).to_ascii_lowercase().to_string()).collect::<Vec<_>>().join(", ")
    }
}

/// The cells grouped by rank (the last character of a cell name), in the order given.
pub(crate) fn ranks(cells: impl Iterator<Item = Cell>, name: impl Fn(Cell) -> String) -> Vec<Vec<Cell>> {
    let mut ranks: Vec<Vec<Cell>> = Vec::new();
    let mut last = None;
    for cell in cells {
        let letter = name(cell).chars().last();
        if letter != last {
            ranks.push(Vec::new());
            last = letter;
        }
        ranks.last_mut().expect("a rank").push(cell);
    }
    ranks
}

pub(crate) fn write_board(ranks: &[Vec<Cell>], piece_at: impl Fn(Cell) -> Option<Piece>, seats: SeatLetters) -> String {
    let rank_text = |rank: &Vec<Cell>| {
        let mut text = String::new();
        let mut empty = 0;
        for &cell in rank {
            let Some(piece) = piece_at(cell) else {
                empty += 1;
                continue;
            };
            if empty > 0 {
                text.push_str(&empty.to_string());
                empty = 0;
            }
            text.push((seats.letter)(piece.player).to_ascii_lowercase());
            if piece.promoted {
                text.push('+');
            }
            text.push(piece.role.letter());
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        text
    };
    ranks.iter().map(rank_text).collect::<Vec<_>>().join("/")
}

/// Reads a board rank by rank: ranks separated by `/`, runs of empty cells as digits, and each
/// piece read by `piece` from the characters where it starts (with their column), which answers
/// the piece and how many characters it used. `column` is where `text` starts in the line.
pub(crate) fn parse_ranks<P>(
    ranks: &[Vec<Cell>],
    text: &str,
    column: usize,
    mut piece: impl FnMut(&[char], usize) -> Result<(P, usize), ParsePositionError>,
) -> Result<Vec<(Cell, P)>, ParsePositionError> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != ranks.len() {
        return Err(ParsePositionError::at(
            column,
            format!("the board needs {} ranks separated by `/`, found {}", ranks.len(), rows.len()),
        ));
    }
    let mut pieces = Vec::new();
    let mut col = column;
    for (row, cells) in rows.iter().zip(ranks) {
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
            let (read, used) = piece(&chars[i..], here)?;
            let cell =
                *cells.get(file).ok_or_else(|| ParsePositionError::at(here, format!("rank has only {} cells", cells.len())))?;
            pieces.push((cell, read));
            file += 1;
            i += used;
        }
        if file != cells.len() {
            return Err(ParsePositionError::at(col, format!("rank describes {file} cells, the board has {}", cells.len())));
        }
        col += chars.len() + 1;
    }
    Ok(pieces)
}

/// Reads a board written by `write_board`; `column` is where `text` starts in the line.
pub(crate) fn parse_board(
    ranks: &[Vec<Cell>],
    text: &str,
    column: usize,
    seats: SeatLetters,
) -> Result<Vec<(Cell, Piece)>, ParsePositionError> {
    parse_ranks(ranks, text, column, |chars, here| {
        let player = Some(chars[0]).filter(char::is_ascii_lowercase).and_then(|c| seats.seat_of(c)).ok_or_else(|| {
            ParsePositionError::at(here, format!("expected {} or a digit, found `{}`", seats.lower_case_list(), chars[0]))
        })?;
        let promoted = chars.get(1) == Some(&'+');
        let at = 1 + usize::from(promoted);
        let role = chars
            .get(at)
            .and_then(|&c| Role::from_letter(c))
            .ok_or_else(|| ParsePositionError::at(here + at, "expected a piece letter (K R B G S N L P)"))?;
        Ok((Piece { player, role, promoted }, at + 1))
    })
}

/// One hand: `2PG`, or `-` when empty.
pub(crate) fn hand_text(hand: &Hand) -> String {
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

/// Every seat's hand: `F:2P/M:-/L:-`.
pub(crate) fn hands_text(hand: impl Fn(Player) -> String, seats: SeatLetters) -> String {
    seats.players.iter().map(|&p| format!("{}:{}", (seats.letter)(p), hand(p))).collect::<Vec<_>>().join("/")
}

/// What a hand may hold in a game.
#[derive(Clone, Copy)]
pub(crate) struct HandLimits {
    /// The most pieces of one role.
    pub most: u8,
    /// Whether kings are held (Three Player Hex Shogi 91 collects them).
    pub kings: bool,
}

/// Reads the hands written by `hands_text`; `column` is where `text` starts in the line.
pub(crate) fn parse_hands(
    text: &str,
    column: usize,
    seats: SeatLetters,
    limits: HandLimits,
) -> Result<ByPlayer<Hand>, ParsePositionError> {
    let mut hands = ByPlayer::<Hand>::default();
    let groups: Vec<&str> = text.split('/').collect();
    if groups.len() != seats.players.len() {
        let example = hands_text(|p| if p == seats.players[0] { "2P".into() } else { "-".into() }, seats);
        return Err(ParsePositionError::at(column, format!("expected {} hands, like {example}", seats.players.len())));
    }
    let letters = if limits.kings { "K R B G S N L P" } else { "R B G S N L P" };
    let mut col = column;
    for (group, &expected) in groups.iter().zip(seats.players) {
        let letter = (seats.letter)(expected);
        let Some((seat, list)) = group.split_once(':') else {
            return Err(ParsePositionError::at(col, format!("expected `{letter}:` before a hand")));
        };
        if seat.chars().count() != 1 || !seat.starts_with(letter) {
            return Err(ParsePositionError::at(col, format!("expected the hand of {letter} here")));
        }
        let start = col + seat.len() + 1;
        if list != "-" {
            let chars: Vec<char> = list.chars().collect();
            let mut i = 0;
            while i < chars.len() {
                let digits: String = chars[i..].iter().take_while(|c| c.is_ascii_digit()).collect();
                let count: u8 =
                    if digits.is_empty() {
                        1
                    } else {
                        digits.parse().ok().filter(|&n: &u8| n <= limits.most).ok_or_else(|| {
                            ParsePositionError::at(start + i, format!("a count in hand is at most {}", limits.most))
                        })?
                    };
                i += digits.len();
                let role = chars
                    .get(i)
                    .and_then(|&c| Role::from_letter(c))
                    .filter(|&r| limits.kings || r != Role::King)
                    .ok_or_else(|| ParsePositionError::at(start + i, format!("expected a piece letter ({letters})")))?;
                if u32::from(hands[expected].count(role)) + u32::from(count) > u32::from(limits.most) {
                    return Err(ParsePositionError::at(
                        start + i,
                        format!("more than {} pieces of one kind in a hand", limits.most),
                    ));
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
    use crate::variant::hexshogi::{HexShogiPosition, HexShogiRules};
    use crate::variant::sannin::{SanninPosition, SanninRules};

    /// The start position string of Sannin with one field replaced.
    fn sannin_with(field: usize, text: &str) -> String {
        let start = SanninPosition::start(SanninRules::default()).to_text();
        let mut fields: Vec<&str> = start.split(' ').collect();
        fields[field] = text;
        fields.join(" ")
    }

    #[test]
    fn a_bad_seat_letter_on_the_board_is_named_with_the_seats_and_its_column() {
        let start = SanninPosition::start(SanninRules::default()).to_text();
        let board = start.split(' ').nth(1).unwrap();
        let bad = board.replacen('f', "x", 1);
        let column = "sannin ".len() + board.find('f').unwrap() + 1;
        let err = SanninPosition::from_text(&sannin_with(1, &bad), SanninRules::default()).unwrap_err();
        assert_eq!(err.column, column);
        assert!(err.message.contains("expected f, m, l or a digit, found `x`"), "{}", err.message);
    }

    #[test]
    fn bad_hands_are_named_with_what_the_game_allows() {
        let err = SanninPosition::from_text(&sannin_with(3, "F:K/M:-/L:-"), SanninRules::default()).unwrap_err();
        assert!(err.message.contains("expected a piece letter (R B G S N L P)"), "{}", err.message);
        let err = SanninPosition::from_text(&sannin_with(3, "F:25P/M:-/L:-"), SanninRules::default()).unwrap_err();
        assert!(err.message.contains("a count in hand is at most 24"), "{}", err.message);
        let err = SanninPosition::from_text(&sannin_with(3, "M:-/F:-/L:-"), SanninRules::default()).unwrap_err();
        assert!(err.message.contains("expected the hand of F here"), "{}", err.message);

        let rules = HexShogiRules::tphs91();
        let start = HexShogiPosition::start(rules).to_text();
        let mut fields: Vec<&str> = start.split(' ').collect();
        assert_eq!(fields[3], "B:-/W:-/G:-");
        fields[3] = "B:-/W:-/G:-/F:-";
        let err = HexShogiPosition::from_text(&fields.join(" "), rules).unwrap_err();
        assert!(err.message.contains("expected 3 hands, like B:2P/W:-/G:-"), "{}", err.message);
    }
}
