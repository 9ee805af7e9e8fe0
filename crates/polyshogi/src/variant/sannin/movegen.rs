//! Legal move generation for Sannin shogi, from precomputed tables and without allocating.
//! Legality comes from pins, check evasion and a direct test for checking an ally; only rare
//! cases (an illumination in check, a pawn drop that checks, `forbid_exposing_ally`) try the
//! move on a copy of the position.

use arrayvec::ArrayVec;

use super::position::SanninPosition;
use super::rules::{AlliedPromotion, DeadCellRule, Illumination, Stalemate};
use super::tables::can_ever_promote;
use crate::cellset::CellSet;
use crate::geometry::{Cell, Hour};
use crate::mv::{HourSet, Move, MoveCount, MoveList, MoveSampler, MoveSink};
use crate::piece::{Piece, Role};
use crate::piece_store::code_of;
use crate::player::Player;
use crate::splitmix::SplitMix;

/// Nested mate tests (a pawn drop that might mate, inside a mate test) stop at this depth and
/// allow the drop; real games never come near it.
const MAX_DROP_MATE_DEPTH: u8 = 2;

/// The lists `generate_unfiltered` makes: every legal action, those that may take a piece or
/// win at once (`legal_captures`), and the others (`push_quiet_moves`).
const ALL: u8 = 0;
const CAPTURES: u8 = 1;
const QUIETS: u8 = 2;

/// What the generator knows about the mover's king before generating.
struct KingSafety {
    king: Cell,
    in_check: bool,
    /// Where a non-king move or a drop must end: anywhere when not in check; on the checking
    /// piece or between it and the king under one check; nowhere under two.
    evasion: CellSet,
    /// The mover's pieces pinned to the king (`HexGrid::pin_line` says where each may go).
    pinned: CellSet,
    /// The ally's king, which the mover's pieces may not attack after his move.
    ally_king: Option<Cell>,
    /// Cells a move must touch to attack the ally's king: every cell on its rays (every cell
    /// when the mover attacks it already, so that each move is tested).
    ally_lines: CellSet,
    /// Whether a piece of the mover attacks the ally's king now.
    ally_attacked: bool,
    /// Try every candidate on a copy (only under `forbid_exposing_ally`, for allies).
    by_trial: bool,
}

/// The compulsory-alliance rule of `drop_moves_forming_alliance_with_checked_player`, for one
/// mover's actions in turn.
struct AllianceCheck {
    mover: Player,
    /// The cells a move must touch to give a new check: every cell while the mover attacks
    /// another player's king already (`standing_check`), since that check survives most moves.
    near_kings: CellSet,
    standing_check: bool,
    /// Whether a dual attack could form, and the line screens: found at the first move that
    /// touches a king's line, since most lists (and most proofs of an action) have none.
    openings: Option<(bool, CellSet)>,
}

impl SanninPosition {
    /// Every legal action of the player to move.
    pub fn legal_moves(&self, out: &mut MoveList) {
        self.note_standing_threats();
        self.list_legal_moves(out);
    }

    /// The legal actions that may take a piece or win at once, in `legal_moves`' order: the
    /// moves onto another player's piece or into the Garden, and the illuminations. Under
    /// `must_parry_mate_threat`, every legal action: which actions that rule keeps depends on
    /// the whole list. The engine's quiescence search looks at no others, so it saves
    /// generating the quiet moves and the drops, and testing them for alliances.
    pub fn legal_captures(&self, out: &mut MoveList) {
        self.note_standing_threats();
        if self.rules.must_parry_mate_threat {
            self.list_legal_moves(out);
            return;
        }
        out.clear();
        self.generate_unfiltered::<CAPTURES>(self.to_move, out, 0);
        // The compulsory-alliance rule judges each action alone, so it may judge just these.
        if self.alliance_possible() {
            self.drop_moves_forming_alliance_with_checked_player(self.to_move, out, 0);
        }
    }

    /// The legal actions that neither take a piece nor win at once, in `legal_moves`' order:
    /// the moves onto an empty cell but the king's step into the Garden that wins, the drops,
    /// and the pass of a player who has no other action. With `legal_captures` they hold every
    /// legal action (a move into the empty Garden is in both). False, and nothing pushed, where
    /// a rule takes actions out of the list after it is made (the compulsory-alliance check
    /// while an alliance can form, `must_parry_mate_threat`): then only the whole list says
    /// which stay. The engine's search takes them straight into its ordering once a node's
    /// captures are used up.
    pub fn push_quiet_moves(&self, out: &mut impl MoveSink) -> bool {
        if self.rules.must_parry_mate_threat || self.alliance_possible() {
            return false;
        }
        self.generate_unfiltered::<QUIETS>(self.to_move, out, 0);
        true
    }

    /// `legal_moves` without noting the standing threats, which only actions played need.
    fn list_legal_moves(&self, out: &mut MoveList) {
        out.clear();
        self.generate_for(self.to_move, out, 0);
        // Only here, at the top: the rule never empties a player's choice, so the nested
        // "has he any legal action" tests need not know of it.
        if self.rules.must_parry_mate_threat {
            self.keep_mate_parries(out);
        }
    }

    /// Whether a rule may take actions out of the generator's list afterwards: mate parries,
    /// or the compulsory-alliance check when some action could form an alliance at all. Then
    /// counting or choosing an action needs the list.
    fn list_is_filtered(&self) -> bool {
        self.rules.must_parry_mate_threat || self.alliance_possible() && self.some_action_could_form_alliance(self.to_move)
    }

    /// How many legal actions `legal_moves` would list, counted without listing them unless
    /// the list is filtered.
    pub fn legal_move_count(&self) -> usize {
        if self.list_is_filtered() {
            let mut moves = MoveList::new();
            self.list_legal_moves(&mut moves);
            return moves.len();
        }
        let mut count = MoveCount::default();
        self.generate_unfiltered::<ALL>(self.to_move, &mut count, 0);
        count.0
    }

