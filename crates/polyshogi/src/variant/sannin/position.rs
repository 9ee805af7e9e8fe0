//! The Sannin shogi position: board, hands, turn, alliance and per-player flags, built from an
//! unchecked `SanninSetup` by a validating constructor; plus attack detection.

use std::fmt;
use std::sync::OnceLock;

use arrayvec::ArrayVec;

use super::alliance::{LastAction, PlayedAction, StandingThreats};
use super::key::SanninKeys;
use super::rules::{Compulsory, PreGameAlliance, SanninRules};
use super::tables::{can_ever_promote, SanninTables};
use crate::cellset::CellSet;
use crate::geometry::{Cell, Hour};
use crate::mv::{HourSet, Move};
use crate::outcome::{AllianceFormation, Outcome};
use crate::piece::{Hand, Piece, Role};
use crate::piece_store::{code_of, PieceStore};
use crate::player::{ByPlayer, Player, PlayerSet};

/// Everything a Sannin position holds, unchecked: what parsers and tests build.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SanninSetup {
    pub pieces: Vec<(Cell, Piece)>,
    pub hands: ByPlayer<Hand>,
    pub to_move: Player,
    pub eliminated: PlayerSet,
    /// The two allied players, or empty.
    pub allies: PlayerSet,
    /// The two players of an alliance that has dissolved, or empty.
    pub former_allies: PlayerSet,
    /// Kings that have neither moved nor ever been in check, while no alliance ever existed.
    pub may_castle: ByPlayer<bool>,
    /// Promoted kings that may illuminate (not on a turn right after promoting by a move).
    pub illumination_ready: ByPlayer<bool>,
    pub plies: u32,
}

impl SanninSetup {
    /// The start array of §1.4, with a pre-game alliance applied when the rules ask for one.
    pub fn start(rules: &SanninRules) -> SanninSetup {
        let tables = SanninTables::get(rules.promoted_rook_keeps_rear_diagonal);
        let mut setup = SanninSetup {
            pieces: tables.start.clone(),
            hands: ByPlayer::default(),
            to_move: Player::First,
            eliminated: PlayerSet::EMPTY,
            allies: PlayerSet::EMPTY,
            former_allies: PlayerSet::EMPTY,
            may_castle: ByPlayer([true; 3]),
            illumination_ready: ByPlayer([true; 3]),
            plies: 0,
        };
        if rules.alliance == PreGameAlliance::MiddleLast {
            // The effects of forming an alliance (§1.13): no castling for anyone, and the lone
            // king (First's) promoted at once, free to illuminate from its first turn.
            setup.allies = PlayerSet::of(&[Player::Second, Player::Third]);
            setup.may_castle = ByPlayer([false; 3]);
            for (_, piece) in &mut setup.pieces {
                if piece.player == Player::First && piece.role == Role::King {
                    piece.promoted = true;
                }
            }
        }
        setup
    }
}

/// Why a setup is not a playable position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PositionError {
    KingCount {
        player: Player,
        kings: usize,
    },
    EliminatedPlayerHasPieces(Player),
    ToMoveEliminated(Player),
    TwoPiecesOnOneCell(Cell),
    KingInHand(Player),
    PromotedForbidden {
        cell: Cell,
        role: Role,
    },
    /// An unpromoted pawn or lance stands where it can never move, which the rules forbid.
    DeadPiece(Cell),
    TooManyPieces {
        role: Role,
        count: u32,
    },
    Alliance(&'static str),
    FewerThanTwoPlayers,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::KingCount { player, kings } => {
                write!(f, "player {} has {kings} kings on the board (needs exactly 1)", player.index() + 1)
            }
            PositionError::EliminatedPlayerHasPieces(p) => {
                write!(f, "player {} is eliminated but still has pieces", p.index() + 1)
            }
            PositionError::ToMoveEliminated(p) => {
                write!(f, "player {} is to move but has been eliminated", p.index() + 1)
            }
            PositionError::TwoPiecesOnOneCell(c) => write!(f, "two pieces on cell {}", c.index()),
            PositionError::KingInHand(p) => {
                write!(f, "player {} holds a king in hand (kings are never captured)", p.index() + 1)
            }
            PositionError::PromotedForbidden { role, .. } => {
                write!(f, "a {:?} has no promoted form", role)
            }
            PositionError::DeadPiece(c) => {
                write!(f, "an unpromoted pawn or lance stands on a dead cell ({})", c.index())
            }
            PositionError::TooManyPieces { role, count } => {
                write!(f, "{count} pieces of role {:?} exceed the three armies' total", role)
            }
            PositionError::Alliance(why) => write!(f, "bad alliance state: {why}"),
            PositionError::FewerThanTwoPlayers => write!(f, "fewer than two players remain"),
        }
    }
}

