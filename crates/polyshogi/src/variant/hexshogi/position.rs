//! The Hex Shogi 91 position (two or three players): board, hands, turn and draw counters,
//! built from an unchecked `HexShogiSetup` by a validating constructor; plus attack detection.

use std::fmt;

use super::key::HexKeys;
use super::rules::{HexShogiRules, HexVariant};
use super::tables::{can_ever_promote, HexShogiTables};
use crate::cellset::CellSet;
use crate::geometry::{Cell, Hour};
use crate::mv::Move;
use crate::outcome::{Events, Outcome};
use crate::piece::{Hand, Piece, Role};
use crate::piece_store::{code_of, PieceStore};
use crate::player::{ByPlayer, Player, PlayerSet};

/// Everything a Hex Shogi 91 position holds, unchecked: what parsers and tests build. Which
/// game it is comes with the rules given to `HexShogiPosition::from_setup`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct HexShogiSetup {
    pub pieces: Vec<(Cell, Piece)>,
    pub hands: ByPlayer<Hand>,
    pub to_move: Player,
    /// Plies played so far (for records; no rule reads it).
    pub plies: u32,
    /// Plies in a row without a capture, passes included (the no-capture draw).
    pub plies_without_capture: u32,
    /// Three players: forced passes in a row by players who still have pieces, since the
    /// last move that was not a pass (the "everyone passed" draw). Passes of a player
    /// without pieces neither count nor break the run.
    pub passes_in_a_row: u8,
    /// Three players: those whose clock ran out while three still held pieces. They have lost
    /// and only pass; their pieces stay (§2.7 [DEF]).
    pub timed_out: PlayerSet,
}

impl HexShogiSetup {
    /// The start array of the game (§2.6, or the reconstruction of §2.8), Black to move.
    pub fn start(variant: HexVariant) -> HexShogiSetup {
        HexShogiSetup {
            pieces: HexShogiTables::get(variant).start.clone(),
            hands: ByPlayer::default(),
            to_move: Player::First,
            plies: 0,
            plies_without_capture: 0,
            passes_in_a_row: 0,
            timed_out: PlayerSet::EMPTY,
        }
    }
}

/// Why a setup is not a playable position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PositionError {
    /// A cell index beyond the 91 cells of the board.
    OffBoard(Cell),
    TwoPiecesOnOneCell(Cell),
    /// A piece or hand of a seat the game does not have (the third seat of Hex Shogi 91).
    NoSuchSeat(Player),
    /// Two players: each needs exactly one king on the board.
    KingCount {
        player: Player,
        kings: usize,
    },
    /// Two players: kings are never captured, so none can be in hand.
    KingInHand(Player),
    /// Three players: the three kings must all be somewhere, on the board or in hand.
    KingTotal {
        kings: u32,
    },
    /// Three players: this player already holds all three kings (the game is over).
    KingsAlreadyCollected(Player),
    PromotedForbidden {
        cell: Cell,
        role: Role,
    },
    /// An unpromoted pawn, lance or knight stands where it can never move.
    DeadPiece(Cell),
    TooManyPieces {
        role: Role,
        count: u32,
    },
    /// Two players: the player who is not to move stands in check.
    OpponentInCheck(Player),
    /// A player ran out of time where the game keeps no such player: in Hex Shogi 91, where a
    /// time-out ends the game, or beside another who did (the second time-out ends it).
    TimedOut(Player),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::OffBoard(c) => write!(f, "cell index {} is not on the 91-cell board", c.index()),
            PositionError::TwoPiecesOnOneCell(c) => write!(f, "two pieces on cell {}", c.index()),
            PositionError::NoSuchSeat(p) => write!(f, "seat {} does not play in this game", p.index() + 1),
            PositionError::KingCount { player, kings } => {
                write!(f, "player {} has {kings} kings on the board (needs exactly 1)", player.index() + 1)
            }
            PositionError::KingInHand(p) => {
                write!(f, "player {} holds a king in hand (kings are never captured here)", p.index() + 1)
            }
            PositionError::KingTotal { kings } => write!(f, "{kings} kings on the board and in hand (needs 3)"),
            PositionError::KingsAlreadyCollected(p) => {
                write!(f, "player {} already holds all three kings", p.index() + 1)
            }
            PositionError::PromotedForbidden { role, .. } => write!(f, "a {role:?} has no promoted form"),
            PositionError::DeadPiece(c) => {
                write!(f, "an unpromoted piece stands where it can never move (cell {})", c.index())
            }
            PositionError::TooManyPieces { role, count } => {
                write!(f, "{count} pieces of role {role:?} exceed the armies' total")
            }
            PositionError::OpponentInCheck(p) => {
                write!(f, "player {} is in check but not to move", p.index() + 1)
            }
            PositionError::TimedOut(p) => write!(
                f,
                "player {} cannot have lost on time in a game that goes on (only one player of Three Player Hex Shogi 91 can)",
                p.index() + 1
            ),
        }
    }
}

