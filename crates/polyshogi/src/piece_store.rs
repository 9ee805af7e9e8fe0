//! The pieces of the shogi games with drops (Sannin, Hex Shogi 91 and its three-player form):
//! a piece code per cell, each player's cells, the occupied cells, the hands, and the running
//! Zobrist hash of all of them. Every change goes through `put`, `clear` and the hand methods,
//! so the cell sets and the hash always agree with the board.

use std::fmt;
use std::marker::PhantomData;

use crate::cellset::CellSet;
use crate::geometry::Cell;
use crate::mv::HourSet;
use crate::piece::{Hand, Piece, Role};
use crate::player::{ByPlayer, Player};
use crate::zobrist::{self, HandKeys};

/// A piece as one byte: 0 for an empty cell, else `1 + player × 16 + kind`.
pub type Code = u8;

/// The number of codes, the empty cell's included.
pub const CODES: usize = 1 + 3 * 16;

#[inline]
pub const fn code_of(piece: Piece) -> Code {
    1 + piece.player as u8 * 16 + piece.kind() as u8
}

/// The piece of a code, `None` for the empty cell and for codes no piece has.
#[inline]
pub fn piece_of(code: Code) -> Option<Piece> {
    PIECES[code as usize]
}

/// Every code's piece, worked out once: the evaluations and the generators read the pieces of
/// whole boards at every node, where decoding each code cost more than the rest of the read.
static PIECES: [Option<Piece>; 256] = decoded_pieces();

const fn decoded_pieces() -> [Option<Piece>; 256] {
    let mut pieces = [None; 256];
    let mut code = 1;
    while code < CODES {
        let v = code - 1;
        if let (Some(player), Some(role)) = (Player::from_index(v / 16), Role::from_index(v % 16 / 2)) {
            pieces[code] = Some(Piece { player, role, promoted: v % 2 == 1 });
        }
        code += 1;
    }
    pieces
}

/// The Zobrist keys of pieces on cells and of counts in hand, for one game.
pub(crate) struct MaterialKeys {
    pieces: [[u64; 128]; CODES],
    hands: HandKeys,
}

impl MaterialKeys {
    /// Keys numbered from the game's own feature `base` (see `zobrist`).
    pub(crate) const fn new(base: u64) -> MaterialKeys {
        MaterialKeys { pieces: zobrist::piece_keys(base), hands: zobrist::hand_keys(base) }
    }

    #[inline]
    fn piece(&self, code: Code, cell: Cell) -> u64 {
        self.pieces[code as usize][cell.usize()]
    }

    #[inline]
    fn hand_count(&self, player: Player, role: Role, count: u8) -> u64 {
        zobrist::hand_key(&self.hands, player, role, count)
    }

    fn hand(&self, player: Player, hand: &Hand) -> u64 {
        zobrist::whole_hand_key(&self.hands, player, hand)
    }
}

/// Which game's keys a store hashes with. A type rather than a field, so that the keys are a
/// static address in the hot path and not a pointer to follow.
pub(crate) trait GameKeys {
    fn keys() -> &'static MaterialKeys;
}

/// Board and hands, with the derived cell sets and hash kept in step.
pub struct PieceStore<K> {
    board: [Code; 128],
    by_player: ByPlayer<CellSet>,
    occupied: CellSet,
    hands: ByPlayer<Hand>,
    material_key: u64,
    /// Each player's share of `material_key` for his pieces on the board: what an
    /// evaluation may key facts about one player's placement by.
    board_keys: ByPlayer<u64>,
    keys: PhantomData<K>,
}

impl<K: GameKeys> PieceStore<K> {
    /// An empty board and empty hands.
    pub(crate) fn new() -> PieceStore<K> {
        PieceStore {
            board: [0; 128],
            by_player: ByPlayer::default(),
            occupied: CellSet::EMPTY,
            hands: ByPlayer::default(),
            material_key: 0,
            board_keys: ByPlayer::default(),
            keys: PhantomData,
        }
    }

    /// The code of the piece on `cell` (0 when empty).
    #[inline]
    pub fn code(&self, cell: Cell) -> Code {
        self.board[cell.usize()]
    }

    #[inline]
    pub fn piece_at(&self, cell: Cell) -> Option<Piece> {
        piece_of(self.code(cell))
    }

    #[inline]
    pub fn occupied(&self) -> CellSet {
        self.occupied
    }

    #[inline]
    pub fn pieces_of(&self, player: Player) -> CellSet {
        self.by_player[player]
    }

    /// The cells `player`'s pieces attack, each piece's reach given by `reach` from its code
    /// and cell, and the sum of `kind_values` (by `Piece::kind`) over the same pieces: an
    /// evaluation's attack map and material on the board in one pass over the pieces.
    #[inline]
    pub fn attacks_and_value(
        &self,
        player: Player,
        kind_values: &[i32; 16],
        reach: impl Fn(usize, Cell) -> CellSet,
    ) -> (CellSet, i32) {
        // A code is `1 + player × 16 + kind`.
        let first_code = 1 + player as usize * 16;
        let mut map = CellSet::EMPTY;
        let mut value = 0;
        for from in self.by_player[player] {
            let code = self.board[from.usize()] as usize;
            map |= reach(code, from);
            value += kind_values[code - first_code];
        }
        (map, value)
    }

