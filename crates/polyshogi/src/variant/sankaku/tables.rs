//! Sankaku Shogi as data: the five kinds of piece with their letters, the one-byte cell code,
//! the army sizes and the start array of RULES.md §3.4.

use std::fmt;

use crate::geometry::{Cell, TRI44};
use crate::player::Player;

/// What a Sankaku piece is. No piece has a forward direction (§3.3).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum SankakuRole {
    Emperor = 0,
    Chariot = 1,
    Cavalry = 2,
    General = 3,
    Soldier = 4,
}

impl SankakuRole {
    pub const ALL: [SankakuRole; 5] =
        [SankakuRole::Emperor, SankakuRole::Chariot, SankakuRole::Cavalry, SankakuRole::General, SankakuRole::Soldier];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The letter of FORMATS.md: E C H G S.
    pub const fn letter(self) -> char {
        match self {
            SankakuRole::Emperor => 'E',
            SankakuRole::Chariot => 'C',
            SankakuRole::Cavalry => 'H',
            SankakuRole::General => 'G',
            SankakuRole::Soldier => 'S',
        }
    }

    pub fn from_letter(letter: char) -> Option<SankakuRole> {
        SankakuRole::ALL.into_iter().find(|r| r.letter() == letter)
    }

    pub const fn name(self) -> &'static str {
        match self {
            SankakuRole::Emperor => "Emperor",
            SankakuRole::Chariot => "Chariot",
            SankakuRole::Cavalry => "Cavalry",
            SankakuRole::General => "General",
            SankakuRole::Soldier => "Soldier",
        }
    }

    /// Soldiers and Cavalry become Generals on making any capture (§3.3).
    #[inline]
    pub const fn promotes_on_capture(self) -> bool {
        matches!(self, SankakuRole::Soldier | SankakuRole::Cavalry)
    }
}

impl fmt::Display for SankakuRole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece on the board: whose, and what.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct SankakuPiece {
    pub player: Player,
    pub role: SankakuRole,
}

/// A cell's content in one byte: 0 for empty, else `1 + player * 5 + role`.
pub type Code = u8;

pub const CODES: usize = 1 + 2 * 5;

#[inline]
pub const fn code_of(piece: SankakuPiece) -> Code {
    1 + piece.player as u8 * 5 + piece.role as u8
}

#[inline]
pub fn piece_of(code: Code) -> Option<SankakuPiece> {
    if code == 0 || code as usize >= CODES {
        return None;
    }
    let v = (code - 1) as usize;
    Some(SankakuPiece { player: Player::from_index(v / 5)?, role: SankakuRole::ALL[v % 5] })
}

/// One army at the start, by role: 1 Emperor, 2 Chariots, 4 Cavalry, 1 General, 5 Soldiers.
pub const ARMY: [u8; 5] = [1, 2, 4, 1, 5];

/// The pieces of one army; a player never has more (promotions replace pieces).
pub const ARMY_SIZE: usize = {
    let mut size = 0;
    let mut role = 0;
    while role < ARMY.len() {
        size += ARMY[role] as usize;
        role += 1;
    }
    size
};

/// Black's start array (§3.4). White's is its half-turn, which the table of §3.4 confirms.
const BLACK_START: [(SankakuRole, &str); 13] = [
    (SankakuRole::Emperor, "d1"),
    (SankakuRole::Chariot, "c1"),
    (SankakuRole::Chariot, "e1"),
    (SankakuRole::Cavalry, "b2"),
    (SankakuRole::Cavalry, "c2"),
    (SankakuRole::Cavalry, "e2"),
    (SankakuRole::Cavalry, "f2"),
    (SankakuRole::General, "d2"),
    (SankakuRole::Soldier, "b3"),
    (SankakuRole::Soldier, "c3"),
    (SankakuRole::Soldier, "d3"),
    (SankakuRole::Soldier, "e3"),
    (SankakuRole::Soldier, "f3"),
];

/// Both armies at the start: Black's array and its half-turn for White.
pub fn start_pieces() -> Vec<(Cell, SankakuPiece)> {
    let grid = &*TRI44;
    let black: Vec<(Cell, SankakuRole)> =
        BLACK_START.iter().map(|&(role, name)| (grid.parse(name).expect("start cells are on the board"), role)).collect();
    let mut pieces: Vec<(Cell, SankakuPiece)> =
        black.iter().map(|&(cell, role)| (cell, SankakuPiece { player: Player::First, role })).collect();
    pieces.extend(black.iter().map(|&(cell, role)| (grid.half_turn(cell), SankakuPiece { player: Player::Second, role })));
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_every_piece_of_both_players() {
        for code in 1..CODES as u8 {
            assert_eq!(code_of(piece_of(code).unwrap()), code);
        }
        assert_eq!(piece_of(0), None);
        assert_eq!(piece_of(CODES as u8), None);
    }

    #[test]
    fn letters_are_those_of_formats_md() {
        let letters: String = SankakuRole::ALL.iter().map(|r| r.letter()).collect();
        assert_eq!(letters, "ECHGS");
        for role in SankakuRole::ALL {
            assert_eq!(SankakuRole::from_letter(role.letter()), Some(role));
        }
    }

    #[test]
    fn the_start_array_has_two_armies_of_thirteen() {
        let pieces = start_pieces();
        assert_eq!(pieces.len(), 26);
        for player in [Player::First, Player::Second] {
            for role in SankakuRole::ALL {
                let n = pieces.iter().filter(|(_, p)| p.player == player && p.role == role).count();
                assert_eq!(n, ARMY[role.index()] as usize);
            }
        }
    }
}