impl std::error::Error for PositionError {}

/// What `HexShogiPosition::gives_check_knowing` reads off a position once for all its moves
/// (see `HexShogiPosition::check_cells`).
#[derive(Clone, Copy, Debug)]
pub struct CheckCells {
    /// The opponent's king; none with three players, where nobody is in check.
    king: Option<Cell>,
    /// By role held in hand, the cells where a drop checks the king.
    drops: [CellSet; 8],
}

/// A legal, playable position of Hex Shogi 91 or Three Player Hex Shogi 91.
#[derive(Clone)]
pub struct HexShogiPosition {
    pub(super) tables: &'static HexShogiTables,
    pub(super) rules: HexShogiRules,
    /// Board and hands, with their Zobrist hash.
    pub(super) store: PieceStore<HexKeys>,
    /// Every king on the board, whoever owns it (three players may own several).
    pub(super) kings: CellSet,
    /// Unpromoted knights and pawns of every player: the leapers attack checks need, and the
    /// pawns the pawn-drop rule looks at.
    pub(super) knights: CellSet,
    pub(super) pawns: CellSet,
    /// Pieces that range along some ray (rook, bishop, lance and the promoted rook and
    /// bishop): only they attack from afar, pin or check along a line.
    pub(super) rangers: CellSet,
    /// Per player and per quarter of the cell indexes (32 each), the sum of `move_bounds` over
    /// the player's pieces there, kings included: the random-move sampler's slots, kept up to
    /// date by every move so that a draw need not add them up.
    pub(super) move_bound_sums: ByPlayer<[u16; 4]>,
    pub(super) to_move: Player,
    /// Two players: whether the player to move is in check, found once when the turn comes
    /// (`judge_turn`), since the mate test, the move generator and the search all ask.
    pub(super) mover_in_check: bool,
    pub(super) plies: u32,
    pub(super) plies_without_capture: u32,
    pub(super) passes_in_a_row: u8,
    /// Three players: who has lost on time and only passes (see `HexShogiSetup::timed_out`).
    pub(super) timed_out: PlayerSet,
    pub(super) outcome: Option<Outcome>,
}

impl HexShogiPosition {
    /// The start position of the game the rules name.
    pub fn start(rules: HexShogiRules) -> HexShogiPosition {
        HexShogiPosition::from_setup(HexShogiSetup::start(rules.variant), rules).expect("the start array is a valid position")
    }

    /// Validates a setup for the game the rules name. A setup in which the game is already
    /// decided (a player to move who is mated, a count past the no-capture limit) is valid and
    /// comes with its outcome.
    pub fn from_setup(setup: HexShogiSetup, rules: HexShogiRules) -> Result<HexShogiPosition, PositionError> {
        HexShogiPosition::validate(setup, rules, false)
    }