    /// The first part of `attacks_and_value` split in two, for an evaluation that keeps it:
    /// the cells `player`'s pieces attack by their steps and leaps (`step_targets`, by code
    /// and cell) and the value of his pieces, both fixed by where his pieces stand
    /// (`board_key`).
    #[inline]
    pub fn step_map_and_value(&self, player: Player, kind_values: &[i32; 16], step_targets: &[[CellSet; 128]]) -> (CellSet, i32) {
        self.attacks_and_value(player, kind_values, |code, from| step_targets[code][from.usize()])
    }

    /// The second part: `player`'s pieces on `rangers`, each with the hours it ranges along
    /// (`range_hours`, by code). What they reach depends on the whole board.
    #[inline]
    pub fn ranging_pieces<'a>(
        &'a self,
        player: Player,
        rangers: CellSet,
        range_hours: &'a [HourSet; CODES],
    ) -> impl Iterator<Item = (Cell, HourSet)> + 'a {
        (self.by_player[player] & rangers).into_iter().map(|from| (from, range_hours[self.code(from) as usize]))
    }

    #[inline]
    pub fn hand(&self, player: Player) -> &Hand {
        &self.hands[player]
    }

    pub fn hands(&self) -> ByPlayer<Hand> {
        self.hands
    }

    /// The Zobrist hash of board and hands, kept up to date by every change.
    #[inline]
    pub fn material_key(&self) -> u64 {
        self.material_key
    }

    /// The hash of `player`'s pieces on the board (the board's share of `material_key`), kept
    /// up to date by every change: equal for two boards where he has the same pieces on the
    /// same cells, whatever the other players have.
    #[inline]
    pub fn board_key(&self, player: Player) -> u64 {
        self.board_keys[player]
    }

    /// `board_key` computed from scratch, to check the running one.
    #[cfg(test)]
    pub(crate) fn recomputed_board_key(&self, player: Player) -> u64 {
        self.by_player[player].into_iter().fold(0, |key, cell| key ^ K::keys().piece(self.code(cell), cell))
    }

    /// The hash of board and hands computed from scratch, to check the running one.
    pub fn recomputed_material_key(&self) -> u64 {
        let keys = K::keys();
        let board = self.occupied.into_iter().fold(0, |key, cell| key ^ keys.piece(self.code(cell), cell));
        Player::ALL.into_iter().fold(board, |key, player| key ^ keys.hand(player, &self.hands[player]))
    }

    /// Puts `piece` on the empty `cell`; returns its code, for a game's own tables.
    #[inline]
    pub(crate) fn put(&mut self, cell: Cell, piece: Piece) -> Code {
        let code = code_of(piece);
        self.board[cell.usize()] = code;
        self.by_player[piece.player].insert(cell);
        self.occupied.insert(cell);
        let key = K::keys().piece(code, cell);
        self.material_key ^= key;
        self.board_keys[piece.player] ^= key;
        code
    }

    /// Empties `cell`, returning what stood there.
    #[inline]
    pub(crate) fn clear(&mut self, cell: Cell) -> Option<Piece> {
        let code = self.board[cell.usize()];
        let piece = piece_of(code)?;
        self.board[cell.usize()] = 0;
        self.by_player[piece.player].remove(cell);
        self.occupied.remove(cell);
        let key = K::keys().piece(code, cell);
        self.material_key ^= key;
        self.board_keys[piece.player] ^= key;
        Some(piece)
    }

    #[inline]
    pub(crate) fn add_to_hand(&mut self, player: Player, role: Role) {
        let count = self.hands[player].count(role);
        let keys = K::keys();
        self.material_key ^= keys.hand_count(player, role, count) ^ keys.hand_count(player, role, count + 1);
        self.hands[player].add(role);
    }

    #[inline]
    pub(crate) fn take_from_hand(&mut self, player: Player, role: Role) {
        let count = self.hands[player].count(role);
        if self.hands[player].take(role) {
            let keys = K::keys();
            self.material_key ^= keys.hand_count(player, role, count) ^ keys.hand_count(player, role, count - 1);
        }
    }

    pub(crate) fn set_hand(&mut self, player: Player, hand: Hand) {
        let keys = K::keys();
        self.material_key ^= keys.hand(player, &self.hands[player]) ^ keys.hand(player, &hand);
        self.hands[player] = hand;
    }
}

// By hand rather than derived: a derive would ask the same of the key marker `K`. Copy, so
// that a position holding a store can copy it with its other plain fields in one block.
impl<K> Clone for PieceStore<K> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<K> Copy for PieceStore<K> {}

/// Two stores are equal when their boards and hands are: everything else follows from those.
impl<K> PartialEq for PieceStore<K> {
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board && self.hands == other.hands
    }
}

impl<K> Eq for PieceStore<K> {}

impl<K> fmt::Debug for PieceStore<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pieces: Vec<_> = self.occupied.map(|c| (c.index(), piece_of(self.board[c.usize()]))).collect();
        f.debug_struct("PieceStore").field("pieces", &pieces).field("hands", &self.hands).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_every_piece() {
        for code in 1..CODES as u8 {
            let piece = piece_of(code).expect("every code below CODES is a piece");
            assert_eq!(code_of(piece), code);
        }
        for player in Player::ALL {
            for role in Role::ALL {
                for promoted in [false, true] {
                    let piece = Piece { player, role, promoted };
                    assert_eq!(piece_of(code_of(piece)), Some(piece));
                }
            }
        }
        assert_eq!(piece_of(0), None);
        assert!((CODES..256).all(|code| piece_of(code as u8).is_none()));
    }
}
