//! The text formats of docs/FORMATS.md as invariants: a position string reads back to the same
//! position (and plays on exactly as the position it came from), a written record replays to the
//! same game, every parser answers arbitrary text with `Ok` or `Err` but never panics, and a
//! record with one corrupted move names that move.
//!
//! Random games are playouts steered by a vector of choices (so proptest can shrink them): half
//! the choices prefer a capture or an illumination, which is what drives random games into
//! checks, mates, alliances, eliminations and finished games. Sannin is tested in depth (rule
//! sets, positions compared with `==`); every playable variant gets the same round trips
//! through `AnyGame` and text.

use std::sync::OnceLock;

use polyshogi::geometry::{HexNaming, HEX127};
use polyshogi::notation::move_text;
use polyshogi::notation::record::read_record;
use polyshogi::notation::record_write::write_record;
use polyshogi::replay::{record_rule_options, replay};
use polyshogi::splitmix::SplitMix;
use polyshogi::variant::sannin::{SanninGame, SanninPosition, SanninRules};
use polyshogi::variant::{AnyGame, Variant};
use polyshogi::{with_game, Departure, Event, Events, Game, Move, MoveList, Player, Rules};
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------------
// Random games

/// The rule sets the playouts run under: the defaults, a pre-game alliance, proposals that wait
/// for an answer, passing instead of elimination, and a short game that ends in a draw.
const RULE_SETS: [&[&str]; 5] =
    [&[], &["alliance=ML"], &["compulsory=confirm"], &["stalemate=pass"], &["max_plies=90", "stalemate=draw"]];

fn rules_of(options: &[&str]) -> SanninRules {
    let mut rules = SanninRules::default();
    for option in options {
        rules.set(option).unwrap_or_else(|e| panic!("{option}: {e}"));
    }
    rules
}

/// One step of a game: a move, or the answer to a proposed alliance.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Action {
    Move(Move),
    Answer(bool),
}

/// The action `choice` picks in `game`, or None when the game is over.
fn choose<P: Rules>(game: &Game<P>, choice: u32, legal: &mut MoveList) -> Option<Action> {
    let pos = game.position();
    if pos.outcome().is_some() {
        return None;
    }
    if pos.decision_pending() {
        return Some(Action::Answer(choice & 1 == 0));
    }
    game.legal_moves(legal);
    if legal.is_empty() {
        return None;
    }
    let index = (choice & 0x7fff_ffff) as usize;
    if choice >> 31 == 1 {
        let forceful: Vec<Move> =
            legal.iter().copied().filter(|&m| pos.is_capture(m) || matches!(m, Move::Illuminate { .. })).collect();
        if !forceful.is_empty() {
            return Some(Action::Move(forceful[index % forceful.len()]));
        }
    }
    Some(Action::Move(legal[index % legal.len()]))
}

fn act_on_game<P: Rules>(game: &mut Game<P>, action: Action) -> Events {
    match action {
        Action::Move(m) => game.play_unchecked(m),
        Action::Answer(accept) => game.answer_pending(accept).expect("a proposal is pending"),
    }
}

fn act_on_position<P: Rules>(pos: &mut P, action: Action) -> Events {
    match action {
        Action::Move(m) => Rules::play_unchecked(pos, m),
        Action::Answer(accept) => Rules::answer_pending(pos, accept).expect("a proposal is pending"),
    }
}

/// Plays `choices` from `game`, calling `each(before, action, game after, events)` per action.
fn play_random(game: &mut SanninGame, choices: &[u32], mut each: impl FnMut(&SanninPosition, Action, &SanninGame, &Events)) {
    let mut legal = MoveList::new();
    for &choice in choices {
        let Some(action) = choose(game, choice, &mut legal) else { break };
        let before = game.position().clone();
        let events = act_on_game(game, action);
        each(&before, action, game, &events);
    }
}

/// The Sannin game inside `game`.
fn sannin(game: &AnyGame) -> &SanninGame {
    match game {
        AnyGame::Sannin(sannin) => sannin,
        _ => panic!("not a Sannin game"),
    }
}

/// A SplitMix64 stream, for the fixed (non-proptest) playouts.
fn choices_from_seed(seed: u64, count: usize) -> Vec<u32> {
    let mut stream = SplitMix::new(seed);
    (0..count).map(|_| stream.next_u64() as u32).collect()
}

// ---------------------------------------------------------------------------------------------
// (a) position → string → position

/// The position string of `pos` reads back to `pos` (by `==` and by its text), through both
/// `SanninPosition::from_text` and `AnyGame::from_position_text`, with the same legal moves.
fn assert_position_round_trip(pos: &SanninPosition, options: &[&str]) -> SanninPosition {
    let rules = rules_of(options);
    let text = pos.to_text();
    let back = SanninPosition::from_text(&text, rules).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(&back, pos, "{text}");
    assert_eq!(back.to_text(), text);
    let any = AnyGame::from_position_text(&text, options).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(any.position_text(), text);
    assert_eq!(sannin(&any).position(), pos, "{text}");
    let (mut a, mut b) = (MoveList::new(), MoveList::new());
    Rules::legal_moves(pos, &mut a);
    Rules::legal_moves(&back, &mut b);
    assert_eq!(a, b, "legal moves differ after reading back {text}");
    back
}

