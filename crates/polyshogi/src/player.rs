//! Players by seat, per-player data (`ByPlayer`) and sets of players.
//! Seats are numbered in turn order; each variant names them (First/Middle/Last, Black/White/Gray).

use std::ops::{Index, IndexMut};

/// A seat, in the game's starting turn order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Player {
    First = 0,
    Second = 1,
    Third = 2,
}

impl Player {
    pub const ALL: [Player; 3] = [Player::First, Player::Second, Player::Third];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn from_index(index: usize) -> Option<Player> {
        match index {
            0 => Some(Player::First),
            1 => Some(Player::Second),
            2 => Some(Player::Third),
            _ => None,
        }
    }

    /// The next seat in a three-player rotation.
    #[inline]
    pub const fn next3(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::Third,
            Player::Third => Player::First,
        }
    }

    /// The two other seats of a three-player game, in turn order after this one.
    #[inline]
    pub const fn others3(self) -> [Player; 2] {
        [self.next3(), self.next3().next3()]
    }
}

/// One value per seat.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct ByPlayer<T>(pub [T; 3]);

impl<T> ByPlayer<T> {
    pub fn new(mut f: impl FnMut(Player) -> T) -> ByPlayer<T> {
        ByPlayer(Player::ALL.map(&mut f))
    }

    pub fn iter(&self) -> impl Iterator<Item = (Player, &T)> {
        Player::ALL.into_iter().zip(self.0.iter())
    }
}

impl<T> Index<Player> for ByPlayer<T> {
    type Output = T;
    #[inline]
    fn index(&self, player: Player) -> &T {
        &self.0[player.index()]
    }
}

impl<T> IndexMut<Player> for ByPlayer<T> {
    #[inline]
    fn index_mut(&mut self, player: Player) -> &mut T {
        &mut self.0[player.index()]
    }
}

/// A set of seats.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct PlayerSet(u8);

impl PlayerSet {
    pub const EMPTY: PlayerSet = PlayerSet(0);

    pub const fn of(players: &[Player]) -> PlayerSet {
        let mut bits = 0;
        let mut i = 0;
        while i < players.len() {
            bits |= 1 << players[i] as u8;
            i += 1;
        }
        PlayerSet(bits)
    }

    #[inline]
    pub const fn contains(self, player: Player) -> bool {
        self.0 & (1 << player as u8) != 0
    }

    #[inline]
    pub fn insert(&mut self, player: Player) {
        self.0 |= 1 << player as u8;
    }

    #[inline]
    pub fn remove(&mut self, player: Player) {
        self.0 &= !(1 << player as u8);
    }

    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn iter(self) -> impl Iterator<Item = Player> {
        Player::ALL.into_iter().filter(move |&p| self.contains(p))
    }

    pub const fn bits(self) -> u8 {
        self.0
    }

    /// The players of `self` that are not in `other`.
    pub const fn without(self, other: PlayerSet) -> PlayerSet {
        PlayerSet(self.0 & !other.0)
    }
}
