//! The engine protocol (docs/PROTOCOL.md) as transcripts: a scripted session per playable
//! variant, run in-process through `protocol::run`, and its output checked line by line. Only
//! the `nps` figure of `info` lines is masked (it depends on the machine).
//!
//! Every script also sends bad lines — an unknown command, an illegal move in `position … moves`,
//! an unknown option, bad `go` parameters — and checks that each gets exactly one
//! `info string error: …` line and leaves the previous position in force: the `go` after it
//! answers with the same `bestmove` as before (the random engine with a fixed seed picks the
//! same move in the same game).

use polyshogi::variant::Variant;
use polyshogi_engine::protocol::run;
use polyshogi_engine::{EngineKind, EngineOptions, Level};

/// One playable variant's script parameters and the engine's answers to them.
struct Case {
    variant: &'static str,
    /// The seat letters in turn order (clock parameters and scores use them).
    seats: &'static str,
    /// Two legal moves from the start.
    opening: [&'static str; 2],
    /// A move that is not legal after the first opening move, and the error it draws.
    bad: &'static str,
    bad_error: &'static str,
    /// `bestmove` of the random engine (seed 2024): from the start, after the opening, and from
    /// the position after the opening given as a position string (a new game: no moves played).
    best: [&'static str; 3],
    /// The greedy engine after the opening: its `info` line (nps masked) and its move.
    greedy: (&'static str, &'static str),
}

#[rustfmt::skip]
const CASES: &[Case] = &[
    Case { variant: "sannin", seats: "FML", opening: ["P3c-4d", "P10k-10j"], bad: "P3c-4d", bad_error: "move 2: `P3c-4d` is not legal: you have no P on 3c", best: ["L1g-2h", "G11e-10e", "P11g-11h"], greedy: ("info depth 1 nodes 48 nps * score F 0 M 0 L 150 pv B7bx3f+", "B7bx3f+") },
    Case { variant: "hexshogi91", seats: "BW", opening: ["P6h-6g", "P7d-7e"], bad: "P6h-6g", bad_error: "move 2: `P6h-6g` is not legal: you have no P on 6h", best: ["L6k-8i", "P6g-6f", "P3h-4g"], greedy: ("info depth 1 nodes 50 nps * score B 0 W 0 pv S3j-4i", "S3j-4i") },
    Case { variant: "tphs91", seats: "BWG", opening: ["P7i-7h", "S-8d"], bad: "P7i-7h", bad_error: "move 2: `P7i-7h` is not legal: you have no P on 7i", best: ["B2j-4f", "N6a-7c", "P5d-5e"], greedy: ("info depth 1 nodes 25 nps * score B 0 W 0 G 400 pv B6bx8d", "B6bx8d") },
    Case { variant: "sankaku", seats: "BW", opening: ["Sc3-c4", "Sc6-c5"], bad: "Sc3-c4", bad_error: "move 2: `Sc3-c4` is not legal: you have no S on c3", best: ["Ed1-g5", "Ed1xc7", "Se3-e4"], greedy: ("info depth 1 nodes 49 nps * score B 900 W 0 pv Ed1xe8", "Ed1xe8") },
];

/// The engine's output for `input`, line by line, with the `nps` figure masked as `*`.
fn session(input: &str) -> Vec<String> {
    let mut output = Vec::new();
    run(input.as_bytes(), &mut output).expect("in-memory I/O does not fail");
    String::from_utf8(output).expect("the engine writes UTF-8").lines().map(mask_nps).collect()
}

fn mask_nps(line: &str) -> String {
    let mut words: Vec<&str> = line.split(' ').collect();
    if words.first() == Some(&"info") {
        if let Some(i) = words.iter().position(|&w| w == "nps") {
            if i + 1 < words.len() {
                words[i + 1] = "*";
            }
        }
    }
    words.join(" ")
}

fn assert_transcript(input: &str, expected: &[String]) {
    let actual = session(input);
    let shown = || format!("input:\n{input}\noutput:\n{}", actual.join("\n"));
    for (index, (got, want)) in actual.iter().zip(expected).enumerate() {
        assert_eq!(got, want, "output line {} differs\n{}", index + 1, shown());
    }
    assert_eq!(actual.len(), expected.len(), "output has {} lines, expected {}\n{}", actual.len(), expected.len(), shown());
}

/// The reply to `usi`: the variant, engine and level lists follow the library's own lists.
fn usi_reply() -> Vec<String> {
    let list = |names: Vec<&str>| names.iter().map(|n| format!("var {n}")).collect::<Vec<_>>().join(" ");
    vec![
        format!("id name polyshogi {}", env!("CARGO_PKG_VERSION")),
        "id author the polyshogi developers".to_string(),
        format!("option name Variant type combo default sannin {}", list(Variant::ALL.iter().map(|v| v.name()).collect())),
        format!(
            "option name Engine type combo default best var best {}",
            list(EngineKind::ALL.iter().map(|e| e.name()).collect())
        ),
        "option name Seed type spin default 0 min 0 max 4294967295".to_string(),
        "option name Rule type string default <empty>".to_string(),
        format!("option name Level type combo default <none> {}", list(Level::ALL.iter().map(|l| l.name()).collect())),
        format!("option name Hash type spin default {} min 1 max 4096", EngineOptions::default().hash_mb),
        "option name Weight type string default <empty>".to_string(),
        "option name MultiPV type spin default 1 min 1 max 10".to_string(),
        "option name Threads type spin default 1 min 1 max 64".to_string(),
        "usiok".to_string(),
    ]
}

/// The random engine's two lines for a move: it searches nothing and scores every seat 0.
fn random_reply(seats: &str, best: &str) -> [String; 2] {
    let scores: Vec<String> = seats.chars().map(|s| format!("{s} 0")).collect();
    [format!("info depth 0 nodes 1 nps * score {} pv {best}", scores.join(" ")), format!("bestmove {best}")]
}

fn error(message: &str) -> String {
    format!("info string error: {message}")
}

#[test]
fn an_overlong_or_garbled_line_is_refused_and_the_session_goes_on() {
    use polyshogi_engine::protocol::MAX_LINE_BYTES;
    let mut input = Vec::new();
    // Exactly the limit, without the line end: accepted (trailing spaces are ignored).
    let padded = |line: &str, bytes: usize| format!("{line}{}", " ".repeat(bytes - line.len()));
    input.extend(format!("{}\n", padded("isready", MAX_LINE_BYTES)).into_bytes());
    // One byte more: refused, and the rest of that line is not read as commands.
    input.extend(format!("{}isready\n", padded("isready", MAX_LINE_BYTES - 6)).into_bytes());
    input.extend(b"isready \xff\xfe\n");
    input.extend(b"isready\n");
    let mut output = Vec::new();
    run(&input[..], &mut output).expect("in-memory I/O does not fail");
    let lines: Vec<String> = String::from_utf8(output).unwrap().lines().map(str::to_string).collect();
    assert_eq!(
        lines,
        [
            "readyok".to_string(),
            error(&format!("the line is longer than {MAX_LINE_BYTES} bytes")),
            error("the line is not UTF-8 text"),
            "readyok".to_string(),
        ]
    );
}

#[test]
fn every_playable_variant_follows_its_transcript() {
    let playable: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
    let covered: Vec<&str> = CASES.iter().map(|c| c.variant).collect();
    assert_eq!(covered, playable, "every playable variant needs a row in CASES");
    for case in CASES {
        let opening = case.opening.join(" ");
        // The position after the opening as a position string, for `position pos`.
        let record = format!("[Variant \"{}\"]\n{opening}\n", case.variant);
        let replayed = polyshogi::replay::replay(&record).expect("the opening replays");
        assert_eq!(replayed.bad_move, None, "the opening of {} is legal", case.variant);
        let after_opening = replayed.game.position_text();
        let clocks: String =
            case.seats.chars().map(|s| s.to_ascii_lowercase()).map(|s| format!(" {s}time 60000 {s}inc 1000")).collect();
        let [start_best, best, pos_best] = case.best;
        let input = [
            "usi".to_string(),
            "isready".to_string(),
            format!("setoption name Variant value {}", case.variant),
            "setoption name Engine value random".to_string(),
            "setoption name Seed value 2024".to_string(),
            "usinewgame".to_string(),
            "position startpos".to_string(),
            format!("go{clocks}"),
            format!("position startpos moves {opening}"),
            "go depth 1".to_string(),
            format!("position pos {after_opening}"),
            "go movetime 50".to_string(),
            format!("position startpos moves {opening}"),
            // Each bad line below draws one error; the `go` after it answers from the opening.
            "frobnicate".to_string(),
            "go btime 1000 wtime 1000 gtime 1000".to_string(),
            format!("position startpos moves {} {}", case.opening[0], case.bad),
            "go".to_string(),
            "position pos nonsense".to_string(),
            "go".to_string(),
            "setoption name Colour value red".to_string(),
            "go infinite".to_string(),
            "go depth x".to_string(),
            "go nodes 1000".to_string(),
            "go banana 3".to_string(),
            "go".to_string(),
            "".to_string(),
            "setoption name Engine value greedy".to_string(),
            "go".to_string(),
            "stop".to_string(),
            "quit".to_string(),
            // Nothing after `quit` is read.
            "isready".to_string(),
        ]
        .join("\n");
        let mut expected = usi_reply();
        expected.push("readyok".to_string());
        expected.extend(random_reply(case.seats, start_best));
        expected.extend(random_reply(case.seats, best));
        expected.extend(random_reply(case.seats, pos_best));
        expected.push(error("unknown command `frobnicate`"));
        expected.extend(random_reply(case.seats, best));
        expected.push(error(case.bad_error));
        expected.extend(random_reply(case.seats, best));
        expected.push(error(&format!("unknown variant `nonsense` (known: {})", playable.join(", "))));
        expected.extend(random_reply(case.seats, best));
        expected.push(error("unknown option `Colour` (Variant, Engine, Seed, Rule, Level, Hash, Weight, MultiPV, Threads)"));
        expected.extend(random_reply(case.seats, best));
        expected.push(error("`depth x`: not a whole number"));
        expected.extend(random_reply(case.seats, best));
        expected.push(error("unknown `go` parameter `banana`"));
        expected.extend(random_reply(case.seats, best));
        expected.push(case.greedy.0.to_string());
        expected.push(format!("bestmove {}", case.greedy.1));
        assert_transcript(&input, &expected);
    }
}

/// Sannin's own parts of the protocol: answers to a proposed alliance inside `moves`, no move
/// while a proposal waits or after the game ended, rule options (each resets the game), and
/// the errors of `setoption`, `position` and `go`.
#[test]
fn sannin_alliances_rules_and_errors_follow_their_transcript() {
    // After these three moves under compulsory=confirm, Middle and Last may ally against First.
    let proposal = "G-2c P6k-6j Bx3f+";
    let record = format!("[Variant \"sannin\"]\n[Rules \"compulsory=confirm\"]\n{proposal}\n");
    let pending = polyshogi::replay::replay(&record).expect("the record replays").game.position_text();
    assert!(pending.contains(";proposal=ML:F:"), "{pending}");
    let sankaku_start = polyshogi::variant::AnyGame::new::<&str>(Variant::Sankaku, &[]).expect("sankaku starts").position_text();
    let script = [
        "setoption name Engine value random",
        "setoption name Seed value 7",
        "setoption name Rule value compulsory=confirm",
        &format!("position startpos moves {proposal}"),
        "go",
        &format!("position startpos moves {proposal} accept"),
        "go",
        &format!("position startpos moves {proposal} refuse"),
        "go",
        &format!("position startpos moves {proposal} S1b-2a"),
        "go",
        "position startpos moves G-2c accept",
        "go",
        &format!("position pos {pending} moves refuse"),
        "go",
        "setoption name Rule value max_plies=2",
        "go",
        "position startpos moves P3c-4d P10k-10j",
        "go",
        "setoption name Rule value colour=blue",
        "setoption name Rule value compulsory",
        "setoption name Variant value sannin",
        "position startpos moves P3c-4d P10k-10j",
        "go",
        &format!("position pos {sankaku_start}"),
        "setoption name Variant value chess",
        "setoption name Seed value -1",
        "setoption name Engine value deep",
        "setoption name Level value grandmaster",
        "setoption name Hash value 0",
        "setoption name Weight value bogus",
        "setoption",
        "setoption name Seed",
        "position",
        "position startpos moves P3c-4d,P10k-10j",
        "go depth",
        "go",
    ]
    .join("\n");
    let rule_keys = "alliance, compulsory, detect_mate_threat, illumination, dead_cell_rule, forbid_pawn_drop_mate, \
                     castle_may_capture, king_zone_promotion, promoted_rook_keeps_rear_diagonal, allied_promotion, \
                     promotion_returns_after_dissolution, garden_returns_after_dissolution, mate_evaluation, \
                     turn_after_mate, forbid_exposing_ally, must_parry_mate_threat, stalemate, repetition, max_plies";
    let variants: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
    let engines: Vec<&str> = EngineKind::ALL.iter().map(|e| e.name()).collect();
    let levels: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
    let mut expected: Vec<String> = Vec::new();
    let mut lines = |more: &[&str]| expected.extend(more.iter().map(|s| s.to_string()));
    // The proposal waits for its answer: no move.
    lines(&["bestmove none"]);
    // Accepted: First, now alone, moves; refused: First moves too, without the alliance.
    lines(&random_reply("FML", "G1e-2e").each_ref().map(String::as_str));
    lines(&random_reply("FML", "K1d-1c").each_ref().map(String::as_str));
    // A move instead of the answer, and an answer with nothing to answer: the refused game stays.
    lines(&["info string error: move 4: `S1b-2a` is not legal: an alliance was proposed: `accept` or `refuse` must come first"]);
    lines(&random_reply("FML", "K1d-1c").each_ref().map(String::as_str));
    lines(&["info string error: move 2: `accept` is not legal: there is no proposed alliance to answer"]);
    lines(&random_reply("FML", "K1d-1c").each_ref().map(String::as_str));
    // The pending position as a string, answered in `moves`.
    lines(&random_reply("FML", "P3d-4e").each_ref().map(String::as_str));
    // A rule option starts the game afresh; two plies later max_plies=2 has drawn it.
    lines(&random_reply("FML", "P3h-4i").each_ref().map(String::as_str));
    lines(&["bestmove none"]);
    let unknown_rule = format!("info string error: unknown rule option `colour` (known: {rule_keys})");
    lines(&[unknown_rule.as_str(), "info string error: rule option `compulsory` is not of the form key=value"]);
    // Choosing the variant again clears the rule options.
    lines(&random_reply("FML", "S12f-11f").each_ref().map(String::as_str));
    let unknown_variant = format!("info string error: unknown variant `chess` (known: {})", variants.join(", "));
    let unknown_engine = format!("info string error: unknown engine `deep` (best, {})", engines.join(", "));
    let unknown_level = format!("info string error: unknown level `grandmaster` ({})", levels.join(", "));
    lines(&[
        "info string error: the position is sankaku, the variant is sannin",
        &unknown_variant,
        "info string error: `-1` is not a seed (a whole number)",
        &unknown_engine,
        &unknown_level,
        "info string error: hash size 0 MiB is out of range (1..4096)",
        "info string error: `bogus`: expected group.name=value",
        "info string error: expected `setoption name <name> value <value>`",
        "info string error: expected `value <value>` after the option name",
        "info string error: expected `startpos` or `pos <position string>`",
        // `moves` are separated by spaces, not commas.
        "info string error: move 1: `P3c-4d,P10k-10j`, column 7: expected the end of the move",
        "info string error: `depth` needs a number",
    ]);
    // None of the bad lines changed the game.
    lines(&random_reply("FML", "S12f-11f").each_ref().map(String::as_str));
    assert_transcript(&script, &expected);
}

/// Checks a searching engine's `info` line: `info depth D seldepth S nodes N nps * time T
/// score <seat> <cp> … pv <moves>`, with a score for every seat letter in `seats`.
fn assert_search_info(line: &str, seats: &str) {
    let words: Vec<&str> = line.split(' ').collect();
    assert_search_words(line, &words, seats);
}

fn assert_search_words(line: &str, words: &[&str], seats: &str) {
    let number = |i: usize| words.get(i).is_some_and(|w| w.parse::<i64>().is_ok());
    assert!(words.len() > 12, "{line}");
    for (i, key) in [(1, "depth"), (3, "seldepth"), (5, "nodes"), (7, "nps"), (9, "time"), (11, "score")] {
        assert_eq!(words[i], key, "{line}");
    }
    assert!(words[0] == "info" && number(2) && number(4) && number(6) && words[8] == "*" && number(10), "{line}");
    for (k, seat) in seats.chars().enumerate() {
        assert_eq!(words[12 + 2 * k], seat.to_string(), "{line}");
        assert!(number(13 + 2 * k), "{line}");
    }
    assert_eq!(words.get(12 + 2 * seats.len()), Some(&"pv"), "{line}");
}

/// A searching engine: `go depth` answers with `info` lines then `bestmove`; `go infinite`
/// thinks until `stop`, answering `isready` at once meanwhile; the next command waits for the
/// search to end, so its reply comes after the `bestmove`.
#[test]
fn a_searching_engine_reports_and_stops() {
    let script = "setoption name Engine value brs\nposition startpos moves P3c-4d\ngo depth 2\n\
                  go infinite\nisready\nstop\nisready\nquit\n";
    let output = session(script);
    let bestmoves: Vec<usize> = output.iter().enumerate().filter(|(_, l)| l.starts_with("bestmove ")).map(|(i, _)| i).collect();
    assert_eq!(bestmoves.len(), 2, "{output:#?}");
    let (first, second) = (bestmoves[0], bestmoves[1]);
    assert!(first >= 1 && output[..first].iter().all(|l| l.starts_with("info depth ")), "{output:#?}");
    assert!(output[first - 1].starts_with("info depth 2 "), "the last info line is the deepest: {output:#?}");
    for line in output.iter().filter(|l| l.starts_with("info ")) {
        assert_search_info(line, "FML");
    }
    // Middle is to move: the answer is a Middle move, legal in the position.
    let record = "[Variant \"sannin\"]\nP3c-4d\n".to_string();
    for &at in &bestmoves {
        let best = output[at].trim_start_matches("bestmove ");
        let replayed = polyshogi::replay::replay(&format!("{record}{best}\n")).expect("the record replays");
        assert_eq!(replayed.bad_move, None, "bestmove {best} is legal");
    }
    // One `readyok` while thinking, one after the search's `bestmove`.
    let ready: Vec<usize> = output.iter().enumerate().filter(|(_, l)| *l == "readyok").map(|(i, _)| i).collect();
    assert_eq!(ready.len(), 2, "{output:#?}");
    assert!(first < ready[0] && ready[0] < second && ready[1] == second + 1 && ready[1] == output.len() - 1, "{output:#?}");
}

/// Without an `Engine` option the engine plays at full strength: `go` searches (the simple
/// engines answer with `info depth 0` or `1` and no `seldepth`), and `best` chooses that again
/// after another engine.
#[test]
fn the_engine_starts_with_the_variants_strongest_search() {
    for case in CASES {
        for setup in ["", "setoption name Engine value greedy\nsetoption name Engine value best\n"] {
            // `isready` waits for the search to end (`quit` would stop it).
            let script = format!("setoption name Variant value {}\n{setup}go depth 2\nisready\nquit\n", case.variant);
            let mut output = session(&script);
            assert_eq!(output.pop().as_deref(), Some("readyok"));
            let last = output.len() - 1;
            assert!(output[last].starts_with("bestmove ") && output[last] != "bestmove none", "{output:#?}");
            assert!(output[last - 1].starts_with("info depth 2 "), "{}: {output:#?}", case.variant);
            for line in &output[..last] {
                assert_search_info(line, case.seats);
            }
        }
    }
}

#[test]
fn departures_in_moves_take_players_out() {
    let script = [
        "setoption name Engine value random",
        "position startpos moves P3c-4d resign:Middle",
        "go",
        "position startpos moves P3c-4d resign:Nobody",
        "position startpos moves P3c-4d draw",
        "go",
    ]
    .join("\n");
    let output = session(&script);
    // Middle has left: Last moves.
    let best = output[1].strip_prefix("bestmove ").expect("a best move");
    let record = format!("[Variant \"sannin\"]\n\nP3c-4d resign:Middle {best}\n");
    let replayed = polyshogi::replay::replay(&record).expect("the record replays");
    assert_eq!(replayed.bad_move, None, "{best} is not Last's move");
    assert_eq!(replayed.played.last().map(|m| m.player), Some(polyshogi::Player::Third));
    assert_eq!(
        output[2],
        error("move 2: `resign:Nobody` is not legal: `Nobody` is not a seat of this game (seats: First, Middle, Last)")
    );
    // A drawn game has no move to find.
    assert_eq!(output[3..], ["bestmove none".to_string()]);
}

/// The words of an `info` line with `multipv K` taken out, and K.
fn without_multipv(line: &str) -> (Vec<&str>, u32) {
    let mut words: Vec<&str> = line.split(' ').collect();
    let at = words.iter().position(|&w| w == "multipv").unwrap_or_else(|| panic!("no multipv in {line}"));
    assert_eq!(at, 5, "multipv follows seldepth: {line}");
    let k = words[at + 1].parse().unwrap_or_else(|_| panic!("multipv needs a number: {line}"));
    words.drain(at..at + 2);
    (words, k)
}

/// `MultiPV 3` in every variant and with every searching engine: each report gives lines 1, 2
/// and 3 in order, each with a score for every seat, and their first moves differ; every
/// line is legal from the position; the `bestmove` is the first move of the last line 1.
#[test]
fn multipv_reports_distinct_lines_with_every_seat_scored() {
    let engines = ["alphabeta", "paranoid", "brs", "maxn", "mcts"];
    for case in CASES {
        for engine in engines {
            let limit = if engine == "mcts" { "nodes 4000" } else { "depth 2" };
            let script = format!(
                "setoption name Variant value {}\nsetoption name Engine value {engine}\nsetoption name MultiPV value 3\n\
                 position startpos moves {}\ngo {limit}\nisready\n",
                case.variant, case.opening[0]
            );
            let output = session(&script);
            let context = format!("{} {engine}: {output:#?}", case.variant);
            // `isready` waits for the search (the end of the input would stop it).
            assert_eq!(output.last().map(String::as_str), Some("readyok"), "{context}");
            let (info, last) = output[..output.len() - 1].split_at(output.len() - 2);
            let best = last[0].strip_prefix("bestmove ").unwrap_or_else(|| panic!("ends with bestmove: {context}"));
            assert!(!info.is_empty() && info.len() % 3 == 0, "reports of three lines: {context}");
            for report in info.chunks(3) {
                let mut firsts = Vec::new();
                for (index, line) in report.iter().enumerate() {
                    let (words, k) = without_multipv(line);
                    assert_eq!(k, index as u32 + 1, "{context}");
                    assert_search_words(line, &words, case.seats);
                    let pv = &words[13 + 2 * case.seats.len()..];
                    firsts.push(pv[0].to_string());
                    let record = format!("[Variant \"{}\"]\n{}\n{}\n", case.variant, case.opening[0], pv.join("\n"));
                    let replayed = polyshogi::replay::replay(&record).expect("the record replays");
                    assert_eq!(replayed.bad_move, None, "line {k} is legal: {context}");
                }
                firsts.sort();
                firsts.dedup();
                assert_eq!(firsts.len(), 3, "three different first moves: {context}");
            }
            let (words, _) = without_multipv(&info[info.len() - 3]);
            assert_eq!(words[13 + 2 * case.seats.len()], best, "bestmove is line 1's first move: {context}");
        }
    }
}

#[test]
fn multipv_out_of_range_is_refused() {
    let output = session("setoption name MultiPV value 0\nsetoption name MultiPV value 11\nsetoption name MultiPV value two\n");
    assert_eq!(
        output,
        [
            error("MultiPV 0 is out of range (1..10)"),
            error("MultiPV 11 is out of range (1..10)"),
            error("`two` is not a number of lines"),
        ]
    );
}

#[test]
fn threads_out_of_range_are_refused() {
    let output = session("setoption name Threads value 0\nsetoption name Threads value 65\nsetoption name Threads value many\n");
    assert_eq!(
        output,
        [
            error("Threads 0 is out of range (1..64)"),
            error("Threads 65 is out of range (1..64)"),
            error("`many` is not a number of threads"),
        ]
    );
}

/// Two threads search every variant's start with its strongest engine and answer a legal move
/// after a report (the end of the input stops the search, so its depth is not known).
#[test]
fn two_threads_search_every_variant() {
    for variant in Variant::ALL {
        let output = session(&format!(
            "setoption name Variant value {}\nsetoption name Threads value 2\nposition startpos\ngo depth 3\n",
            variant.name()
        ));
        let best = output.last().and_then(|l| l.strip_prefix("bestmove ")).unwrap_or_else(|| panic!("{output:?}"));
        let game = polyshogi::variant::AnyGame::new(variant, &[] as &[&str]).unwrap();
        let legal: Vec<String> = polyshogi::with_game!(&game, g => {
            let mut moves = polyshogi::MoveList::new();
            g.legal_moves(&mut moves);
            moves.iter().map(|&m| polyshogi::notation::move_text::canonical(g.position(), m)).collect()
        });
        assert!(legal.iter().any(|m| m == best), "{}: {best} is not legal", variant.name());
        assert!(output.iter().any(|l| l.starts_with("info depth ")), "{}: {output:?}", variant.name());
    }
}
