//! A slow reference move generator for Hex Shogi 91 and Three Player Hex Shogi 91, written
//! from RULES.md §2 alone, shared by tests/hexshogi91.rs and tests/tphs91.rs.
//!
//! The reference knows cells only by their names, turned into the axial (q, r) of §2.1
//! (`r` from the rank letter, `q = 6 − file − r`), and the per-player hour tables of §2.2; it
//! uses none of the library's tables, zones, attack code or move generator, so a mistake in
//! those cannot hide by being made twice. Legality is copy-make: play the move, look at the
//! king.

#![allow(dead_code)]

use std::collections::BTreeSet;

use polyshogi::geometry::{Cell, HexNaming, HEX91};
use polyshogi::outcome::{DrawReason, Outcome, WinReason};
use polyshogi::variant::hexshogi::{HexShogiPosition, HexShogiRules, HexVariant};
use polyshogi::{Move, Piece, Player, PlayerSet, Role};

/// A cell as axial (q, r), RULES.md §2.1.
pub type Sq = (i32, i32);

/// §2.1: valid iff max(|q|, |r|, |s|) ≤ 5 with s = −q − r.
pub fn on_board((q, r): Sq) -> bool {
    q.abs() <= 5 && r.abs() <= 5 && (q + r).abs() <= 5
}

pub fn all_squares() -> impl Iterator<Item = Sq> {
    (-5..=5).flat_map(|r| (-5..=5).map(move |q| (q, r))).filter(|&sq| on_board(sq))
}

/// §2.1: label = file F = 6 − q − r, then the rank letter, a for r = −5 … k for r = 5.
pub fn sq_name((q, r): Sq) -> String {
    format!("{}{}", 6 - q - r, (b'a' + (r + 5) as u8) as char)
}

pub fn parse_sq(name: &str) -> Sq {
    let (file, rank) = name.split_at(name.len() - 1);
    let r = (rank.as_bytes()[0] - b'a') as i32 - 5;
    let file: i32 = file.parse().expect("a file number");
    let sq = (6 - file - r, r);
    assert!(on_board(sq), "{name} is not a cell");
    sq
}

/// The library's cell for a reference square, through its name.
pub fn cell(sq: Sq) -> Cell {
    HexNaming::HexShogi91.parse(&HEX91, &sq_name(sq)).expect("the names agree")
}

pub fn sq(cell: Cell) -> Sq {
    parse_sq(&HexNaming::HexShogi91.name(&HEX91, cell))
}

/// §2.2 full per-hour tables (index 0 = 12 o'clock), three-player frames.
const BLACK: [Sq; 12] =
    [(1, -2), (1, -1), (2, -1), (1, 0), (1, 1), (0, 1), (-1, 2), (-1, 1), (-2, 1), (-1, 0), (-1, -1), (0, -1)];
const WHITE3: [Sq; 12] =
    [(1, 1), (0, 1), (-1, 2), (-1, 1), (-2, 1), (-1, 0), (-1, -1), (0, -1), (1, -2), (1, -1), (2, -1), (1, 0)];
const GRAY: [Sq; 12] = [(-2, 1), (-1, 0), (-1, -1), (0, -1), (1, -2), (1, -1), (2, -1), (1, 0), (1, 1), (0, 1), (-1, 2), (-1, 1)];

/// §2.3: Black's knight targets from its cell.
const BLACK_KNIGHT: [Sq; 4] = [(-1, -2), (1, -3), (2, -3), (3, -2)];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Game {
    /// Hex Shogi 91: Black faces 12, White faces 6 (the opponent at the top).
    Two,
    /// TPHS91: Black 12, White 4, Gray 8.
    Three,
}

/// The step of `player`'s hour `hour` (0 = 12 o'clock).
pub fn vector(game: Game, player: Player, hour: usize) -> Sq {
    match (game, player) {
        (_, Player::First) => BLACK[hour % 12],
        // Two players: White's 12 o'clock is Black's 6.
        (Game::Two, _) => BLACK[(hour + 6) % 12],
        (Game::Three, Player::Second) => WHITE3[hour % 12],
        (Game::Three, Player::Third) => GRAY[hour % 12],
    }
}

fn add((q, r): Sq, (dq, dr): Sq) -> Sq {
    (q + dq, r + dr)
}

