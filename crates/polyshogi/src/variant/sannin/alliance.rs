//! Compulsory alliances (RULES.md §1.13): the material-loss threat model, the discovered-attack
//! and dual-attack detectors with the defence exception, and what forming an alliance does.
//! The detector is a heuristic by design: it follows the [DEF] procedure of §1.13 exactly.

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
        let tables = self.tables;
        let mut map = CellSet::EMPTY;
        for from in self.by_player[player] {
            let code = self.board[from.usize()] as usize;
            map |= tables.step_targets[code][from.usize()];
            for hour in tables.range_hours[code].iter() {
                map |= tables.grid.ray_reach(from, hour, self.occupied);
            }
        }
        map
    }

    /// Whether the attack of the piece on `attacker` on the piece on `target` threatens
    /// material loss: a check, an undefended target, or a cheaper attacker.
    fn is_threat(&self, attacker: Cell, target: Cell) -> bool {
        let (Some(a), Some(t)) = (self.piece_at(attacker), self.piece_at(target)) else { return false };
        t.role == Role::King
            || value(a.role) < value(t.role)
            || !self.is_attacked(target, self.by_player[t.player], self.occupied)
    }

    /// The material-loss threats of `by` against `victim` (§1.13 step 1).
    pub(super) fn threats(&self, by: Player, victim: Player) -> Threats {
        let mut targets = CellSet::EMPTY;
        for target in self.by_player[victim] & self.attack_map(by) {
            let attackers = self.attacking_cells(target, self.by_player[by], self.occupied);
            if attackers.into_iter().any(|a| self.is_threat(a, target)) {
                targets.insert(target);
            }
        }
        let mate = self.rules.detect_mate_threat && self.has_mating_move(by, victim);
        Threats { targets, mate }
    }

    /// Every (attacker, target) threat pair against `victim`, from both other players.
    fn threat_pairs_against(&self, victim: Player) -> ThreatPairs {
        let mut pairs = ThreatPairs::new();
        let others = self.others_pieces(victim);
        for target in self.by_player[victim] {
            for attacker in self.attacking_cells(target, others, self.occupied) {
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
    /// second player's ranging piece now threatens the third.
    fn discovered_attack(&self, after: &SanninPosition, m: Move, mover: Player) -> Option<AllianceFormation> {
        let cleared: CellSet = match m {
            Move::Normal { from, .. } => CellSet::from_cell(from),
            Move::Illuminate { from, rays } => self.illumination_targets(from, rays),
            Move::Drop { .. } | Move::Pass => CellSet::EMPTY,
        };
        let grid = after.tables.grid;
        for cell in cleared {
            for hour in Hour::ALL {
                let Some(attacker) = grid.first_on_ray(cell, hour, after.occupied) else { continue };
                let Some(target) = grid.first_on_ray(cell, hour.opposite(), after.occupied) else { continue };
                let (Some(a), Some(t)) = (after.piece_at(attacker), after.piece_at(target)) else { continue };
                if a.player == mover || t.player == mover || a.player == t.player {
                    continue;
                }
                let code = after.board[attacker.usize()] as usize;
                if !after.tables.range_hours[code].contains(hour.opposite()) || !after.is_threat(attacker, target) {
                    continue;
                }
                if self.is_defensive(after, mover) {
                    return None;
                }
                return Some(AllianceFormation {
                    allies: PlayerSet::of(&[mover, a.player]),
                    against: t.player,
                    cause: AllianceCause::DiscoveredAttack,
                    targets: CellSet::from_cell(target),
                    earlier_move: None,
                    move_: m,
                });
            }
        }
        None
    }

    /// §1.13 step 3: the previous player's action made a threat against the third player that
    /// still stands, `mover`'s action made another against a different target, and no reply of
    /// the third player parries both.
    fn dual_attack(&self, after: &SanninPosition, m: Move, mover: Player) -> Option<AllianceFormation> {
        let last = self.last_action?;
        let partner = last.mover;
        if partner == mover || last.defensive {
            return None;
        }
        let victim = mover.others3().into_iter().find(|&p| p != partner)?;
        let earlier = last.new_threats[victim];
        if earlier.targets.is_empty() && !earlier.mate {
            return None;
        }
        let standing = after.threats(partner, victim);
        let first = Threats { targets: earlier.targets & standing.targets, mate: earlier.mate && standing.mate };
        if first.targets.is_empty() && !first.mate {
            return None;
        }
        let second = self.new_threats_against(after, mover, victim);
        if second.targets.is_empty() && !second.mate {
            return None;
        }
        // Candidate pairs of threats on different targets; a mate threat is a target of its own.
        let mut pairs: ArrayVec<(Option<Cell>, Option<Cell>), 64> = ArrayVec::new();
        let firsts = first.targets.map(Some).chain(first.mate.then_some(None));
        for a in firsts {
            let seconds = second.targets.map(Some).chain(second.mate.then_some(None));
            for b in seconds {
                if a != b && !pairs.is_full() {
                    pairs.push((a, b));
                }
            }
        }
        let mut replies = MoveList::new();
        after.generate_for(victim, &mut replies, 1);
        let unparried = pairs.iter().find(|&&(a, b)| {
            replies.iter().all(|&reply| {
                let mut next = after.clone();
                next.apply_pieces(reply, victim);
                next.still_threatens(partner, victim, a, reply) || next.still_threatens(mover, victim, b, reply)
            })
        })?;
        if self.is_defensive(after, mover) {
            return None;
        }
        Some(AllianceFormation {
            allies: PlayerSet::of(&[partner, mover]),
            against: victim,
            cause: AllianceCause::DualAttack,
            targets: unparried.0.into_iter().chain(unparried.1).collect(),
            earlier_move: Some(last.mv),
            move_: m,
        })
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
        let attackers = self.attacking_cells(cell, self.by_player[by], self.occupied);
        attackers.into_iter().any(|a| self.is_threat(a, cell))
    }

    /// Runs the detector on an action: `self` is the position before it, `after` the position
    /// after its pieces moved. Returns the alliance it forms, if any.
    pub(super) fn detect_alliance(&self, after: &SanninPosition, m: Move, mover: Player) -> Option<AllianceFormation> {
        if !self.alliance_possible() {
            return None;
        }
        self.discovered_attack(after, m, mover).or_else(|| self.dual_attack(after, m, mover))
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
