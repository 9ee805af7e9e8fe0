//! Cross-checks Sannin shogi's compulsory-alliance detector against the slow reference detector
//! written from RULES.md §1.13 alone (tests/sannin_reference/detector.rs), on random games under
//! the default rules: for every legal action of every position before an alliance forms,
//! whether an alliance forms, which one and why; and which actions the rule against allying
//! with a player one checks takes away.

mod sannin_reference;

use std::collections::{BTreeMap, BTreeSet, HashSet};

use polyshogi::outcome::{AllianceCause, AllianceFormation};
use polyshogi::variant::sannin::{SanninPosition, SanninRules};
use polyshogi::{Event, Move, MoveList, Player, Rules};
use sannin_reference::detector::{self, Candidate, Cause, Detection, Previous};
use sannin_reference::{describe, from_library, move_text, player_letter, ref_pos, sq, to_library, RefPos, Rng};

/// How often each feature of the detector came up, so that the test shows what it covered.
#[derive(Default)]
struct Coverage(BTreeMap<&'static str, usize>);

impl Coverage {
    fn bump(&mut self, key: &'static str) {
        *self.0.entry(key).or_default() += 1;
    }

    fn count(&self, key: &str) -> usize {
        self.0.get(key).copied().unwrap_or(0)
    }
}

/// The alliance the library formed by playing `m`, if any.
fn fast_formation(pos: &SanninPosition, m: Move) -> Option<AllianceFormation> {
    let mut after = pos.clone();
    after.play_unchecked(m).into_iter().find_map(|e| match e {
        Event::AllianceFormed(f) => Some(f),
        _ => None,
    })
}

fn seats(players: &[Player]) -> String {
    players.iter().map(|&p| player_letter(p)).collect()
}

/// Why the library's formation disagrees with the reference's candidates, if it does: its
/// alliance must be the one the reference forms, and its cause, targets and line piece must be
/// those of a reference candidate for that alliance.
fn formation_mismatch(f: &AllianceFormation, detection: &Detection) -> Option<String> {
    let allies: Vec<Player> = f.allies.iter().collect();
    let formed = detection.formed.map(|(allies, against)| (allies.to_vec(), against));
    if formed != Some((allies.clone(), f.against)) {
        return Some(format!("the library allies {} against {}", seats(&allies), player_letter(f.against)));
    }
    let targets: BTreeSet<_> = f.targets.into_iter().map(sq).collect();
    let matches = |c: &Candidate| {
        c.allies.to_vec() == allies
            && c.against == f.against
            && c.targets == targets
            && match f.cause {
                AllianceCause::DiscoveredAttack { line, .. } => c.cause == Cause::Discovered && c.line_pieces.contains(&sq(line)),
                AllianceCause::DualAttack { .. } => c.cause == Cause::Dual,
            }
    };
    if detection.candidates.iter().any(matches) {
        None
    } else {
        Some(format!("the library's cause {f:?} is none of the reference's candidates"))
    }
}

/// Compares the library with the reference on one position: its legal actions, and the
/// alliance each of them forms.
fn check_position(pos: &SanninPosition, previous: Option<&Previous>, coverage: &mut Coverage, mismatches: &mut Vec<String>) {
    let r = ref_pos(pos);
    let mover = pos.to_move();
    let mut fast = MoveList::new();
    pos.legal_moves(&mut fast);
    let fast_set: HashSet<Move> = fast.iter().copied().collect();
    let reference_set: HashSet<Move> = detector::legal_actions(&r, previous, mover).iter().map(to_library).collect();
    let forbidden = r.legal_actions(mover).len() - reference_set.len();
    for _ in 0..forbidden {
        coverage.bump("action barred: it would ally with a checked player");
    }
    if fast_set != reference_set {
        let only = |a: &HashSet<Move>, b: &HashSet<Move>| -> Vec<String> {
            a.difference(b).map(|&m| move_text(&r, &from_library(m))).collect()
        };
        mismatches.push(format!(
            "legal actions differ\n{}only the library: {:?}\nonly the reference: {:?}",
            describe(pos),
            only(&fast_set, &reference_set),
            only(&reference_set, &fast_set)
        ));
        return;
    }
    for &m in &fast {
        let detection = detector::detect(&r, previous, &from_library(m), mover, false);
        let formation = fast_formation(pos, m);
        note(&detection, mover, coverage);
        let problem = match (&formation, detection.formed) {
            (None, None) => None,
            (Some(f), _) => formation_mismatch(f, &detection),
            (None, Some((allies, against))) => {
                Some(format!("the reference allies {} against {}", seats(&allies), player_letter(against)))
            }
        };
        if let Some(problem) = problem {
            mismatches.push(format!(
                "{} by {}: {problem}; reference {detection:?}\n{}",
                move_text(&r, &from_library(m)),
                player_letter(mover),
                describe(pos)
            ));
        }
    }
}

fn note(detection: &Detection, mover: Player, coverage: &mut Coverage) {
    let candidates = &detection.candidates;
    if candidates.is_empty() {
        return;
    }
    coverage.bump("action with a candidate");
    if candidates.iter().any(|c| c.cause == Cause::Discovered) {
        coverage.bump("discovered-attack candidate");
    }
    if candidates.iter().any(|c| c.cause == Cause::Dual) {
        coverage.bump("dual-attack candidate");
    }
    if detection.mates {
        coverage.bump("mate first: a candidate but no alliance");
    }
    let alliances: BTreeSet<_> = candidates.iter().map(|c| (c.allies, c.against)).collect();
    if alliances.len() > 1 && !detection.mates {
        coverage.bump("several alliances to choose from");
        let with_next = candidates.iter().any(|c| !c.checks && c.allies.contains(&mover.next3()));
        if detection.formed.is_some_and(|(allies, _)| !allies.contains(&mover.next3())) && with_next {
            coverage.bump("a check beat the alliance with the next player");
        }
    }
}

/// A random legal move, biased toward captures and drops, which make threats.
fn biased_move(pos: &SanninPosition, moves: &[Move], rng: &mut Rng) -> Move {
    let capture = |m: &&Move| match **m {
        Move::Normal { to, .. } => pos.piece_at(to).is_some(),
        Move::Illuminate { .. } => true,
        _ => false,
    };
    let roll = rng.below(100);
    let preferred: Vec<Move> = if roll < 40 {
        moves.iter().filter(capture).copied().collect()
    } else if roll < 55 {
        moves.iter().filter(|m| matches!(m, Move::Drop { .. })).copied().collect()
    } else {
        Vec::new()
    };
    if preferred.is_empty() {
        rng.pick(moves)
    } else {
        rng.pick(&preferred)
    }
}

/// Plays random games from the start under the default rules, checking every position until an
/// alliance forms (after which the detector is off) or the game ends.
fn cross_check(seeds: std::ops::Range<u64>, plies: usize) -> Coverage {
    let mut coverage = Coverage::default();
    let mut mismatches = Vec::new();
    for seed in seeds {
        let mut rng = Rng::new(seed);
        let mut pos = SanninPosition::start(SanninRules::default());
        let mut previous: Option<Previous> = None;
        let mut moves = MoveList::new();
        for _ in 0..plies {
            if pos.outcome().is_some() || !detector::alliance_possible(&ref_pos(&pos)) {
                break;
            }
            coverage.bump("position");
            check_position(&pos, previous.as_ref(), &mut coverage, &mut mismatches);
            assert!(mismatches.len() < 5, "the library and the reference disagree:\n{}", mismatches.join("\n"));
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let m = biased_move(&pos, &moves, &mut rng);
            let before: RefPos = ref_pos(&pos);
            let maker = pos.to_move();
            pos.play_unchecked(m);
            previous = Some(Previous { before, action: from_library(m), maker });
        }
    }
    assert!(mismatches.is_empty(), "the library and the reference disagree:\n{}", mismatches.join("\n"));
    println!("{:#?}", coverage.0);
    coverage
}

#[test]
fn the_detector_agrees_with_the_reference_on_random_games() {
    let coverage = cross_check(0..40, 80);
    for (feature, at_least) in
        [("position", 300), ("action with a candidate", 300), ("discovered-attack candidate", 50), ("dual-attack candidate", 50)]
    {
        assert!(coverage.count(feature) >= at_least, "only {} × {feature}: {:#?}", coverage.count(feature), coverage.0);
    }
}

#[test]
fn to_library_and_back_is_the_identity_on_legal_actions() {
    // The bridge the cross-check relies on.
    let pos = SanninPosition::start(SanninRules::default());
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    assert_eq!(moves.len(), 48);
    assert!(moves.iter().all(|&m| to_library(&from_library(m)) == m));
}

#[test]
fn the_threats_a_position_remembers_are_those_a_fresh_search_finds() {
    // Listing a player's actions notes the threats that stand before he acts, and each action
    // played compares the threats after it with those. A copy read back from text remembers
    // nothing and finds them afresh: the game must go on the same with either, move by move.
    let mut threatening_actions = 0;
    for seed in 100..130 {
        let mut rng = Rng::new(seed);
        let mut pos = SanninPosition::start(SanninRules::default());
        let mut moves = MoveList::new();
        for _ in 0..120 {
            if pos.outcome().is_some() {
                break;
            }
            pos.legal_moves(&mut moves);
            let m = biased_move(&pos, &moves, &mut rng);
            let mut fresh = SanninPosition::from_text(&pos.to_text(), SanninRules::default()).expect("its own text");
            let events = pos.play_unchecked(m);
            assert_eq!(events, fresh.play_unchecked(m), "seed {seed}: the events of {m:?}");
            assert!(pos == fresh, "seed {seed}, after {m:?}:\n{}\n{}", pos.to_text(), fresh.to_text());
            threatening_actions +=
                usize::from(pos.last_action().is_some_and(|last| last.new_threats.0.iter().any(|t| !t.targets.is_empty())));
        }
    }
    assert!(threatening_actions >= 200, "only {threatening_actions} actions made a threat");
}