/// §2.3 knight: one orthogonal-forward step (11 or 1) then a diagonal step; for Black this is
/// exactly the list of offsets the rules give.
pub fn knight_offsets(game: Game, player: Player) -> [Sq; 4] {
    let leaps = [(11, 10), (11, 0), (1, 0), (1, 2)].map(|(a, b)| add(vector(game, player, a), vector(game, player, b)));
    if player == Player::First {
        assert_eq!(leaps, BLACK_KNIGHT);
    }
    leaps
}

/// §2.3, in the owner's hours: (steps, ranges, is a knight).
fn movement(piece: Piece) -> (&'static [usize], &'static [usize], bool) {
    const ORTH: &[usize] = &[1, 3, 5, 7, 9, 11];
    const DIAG: &[usize] = &[0, 2, 4, 6, 8, 10];
    const ALL: &[usize] = &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
    const GOLD: &[usize] = &[1, 3, 5, 7, 9, 11, 10, 0, 2];
    const SILVER: &[usize] = &[0, 2, 4, 6, 8, 10, 11, 1];
    match (piece.role, piece.promoted) {
        (Role::King, _) => (ALL, &[], false),
        (Role::Gold, _) => (GOLD, &[], false),
        (Role::Silver, false) => (SILVER, &[], false),
        (Role::Rook, false) => (&[], ORTH, false),
        (Role::Rook, true) => (DIAG, ORTH, false),
        (Role::Bishop, false) => (&[], DIAG, false),
        (Role::Bishop, true) => (ORTH, DIAG, false),
        (Role::Lance, false) => (&[], &[11, 1], false),
        (Role::Knight, false) => (&[], &[], true),
        (Role::Pawn, false) => (&[11, 1], &[], false),
        // Promoted silver, knight, lance and pawn move as a gold.
        (_, true) => (GOLD, &[], false),
    }
}

/// §2.4 and §2.7 [DER]: the promotion zone. Two players: the opponent's four first ranks.
/// Three players: the three far ranks in one's own frame.
pub fn in_zone(game: Game, player: Player, (q, r): Sq) -> bool {
    let s = -q - r;
    match (game, player) {
        (Game::Two, Player::First) => r <= -2,
        (Game::Two, _) => r >= 2,
        (Game::Three, Player::First) => r <= -3,
        (Game::Three, Player::Second) => s <= -3,
        (Game::Three, Player::Third) => q <= -3,
    }
}

/// How many ranks before the far edge of `player`'s frame: 0 on the last rank, 1 on the one
/// before (§2.4, §2.5, §2.7).
pub fn ranks_from_far_edge(game: Game, player: Player, (q, r): Sq) -> i32 {
    let s = -q - r;
    match (game, player) {
        (_, Player::First) => r + 5,
        (Game::Two, _) => 5 - r,
        (Game::Three, Player::Second) => s + 5,
        (Game::Three, Player::Third) => q + 5,
    }
}

/// Where an unpromoted piece could never move again: pawn and lance on the last rank, knight
/// on the last two.
pub fn is_dead_cell(game: Game, player: Player, role: Role, sq: Sq) -> bool {
    let far = ranks_from_far_edge(game, player, sq);
    match role {
        Role::Pawn | Role::Lance => far == 0,
        Role::Knight => far <= 1,
        _ => false,
    }
}

#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum RefMove {
    Normal { from: Sq, to: Sq, promote: bool },
    Drop { role: Role, to: Sq },
    Pass,
}

/// Why the reference refused a pawn drop, for coverage counts.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Refusals {
    pub pawn_support: usize,
    pub pawn_attacks_king: usize,
    pub dead_cell: usize,
    pub not_the_king_first: usize,
    pub self_check: usize,
}

#[derive(Clone)]
pub struct RefPos {
    pub game: Game,
    pub rules: HexShogiRules,
    /// Indexed [q + 5][r + 5].
    pub board: [[Option<Piece>; 11]; 11],
    pub hands: [[u8; 8]; 3],
    pub to_move: Player,
    pub plies_without_capture: u32,
    pub passes_in_a_row: u32,
}

impl RefPos {
    pub fn from_library(pos: &HexShogiPosition) -> RefPos {
        let game = match pos.hex_variant() {
            HexVariant::HexShogi91 => Game::Two,
            HexVariant::Tphs91 => Game::Three,
        };
        let mut r = RefPos {
            game,
            rules: *pos.rules(),
            board: [[None; 11]; 11],
            hands: [[0; 8]; 3],
            to_move: pos.to_move(),
            plies_without_capture: pos.plies_without_capture(),
            passes_in_a_row: pos.passes_in_a_row() as u32,
        };
        for c in HEX91.cells() {
            r.set(sq(c), pos.piece_at(c));
        }
        for p in Player::ALL {
            for role in Role::ALL {
                r.hands[p.index()][role.index()] = pos.hand(p).count(role);
            }
        }
        r
    }

