//! Cross-checks Sannin shogi's fast legal move generator against a slow reference generator
//! written from RULES.md alone, and checks that a 120° rotation commutes with move generation.
//!
//! The reference knows cells only by their names (column c, rank R of RULES.md §1.1) and the
//! player-relative hour table of §1.2; it uses none of the library's move tables, attack code,
//! territories or zones, so a mistake in those cannot hide by being made twice.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::LazyLock;

use polyshogi::geometry::{Cell, HexNaming, Hour, HEX127};
use polyshogi::perft::perft;
use polyshogi::variant::sannin::{Compulsory, SanninGame, SanninPosition, SanninRules, SanninSetup};
use polyshogi::{ByPlayer, Event, Hand, HourSet, Move, MoveList, Piece, Player, PlayerSet, Role};
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------------
// The reference generator
// ---------------------------------------------------------------------------------------------

mod reference {
    use super::*;
    use polyshogi::variant::sannin::{AlliedPromotion, DeadCellRule, Illumination, Stalemate};

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
}

use reference::{RefMove, RefPos, Sq};

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
    for sq in reference::all_squares() {
        let name = reference::sq_name(sq);
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

fn sq(cell: Cell) -> Sq {
    NAMES.sq_of[cell.usize()].expect("a cell of the 127-cell board")
}

fn cell(sq: Sq) -> Cell {
    NAMES.cell_of[&sq]
}

fn ref_pos(pos: &SanninPosition) -> RefPos {
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

fn to_library(m: &RefMove) -> Move {
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

fn from_library(m: Move) -> RefMove {
    match m {
        Move::Normal { from, to, promote } => RefMove::Normal { from: sq(from), to: sq(to), promote },
        Move::Drop { role, to } => RefMove::Drop { role, to: sq(to) },
        Move::Illuminate { from, rays } => RefMove::Illuminate { from: sq(from), rays: rays.iter().map(|h| h.index()).collect() },
        Move::Pass => RefMove::Pass,
    }
}

/// Canonical move text (FORMATS.md), written from the reference's view of the position.
fn move_text(pos: &RefPos, m: &RefMove) -> String {
    let name = |s: Sq| reference::sq_name(s);
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
            let mut targets: Vec<Sq> = rays.iter().filter_map(|&h| pos.first_occupied(*from, reference::MIDDLE[h])).collect();
            targets.sort();
            let list: Vec<String> = targets.into_iter().map(name).collect();
            format!("+K{}!{}", name(*from), list.join(","))
        }
        RefMove::Pass => "pass".to_string(),
    }
}

fn player_letter(p: Player) -> char {
    ['F', 'M', 'L'][p.index()]
}

/// The position as text a person can set up again: pieces by player with cell names, hands,
/// flags and the non-default rules.
fn describe(pos: &SanninPosition) -> String {
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
            .map(|(s, pc)| format!("{}{}{}", if pc.promoted { "+" } else { "" }, pc.role.letter(), reference::sq_name(s)))
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
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() >> 33) as usize % n
    }

    /// True with `percent` per cent probability.
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// The default rules with compulsory alliances off: the reference models the rules core, and
/// the alliance detector (which also bars some checking moves) has its own tests.
fn base_rules() -> SanninRules {
    SanninRules { compulsory: Compulsory::Off, ..SanninRules::default() }
}

fn rules_with(options: &[&str]) -> SanninRules {
    let mut rules = base_rules();
    for option in options {
        rules.set(option).expect("a known rule option");
    }
    rules
}

fn is_capture(pos: &SanninPosition, m: &Move) -> bool {
    match *m {
        Move::Normal { to, .. } => pos.piece_at(to).is_some(),
        Move::Illuminate { .. } => true,
        _ => false,
    }
}

/// A random legal move, biased toward captures and drops so that hands fill and get used.
fn biased_move(pos: &SanninPosition, moves: &[Move], rng: &mut Rng) -> Move {
    let roll = rng.below(100);
    if roll < 50 {
        let captures: Vec<Move> = moves.iter().copied().filter(|m| is_capture(pos, m)).collect();
        if !captures.is_empty() {
            return rng.pick(&captures);
        }
    } else if roll < 70 {
        let drops: Vec<Move> = moves.iter().copied().filter(|m| matches!(m, Move::Drop { .. })).collect();
        if !drops.is_empty() {
            return rng.pick(&drops);
        }
    }
    rng.pick(moves)
}

/// Plays up to `plies` biased random moves from `start`, calling `visit` on every position
/// reached before the game ends (the start included).
fn playout(start: SanninPosition, plies: usize, rng: &mut Rng, mut visit: impl FnMut(&SanninPosition)) -> SanninPosition {
    let mut pos = start;
    let mut moves = MoveList::new();
    for _ in 0..=plies {
        if pos.outcome().is_some() {
            break;
        }
        visit(&pos);
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let m = biased_move(&pos, &moves, rng);
        pos.play_unchecked(m);
    }
    pos
}