    /// Validates a setup; a finished game (`finished`) may show its winner holding all three
    /// kings, or its loser in check.
    pub(super) fn validate(
        setup: HexShogiSetup,
        rules: HexShogiRules,
        finished: bool,
    ) -> Result<HexShogiPosition, PositionError> {
        let tables = HexShogiTables::get(rules.variant);
        let three = rules.variant.is_three_player();
        let mut pos = HexShogiPosition {
            tables,
            rules,
            store: PieceStore::new(),
            kings: CellSet::EMPTY,
            knights: CellSet::EMPTY,
            pawns: CellSet::EMPTY,
            rangers: CellSet::EMPTY,
            move_bound_sums: ByPlayer::default(),
            to_move: setup.to_move,
            mover_in_check: false,
            plies: setup.plies,
            plies_without_capture: setup.plies_without_capture,
            passes_in_a_row: if three { setup.passes_in_a_row } else { 0 },
            timed_out: setup.timed_out,
            outcome: None,
        };
        if !tables.seats.contains(&setup.to_move) {
            return Err(PositionError::NoSuchSeat(setup.to_move));
        }
        let mut role_counts = [0u32; 8];
        for &(cell, piece) in &setup.pieces {
            if cell.usize() >= tables.grid.len() {
                return Err(PositionError::OffBoard(cell));
            }
            if pos.store.occupied().contains(cell) {
                return Err(PositionError::TwoPiecesOnOneCell(cell));
            }
            if !tables.seats.contains(&piece.player) {
                return Err(PositionError::NoSuchSeat(piece.player));
            }
            if piece.promoted && !can_ever_promote(piece.role) {
                return Err(PositionError::PromotedForbidden { cell, role: piece.role });
            }
            if !piece.promoted && tables.dead_cells[piece.player][piece.role.index()].contains(cell) {
                return Err(PositionError::DeadPiece(cell));
            }
            role_counts[piece.role.index()] += 1;
            pos.put(cell, piece);
        }
        for p in Player::ALL {
            if !tables.seats.contains(&p) && !setup.hands[p].is_empty() {
                return Err(PositionError::NoSuchSeat(p));
            }
            for role in Role::ALL {
                role_counts[role.index()] += setup.hands[p].count(role) as u32;
            }
            pos.store.set_hand(p, setup.hands[p]);
        }
        if !three {
            for &p in tables.seats {
                if pos.store.hand(p).count(Role::King) > 0 {
                    return Err(PositionError::KingInHand(p));
                }
            }
        }
        for role in Role::ALL {
            let limit = tables.army[role.index()] as u32 * tables.seats.len() as u32;
            if role_counts[role.index()] > limit {
                return Err(PositionError::TooManyPieces { role, count: role_counts[role.index()] });
            }
        }
        if three {
            let kings = role_counts[Role::King.index()];
            if kings != 3 {
                return Err(PositionError::KingTotal { kings });
            }
            if let Some(p) = Player::ALL.into_iter().find(|&p| pos.kings_held(p) == 3 && !finished) {
                return Err(PositionError::KingsAlreadyCollected(p));
            }
            // One time-out leaves two players in; the next one ends the game instead.
            if pos.timed_out.len() > 1 {
                return Err(PositionError::TimedOut(pos.timed_out.iter().last().expect("two players")));
            }
        } else {
            if let Some(p) = pos.timed_out.iter().next() {
                return Err(PositionError::TimedOut(p));
            }
            for &p in tables.seats {
                let kings = (pos.kings & pos.store.pieces_of(p)).count() as usize;
                if kings != 1 {
                    return Err(PositionError::KingCount { player: p, kings });
                }
            }
            let waiting = pos.opponent(pos.to_move);
            if pos.in_check(waiting) && !finished {
                return Err(PositionError::OpponentInCheck(waiting));
            }
        }
        let mut events = Events::new();
        pos.judge_turn(&mut events);
        Ok(pos)
    }

    /// The position as an unchecked setup (the inverse of `from_setup`).
    pub fn to_setup(&self) -> HexShogiSetup {
        HexShogiSetup {
            pieces: self.store.occupied().map(|c| (c, self.piece_at(c).expect("occupied"))).collect(),
            hands: self.store.hands(),
            to_move: self.to_move,
            plies: self.plies,
            plies_without_capture: self.plies_without_capture,
            passes_in_a_row: self.passes_in_a_row,
            timed_out: self.timed_out,
        }
    }

    pub fn rules(&self) -> &HexShogiRules {
        &self.rules
    }

    pub fn hex_variant(&self) -> HexVariant {
        self.rules.variant
    }