    pub fn seats(&self) -> &'static [Player] {
        match self.game {
            Game::Two => &[Player::First, Player::Second],
            Game::Three => &Player::ALL,
        }
    }

    pub fn next_player(&self, p: Player) -> Player {
        match (self.game, p) {
            (Game::Two, Player::First) => Player::Second,
            (Game::Two, _) => Player::First,
            (Game::Three, p) => Player::from_index((p.index() + 1) % 3).unwrap(),
        }
    }

    pub fn at(&self, (q, r): Sq) -> Option<Piece> {
        self.board[(q + 5) as usize][(r + 5) as usize]
    }

    pub fn set(&mut self, (q, r): Sq, piece: Option<Piece>) {
        self.board[(q + 5) as usize][(r + 5) as usize] = piece;
    }

    pub fn pieces(&self) -> Vec<(Sq, Piece)> {
        all_squares().filter_map(|sq| self.at(sq).map(|p| (sq, p))).collect()
    }

    pub fn has_pieces(&self, p: Player) -> bool {
        self.pieces().iter().any(|(_, pc)| pc.player == p) || self.hands[p.index()].iter().any(|&n| n > 0)
    }

    pub fn kings_held(&self, p: Player) -> u32 {
        let on_board = self.pieces().iter().filter(|(_, pc)| pc.player == p && pc.role == Role::King).count() as u32;
        on_board + self.hands[p.index()][Role::King.index()] as u32
    }

    /// Whether `piece` standing on `from` attacks `target`.
    pub fn attacks(&self, from: Sq, piece: Piece, target: Sq) -> bool {
        let (steps, ranges, knight) = movement(piece);
        if knight {
            return knight_offsets(self.game, piece.player).iter().any(|&d| add(from, d) == target);
        }
        if steps.iter().any(|&h| add(from, vector(self.game, piece.player, h)) == target) {
            return true;
        }
        ranges.iter().any(|&h| {
            let v = vector(self.game, piece.player, h);
            let mut cur = add(from, v);
            while on_board(cur) {
                if cur == target {
                    return true;
                }
                if self.at(cur).is_some() {
                    return false;
                }
                cur = add(cur, v);
            }
            false
        })
    }

    /// Two players: `player`'s king attacked by any enemy piece.
    pub fn in_check(&self, player: Player) -> bool {
        if self.game == Game::Three {
            return false;
        }
        let pieces = self.pieces();
        let Some(&(king, _)) = pieces.iter().find(|(_, p)| p.player == player && p.role == Role::King) else {
            return false;
        };
        pieces.iter().any(|&(from, p)| p.player != player && self.attacks(from, p, king))
    }

    /// The cells `piece` on `from` may move to: empty cells and other players' pieces.
    fn reach(&self, from: Sq, piece: Piece) -> Vec<Sq> {
        let all: Vec<Sq> = all_squares().collect();
        all.into_iter()
            .filter(|&to| to != from && self.at(to).is_none_or(|t| t.player != piece.player) && self.attacks(from, piece, to))
            .collect()
    }

    /// §2.4: which versions of a board move exist.
    fn promotion_options(&self, piece: Piece, from: Sq, to: Sq) -> Vec<bool> {
        if piece.promoted || matches!(piece.role, Role::King | Role::Gold) {
            return vec![false];
        }
        if is_dead_cell(self.game, piece.player, piece.role, to) {
            return vec![true];
        }
        let zone = |sq| in_zone(self.game, piece.player, sq);
        if zone(from) || zone(to) {
            vec![false, true]
        } else {
            vec![false]
        }
    }

    /// Every legal action of the player to move, with the reasons drops were refused.
    pub fn legal_moves(&self, refusals: &mut Refusals) -> Vec<RefMove> {
        let mover = self.to_move;
        if self.game == Game::Three && !self.has_pieces(mover) {
            return vec![RefMove::Pass];
        }
        let mut candidates = Vec::new();
        for (from, piece) in self.pieces() {
            if piece.player != mover {
                continue;
            }
            for to in self.reach(from, piece) {
                for promote in self.promotion_options(piece, from, to) {
                    candidates.push(RefMove::Normal { from, to, promote });
                }
            }
        }
        let hand = self.hands[mover.index()];
        let king_in_hand = hand[Role::King.index()] > 0;
        for role in Role::ALL {
            if hand[role.index()] == 0 {
                continue;
            }
            for to in all_squares().filter(|&sq| self.at(sq).is_none()) {
                // §2.7: while a king is held, only kings may be dropped (anywhere empty).
                if king_in_hand && role != Role::King {
                    refusals.not_the_king_first += 1;
                    continue;
                }
                if is_dead_cell(self.game, mover, role, to) {
                    refusals.dead_cell += 1;
                    continue;
                }
                if role == Role::Pawn {
                    let pawn = Piece { player: mover, role: Role::Pawn, promoted: false };
                    let supported = self.pieces().iter().any(|&(from, p)| p == pawn && self.attacks(from, p, to));
                    if supported && self.rules.pawn_drop_no_pawn_support {
                        refusals.pawn_support += 1;
                        continue;
                    }
                    let attacks_king = self
                        .pieces()
                        .iter()
                        .any(|&(k, p)| p.role == Role::King && p.player != mover && self.attacks(to, pawn, k));
                    if attacks_king && self.rules.pawn_drop_may_not_attack_king {
                        refusals.pawn_attacks_king += 1;
                        continue;
                    }
                }
                candidates.push(RefMove::Drop { role, to });
            }
        }
        let mut legal = Vec::new();
        for m in candidates {
            if self.game == Game::Two {
                let mut next = self.clone();
                next.apply_pieces(&m);
                if next.in_check(mover) {
                    refusals.self_check += 1;
                    continue;
                }
            }
            legal.push(m);
        }
        if self.game == Game::Three && legal.is_empty() {
            legal.push(RefMove::Pass);
        }
        legal
    }

    /// The move's changes to board and hands; returns whether it captured.
    fn apply_pieces(&mut self, m: &RefMove) -> bool {
        let mover = self.to_move;
        match *m {
            RefMove::Normal { from, to, promote } => {
                let mut piece = self.at(from).expect("a piece moves");
                let captured = self.at(to);
                if let Some(c) = captured {
                    self.hands[mover.index()][c.role.index()] += 1;
                }
                piece.promoted |= promote;
                self.set(from, None);
                self.set(to, Some(piece));
                captured.is_some()
            }
            RefMove::Drop { role, to } => {
                self.hands[mover.index()][role.index()] -= 1;
                self.set(to, Some(Piece { player: mover, role, promoted: false }));
                false
            }
            RefMove::Pass => false,
        }
    }

    fn with_pieces(&self) -> PlayerSet {
        let mut set = PlayerSet::EMPTY;
        for &p in self.seats() {
            if self.has_pieces(p) {
                set.insert(p);
            }
        }
        set
    }

    /// Plays a legal move and returns the outcome the rules give (§2.6, §2.7), repetition
    /// aside (that needs the history).
    pub fn play(&mut self, m: &RefMove) -> Option<Outcome> {
        let mover = self.to_move;
        let had_pieces = self.has_pieces(mover);
        let captured = self.apply_pieces(m);
        self.plies_without_capture = if captured { 0 } else { self.plies_without_capture + 1 };
        self.to_move = self.next_player(mover);
        match self.game {
            Game::Three => {
                match m {
                    RefMove::Pass if had_pieces => self.passes_in_a_row += 1,
                    RefMove::Pass => {}
                    _ => self.passes_in_a_row = 0,
                }
                if self.kings_held(mover) == 3 {
                    return Some(Outcome::Win { winner: mover, reason: WinReason::KingsCollected });
                }
                if self.passes_in_a_row >= self.with_pieces().len() {
                    return Some(Outcome::Draw { players: self.with_pieces(), reason: DrawReason::AllPassed });
                }
            }
            Game::Two => {
                if self.legal_moves(&mut Refusals::default()).is_empty() {
                    return Some(if self.in_check(self.to_move) {
                        Outcome::Win { winner: mover, reason: WinReason::Checkmate }
                    } else {
                        Outcome::Draw { players: self.with_pieces(), reason: DrawReason::Stalemate }
                    });
                }
            }
        }
        let limit = self.rules.no_capture_limit_plies;
        if limit > 0 && self.plies_without_capture >= limit {
            return Some(Outcome::Draw { players: self.with_pieces(), reason: DrawReason::NoCapture });
        }
        None
    }
}

