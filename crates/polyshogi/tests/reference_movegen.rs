//! Cross-checks Sannin shogi's fast legal move generator against a slow reference generator
//! written from RULES.md alone, and checks that a 120° rotation commutes with move generation.
//!
//! The reference knows cells only by their names (column c, rank R of RULES.md §1.1) and the
//! player-relative hour table of §1.2; it uses none of the library's move tables, attack code,
//! territories or zones, so a mistake in those cannot hide by being made twice.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::sync::atomic::Ordering;

use polyshogi::geometry::{Cell, HexNaming, HEX127};
use polyshogi::perft::perft;
use polyshogi::variant::sannin::{Compulsory, SanninGame, SanninPosition, SanninRules, SanninSetup};
use polyshogi::{ByPlayer, Event, Hand, HourSet, Move, MoveList, Piece, Player, PlayerSet, Role, Rules};
use proptest::prelude::*;

mod sannin_reference;

use sannin_reference::{describe, from_library, move_text, player_letter, ref_pos, sq, to_library, RefMove, RefPos, Rng, Sq};

/// The default rules with compulsory alliances off: this test checks the rules core; the
/// alliance detector (which also bars some checking moves) is cross-checked against its own
/// reference in tests/reference_alliances.rs.
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

/// What is wrong with `legal_captures` next to the full list `legal`, if anything. It lists
/// the captures, steps into the Garden and illuminations of the list, in its order; under
/// `must_parry_mate_threat`, the whole list.
fn captures_problem(pos: &SanninPosition, legal: &MoveList) -> Option<String> {
    let wins_at_once = |m: &Move| is_capture(pos, m) || matches!(*m, Move::Normal { to, .. } if to == pos.tables().garden);
    let expected: Vec<Move> = legal.iter().copied().filter(|m| pos.rules().must_parry_mate_threat || wins_at_once(m)).collect();
    let mut captures = MoveList::new();
    pos.legal_captures(&mut captures);
    (captures.as_slice() != expected.as_slice()).then(|| format!("legal_captures lists {captures:?}, not {expected:?}"))
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
        if let Some(problem) = captures_problem(pos, &list) {
            problems.push(problem);
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
                    && !(0..12).any(|h| sannin_reference::add(*from, sannin_reference::vector(mover, h)) == Some(*to))
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
    let refused_before = sannin_reference::PAWN_DROP_MATES_REFUSED.load(Ordering::Relaxed);

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
    let refused = sannin_reference::PAWN_DROP_MATES_REFUSED.load(Ordering::Relaxed) - refused_before;
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
