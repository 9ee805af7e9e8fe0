//! The games polyshogi knows, as data: each variant's key, title, seats and seat names, piece
//! names and the note players must read before choosing it. A leaf module: no game needed.

use std::fmt;
use std::str::FromStr;

use crate::player::Player;

/// A game polyshogi knows by name.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Variant {
    Sannin,
    /// Duniho's two-player Hex Shogi 91.
    HexShogi91,
    /// Duniho's Three Player Hex Shogi 91.
    Tphs91,
    Sankaku,
}

/// What to show wherever the Three Player Hex Shogi 91 start is shown (UI, record header).
pub const TPHS91_SETUP_NOTE: &str = "This start position is a RECONSTRUCTION, not Duniho's \
published diagram (which could not be obtained): back rank N L G G L N, second rank R S K S B \
on its five middle cells, seven pawns leaving the front rank's cell on each player's own right \
empty; the three armies are 120-degree rotations of one another (see the rules page of this \
game).";

/// A piece's letter in move text and its name for people, unpromoted.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PieceName {
    pub letter: char,
    pub name: &'static str,
}

const fn piece(letter: char, name: &'static str) -> PieceName {
    PieceName { letter, name }
}

/// The shogi family's pieces (Sannin, Hex Shogi 91 and Three Player Hex Shogi 91).
const SHOGI_PIECES: [PieceName; 8] = [
    piece('K', "king"),
    piece('R', "rook"),
    piece('B', "bishop"),
    piece('G', "gold"),
    piece('S', "silver"),
    piece('N', "knight"),
    piece('L', "lance"),
    piece('P', "pawn"),
];

/// Sankaku's pieces (RULES.md §3.3).
const SANKAKU_PIECES: [PieceName; 5] =
    [piece('E', "emperor"), piece('C', "chariot"), piece('H', "cavalry"), piece('G', "general"), piece('S', "soldier")];

const TWO_SEATS: [Player; 2] = [Player::First, Player::Second];

impl Variant {
    /// The variants that can be played.
    pub const ALL: [Variant; 4] = [Variant::Sannin, Variant::HexShogi91, Variant::Tphs91, Variant::Sankaku];

    /// The key that names the variant in commands, records and the API.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Sannin => "sannin",
            Variant::HexShogi91 => "hexshogi91",
            Variant::Tphs91 => "tphs91",
            Variant::Sankaku => "sankaku",
        }
    }

    /// The name players know the game by.
    pub const fn title(self) -> &'static str {
        match self {
            Variant::Sannin => "Sannin shogi",
            Variant::HexShogi91 => "Hex Shogi 91",
            Variant::Tphs91 => "Three Player Hex Shogi 91",
            Variant::Sankaku => "Sankaku shogi",
        }
    }

    /// The seats in turn order (two or three).
    pub const fn seats(self) -> &'static [Player] {
        match self {
            Variant::Sannin | Variant::Tphs91 => &Player::ALL,
            Variant::HexShogi91 | Variant::Sankaku => &TWO_SEATS,
        }
    }

    /// A seat's name (First/Middle/Last in Sannin, Black/White/Gray elsewhere).
    pub const fn seat_name(self, player: Player) -> &'static str {
        match (self, player) {
            (Variant::Sannin, Player::First) => "First",
            (Variant::Sannin, Player::Second) => "Middle",
            (Variant::Sannin, Player::Third) => "Last",
            (_, Player::First) => "Black",
            (_, Player::Second) => "White",
            (_, Player::Third) => "Gray",
        }
    }

    /// A seat's letter in position strings and the engine protocol: its name's initial.
    pub const fn seat_letter(self, player: Player) -> char {
        self.seat_name(player).as_bytes()[0] as char
    }

    /// The pieces of the game, by letter, with their names.
    pub const fn piece_names(self) -> &'static [PieceName] {
        match self {
            Variant::Sankaku => &SANKAKU_PIECES,
            _ => &SHOGI_PIECES,
        }
    }

    /// What players must be told about the start array where it is not the designer's own.
    pub const fn setup_note(self) -> Option<&'static str> {
        match self {
            Variant::Tphs91 => Some(TPHS91_SETUP_NOTE),
            _ => None,
        }
    }
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let known: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
        write!(f, "unknown variant `{}` (known: {})", self.0, known.join(", "))
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;

    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        Variant::ALL.into_iter().find(|v| v.name() == s).ok_or_else(|| UnknownVariant(s.to_string()))
    }
}