/// Takes `victim` out of a playout position as if he had been mated: his pieces leave the
/// board; unlike a real elimination his non-king pieces go to the others' hands, which gives
/// the survivors plenty to drop. An alliance he belonged to as lone player dissolves.
fn eliminate(setup: &SanninSetup, victim: Player, rng: &mut Rng) -> Option<SanninSetup> {
    let mut s = setup.clone();
    if s.allies.contains(victim) || s.eliminated.contains(victim) {
        return None;
    }
    if !s.allies.is_empty() {
        s.former_allies = s.allies;
        s.allies = PlayerSet::EMPTY;
    }
    let survivors: Vec<Player> = Player::ALL.into_iter().filter(|&p| p != victim && !s.eliminated.contains(p)).collect();
    let mut hands = s.hands;
    for (_, piece) in s.pieces.iter().filter(|(_, pc)| pc.player == victim && pc.role != Role::King) {
        hands[rng.pick(&survivors)].add(piece.role);
    }
    for role in Role::DROPPABLE {
        for _ in 0..hands[victim].count(role) {
            hands[rng.pick(&survivors)].add(role);
        }
    }
    hands[victim] = Hand::EMPTY;
    s.hands = hands;
    s.pieces.retain(|(_, pc)| pc.player != victim);
    s.eliminated.insert(victim);
    s.may_castle[victim] = false;
    if s.to_move == victim {
        s.to_move = survivors[0];
    }
    Some(s)
}

/// Rebuilds a constructed setup with `may_castle` cleared for kings now in check: the flag
/// means "never moved, never checked", so a constructed position must not claim otherwise
/// (done here rather than trusting the constructor to do it).
fn validate(setup: SanninSetup, rules: SanninRules) -> Option<SanninPosition> {
    let pos = SanninPosition::from_setup(setup, rules).ok()?;
    let mut setup = pos.to_setup();
    let r = ref_pos(&pos);
    for p in Player::ALL {
        if r.in_check(p) {
            setup.may_castle[p] = false;
        }
    }
    SanninPosition::from_setup(setup, rules).ok()
}

/// Promotes `player`'s king and lets it illuminate at once.
fn promote_king(setup: &SanninSetup, player: Player) -> SanninSetup {
    let mut s = setup.clone();
    for (_, piece) in &mut s.pieces {
        if piece.player == player && piece.role == Role::King {
            piece.promoted = true;
        }
    }
    s.illumination_ready[player] = true;
    s
}

/// A sparse random setup: kings anywhere, a few random pieces (some promoted), random hands
/// and flags. Checks, pins, unprotected pieces and trapped kings are far more common here
/// than in playouts.
fn random_sparse_setup(rng: &mut Rng) -> SanninSetup {
    let per_army = [
        (Role::Rook, 1),
        (Role::Bishop, 1),
        (Role::Gold, 2),
        (Role::Silver, 2),
        (Role::Knight, 1),
        (Role::Lance, 2),
        (Role::Pawn, 8),
    ];
    let mut pool: Vec<Role> = per_army.iter().flat_map(|&(r, n)| (0..3 * n).map(move |_| r)).collect();
    let mut eliminated = PlayerSet::EMPTY;
    if rng.chance(20) {
        eliminated.insert(rng.pick(&Player::ALL));
    }
    let active: Vec<Player> = Player::ALL.into_iter().filter(|&p| !eliminated.contains(p)).collect();
    let mut free: Vec<Cell> = HEX127.cells().collect();
    let mut take_cell = |rng: &mut Rng| free.swap_remove(rng.below(free.len()));
    let mut pieces = Vec::new();
    for &p in &active {
        let promoted = rng.chance(25);
        pieces.push((take_cell(rng), Piece { player: p, role: Role::King, promoted }));
    }
    for _ in 0..rng.below(22) {
        let role = pool.swap_remove(rng.below(pool.len()));
        let promoted = !matches!(role, Role::Gold | Role::Knight) && rng.chance(35);
        pieces.push((take_cell(rng), Piece { player: rng.pick(&active), role, promoted }));
    }
    let mut hands: ByPlayer<Hand> = ByPlayer::default();
    for _ in 0..rng.below(9) {
        let role = pool.swap_remove(rng.below(pool.len()));
        hands[rng.pick(&active)].add(role);
    }
    let mut allies = PlayerSet::EMPTY;
    let mut former_allies = PlayerSet::EMPTY;
    if active.len() == 3 && rng.chance(30) {
        let lone = rng.pick(&Player::ALL);
        allies = PlayerSet::of(&lone.others3());
    } else if active.len() == 2 && rng.chance(30) {
        former_allies = PlayerSet::of(&active);
    }
    SanninSetup {
        pieces,
        hands,
        to_move: rng.pick(&active),
        eliminated,
        allies,
        former_allies,
        may_castle: ByPlayer::new(|_| rng.chance(30)),
        illumination_ready: ByPlayer::new(|_| rng.chance(75)),
        plies: 0,
    }
}

