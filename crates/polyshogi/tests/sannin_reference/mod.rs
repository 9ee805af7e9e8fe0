//! A slow reference for Sannin shogi written from RULES.md alone, shared by
//! tests/reference_movegen.rs (the move generator) and tests/reference_alliances.rs (the
//! compulsory-alliance detector of §1.13).
//!
//! The reference knows cells only by their names (column c, rank R of RULES.md §1.1) and the
//! player-relative hour table of §1.2; it uses none of the library's move tables, attack code,
//! territories or zones, so a mistake in those cannot hide by being made twice.

#![allow(dead_code)]

pub mod detector;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::LazyLock;

use polyshogi::geometry::{Cell, HexNaming, Hour, HEX127};
use polyshogi::variant::sannin::{AlliedPromotion, DeadCellRule, Illumination, SanninPosition, SanninRules, Stalemate};
use polyshogi::{HourSet, Move, Piece, Player, Role};

/// A cell as (column c, rank R) of RULES.md §1.1, rank a = 1 … m = 13.
pub type Sq = (i32, i32);

/// §1.1: a cell exists iff 1 ≤ c ≤ 13, 1 ≤ R ≤ 13 and |c − R| ≤ 6.
pub fn on_board((c, r): Sq) -> bool {
    (1..=13).contains(&c) && (1..=13).contains(&r) && (c - r).abs() <= 6
}

pub fn all_squares() -> impl Iterator<Item = Sq> {
    (1..=13).flat_map(|c| (1..=13).map(move |r| (c, r))).filter(|&sq| on_board(sq))
}

pub fn sq_name((c, r): Sq) -> String {
    format!("{c}{}", (b'a' + (r - 1) as u8) as char)
}

/// The Pleasure Garden, 7g.
pub const GARDEN: Sq = (7, 7);

/// §1.1 territories: First c ≤ 3, Middle R ≥ 11, Last c − R ≥ 4.
pub fn in_territory(player: Player, (c, r): Sq) -> bool {
    match player {
        Player::First => c <= 3,
        Player::Second => r >= 11,
        Player::Third => c - r >= 4,
    }
}

/// §1.7: the far gap edge, where a pawn or lance has no move: Middle rank a, First column
/// 13, Last the edge 1g–7m (c − R = −6).
pub fn on_far_gap_edge(player: Player, (c, r): Sq) -> bool {
    match player {
        Player::First => c == 13,
        Player::Second => r == 1,
        Player::Third => c - r == -6,
    }
}

/// §1.2, "player-relative hour → step in notation terms (Δcolumn, Δrank)"; index 0 is
/// 12 o'clock. Middle's row is also the screen frame, the frame of illumination rays.
const FIRST: [(i32, i32); 12] =
    [(2, 1), (1, 0), (1, -1), (0, -1), (-1, -2), (-1, -1), (-2, -1), (-1, 0), (-1, 1), (0, 1), (1, 2), (1, 1)];
pub const MIDDLE: [(i32, i32); 12] =
    [(-1, -2), (-1, -1), (-2, -1), (-1, 0), (-1, 1), (0, 1), (1, 2), (1, 1), (2, 1), (1, 0), (1, -1), (0, -1)];
const LAST: [(i32, i32); 12] =
    [(-1, 1), (0, 1), (1, 2), (1, 1), (2, 1), (1, 0), (1, -1), (0, -1), (-1, -2), (-1, -1), (-2, -1), (-1, 0)];

pub fn vector(player: Player, hour: usize) -> (i32, i32) {
    match player {
        Player::First => FIRST[hour],
        Player::Second => MIDDLE[hour],
        Player::Third => LAST[hour],
    }
}

pub fn add((c, r): Sq, (dc, dr): (i32, i32)) -> Option<Sq> {
    let to = (c + dc, r + dr);
    on_board(to).then_some(to)
}