impl std::error::Error for PositionError {}

/// What `SanninPosition::may_give_check_knowing` reads off a position once for all its moves
/// (see `SanninPosition::check_context`).
#[derive(Clone, Copy, Debug)]
pub struct CheckContext {
    /// The players other than the one to move whose kings stand in check.
    others_in_check: PlayerSet,
    /// By role held in hand, the cells where a drop attacks another player's king; `None`
    /// where drops are told one by one, like the other moves.
    drop_checks: Option<[CellSet; 8]>,
    /// With the drops' cells and while no alliance can form, the mover's pieces whose move may
    /// open a line onto another player's king (see `check_context`).
    discoverers: Option<CellSet>,
    /// While an alliance can form, the cells between each two kings on one line (see
    /// `kings_between`).
    kings_between: [Option<CellSet>; 3],
}

/// A legal, playable Sannin position.
pub struct SanninPosition {
    pub(super) tables: &'static SanninTables,
    pub(super) rules: SanninRules,
    /// Board and hands, with their Zobrist hash. The board changes only through `put` and
    /// `clear`, which keep `rangers` and `standing_threats` in step with it.
    pub(super) store: PieceStore<SanninKeys>,
    /// The cells of pieces that range in some direction, for the attack tests.
    pub(super) rangers: CellSet,
    pub(super) kings: ByPlayer<Option<Cell>>,
    pub(super) to_move: Player,
    pub(super) active: PlayerSet,
    pub(super) allies: PlayerSet,
    pub(super) former_allies: PlayerSet,
    pub(super) may_castle: ByPlayer<bool>,
    pub(super) illumination_ready: ByPlayer<bool>,
    pub(super) plies: u32,
    pub(super) outcome: Option<Outcome>,
    /// What the alliance detector needs to know about the previous action.
    pub(super) last_action: Option<PlayedAction>,
    /// Under `compulsory=confirm`: a detected alliance awaiting its answer.
    pub(super) proposal: Option<AllianceFormation>,
    /// The allies who have accepted the pending proposal so far. Not written in position
    /// strings: records keep only the settled answer.
    pub(super) accepted: PlayerSet,
    /// Players in the order they left the game, with the ply they left at (players who left
    /// together share a place).
    pub(super) eliminations: ArrayVec<(Player, u32), 3>,
    /// The threats that stand before the player to move acts, noted by `legal_moves` for the
    /// alliance detector, since the actions listed are usually played next and each compares
    /// the threats after it with these. Every change to the board forgets them; the rest of a
    /// move's changes come between that and the next `legal_moves`.
    pub(super) standing_threats: OnceLock<StandingThreats>,
}

// By hand: every field but the last two is Copy and is copied in one block. The derive cloned
// field by field through a temporary, which cost the searches (they copy the position at
// every node) about 2 % of a deep search's time (docs/BENCHMARKS.md).
impl Clone for SanninPosition {
    fn clone(&self) -> SanninPosition {
        SanninPosition { eliminations: self.eliminations.clone(), standing_threats: self.standing_threats.clone(), ..*self }
    }
}

impl SanninPosition {
    /// The start position under `rules`.
    pub fn start(rules: SanninRules) -> SanninPosition {
        SanninPosition::from_setup(SanninSetup::start(&rules), rules).expect("the start array is a valid position")
    }

    /// Validates a setup.
    pub fn from_setup(setup: SanninSetup, rules: SanninRules) -> Result<SanninPosition, PositionError> {
        SanninPosition::validate(setup, rules, false)
    }

