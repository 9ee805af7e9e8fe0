//! Compulsory alliances (RULES.md §1.13): the material-loss threat model, the discovered-attack
//! and dual-attack detectors with the defence exception, mate first, the choice between several
//! candidates, and what forming an alliance does.
//! The detector is a heuristic by design: it follows the [DEF] procedure of §1.13 exactly.

use std::cmp::Reverse;

use arrayvec::ArrayVec;

use super::position::SanninPosition;
use crate::cellset::CellSet;
use crate::geometry::{Cell, Hour};
use crate::mv::{Move, MoveList};
use crate::outcome::{AllianceCause, AllianceFormation};
use crate::piece::Role;
use crate::player::{ByPlayer, Player, PlayerSet};

/// Piece values for "material loss": K > R = B > G = S = N = L > P, promotion ignored.
const fn value(role: Role) -> u8 {
    match role {
        Role::King => 4,
        Role::Rook | Role::Bishop => 3,
        Role::Gold | Role::Silver | Role::Knight | Role::Lance => 2,
        Role::Pawn => 1,
    }
}

/// What one player threatens against another: the target cells, and (only with the
/// `detect_mate_threat` option) a mate on the next move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Threats {
    pub targets: CellSet,
    pub mate: bool,
}

/// What the detector remembers of the last action for the next one: a dual attack pairs a
/// threat made by one move with a threat made by the next.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct LastAction {
    pub mover: Player,
    pub mv: Move,
    /// The threats this action created against each other player.
    pub new_threats: ByPlayer<Threats>,
    /// The action removed a threat against its maker (or answered a check): the exception.
    pub defensive: bool,
}

/// Threat pairs (attacker cell, target cell) against one player.
type ThreatPairs = ArrayVec<(Cell, Cell), 128>;

/// An alliance that a move could form (§1.13 steps 2–3), while step 6 chooses among them.
#[derive(Clone, Copy)]
struct Candidate {
    formation: AllianceFormation,
    /// Its threat is a check: one of its targets is the lone player's king.
    checks: bool,
    /// The value of its most valuable target (0 for a mate threat alone).
    value: u8,
}

impl Candidate {
    fn new(after: &SanninPosition, formation: AllianceFormation) -> Candidate {
        let roles = formation.targets.filter_map(|cell| after.piece_at(cell)).map(|piece| piece.role);
        let (checks, value) =
            roles.fold((false, 0), |(checks, value), role| (checks || role == Role::King, value.max(self::value(role))));
        Candidate { formation, checks, value }
    }

    /// Step 6: a candidate whose threat is a check wins; then the one that allies `mover` with
    /// the player who moves after him. Past the rule, so that the choice never depends on the
    /// order of the scan: a discovered attack before a dual one, then the most valuable target,
    /// then the lowest cell.
    fn preference(&self, mover: Player) -> (bool, bool, bool, Reverse<u8>, Option<Cell>) {
        (
            !self.checks,
            !self.formation.allies.contains(mover.next3()),
            !matches!(self.formation.cause, AllianceCause::DiscoveredAttack { .. }),
            Reverse(self.value),
            self.formation.targets.first(),
        )
    }

    /// Keeps this candidate in `best` if step 6 prefers it to the one there.
    fn offer(self, best: &mut Option<Candidate>, mover: Player) {
        if best.is_none_or(|b| self.preference(mover) < b.preference(mover)) {
            *best = Some(self);
        }
    }
}

impl SanninPosition {
    /// True while a compulsory alliance could still form: three players, none ever allied.
    pub(super) fn alliance_possible(&self) -> bool {
        self.rules.compulsory != super::rules::Compulsory::Off
            && self.active.len() == 3
            && self.allies.is_empty()
            && self.former_allies.is_empty()
    }

    /// Every cell some piece of `player` attacks.
    fn attack_map(&self, player: Player) -> CellSet {
        let mut map = CellSet::EMPTY;
        for from in self.store.pieces_of(player) {
            map |= self.reach(self.store.code(from) as usize, from);
        }
        map
    }

    /// Whether the attack of the piece on `attacker` on the piece on `target` threatens
    /// material loss: a check, an undefended target, or a cheaper attacker.
    fn is_threat(&self, attacker: Cell, target: Cell) -> bool {
        let (Some(a), Some(t)) = (self.piece_at(attacker), self.piece_at(target)) else { return false };
        t.role == Role::King
            || value(a.role) < value(t.role)
            || !self.is_attacked(target, self.store.pieces_of(t.player), self.store.occupied())
    }

    /// Whether some piece of `by` threatens the piece on `target` with material loss.
    fn is_threatened_by(&self, by: Player, target: Cell) -> bool {
        let attackers = self.attacking_cells(target, self.store.pieces_of(by), self.store.occupied());
        attackers.into_iter().any(|a| self.is_threat(a, target))
    }