// ---------------------------------------------------------------------------------------------
// The cross-check
// ---------------------------------------------------------------------------------------------

#[derive(Default)]
struct Tally {
    /// Positions checked, by where they came from and by what they contain.
    counts: BTreeMap<String, usize>,
    mismatches: Vec<String>,
}

impl Tally {
    fn bump(&mut self, key: &str) {
        *self.counts.entry(key.to_string()).or_default() += 1;
    }

    fn count(&self, key: &str) -> usize {
        self.counts.get(key).copied().unwrap_or(0)
    }

    /// Compares the fast generator with the reference on one position.
    fn check(&mut self, pos: &SanninPosition, source: &str) {
        if pos.outcome().is_some() {
            return;
        }
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let fast: HashSet<Move> = list.iter().copied().collect();

        let r = ref_pos(pos);
        let mover = r.to_move;
        let reference_moves = r.legal_actions(mover);
        let expected: HashSet<Move> = reference_moves.iter().map(to_library).collect();

        self.bump(&format!("source: {source}"));
        self.bump("all positions");
        self.note_features(&r, &reference_moves);

        let mut problems = Vec::new();
        if fast.len() != list.len() {
            problems.push(format!("the fast generator lists {} moves but only {} distinct", list.len(), fast.len()));
        }
        if expected.len() != reference_moves.len() {
            problems.push("the reference produced a duplicate move".to_string());
        }
        let texts = |set: Vec<&Move>| -> Vec<String> {
            let mut v: Vec<String> = set.into_iter().map(|&m| move_text(&r, &from_library(m))).collect();
            v.sort();
            v
        };
        let missing = texts(expected.difference(&fast).collect());
        let extra = texts(fast.difference(&expected).collect());
        if !missing.is_empty() {
            problems.push(format!("legal by RULES.md but not generated: {}", missing.join(" ")));
        }
        if !extra.is_empty() {
            problems.push(format!("generated but not legal by RULES.md: {}", extra.join(" ")));
        }
        for &m in fast.difference(&expected) {
            if let Some(note) = explain_pawn_drop(pos, m) {
                problems.push(note);
            }
        }
        if !problems.is_empty() {
            self.bump(&format!("MISMATCH in {source}"));
            self.mismatches.push(format!("[{source}]\n{}  {}\n", describe(pos), problems.join("\n  ")));
        }
    }

    fn note_features(&mut self, r: &RefPos, moves: &[RefMove]) {
        let mover = r.to_move;
        let m = mover.index();
        if r.hands[m].iter().any(|&n| n > 0) {
            self.bump("feature: mover has pieces in hand");
        }
        if moves.iter().any(|mv| matches!(mv, RefMove::Drop { .. })) {
            self.bump("feature: drops generated");
        }
        if r.pieces().iter().any(|(_, p)| p.promoted && p.role != Role::King) {
            self.bump("feature: promoted non-king piece on board");
        }
        if r.in_check(mover) {
            self.bump("feature: mover in check");
        }
        if moves.is_empty() {
            self.bump("feature: no legal action");
        }
        if !r.active.iter().all(|&a| a) {
            self.bump("feature: a player eliminated");
        }
        if r.allies[m] {
            self.bump("feature: mover allied");
        } else if r.allies.iter().any(|&a| a) {
            self.bump("feature: mover is the lone player");
        }
        if r.former_allies.iter().any(|&a| a) {
            self.bump("feature: alliance dissolved");
        }
        let king = r.king(mover).and_then(|k| r.at(k));
        if king.is_some_and(|k| k.promoted) && r.illumination_ready[m] {
            self.bump("feature: mover's promoted king may illuminate");
        }
        if moves.iter().any(|mv| matches!(mv, RefMove::Illuminate { .. })) {
            self.bump("feature: illumination generated");
        }
        if moves.iter().any(|mv| matches!(mv, RefMove::Illuminate { rays, .. } if rays.len() > 1)) {
            self.bump("feature: multi-target illumination generated");
        }
        let is_castle = |mv: &RefMove| match mv {
            RefMove::Normal { from, to, .. } => {
                r.at(*from).is_some_and(|p| p.role == Role::King && !p.promoted)
                    && !(0..12).any(|h| reference::add(*from, reference::vector(mover, h)) == Some(*to))
            }
            _ => false,
        };
        if moves.iter().any(is_castle) {
            self.bump("feature: castling jump generated");
        }
        let normal: BTreeSet<(Sq, Sq, bool)> = moves
            .iter()
            .filter_map(|mv| match mv {
                RefMove::Normal { from, to, promote } => Some((*from, *to, *promote)),
                _ => None,
            })
            .collect();
        if normal.iter().any(|&(f, t, p)| p && normal.contains(&(f, t, false))) {
            self.bump("feature: optional promotion generated");
        }
        if normal.iter().any(|&(f, t, p)| p && !normal.contains(&(f, t, false))) {
            self.bump("feature: forced promotion generated");
        }
        if normal.iter().any(|&(f, _, p)| p && r.at(f).is_some_and(|pc| pc.role == Role::King)) {
            self.bump("feature: king promotion generated");
        }
        if moves.contains(&RefMove::Pass) {
            self.bump("feature: pass generated");
        }
    }