    /// Validates a setup; a finished game (`finished`) may have a single player left.
    pub(super) fn validate(setup: SanninSetup, rules: SanninRules, finished: bool) -> Result<SanninPosition, PositionError> {
        let tables = SanninTables::get(rules.promoted_rook_keeps_rear_diagonal);
        let mut pos = SanninPosition {
            tables,
            rules,
            store: PieceStore::new(),
            rangers: CellSet::EMPTY,
            kings: ByPlayer::default(),
            to_move: setup.to_move,
            active: PlayerSet::of(&Player::ALL),
            allies: setup.allies,
            former_allies: setup.former_allies,
            may_castle: setup.may_castle,
            illumination_ready: setup.illumination_ready,
            plies: setup.plies,
            outcome: None,
            last_action: None,
            proposal: None,
            accepted: PlayerSet::EMPTY,
            eliminations: ArrayVec::new(),
            standing_threats: OnceLock::new(),
        };
        for p in Player::ALL {
            pos.store.set_hand(p, setup.hands[p]);
        }
        for p in setup.eliminated.iter() {
            pos.active.remove(p);
            pos.eliminations.push((p, 0));
        }
        if pos.active.len() < 2 && !(finished && pos.active.len() == 1) {
            return Err(PositionError::FewerThanTwoPlayers);
        }
        if !pos.active.contains(setup.to_move) && !finished {
            return Err(PositionError::ToMoveEliminated(setup.to_move));
        }
        let mut king_counts = ByPlayer([0usize; 3]);
        let mut role_counts = [0u32; 8];
        for &(cell, piece) in &setup.pieces {
            if cell.usize() >= tables.grid.len() || pos.store.occupied().contains(cell) {
                return Err(PositionError::TwoPiecesOnOneCell(cell));
            }
            if piece.promoted && !can_ever_promote(piece.role) {
                return Err(PositionError::PromotedForbidden { cell, role: piece.role });
            }
            if !pos.active.contains(piece.player) {
                return Err(PositionError::EliminatedPlayerHasPieces(piece.player));
            }
            if !piece.promoted
                && matches!(piece.role, Role::Pawn | Role::Lance)
                && tables.dead_cells[piece.player].contains(cell)
                && pos.rules.dead_cell_rule != super::rules::DeadCellRule::AllowStuck
            {
                return Err(PositionError::DeadPiece(cell));
            }
            if piece.role == Role::King {
                king_counts[piece.player] += 1;
                pos.kings[piece.player] = Some(cell);
            }
            role_counts[piece.role.index()] += 1;
            pos.put(cell, piece);
        }
        for p in Player::ALL {
            let expected = usize::from(pos.active.contains(p));
            if king_counts[p] != expected {
                return Err(PositionError::KingCount { player: p, kings: king_counts[p] });
            }
            if pos.store.hand(p).count(Role::King) > 0 {
                return Err(PositionError::KingInHand(p));
            }
            if !pos.active.contains(p) && !pos.store.hand(p).is_empty() {
                return Err(PositionError::EliminatedPlayerHasPieces(p));
            }
            for role in Role::ALL {
                role_counts[role.index()] += pos.store.hand(p).count(role) as u32;
            }
        }
        let per_army: [u32; 8] = [1, 1, 1, 2, 2, 1, 2, 8];
        for role in Role::ALL {
            if role_counts[role.index()] > 3 * per_army[role.index()] {
                return Err(PositionError::TooManyPieces { role, count: role_counts[role.index()] });
            }
        }
        if !(pos.allies.is_empty() || pos.allies.len() == 2) {
            return Err(PositionError::Alliance("an alliance needs two players"));
        }
        if pos.allies.iter().any(|p| !pos.active.contains(p)) {
            return Err(PositionError::Alliance("an eliminated player cannot be allied"));
        }
        if !pos.allies.is_empty() && !pos.former_allies.is_empty() {
            return Err(PositionError::Alliance("no new alliance can form after one dissolved"));
        }
        if !pos.allies.is_empty() && pos.active.len() < 3 {
            return Err(PositionError::Alliance("an alliance needs a lone player"));
        }
        for p in Player::ALL {
            // A king that has promoted (so moved) or stands in check cannot castle; nor can
            // anyone once an alliance has existed.
            let king_promoted = pos.kings[p].is_some_and(|k| pos.piece_at(k).is_some_and(|pc| pc.promoted));
            let alliance_ever = !pos.allies.is_empty() || !pos.former_allies.is_empty();
            if !pos.active.contains(p) || king_promoted || alliance_ever || pos.in_check(p) {
                pos.may_castle[p] = false;
            }
        }
        Ok(pos)
    }

    /// The position as an unchecked setup (the inverse of `from_setup`).
    pub fn to_setup(&self) -> SanninSetup {
        SanninSetup {
            pieces: self.store.occupied().map(|c| (c, self.piece_at(c).expect("occupied"))).collect(),
            hands: self.store.hands(),
            to_move: self.to_move,
            eliminated: self.eliminated(),
            allies: self.allies,
            former_allies: self.former_allies,
            may_castle: self.may_castle,
            illumination_ready: self.illumination_ready,
            plies: self.plies,
        }
    }

    pub fn rules(&self) -> &SanninRules {
        &self.rules
    }