/// §1.6, in the owner's hours (12 o'clock = 0): (single steps, unlimited ranges).
fn movement(piece: Piece, rook_keeps_rear_diagonal: bool) -> (&'static [usize], &'static [usize]) {
    const ORTH: &[usize] = &[1, 3, 5, 7, 9, 11];
    const DIAG: &[usize] = &[0, 2, 4, 6, 8, 10];
    const GOLD: &[usize] = &[11, 1, 3, 9, 0, 6];
    const SILVER: &[usize] = &[11, 1, 5, 7, 10, 2];
    match (piece.role, piece.promoted) {
        (Role::King, false) => (ORTH, &[]),
        (Role::King, true) => (&[], &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]),
        (Role::Rook, false) => (&[], &[11, 1, 3, 9, 6]),
        (Role::Rook, true) if rook_keeps_rear_diagonal => (&[], &[1, 3, 5, 7, 9, 11, 6]),
        (Role::Rook, true) => (&[], ORTH),
        (Role::Bishop, false) => (&[], DIAG),
        (Role::Bishop, true) => (ORTH, DIAG),
        (Role::Gold, _) => (GOLD, &[]),
        (Role::Silver, false) => (SILVER, &[]),
        (Role::Silver, true) => (SILVER, &[0, 6]),
        (Role::Knight, _) => (&[3, 9, 2, 4, 8, 10], &[]),
        (Role::Lance, false) => (&[], &[11, 1]),
        (Role::Lance, true) => (&[], &[11, 1, 5, 7]),
        (Role::Pawn, false) => (&[11, 1], &[]),
        (Role::Pawn, true) => (GOLD, &[]),
    }
}

/// How many pawn drops the reference refused because they mate (§1.7), for coverage.
pub static PAWN_DROP_MATES_REFUSED: AtomicUsize = AtomicUsize::new(0);

#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum RefMove {
    Normal {
        from: Sq,
        to: Sq,
        promote: bool,
    },
    Drop {
        role: Role,
        to: Sq,
    },
    /// `rays` are screen hours (Middle's frame), sorted.
    Illuminate {
        from: Sq,
        rays: Vec<usize>,
    },
    Pass,
}

#[derive(Clone)]
pub struct RefPos {
    pub rules: SanninRules,
    /// Indexed [c][R]; row and column 0 are unused.
    pub board: [[Option<Piece>; 14]; 14],
    pub hands: [[u8; 8]; 3],
    pub to_move: Player,
    pub active: [bool; 3],
    pub allies: [bool; 3],
    pub former_allies: [bool; 3],
    pub may_castle: [bool; 3],
    pub illumination_ready: [bool; 3],
}

impl RefPos {
    pub fn at(&self, (c, r): Sq) -> Option<Piece> {
        self.board[c as usize][r as usize]
    }

    fn set(&mut self, (c, r): Sq, piece: Option<Piece>) {
        self.board[c as usize][r as usize] = piece;
    }

    pub fn pieces(&self) -> Vec<(Sq, Piece)> {
        all_squares().filter_map(|sq| self.at(sq).map(|p| (sq, p))).collect()
    }

    pub fn king(&self, player: Player) -> Option<Sq> {
        all_squares().find(|&sq| self.at(sq).is_some_and(|p| p.player == player && p.role == Role::King))
    }

    pub fn ally_of(&self, player: Player) -> Option<Player> {
        if !self.allies[player.index()] {
            return None;
        }
        Player::ALL.into_iter().find(|&p| p != player && self.allies[p.index()])
    }

    fn any_alliance_now_or_ever(&self) -> bool {
        self.allies.iter().any(|&a| a) || self.former_allies.iter().any(|&a| a)
    }

    /// The first occupied cell from `from` in direction `v`; diagonals jump, so only the
    /// landing cells are looked at.
    pub fn first_occupied(&self, from: Sq, v: (i32, i32)) -> Option<Sq> {
        let mut cur = from;
        loop {
            cur = add(cur, v)?;
            if self.at(cur).is_some() {
                return Some(cur);
            }
        }
    }