    fn report(&self) -> String {
        let mut out = String::new();
        for (key, n) in &self.counts {
            out += &format!("  {key:<55} {n}\n");
        }
        out
    }
}

/// For a pawn drop the reference refuses as a mate: what the fast generator would let the
/// checked player do after it, judged as if it were his turn.
fn explain_pawn_drop(pos: &SanninPosition, m: Move) -> Option<String> {
    let Move::Drop { role: Role::Pawn, to } = m else { return None };
    let mover = pos.to_move();
    let mut setup = pos.to_setup();
    setup.hands[mover].take(Role::Pawn);
    setup.pieces.push((to, Piece { player: mover, role: Role::Pawn, promoted: false }));
    let mut notes = Vec::new();
    for victim in mover.others3() {
        let mut s = setup.clone();
        s.to_move = victim;
        let Ok(after) = SanninPosition::from_setup(s, *pos.rules()) else { continue };
        if !after.in_check(victim) {
            continue;
        }
        let r = ref_pos(&after);
        let replies: Vec<String> = legal_set(&after).into_iter().map(|m| move_text(&r, &from_library(m))).collect();
        notes.push(format!(
            "after {} player {} is in check (castling right {}); the fast generator's replies: {}",
            move_text(&ref_pos(pos), &from_library(m)),
            player_letter(victim),
            if after.may_castle(victim) { "still set" } else { "gone" },
            replies.join(" ")
        ));
    }
    (!notes.is_empty()).then(|| notes.join("\n  "))
}

/// The rule sets the playouts run under; each must be checked at least once.
fn option_sets() -> Vec<(&'static str, Vec<&'static str>)> {
    vec![
        ("default rules", vec![]),
        ("alliance=ML", vec!["alliance=ML"]),
        ("alliance=ML illumination=all", vec!["alliance=ML", "illumination=all"]),
        ("alliance=ML illumination=exactly_one", vec!["alliance=ML", "illumination=exactly_one"]),
        (
            "alliance=ML allied_promotion=forced_in_ally_territory",
            vec!["alliance=ML", "allied_promotion=forced_in_ally_territory"],
        ),
        ("dead_cell_rule=illegal", vec!["dead_cell_rule=illegal"]),
        ("dead_cell_rule=allow_stuck", vec!["dead_cell_rule=allow_stuck"]),
        ("castle_may_capture=false", vec!["castle_may_capture=false"]),
        ("stalemate=pass", vec!["stalemate=pass"]),
        ("promoted_rook_keeps_rear_diagonal=true", vec!["promoted_rook_keeps_rear_diagonal=true"]),
        ("king_zone_promotion=false", vec!["king_zone_promotion=false"]),
        ("forbid_pawn_drop_mate=false", vec!["forbid_pawn_drop_mate=false"]),
        ("promotion_returns_after_dissolution=false", vec!["promotion_returns_after_dissolution=false"]),
    ]
}

#[test]
fn reference_generator_finds_the_48_start_moves_of_rules_1_5() {
    // §1.5: 48 legal moves for whichever player moves first, 4 of them castling jumps.
    let pos = SanninPosition::start(base_rules());
    let r = ref_pos(&pos);
    for p in Player::ALL {
        assert_eq!(r.legal_actions(p).len(), 48, "player {p:?}");
    }
}