    pub fn tables(&self) -> &'static SanninTables {
        self.tables
    }

    pub fn to_move(&self) -> Player {
        self.to_move
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    pub fn active_players(&self) -> PlayerSet {
        self.active
    }

    pub fn eliminated(&self) -> PlayerSet {
        let mut eliminated = PlayerSet::EMPTY;
        for p in Player::ALL.into_iter().filter(|&p| !self.active.contains(p)) {
            eliminated.insert(p);
        }
        eliminated
    }

    pub fn allies(&self) -> PlayerSet {
        self.allies
    }

    pub fn former_allies(&self) -> PlayerSet {
        self.former_allies
    }

    pub fn hand(&self, player: Player) -> &Hand {
        self.store.hand(player)
    }

    pub fn may_castle(&self, player: Player) -> bool {
        self.may_castle[player]
    }

    pub fn illumination_ready(&self, player: Player) -> bool {
        self.illumination_ready[player]
    }

    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// What the alliance detector remembers of the previous action.
    pub fn last_action(&self) -> Option<LastAction> {
        self.played_action()
    }

    /// Under `compulsory=confirm`: the alliance waiting to be accepted or refused.
    pub fn pending_alliance(&self) -> Option<AllianceFormation> {
        self.proposal
    }

    pub fn king(&self, player: Player) -> Option<Cell> {
        self.kings[player]
    }

    pub fn occupied(&self) -> CellSet {
        self.store.occupied()
    }

    pub fn pieces_of(&self, player: Player) -> CellSet {
        self.store.pieces_of(player)
    }

    #[inline]
    pub fn piece_at(&self, cell: Cell) -> Option<Piece> {
        self.store.piece_at(cell)
    }

    /// The ally of `player`, while an alliance stands.
    #[inline]
    pub fn ally_of(&self, player: Player) -> Option<Player> {
        if !self.allies.contains(player) {
            return None;
        }
        self.allies.iter().find(|&p| p != player)
    }

    /// The pieces of every active player other than `player`.
    #[inline]
    pub(super) fn others_pieces(&self, player: Player) -> CellSet {
        self.store.occupied() - self.store.pieces_of(player)
    }

    /// True when some piece standing on a cell of `attackers` attacks `target`, with the board
    /// occupied as `occupied` says: a piece next door that steps or ranges onto it, or a
    /// ranging piece further along a line with nothing between.
    #[inline]
    pub(super) fn is_attacked(&self, target: Cell, attackers: CellSet, occupied: CellSet) -> bool {
        let grid = self.tables.grid;
        (grid.next_door(target) & attackers).into_iter().any(|near| self.attacks_next_door(near, target))
            || (grid.lines(target) & attackers & self.rangers)
                .into_iter()
                .any(|ranger| self.ranges_onto(ranger, target, occupied))
    }

    /// The cells of `attackers` whose pieces attack `target` (see `is_attacked`).
    pub(super) fn attacking_cells(&self, target: Cell, attackers: CellSet, occupied: CellSet) -> CellSet {
        let grid = self.tables.grid;
        let near = (grid.next_door(target) & attackers).into_iter().filter(|&near| self.attacks_next_door(near, target));
        let far = (grid.lines(target) & attackers & self.rangers)
            .into_iter()
            .filter(|&ranger| self.ranges_onto(ranger, target, occupied));
        near.chain(far).collect()
    }

    /// Whether the piece on `near`, the first cell of one of `target`'s rays, attacks `target`:
    /// by a step, or by the first cell of a range.
    #[inline]
    fn attacks_next_door(&self, near: Cell, target: Cell) -> bool {
        self.tables.grid.attacks_next_door(near, target, self.tables.near_hours[self.store.code(near) as usize])
    }

    /// Whether the ranging piece on `ranger`, on one of `target`'s lines, ranges onto it along
    /// the ray that joins them, with nothing between as `occupied` says.
    #[inline]
    fn ranges_onto(&self, ranger: Cell, target: Cell, occupied: CellSet) -> bool {
        self.tables.grid.ranges_onto(ranger, target, self.tables.range_hours[self.store.code(ranger) as usize], occupied)
    }

    /// The cells a piece of cell code `code` on `from` attacks: its steps, and along each of
    /// its ranges the empty cells and the first occupied one.
    #[inline]
    pub(super) fn reach(&self, code: usize, from: Cell) -> CellSet {
        let tables = self.tables;
        tables.grid.piece_reach(from, tables.step_targets[code][from.usize()], tables.range_hours[code], self.store.occupied())
    }

    /// The cells the piece on the occupied cell `from` attacks.
    pub fn attacks_from(&self, from: Cell) -> CellSet {
        self.reach(self.store.code(from) as usize, from)
    }

    /// The cells `player`'s pieces attack, and the sum of `kind_values` (by `Piece::kind`)
    /// over his pieces on the board: the evaluation's attack map and material, read from the
    /// cell codes in one pass without decoding a piece.
    pub fn attack_map_and_value(&self, player: Player, kind_values: &[i32; 16]) -> (CellSet, i32) {
        self.store.attacks_and_value(player, kind_values, |code, from| self.reach(code, from))
    }

    /// `attack_map_and_value` in two parts, for an evaluation that keeps the first: see
    /// `PieceStore::step_map_and_value` and `ranging_pieces`.
    pub fn step_map_and_value(&self, player: Player, kind_values: &[i32; 16]) -> (CellSet, i32) {
        self.store.step_map_and_value(player, kind_values, &self.tables.step_targets)
    }

    /// The second part: `player`'s ranging pieces, each with the hours it ranges along, whose
    /// `reach_along` complete the attack map.
    pub fn ranging_pieces(&self, player: Player) -> impl Iterator<Item = (Cell, HourSet)> + '_ {
        self.store.ranging_pieces(player, self.rangers, &self.tables.range_hours)
    }

    /// The cells a piece on `from` reaches along `hours` as the board stands.
    #[inline]
    pub fn reach_along(&self, from: Cell, hours: HourSet) -> CellSet {
        self.tables.grid.ranges(from, hours, self.store.occupied())
    }

    /// The hash of `player`'s pieces on the board: equal wherever he has the same pieces on
    /// the same cells.
    pub fn board_key(&self, player: Player) -> u64 {
        self.store.board_key(player)
    }

    /// The piece of `attackers` attacking `target` from direction `hour`, if any: the first
    /// piece on that ray, if it steps back from next door or ranges back.
    #[inline]
    pub(super) fn attacker_on_ray(&self, target: Cell, hour: Hour, attackers: CellSet, occupied: CellSet) -> Option<Cell> {
        let grid = self.tables.grid;
        if (grid.ray(target, hour) & attackers).is_empty() {
            return None;
        }
        let blocker = grid.first_on_ray(target, hour, occupied)?;
        if !attackers.contains(blocker) {
            return None;
        }
        let code = self.store.code(blocker) as usize;
        let adjacent = grid.step(target, hour) == Some(blocker);
        let hours = if adjacent { self.tables.near_hours[code] } else { self.tables.range_hours[code] };
        hours.contains(hour.opposite()).then_some(blocker)
    }

    /// True when `player`'s king is attacked by any other player's piece (allies included).
    pub fn in_check(&self, player: Player) -> bool {
        match self.kings[player] {
            Some(king) => self.is_attacked(king, self.others_pieces(player), self.store.occupied()),
            None => false,
        }
    }

    /// False only when the legal move `m` leaves every other player's king unattacked, by
    /// anyone, and sets off nothing else a search must see. Then nobody can be mated by it and
    /// the next player is not in check. Told without making the move: after it, a king is
    /// attacked by the moved or dropped piece from where it lands, or by the other pieces with
    /// the board occupied as the move leaves it. An alliance the move may form (under
    /// `compulsory=auto`) changes the attacks only by promoting the lone king in place, which
    /// then ranges along all twelve rays: so while one can form, any two kings on one line with
    /// nothing between count as a check. True for what it does not follow: the king's moves
    /// (the Garden, castling), illuminations, passes, an alliance awaiting its answer or one
    /// that would (`compulsory=confirm`), and the last ply. A search asks it to leave out late
    /// quiet moves unmade. (A stalemate the move causes is not seen.)
    pub fn may_give_check(&self, m: Move) -> bool {
        self.may_give_check_knowing(m, &self.check_context())
    }

    /// What `may_give_check_knowing` reads off the position once for all its moves: the other
    /// players in check, and where no king is in check, the cells where each role in hand
    /// dropped attacks a king. A drop can then only attack with the dropped piece (it opens no
    /// line), and makes no two kings face each other that do not already. A move of a piece
    /// other than the king can attack a king with the moved piece, or with a piece behind the
    /// cell it leaves: so while no alliance can form (which would add the facing kings), also
    /// the mover's pieces that stand first on a ray from another king with a piece not of that
    /// king's owner behind them, ranging back along it.
    pub fn check_context(&self) -> CheckContext {
        let mut others_in_check = PlayerSet::EMPTY;
        for p in self.to_move.others3() {
            if self.in_check(p) {
                others_in_check.insert(p);
            }
        }
        let kings_between = self.kings_between();
        let drops_told = others_in_check.is_empty()
            && !self.says_true_of_every_move()
            && !kings_face_each_other(&kings_between, self.store.occupied());
        let drop_checks = drops_told.then(|| self.drop_checks());
        let discoverers = (drops_told && !self.alliance_possible()).then(|| self.discoverers());
        CheckContext { others_in_check, drop_checks, discoverers, kings_between }
    }

    /// The pieces of the player to move that stand first on a ray from another player's king
    /// with a piece not of that player's next along it, ranging back towards the king: the
    /// pieces whose move may discover a check.
    fn discoverers(&self) -> CellSet {
        let mover = self.to_move;
        let grid = self.tables.grid;
        let occupied = self.store.occupied();
        let mut discoverers = CellSet::EMPTY;
        for p in mover.others3() {
            let Some(king) = self.kings[p] else { continue };
            let backers = self.others_pieces(p) & self.rangers;
            for hour in Hour::ALL {
                if (grid.ray(king, hour) & backers).is_empty() {
                    continue;
                }
                let Some(first) = grid.first_on_ray(king, hour, occupied).filter(|&c| self.store.pieces_of(mover).contains(c))
                else {
                    continue;
                };
                if grid.first_on_ray(first, hour, occupied).is_some_and(|behind| {
                    backers.contains(behind)
                        && self.tables.range_hours[self.store.code(behind) as usize].contains(hour.opposite())
                }) {
                    discoverers.insert(first);
                }
            }
        }
        discoverers
    }

    /// By role held in hand by the player to move, the cells where a drop attacks another
    /// player's king: a step back onto the king, or a range with nothing between. They are the
    /// cells the piece turned half round reaches from the king's cell.
    fn drop_checks(&self) -> [CellSet; 8] {
        let mover = self.to_move;
        let tables = self.tables;
        let grid = tables.grid;
        let mut cells = [CellSet::EMPTY; 8];
        for role in self.store.hand(mover).roles() {
            let code = code_of(Piece { player: mover, role, promoted: false }) as usize;
            let (near_hours, range_hours) = (tables.near_hours[code].opposite(), tables.range_hours[code].opposite());
            for king in mover.others3().into_iter().filter_map(|p| self.kings[p]) {
                let steps: CellSet = near_hours.iter().filter_map(|hour| grid.step(king, hour)).collect();
                cells[role.index()] |= steps | grid.ranges(king, range_hours, self.store.occupied());
            }
        }
        cells
    }

    /// Whether `may_give_check` says true of every move, whatever it is: an alliance awaiting
    /// its answer, one that would (`compulsory=confirm`), and the last ply.
    fn says_true_of_every_move(&self) -> bool {
        (self.alliance_possible() && self.rules.compulsory != Compulsory::Auto)
            || self.proposal.is_some()
            || self.plies + 1 >= self.rules.max_plies
    }

    /// `may_give_check`, told this position's `check_context`. Where the context holds them, a
    /// drop is one lookup, and a move of a piece that opens no line onto a king one test of the
    /// moved piece per king. Otherwise: a king that stands unattacked can be attacked by the
    /// pieces a move leaves in place only along the line the moved piece leaves, which is one
    /// ray to look down rather than every piece to test.
    #[inline]
    pub fn may_give_check_knowing(&self, m: Move, context: &CheckContext) -> bool {
        match (m, &context.drop_checks, context.discoverers) {
            (Move::Drop { role, to }, Some(cells), _) => cells[role.index()].contains(to),
            (Move::Normal { from, to, promote }, _, Some(discoverers)) if !discoverers.contains(from) => {
                self.board_move_checks(from, to, promote)
            }
            _ => self.move_may_give_check(m, context),
        }
    }

    /// Whether the piece on `from` moved to `to`, no king and opening no line onto a king,
    /// attacks another player's king from there (a king's move says true).
    #[inline(never)]
    fn board_move_checks(&self, from: Cell, to: Cell, promote: bool) -> bool {
        let mover = self.to_move;
        if self.kings[mover] == Some(from) {
            return true;
        }
        // A promotion turns an unpromoted kind into the next one (`Piece::kind`).
        let code = self.store.code(from) as usize + usize::from(promote);
        let occupied = self.store.occupied().without(from).with(to);
        mover.others3().into_iter().filter_map(|p| self.kings[p]).any(|king| self.piece_attacks(code, to, king, occupied))
    }

    /// `may_give_check_knowing` for the moves its context does not tell. Out of line, so that
    /// the drop's lookup inlines into the search's loop over the late moves, most of them drops
    /// where hands are full.
    #[inline(never)]
    fn move_may_give_check(&self, m: Move, context: &CheckContext) -> bool {
        if self.says_true_of_every_move() {
            return true;
        }
        let mover = self.to_move;
        let (from, to, piece) = match m {
            Move::Normal { from, to, promote } => {
                let mut piece = self.piece_at(from).expect("a move starts from a piece");
                if piece.role == Role::King {
                    return true;
                }
                piece.promoted |= promote;
                (Some(from), to, piece)
            }
            Move::Drop { role, to } => (None, to, Piece { player: mover, role, promoted: false }),
            Move::Illuminate { .. } | Move::Pass => return true,
        };
        let tables = self.tables;
        let grid = tables.grid;
        // The two cells the move changes: the other pieces are tested where they stand.
        let mut changed = CellSet::EMPTY.with(to);
        let mut occupied = self.store.occupied().with(to);
        if let Some(from) = from {
            changed.insert(from);
            occupied.remove(from);
        }
        let code = code_of(piece) as usize;
        let checks = mover.others3().into_iter().any(|p| {
            self.kings[p].is_some_and(|king| {
                let others = self.others_pieces(p) - changed;
                (grid.next_door(king).contains(to) && grid.attacks_next_door(to, king, tables.near_hours[code]))
                    || (grid.lines(king).contains(to) && grid.ranges_onto(to, king, tables.range_hours[code], occupied))
                    || if context.others_in_check.contains(p) {
                        self.is_attacked(king, others, occupied)
                    } else {
                        from.and_then(|from| grid.hour_towards(king, from))
                            .is_some_and(|hour| self.attacker_on_ray(king, hour, others, occupied).is_some())
                    }
            })
        });
        checks || kings_face_each_other(&context.kings_between, occupied)
    }

    /// While a compulsory alliance can form, the cells between each two kings that stand on one
    /// line (`None` for a pair that does not, and for every pair once no alliance can form):
    /// where a king promoted in place by an alliance would attack another once they are empty.
    /// Found once a node, as the kings stand still but for the king's own moves.
    fn kings_between(&self) -> [Option<CellSet>; 3] {
        if !self.alliance_possible() {
            return [None; 3];
        }
        let between = |a: Player, b: Player| self.tables.grid.between(self.kings[a]?, self.kings[b]?);
        [between(Player::First, Player::Second), between(Player::Second, Player::Third), between(Player::Third, Player::First)]
    }

    /// Whether `player` may promote now: never while allied; after the alliance dissolves only
    /// if the rules give the right back.
    pub(super) fn may_promote(&self, player: Player) -> bool {
        if self.allies.contains(player) {
            return false;
        }
        !self.former_allies.contains(player) || self.rules.promotion_returns_after_dissolution
    }

    /// Whether `player`'s king wins by entering the Garden.
    pub(super) fn has_garden_right(&self, player: Player) -> bool {
        if self.allies.contains(player) {
            return false;
        }
        !self.former_allies.contains(player) || self.rules.garden_returns_after_dissolution
    }

    /// The cells an illumination from `from` along `rays` removes: the first piece on each ray.
    pub fn illumination_targets(&self, from: Cell, rays: crate::mv::HourSet) -> CellSet {
        rays.iter().filter_map(|h| self.tables.grid.first_on_ray(from, h, self.store.occupied())).collect()
    }

    /// Makes the move's changes to the board and hands only: no legality check, no turn logic.
    pub(super) fn apply_pieces(&mut self, m: Move, mover: Player) {
        match m {
            Move::Normal { from, to, promote } => {
                let mut piece = self.clear(from).expect("a move starts from a piece");
                if let Some(captured) = self.clear(to) {
                    self.store.add_to_hand(mover, captured.role);
                }
                if piece.role == Role::King {
                    self.kings[mover] = Some(to);
                    self.may_castle[mover] = false;
                    if promote {
                        self.illumination_ready[mover] = false;
                    }
                }
                piece.promoted |= promote;
                self.put(to, piece);
            }
            Move::Drop { role, to } => {
                self.store.take_from_hand(mover, role);
                self.put(to, Piece { player: mover, role, promoted: false });
            }
            Move::Illuminate { from, rays } => {
                for target in self.illumination_targets(from, rays) {
                    if let Some(captured) = self.clear(target) {
                        self.store.add_to_hand(mover, captured.role);
                    }
                }
            }
            Move::Pass => {}
        }
    }

    /// Puts `piece` on the empty `cell`.
    fn put(&mut self, cell: Cell, piece: Piece) {
        let code = self.store.put(cell, piece);
        if !self.tables.range_hours[code as usize].is_empty() {
            self.rangers.insert(cell);
        }
        self.standing_threats.take();
    }

    /// Empties `cell`, returning what stood there.
    fn clear(&mut self, cell: Cell) -> Option<Piece> {
        self.rangers.remove(cell);
        self.standing_threats.take();
        self.store.clear(cell)
    }

    /// Turns the piece on `cell` over to its promoted side, where it has one.
    pub(super) fn promote_in_place(&mut self, cell: Cell) {
        if let Some(piece) = self.piece_at(cell).filter(|p| !p.promoted && can_ever_promote(p.role)) {
            self.clear(cell);
            self.put(cell, Piece { promoted: true, ..piece });
        }
    }

    /// Removes a player from the game: his pieces leave the board and his hand is discarded.
    pub(super) fn eliminate(&mut self, player: Player) {
        // He may have been the previous action's victim: its threats on him stay as they were.
        self.settle_last_action();
        for cell in self.store.pieces_of(player) {
            self.clear(cell);
        }
        self.store.set_hand(player, Hand::EMPTY);
        self.kings[player] = None;
        self.active.remove(player);
        self.allies.remove(player);
        self.may_castle[player] = false;
        self.eliminations.push((player, self.plies));
    }

    /// The next active player after `player` in turn order.
    pub(super) fn next_active(&self, player: Player) -> Player {
        let mut next = player.next3();
        while !self.active.contains(next) {
            next = next.next3();
        }
        next
    }
}