    /// One of the actions `legal_moves` would list, chosen uniformly at random, without listing
    /// them unless the list is filtered. Like `legal_moves`, it notes the standing threats for
    /// the action that will be played.
    pub fn random_legal_move(&self, rng: &mut SplitMix) -> Option<Move> {
        self.note_standing_threats();
        if self.list_is_filtered() {
            let mut moves = MoveList::new();
            self.list_legal_moves(&mut moves);
            return rng.pick(&moves);
        }
        let mut sampler = MoveSampler::new(rng);
        self.generate_unfiltered::<ALL>(self.to_move, &mut sampler, 0);
        sampler.chosen()
    }

    /// Whether `player`, if it were his turn now, would have a legal action.
    pub(super) fn has_legal_action(&self, player: Player, depth: u8) -> bool {
        self.has_legal_action_knowing(player, depth, self.in_check(player))
    }

    /// `has_legal_action`, told whether `player` is in check.
    pub(super) fn has_legal_action_knowing(&self, player: Player, depth: u8, in_check: bool) -> bool {
        if self.outcome.is_some() || !self.active.contains(player) {
            return false;
        }
        // Usually some piece that shields nothing can move, which proves it at once when the
        // king is not in check. A piece on none of the king's lines shields nothing, so those
        // are tried before the pins are looked for. In check, a king that can step out of it
        // proves it as quickly, and else a piece that takes the one checking piece or steps
        // between it and the king.
        if let Some(king) = self.kings[player] {
            if let Some(avoid) = self.cells_a_proof_avoids(player, depth) {
                let proved = if in_check {
                    self.king_has_safe_step(player, king, avoid)
                        || self.parries_a_proof_may_take(player, king, avoid).next().is_some()
                } else {
                    let pieces = self.store.pieces_of(player).without(king) - avoid;
                    let lines = self.tables.grid.lines(king);
                    self.some_piece_can_move(player, pieces - lines, avoid)
                        || self.some_piece_can_move(player, (pieces & lines) - self.king_safety(player, king).pinned, avoid)
                };
                if proved {
                    return true;
                }
            }
        }
        let mut moves = MoveList::new();
        self.generate_unfiltered::<ALL>(player, &mut moves, depth);
        if depth == 0 && self.alliance_possible() {
            self.some_action_survives_alliance_check(player, &moves)
        } else {
            !moves.is_empty()
        }
    }

    /// Whether `generate_for` at the top would list an action of `mover`, given his actions
    /// before the compulsory-alliance rule: the first one the rule leaves proves it. Kept out of
    /// line: the answer without the rule, the common one, is the caller's whole work.
    #[inline(never)]
    fn some_action_survives_alliance_check(&self, mover: Player, unfiltered: &MoveList) -> bool {
        let mut check = self.alliance_check(mover);
        unfiltered.iter().any(|&m| !self.alliance_check_forbids(&mut check, m)) || self.passes_when_stalemated(mover)
    }

    /// Appends the legal actions of `mover` as if it were his turn.
    pub(super) fn generate_for(&self, mover: Player, out: &mut MoveList, depth: u8) {
        let first_new = out.len();
        self.generate_unfiltered::<ALL>(mover, out, depth);
        if depth == 0 && self.alliance_possible() {
            self.drop_moves_forming_alliance_with_checked_player(mover, out, first_new);
            if out.len() == first_new {
                self.push_pass_if_stalemated(mover, out);
            }
        }
    }

    /// The legal actions of `mover` but for the compulsory-alliance check of
    /// `drop_moves_forming_alliance_with_checked_player`, the forced pass included; with
    /// `CAPTURES`, only those of `legal_captures`, and with `QUIETS` those of
    /// `push_quiet_moves`. The choice is a constant so that the full generator, perft's, tests
    /// nothing for it.
    fn generate_unfiltered<const LIST: u8>(&self, mover: Player, out: &mut impl MoveSink, depth: u8) {
        if self.outcome.is_some() || self.proposal.is_some() || !self.active.contains(mover) {
            return;
        }
        let Some(king) = self.kings[mover] else { return };
        let first_new = out.count();
        let safety = self.king_safety(mover, king);
        let garden = self.tables.garden;
        let (aim, king_aim) = match LIST {
            CAPTURES => {
                let takes = self.others_pieces(mover).with(garden);
                (takes, takes)
            }
            QUIETS => {
                let empty = self.tables.grid.all() - self.store.occupied();
                (empty, if self.has_garden_right(mover) { empty.without(garden) } else { empty })
            }
            _ => (self.tables.grid.all(), self.tables.grid.all()),
        };
        self.generate_board_moves::<LIST>(mover, &safety, aim, out, depth);
        self.generate_king_moves(mover, &safety, king_aim, out, depth);
        if LIST != CAPTURES {
            self.generate_drops(mover, &safety, out, depth);
        }
        if LIST != QUIETS {
            self.generate_illuminations(mover, &safety, out, depth);
        }
        // The pass comes only when nothing else does: for `QUIETS`, not even a capture.
        let no_other_action = match LIST {
            ALL => out.count() == first_new,
            QUIETS => {
                out.count() == first_new && {
                    let mut others = MoveCount::default();
                    self.generate_unfiltered::<CAPTURES>(mover, &mut others, depth);
                    others.0 == 0
                }
            }
            _ => false,
        };
        if no_other_action {
            self.push_pass_if_stalemated(mover, out);
        }
    }

    fn push_pass_if_stalemated(&self, mover: Player, out: &mut impl MoveSink) {
        if self.passes_when_stalemated(mover) {
            out.push(Move::Pass);
        }
    }

    /// Whether `mover`, left without another action, passes (`stalemate=pass`, not in check).
    fn passes_when_stalemated(&self, mover: Player) -> bool {
        self.rules.stalemate == Stalemate::Pass && !self.in_check(mover)
    }

