//! The compulsory-alliance detector of RULES.md §1.13 [DEF], steps 1–7, written from the text
//! alone on the reference position: slow, literal, and blind to the library's detector.
//!
//! Where the text leaves the reporting open, the reference keeps every candidate rather than
//! choosing one. `detect_mate_threat` (off by default) is not modelled.

use std::collections::BTreeSet;

use polyshogi::variant::sannin::Compulsory;
use polyshogi::{Piece, Player, Role};

use super::{add, movement, vector, RefMove, RefPos, Sq};

/// §1.13: K > R = B > G = S = N = L > P; promotion is ignored.
fn value(role: Role) -> u8 {
    match role {
        Role::King => 4,
        Role::Rook | Role::Bishop => 3,
        Role::Gold | Role::Silver | Role::Knight | Role::Lance => 2,
        Role::Pawn => 1,
    }
}

/// The other two players, in turn order after `p`.
fn others(p: Player) -> [Player; 2] {
    [p.next3(), p.next3().next3()]
}

/// The player who is neither `a` nor `b`.
fn third(a: Player, b: Player) -> Player {
    Player::ALL.into_iter().find(|&p| p != a && p != b).expect("three seats")
}

/// Step 1: the pieces of `attackers` whose attack on the piece on `t_sq` threatens material
/// loss — a check, an undefended target, or a cheaper attacker.
fn threatening(pos: &RefPos, pieces: &[(Sq, Piece)], t_sq: Sq, attackers: impl Fn(Player) -> bool) -> Vec<Sq> {
    let t = pos.at(t_sq).expect("a target piece");
    let attacking: Vec<(Sq, Piece)> = pieces
        .iter()
        .copied()
        .filter(|&(a_sq, a)| attackers(a.player) && a.player != t.player && pos.attacks(a_sq, a, t_sq))
        .collect();
    if attacking.is_empty() {
        return Vec::new();
    }
    let defended = pieces.iter().any(|&(d_sq, d)| d.player == t.player && d_sq != t_sq && pos.attacks(d_sq, d, t_sq));
    attacking
        .into_iter()
        .filter(|(_, a)| t.role == Role::King || !defended || value(a.role) < value(t.role))
        .map(|(a_sq, _)| a_sq)
        .collect()
}

/// Step 1: Threats(A→Z), the cells of Z's pieces that some piece of A threatens.
pub fn threats(pos: &RefPos, a: Player, z: Player) -> BTreeSet<Sq> {
    let pieces = pos.pieces();
    pieces
        .iter()
        .filter(|(_, t)| t.player == z)
        .map(|&(t_sq, _)| t_sq)
        .filter(|&t_sq| !threatening(pos, &pieces, t_sq, |p| p == a).is_empty())
        .collect()
}

/// Step 4: every (attacker, target) threat against `p`, from both other players.
fn threat_pairs_against(pos: &RefPos, p: Player) -> BTreeSet<(Sq, Sq)> {
    let pieces = pos.pieces();
    let mut pairs = BTreeSet::new();
    for &(t_sq, _) in pieces.iter().filter(|(_, t)| t.player == p) {
        for a_sq in threatening(pos, &pieces, t_sq, |q| q != p) {
            pairs.insert((a_sq, t_sq));
        }
    }
    pairs
}

/// Step 4: `maker`'s action, from `before` into `after`, was made while he was in check, or it
/// removed a threat against him that stood before it.
pub fn defensive(before: &RefPos, after: &RefPos, maker: Player) -> bool {
    before.in_check(maker) || !threat_pairs_against(before, maker).is_subset(&threat_pairs_against(after, maker))
}

/// Step 2: the cells an action vacates: a move's origin; for an illumination, each cell it
/// empties. A drop vacates nothing.
fn vacated(before: &RefPos, m: &RefMove) -> Vec<Sq> {
    match m {
        RefMove::Normal { from, .. } => vec![*from],
        RefMove::Illuminate { from, rays } => {
            rays.iter().filter_map(|&h| before.first_occupied(*from, super::MIDDLE[h])).collect()
        }
        RefMove::Drop { .. } | RefMove::Pass => vec![],
    }
}