#[test]
fn fast_generator_equals_reference_on_thousands_of_positions() {
    let mut tally = Tally::default();
    let mut rng = Rng::new(0x5a77_1e55);
    let refused_before = reference::PAWN_DROP_MATES_REFUSED.load(Ordering::Relaxed);

    // Playouts under each rule set, every position along the way checked; every fourth one
    // also checked with a player eliminated and with the mover's king promoted.
    for (name, options) in option_sets() {
        let rules = rules_with(&options);
        let playouts = if options.is_empty() { 14 } else { 3 };
        for _ in 0..playouts {
            let plies = 40 + rng.below(120);
            let mut derived = Vec::new();
            let mut step = 0;
            playout(SanninPosition::start(rules), plies, &mut rng, |pos| {
                tally.check(pos, name);
                step += 1;
                if step % 4 == 0 {
                    derived.push(pos.to_setup());
                }
            });
            for setup in derived {
                let victim = rng.pick(&Player::ALL);
                if let Some(s) = eliminate(&setup, victim, &mut rng) {
                    if let Some(pos) = validate(s.clone(), rules) {
                        tally.check(&pos, "derived: a player eliminated");
                    }
                    if let Some(pos) = validate(promote_king(&s, s.to_move), rules) {
                        tally.check(&pos, "derived: eliminated + promoted king");
                    }
                }
                if let Some(pos) = validate(promote_king(&setup, setup.to_move), rules) {
                    tally.check(&pos, "derived: mover's king promoted");
                }
            }
        }
    }

    // Sparse random setups under random rule sets.
    let sets = option_sets();
    for _ in 0..2500 {
        let (name, options) = &sets[rng.below(sets.len())];
        let rules = rules_with(options);
        if let Some(pos) = validate(random_sparse_setup(&mut rng), rules) {
            tally.check(&pos, &format!("random sparse setup ({name})"));
            tally.bump("source: random sparse setup (any rules)");
        }
    }

    println!("positions checked:\n{}", tally.report());
    // Other tests share the counter, so this one may count a few of theirs; it only has to
    // show that the pawn-drop-mate rule was exercised at all.
    let refused = reference::PAWN_DROP_MATES_REFUSED.load(Ordering::Relaxed) - refused_before;
    println!("pawn drops refused as mates by the reference: {refused}");
    assert!(refused > 0, "no pawn drop was ever refused as a mate");

    for (name, _) in option_sets() {
        assert!(tally.count(&format!("source: {name}")) > 0, "no playout position under {name}");
    }
    for key in [
        "source: derived: a player eliminated",
        "source: derived: eliminated + promoted king",
        "source: derived: mover's king promoted",
        "source: random sparse setup (any rules)",
        "feature: mover has pieces in hand",
        "feature: drops generated",
        "feature: promoted non-king piece on board",
        "feature: mover in check",
        "feature: a player eliminated",
        "feature: mover allied",
        "feature: mover is the lone player",
        "feature: alliance dissolved",
        "feature: mover's promoted king may illuminate",
        "feature: illumination generated",
        "feature: multi-target illumination generated",
        "feature: castling jump generated",
        "feature: optional promotion generated",
        "feature: forced promotion generated",
        "feature: king promotion generated",
    ] {
        assert!(tally.count(key) > 0, "nothing checked for `{key}`");
    }
    assert!(tally.count("all positions") >= 3000, "too few positions: {}", tally.count("all positions"));

    if !tally.mismatches.is_empty() {
        for m in tally.mismatches.iter().take(8) {
            println!("{m}");
        }
        panic!("{} positions where the fast generator and the reference disagree (first ones above)", tally.mismatches.len());
    }
}

// ---------------------------------------------------------------------------------------------
// Stalemate under `stalemate=pass`
// ---------------------------------------------------------------------------------------------

/// A king, possibly with a few own pieces, hemmed in by a handful of enemy pieces near it:
/// the kind of position where a player not in check can have no legal action.
fn random_cornered_setup(rng: &mut Rng) -> SanninSetup {
    let mover = rng.pick(&Player::ALL);
    let cells: Vec<Cell> = HEX127.cells().collect();
    let king_cell = rng.pick(&cells);
    let (kc, kr) = sq(king_cell);
    let near: Vec<Cell> = cells
        .iter()
        .copied()
        .filter(|&c| {
            let (col, rank) = sq(c);
            c != king_cell && (col - kc).abs() <= 3 && (rank - kr).abs() <= 3
        })
        .collect();
    let mut used = vec![king_cell];
    let mut pieces = vec![(king_cell, Piece { player: mover, role: Role::King, promoted: false })];
    for p in mover.others3() {
        let mut king = rng.pick(&cells);
        while used.contains(&king) {
            king = rng.pick(&cells);
        }
        used.push(king);
        pieces.push((king, Piece { player: p, role: Role::King, promoted: rng.chance(30) }));
    }
    let roles = [Role::Rook, Role::Bishop, Role::Gold, Role::Silver, Role::Knight, Role::Lance, Role::Pawn];
    for i in 0..2 + rng.below(5) {
        let cell = rng.pick(&near);
        if used.contains(&cell) {
            continue;
        }
        used.push(cell);
        let role = rng.pick(&roles);
        // Mostly enemies; now and then one of the mover's own pieces that may be pinned.
        let player = if i > 0 && rng.chance(15) { mover } else { rng.pick(&mover.others3()) };
        let promoted = !matches!(role, Role::Gold | Role::Knight) && rng.chance(30);
        pieces.push((cell, Piece { player, role, promoted }));
    }
    SanninSetup {
        pieces,
        hands: ByPlayer::default(),
        to_move: mover,
        eliminated: PlayerSet::EMPTY,
        allies: PlayerSet::EMPTY,
        former_allies: PlayerSet::EMPTY,
        may_castle: ByPlayer::new(|_| false),
        illumination_ready: ByPlayer::new(|_| true),
        plies: 0,
    }
}