    /// §1.13 [DEF]: a move that would form an alliance while one new ally stands in check
    /// from the other is illegal. Only moves that give check can do that, so only those run
    /// the detector. A move that checkmates forms no alliance (step 5), so it stays legal.
    /// (Nested evaluations — mate tests, replies — skip this rule.)
    fn drop_moves_forming_alliance_with_checked_player(&self, mover: Player, out: &mut MoveList, first_new: usize) {
        let mut check = self.alliance_check(mover);
        let mut index = first_new;
        while index < out.len() {
            if self.alliance_check_forbids(&mut check, out[index]) {
                out.remove(index);
            } else {
                index += 1;
            }
        }
    }

    fn alliance_check(&self, mover: Player) -> AllianceCheck {
        let near_kings = self.lines_to_other_kings(mover);
        AllianceCheck {
            mover,
            standing_check: near_kings.is_none(),
            near_kings: near_kings.unwrap_or(self.tables.grid.all()),
            openings: None,
        }
    }

    /// The cells whose contents `m` changes.
    fn cells_touched(&self, m: Move) -> CellSet {
        match m {
            Move::Normal { from, to, .. } => CellSet::from_cell(from).with(to),
            Move::Drop { to, .. } => CellSet::from_cell(to),
            Move::Illuminate { from, rays } => self.illumination_targets(from, rays),
            Move::Pass => CellSet::EMPTY,
        }
    }

    /// Whether `drop_moves_forming_alliance_with_checked_player` takes `m` away.
    fn alliance_check_forbids(&self, check: &mut AllianceCheck, m: Move) -> bool {
        // A move can only give a new check through the cells it touches lying on a king's ray.
        let touched = self.cells_touched(m);
        if (touched & check.near_kings).is_empty() {
            return false;
        }
        let mover = check.mover;
        let (dual, screens) = *check.openings.get_or_insert_with(|| {
            let dual = self.dual_attack_opening(mover).is_some();
            (dual, if dual { CellSet::EMPTY } else { self.screens(mover) })
        });
        Self::could_form_alliance(m, dual, screens) && self.forms_alliance_with_checked_player(m, mover, check.standing_check)
    }

    /// `standing_check`: whether `mover` attacks another player's king already.
    fn forms_alliance_with_checked_player(&self, m: Move, mover: Player, standing_check: bool) -> bool {
        // Kings never move but by their owner's move, so the checks are read off this position.
        let gives_check =
            |king| if standing_check { self.attacks_after(m, mover, king) } else { self.gives_new_check(m, mover, king) };
        let checked: ArrayVec<Player, 2> =
            mover.others3().into_iter().filter(|&p| self.kings[p].is_some_and(gives_check)).collect();
        if checked.is_empty() {
            return false;
        }
        let mut after = self.clone();
        after.apply_pieces(m, mover);
        self.detect_alliance(&after, m, mover, 1).is_some_and(|formation| checked.iter().any(|&p| formation.allies.contains(p)))
    }

    fn king_safety(&self, mover: Player, king: Cell) -> KingSafety {
        let grid = self.tables.grid;
        let others = self.others_pieces(mover);
        let checkers = self.attacking_cells(king, others, self.store.occupied());
        let evasion = match checkers.count() {
            0 => grid.all(),
            1 => {
                let checker = checkers.first().expect("one checker");
                checkers | grid.between(king, checker).unwrap_or(CellSet::EMPTY)
            }
            _ => CellSet::EMPTY,
        };
        let ally_king = self.ally_of(mover).and_then(|ally| self.kings[ally]);
        let ally_lines = self.lines_to_ally_king(mover);
        let mut safety = KingSafety {
            king,
            in_check: checkers.count() > 0,
            evasion,
            pinned: CellSet::EMPTY,
            ally_king,
            ally_lines: ally_lines.unwrap_or(grid.all()),
            ally_attacked: ally_lines.is_none(),
            by_trial: ally_king.is_some() && self.rules.forbid_exposing_ally,
        };
        let own = self.store.pieces_of(mover);
        // Only a ranging piece pins, so only the rays that hold one are followed.
        let far = grid.lines(king) & others & self.rangers;
        if far.is_empty() {
            return safety;
        }
        for hour in Hour::ALL {
            if (grid.ray(king, hour) & far).is_empty() {
                continue;
            }
            let Some(shield) = grid.first_on_ray(king, hour, self.store.occupied()) else { continue };
            if !own.contains(shield) {
                continue;
            }
            let Some(pinner) = grid.first_on_ray(shield, hour, self.store.occupied()) else { continue };
            let code = self.store.code(pinner) as usize;
            if others.contains(pinner) && self.tables.range_hours[code].contains(hour.opposite()) {
                safety.pinned.insert(shield);
            }
        }
        safety
    }

    /// Cells no move may end on: own pieces and every king (kings are never captured).
    fn forbidden_targets(&self, mover: Player) -> CellSet {
        let mut forbidden = self.store.pieces_of(mover);
        for p in mover.others3() {
            if let Some(k) = self.kings[p] {
                forbidden.insert(k);
            }
        }
        forbidden
    }

    /// The cells a move that proves `player` has an action must not touch (`has_legal_action`),
    /// or `None` when no such move proves it. It must leave his ally's king unattacked by his
    /// pieces (unless the rules try each move on a copy), and, where the compulsory-alliance
    /// rule may take a checking move away (`drop_moves_forming_alliance_with_checked_player`),
    /// give no check.
    fn cells_a_proof_avoids(&self, player: Player, depth: u8) -> Option<CellSet> {
        let allied = self.ally_of(player).is_some_and(|ally| self.kings[ally].is_some());
        if allied && self.rules.forbid_exposing_ally {
            return None;
        }
        let ally_lines = self.lines_to_ally_king(player)?;
        let check_lines =
            if depth == 0 && self.alliance_possible() { self.lines_to_other_kings(player)? } else { CellSet::EMPTY };
        Some(ally_lines | check_lines)
    }

    /// The lines of `mover`'s ally's king, which a move of his must touch to leave that king
    /// attacked by his pieces (none without an ally); `None` when he attacks it already.
    fn lines_to_ally_king(&self, mover: Player) -> Option<CellSet> {
        match self.ally_of(mover).and_then(|ally| self.kings[ally]) {
            None => Some(CellSet::EMPTY),
            Some(k) if self.is_attacked(k, self.store.pieces_of(mover), self.store.occupied()) => None,
            Some(k) => Some(self.tables.grid.lines(k)),
        }
    }