/// Step 2: the cells of `w`'s ranging pieces that attack `t_sq` along a line passing through
/// one of `cleared` (a landing cell of the line; a diagonal passes between cells without
/// touching them).
fn lines_through(after: &RefPos, w: Player, t_sq: Sq, cleared: &[Sq]) -> Vec<Sq> {
    let mut attackers = Vec::new();
    for (a_sq, a) in after.pieces().into_iter().filter(|(_, p)| p.player == w) {
        let (_, ranges) = movement(a, after.rules.promoted_rook_keeps_rear_diagonal);
        for &h in ranges {
            let v = vector(w, h);
            let mut crossed = false;
            let mut cur = a_sq;
            while let Some(next) = add(cur, v) {
                if next == t_sq {
                    if crossed {
                        attackers.push(a_sq);
                    }
                    break;
                }
                if after.at(next).is_some() {
                    break;
                }
                crossed |= cleared.contains(&next);
                cur = next;
            }
        }
    }
    attackers
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Cause {
    Discovered,
    Dual,
}

/// An alliance that steps 2 and 3 find for an action, with what made it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Candidate {
    /// The two allies, in seat order.
    pub allies: [Player; 2],
    pub against: Player,
    pub cause: Cause,
    /// The threatened pieces of the lone player: T (discovered) or T1 and T2 (dual).
    pub targets: BTreeSet<Sq>,
    /// A discovered attack: the ranging pieces whose line runs through a vacated cell.
    pub line_pieces: Vec<Sq>,
    /// One of the targets is the lone player's king.
    pub checks: bool,
}

fn allies(a: Player, b: Player) -> [Player; 2] {
    if a < b {
        [a, b]
    } else {
        [b, a]
    }
}

/// The action just before the one being judged: the position it was played from, the action
/// and its maker.
#[derive(Clone)]
pub struct Previous {
    pub before: RefPos,
    pub action: RefMove,
    pub maker: Player,
}

/// What the detector makes of one action.
#[derive(Clone, Debug, Default)]
pub struct Detection {
    /// The candidates that survive step 4.
    pub candidates: Vec<Candidate>,
    /// The action checkmates a player (step 5): no alliance forms.
    pub mates: bool,
    /// The alliance formed (allies, lone player), after steps 5 to 7.
    pub formed: Option<([Player; 2], Player)>,
}

/// Whether an alliance can still form: compulsory alliances on, three players in, and no
/// alliance now or ever (§1.13 Dissolution: none after one dissolved).
pub fn alliance_possible(pos: &RefPos) -> bool {
    pos.rules.compulsory != Compulsory::Off
        && pos.active.iter().all(|&a| a)
        && !pos.allies.iter().any(|&a| a)
        && !pos.former_allies.iter().any(|&a| a)
}

/// The legal actions of `player` under the rule that a move may not form an alliance while one
/// new ally stands in check from the other (§1.13 Effects). `previous` is the action before
/// this position. Judging the rule needs the detector, whose mate test (step 5) needs legal
/// actions in turn: there, one level down, the rule is not applied again.
pub fn legal_actions(pos: &RefPos, previous: Option<&Previous>, player: Player) -> Vec<RefMove> {
    let mut legal = pos.legal_actions(player);
    if alliance_possible(pos) {
        legal.retain(|m| !forms_alliance_with_checked_player(pos, previous, m, player));
    }
    legal
}

/// Whether `m` would form an alliance while the mover's pieces attack a new ally's king.
fn forms_alliance_with_checked_player(pos: &RefPos, previous: Option<&Previous>, m: &RefMove, mover: Player) -> bool {
    let mut after = pos.clone();
    after.apply(m, mover);
    let checked: Vec<Player> =
        others(mover).into_iter().filter(|&p| after.king(p).is_some_and(|k| after.is_attacked_by(k, |q| q == mover))).collect();
    if checked.is_empty() {
        return false;
    }
    detect(pos, previous, m, mover, true).formed.is_some_and(|(allies, _)| checked.iter().any(|p| allies.contains(p)))
}