    /// Whether `piece` standing on `from` attacks `target` (whatever stands there).
    pub fn attacks(&self, from: Sq, piece: Piece, target: Sq) -> bool {
        let (steps, ranges) = movement(piece, self.rules.promoted_rook_keeps_rear_diagonal);
        if steps.iter().any(|&h| add(from, vector(piece.player, h)) == Some(target)) {
            return true;
        }
        ranges.iter().any(|&h| {
            let v = vector(piece.player, h);
            let mut cur = from;
            while let Some(next) = add(cur, v) {
                if next == target {
                    return true;
                }
                if self.at(next).is_some() {
                    return false;
                }
                cur = next;
            }
            false
        })
    }

    /// Whether some piece of a player that `by` accepts attacks `target`.
    pub fn is_attacked_by(&self, target: Sq, by: impl Fn(Player) -> bool) -> bool {
        self.pieces().into_iter().any(|(sq, p)| by(p.player) && sq != target && self.attacks(sq, p, target))
    }

    /// §1.10: attacked by any piece of any other player, allies included.
    pub fn in_check(&self, player: Player) -> bool {
        match self.king(player) {
            Some(k) => self.is_attacked_by(k, |p| p != player),
            None => false,
        }
    }

    /// The cells `piece` on `from` may move to, ignoring check: empty cells and other
    /// players' pieces, never a king (§1.7: kings are never captured).
    fn reach(&self, from: Sq, piece: Piece) -> Vec<Sq> {
        let (steps, ranges) = movement(piece, self.rules.promoted_rook_keeps_rear_diagonal);
        let can_land = |sq: Sq| match self.at(sq) {
            None => true,
            Some(p) => p.player != piece.player && p.role != Role::King,
        };
        let mut out = Vec::new();
        for &h in steps {
            if let Some(to) = add(from, vector(piece.player, h)) {
                if can_land(to) {
                    out.push(to);
                }
            }
        }
        for &h in ranges {
            let v = vector(piece.player, h);
            let mut cur = from;
            while let Some(next) = add(cur, v) {
                if can_land(next) {
                    out.push(next);
                }
                if self.at(next).is_some() {
                    break;
                }
                cur = next;
            }
        }
        out
    }

    /// §1.8 (with §1.13's effects of an alliance on promotion): the promotion versions
    /// of a board move that exist, `false` = unpromoted, `true` = promoted.
    fn promotion_options(&self, mover: Player, piece: Piece, from: Sq, to: Sq) -> Vec<bool> {
        if piece.promoted || matches!(piece.role, Role::Gold | Role::Knight) {
            return vec![false];
        }
        let rules = &self.rules;
        let dead = matches!(piece.role, Role::Pawn | Role::Lance) && on_far_gap_edge(mover, to);
        let king_may_promote = piece.role != Role::King || rules.king_zone_promotion;
        if let (Some(ally), AlliedPromotion::ForcedInAllyTerritory) = (self.ally_of(mover), rules.allied_promotion) {
            // ja.wikipedia's reading: an ally must promote in his ally's territory and
            // cannot promote anywhere else.
            if king_may_promote && (in_territory(ally, from) || in_territory(ally, to)) {
                return vec![true];
            }
            return if dead && rules.dead_cell_rule != DeadCellRule::AllowStuck { vec![] } else { vec![false] };
        }
        let may_promote = if self.allies[mover.index()] {
            false
        } else if self.former_allies[mover.index()] {
            rules.promotion_returns_after_dissolution
        } else {
            true
        };
        // The two opposing territories; the Garden by entering or leaving it, not for a king.
        let in_zone = |sq: Sq| Player::ALL.into_iter().any(|p| p != mover && in_territory(p, sq));
        let by_zone = in_zone(from) || in_zone(to);
        let qualifies = if piece.role == Role::King {
            rules.king_zone_promotion && by_zone
        } else {
            by_zone || from == GARDEN || to == GARDEN
        };
        let normal = if may_promote && qualifies { vec![false, true] } else { vec![false] };
        if !dead {
            return normal;
        }
        match rules.dead_cell_rule {
            // Forced promotion on the far gap edge, granted even outside the zones.
            DeadCellRule::ForcePromote => {
                if may_promote {
                    vec![true]
                } else {
                    vec![]
                }
            }
            DeadCellRule::Illegal => {
                if may_promote && qualifies {
                    vec![true]
                } else {
                    vec![]
                }
            }
            DeadCellRule::AllowStuck => normal,
        }
    }