impl PartialEq for SanninPosition {
    fn eq(&self, other: &Self) -> bool {
        self.rules == other.rules
            && self.store == other.store
            && self.to_move == other.to_move
            && self.active == other.active
            && self.allies == other.allies
            && self.former_allies == other.former_allies
            && self.may_castle == other.may_castle
            && self.illumination_ready == other.illumination_ready
            && self.plies == other.plies
            && self.outcome == other.outcome
            && self.last_action() == other.last_action()
            && self.proposal == other.proposal
            && self.accepted == other.accepted
            && self.eliminations == other.eliminations
    }
}

impl Eq for SanninPosition {}

impl fmt::Debug for SanninPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SanninPosition")
            .field("to_move", &self.to_move)
            .field("pieces", &self.store.occupied().map(|c| (c.index(), self.piece_at(c).unwrap())).collect::<Vec<_>>())
            .field("hands", &self.store.hands())
            .field("active", &self.active)
            .field("allies", &self.allies)
            .field("may_castle", &self.may_castle)
            .field("outcome", &self.outcome)
            .finish()
    }
}

/// Whether two kings of `kings_between` face each other with nothing between them as
/// `occupied` says.
fn kings_face_each_other(kings_between: &[Option<CellSet>; 3], occupied: CellSet) -> bool {
    kings_between.iter().flatten().any(|&between| (between & occupied).is_empty())
}