#[test]
fn stalemated_player_passes_exactly_when_the_reference_says_so() {
    // Stalemates are too rare in playouts, so search cornered kings until enough are found;
    // every position tried is cross-checked, stalemate or not.
    let rules = rules_with(&["stalemate=pass"]);
    let mut rng = Rng::new(0x57a1e);
    let mut tally = Tally::default();
    for _ in 0..20_000 {
        if let Some(pos) = validate(random_cornered_setup(&mut rng), rules) {
            tally.check(&pos, "cornered king (stalemate=pass)");
            if tally.count("feature: pass generated") >= 25 {
                break;
            }
        }
    }
    println!("positions checked:\n{}", tally.report());
    assert!(tally.count("feature: pass generated") >= 25, "too few stalemates found");
    assert!(tally.count("feature: no legal action") > 0, "no checkmate among the cornered kings");
    if !tally.mismatches.is_empty() {
        for m in tally.mismatches.iter().take(8) {
            println!("{m}");
        }
        panic!("{} positions where the fast generator and the reference disagree", tally.mismatches.len());
    }
}

// ---------------------------------------------------------------------------------------------
// `must_parry_mate_threat`, against its definition played out through the public API
// ---------------------------------------------------------------------------------------------

/// Whether another player, were it his turn (the setup's player to move changed), has a legal
/// action whose play reports `victim` checkmated. Every action is played in full.
fn mate_playable_against(pos: &SanninPosition, victim: Player) -> bool {
    let rules = SanninRules { must_parry_mate_threat: false, ..*pos.rules() };
    let mut actions = MoveList::new();
    for threatener in Player::ALL.into_iter().filter(|&p| p != victim && pos.active_players().contains(p)) {
        let mut setup = pos.to_setup();
        setup.to_move = threatener;
        let turned = SanninPosition::from_setup(setup, rules).unwrap_or_else(|e| panic!("{e}\n{}", describe(pos)));
        turned.legal_moves(&mut actions);
        for &action in &actions {
            let events = turned.clone().play_unchecked(action);
            if events.iter().any(|e| matches!(e, Event::Checkmated { player, .. } if *player == victim)) {
                return true;
            }
        }
    }
    false
}

/// The legal actions under `must_parry_mate_threat` by its definition: those of the rules
/// without it, narrowed, when the mover is threatened, to the ones after which no mate is
/// playable against him (all of them when none is).
fn parrying_actions_by_definition(pos: &SanninPosition) -> HashSet<Move> {
    let without = SanninRules { must_parry_mate_threat: false, ..*pos.rules() };
    let every = legal_set(&SanninPosition::from_setup(pos.to_setup(), without).expect("valid"));
    let mover = pos.to_move();
    if !mate_playable_against(pos, mover) {
        return every;
    }
    let parries: HashSet<Move> = every
        .iter()
        .copied()
        .filter(|&action| {
            let mut after = pos.clone();
            after.play_unchecked(action);
            after.outcome().is_some() || !mate_playable_against(&after, mover)
        })
        .collect();
    if parries.is_empty() {
        every
    } else {
        parries
    }
}

#[test]
fn must_parry_mate_threat_keeps_the_actions_its_definition_keeps() {
    let mut rng = Rng::new(0x9a22_7e11);
    let (mut checked, mut threatened, mut narrowed) = (0, 0, 0);
    // Compulsory alliances stay off (`base_rules`): the definition rebuilds positions from
    // their setups, which forget the previous action that the alliance detector reads. The
    // hand-built cases in tests/sannin_rules.rs run under `compulsory=auto`.
    for options in [vec!["must_parry_mate_threat=true"], vec!["must_parry_mate_threat=true", "alliance=ML"]] {
        let rules = rules_with(&options);
        for _ in 0..4 {
            playout(SanninPosition::start(rules), 40 + rng.below(120), &mut rng, |pos| {
                let expected = parrying_actions_by_definition(pos);
                let actual = legal_set(pos);
                assert!(
                    actual == expected,
                    "{}only the generator: {:?}\nonly the definition: {:?}",
                    describe(pos),
                    actual.difference(&expected).collect::<Vec<_>>(),
                    expected.difference(&actual).collect::<Vec<_>>(),
                );
                checked += 1;
                if pos.mate_threatened(pos.to_move()) {
                    threatened += 1;
                    let without = SanninRules { must_parry_mate_threat: false, ..*pos.rules() };
                    narrowed += usize::from(legal_set(&SanninPosition::from_setup(pos.to_setup(), without).unwrap()) != actual);
                }
            });
        }
    }
    println!("positions checked {checked}, mover threatened with mate in {threatened}, choice narrowed in {narrowed}");
    assert!(narrowed > 0, "no playout position narrowed the mover's choice");
}