    /// §1.9: the right to castle now.
    fn may_castle_now(&self, mover: Player, in_check: bool) -> bool {
        self.may_castle[mover.index()] && !self.any_alliance_now_or_ever() && !in_check
    }

    /// Every legal action of `mover`, as if it were his turn.
    pub fn legal_actions(&self, mover: Player) -> Vec<RefMove> {
        let mut legal = Vec::new();
        if !self.active[mover.index()] {
            return legal;
        }
        let Some(king_sq) = self.king(mover) else { return legal };
        let in_check = self.in_check(mover);
        let mut candidates = Vec::new();

        for (from, piece) in self.pieces() {
            if piece.player != mover {
                continue;
            }
            // A set, so that a castling jump onto a cell a step also reaches is one move.
            let mut dests: BTreeSet<Sq> = self.reach(from, piece).into_iter().collect();
            if piece.role == Role::King && self.may_castle_now(mover, in_check) {
                for to in all_squares().filter(|&sq| sq != from && in_territory(mover, sq)) {
                    match self.at(to) {
                        None => {
                            dests.insert(to);
                        }
                        Some(t) if t.player != mover && t.role != Role::King && self.rules.castle_may_capture => {
                            dests.insert(to);
                        }
                        Some(_) => {}
                    }
                }
            }
            for to in dests {
                for promote in self.promotion_options(mover, piece, from, to) {
                    candidates.push(RefMove::Normal { from, to, promote });
                }
            }
        }

        for role in [Role::Rook, Role::Bishop, Role::Gold, Role::Silver, Role::Knight, Role::Lance, Role::Pawn] {
            if self.hands[mover.index()][role.index()] == 0 {
                continue;
            }
            for to in all_squares() {
                if self.at(to).is_some() {
                    continue;
                }
                if matches!(role, Role::Pawn | Role::Lance) && on_far_gap_edge(mover, to) {
                    continue;
                }
                candidates.push(RefMove::Drop { role, to });
            }
        }

        let king = self.at(king_sq).expect("the king stands on its cell");
        if king.promoted && self.illumination_ready[mover.index()] {
            let mut eligible = Vec::new();
            for (hour, &ray) in MIDDLE.iter().enumerate() {
                let Some(target) = self.first_occupied(king_sq, ray) else { continue };
                let t = self.at(target).expect("occupied");
                if t.player == mover || t.role == Role::King {
                    continue;
                }
                // §1.11 / §5 #4: protected = attacked by a piece of either other player,
                // judged before the action.
                if self.is_attacked_by(target, |p| p != mover) {
                    continue;
                }
                eligible.push(hour);
            }
            let subsets: Vec<Vec<usize>> = match self.rules.illumination {
                Illumination::All if eligible.is_empty() => vec![],
                Illumination::All => vec![eligible.clone()],
                Illumination::ExactlyOne => eligible.iter().map(|&h| vec![h]).collect(),
                Illumination::Subset => (1u32..1 << eligible.len())
                    .map(|mask| (0..eligible.len()).filter(|i| mask >> i & 1 == 1).map(|i| eligible[i]).collect())
                    .collect(),
            };
            for rays in subsets {
                candidates.push(RefMove::Illuminate { from: king_sq, rays });
            }
        }

        for m in candidates {
            if self.is_legal(&m, mover) {
                legal.push(m);
            }
        }
        if legal.is_empty() && self.rules.stalemate == Stalemate::Pass && !in_check {
            legal.push(RefMove::Pass);
        }
        legal
    }