pub fn to_library(m: &RefMove) -> Move {
    match *m {
        RefMove::Normal { from, to, promote } => Move::Normal { from: cell(from), to: cell(to), promote },
        RefMove::Drop { role, to } => Move::Drop { role, to: cell(to) },
        RefMove::Pass => Move::Pass,
    }
}

pub fn from_library(m: Move) -> RefMove {
    match m {
        Move::Normal { from, to, promote } => RefMove::Normal { from: sq(from), to: sq(to), promote },
        Move::Drop { role, to } => RefMove::Drop { role, to: sq(to) },
        Move::Pass => RefMove::Pass,
        Move::Illuminate { .. } => panic!("no illumination in Hex Shogi"),
    }
}

pub fn move_name(m: &RefMove) -> String {
    match m {
        RefMove::Normal { from, to, promote } => {
            format!("{}-{}{}", sq_name(*from), sq_name(*to), if *promote { "+" } else { "" })
        }
        RefMove::Drop { role, to } => format!("{}*{}", role.letter(), sq_name(*to)),
        RefMove::Pass => "pass".into(),
    }
}

/// The difference between the reference's and the library's legal moves, or `None`.
pub fn compare(pos: &HexShogiPosition, refusals: &mut Refusals) -> Option<String> {
    let reference = RefPos::from_library(pos);
    let expected: BTreeSet<RefMove> =
        if pos.outcome().is_some() { BTreeSet::new() } else { reference.legal_moves(refusals).into_iter().collect() };
    let mut moves = polyshogi::MoveList::new();
    pos.legal_moves(&mut moves);
    let got: BTreeSet<RefMove> = moves.iter().map(|&m| from_library(m)).collect();
    if got.len() != moves.len() {
        return Some("the library listed a move twice".into());
    }
    if expected != got {
        let missing: Vec<String> = expected.difference(&got).map(move_name).collect();
        let extra: Vec<String> = got.difference(&expected).map(move_name).collect();
        return Some(format!("{pos:?}\nmissing {missing:?}\nextra {extra:?}"));
    }
    compare_captures_and_quiet_moves(pos, &moves).or_else(|| compare_legality(pos, &moves))
}