    /// The lines of the other players' kings, which a move of `mover` must touch to give a new
    /// check; `None` when he checks one of them already.
    fn lines_to_other_kings(&self, mover: Player) -> Option<CellSet> {
        let mut lines = CellSet::EMPTY;
        for p in mover.others3() {
            if let Some(k) = self.kings[p] {
                if self.is_attacked(k, self.store.pieces_of(mover), self.store.occupied()) {
                    return None;
                }
                lines |= self.tables.grid.lines(k);
            }
        }
        Some(lines)
    }

    /// Whether one of `pieces`, none of them the king, has a move that ends on a cell it may
    /// end on, outside `avoid`; such a move is legal when the piece is not pinned, the king is
    /// not in check and neither the piece nor the move touches `cells_a_proof_avoids`.
    fn some_piece_can_move(&self, mover: Player, pieces: CellSet, avoid: CellSet) -> bool {
        let forbidden = self.forbidden_targets(mover) | avoid;
        pieces.into_iter().any(|from| !self.free_targets(mover, from, forbidden).is_empty())
    }

    /// Whether `player`'s king on `king` has a step (or a range) onto a cell that no other
    /// player's piece attacks once the king has left its cell, touching no cell of `avoid`: a
    /// legal king move, as `generate_king_moves` finds them (castling, never legal in check,
    /// is not looked at).
    fn king_has_safe_step(&self, player: Player, king: Cell, avoid: CellSet) -> bool {
        self.king_steps_a_proof_may_take(player, king, avoid).next().is_some()
    }