    /// The pieces of `victim` that `by` threatens with material loss (§1.13 step 1).
    fn threat_targets(&self, by: Player, victim: Player) -> CellSet {
        (self.store.pieces_of(victim) & self.attack_map(by))
            .into_iter()
            .filter(|&target| self.is_threatened_by(by, target))
            .collect()
    }

    /// The material-loss threats of `by` against `victim` (§1.13 step 1), with the mate threat.
    pub(super) fn threats(&self, by: Player, victim: Player) -> Threats {
        let mate = self.rules.detect_mate_threat && self.has_mating_move(by, victim);
        Threats { targets: self.threat_targets(by, victim), mate }
    }

    /// Every (attacker, target) threat pair against `victim`, from both other players.
    fn threat_pairs_against(&self, victim: Player) -> ThreatPairs {
        let mut pairs = ThreatPairs::new();
        let others = self.others_pieces(victim);
        for target in self.store.pieces_of(victim) {
            for attacker in self.attacking_cells(target, others, self.store.occupied()) {
                if self.is_threat(attacker, target) && !pairs.is_full() {
                    pairs.push((attacker, target));
                }
            }
        }
        pairs
    }

    /// Whether `by`, moving now, has a move after which `victim` is in check with no action.
    fn has_mating_move(&self, by: Player, victim: Player) -> bool {
        let mut moves = MoveList::new();
        self.generate_for(by, &mut moves, 1);
        moves.iter().any(|&m| {
            let mut next = self.clone();
            next.apply_pieces(m, by);
            next.in_check(victim) && !next.has_legal_action(victim, 1)
        })
    }

    /// Whether `m` by `mover`, played from this position into `after`, removed a threat
    /// against its maker or answered a check (§1.13 step 4).
    pub(super) fn is_defensive(&self, after: &SanninPosition, mover: Player) -> bool {
        if self.in_check(mover) {
            return true;
        }
        let before_pairs = self.threat_pairs_against(mover);
        if before_pairs.is_empty() && !self.rules.detect_mate_threat {
            return false;
        }
        let after_pairs = after.threat_pairs_against(mover);
        if before_pairs.iter().any(|pair| !after_pairs.contains(pair)) {
            return true;
        }
        self.rules.detect_mate_threat
            && mover
                .others3()
                .into_iter()
                .any(|p| self.active.contains(p) && self.threats(p, mover).mate && !after.threats(p, mover).mate)
    }

    /// The threats `mover`'s action created against each other player.
    pub(super) fn new_threats(&self, after: &SanninPosition, mover: Player) -> ByPlayer<Threats> {
        ByPlayer::new(|victim| {
            if victim == mover || !after.active.contains(victim) {
                return Threats::default();
            }
            self.new_threats_against(after, mover, victim)
        })
    }

    fn new_threats_against(&self, after: &SanninPosition, mover: Player, victim: Player) -> Threats {
        let before = self.threats(mover, victim);
        let now = after.threats(mover, victim);
        Threats { targets: now.targets - before.targets, mate: now.mate && !before.mate }
    }

    /// §1.13 step 2: `m` by `mover` (from this position into `after`) cleared a line so that a
    /// second player's ranging piece now threatens a piece of the third that it did not threaten
    /// before. Each such line is a candidate, offered to `best`.
    fn discovered_attacks(&self, after: &SanninPosition, m: Move, mover: Player, best: &mut Option<Candidate>) {
        let cleared: CellSet = match m {
            Move::Normal { from, .. } => CellSet::from_cell(from),
            Move::Illuminate { from, rays } => self.illumination_targets(from, rays),
            Move::Drop { .. } | Move::Pass => CellSet::EMPTY,
        };
        let grid = after.tables.grid;
        for cell in cleared {
            for hour in Hour::ALL {
                let Some(attacker) = grid.first_on_ray(cell, hour, after.store.occupied()) else { continue };
                let Some(target) = grid.first_on_ray(cell, hour.opposite(), after.store.occupied()) else { continue };
                let (Some(a), Some(t)) = (after.piece_at(attacker), after.piece_at(target)) else { continue };
                if a.player == mover || t.player == mover || a.player == t.player {
                    continue;
                }
                // The opened line must itself be a threat. That is a shortcut, not a narrowing: a
                // target that the move newly exposes to W is always threatened by the opened line
                // too. It also proves the target threatened after the move, so the threat is new
                // exactly when W did not threaten it before (the victim's pieces stood still).
                let code = after.store.code(attacker) as usize;
                if !after.tables.range_hours[code].contains(hour.opposite()) || !after.is_threat(attacker, target) {
                    continue;
                }
                if self.is_threatened_by(a.player, target) {
                    continue;
                }
                let formation = AllianceFormation {
                    allies: PlayerSet::of(&[mover, a.player]),
                    against: t.player,
                    cause: AllianceCause::DiscoveredAttack { line: attacker, piece: a },
                    targets: CellSet::from_cell(target),
                    move_: m,
                };
                Candidate::new(after, formation).offer(best, mover);
            }
        }
    }