    pub fn tables(&self) -> &'static HexShogiTables {
        self.tables
    }

    pub fn is_three_player(&self) -> bool {
        self.rules.variant.is_three_player()
    }

    pub fn to_move(&self) -> Player {
        self.to_move
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    pub fn hand(&self, player: Player) -> &Hand {
        self.store.hand(player)
    }

    pub fn plies(&self) -> u32 {
        self.plies
    }

    pub fn plies_without_capture(&self) -> u32 {
        self.plies_without_capture
    }

    pub fn passes_in_a_row(&self) -> u8 {
        self.passes_in_a_row
    }

    pub fn occupied(&self) -> CellSet {
        self.store.occupied()
    }

    pub fn pieces_of(&self, player: Player) -> CellSet {
        self.store.pieces_of(player)
    }

    /// Every king on the board, whoever owns it.
    pub fn kings(&self) -> CellSet {
        self.kings
    }

    #[inline]
    pub fn piece_at(&self, cell: Cell) -> Option<Piece> {
        self.store.piece_at(cell)
    }

    /// Two players: the other player.
    #[inline]
    pub(super) fn opponent(&self, player: Player) -> Player {
        match player {
            Player::First => Player::Second,
            _ => Player::First,
        }
    }

    /// `player`'s king (two players: always exactly one).
    #[inline]
    pub fn king_of(&self, player: Player) -> Option<Cell> {
        (self.kings & self.store.pieces_of(player)).first()
    }

    /// How many kings `player` holds, on the board and in hand (three players).
    pub fn kings_held(&self, player: Player) -> u32 {
        (self.kings & self.store.pieces_of(player)).count() + self.store.hand(player).count(Role::King) as u32
    }

    /// Whether `player` still has a piece on the board or in hand.
    #[inline]
    pub fn has_pieces(&self, player: Player) -> bool {
        !self.store.pieces_of(player).is_empty() || !self.store.hand(player).is_empty()
    }

    /// Whether `player` is still in the game. Three players: a seated player without pieces,
    /// or whose time ran out, has lost and only passes.
    #[inline]
    pub fn is_still_in(&self, player: Player) -> bool {
        self.has_pieces(player) && !self.timed_out.contains(player)
    }

    /// The seats still in the game.
    pub fn players_still_in(&self) -> PlayerSet {
        let mut set = PlayerSet::EMPTY;
        for &p in self.tables.seats {
            if self.is_still_in(p) {
                set.insert(p);
            }
        }
        set
    }

    /// Three players: the seats that have lost (every piece, or on time) but keep passing.
    pub fn lost_players(&self) -> PlayerSet {
        PlayerSet::of(self.tables.seats).without(self.players_still_in())
    }

    /// Three players: the seats that lost on time while the others held pieces.
    pub fn timed_out(&self) -> PlayerSet {
        self.timed_out
    }

    /// Two players: whether `player`'s king is attacked. Three players have no check.
    pub fn in_check(&self, player: Player) -> bool {
        if self.is_three_player() {
            return false;
        }
        if player == self.to_move {
            return self.mover_in_check;
        }
        self.attacked_king(player)
    }

    /// Two players: whether `player`'s king is attacked, found on the board.
    pub(super) fn attacked_king(&self, player: Player) -> bool {
        match self.king_of(player) {
            Some(king) => {
                let enemy = self.opponent(player);
                self.attacked_by(king, enemy, self.store.pieces_of(enemy), self.store.occupied())
            }
            None => false,
        }
    }

    /// Two players: whether the legal move `m` leaves the opponent's king attacked, told
    /// without making it (`gives_check_knowing` says how). Three players: false, since nobody
    /// is ever in check.
    pub fn gives_check(&self, m: Move) -> bool {
        self.gives_check_knowing(&self.check_cells(), m)
    }

    /// Whether moving the piece on `from` to `to` opens a line of the opponent's `king` onto a
    /// ranging piece of the player to move.
    fn discovers_check(&self, king: Cell, from: Cell, to: Cell) -> bool {
        self.tables.grid.hour_towards(king, from).is_some_and(|hour| {
            let rangers = (self.rangers & self.store.pieces_of(self.to_move)).without(from);
            self.ranges_onto(king, hour, rangers, self.store.occupied().with(to).without(from)).is_some()
        })
    }

    /// What `gives_check_knowing` reads off once for all the moves of this position: the
    /// opponent's king, and for each role the player to move holds (by `Role::index`), the
    /// cells where a piece of it dropped would check that king. They are the cells the
    /// opponent's own piece of that role reaches from the king's cell, since the two armies
    /// move as each other turned half round. Nothing with three players, as `gives_check`
    /// says.
    pub fn check_cells(&self) -> CheckCells {
        let mut cells = CheckCells { king: None, drops: [CellSet::EMPTY; 8] };
        let opponent = self.opponent(self.to_move);
        if let Some(king) = self.king_of(opponent).filter(|_| !self.is_three_player()) {
            cells.king = Some(king);
            for role in self.store.hand(self.to_move).roles() {
                let code = code_of(Piece { player: opponent, role, promoted: false }) as usize;
                cells.drops[role.index()] = self.reach(code, king);
            }
        }
        cells
    }

    /// `gives_check`, with what every move of the position shares read from its `check_cells`:
    /// a search tells the many late moves of a node with a lookup for a drop, and for a move
    /// without decoding the piece. Only two cells change: the moved piece attacks the king
    /// from where it lands (by a step or a leap, or along a range with nothing between), or
    /// leaving its cell opens a line of the king onto a ranging piece of the mover (a
    /// discovered check); the cell it lands on can only close lines. The drop's lookup is
    /// inlined into the search's loop over the late moves, most of which are drops where
    /// hands are full; the rest is a call.
    #[inline]
    pub fn gives_check_knowing(&self, cells: &CheckCells, m: Move) -> bool {
        let Some(king) = cells.king else { return false };
        match m {
            Move::Drop { role, to } => cells.drops[role.index()].contains(to),
            Move::Normal { from, to, promote } => self.board_move_gives_check(king, from, to, promote),
            Move::Illuminate { .. } | Move::Pass => self.in_check(self.opponent(self.to_move)),
        }
    }

    /// `gives_check_knowing` for the piece on `from` moving to `to`, the opponent's king
    /// standing on `king`.
    #[inline(never)]
    fn board_move_gives_check(&self, king: Cell, from: Cell, to: Cell, promote: bool) -> bool {
        // A promotion turns an unpromoted kind into the next one (`Piece::kind`).
        let code = self.store.code(from) as usize + usize::from(promote);
        let tables = self.tables;
        let range_hours = tables.range_hours[code];
        tables.step_targets[code][to.usize()].contains(king)
            || (!range_hours.is_empty()
                && tables.grid.lines(king).contains(to)
                && tables.grid.ranges_onto(to, king, range_hours, self.store.occupied().with(to).without(from)))
            || self.discovers_check(king, from, to)
    }

    /// True when some piece of `attacker` standing on a cell of `attackers` attacks `target`,
    /// with the board occupied as `occupied` says. Three kinds of attack, cheapest first:
    /// knights leaping in, pieces one step away stepping (or starting a range) back onto the
    /// target, and ranging pieces from afar, the first piece met on a ray.
    #[inline(always)]
    pub(super) fn attacked_by(&self, target: Cell, attacker: Player, attackers: CellSet, occupied: CellSet) -> bool {
        let tables = self.tables;
        let grid = tables.grid;
        if !(tables.knight_sources[attacker][target.usize()] & attackers & self.knights).is_empty() {
            return true;
        }
        if (grid.next_door(target) & attackers).into_iter().any(|near| self.attacks_next_door(near, target)) {
            return true;
        }
        // Each ranging piece on one of the target's lines, along the one ray that joins them:
        // usually fewer than the twelve rays.
        (grid.lines(target) & attackers & self.rangers)
            .into_iter()
            .any(|ranger| grid.ranges_onto(ranger, target, tables.range_hours[self.store.code(ranger) as usize], occupied))
    }

    /// Whether the piece on `near`, the first cell of one of `target`'s rays, attacks `target`:
    /// by a step, or by the first cell of a range.
    #[inline]
    pub(super) fn attacks_next_door(&self, near: Cell, target: Cell) -> bool {
        self.tables.grid.attacks_next_door(near, target, self.tables.near_hours[self.store.code(near) as usize])
    }

    /// The piece of `rangers` that ranges along `hour`'s ray onto `target`, if any.
    #[inline]
    pub(super) fn ranges_onto(&self, target: Cell, hour: Hour, rangers: CellSet, occupied: CellSet) -> Option<Cell> {
        let grid = self.tables.grid;
        if (grid.ray(target, hour) & rangers).is_empty() {
            return None;
        }
        let blocker = grid.first_on_ray(target, hour, occupied)?;
        let code = self.store.code(blocker) as usize;
        (rangers.contains(blocker) && self.tables.range_hours[code].contains(hour.opposite())).then_some(blocker)
    }

    /// Puts `piece` on the empty `cell`, noting it in the role sets attack tests use.
    #[inline]
    fn put(&mut self, cell: Cell, piece: Piece) {
        let code = self.store.put(cell, piece);
        if !piece.promoted {
            match piece.role {
                Role::King => self.kings.insert(cell),
                Role::Knight => self.knights.insert(cell),
                Role::Pawn => self.pawns.insert(cell),
                _ => {}
            }
        }
        if !self.tables.range_hours[code as usize].is_empty() {
            self.rangers.insert(cell);
        }
        self.move_bound_sums[piece.player][cell.usize() / 32] += self.move_bound_at(cell);
    }

    /// The random-move sampler's slots for the piece on `cell` (`move_bounds`; 0 if empty).
    #[inline]
    pub(super) fn move_bound_at(&self, cell: Cell) -> u16 {
        u16::from(self.tables.move_bounds[self.store.code(cell) as usize][cell.usize()])
    }

    /// Empties `cell`, returning what stood there.
    #[inline]
    fn clear(&mut self, cell: Cell) -> Option<Piece> {
        let bound = self.move_bound_at(cell);
        let piece = self.store.clear(cell)?;
        self.move_bound_sums[piece.player][cell.usize() / 32] -= bound;
        self.kings.remove(cell);
        self.knights.remove(cell);
        self.pawns.remove(cell);
        self.rangers.remove(cell);
        Some(piece)
    }

    /// Makes the move's changes to the board and hands only (a captured piece goes to the
    /// mover's hand, unpromoted); returns whether it captured.
    pub(super) fn apply_pieces(&mut self, m: Move, mover: Player) -> bool {
        match m {
            Move::Normal { from, to, promote } => {
                let mut piece = self.clear(from).expect("a move starts from a piece");
                let captured = self.clear(to);
                if let Some(captured) = captured {
                    self.store.add_to_hand(mover, captured.role);
                }
                piece.promoted |= promote;
                self.put(to, piece);
                captured.is_some()
            }
            Move::Drop { role, to } => {
                self.store.take_from_hand(mover, role);
                self.put(to, Piece { player: mover, role, promoted: false });
                false
            }
            Move::Illuminate { .. } | Move::Pass => false,
        }
    }
}

impl PartialEq for HexShogiPosition {
    fn eq(&self, other: &Self) -> bool {
        self.rules == other.rules
            && self.store == other.store
            && self.to_move == other.to_move
            && self.plies == other.plies
            && self.plies_without_capture == other.plies_without_capture
            && self.passes_in_a_row == other.passes_in_a_row
            && self.timed_out == other.timed_out
            && self.outcome == other.outcome
    }
}

impl Eq for HexShogiPosition {}

impl fmt::Debug for HexShogiPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HexShogiPosition")
            .field("variant", &self.rules.variant)
            .field("to_move", &self.to_move)
            .field("pieces", &self.store.occupied().map(|c| (c.index(), self.piece_at(c).unwrap())).collect::<Vec<_>>())
            .field("hands", &self.store.hands())
            .field("plies_without_capture", &self.plies_without_capture)
            .field("passes_in_a_row", &self.passes_in_a_row)
            .field("outcome", &self.outcome)
            .finish()
    }
}
