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

/// A piece's letter in move text, its name for people (unpromoted), and the kanji a traditional
/// piece set writes on it, unpromoted and promoted (`None` where nothing is written for a
/// promoted side: the piece never promotes in any game that has it).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PieceName {
    pub letter: char,
    pub name: &'static str,
    pub kanji: &'static str,
    pub promoted_kanji: Option<&'static str>,
}

const fn piece(letter: char, name: &'static str, kanji: &'static str, promoted_kanji: Option<&'static str>) -> PieceName {
    PieceName { letter, name, kanji, promoted_kanji }
}

/// The shogi family's pieces (Sannin, Hex Shogi 91 and Three Player Hex Shogi 91), with the
/// one-character kanji of a standard shogi set (lishogi's and most sets' abbreviations).
///
/// The king is 玉 for every seat. A two-player set has one 王, for the senior player, and one
/// 玉; no seat here is senior, and three armies cannot share one 王, so all take the glyph every
/// set has. The promoted king exists only in Sannin shogi, where it illuminates: Tanigasaki
/// named it 旭光 ("rising sun's light", RULES.md §4), and its second character 光 ("light")
/// says what the piece does in one glyph, as 龍 and 馬 abbreviate 龍王 and 龍馬.
const SHOGI_PIECES: [PieceName; 8] = [
    piece('K', "king", "玉", Some("光")),
    piece('R', "rook", "飛", Some("龍")),
    piece('B', "bishop", "角", Some("馬")),
    piece('G', "gold", "金", None),
    piece('S', "silver", "銀", Some("全")),
    piece('N', "knight", "桂", Some("圭")),
    piece('L', "lance", "香", Some("杏")),
    piece('P', "pawn", "歩", Some("と")),
];

/// Sankaku's pieces (RULES.md §3.3). Sankaku shogi has no traditional set, so its kanji are
/// polyshogi's choice, the words a shogi or xiangqi player reads for each role: 帝 emperor,
/// 車 chariot (xiangqi's), 騎 cavalry (horseman), 将 general, 兵 soldier. Nothing is promoted on
/// a Sankaku board: a capturing soldier or cavalry becomes a general, drawn as one.
const SANKAKU_PIECES: [PieceName; 5] = [
    piece('E', "emperor", "帝", None),
    piece('C', "chariot", "車", None),
    piece('H', "cavalry", "騎", None),
    piece('G', "general", "将", None),
    piece('S', "soldier", "兵", None),
];

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