    /// §1.13 step 3: the previous player's action made a threat against the third player that
    /// still stands, `mover`'s action made another against a different target, and no reply of
    /// the third player parries both. The pair of threats found is a candidate, offered to `best`.
    fn dual_attack(&self, after: &SanninPosition, m: Move, mover: Player, best: &mut Option<Candidate>) {
        let Some(last) = self.last_action else { return };
        let partner = last.mover;
        if partner == mover || last.defensive {
            return;
        }
        let Some(victim) = mover.others3().into_iter().find(|&p| p != partner) else { return };
        let earlier = last.new_threats[victim];
        if earlier.targets.is_empty() && !earlier.mate {
            return;
        }
        let standing = after.threats(partner, victim);
        let first = Threats { targets: earlier.targets & standing.targets, mate: earlier.mate && standing.mate };
        if first.targets.is_empty() && !first.mate {
            return;
        }
        let second = self.new_threats_against(after, mover, victim);
        if second.targets.is_empty() && !second.mate {
            return;
        }
        // Candidate pairs of threats on different targets; a mate threat is a target of its own.
        // Pairs that include a check come first, so that the pair reported is a check when one is
        // unparried (step 6 prefers checks).
        let king = after.kings[victim];
        let mut pairs: ArrayVec<(Option<Cell>, Option<Cell>), 64> = ArrayVec::new();
        for a in first.targets.map(Some).chain(first.mate.then_some(None)) {
            for b in second.targets.map(Some).chain(second.mate.then_some(None)) {
                if a != b && !pairs.is_full() {
                    pairs.push((a, b));
                }
            }
        }
        pairs.sort_by_key(|&(a, b)| !(a.is_some() && a == king || b.is_some() && b == king));
        let mut replies = MoveList::new();
        after.generate_for(victim, &mut replies, 1);
        let Some(&(a, b)) = pairs.iter().find(|&&(a, b)| {
            replies.iter().all(|&reply| {
                let mut next = after.clone();
                next.apply_pieces(reply, victim);
                next.still_threatens(partner, victim, a, reply) || next.still_threatens(mover, victim, b, reply)
            })
        }) else {
            return;
        };
        let formation = AllianceFormation {
            allies: PlayerSet::of(&[partner, mover]),
            against: victim,
            cause: AllianceCause::DualAttack { earlier_move: last.mv },
            targets: a.into_iter().chain(b).collect(),
            move_: m,
        };
        Candidate::new(after, formation).offer(best, mover);
    }

    /// After the victim's `reply`, whether `by` still threatens the piece that stood on
    /// `target` (followed if the reply moved it), or still threatens mate (`target` None).
    fn still_threatens(&self, by: Player, victim: Player, target: Option<Cell>, reply: Move) -> bool {
        let Some(target) = target else {
            return self.has_mating_move(by, victim);
        };
        let cell = match reply {
            Move::Normal { from, to, .. } if from == target => to,
            _ => target,
        };
        let attackers = self.attacking_cells(cell, self.store.pieces_of(by), self.store.occupied());
        attackers.into_iter().any(|a| self.is_threat(a, cell))
    }

    /// Whether `mover`'s action left another player in check with no legal action (his legal
    /// actions are judged at `depth`, see `generate_for`).
    pub(super) fn checkmates_someone(&self, mover: Player, depth: u8) -> bool {
        mover.others3().into_iter().any(|p| self.active.contains(p) && self.in_check(p) && !self.has_legal_action(p, depth))
    }

    /// Runs the detector (§1.13 steps 1–7) on an action: `self` is the position before it,
    /// `after` the position after its pieces moved, `depth` the nesting of the mate test (0 when
    /// the action is played). Returns the alliance it forms, if any.
    pub(super) fn detect_alliance(&self, after: &SanninPosition, m: Move, mover: Player, depth: u8) -> Option<AllianceFormation> {
        if !self.alliance_possible() {
            return None;
        }
        // Steps 2 and 3 (step 6 keeps the preferred candidate as they are found).
        let mut best = None;
        self.discovered_attacks(after, m, mover, &mut best);
        self.dual_attack(after, m, mover, &mut best);
        let chosen = best?;
        // Step 4: every candidate needs `m` itself to be no defence (the dual attack has
        // already checked the earlier move).
        if self.is_defensive(after, mover) {
            return None;
        }
        // Step 5: a move that checkmates is a mate, and forms no alliance. Tested last because
        // candidates are rare and the mate test is not cheap.
        if after.checkmates_someone(mover, depth) {
            return None;
        }
        Some(chosen.formation)
    }

    /// Forms an alliance now, with all its effects (§1.13 "Effects on formation"): castling
    /// gone for good, the lone king promoted (free to illuminate from its next turn).
    pub(super) fn form_alliance(&mut self, formation: &AllianceFormation) {
        self.allies = formation.allies;
        self.may_castle = ByPlayer([false; 3]);
        if let Some(king) = self.kings[formation.against] {
            self.promote_in_place(king);
        }
        self.illumination_ready[formation.against] = true;
    }
}