/// Checks the round trip before every action of the playout, and that the position read back
/// from the string plays that action exactly as the original did (same events, same result).
fn check_playout_round_trips(options: &[&str], choices: &[u32], seen: &mut Seen) -> SanninGame {
    let mut game = SanninGame::new(SanninPosition::start(rules_of(options)));
    play_random(&mut game, choices, |before, action, after, events| {
        let mut back = assert_position_round_trip(before, options);
        let replayed = act_on_position(&mut back, action);
        assert_eq!(&replayed, events, "{action:?} from {}", before.to_text());
        assert_eq!(&back, after.position(), "{action:?} from {}", before.to_text());
        seen.note(before, action, events);
    });
    assert_position_round_trip(game.position(), options);
    seen.note_text(&game.position().to_text());
    game
}

/// What the playouts reached, so that the tests can show they cover what they claim to.
#[derive(Default, Debug)]
struct Seen {
    hand: bool,
    promoted: bool,
    allied: bool,
    former_allies: bool,
    out: bool,
    end_win: bool,
    end_draw: bool,
    last: bool,
    proposal: bool,
    accepted: bool,
    refused: bool,
    checkmate: bool,
    drop: bool,
    illumination: bool,
}

impl Seen {
    fn note(&mut self, before: &SanninPosition, action: Action, events: &Events) {
        self.note_text(&before.to_text());
        match action {
            Action::Move(Move::Drop { .. }) => self.drop = true,
            Action::Move(Move::Illuminate { .. }) => self.illumination = true,
            Action::Answer(true) => self.accepted = true,
            Action::Answer(false) => self.refused = true,
            _ => {}
        }
        self.checkmate |= events.iter().any(|e| matches!(e, Event::Checkmated { .. }));
    }

    fn note_text(&mut self, text: &str) {
        let fields: Vec<&str> = text.split(' ').collect();
        self.hand |= fields[3] != "F:-/M:-/L:-";
        self.promoted |= fields[1].contains('+');
        self.allied |= !fields[4].contains("allies=-");
        self.former_allies |= !fields[4].contains("former=-");
        self.out |= !fields[4].contains("out=-");
        self.end_win |= fields[4].contains("end=win:");
        self.end_draw |= fields[4].contains("end=draw:");
        self.last |= fields[4].contains("last=");
        self.proposal |= fields[4].contains("proposal=");
    }
}

#[test]
fn start_positions_round_trip_under_every_rule_set() {
    for options in RULE_SETS {
        assert_position_round_trip(&SanninPosition::start(rules_of(options)), options);
    }
}

/// Fixed playouts under every rule set: every position on the way round-trips, and together
/// they reach hands, promotions, alliances formed, proposed, accepted, refused and dissolved,
/// eliminations, drops, illuminations, and games won and drawn.
#[test]
fn fixed_playouts_round_trip_and_reach_every_feature() {
    let mut seen = Seen::default();
    for (set, options) in RULE_SETS.iter().enumerate() {
        // Seeds 59 and 368 are playouts in which the lone player falls and the alliance dissolves
        // (under the defaults and under compulsory=confirm), which random games seldom reach.
        for seed in (0..20).map(|s| s * 31 + set as u64).chain([59, 368]) {
            check_playout_round_trips(options, &choices_from_seed(seed, 400), &mut seen);
        }
    }
    let Seen {
        hand,
        promoted,
        allied,
        former_allies,
        out,
        end_win,
        end_draw,
        last,
        proposal,
        accepted,
        refused,
        checkmate,
        drop,
        illumination,
    } = seen;
    let all = [
        ("hand", hand),
        ("promoted", promoted),
        ("allied", allied),
        ("former_allies", former_allies),
        ("out", out),
        ("end_win", end_win),
        ("end_draw", end_draw),
        ("last", last),
        ("proposal", proposal),
        ("accepted", accepted),
        ("refused", refused),
        ("checkmate", checkmate),
        ("drop", drop),
        ("illumination", illumination),
    ];
    let missing: Vec<&str> = all.iter().filter(|(_, reached)| !reached).map(|(name, _)| *name).collect();
    assert!(missing.is_empty(), "the playouts never reached: {missing:?}");
}

fn rule_set_and_choices(max_len: usize) -> impl Strategy<Value = (usize, Vec<u32>)> {
    (0..RULE_SETS.len(), prop::collection::vec(any::<u32>(), 0..max_len))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    /// (a) Every position of a random game reads back from its string, and plays on the same.
    #[test]
    fn random_positions_round_trip((set, choices) in rule_set_and_choices(360)) {
        check_playout_round_trips(RULE_SETS[set], &choices, &mut Seen::default());
    }
}

// ---------------------------------------------------------------------------------------------
// (b) record → text → record

/// The canonical text of each move of `game` (answers are not moves).
fn canonical_moves(game: &SanninGame) -> Vec<String> {
    let mut replayed = SanninGame::new(game.start().clone());
    let mut decisions = game.decisions().iter().peekable();
    let mut texts = Vec::new();
    while let Some(&&(_, accept)) = decisions.peek().filter(|(after, _)| *after == 0) {
        decisions.next();
        replayed.answer_pending(accept).expect("a proposal is pending");
    }
    for (index, &m) in game.moves().iter().enumerate() {
        texts.push(move_text::canonical(replayed.position(), m));
        replayed.play_unchecked(m);
        while let Some(&&(_, accept)) = decisions.peek().filter(|(after, _)| *after == index + 1) {
            decisions.next();
            replayed.answer_pending(accept).expect("a proposal is pending");
        }
    }
    texts
}