/// `is_legal_move` against the full list, on its moves and on moves it does not hold: with two
/// players, every move (plain and promoting) from each of the mover's cells to every cell, and
/// every drop on every cell; with three players (where it lists), a few of those.
fn compare_legality(pos: &HexShogiPosition, moves: &polyshogi::MoveList) -> Option<String> {
    let cells: Vec<Cell> = HEX91.cells().collect();
    let own: Vec<Cell> = pos.occupied().filter(|&c| pos.piece_at(c).is_some_and(|p| p.player == pos.to_move())).collect();
    let board_moves = own
        .iter()
        .flat_map(|&from| cells.iter().flat_map(move |&to| [false, true].map(|promote| Move::Normal { from, to, promote })));
    let drops = Role::ALL.into_iter().flat_map(|role| cells.iter().map(move |&to| Move::Drop { role, to }));
    let others: Vec<Move> = board_moves.chain(drops).chain([Move::Pass]).collect();
    let step = if pos.is_three_player() { 97 } else { 1 };
    let candidates = moves.iter().copied().chain(others.into_iter().step_by(step));
    candidates
        .filter(|&m| pos.is_legal_move(m) != moves.contains(&m))
        .map(|m| format!("{pos:?}\nis_legal_move({m:?}) says {}, the list {}", pos.is_legal_move(m), moves.contains(&m)))
        .next()
}

/// The capture and quiet-move generators against the full list: the moves onto another
/// player's piece, and the others, each in the list's order (the engine's move ordering breaks
/// ties by it).
fn compare_captures_and_quiet_moves(pos: &HexShogiPosition, moves: &polyshogi::MoveList) -> Option<String> {
    let takes = |m: &Move| match *m {
        Move::Normal { to, .. } => pos.piece_at(to).is_some_and(|p| p.player != pos.to_move()),
        _ => false,
    };
    let (expected_captures, expected_quiet): (Vec<Move>, Vec<Move>) = moves.iter().copied().partition(takes);
    let mut captures = polyshogi::MoveList::new();
    pos.legal_captures(&mut captures);
    if captures.as_slice() != expected_captures.as_slice() {
        return Some(format!("{pos:?}\ncaptures listed {captures:?}\nexpected {expected_captures:?}"));
    }
    let mut quiet = polyshogi::MoveList::new();
    pos.push_quiet_moves(&mut quiet);
    (quiet.as_slice() != expected_quiet.as_slice())
        .then(|| format!("{pos:?}\nquiet moves listed {quiet:?}\nexpected {expected_quiet:?}"))
}

/// A tiny deterministic generator (xorshift64*), so failures reproduce.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}
