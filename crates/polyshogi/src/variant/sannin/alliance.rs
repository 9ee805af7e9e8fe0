//! Compulsory alliances (RULES.md §1.13): the material-loss threat model, the discovered-attack
//! and dual-attack detectors with the defence exception, mate first, the choice between several
//! candidates, and what forming an alliance does.
//! The detector is a heuristic by design: it follows the [DEF] procedure of §1.13 exactly.

use std::cmp::Reverse;

use arrayvec::ArrayVec;

use super::attack_maps::AttackMaps;
use super::position::SanninPosition;
use crate::cellset::CellSet;
use crate::geometry::{Cell, Hour};
use crate::mv::{Move, MoveList};
use crate::outcome::{AllianceCause, AllianceFormation};
use crate::piece::{Piece, Role};
use crate::player::{ByPlayer, Player, PlayerSet};

/// Piece values for "material loss": K > R = B > G = S = N = L > P, promotion ignored.
pub(super) const fn value(role: Role) -> u8 {
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

impl Threats {
    /// The threats here that were not among `before`.
    fn since(self, before: Threats) -> Threats {
        Threats { targets: self.targets - before.targets, mate: self.mate && !before.mate }
    }
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

/// The threats an action created against each other player, as the position after it keeps
/// them. Most positions a search reaches are never asked for them, and finding them takes an
/// attack map of the mover's pieces, so they are found when first asked for, from the board the
/// action left: `SanninPosition::settle_last_action` finds them before an alliance or a
/// player's fall changes that board, and a played action replaces them. (The copies on which
/// the rules try actions out change it too, and never ask.)
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum NewThreats {
    Found(ByPlayer<Threats>),
    /// Not found yet: the threats the mover made before the action, which are not new.
    Unfound {
        before: ByPlayer<Threats>,
    },
}

/// `LastAction` as the position keeps it, its new threats perhaps not found yet
/// (`SanninPosition::last_action` finds them).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct PlayedAction {
    pub mover: Player,
    pub mv: Move,
    pub new_threats: NewThreats,
    pub defensive: bool,
}

impl From<LastAction> for PlayedAction {
    fn from(last: LastAction) -> PlayedAction {
        let LastAction { mover, mv, new_threats, defensive } = last;
        PlayedAction { mover, mv, new_threats: NewThreats::Found(new_threats), defensive }
    }
}

/// The previous action, as the first half of a dual attack (§1.13 step 3).
pub(super) struct DualAttackOpening {
    /// Its maker, who would be the mover's ally.
    partner: Player,
    /// The third player.
    victim: Player,
    /// The threats it made on the victim.
    threats: Threats,
    /// The previous action itself.
    mv: Move,
}

/// The threats that stand before `mover` acts (see `SanninPosition::standing_threats`).
#[derive(Clone, Copy, Debug)]
pub(super) struct StandingThreats {
    mover: Player,
    /// His pieces that the other players threaten with material loss.
    against_mover: CellSet,
    /// The threats he makes on each other player (none on himself or a player who is out).
    by_mover: ByPlayer<Threats>,
    /// His pieces whose move opens a line between the other two (`line_screens`).
    screens: CellSet,
    /// The previous action's new threats, found from the same attack maps where the position
    /// had not found them yet.
    last_threats: Option<ByPlayer<Threats>>,
}

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

    /// Whether the attack of the piece on `attacker` on the piece on `target` threatens
    /// material loss: a check, an undefended target, or a cheaper attacker.
    fn is_threat(&self, attacker: Cell, target: Cell) -> bool {
        let (Some(a), Some(t)) = (self.piece_at(attacker), self.piece_at(target)) else { return false };
        t.role == Role::King || value(a.role) < value(t.role) || !self.is_defended(target, t.player)
    }

    /// Whether a piece of its own `owner` defends the piece on `target`.
    fn is_defended(&self, target: Cell, owner: Player) -> bool {
        self.is_attacked(target, self.store.pieces_of(owner), self.store.occupied())
    }

    /// Whether some piece of `by` threatens the piece on `target` with material loss.
    fn is_threatened_by(&self, by: Player, target: Cell) -> bool {
        let attackers = self.attacking_cells(target, self.store.pieces_of(by), self.store.occupied());
        let Some(t) = self.piece_at(target) else { return false };
        let cheaper = |a| self.piece_at(a).is_some_and(|a| value(a.role) < value(t.role));
        !attackers.is_empty()
            && (t.role == Role::King || attackers.into_iter().any(cheaper) || !self.is_defended(target, t.player))
    }

    /// The pieces of `victim` that the pieces whose attacks `maps` holds threaten with
    /// material loss (§1.13 step 1): the same test as `is_threat`, on all attackers at once.
    fn threatened(&self, maps: &AttackMaps, victim: Player) -> CellSet {
        self.threatened_unless(maps, victim, |target| self.is_defended(target, victim))
    }

    /// `threatened`, where `defended` says whether a piece of the victim's own defends a cell.
    fn threatened_unless(&self, maps: &AttackMaps, victim: Player, defended: impl Fn(Cell) -> bool) -> CellSet {
        let victims = self.store.pieces_of(victim);
        let threatened = |&target: &Cell| {
            let role = self.store.piece_at(target).expect("a piece of the victim").role;
            role == Role::King || maps.cheaper_than(value(role)).contains(target) || !defended(target)
        };
        (victims & maps.all()).into_iter().filter(threatened).collect()
    }

    /// The material-loss threats of `by` against `victim` (§1.13 step 1), with the mate threat.
    pub(super) fn threats(&self, by: Player, victim: Player) -> Threats {
        self.threats_of(&self.attack_maps(by), by, victim)
    }

    /// `threats`, with the attacks of `by` mapped already.
    fn threats_of(&self, maps: &AttackMaps, by: Player, victim: Player) -> Threats {
        Threats { targets: self.threatened(maps, victim), mate: self.threatens_mate(by, victim) }
    }

    /// The mate threat of `threats`: only with the `detect_mate_threat` option.
    fn threatens_mate(&self, by: Player, victim: Player) -> bool {
        self.rules.detect_mate_threat && self.has_mating_move(by, victim)
    }

    /// Whether the pieces on `attacker` and `target` are a threat pair against `victim`: the
    /// target is his, the attacker another player's, and its attack threatens material loss.
    fn is_threat_pair(&self, attacker: Cell, target: Cell, victim: Player) -> bool {
        self.store.pieces_of(victim).contains(target)
            && self.others_pieces(victim).contains(attacker)
            && self.reach(self.store.code(attacker) as usize, attacker).contains(target)
            && self.is_threat(attacker, target)
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

    /// The threats that stand before `mover` acts: remembered in the position for the player
    /// to move, once `note_standing_threats` has run.
    fn standing_threats(&self, mover: Player) -> StandingThreats {
        match self.standing_threats.get() {
            Some(&standing) if standing.mover == mover => standing,
            _ => self.find_standing_threats(mover),
        }
    }

    /// Remembers the threats that stand before the player to move acts, when the alliance
    /// detector will need them.
    pub(super) fn note_standing_threats(&self) {
        if self.alliance_possible() {
            self.standing_threats.get_or_init(|| self.find_standing_threats(self.to_move));
        }
    }

    fn find_standing_threats(&self, mover: Player) -> StandingThreats {
        // Every player's attacks, mapped once: each map also tells where its owner defends
        // his own pieces (a piece attacks where it would take), so no defence is looked for.
        let maps = ByPlayer::new(|p| self.attack_maps(p));
        let defences = ByPlayer::new(|p| maps[p].all());
        let defended = |p: Player| move |target| defences[p].contains(target);
        let last_threats = match self.last_action {
            Some(PlayedAction { mover: last_mover, new_threats: NewThreats::Unfound { before }, .. }) => {
                Some(self.threats_since(&maps[last_mover], last_mover, &before, |p, target| defences[p].contains(target)))
            }
            _ => None,
        };
        let [next, last] = mover.others3();
        StandingThreats {
            mover,
            against_mover: self.threatened_unless(&maps[next].with(&maps[last]), mover, defended(mover)),
            by_mover: ByPlayer::new(|victim| {
                if victim == mover || !self.active.contains(victim) {
                    return Threats::default();
                }
                let targets = self.threatened_unless(&maps[mover], victim, defended(victim));
                Threats { targets, mate: self.threatens_mate(mover, victim) }
            }),
            screens: self.line_screens(mover),
            last_threats,
        }
    }

    /// The previous action with its new threats, found now if they had not been.
    pub(super) fn played_action(&self) -> Option<LastAction> {
        let played = self.last_action?;
        let PlayedAction { mover, mv, defensive, .. } = played;
        Some(LastAction { mover, mv, new_threats: self.found_threats(&played), defensive })
    }

    /// The new threats of `played`, this position's previous action, found now if they had
    /// not been.
    fn found_threats(&self, played: &PlayedAction) -> ByPlayer<Threats> {
        match played.new_threats {
            NewThreats::Found(threats) => threats,
            NewThreats::Unfound { before } => match self.standing_threats.get().and_then(|standing| standing.last_threats) {
                Some(threats) => threats,
                None => self.threats_since_on_board(played.mover, &before),
            },
        }
    }

    /// Finds the previous action's new threats while the board stands as the action left
    /// it: run before an alliance forms or a player falls.
    pub(super) fn settle_last_action(&mut self) {
        if let Some(played @ PlayedAction { new_threats: NewThreats::Unfound { .. }, .. }) = self.last_action {
            self.last_action = Some(PlayedAction { new_threats: NewThreats::Found(self.found_threats(&played)), ..played });
        }
    }

    /// `line_screens`, remembered or not.
    pub(super) fn screens(&self, mover: Player) -> CellSet {
        match self.standing_threats.get() {
            Some(standing) if standing.mover == mover => standing.screens,
            _ => self.line_screens(mover),
        }
    }

    /// Whether `m` by `mover`, played from this position into `after`, removed a threat
    /// against its maker or answered a check (§1.13 step 4). A threat is removed when one of
    /// its (attacker, target) pairs is no threat pair after the move.
    pub(super) fn is_defensive(&self, after: &SanninPosition, mover: Player) -> bool {
        let against_mover = self.standing_threats(mover).against_mover;
        // In check: his king is attacked, and an attacked king is always threatened.
        if self.kings[mover].is_some_and(|king| against_mover.contains(king)) {
            return true;
        }
        let others = self.others_pieces(mover);
        for target in against_mover {
            for attacker in self.attacking_cells(target, others, self.store.occupied()) {
                if self.is_threat(attacker, target) && !after.is_threat_pair(attacker, target, mover) {
                    return true;
                }
            }
        }
        self.rules.detect_mate_threat
            && mover
                .others3()
                .into_iter()
                .any(|p| self.active.contains(p) && self.threats(p, mover).mate && !after.threats(p, mover).mate)
    }

    /// The threats `mover`'s action created against each other player (from this position
    /// into `after`), left to be found when first asked for. Found at once under
    /// `detect_mate_threat`: its mate test judges actions by more than the board, which the
    /// rest of the move changes.
    pub(super) fn new_threats(&self, after: &SanninPosition, mover: Player) -> NewThreats {
        let before = self.standing_threats(mover).by_mover;
        if self.rules.detect_mate_threat {
            NewThreats::Found(after.threats_since_on_board(mover, &before))
        } else {
            NewThreats::Unfound { before }
        }
    }

    /// `threats_since`, with `mover`'s attacks mapped and the defences looked for here.
    fn threats_since_on_board(&self, mover: Player, before: &ByPlayer<Threats>) -> ByPlayer<Threats> {
        let maps = self.attack_maps(mover);
        self.threats_since(&maps, mover, before, |p, target| self.is_defended(target, p))
    }

    /// The threats of `mover`, whose attacks `maps` holds, against each other player that
    /// are not among `before`; `defended(p, cell)` says whether a piece of `p` defends a cell.
    fn threats_since(
        &self,
        maps: &AttackMaps,
        mover: Player,
        before: &ByPlayer<Threats>,
        defended: impl Fn(Player, Cell) -> bool,
    ) -> ByPlayer<Threats> {
        ByPlayer::new(|victim| {
            if victim == mover || !self.active.contains(victim) {
                return Threats::default();
            }
            // Only targets not threatened before can be new: the others need no test.
            let targets =
                self.threatened_unless(&maps.without(before[victim].targets), victim, |target| defended(victim, target));
            Threats { targets, mate: self.threatens_mate(mover, victim) }.since(before[victim])
        })
    }

    fn new_threats_against(&self, after: &SanninPosition, mover: Player, victim: Player) -> Threats {
        after.threats(mover, victim).since(self.standing_threats(mover).by_mover[victim])
    }

    /// §1.13 step 2: `m` by `mover` (from this position into `after`) cleared a line so that a
    /// second player's ranging piece now threatens a piece of the third that it did not threaten
    /// before. Each such line is a candidate, offered to `best`.
    fn discovered_attacks(&self, after: &SanninPosition, m: Move, mover: Player, best: &mut Option<Candidate>) {
        // A move's cell opens a line only if it screens one (`line_screens`).
        let cleared: CellSet = match m {
            Move::Normal { from, .. } => CellSet::from_cell(from) & self.screens(mover),
            Move::Illuminate { from, rays } => self.illumination_targets(from, rays),
            Move::Drop { .. } | Move::Pass => CellSet::EMPTY,
        };
        for cell in cleared {
            for hour in Hour::ALL {
                let Some((attacker, a, target, t)) = after.line_through(cell, hour, mover) else { continue };
                // The opened line must itself be a threat. That is a shortcut, not a narrowing: a
                // target that the move newly exposes to W is always threatened by the opened line
                // too. It also proves the target threatened after the move, so the threat is new
                // exactly when W did not threaten it before (the victim's pieces stood still).
                if !after.is_threat(attacker, target) {
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

    /// The ranging piece on `hour`'s side of `cell` that ranges back across it, and the piece on
    /// the other side, when they belong to two different players other than `mover` and nothing
    /// else stands between them and `cell`: the line that emptying `cell` opens.
    fn line_through(&self, cell: Cell, hour: Hour, mover: Player) -> Option<(Cell, Piece, Cell, Piece)> {
        let grid = self.tables.grid;
        let attacker = grid.first_on_ray(cell, hour, self.store.occupied())?;
        let target = grid.first_on_ray(cell, hour.opposite(), self.store.occupied())?;
        let (a, t) = (self.piece_at(attacker)?, self.piece_at(target)?);
        let ranges_across = self.tables.range_hours[self.store.code(attacker) as usize].contains(hour.opposite());
        (a.player != mover && t.player != mover && a.player != t.player && ranges_across).then_some((attacker, a, target, t))
    }

    /// The pieces of `mover` that each stand alone on a line between a ranging piece of another
    /// player, ranging along it, and a piece of the third: the pieces whose move opens a line
    /// (`line_through`, seen from the ranging piece).
    fn line_screens(&self, mover: Player) -> CellSet {
        let grid = self.tables.grid;
        let occupied = self.store.occupied();
        let own = self.store.pieces_of(mover);
        let mut screens = CellSet::EMPTY;
        let [next, last] = mover.others3();
        for (owner, third) in [(next, last), (last, next)] {
            let third = self.store.pieces_of(third);
            for ranger in self.store.pieces_of(owner) & self.rangers {
                for hour in self.tables.range_hours[self.store.code(ranger) as usize].iter() {
                    let ray = grid.ray(ranger, hour);
                    if (ray & own).is_empty() || (ray & third).is_empty() {
                        continue;
                    }
                    let Some(screen) = grid.first_on_ray(ranger, hour, occupied) else { continue };
                    if own.contains(screen) && grid.first_on_ray(screen, hour, occupied).is_some_and(|c| third.contains(c)) {
                        screens.insert(screen);
                    }
                }
            }
        }
        screens
    }

    /// Whether `detect_alliance` could find a candidate for `m` by `mover`: a cheap test that
    /// every candidate passes, for the move generator to skip the detector. `dual` is whether
    /// this position allows a dual attack at all (`dual_attack_opening`); `screens` is
    /// `line_screens`. A discovered attack needs the move to leave a cell on a line between two
    /// other players' pieces: the cells beyond it stay as they are, and a piece of `mover`
    /// arriving on the line closes it.
    pub(super) fn could_form_alliance(m: Move, dual: bool, screens: CellSet) -> bool {
        dual || match m {
            Move::Normal { from, .. } => screens.contains(from),
            Move::Illuminate { .. } => true,
            Move::Drop { .. } | Move::Pass => false,
        }
    }

    /// Whether some action of `mover` could form an alliance: `could_form_alliance` for all of
    /// them at once.
    pub(super) fn some_action_could_form_alliance(&self, mover: Player) -> bool {
        self.dual_attack_opening(mover).is_some() || !self.screens(mover).is_empty() || self.may_illuminate(mover)
    }

    /// The first half of a dual attack that `mover`'s action could complete (§1.13 step 3): the
    /// previous action, when it was another player's, no defence, and made a threat on the
    /// third player.
    pub(super) fn dual_attack_opening(&self, mover: Player) -> Option<DualAttackOpening> {
        let last = self.last_action?;
        let partner = last.mover;
        if partner == mover || last.defensive {
            return None;
        }
        let victim = mover.others3().into_iter().find(|&p| p != partner)?;
        let threats = self.found_threats(&last)[victim];
        let opening = DualAttackOpening { partner, victim, threats, mv: last.mv };
        (!threats.targets.is_empty() || threats.mate).then_some(opening)
    }

    /// §1.13 step 3: the previous player's action made a threat against the third player that
    /// still stands, `mover`'s action made another against a different target, and no reply of
    /// the third player parries both. The pair of threats found is a candidate, offered to `best`.
    fn dual_attack(&self, after: &SanninPosition, m: Move, mover: Player, best: &mut Option<Candidate>) {
        let Some(DualAttackOpening { partner, victim, threats: earlier, mv: earlier_move }) = self.dual_attack_opening(mover)
        else {
            return;
        };
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
            cause: AllianceCause::DualAttack { earlier_move },
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
        self.settle_last_action();
        self.allies = formation.allies;
        self.may_castle = ByPlayer([false; 3]);
        if let Some(king) = self.kings[formation.against] {
            self.promote_in_place(king);
        }
        self.illumination_ready[formation.against] = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mv::MoveList;
    use crate::outcome::Event;
    use crate::rules::Rules;
    use crate::splitmix::SplitMix;
    use crate::variant::sannin::SanninRules;

    /// The new threats of an action, found when first asked for, are those found at once from
    /// the board the action left, as the detector found them before it put them off: along
    /// random games (half the moves captures) under the defaults, where alliances form (the
    /// lone king promoted in place) and players fall; with `stalemate=pass`; and with
    /// `compulsory=confirm`, answered at random.
    #[test]
    fn new_threats_found_late_are_those_the_action_left() {
        let mut rng = SplitMix::new(53);
        let (mut compared, mut formed, mut fallen) = (0, 0, 0);
        for game in 0..36 {
            let mut rules = SanninRules::default();
            match game % 3 {
                1 => rules.set("stalemate=pass").unwrap(),
                2 => rules.set("compulsory=confirm").unwrap(),
                _ => {}
            }
            let mut pos = SanninPosition::start(rules);
            for _ in 0..160 {
                if pos.outcome().is_some() {
                    break;
                }
                if let Some(proposal) = pos.pending_alliance() {
                    for ally in proposal.allies.iter() {
                        if pos.pending_alliance().is_some() {
                            pos.answer_alliance_as(ally, rng.below(2) == 0).unwrap();
                        }
                    }
                    continue;
                }
                let mut moves = MoveList::new();
                pos.legal_moves(&mut moves);
                let captures: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|&m| matches!(m, Move::Normal { to, .. } if pos.piece_at(to).is_some()))
                    .collect();
                let m = if rng.below(2) == 0 && !captures.is_empty() { rng.pick(&captures) } else { rng.pick(&moves) }.unwrap();
                let mover = pos.to_move;
                let expected = pos.alliance_possible().then(|| {
                    let mut after = pos.clone();
                    after.apply_pieces(m, mover);
                    after.threats_since_on_board(mover, &pos.standing_threats(mover).by_mover)
                });
                let events = pos.play(m).unwrap();
                formed += events.iter().filter(|e| matches!(e, Event::AllianceFormed(_))).count();
                fallen += events.iter().filter(|e| matches!(e, Event::Checkmated { .. } | Event::Stalemated { .. })).count();
                if let Some(expected) = expected {
                    assert_eq!(pos.last_action().map(|last| last.new_threats), Some(expected), "game {game}, after {m:?}");
                    compared += 1;
                }
            }
        }
        assert!(compared > 2000 && formed > 5 && fallen > 5, "{compared} compared, {formed} alliances, {fallen} falls");
    }
}