    /// The moves that parry a single check with a piece but the king, touching no cell of
    /// `avoid`, by piece: each cell it may end on that takes the checking piece or stands
    /// between it and the king. A piece that is not pinned makes them legal, as
    /// `generate_board_moves` finds them; under two checks there are none.
    fn parries_a_proof_may_take(&self, player: Player, king: Cell, avoid: CellSet) -> impl Iterator<Item = (Cell, CellSet)> + '_ {
        let safety = self.king_safety(player, king);
        let forbidden = self.forbidden_targets(player) | avoid | (self.tables.grid.all() - safety.evasion);
        let pieces = self.store.pieces_of(player).without(king) - avoid - safety.pinned;
        // A piece moves where it attacks: only those attacking a cell of the evasion can parry.
        let occupied = self.store.occupied();
        let parrying = (safety.evasion - forbidden)
            .into_iter()
            .fold(CellSet::EMPTY, |parrying, cell| parrying | self.attacking_cells(cell, pieces, occupied));
        parrying
            .into_iter()
            .map(move |from| (from, self.free_targets(player, from, forbidden)))
            .filter(|(_, targets)| !targets.is_empty())
    }

    /// The cells of `king_has_safe_step`'s steps.
    fn king_steps_a_proof_may_take(&self, player: Player, king: Cell, avoid: CellSet) -> impl Iterator<Item = Cell> + '_ {
        let targets = if avoid.contains(king) {
            CellSet::EMPTY
        } else {
            self.reach(self.store.code(king) as usize, king) - self.forbidden_targets(player) - avoid
        };
        self.safe_king_targets(player, king, targets)
    }

    /// The cells of `targets` that no other player's piece attacks once `player`'s king has
    /// left `king`: where that king may go.
    fn safe_king_targets(&self, player: Player, king: Cell, targets: CellSet) -> impl Iterator<Item = Cell> + '_ {
        let others = self.others_pieces(player);
        let occupied_without_king = self.store.occupied().without(king);
        targets.into_iter().filter(move |&to| !self.is_attacked(to, others.without(to), occupied_without_king))
    }

    /// The cells the piece on `from` (not the king) may end a move on, outside `forbidden`,
    /// with or without promotion.
    fn free_targets(&self, mover: Player, from: Cell, forbidden: CellSet) -> CellSet {
        let code = self.store.code(from) as usize;
        let (plain, promoted) = self.promotion_sets(mover, from, code, self.reach(code, from) - forbidden);
        plain | promoted
    }

    /// The moves of the pieces but the king that end on a cell of `aim`.
    /// With `CAPTURES`, `aim` holds only other players' pieces and the Garden: most pieces then
    /// reach none of it, and push nothing.
    fn generate_board_moves<const LIST: u8>(
        &self,
        mover: Player,
        safety: &KingSafety,
        aim: CellSet,
        out: &mut impl MoveSink,
        depth: u8,
    ) {
        let tables = self.tables;
        let allowed = (aim & safety.evasion) - self.forbidden_targets(mover);
        for from in self.store.pieces_of(mover).without(safety.king) {
            let code = self.store.code(from) as usize;
            let mut targets = if LIST == CAPTURES {
                let steps = tables.step_targets[code][from.usize()];
                tables.grid.piece_reach_within(from, steps, tables.range_hours[code], self.store.occupied(), allowed)
            } else {
                self.reach(code, from) & allowed
            };
            targets = self.within_pin(safety, from, targets);
            if LIST == CAPTURES && targets.is_empty() {
                continue;
            }
            if safety.ally_king.is_none() {
                // Nothing more to test: the moves go in by sets.
                let (plain, promoted) = self.promotion_sets(mover, from, code, targets);
                out.push_split(from, plain, promoted);
                continue;
            }
            let piece = self.piece_at(from).expect("own piece");
            for to in targets {
                self.push_with_promotions(mover, from, to, piece, out, |m| self.passes_ally_tests(m, mover, safety, depth));
            }
        }
    }

    /// The cells of `targets` that the piece on `from` may move to as far as a pin goes.
    #[inline]
    fn within_pin(&self, safety: &KingSafety, from: Cell, targets: CellSet) -> CellSet {
        if safety.pinned.contains(from) {
            targets & self.tables.grid.pin_line(safety.king, from, self.store.occupied())
        } else {
            targets
        }
    }

    /// Whether `m` is one of the actions `legal_moves` lists, told from the king's safety and
    /// the one piece or drop without listing them. `None` where that does not settle it: the
    /// king's moves, illuminations and passes, a mover with an allied king to keep unattacked,
    /// a pawn drop that checks while mates by pawn drop are forbidden, and a list that a rule
    /// filters after it is made (`push_quiet_moves` says which). A search asks it of its
    /// table's move before it lists the others.
    pub fn is_legal_move(&self, m: Move) -> Option<bool> {
        let mover = self.to_move;
        if self.outcome.is_some() || self.proposal.is_some() || !self.active.contains(mover) {
            return Some(false);
        }
        let Some(king) = self.kings[mover] else { return Some(false) };
        if self.rules.must_parry_mate_threat
            || self.alliance_possible()
            || self.ally_of(mover).is_some_and(|ally| self.kings[ally].is_some())
        {
            return None;
        }
        match m {
            Move::Normal { from, .. } if from == king => None,
            Move::Normal { from, to, promote } => {
                if !self.store.pieces_of(mover).contains(from) {
                    return Some(false);
                }
                let safety = self.king_safety(mover, king);
                let code = self.store.code(from) as usize;
                let allowed = safety.evasion - self.forbidden_targets(mover);
                let targets = self.within_pin(&safety, from, self.reach(code, from) & allowed);
                let (plain, promoted) = self.promotion_sets(mover, from, code, targets);
                Some(if promote { promoted.contains(to) } else { plain.contains(to) })
            }
            Move::Drop { role, to } => {
                if !Role::DROPPABLE.contains(&role) || self.store.hand(mover).count(role) == 0 {
                    return Some(false);
                }
                let safety = self.king_safety(mover, king);
                if !self.drop_targets(mover, role, &safety).contains(to) {
                    return Some(false);
                }
                let might_mate = role == Role::Pawn && self.rules.forbid_pawn_drop_mate && self.pawn_drop_checks(mover, to);
                (!might_mate).then_some(true)
            }
            Move::Illuminate { .. } | Move::Pass => None,
        }
    }

    /// The king's steps and castling jumps that end on a cell of `aim`.
    fn generate_king_moves(&self, mover: Player, safety: &KingSafety, aim: CellSet, out: &mut impl MoveSink, depth: u8) {
        let tables = self.tables;
        let from = safety.king;
        let code = self.store.code(from) as usize;
        let forbidden = self.forbidden_targets(mover);
        let steps = self.reach(code, from);
        let mut targets = steps - forbidden;
        // Castling (§1.9): the unmoved, never-checked king of a game without alliances jumps
        // to any cell of its own territory. Where a step reaches the same cell it is one move.
        let alliance_ever = !self.allies.is_empty() || !self.former_allies.is_empty();
        if self.may_castle[mover] && !safety.in_check && !alliance_ever {
            let mut jumps = tables.territory[mover] - forbidden - steps;
            if !self.rules.castle_may_capture {
                jumps = jumps - self.store.occupied();
            }
            targets |= jumps;
        }
        targets &= aim;
        // Once for both versions of a move: promoting does not change what attacks `to`.
        let safe: CellSet = self.safe_king_targets(mover, from, targets).collect();
        let piece = self.piece_at(from).expect("own king");
        if safety.ally_king.is_none() {
            // Nothing more to test: the moves go in by sets.
            let (plain, promoted) = self.king_promotion_sets(mover, from, piece, safe);
            out.push_split(from, plain, promoted);
            return;
        }
        for to in safe {
            self.push_with_promotions(mover, from, to, piece, out, |m| self.passes_ally_tests(m, mover, safety, depth));
        }
    }

    fn generate_drops(&self, mover: Player, safety: &KingSafety, out: &mut impl MoveSink, depth: u8) {
        let hand = &self.store.hand(mover);
        if hand.is_empty() {
            return;
        }
        for role in Role::DROPPABLE {
            if hand.count(role) == 0 {
                continue;
            }
            let targets = self.drop_targets(mover, role, safety);
            let might_mate = role == Role::Pawn && self.rules.forbid_pawn_drop_mate;
            if safety.ally_king.is_none() && !might_mate {
                out.push_drops(role, targets);
                continue;
            }
            for to in targets {
                let m = Move::Drop { role, to };
                // A drop cannot expose the dropper's king; a pawn drop that checks may mate.
                let legal = if might_mate {
                    if self.pawn_drop_checks(mover, to) {
                        self.is_legal_by_trial(m, mover, depth)
                    } else {
                        self.passes_ally_tests(m, mover, safety, depth)
                    }
                } else {
                    self.passes_ally_tests(m, mover, safety, depth)
                };
                if legal {
                    out.push(m);
                }
            }
        }
    }

    /// Where `mover` may drop a piece of `role` as far as his king's safety and the dead cells
    /// go (§1.7).
    fn drop_targets(&self, mover: Player, role: Role, safety: &KingSafety) -> CellSet {
        let targets = (self.tables.grid.all() - self.store.occupied()) & safety.evasion;
        if matches!(role, Role::Pawn | Role::Lance) {
            targets - self.tables.dead_cells[mover]
        } else {
            targets
        }
    }

    /// Whether a pawn of `mover` dropped on `to` attacks another player's king.
    fn pawn_drop_checks(&self, mover: Player, to: Cell) -> bool {
        let pawn_code = code_of(Piece { player: mover, role: Role::Pawn, promoted: false }) as usize;
        let attacked = self.tables.step_targets[pawn_code][to.usize()];
        mover.others3().iter().any(|&p| self.kings[p].is_some_and(|k| attacked.contains(k)))
    }

    /// Whether `mover`'s king is promoted and ready to illuminate.
    pub(super) fn may_illuminate(&self, mover: Player) -> bool {
        let king = self.kings[mover].and_then(|k| self.piece_at(k));
        king.is_some_and(|k| k.promoted) && self.illumination_ready[mover]
    }

    /// §1.11: a promoted king may, instead of moving, remove the first piece on any of its
    /// rays that belongs to another player, is not a king and is attacked by neither other
    /// player (protection judged before the action).
    fn generate_illuminations(&self, mover: Player, safety: &KingSafety, out: &mut impl MoveSink, depth: u8) {
        let king = safety.king;
        if !self.may_illuminate(mover) {
            return;
        }
        let grid = self.tables.grid;
        let others = self.others_pieces(mover);
        let mut eligible = HourSet::EMPTY;
        let mut exposing = HourSet::EMPTY;
        for hour in Hour::ALL {
            let Some(target) = grid.first_on_ray(king, hour, self.store.occupied()) else { continue };
            if !others.contains(target) || self.piece_at(target).is_some_and(|p| p.role == Role::King) {
                continue;
            }
            if self.is_attacked(target, others, self.store.occupied()) {
                continue;
            }
            eligible.insert(hour);
            // Removing the target opens the ray: the king must not then stand attacked along it.
            if let Some(behind) = grid.first_on_ray(target, hour, self.store.occupied()) {
                let code = self.store.code(behind) as usize;
                if others.contains(behind) && self.tables.range_hours[code].contains(hour.opposite()) {
                    exposing.insert(hour);
                }
            }
        }
        if eligible.is_empty() {
            return;
        }
        let mut push = |rays: HourSet| {
            let m = Move::Illuminate { from: king, rays };
            // In check, removing a checker may be the answer: try it on a copy.
            let legal = if safety.in_check {
                self.is_legal_by_trial(m, mover, depth)
            } else {
                (rays.bits() & exposing.bits()) == 0 && self.passes_ally_tests(m, mover, safety, depth)
            };
            if legal {
                out.push(m);
            }
        };
        match self.rules.illumination {
            Illumination::All => push(eligible),
            Illumination::ExactlyOne => eligible.iter().for_each(|h| {
                let mut one = HourSet::EMPTY;
                one.insert(h);
                push(one);
            }),
            Illumination::Subset => {
                let mask = eligible.bits();
                let mut subset = mask;
                while subset != 0 {
                    push(HourSet::from_bits(subset));
                    subset = (subset - 1) & mask;
                }
            }
        }
    }

    /// The tests a move obeying pins and evasion must still pass when the mover is allied:
    /// it may not leave his ally's king attacked by his own pieces (and, under
    /// `forbid_exposing_ally`, not newly exposed to the lone player).
    #[inline]
    fn passes_ally_tests(&self, m: Move, mover: Player, safety: &KingSafety, depth: u8) -> bool {
        let Some(ally_king) = safety.ally_king else { return true };
        if safety.by_trial {
            return self.is_legal_by_trial(m, mover, depth);
        }
        let touched = self.cells_touched(m);
        if (touched & safety.ally_lines).is_empty() {
            return true;
        }
        if safety.ally_attacked {
            !self.attacks_after(m, mover, ally_king)
        } else {
            // Nothing of the mover attacks it now: only the moved piece or a line it opens can.
            !self.gives_new_check(m, mover, ally_king)
        }
    }

    /// Whether, after `m`, some piece of `mover` attacks `target` (another player's king).
    fn attacks_after(&self, m: Move, mover: Player, target: Cell) -> bool {
        let own = self.store.pieces_of(mover);
        match m {
            Move::Normal { from, to, promote } => {
                let occupied = self.store.occupied().without(from).with(to);
                let code = self.store.code(from) + promote as u8;
                self.piece_attacks(code as usize, to, target, occupied) || self.is_attacked(target, own.without(from), occupied)
            }
            Move::Drop { role, to } => {
                let code = code_of(Piece { player: mover, role, promoted: false }) as usize;
                let occupied = self.store.occupied().with(to);
                self.piece_attacks(code, to, target, occupied) || self.is_attacked(target, own, occupied)
            }
            Move::Illuminate { from, rays } => {
                self.is_attacked(target, own, self.store.occupied() - self.illumination_targets(from, rays))
            }
            Move::Pass => self.is_attacked(target, own, self.store.occupied()),
        }
    }

    /// `attacks_after` for a `king` that no piece of `mover` attacks now: then only the moved
    /// or dropped piece, or a line opened by leaving `from`, can attack it after `m`.
    fn gives_new_check(&self, m: Move, mover: Player, king: Cell) -> bool {
        match m {
            Move::Normal { from, to, promote } => {
                let occupied = self.store.occupied().without(from).with(to);
                let code = self.store.code(from) + promote as u8;
                if self.piece_attacks(code as usize, to, king, occupied) {
                    return true;
                }
                let grid = self.tables.grid;
                let own = self.store.pieces_of(mover).without(from);
                grid.hour_towards(king, from).is_some_and(|hour| self.attacker_on_ray(king, hour, own, occupied).is_some())
            }
            Move::Drop { role, to } => {
                let code = code_of(Piece { player: mover, role, promoted: false }) as usize;
                self.piece_attacks(code, to, king, self.store.occupied().with(to))
            }
            Move::Illuminate { .. } | Move::Pass => self.attacks_after(m, mover, king),
        }
    }

    /// Whether the piece on the occupied cell `from` attacks `target` as the board stands: one
    /// ray walked at most, where `attacks_from` walks every ray of a ranging piece.
    pub fn attacks_cell(&self, from: Cell, target: Cell) -> bool {
        self.piece_attacks(self.store.code(from) as usize, from, target, self.store.occupied())
    }

    /// Whether a piece of square code `code` standing on `from` attacks `target`: by a step or
    /// leap, or along the one ray joining them if it ranges that way and nothing stands between.
    pub(super) fn piece_attacks(&self, code: usize, from: Cell, target: Cell, occupied: CellSet) -> bool {
        let tables = self.tables;
        if tables.step_targets[code][from.usize()].contains(target) {
            return true;
        }
        let hours = tables.range_hours[code];
        if hours.is_empty() {
            return false;
        }
        // Only the ray towards `target` can reach it: one table lookup finds it, where trying
        // each hour costs a promoted king twelve.
        let grid = tables.grid;
        grid.hour_towards(from, target).is_some_and(|hour| {
            hours.contains(hour) && ((grid.ray(from, hour) - grid.ray(target, hour).with(target)) & occupied).is_empty()
        })
    }

    /// Pushes the move from `from` to `to`, promoted and/or not as §1.8 allows, keeping each
    /// version that `legal` accepts.
    fn push_with_promotions(
        &self,
        mover: Player,
        from: Cell,
        to: Cell,
        piece: Piece,
        out: &mut impl MoveSink,
        legal: impl Fn(Move) -> bool,
    ) {
        let mut push = |promote: bool| {
            let m = Move::Normal { from, to, promote };
            if legal(m) {
                out.push(m);
            }
        };
        let (plain, promoted) = self.promotion_choices(mover, from, to, piece);
        if promoted {
            push(true);
        }
        if plain {
            push(false);
        }
    }

    /// `promotion_choices` for every cell of `targets` at once, for the piece of square code
    /// `code` on `from`, which is not a king: (the cells reached without promotion, those
    /// reached with it). The sets come from the code's tables, without decoding the piece.
    #[inline(always)]
    fn promotion_sets(&self, mover: Player, from: Cell, code: usize, targets: CellSet) -> (CellSet, CellSet) {
        let tables = self.tables;
        // Moving into or out of the zone or the Garden qualifies; passing over it does not.
        let zone = tables.promotion_cells_of[code];
        if zone.is_empty() {
            // A piece that cannot promote, which no cell leaves without a move.
            return (targets, CellSet::EMPTY);
        }
        let rules = &self.rules;
        let dead = targets & tables.dead_cells_of[code];
        let stuck_allowed = rules.dead_cell_rule == DeadCellRule::AllowStuck;
        let forced_in_ally_territory = rules.allied_promotion == AlliedPromotion::ForcedInAllyTerritory;
        if let Some(ally) = self.ally_of(mover).filter(|_| forced_in_ally_territory) {
            let territory = tables.territory[ally];
            let promoting = if territory.contains(from) { targets } else { targets & territory };
            let rest = targets - promoting;
            return (if stuck_allowed { rest } else { rest - dead }, promoting);
        }
        if !self.may_promote(mover) {
            return (if stuck_allowed { targets } else { targets - dead }, CellSet::EMPTY);
        }
        let qualifying = if zone.contains(from) { targets } else { targets & zone };
        match rules.dead_cell_rule {
            DeadCellRule::ForcePromote => (targets - dead, qualifying | dead),
            DeadCellRule::Illegal => (targets - dead, qualifying),
            DeadCellRule::AllowStuck => (targets, qualifying),
        }
    }

    /// `promotion_choices` for the king `piece` on `from` and every cell of `targets` at once:
    /// (the cells reached without promotion, those reached with it). A king is never stuck.
    fn king_promotion_sets(&self, mover: Player, from: Cell, piece: Piece, targets: CellSet) -> (CellSet, CellSet) {
        if piece.promoted || !self.rules.king_zone_promotion {
            return (targets, CellSet::EMPTY);
        }
        let forced_in_ally_territory = self.rules.allied_promotion == AlliedPromotion::ForcedInAllyTerritory;
        let zone = match self.ally_of(mover) {
            Some(ally) if forced_in_ally_territory => {
                let territory = self.tables.territory[ally];
                let promoting = if territory.contains(from) { targets } else { targets & territory };
                return (targets - promoting, promoting);
            }
            _ if !self.may_promote(mover) => return (targets, CellSet::EMPTY),
            _ => self.tables.promotion_zone[mover],
        };
        (targets, if zone.contains(from) { targets } else { targets & zone })
    }

    /// Which versions of a board move exist: (without promotion, with promotion).
    fn promotion_choices(&self, mover: Player, from: Cell, to: Cell, piece: Piece) -> (bool, bool) {
        if piece.promoted || !can_ever_promote(piece.role) {
            return (true, false);
        }
        let tables = self.tables;
        let rules = &self.rules;
        let dead = matches!(piece.role, Role::Pawn | Role::Lance) && tables.dead_cells[mover].contains(to);
        let stuck_allowed = rules.dead_cell_rule == DeadCellRule::AllowStuck;
        if piece.role == Role::King && !rules.king_zone_promotion {
            return (true, false);
        }
        let forced_in_ally_territory = rules.allied_promotion == AlliedPromotion::ForcedInAllyTerritory;
        if let Some(ally) = self.ally_of(mover).filter(|_| forced_in_ally_territory) {
            // The ja.wikipedia reading: allies promote, compulsorily, in each other's territory
            // and nowhere else.
            let territory = tables.territory[ally];
            if territory.contains(from) || territory.contains(to) {
                return (false, true);
            }
            return (!dead || stuck_allowed, false);
        }
        let zone = tables.promotion_zone[mover];
        let in_zone = zone.contains(from) || zone.contains(to);
        let qualifies = if piece.role == Role::King {
            rules.king_zone_promotion && in_zone
        } else {
            // Moving into or out of the Garden qualifies; passing over it does not.
            in_zone || from == tables.garden || to == tables.garden
        };
        let may_promote = self.may_promote(mover);
        if dead {
            return match rules.dead_cell_rule {
                DeadCellRule::ForcePromote => (false, may_promote),
                DeadCellRule::Illegal => (false, may_promote && qualifies),
                DeadCellRule::AllowStuck => (true, may_promote && qualifies),
            };
        }
        (true, may_promote && qualifies)
    }

    /// Plays the move's piece changes on a copy and checks the result: the mover's king safe
    /// from every other player, no allied king attacked by the mover, and no mating pawn drop.
    pub(super) fn is_legal_by_trial(&self, m: Move, mover: Player, depth: u8) -> bool {
        let mut next = self.clone();
        next.apply_pieces(m, mover);
        if next.in_check(mover) {
            return false;
        }
        if let Some(ally) = self.ally_of(mover) {
            if let Some(ally_king) = next.kings[ally] {
                if next.is_attacked(ally_king, next.store.pieces_of(mover), next.store.occupied()) {
                    return false;
                }
                if self.rules.forbid_exposing_ally {
                    let lone = next.store.pieces_of(ally.others3().into_iter().find(|&p| p != mover).unwrap());
                    let was = self.kings[ally].is_some_and(|k| self.is_attacked(k, lone, self.store.occupied()));
                    if !was && next.is_attacked(ally_king, lone, next.store.occupied()) {
                        return false;
                    }
                }
            }
        }
        if let Move::Drop { role: Role::Pawn, to } = m {
            if self.rules.forbid_pawn_drop_mate && depth < MAX_DROP_MATE_DEPTH {
                let pawn_code = code_of(Piece { player: mover, role: Role::Pawn, promoted: false }) as usize;
                let attacked = self.tables.step_targets[pawn_code][to.usize()];
                for victim in mover.others3() {
                    let checked = next.kings[victim].is_some_and(|k| attacked.contains(k));
                    if checked && !next.has_legal_action(victim, depth + 1) {
                        return false;
                    }
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::SanninPosition;
    use crate::mv::{Move, MoveList};
    use crate::piece::Role;
    use crate::rules::Rules;
    use crate::splitmix::SplitMix;
    use crate::variant::sannin::SanninRules;

    #[test]
    fn a_move_has_legal_action_takes_as_proof_is_legal() {
        // `has_legal_action` takes a move of a piece that shields nothing as proof, for allies
        // too (avoiding the ally king's lines), and under the compulsory-alliance rule (avoiding
        // the other kings' lines); in check, a step of the king out of it, or a piece's move
        // that takes the one checking piece or stands in its way. Along random games, every
        // such move of every player must be one the generator lists, and the answers agree.
        let mut proofs = [0; 2];
        let (mut king_proofs, mut parry_proofs) = (0, 0);
        for options in [
            &["alliance=ML"][..],
            &["alliance=ML", "allied_promotion=forced_in_ally_territory"],
            &["alliance=ML", "forbid_exposing_ally=true"],
            &[],
        ] {
            let mut rules = SanninRules::default();
            for option in options {
                rules.set(option).expect("a rule option");
            }
            for seed in 0..6 {
                let mut pos = SanninPosition::start(rules);
                let mut rng = SplitMix::new(seed);
                let mut moves = MoveList::new();
                while pos.outcome().is_none() && pos.plies() < 300 {
                    for player in pos.active_players().iter() {
                        let mut all = MoveList::new();
                        pos.generate_for(player, &mut all, 0);
                        assert_eq!(
                            pos.has_legal_action(player, 0),
                            !all.is_empty(),
                            "{options:?} seed {seed}: {player:?} in {pos:?}"
                        );
                        let Some(king) = pos.kings[player] else { continue };
                        let Some(avoid) = pos.cells_a_proof_avoids(player, 0) else { continue };
                        let listed = |from, to| {
                            all.iter().any(|&m| matches!(m, Move::Normal { from: f, to: t, .. } if f == from && t == to))
                        };
                        if pos.in_check(player) {
                            for to in pos.king_steps_a_proof_may_take(player, king, avoid) {
                                assert!(
                                    listed(king, to),
                                    "{options:?} seed {seed}: king {king:?}-{to:?} of {player:?} is not legal in {pos:?}"
                                );
                                king_proofs += 1;
                            }
                            for (from, targets) in pos.parries_a_proof_may_take(player, king, avoid) {
                                for to in targets {
                                    assert!(
                                        listed(from, to),
                                        "{options:?} seed {seed}: parry {from:?}-{to:?} of {player:?} is not legal in {pos:?}"
                                    );
                                    parry_proofs += 1;
                                }
                            }
                            continue;
                        }
                        let pinned = pos.king_safety(player, king).pinned;
                        for from in pos.store.pieces_of(player).without(king) - avoid - pinned {
                            for to in pos.free_targets(player, from, pos.forbidden_targets(player) | avoid) {
                                assert!(
                                    listed(from, to),
                                    "{options:?} seed {seed}: {from:?}-{to:?} of {player:?} is not legal in {pos:?}"
                                );
                                proofs[usize::from(pos.allies().contains(player))] += 1;
                            }
                        }
                    }
                    pos.legal_moves(&mut moves);
                    pos.play_unchecked(moves[rng.below(moves.len())]);
                }
            }
        }
        assert!(proofs[1] > 10_000, "moves taken as proof (lone, allied): {proofs:?}");
        assert!(king_proofs > 100, "king steps taken as proof in check: {king_proofs}");
        assert!(parry_proofs > 100, "parries taken as proof in check: {parry_proofs}");
    }

    /// `attacks_cell` answers as `attacks_from` does, for every piece and cell along random
    /// games that take an illumination whenever one is offered, so that promoted kings range.
    #[test]
    fn attacks_cell_agrees_with_attacks_from() {
        let mut promoted_kings = 0;
        for seed in 0..4 {
            let mut pos = SanninPosition::start(SanninRules::default());
            let mut rng = SplitMix::new(seed);
            let mut moves = MoveList::new();
            while pos.outcome().is_none() && pos.plies() < 300 {
                for from in pos.occupied() {
                    let reach = pos.attacks_from(from);
                    for target in pos.tables.grid.cells() {
                        assert_eq!(pos.attacks_cell(from, target), reach.contains(target), "{from:?} on {target:?} in {pos:?}");
                    }
                    promoted_kings += usize::from(pos.piece_at(from).is_some_and(|p| p.role == Role::King && p.promoted));
                }
                pos.legal_moves(&mut moves);
                let illumination = moves.iter().copied().find(|m| matches!(m, Move::Illuminate { .. }));
                pos.play_unchecked(illumination.unwrap_or_else(|| moves[rng.below(moves.len())]));
            }
        }
        assert!(promoted_kings > 100, "promoted kings seen: {promoted_kings}");
    }
}