// ---------------------------------------------------------------------------------------------
// Castling and check, found by the cross-check and pinned down here on small positions
// ---------------------------------------------------------------------------------------------

/// Pieces of one player from text like `K10m +R7g P9l`.
fn pieces_of(player: Player, text: &str) -> Vec<(Cell, Piece)> {
    text.split_whitespace()
        .map(|token| {
            let (promoted, rest) = match token.strip_prefix('+') {
                Some(rest) => (true, rest),
                None => (false, token),
            };
            let role = Role::from_letter(rest.chars().next().unwrap()).expect("a piece letter");
            let cell = HexNaming::Sannin.parse(&HEX127, &rest[1..]).expect("a Sannin cell name");
            (cell, Piece { player, role, promoted })
        })
        .collect()
}

/// Middle's unmoved, never-checked king on 10m, boxed in by its own pawns; Last holds a pawn
/// and a bishop on 12l that would protect a pawn dropped on 11m.
fn boxed_middle_king() -> SanninSetup {
    let mut pieces = pieces_of(Player::First, "K1d");
    pieces.extend(pieces_of(Player::Second, "K10m P9l P10l P9m"));
    pieces.extend(pieces_of(Player::Third, "K10d B12l"));
    let mut hands: ByPlayer<Hand> = ByPlayer::default();
    hands[Player::Third].add(Role::Pawn);
    SanninSetup {
        pieces,
        hands,
        to_move: Player::Third,
        eliminated: PlayerSet::EMPTY,
        allies: PlayerSet::EMPTY,
        former_allies: PlayerSet::EMPTY,
        may_castle: ByPlayer([false, true, false]),
        illumination_ready: ByPlayer([true; 3]),
        plies: 0,
    }
}

#[test]
fn pawn_drop_answered_only_by_castling_is_a_forbidden_pawn_drop_mate() {
    // P*11m checks K10m (Last's 11 o'clock is one column to the right, §1.2); the king cannot
    // take the pawn (the bishop on 12l protects it) and its other cells hold its own pawns.
    // Castling is no escape, because a king in check may not castle (§1.9), so the drop
    // mates and §1.7 forbids it.
    let rules = base_rules();
    let pos = SanninPosition::from_setup(boxed_middle_king(), rules).expect("a valid position");
    let drop = Move::Drop { role: Role::Pawn, to: HexNaming::Sannin.parse(&HEX127, "11m").unwrap() };
    let r = ref_pos(&pos);
    assert!(!r.legal_actions(Player::Third).iter().any(|m| to_library(m) == drop), "the reference allows P*11m");
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    assert!(
        !moves.contains(&drop),
        "the fast generator allows the mating pawn drop P*11m (it counts castling out of check as an escape)\n{}",
        describe(&pos)
    );
}

#[test]
fn king_in_check_never_castles_even_while_its_castling_right_stands() {
    // The position just after P*11m, built with Middle's castling right still set, as play
    // can leave it when removing a mated player's pieces opens a line onto a king. §1.9: no
    // castling while in check, so Middle has no legal action at all.
    let mut setup = boxed_middle_king();
    setup.pieces.extend(pieces_of(Player::Third, "P11m"));
    setup.hands = ByPlayer::default();
    setup.to_move = Player::Second;
    let pos = SanninPosition::from_setup(setup, base_rules()).expect("a valid position");
    assert!(pos.in_check(Player::Second));
    assert!(ref_pos(&pos).legal_actions(Player::Second).is_empty(), "the reference finds an escape");
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    let r = ref_pos(&pos);
    let texts: Vec<String> = moves.iter().map(|&m| move_text(&r, &from_library(m))).collect();
    assert!(texts.is_empty(), "the fast generator lets a king in check castle: {}", texts.join(" "));
}

// ---------------------------------------------------------------------------------------------
// 120° rotation
// ---------------------------------------------------------------------------------------------

/// The seat that a player's army occupies after turning the board 120° counter-clockwise:
/// Middle's becomes First's, First's becomes Last's, Last's becomes Middle's.
fn rotate_player(p: Player) -> Player {
    Player::from_index((p.index() + 2) % 3).expect("three seats")
}