/// `write_record` then `replay`: the same moves, the same final position, no bad move, and the
/// tags and rule options as written.
fn assert_record_round_trip(game: &SanninGame, tags: &[(String, String)], start_position: Option<&str>) {
    let text = write_record(game, tags, start_position);
    let replayed = replay(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(replayed.bad_move, None, "\n{text}");
    let canonical: Vec<String> = replayed.played.iter().map(|m| m.canonical.clone()).collect();
    assert_eq!(canonical, canonical_moves(game), "\n{text}");
    assert_eq!(replayed.game.position_text(), game.position().to_text(), "\n{text}");
    assert_eq!(sannin(&replayed.game).position(), game.position());
    for (name, value) in tags {
        assert_eq!(replayed.record.tag(name), Some(value.as_str()), "tag {name}\n{text}");
    }
    assert_eq!(record_rule_options(&replayed.record), game.start().non_default_options(), "\n{text}");
    assert_eq!(replayed.record.tag("Position"), start_position);
    // The canonical moves also survive a comma-separated move list (`--moves`).
    assert_eq!(move_text::split_move_list(&canonical.join(",")), canonical);
}

/// Tag values with the characters that need escaping or could confuse the reader.
fn tag_value() -> impl Strategy<Value = String> {
    const CHARS: [char; 14] = [' ', 'a', 'Z', '"', '\\', '{', '}', '[', ']', ';', '1', '.', '*', 'é'];
    prop::collection::vec(prop::sample::select(&CHARS[..]), 0..12).prop_map(|chars| chars.into_iter().collect())
}

fn tags() -> impl Strategy<Value = Vec<(String, String)>> {
    (tag_value(), tag_value(), tag_value()).prop_map(|(first, middle, last)| {
        vec![
            ("First".to_string(), first),
            ("Middle".to_string(), middle),
            ("Last".to_string(), last),
            ("Date".to_string(), "2024.06.01".to_string()),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    /// (b) A random game written as a record replays to the same game.
    #[test]
    fn random_records_round_trip((set, choices) in rule_set_and_choices(360), tags in tags()) {
        let mut game = SanninGame::new(SanninPosition::start(rules_of(RULE_SETS[set])));
        play_random(&mut game, &choices, |_, _, _, _| {});
        assert_record_round_trip(&game, &tags, None);
    }

    /// (b) A game that began from a position string (`[Position]`) replays the same, wherever
    /// the split falls (after a proposal that still waits for its answer included).
    #[test]
    fn random_records_from_a_position_round_trip(
        (set, choices) in rule_set_and_choices(300),
        split in any::<prop::sample::Index>(),
    ) {
        let options = RULE_SETS[set];
        let split = split.index(choices.len() + 1);
        let mut opening = SanninGame::new(SanninPosition::start(rules_of(options)));
        play_random(&mut opening, &choices[..split], |_, _, _, _| {});
        let start = opening.position().clone();
        let mut game = SanninGame::new(start.clone());
        play_random(&mut game, &choices[split..], |_, _, _, _| {});
        assert_record_round_trip(&game, &[], Some(&start.to_text()));
    }
}

#[test]
fn fixed_records_round_trip_under_every_rule_set() {
    for (set, options) in RULE_SETS.iter().enumerate() {
        for seed in 0..12 {
            let mut game = SanninGame::new(SanninPosition::start(rules_of(options)));
            play_random(&mut game, &choices_from_seed(1000 + seed * 7 + set as u64, 400), |_, _, _, _| {});
            assert_record_round_trip(&game, &[("Event".to_string(), format!("playout {seed}"))], None);
        }
    }
}

/// A game that starts from a position where a proposed alliance waits for its answer: the
/// answer comes before any move, and the record must keep it. (`write_record` drops an answer
/// given before the first move, and every later answer with it; its own replay then goes astray,
/// and here it panics with "a move starts from a piece".)
#[test]
fn a_record_from_a_position_with_a_pending_proposal_keeps_the_answer() {
    let options = ["compulsory=confirm"];
    for seed in 0..200 {
        let mut game = SanninGame::new(SanninPosition::start(rules_of(&options)));
        let mut pending = None;
        let mut legal = MoveList::new();
        for choice in choices_from_seed(5000 + seed, 400) {
            if game.position().decision_pending() {
                pending = Some(game.position().clone());
                break;
            }
            let Some(action) = choose(&game, choice, &mut legal) else { break };
            act_on_game(&mut game, action);
        }
        let Some(start) = pending else { continue };
        let mut from_there = SanninGame::new(start.clone());
        play_random(&mut from_there, &choices_from_seed(seed, 40), |_, _, _, _| {});
        assert_record_round_trip(&from_there, &[], Some(&start.to_text()));
        return;
    }
    panic!("no playout reached a proposal");
}

/// A tag value with a line break is written inside one `[Name "…"]` pair; it must read back.
#[test]
fn a_tag_value_with_a_line_break_reads_back() {
    let game = SanninGame::new(SanninPosition::start(SanninRules::default()));
    let tags = [("Event".to_string(), "two\nlines".to_string())];
    assert_record_round_trip(&game, &tags, None);
}

// ---------------------------------------------------------------------------------------------
// (a) and (b) for every playable variant, through `AnyGame`

/// The canonical texts of the legal moves of the game's position (history aside).
fn legal_texts(game: &AnyGame) -> Vec<String> {
    with_game!(game, g => {
        let mut legal = MoveList::new();
        Rules::legal_moves(g.position(), &mut legal);
        legal.iter().map(|&m| move_text::canonical(g.position(), m)).collect()
    })
}

/// One random action: its text (canonical move text, `accept` or `refuse`), or None at the end.
fn step_any(game: &mut AnyGame, choice: u32) -> Option<String> {
    with_game!(game, g => {
        let mut legal = MoveList::new();
        let action = choose(g, choice, &mut legal)?;
        let text = match action {
            Action::Move(m) => move_text::canonical(g.position(), m),
            Action::Answer(accept) => (if accept { "accept" } else { "refuse" }).to_string(),
        };
        act_on_game(g, action);
        Some(text)
    })
}

/// Plays an action given as text on a game read from a position string.
fn play_text(game: &mut AnyGame, text: &str) {
    with_game!(game, g => {
        if let answer @ ("accept" | "refuse") = text {
            g.answer_pending(answer == "accept").expect("a proposal is pending");
        } else {
            let mut legal = MoveList::new();
            Rules::legal_moves(g.position(), &mut legal);
            let m = move_text::parse(g.position(), &legal, text).unwrap_or_else(|e| panic!("{e}"));
            g.play_unchecked(m);
        }
    })
}

/// A random game of `variant`: before each action its position string reads back to the same
/// string with the same legal moves, and the game read back plays the action to the same
/// string; at the end the record replays to the same moves and position.
fn check_any_variant(variant: Variant, choices: &[u32]) {
    let mut game = AnyGame::new::<&str>(variant, &[]).expect("the variant starts");
    let mut moves = Vec::new();
    for &choice in choices {
        let text = game.position_text();
        let mut back = AnyGame::from_position_text::<&str>(&text, &[]).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back.position_text(), text);
        assert_eq!(legal_texts(&back), legal_texts(&game), "{text}");
        let Some(action) = step_any(&mut game, choice) else { break };
        play_text(&mut back, &action);
        assert_eq!(back.position_text(), game.position_text(), "`{action}` from {text}");
        if action != "accept" && action != "refuse" {
            moves.push(action);
        }
    }
    let text = game.position_text();
    let back = AnyGame::from_position_text::<&str>(&text, &[]).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back.position_text(), text);
    let record = with_game!(&game, g => write_record(g, &[], None));
    let replayed = replay(&record).unwrap_or_else(|e| panic!("{e}\n{record}"));
    assert_eq!(replayed.bad_move, None, "\n{record}");
    let played: Vec<String> = replayed.played.iter().map(|m| m.canonical.clone()).collect();
    assert_eq!(played, moves, "\n{record}");
    assert_eq!(replayed.game.position_text(), text, "\n{record}");
}

#[test]
fn fixed_playouts_of_every_variant_round_trip() {
    for variant in Variant::ALL {
        for seed in 0..16 {
            check_any_variant(variant, &choices_from_seed(9000 + seed, 300));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    /// (a), (b) Position strings and records of every playable variant read back.
    #[test]
    fn every_variant_round_trips(
        variant in prop::sample::select(Variant::ALL.to_vec()),
        choices in prop::collection::vec(any::<u32>(), 0..300),
    ) {
        check_any_variant(variant, &choices);
    }
}

// ---------------------------------------------------------------------------------------------
// (c) no parser panics

/// Characters that reach deep into the parsers (digits, rank letters, seat letters, the
/// punctuation of moves, position strings and records), and now and then any character.
const ALPHABET: &str = "0123456789abcdefghijklmFML/-+x*!,=:;@ []{}\"\n";

fn biased_char() -> impl Strategy<Value = char> {
    let alphabet: Vec<char> = ALPHABET.chars().collect();
    prop_oneof![12 => prop::sample::select(alphabet), 1 => any::<char>()]
}

fn biased_string(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(biased_char(), 0..max).prop_map(|chars| chars.into_iter().collect())
}

/// Pieces of real move texts, position strings and records, glued together at random.
const FRAGMENTS: [&str; 56] = [
    "P",
    "K",
    "+K",
    "R",
    "+R",
    "B",
    "G",
    "S",
    "N",
    "L",
    "Q",
    "+",
    "*",
    "-",
    "x",
    "!",
    ",",
    "=",
    "7g",
    "10m",
    "1d",
    "3c",
    "4d",
    "13m",
    "14a",
    "0a",
    "1z",
    "99",
    "pass",
    "accept",
    "refuse",
    "sannin ",
    "F",
    "M",
    "L",
    "/",
    ":",
    ";",
    "@",
    "castle=",
    "ready=",
    "allies=",
    "former=",
    "out=",
    "ply=",
    "end=",
    "last=",
    "proposal=",
    "win:",
    "draw:",
    "[Variant \"sannin\"]\n",
    "[Rules \"",
    "\"]",
    "{",
    "}",
    "\n1. ",
];

fn soup(max: usize) -> impl Strategy<Value = String> {
    let part = prop_oneof![3 => prop::sample::select(&FRAGMENTS[..]).prop_map(String::from), 1 => biased_string(3)];
    prop::collection::vec(part, 0..max).prop_map(|parts| parts.concat())
}

/// Position strings met in fixed playouts, with the rule set they belong to.
fn position_pool() -> &'static [(usize, String)] {
    static POOL: OnceLock<Vec<(usize, String)>> = OnceLock::new();
    POOL.get_or_init(|| {
        let mut pool = Vec::new();
        for (set, options) in RULE_SETS.iter().enumerate() {
            for seed in 0..6 {
                let mut game = SanninGame::new(SanninPosition::start(rules_of(options)));
                let mut ply = 0;
                play_random(&mut game, &choices_from_seed(seed + 77 * set as u64, 400), |before, _, _, _| {
                    let text = before.to_text();
                    if ply % 23 == 0 || text.contains("proposal=") || text.contains("out=") && ply % 5 == 0 {
                        pool.push((set, text));
                    }
                    ply += 1;
                });
                pool.push((set, game.position().to_text()));
            }
        }
        pool
    })
}

/// An edit of a position string: at a character index, delete some characters, insert text.
fn edits() -> impl Strategy<Value = Vec<(prop::sample::Index, usize, String)>> {
    prop::collection::vec((any::<prop::sample::Index>(), 0..6usize, prop_oneof![biased_string(4), soup(2)]), 1..4)
}

fn apply_edits(text: &str, edits: &[(prop::sample::Index, usize, String)]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for (at, delete, insert) in edits {
        let at = at.index(chars.len() + 1);
        let end = (at + delete).min(chars.len());
        chars.splice(at..end, insert.chars());
    }
    chars.into_iter().collect()
}

/// A position the parser accepted must be a position the library can live with: its string
/// reads back to it, and so does the string of every position a few random actions later.
fn assert_accepted_position_is_sound(pos: &SanninPosition, rules: SanninRules, choices: &[u32]) {
    let mut game = SanninGame::new(pos.clone());
    let mut legal = MoveList::new();
    for step in 0..=choices.len() {
        let text = game.position().to_text();
        let back = SanninPosition::from_text(&text, rules);
        assert_eq!(back.as_ref(), Ok(game.position()), "after {step} random actions the string does not read back: {text}");
        let Some(&choice) = choices.get(step) else { break };
        let Some(action) = choose(&game, choice, &mut legal) else { break };
        act_on_game(&mut game, action);
    }
}

/// Position strings of every playable variant met in fixed playouts (default rules).
fn any_position_pool() -> &'static [String] {
    static POOL: OnceLock<Vec<String>> = OnceLock::new();
    POOL.get_or_init(|| {
        let mut pool = Vec::new();
        for variant in Variant::ALL {
            for seed in 0..6 {
                let mut game = AnyGame::new::<&str>(variant, &[]).expect("the variant starts");
                for (ply, choice) in choices_from_seed(300 + seed, 300).into_iter().enumerate() {
                    if ply % 17 == 0 {
                        pool.push(game.position_text());
                    }
                    if step_any(&mut game, choice).is_none() {
                        break;
                    }
                }
                pool.push(game.position_text());
            }
        }
        pool
    })
}

/// The `AnyGame` form of `assert_accepted_position_is_sound`: the string of the accepted
/// position, and of every position a few random actions later, reads back to the same string.
fn assert_accepted_game_is_sound(mut game: AnyGame, choices: &[u32]) {
    for step in 0..=choices.len() {
        let text = game.position_text();
        let back = AnyGame::from_position_text::<&str>(&text, &[]).map(|g| g.position_text());
        assert_eq!(back.as_deref(), Ok(text.as_str()), "after {step} random actions the string does not read back");
        let Some(&choice) = choices.get(step) else { break };
        if step_any(&mut game, choice).is_none() {
            break;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    /// (c) Move text: arbitrary text is a legal move or an error; an accepted text names a
    /// legal move whose canonical and short texts read back to it.
    #[test]
    fn move_text_parser_never_panics(text in prop_oneof![biased_string(16), soup(6)], at in any::<prop::sample::Index>()) {
        let (set, position) = &position_pool()[at.index(position_pool().len())];
        let pos = SanninPosition::from_text(position, rules_of(RULE_SETS[*set])).expect("pool positions are valid");
        let mut legal = MoveList::new();
        Rules::legal_moves(&pos, &mut legal);
        if let Ok(m) = move_text::parse(&pos, &legal, &text) {
            prop_assert!(legal.contains(&m), "`{}` gave an illegal move", text);
            prop_assert_eq!(move_text::parse(&pos, &legal, &move_text::canonical(&pos, m)), Ok(m));
            prop_assert_eq!(move_text::parse(&pos, &legal, &move_text::short(&pos, &legal, m)), Ok(m));
        }
        let _ = move_text::split_move_list(&text);
    }

    /// (c) Records: `read_record` and `replay` on arbitrary text, with and without a valid
    /// `[Variant]` tag in front.
    #[test]
    fn record_readers_never_panic(text in prop_oneof![biased_string(40), soup(16)], tagged in any::<bool>()) {
        let text = if tagged { format!("[Variant \"sannin\"]\n{text}") } else { text };
        if let Ok(record) = read_record(&text) {
            for token in &record.moves {
                prop_assert!(!token.text.is_empty() && !token.text.contains(char::is_whitespace));
                prop_assert!(token.line >= 1 && token.column >= 1);
            }
        }
        if let Ok(replayed) = replay(&text) {
            if let Some(bad) = &replayed.bad_move {
                prop_assert!(bad.number >= 1 && bad.line >= 1 && bad.column >= 1);
            }
        }
    }

    /// (c) Records around real moves: the sample game's text with a few edits.
    #[test]
    fn edited_records_never_panic(edits in edits()) {
        let text = apply_edits(SAMPLE, &edits);
        let _ = read_record(&text);
        let _ = replay(&text);
    }

    /// (c) Position strings: arbitrary text given to both position parsers, also after the
    /// name of every variant (known or coming).
    #[test]
    fn position_parsers_never_panic(
        text in biased_string(60),
        body in soup(20),
        name in prop::sample::select(&["sannin ", "sankaku ", "hexshogi91 ", "tphs91 "][..]),
    ) {
        for text in [text, format!("{name}{body}")] {
            if let Ok(pos) = SanninPosition::from_text(&text, SanninRules::default()) {
                assert_accepted_position_is_sound(&pos, SanninRules::default(), &[]);
            }
            if let Ok(game) = AnyGame::from_position_text::<&str>(&text, &[]) {
                assert_accepted_game_is_sound(game, &[]);
            }
        }
    }

    /// (c) Position strings of every playable variant with a few edits, through `AnyGame`.
    #[test]
    fn edited_position_strings_of_every_variant_never_panic(
        at in any::<prop::sample::Index>(),
        edits in edits(),
        choices in prop::collection::vec(any::<u32>(), 0..8),
    ) {
        let text = apply_edits(&any_position_pool()[at.index(any_position_pool().len())], &edits);
        if let Ok(game) = AnyGame::from_position_text::<&str>(&text, &[]) {
            assert_accepted_game_is_sound(game, &choices);
        }
    }

    /// (c) Position strings: real strings with a few edits, which get past the board and into
    /// the hands and state fields. An accepted string must give a sound position.
    #[test]
    fn edited_position_strings_never_panic(
        at in any::<prop::sample::Index>(),
        edits in edits(),
        choices in prop::collection::vec(any::<u32>(), 0..8),
    ) {
        let (set, position) = &position_pool()[at.index(position_pool().len())];
        let options = RULE_SETS[*set];
        let text = apply_edits(position, &edits);
        if let Ok(pos) = SanninPosition::from_text(&text, rules_of(options)) {
            assert_accepted_position_is_sound(&pos, rules_of(options), &choices);
        }
        let _ = AnyGame::from_position_text(&text, options);
    }

    /// (c) A valid board with an arbitrary state field, and arbitrary rule options.
    #[test]
    fn position_state_fields_never_panic(
        state in soup(10),
        option in prop_oneof![soup(3), biased_string(10)],
        choices in prop::collection::vec(any::<u32>(), 0..8),
    ) {
        let start = SanninPosition::start(SanninRules::default()).to_text();
        let head = start.rsplit_once(' ').expect("the state is the last field").0;
        let text = format!("{head} {state}");
        if let Ok(pos) = SanninPosition::from_text(&text, SanninRules::default()) {
            assert_accepted_position_is_sound(&pos, SanninRules::default(), &choices);
        }
        let _ = AnyGame::from_position_text(&text, &[option.as_str()]);
    }
}

// The known-bad inputs, each found by the properties above and kept as its own test.

/// A game ends when the player to move is removed (mated or stalemated at his own turn) and one
/// player is left: the turn stays with the removed player, and the finished position's string
/// (written by `to_text` after 221 plies of the fixed playout with seed 374 under
/// compulsory=confirm) is then refused: "player 1 is to move but has been eliminated".
#[test]
fn a_game_won_by_the_last_player_standing_reads_back() {
    let text = "sannin 7/2m+R5/9/10/2mN8/5m+Lm+B2m+LmL1/3mG9/2mP3mP2mB1m+P/2mG6mR1/3mG3mP2/1mPmP2mN2mG/\
                3mSmGmL2/1mS1mK3 F F:-/M:2S11P/L:- castle=-;ready=FML;allies=-;former=-;out=L@8,F@221;ply=221;\
                end=win:M:last_standing";
    let rules = rules_of(&["compulsory=confirm"]);
    let pos = SanninPosition::from_text(text, rules).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(pos.to_text(), text);
}

#[test]
fn more_eliminations_than_players_are_refused() {
    // First left the game at ply 101 in a real playout; the list then names him four times.
    let text = "sannin 7/5lP2/3lP5/2lG7/2lN5lL2/lK11/13/1lP4mR3mG1/2lP8/4mK5/1lP1mP2mP1mP/8/1mL1mG1mS1 M \
                F:-/M:RN5P/L:GNP castle=-;ready=FML;allies=-;former=-;out=F@1,F@2,F@3,F@4;ply=101";
    let result = std::panic::catch_unwind(|| SanninPosition::from_text(text, SanninRules::default()).map(|p| p.to_text()));
    assert!(matches!(result, Ok(Err(_))), "expected an error, got {result:?}");
}

#[test]
fn hand_counts_beyond_the_pieces_of_the_game_are_refused() {
    let start = SanninPosition::start(SanninRules::default()).to_text();
    // 200 + 56 = 256 pawns in First's hand: a u8 count overflows (a panic with overflow checks,
    // an empty hand without them).
    let text = start.replace("F:-", "F:200P56P");
    let result = std::panic::catch_unwind(|| SanninPosition::from_text(&text, SanninRules::default()).map(|p| p.to_text()));
    assert!(matches!(result, Ok(Err(_))), "expected an error, got {result:?}");
}

#[test]
fn a_proposal_that_is_no_alliance_is_refused() {
    let start = SanninPosition::start(SanninRules::default()).to_text();
    // A proposal of all three players together, of nobody, of one player, and one where the
    // lone player is one of the allies: accepting any of them gives a position whose string
    // cannot be read back.
    for proposal in ["FML:F:dual:-:0:1", "-:F:dual:-:0:1", "F:M:dual:-:0:1", "ML:M:dual:-:0:1"] {
        let text = format!("{start};proposal={proposal}");
        if let Ok(pos) = SanninPosition::from_text(&text, SanninRules::default()) {
            let mut accepted = pos.clone();
            Rules::answer_pending(&mut accepted, true).expect("a proposal is pending");
            let after = accepted.to_text();
            assert_eq!(
                SanninPosition::from_text(&after, SanninRules::default()).map(|p| p.to_text()),
                Ok(after.clone()),
                "`proposal={proposal}` was accepted, and accepting it gives {after}"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// (d) a corrupted record names its bad move

const SAMPLE: &str = include_str!("../../../records/sannin-1932-sample.psn");

/// The sample record with move `index` (0-based) replaced by `text`, and where it stands.
fn corrupt(index: usize, text: &str) -> (String, usize, usize) {
    let record = read_record(SAMPLE).expect("the sample reads");
    let token = &record.moves[index];
    let mut lines: Vec<String> = SAMPLE.lines().map(String::from).collect();
    let line = &mut lines[token.line - 1];
    let chars: Vec<char> = line.chars().collect();
    let start = token.column - 1;
    let end = start + token.text.chars().count();
    *line = chars[..start].iter().chain(text.chars().collect::<Vec<_>>().iter()).chain(&chars[end..]).collect();
    (lines.join("\n"), token.line, token.column)
}

fn assert_bad_move_named(index: usize, text: &str) {
    let (corrupted, line, column) = corrupt(index, text);
    let replayed = replay(&corrupted).unwrap_or_else(|e| panic!("{e}"));
    let bad = replayed.bad_move.unwrap_or_else(|| panic!("move {} `{text}` was accepted", index + 1));
    assert_eq!((bad.number, bad.text.as_str(), bad.line, bad.column), (index + 1, text, line, column), "{}", bad.error);
    assert_eq!(replayed.played.len(), index, "every move before the bad one is played");
}

#[test]
fn the_sample_record_replays_cleanly() {
    let replayed = replay(SAMPLE).unwrap();
    assert_eq!(replayed.bad_move, None);
    assert_eq!(replayed.played.len(), 18);
}

#[test]
fn every_corrupted_move_of_the_sample_is_named() {
    let moves = read_record(SAMPLE).unwrap().moves.len();
    for index in 0..moves {
        // No king ever stands on 7h; nobody holds a pawn; no piece is a Q; 4q is off the board.
        for text in ["K7g-7h", "P*7g", "Q3c-4d", "P3c-4q", "accept"] {
            assert_bad_move_named(index, text);
        }
    }
}

fn sannin_cell_names() -> Vec<String> {
    let probe = SanninPosition::start(SanninRules::default());
    HEX127.cells().map(|c| probe.cell_name(c)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    /// (d) Any move text that is not legal where it stands is reported as that move.
    #[test]
    fn a_random_illegal_move_is_named(
        index in 0..18usize,
        promoted in any::<bool>(),
        letter in prop::sample::select(&['K', 'R', 'B', 'G', 'S', 'N', 'L', 'P'][..]),
        from in prop::sample::select(sannin_cell_names()),
        to in prop::sample::select(sannin_cell_names()),
        separator in prop::sample::select(&["-", "x", "*"][..]),
        suffix in prop::sample::select(&["", "+", "="][..]),
    ) {
        let text = if separator == "*" {
            format!("{letter}*{to}")
        } else {
            format!("{}{letter}{from}{separator}{to}{suffix}", if promoted { "+" } else { "" })
        };
        let record = read_record(SAMPLE).unwrap();
        let before = replay(&corrupt(index, "stop").0).unwrap();
        let game = sannin(&before.game);
        let mut legal = MoveList::new();
        game.legal_moves(&mut legal);
        prop_assume!(move_text::parse(game.position(), &legal, &text).is_err());
        prop_assert_eq!(record.moves.len(), 18);
        assert_bad_move_named(index, &text);
    }
}

#[test]
fn cell_names_read_back() {
    let probe = SanninPosition::start(SanninRules::default());
    for cell in HEX127.cells() {
        let name = probe.cell_name(cell);
        assert_eq!(HexNaming::Sannin.parse(&HEX127, &name), Ok(cell));
    }
}

// ---------------------------------------------------------------------------------------------
// Departures: resignations, time-outs and agreed draws

/// Plays `count` random actions (moves or answers) steered by `seed`.
fn play_some(game: &mut AnyGame, seed: u64, count: usize) {
    for choice in choices_from_seed(seed, count) {
        step_any(game, choice).expect("the game goes on");
    }
}

fn record_of(game: &AnyGame) -> String {
    with_game!(game, g => write_record(g, &[], None))
}

#[test]
fn a_sannin_record_with_a_resignation_and_a_time_out_replays_to_the_same_end() {
    let mut game = AnyGame::new(Variant::Sannin, &["compulsory=off"]).unwrap();
    play_some(&mut game, 17, 7);
    // Middle gives up in the middle of the game; First and Last play on without him.
    with_game!(&mut game, g => g.depart(Departure::Resigned(Player::Second))).unwrap();
    play_some(&mut game, 18, 4);
    with_game!(&mut game, g => g.depart(Departure::TimeOut(Player::Third))).unwrap();
    let text = record_of(&game);
    assert!(text.contains(" resign:Middle {Middle resigns}"), "{text}");
    assert!(text.contains(" timeout:Last {Last's time ran out} {First wins"), "{text}");
    let replayed = replay(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(replayed.bad_move, None, "\n{text}");
    assert_eq!(replayed.played.len(), 11);
    assert_eq!(replayed.game.position_text(), game.position_text(), "\n{text}");
    let replayed_game = sannin(&replayed.game);
    assert_eq!(replayed_game.position().outcome(), sannin(&game).position().outcome());
    assert!(replayed_game.position().outcome().is_some());
    assert_eq!(replayed.record.tag("Result"), Some("1-3-2"));
    assert_eq!(record_of(&replayed.game), text, "the replayed game writes the same record");
}

#[test]
fn an_agreed_draw_ends_a_two_player_record() {
    let mut game = AnyGame::new(Variant::HexShogi91, &[] as &[&str]).unwrap();
    play_some(&mut game, 5, 6);
    with_game!(&mut game, g => g.depart(Departure::AgreedDraw)).unwrap();
    let text = record_of(&game);
    let last_round = text.lines().find(|line| line.starts_with("3. ")).expect("three rounds");
    assert!(last_round.ends_with(" draw {Draw by agreement; places: Black 1st, White 1st}"), "{text}");
    let replayed = replay(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(replayed.bad_move, None, "\n{text}");
    assert_eq!(replayed.game.position_text(), game.position_text());
    assert_eq!(replayed.record.tag("Result"), Some("1-1"));
}

#[test]
fn bad_departures_are_named_with_their_place() {
    let record = "[Variant \"sannin\"]\n\n1. P3c-4d resign:Nobody\n";
    let bad = replay(record).unwrap().bad_move.expect("an unknown seat is refused");
    assert_eq!((bad.number, bad.line, bad.column), (2, 3, 11));
    assert!(bad.error.to_string().contains("`Nobody` is not a seat of this game (seats: First, Middle, Last)"), "{}", bad.error);
    let record = "[Variant \"sannin\"]\n\n1. P3c-4d resign:Middle P10k-10j\n";
    let replayed = replay(record).unwrap();
    let bad = replayed.bad_move.expect("Middle has left: the next move is Last's");
    assert_eq!((bad.number, bad.text.as_str()), (3, "P10k-10j"));
    let record = "[Variant \"sannin\"]\n\n1. P3c-4d resign:Middle resign:Middle\n";
    let bad = replay(record).unwrap().bad_move.expect("a player resigns once");
    assert_eq!(bad.number, 3);
}

#[test]
fn position_after_replays_the_moves_answers_and_departures_before_each_move() {
    // A game under `compulsory=confirm` in which an alliance was answered, then a resignation.
    let mut found = None;
    for seed in 0..300 {
        let mut game = SanninGame::new(SanninPosition::start(rules_of(&["compulsory=confirm"])));
        // seen[k]: the position once k moves and what followed them were played.
        let mut seen = vec![game.start().to_text()];
        let mut note = |g: &SanninGame| {
            seen.truncate(g.moves().len());
            seen.push(g.position().to_text());
        };
        play_random(&mut game, &choices_from_seed(seed, 80), |_, _, g, _| note(g));
        let resigner = game.position().to_move();
        if game.decisions().is_empty() || game.position().outcome().is_some() || game.position().decision_pending() {
            continue;
        }
        game.depart(Departure::Resigned(resigner)).unwrap();
        note(&game);
        play_random(&mut game, &choices_from_seed(seed + 1000, 6), |_, _, g, _| note(g));
        found = Some((game, seen));
        break;
    }
    let (game, seen) = found.expect("a game with an answered alliance in 300 seeds");
    assert_eq!(seen.len(), game.moves().len() + 1);
    for (plies, text) in seen.iter().enumerate() {
        assert_eq!(game.position_after(plies).map(|p| p.to_text()).as_ref(), Some(text), "after {plies} moves");
    }
    assert!(game.position_after(game.moves().len() + 1).is_none());
}