#[cfg(test)]
mod tests {
    use super::SanninPosition;
    use crate::cellset::CellSet;
    use crate::mv::MoveList;
    use crate::player::Player;
    use crate::rules::Rules;
    use crate::splitmix::SplitMix;
    use crate::variant::sannin::SanninRules;

    #[test]
    fn attacks_seen_from_the_target_are_those_each_piece_reaches() {
        // `is_attacked` and `attacking_cells` look out from the target; `reach` (and the
        // detector's attack maps) from each piece. Along random games they must agree on every
        // cell, and `rangers` must hold exactly the pieces that range.
        let mut pos = SanninPosition::start(SanninRules::default());
        let mut moves = MoveList::new();
        let mut rng = SplitMix::new(2026);
        for _ in 0..150 {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.below(moves.len())]);
            let code = |cell| pos.store.code(cell) as usize;
            let rangers: CellSet = pos.store.occupied().filter(|&c| !pos.tables.range_hours[code(c)].is_empty()).collect();
            assert_eq!(pos.rangers, rangers);
            for target in pos.tables.grid.cells() {
                for player in Player::ALL {
                    let attackers = pos.store.pieces_of(player);
                    let reaching: CellSet = attackers.filter(|&from| pos.reach(code(from), from).contains(target)).collect();
                    assert_eq!(pos.attacking_cells(target, attackers, pos.store.occupied()), reaching, "{target:?} {pos:?}");
                    assert_eq!(pos.is_attacked(target, attackers, pos.store.occupied()), !reaching.is_empty());
                }
            }
        }
        assert!(pos.plies() >= 100, "the game ended after {} plies", pos.plies());
    }
}