/// Steps 1–7 for action `m` of `mover` in `pos`. `nested` marks a detection made while
/// judging legality, whose mate test does not apply the alliance rule again.
pub fn detect(pos: &RefPos, previous: Option<&Previous>, m: &RefMove, mover: Player, nested: bool) -> Detection {
    let mut detection = Detection::default();
    if !alliance_possible(pos) {
        return detection;
    }
    let mut after = pos.clone();
    after.apply(m, mover);
    let king_of = |p: Player| after.king(p);

    // Step 2: discovered attacks, against each of the other two players.
    let cleared = vacated(pos, m);
    for z in others(mover) {
        let w = third(mover, z);
        let before = threats(pos, w, z);
        for t in threats(&after, w, z).difference(&before) {
            let line_pieces = lines_through(&after, w, *t, &cleared);
            if !line_pieces.is_empty() {
                detection.candidates.push(Candidate {
                    allies: allies(mover, w),
                    against: z,
                    cause: Cause::Discovered,
                    targets: BTreeSet::from([*t]),
                    line_pieces,
                    checks: king_of(z) == Some(*t),
                });
            }
        }
    }

    // Step 3: a dual attack with the previous action.
    if let Some(prev) = previous.filter(|prev| prev.maker != mover) {
        let x = prev.maker;
        let z = third(x, mover);
        let first: BTreeSet<Sq> = threats(pos, x, z)
            .difference(&threats(&prev.before, x, z))
            .copied()
            .filter(|t1| threats(&after, x, z).contains(t1))
            .collect();
        let second: BTreeSet<Sq> = threats(&after, mover, z).difference(&threats(pos, mover, z)).copied().collect();
        // Step 4 for the earlier move, which led from `prev.before` to `pos`.
        if !first.is_empty() && !second.is_empty() && !defensive(&prev.before, pos, x) {
            let replies = after.legal_actions(z);
            for &t1 in &first {
                for &t2 in second.iter().filter(|&&t2| t2 != t1) {
                    let unparried = replies.iter().all(|reply| {
                        let mut next = after.clone();
                        next.apply(reply, z);
                        let follow = |t: Sq| match reply {
                            RefMove::Normal { from, to, .. } if *from == t => *to,
                            _ => t,
                        };
                        threats(&next, x, z).contains(&follow(t1)) || threats(&next, mover, z).contains(&follow(t2))
                    });
                    if unparried {
                        detection.candidates.push(Candidate {
                            allies: allies(x, mover),
                            against: z,
                            cause: Cause::Dual,
                            targets: BTreeSet::from([t1, t2]),
                            line_pieces: vec![],
                            checks: king_of(z) == Some(t1) || king_of(z) == Some(t2),
                        });
                    }
                }
            }
        }
    }

    // Step 4 for `m` itself.
    if detection.candidates.is_empty() || defensive(pos, &after, mover) {
        detection.candidates.clear();
        return detection;
    }

    // Step 5: mate first.
    let after_previous = Previous { before: pos.clone(), action: m.clone(), maker: mover };
    detection.mates = others(mover).into_iter().any(|p| {
        after.in_check(p)
            && if nested { after.legal_actions(p).is_empty() } else { legal_actions(&after, Some(&after_previous), p).is_empty() }
    });
    if detection.mates {
        return detection;
    }

    // Step 6: a check wins; otherwise the alliance of the mover with the next player. (Two
    // different alliances always differ in the second key: one of them holds the next player.)
    let next = mover.next3();
    let chosen = detection.candidates.iter().min_by_key(|c| (!c.checks, !c.allies.contains(&next))).expect("a candidate");
    // Step 7.
    detection.formed = Some((chosen.allies, chosen.against));
    detection
}
