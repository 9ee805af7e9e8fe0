//! Shogi-family pieces: roles, pieces on the board, and hands (counted multisets).

use std::fmt;

use crate::player::Player;

/// The unpromoted identity of a shogi-family piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Role {
    King = 0,
    Rook = 1,
    Bishop = 2,
    Gold = 3,
    Silver = 4,
    Knight = 5,
    Lance = 6,
    Pawn = 7,
}

impl Role {
    pub const ALL: [Role; 8] =
        [Role::King, Role::Rook, Role::Bishop, Role::Gold, Role::Silver, Role::Knight, Role::Lance, Role::Pawn];

    /// The roles that can be held in hand in a game where kings are never captured.
    pub const DROPPABLE: [Role; 7] = [Role::Rook, Role::Bishop, Role::Gold, Role::Silver, Role::Knight, Role::Lance, Role::Pawn];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn from_index(index: usize) -> Option<Role> {
        if index < 8 {
            Some(Role::ALL[index])
        } else {
            None
        }
    }

    pub const fn letter(self) -> char {
        match self {
            Role::King => 'K',
            Role::Rook => 'R',
            Role::Bishop => 'B',
            Role::Gold => 'G',
            Role::Silver => 'S',
            Role::Knight => 'N',
            Role::Lance => 'L',
            Role::Pawn => 'P',
        }
    }

    /// The role's English name, as players read it in event texts: `rook`, `gold`, …
    pub const fn name(self) -> &'static str {
        match self {
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

    pub fn from_letter(letter: char) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.letter() == letter)
    }
}

/// What stands on a cell: whose piece, which role, promoted or not.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    pub player: Player,
    pub role: Role,
    pub promoted: bool,
}

impl Piece {
    /// The piece's movement kind: role and promotion together, `0..16`.
    #[inline]
    pub const fn kind(self) -> usize {
        self.role as usize * 2 + self.promoted as usize
    }
}

/// A counted multiset of roles held in hand.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Hand([u8; 8]);

impl Hand {
    pub const EMPTY: Hand = Hand([0; 8]);

    #[inline]
    pub const fn count(&self, role: Role) -> u8 {
        self.0[role as usize]
    }

    #[inline]
    pub fn add(&mut self, role: Role) {
        self.0[role as usize] += 1;
    }

    /// Takes one piece of `role` out of the hand; false when there is none.
    #[inline]
    pub fn take(&mut self, role: Role) -> bool {
        let count = &mut self.0[role as usize];
        if *count == 0 {
            return false;
        }
        *count -= 1;
        true
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&n| n == 0)
    }

    pub fn total(&self) -> u32 {
        self.0.iter().map(|&n| n as u32).sum()
    }

    /// The roles held, each once, in `Role` order.
    pub fn roles(&self) -> impl Iterator<Item = Role> + '_ {
        Role::ALL.into_iter().filter(|&r| self.count(r) > 0)
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut map = f.debug_map();
        for role in self.roles() {
            map.entry(&role.letter(), &self.count(role));
        }
        map.finish()
    }
}