    /// Copy-make legality (§1.10, §1.7): the mover's king not attacked by anyone after the
    /// action, the mover's pieces not attacking his ally's king, and no pawn drop that
    /// checks a player who then has no legal action.
    fn is_legal(&self, m: &RefMove, mover: Player) -> bool {
        let mut next = self.clone();
        next.apply(m, mover);
        if next.in_check(mover) {
            return false;
        }
        if let Some(ally) = self.ally_of(mover) {
            if let Some(ally_king) = next.king(ally) {
                if next.is_attacked_by(ally_king, |p| p == mover) {
                    return false;
                }
            }
        }
        if let RefMove::Drop { role: Role::Pawn, to } = *m {
            if self.rules.forbid_pawn_drop_mate {
                let pawn = Piece { player: mover, role: Role::Pawn, promoted: false };
                for victim in Player::ALL.into_iter().filter(|&p| p != mover && next.active[p.index()]) {
                    let Some(victim_king) = next.king(victim) else { continue };
                    if next.attacks(to, pawn, victim_king) && next.legal_actions(victim).is_empty() {
                        PAWN_DROP_MATES_REFUSED.fetch_add(1, Ordering::Relaxed);
                        return false;
                    }
                }
            }
        }
        true
    }

    /// The action's changes to board and hands: captures go to the mover's hand unpromoted.
    pub fn apply(&mut self, m: &RefMove, mover: Player) {
        let hand = mover.index();
        match m {
            RefMove::Normal { from, to, promote } => {
                let mut piece = self.at(*from).expect("a move starts from a piece");
                if let Some(captured) = self.at(*to) {
                    self.hands[hand][captured.role.index()] += 1;
                }
                piece.promoted |= *promote;
                self.set(*from, None);
                self.set(*to, Some(piece));
            }
            RefMove::Drop { role, to } => {
                self.hands[hand][role.index()] -= 1;
                self.set(*to, Some(Piece { player: mover, role: *role, promoted: false }));
            }
            RefMove::Illuminate { from, rays } => {
                for &hour in rays {
                    let target = self.first_occupied(*from, MIDDLE[hour]).expect("a target on each ray");
                    let captured = self.at(target).expect("occupied");
                    self.hands[hand][captured.role.index()] += 1;
                    self.set(target, None);
                }
            }
            RefMove::Pass => {}
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Between the library and the reference: only cell names are shared.
// ---------------------------------------------------------------------------------------------

struct Names {
    sq_of: Vec<Option<Sq>>,
    cell_of: BTreeMap<Sq, Cell>,
}

static NAMES: LazyLock<Names> = LazyLock::new(|| {
    let mut sq_of = vec![None; 128];
    let mut cell_of = BTreeMap::new();
    for sq in all_squares() {
        let name = sq_name(sq);
        let cell = HexNaming::Sannin.parse(&HEX127, &name).expect("§1.1 cells are on the board");
        assert_eq!(HexNaming::Sannin.name(&HEX127, cell), name);
        assert!(sq_of[cell.usize()].is_none(), "two names for one cell");
        sq_of[cell.usize()] = Some(sq);
        cell_of.insert(sq, cell);
    }
    assert_eq!(cell_of.len(), 127);
    assert!(HEX127.cells().all(|c| sq_of[c.usize()].is_some()));
    Names { sq_of, cell_of }
});

pub fn sq(cell: Cell) -> Sq {
    NAMES.sq_of[cell.usize()].expect("a cell of the 127-cell board")
}

pub fn cell(sq: Sq) -> Cell {
    NAMES.cell_of[&sq]
}

pub fn ref_pos(pos: &SanninPosition) -> RefPos {
    let mut board = [[None; 14]; 14];
    for c in HEX127.cells() {
        let (col, rank) = sq(c);
        board[col as usize][rank as usize] = pos.piece_at(c);
    }
    let flags = |f: &dyn Fn(Player) -> bool| Player::ALL.map(f);
    let hands = Player::ALL.map(|p| Role::ALL.map(|r| pos.hand(p).count(r)));
    RefPos {
        rules: *pos.rules(),
        board,
        hands,
        to_move: pos.to_move(),
        active: flags(&|p| pos.active_players().contains(p)),
        allies: flags(&|p| pos.allies().contains(p)),
        former_allies: flags(&|p| pos.former_allies().contains(p)),
        may_castle: flags(&|p| pos.may_castle(p)),
        illumination_ready: flags(&|p| pos.illumination_ready(p)),
    }
}

pub fn to_library(m: &RefMove) -> Move {
    match m {
        RefMove::Normal { from, to, promote } => Move::Normal { from: cell(*from), to: cell(*to), promote: *promote },
        RefMove::Drop { role, to } => Move::Drop { role: *role, to: cell(*to) },
        RefMove::Illuminate { from, rays } => {
            let mut set = HourSet::EMPTY;
            for &h in rays {
                set.insert(Hour::new(h as u8));
            }
            Move::Illuminate { from: cell(*from), rays: set }
        }
        RefMove::Pass => Move::Pass,
    }
}

pub fn from_library(m: Move) -> RefMove {
    match m {
        Move::Normal { from, to, promote } => RefMove::Normal { from: sq(from), to: sq(to), promote },
        Move::Drop { role, to } => RefMove::Drop { role, to: sq(to) },
        Move::Illuminate { from, rays } => RefMove::Illuminate { from: sq(from), rays: rays.iter().map(|h| h.index()).collect() },
        Move::Pass => RefMove::Pass,
    }
}

/// Canonical move text (FORMATS.md), written from the reference's view of the position.
pub fn move_text(pos: &RefPos, m: &RefMove) -> String {
    let name = |s: Sq| sq_name(s);
    match m {
        RefMove::Normal { from, to, promote } => match pos.at(*from) {
            Some(piece) => format!(
                "{}{}{}{}{}{}",
                if piece.promoted { "+" } else { "" },
                piece.role.letter(),
                name(*from),
                if pos.at(*to).is_some() { 'x' } else { '-' },
                name(*to),
                if *promote { "+" } else { "" }
            ),
            None => format!("?{}-{}{} (no piece on the origin)", name(*from), name(*to), if *promote { "+" } else { "" }),
        },
        RefMove::Drop { role, to } => format!("{}*{}", role.letter(), name(*to)),
        RefMove::Illuminate { from, rays } => {
            let mut targets: Vec<Sq> = rays.iter().filter_map(|&h| pos.first_occupied(*from, MIDDLE[h])).collect();
            targets.sort();
            let list: Vec<String> = targets.into_iter().map(name).collect();
            format!("+K{}!{}", name(*from), list.join(","))
        }
        RefMove::Pass => "pass".to_string(),
    }
}

pub fn player_letter(p: Player) -> char {
    ['F', 'M', 'L'][p.index()]
}

/// The position as text a person can set up again: pieces by player with cell names, hands,
/// flags and the non-default rules.
pub fn describe(pos: &SanninPosition) -> String {
    let r = ref_pos(pos);
    let mut out = String::new();
    let flag_list =
        |flags: [bool; 3]| -> String { Player::ALL.into_iter().filter(|p| flags[p.index()]).map(player_letter).collect() };
    out += &format!(
        "  to move {}; active {}; allies {}; former allies {}; may castle {}; illumination ready {}; in check {}\n",
        player_letter(r.to_move),
        flag_list(r.active),
        flag_list(r.allies),
        flag_list(r.former_allies),
        flag_list(r.may_castle),
        flag_list(r.illumination_ready),
        Player::ALL.into_iter().filter(|&p| r.in_check(p)).map(player_letter).collect::<String>(),
    );
    out += &format!("  rules: {}\n", pos.rules().non_default_pairs().join(";"));
    for p in Player::ALL {
        let pieces: Vec<String> = r
            .pieces()
            .into_iter()
            .filter(|(_, pc)| pc.player == p)
            .map(|(s, pc)| format!("{}{}{}", if pc.promoted { "+" } else { "" }, pc.role.letter(), sq_name(s)))
            .collect();
        let hand: Vec<String> = Role::ALL
            .into_iter()
            .filter(|role| r.hands[p.index()][role.index()] > 0)
            .map(|role| format!("{}{}", role.letter(), r.hands[p.index()][role.index()]))
            .collect();
        out += &format!("  {}: {} | hand: {}\n", player_letter(p), pieces.join(" "), hand.join(" "));
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Deterministic randomness, playouts and position variants
// ---------------------------------------------------------------------------------------------

/// xorshift64*: tiny, seeded, reproducible.
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
        (self.next() >> 33) as usize % n
    }

    /// True with `percent` per cent probability.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}