fn rotate_players(set: PlayerSet) -> PlayerSet {
    let mut out = PlayerSet::EMPTY;
    for p in set.iter() {
        out.insert(rotate_player(p));
    }
    out
}

fn rotate_by_player<T: Copy>(values: &ByPlayer<T>) -> ByPlayer<T> {
    let mut out = *values;
    for p in Player::ALL {
        out[rotate_player(p)] = values[p];
    }
    out
}

fn rotate_setup(s: &SanninSetup) -> SanninSetup {
    SanninSetup {
        pieces: s
            .pieces
            .iter()
            .map(|&(c, pc)| (HEX127.rotated_ccw120(c), Piece { player: rotate_player(pc.player), ..pc }))
            .collect(),
        hands: rotate_by_player(&s.hands),
        to_move: rotate_player(s.to_move),
        eliminated: rotate_players(s.eliminated),
        allies: rotate_players(s.allies),
        former_allies: rotate_players(s.former_allies),
        may_castle: rotate_by_player(&s.may_castle),
        illumination_ready: rotate_by_player(&s.illumination_ready),
        plies: s.plies,
    }
}

/// Screen hours turn with the board: a 120° counter-clockwise turn takes 12 o'clock (Middle's
/// forward) to 8 o'clock (First's forward, §1.2).
fn rotate_move(m: Move) -> Move {
    match m {
        Move::Normal { from, to, promote } => {
            Move::Normal { from: HEX127.rotated_ccw120(from), to: HEX127.rotated_ccw120(to), promote }
        }
        Move::Drop { role, to } => Move::Drop { role, to: HEX127.rotated_ccw120(to) },
        Move::Illuminate { from, rays } => {
            let mut turned = HourSet::EMPTY;
            for h in rays.iter() {
                turned.insert(h.turned(8));
            }
            Move::Illuminate { from: HEX127.rotated_ccw120(from), rays: turned }
        }
        Move::Pass => Move::Pass,
    }
}

fn legal_set(pos: &SanninPosition) -> HashSet<Move> {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    moves.into_iter().collect()
}

/// A position from a seeded playout, optionally with the mover's king promoted.
fn playout_position(seed: u64, plies: usize, rules: SanninRules, promoted_king: bool) -> Option<SanninPosition> {
    let mut rng = Rng::new(seed);
    let end = playout(SanninPosition::start(rules), plies, &mut rng, |_| {});
    let mut setup = end.to_setup();
    if promoted_king {
        setup = promote_king(&setup, setup.to_move);
    }
    validate(setup, rules)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn rotating_a_position_120_degrees_rotates_its_legal_moves(
        seed in any::<u64>(),
        plies in 0usize..160,
        rules_index in 0..option_sets().len(),
        promoted_king in any::<bool>(),
    ) {
        let rules = rules_with(&option_sets()[rules_index].1);
        let pos = playout_position(seed, plies, rules, promoted_king);
        prop_assume!(pos.is_some());
        let pos = pos.unwrap();
        let setup = pos.to_setup();
        let rotated_setup = rotate_setup(&setup);
        prop_assert_eq!(rotate_setup(&rotate_setup(&rotated_setup)), setup.clone());
        let rotated = SanninPosition::from_setup(rotated_setup, rules).expect("a rotated position is valid");
        let expected: HashSet<Move> = legal_set(&pos).into_iter().map(rotate_move).collect();
        let actual = legal_set(&rotated);
        prop_assert!(
            actual == expected,
            "rotation changes the legal moves\n{}only after rotating: {:?}\nonly before: {:?}",
            describe(&pos),
            actual.difference(&expected).collect::<Vec<_>>(),
            expected.difference(&actual).collect::<Vec<_>>(),
        );
    }
}

#[test]
fn perft_2_is_unchanged_by_a_120_degree_rotation() {
    // The start array is itself symmetric, so rotating it only hands the move to Last: the
    // count must not depend on who moves. The playout positions carry hands, promotions and
    // (under alliance=ML) an alliance and a promoted king.
    let mut positions = vec![SanninPosition::start(base_rules())];
    for (seed, plies, options) in [(7u64, 30usize, vec![]), (11, 60, vec![]), (23, 40, vec!["alliance=ML"])] {
        let rules = rules_with(&options);
        positions.push(playout_position(seed, plies, rules, false).expect("a playout position"));
    }
    for pos in positions {
        let rotated = SanninPosition::from_setup(rotate_setup(&pos.to_setup()), *pos.rules()).expect("valid");
        let before = perft(&mut SanninGame::new(pos.clone()), 2);
        let after = perft(&mut SanninGame::new(rotated), 2);
        println!("perft(2) {before} / rotated {after}");
        assert!(before > 0);
        assert_eq!(before, after, "perft(2) changes under rotation\n{}", describe(&pos));
    }
}
