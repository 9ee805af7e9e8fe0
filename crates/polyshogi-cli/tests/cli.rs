//! End-to-end tests of the `polyshogi` binary: perft, moves, replay, bench and match on good input, and
//! the error contract on bad input (one `error: …` line on stderr, non-zero exit, never a panic).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Start-position legal move count in Sannin shogi (First to move).
const START_MOVES: usize = 48;

fn polyshogi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_polyshogi")).args(args).output().expect("the polyshogi binary can be started")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("stderr is UTF-8")
}

/// The command succeeded, said nothing on stderr, and its stdout is returned.
fn success(args: &[&str]) -> String {
    let output = polyshogi(args);
    let (out, err) = (stdout(&output), stderr(&output));
    assert!(output.status.success(), "`polyshogi {}` failed: {:?}\nstderr: {err}", args.join(" "), output.status);
    assert!(err.is_empty(), "`polyshogi {}` wrote to stderr: {err}", args.join(" "));
    assert!(!out.contains("panicked"), "`polyshogi {}` printed a panic: {out}", args.join(" "));
    out
}

/// The command failed cleanly: an ordinary non-zero exit code (not a signal, as an abort after a
/// panic would be), exactly one stderr line starting with `error:`, and no panic text anywhere.
/// Returns that line.
fn clean_error_output(args: &[&str], output: &Output) -> String {
    let (out, err) = (stdout(output), stderr(output));
    let shown = format!("`polyshogi {}`\nstatus: {:?}\nstdout: {out}\nstderr: {err}", args.join(" "), output.status);
    assert!(!err.contains("panicked") && !out.contains("panicked"), "panic text in {shown}");
    match output.status.code() {
        Some(code) => assert_ne!(code, 0, "exit code 0 on bad input: {shown}"),
        None => panic!("killed by a signal (a panic under panic=abort?): {shown}"),
    }
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "expected exactly one stderr line: {shown}");
    assert!(err.ends_with('\n'), "the error line should end with a newline: {shown}");
    assert!(lines[0].starts_with("error:"), "the stderr line should start with `error:`: {shown}");
    assert!(lines[0].len() > "error: ".len() + 5, "the error line says nothing useful: {shown}");
    lines[0].to_string()
}

/// As `clean_error_output`, for a command that must also print nothing on stdout.
fn clean_error(args: &[&str]) -> String {
    let output = polyshogi(args);
    let line = clean_error_output(args, &output);
    assert!(output.stdout.is_empty(), "`polyshogi {}` printed to stdout before failing: {}", args.join(" "), stdout(&output));
    line
}

fn sample_record() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../records/sannin-1932-sample.psn")
}

fn sample_record_text() -> String {
    std::fs::read_to_string(sample_record()).expect("records/sannin-1932-sample.psn is readable")
}

/// A fresh directory for one test's files, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(test: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("polyshogi-cli-test-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("can create a temporary directory");
        TempDir(dir)
    }

    fn write(&self, name: &str, text: &str) -> String {
        let path = self.0.join(name);
        std::fs::write(&path, text).expect("can write a temporary file");
        path.to_str().expect("temporary path is UTF-8").to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The N of the final `total N` line; it must be the last line.
fn total_line(out: &str) -> u64 {
    let last = out.lines().last().expect("perft printed something");
    let n = last.strip_prefix("total ").unwrap_or_else(|| panic!("last line is not `total N`: {last:?}"));
    n.parse().unwrap_or_else(|_| panic!("bad total: {last:?}"))
}

/// The `<move> <count>` lines of a divide output (all but the total line), checked for shape.
fn divide_rows(out: &str) -> Vec<(String, u64)> {
    let lines: Vec<&str> = out.lines().collect();
    let (_, rows) = lines.split_last().expect("divide printed something");
    rows.iter()
        .map(|line| {
            let (mv, count) = line.split_once(' ').unwrap_or_else(|| panic!("not `<move> <count>`: {line:?}"));
            assert!(!mv.is_empty() && !mv.contains(' '), "bad move field in {line:?}");
            (mv.to_string(), count.parse().unwrap_or_else(|_| panic!("bad count in {line:?}")))
        })
        .collect()
}

fn move_lines(out: &str) -> Vec<String> {
    out.lines().map(str::to_string).collect()
}

// ---------------------------------------------------------------------------------------------
// perft

#[test]
fn perft_sannin_depth_1_is_48() {
    let out = success(&["perft", "sannin", "1"]);
    assert_eq!(out, format!("total {START_MOVES}\n"));
}

#[test]
fn perft_divide_depth_1_lists_every_first_move_once() {
    let out = success(&["perft", "sannin", "1", "--divide"]);
    let rows = divide_rows(&out);
    assert_eq!(rows.len(), START_MOVES);
    assert!(rows.iter().all(|(_, count)| *count == 1), "depth-1 divide counts must all be 1:\n{out}");
    assert_eq!(rows.iter().map(|(_, c)| c).sum::<u64>(), total_line(&out));
    assert_eq!(total_line(&out), START_MOVES as u64);

    let mut names: Vec<&String> = rows.iter().map(|(m, _)| m).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), START_MOVES, "divide lists a move twice:\n{out}");
}

#[test]
fn perft_divide_depth_2_sums_to_the_depth_2_total() {
    let plain = total_line(&success(&["perft", "sannin", "2"]));
    let out = success(&["perft", "sannin", "2", "--divide"]);
    let rows = divide_rows(&out);
    assert_eq!(rows.len(), START_MOVES);
    let sum: u64 = rows.iter().map(|(_, c)| c).sum();
    assert_eq!(sum, total_line(&out), "divide rows do not sum to the total line:\n{out}");
    assert_eq!(total_line(&out), plain, "divide total differs from plain perft");
    assert!(plain > START_MOVES as u64);
}

#[test]
fn divide_moves_are_the_moves_command_moves() {
    let divide: Vec<String> = divide_rows(&success(&["perft", "sannin", "1", "--divide"])).into_iter().map(|(m, _)| m).collect();
    let mut moves = move_lines(&success(&["moves", "sannin"]));
    let mut divide_sorted = divide.clone();
    divide_sorted.sort();
    moves.sort();
    assert_eq!(divide_sorted, moves);
}

#[test]
fn perft_after_moves_counts_from_that_position() {
    let after = success(&["moves", "sannin", "--moves", "P3c-4d"]);
    let out = success(&["perft", "sannin", "1", "--moves", "P3c-4d"]);
    assert_eq!(total_line(&out), after.lines().count() as u64);
}

// ---------------------------------------------------------------------------------------------
// moves

#[test]
fn moves_at_the_start_are_firsts_48() {
    let out = success(&["moves", "sannin"]);
    let lines = move_lines(&out);
    assert_eq!(lines.len(), START_MOVES, "{out}");
    assert!(lines.iter().all(|l| !l.is_empty() && !l.contains(' ')), "one move per line:\n{out}");
    assert!(lines.iter().any(|l| l == "P3c-4d"), "First's P3c-4d is listed:\n{out}");
}

#[test]
fn moves_after_a_first_move_are_middles() {
    let start = move_lines(&success(&["moves", "sannin"]));
    let out = success(&["moves", "sannin", "--moves", "P3c-4d"]);
    let after = move_lines(&out);
    assert!(!after.is_empty());
    assert_ne!(after, start);
    // Middle's pawns stand on rank k; First's moves are gone.
    assert!(after.iter().any(|l| l == "P10k-10j"), "Middle's P10k-10j is listed:\n{out}");
    assert!(!after.iter().any(|l| l == "P3c-4d" || l == "P3d-4e"), "First's moves are still listed:\n{out}");
}

#[test]
fn moves_accepts_the_short_forms_of_the_record() {
    // The 1932 game's first six rounds, as the record writes them.
    let moves = "P3c-4d,P10k-10j,P11g-10g,S-2d,S-9l,S-10e,S-2e,P7k-6j,P8d-7d,P-4e,R-7g+,Bx12l,G-3d,Sx12l,P-9g,P4d-5e,+R-7l,R-10g";
    let out = success(&["moves", "sannin", "--moves", moves]);
    assert!(!out.is_empty());
}

// ---------------------------------------------------------------------------------------------
// rule options

#[test]
fn rule_options_are_accepted() {
    for rules in
        [&["--rule", "alliance=ML"][..], &["--rule", "compulsory=off"], &["--rule", "alliance=ML", "--rule", "compulsory=off"]]
    {
        let mut args = vec!["perft", "sannin", "1"];
        args.extend_from_slice(rules);
        let out = success(&args);
        assert!(total_line(&out) > 0);

        let mut args = vec!["moves", "sannin", "--moves", "P3c-4d"];
        args.extend_from_slice(rules);
        assert!(!success(&args).is_empty());
    }
}

// ---------------------------------------------------------------------------------------------
// replay

#[test]
fn replay_of_the_1932_sample_prints_its_moves() {
    let path = sample_record();
    let out = success(&["replay", path.to_str().unwrap()]);
    let numbered: Vec<&str> =
        out.lines().filter(|l| l.trim_start().split('.').next().is_some_and(|n| n.parse::<u32>().is_ok())).collect();
    assert_eq!(numbered.len(), 18, "six rounds of three moves:\n{out}");
    assert!(numbered[0].contains("P3c-4d"), "first move:\n{out}");
    assert!(numbered[1].contains("P10k-10j"), "second move:\n{out}");
    assert!(numbered[17].contains("10g"), "last move goes to 10g:\n{out}");
    assert!(out.lines().last().is_some_and(|l| l.starts_with("result:")), "ends with a result line:\n{out}");
}

#[test]
fn replay_of_a_record_with_an_illegal_move_names_its_number() {
    let dir = TempDir::new("illegal-record-move");
    let text = sample_record_text();
    assert!(text.contains("S-2e"));
    // Move 7 (round 3, First): no silver of First's can reach 5e.
    let path = dir.write("bad.psn", &text.replacen("S-2e", "S-5e", 1));
    let output = polyshogi(&["replay", &path]);
    let line = clean_error_output(&["replay", &path], &output);
    assert!(line.contains("move 7"), "the error names move 7: {line}");
    assert!(line.contains("S-5e"), "the error quotes the bad move: {line}");
}

#[test]
fn replay_of_a_record_with_a_garbled_move_names_its_number() {
    let dir = TempDir::new("garbled-record-move");
    let text = sample_record_text();
    // Move 10 (round 4, First): not a cell.
    let path = dir.write("bad.psn", &text.replacen("P-4e", "P-4q", 1));
    let output = polyshogi(&["replay", &path]);
    let line = clean_error_output(&["replay", &path], &output);
    assert!(line.contains("move 10"), "the error names move 10: {line}");
    assert!(line.contains("P-4q"), "the error quotes the bad move: {line}");
}

#[test]
fn replay_of_a_record_with_an_unknown_variant_fails_cleanly() {
    let dir = TempDir::new("unknown-variant-record");
    let text = sample_record_text();
    assert!(text.contains("[Variant \"sannin\"]"));
    let path = dir.write("chess.psn", &text.replacen("[Variant \"sannin\"]", "[Variant \"chess\"]", 1));
    let line = clean_error(&["replay", &path]);
    assert!(line.contains("chess"), "the error names the variant: {line}");
}

#[test]
fn replay_of_a_record_that_is_not_a_record_fails_cleanly() {
    let dir = TempDir::new("not-a-record");
    for (name, text) in [("empty.psn", ""), ("garbage.psn", "garbage [[[\n"), ("binary.psn", "\u{0}\u{1}\u{2}[Variant")] {
        let path = dir.write(name, text);
        clean_error(&["replay", &path]);
    }
}

#[test]
fn replay_of_a_missing_file_fails_cleanly() {
    let dir = TempDir::new("missing-file");
    let path = dir.0.join("no-such-record.psn");
    let line = clean_error(&["replay", path.to_str().unwrap()]);
    assert!(line.contains("no-such-record.psn"), "the error names the file: {line}");
}

// ---------------------------------------------------------------------------------------------
// bench

#[test]
fn bench_at_depth_1_runs() {
    let out = success(&["bench", "--depth", "1"]);
    assert!(out.lines().any(|l| l.starts_with("signature ")), "{out}");
}

#[test]
fn bench_search_reports_every_search_of_every_game() {
    let out = success(&["bench", "--search", "--movetime", "20"]);
    for (game, search) in
        [("sannin", "brs"), ("sannin", "paranoid"), ("tphs91", "maxn"), ("hexshogi91", "alphabeta"), ("sankaku", "mcts")]
    {
        assert!(
            out.lines().any(|l| l.starts_with(game) && l.contains(&format!(" {search} ")) && l.ends_with("nodes/s")),
            "no {search} line for {game}:\n{out}"
        );
    }
    // Sannin's alpha-beta searches also run under the default rules (compulsory alliances on).
    for search in ["paranoid", "brs"] {
        let under_defaults = out.lines().filter(|l| l.starts_with("sannin, default rules") && l.contains(&format!(" {search} ")));
        assert_eq!(under_defaults.count(), 2, "{search} under the default rules:\n{out}");
    }
}

/// Each game plays at least one whole random game, to its end: none is cut short at the
/// safety cap, and the same seed plays the same games.
#[test]
fn bench_playouts_play_whole_random_games_of_every_variant() {
    let out = success(&["bench", "--playouts", "--seconds", "0", "--seed", "5"]);
    for game in ["sannin", "hexshogi91", "tphs91", "sankaku"] {
        let line = out.lines().find(|l| l.starts_with(game)).unwrap_or_else(|| panic!("no line for {game}:\n{out}"));
        assert!(line.contains(" 1 playouts ") && line.ends_with(" 0 cut short"), "{line}");
    }
    let moves = |out: &str| -> Vec<String> {
        out.lines().map(|l| l.split_whitespace().nth(3).expect("a move count").to_string()).collect()
    };
    assert_eq!(moves(&success(&["bench", "--playouts", "--seconds", "0", "--seed", "5"])), moves(&out));
}

/// With threads, each thread plays its own games from its own seed (the first thread the given
/// seed, the next one more) and the line sums them.
#[test]
fn bench_playouts_on_threads_sum_the_games_of_each_threads_seed() {
    let moves = |args: &[&str]| -> Vec<u64> {
        let out = success(&[&["bench", "--playouts", "--seconds", "0"], args].concat());
        out.lines().map(|l| l.split_whitespace().nth(3).expect("a move count").parse().expect("a number")).collect()
    };
    let (first, second) = (moves(&["--seed", "5"]), moves(&["--seed", "6"]));
    let both = moves(&["--seed", "5", "--threads", "2"]);
    assert_eq!(both, first.iter().zip(&second).map(|(a, b)| a + b).collect::<Vec<_>>());
    let out = success(&["bench", "--playouts", "--seconds", "0", "--threads", "2"]);
    assert!(out.lines().all(|l| l.contains(" 2 playouts ") && l.ends_with("on 2 threads")), "{out}");
}

/// Time to depth: every alpha-beta search of every game, on one thread and on two, per position
/// and over each game's positions.
#[test]
fn bench_to_depth_times_every_alpha_beta_search_on_one_thread_and_on_two() {
    let out = success(&["bench", "--to-depth", "2"]);
    for (game, search) in [
        ("sannin", "paranoid"),
        ("sannin", "brs"),
        ("hexshogi91", "alphabeta"),
        ("tphs91", "paranoid"),
        ("tphs91", "brs"),
        ("sankaku", "alphabeta"),
    ] {
        let searches = |rest: &str| {
            out.lines().filter(|l| l.starts_with(game) && l.contains(&format!(" {search} ")) && l.contains(rest)).count()
        };
        assert!(searches(" depth  2  1 thread ") >= 1, "no {search} line for {game}:\n{out}");
        assert_eq!(searches(" all positions: 1 thread "), 1, "no {search} total for {game}:\n{out}");
    }
    assert!(out.lines().all(|l| l.contains(" 2 threads ") && l.ends_with('×')), "{out}");
    assert!(!out.contains(" maxn ") && !out.contains(" mcts "), "only the alpha-beta searches run threads:\n{out}");
}

// ---------------------------------------------------------------------------------------------
// match

#[test]
fn match_plays_every_seat_order_and_writes_a_record_of_each_game() {
    let dir = std::env::temp_dir().join(format!("polyshogi-match-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = success(&[
        "match",
        "tphs91",
        "--engines",
        "greedy,random",
        "--games",
        "3",
        "--depth",
        "1",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(out.starts_with("3 games of tphs91"), "{out}");
    // With two engines and three seats, the first sits alone in each seat once.
    let greedy = out.lines().find(|l| l.starts_with("greedy")).expect("a greedy row");
    assert_eq!(greedy.split_whitespace().nth(1), Some("3"), "{out}");
    let random = out.lines().find(|l| l.starts_with("random")).expect("a random row");
    assert_eq!(random.split_whitespace().nth(1), Some("6"), "{out}");
    // How often each placed ahead of the other: the two shares make the whole.
    let share = |row: &str| -> f64 {
        let line = out.lines().skip_while(|l| !l.starts_with("ahead of")).find(|l| l.starts_with(row)).expect("an ahead-of row");
        line.split_whitespace().find(|w| w.ends_with('%')).unwrap().trim_end_matches('%').parse().unwrap()
    };
    assert!((share("greedy") + share("random") - 100.0).abs() < 0.1, "{out}");
    for game in 1..=3 {
        let record = dir.join(format!("game-{game:04}.psn"));
        success(&["validate", record.to_str().unwrap()]);
    }
    assert_eq!(std::fs::read_to_string(dir.join("results.txt")).unwrap(), out);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn match_numbers_engines_of_the_same_name_in_its_tables_and_records() {
    let dir = TempDir::new("match-namesakes");
    let out = success(&[
        "match",
        "sannin",
        "--engines",
        "beginner,beginner,random",
        "--games",
        "6",
        "--depth",
        "1",
        "--quiet",
        "--out",
        dir.0.to_str().unwrap(),
    ]);
    for name in ["beginner#1", "beginner#2", "random"] {
        let row = out.lines().find(|l| l.starts_with(&format!("{name} "))).unwrap_or_else(|| panic!("no {name} row: {out}"));
        assert_eq!(row.split_whitespace().nth(1), Some("6"), "{out}");
    }
    // The "ahead of" table: a column per engine under its name, however long the names.
    let table: Vec<&str> = out.lines().skip_while(|l| !l.starts_with("ahead of")).take(4).collect();
    assert_eq!(table.len(), 4, "{out}");
    assert!(table[0].ends_with(" beginner#1 beginner#2     random"), "{out}");
    assert!(table.iter().all(|l| l.len() == table[0].len()), "{out}");
    for game in 1..=6 {
        let path = dir.0.join(format!("game-{game:04}.psn"));
        success(&["validate", path.to_str().unwrap()]);
        let record = std::fs::read_to_string(&path).unwrap();
        for name in ["\"beginner#1\"]", "\"beginner#2\"]", "\"random\"]"] {
            assert!(record.contains(name), "{name} is not named in {record}");
        }
    }
}

#[test]
fn match_of_two_levels_prints_an_elo_line() {
    let out = success(&["match", "hexshogi91", "--engines", "beginner,easy", "--games", "2", "--movetime", "20", "--quiet"]);
    assert!(out.lines().any(|l| l.starts_with("beginner ")), "{out}");
    assert!(out.lines().any(|l| l.starts_with("Elo beginner − easy: ")), "{out}");
}

#[test]
fn match_rejects_an_unknown_engine_and_a_missing_budget() {
    let line = clean_error(&["match", "sankaku", "--engines", "alphabeta,deepblue"]);
    assert!(line.contains("`deepblue`") && line.contains("levels: beginner"), "{line}");
    let line = clean_error(&["match", "sankaku", "--engines", "alphabeta,greedy"]);
    assert!(line.contains("--movetime"), "{line}");
}

/// The game records of a `match --out` folder, without their tags (which name the engines).
fn record_bodies(dir: &Path) -> Vec<String> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    names.sort();
    names
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "psn"))
        .map(|p| std::fs::read_to_string(p).unwrap().lines().filter(|l| !l.starts_with('[')).collect::<Vec<_>>().join("\n"))
        .collect()
}

#[test]
fn an_external_engine_of_this_build_plays_the_games_its_search_plays() {
    // Node budgets make the searches reproducible, so this build's paranoid search, spoken to
    // over the protocol, must play the very games it plays inside the match. Sannin with
    // alliances to confirm: the move lists sent to the engine carry the answers too.
    let dir = TempDir::new("match-external");
    let binary = env!("CARGO_BIN_EXE_polyshogi");
    let common = ["sannin", "--rule", "compulsory=confirm", "--games", "3", "--nodes", "300", "--seed", "78", "--quiet"];
    let inside = dir.0.join("inside");
    success(&[&["match"][..], &common, &["--engines", "paranoid,paranoid", "--out", inside.to_str().unwrap()]].concat());
    let outside = dir.0.join("outside");
    let external = format!("self={binary} engine");
    let out = success(
        &[
            &["match"][..],
            &common,
            &["--external", &external, "--external-option", "self:Engine=paranoid", "--engines", "paranoid,self"],
            &["--out", outside.to_str().unwrap()],
        ]
        .concat(),
    );
    let self_row = out.lines().find(|l| l.starts_with("self ")).expect("a row for the external engine");
    assert_eq!(self_row.split_whitespace().nth(1), Some("6"), "{out}");
    let (inside, outside) = (record_bodies(&inside), record_bodies(&outside));
    assert_eq!(inside.len(), 3);
    assert!(
        inside.iter().any(|r| r.contains(" accept")),
        "no alliance was proposed in these games; choose a seed whose games have one"
    );
    assert_eq!(inside, outside);
}

/// A program that answers the protocol's setup and then, to `go`, with `on_go` (shell).
fn fake_engine(dir: &TempDir, name: &str, on_go: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let script = format!(
        "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    usi) echo usiok ;;\n    isready) echo readyok ;;\n    go*) {on_go} ;;\n    quit) exit 0 ;;\n  esac\ndone\n"
    );
    let path = dir.write(name, &script);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[test]
fn an_external_engine_that_fails_forfeits_its_games() {
    let dir = TempDir::new("match-forfeits");
    for (name, on_go, ending, termination) in [
        ("liar", "echo 'bestmove P1a-1b'", "illegal move 2", "forfeits: `P1a-1b`, column 2: `1a` is not a cell of this board"),
        ("mute", "true", "lost on time 2", "forfeits: sent no `bestmove` in time"),
        ("quitter", "exit 0", "engine stopped 2", "forfeits: stopped before `bestmove`"),
        ("grumbler", "echo 'info string error: out of sorts'", "engine error 2", "forfeits: refused a command: out of sorts"),
    ] {
        let external = format!("{name}={}", fake_engine(&dir, name, on_go));
        let games = dir.0.join(format!("{name}-games"));
        let out = success(&[
            "match",
            "hexshogi91",
            "--external",
            &external,
            "--engines",
            &format!("greedy,{name}"),
            "--games",
            "2",
            "--movetime",
            "10",
            "--timemargin",
            "100",
            "--quiet",
            "--out",
            games.to_str().unwrap(),
        ]);
        let row = out.lines().find(|l| l.starts_with(&format!("{name} "))).expect("a row for the external engine");
        // games, points, score, W, D, L: every game lost.
        let columns: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(columns[1..7], ["2", "0.0", "0.0%", "0", "0", "2"], "{out}");
        assert!(out.contains(&format!("endings: {ending}\n")), "{out}");
        let record = std::fs::read_to_string(games.join("game-0001.psn")).unwrap();
        assert!(record.contains(termination), "{record}");
        success(&["validate", games.join("game-0001.psn").to_str().unwrap()]);
    }
}

#[test]
fn match_refuses_an_external_engine_it_cannot_set_up() {
    let binary = env!("CARGO_BIN_EXE_polyshogi");
    let run = |external: &str, extra: &[&str]| {
        clean_error(
            &[&["match", "sankaku", "--external", external, "--engines", "greedy,other", "--nodes", "10"][..], extra].concat(),
        )
    };
    let line = run("other=/nonexistent/engine", &[]);
    assert!(line.contains("cannot start the engine other (`/nonexistent/engine`)"), "{line}");
    let line = run(&format!("other={binary} engine"), &["--external-option", "other:Colour=red"]);
    assert!(line.contains("the engine other did not start") && line.contains("unknown option `Colour`"), "{line}");
    let line = run(&format!("other={binary} engine"), &["--external-option", "another:Hash=8"]);
    assert!(line.contains("no --external engine is named `another`"), "{line}");
    let line = run(&format!("other={binary} engine"), &["--weights", "tuned,hand"]);
    assert!(line.contains("not to the external engine other"), "{line}");
    let line =
        clean_error(&["match", "sankaku", "--external", "greedy=/bin/true", "--engines", "greedy,alphabeta", "--nodes", "10"]);
    assert!(line.contains("`greedy` is the name of one of this build's engines"), "{line}");
    let line = clean_error(&["match", "sankaku", "--external", "other", "--engines", "greedy,other", "--nodes", "10"]);
    assert!(line.contains("NAME=COMMAND"), "{line}");
}

/// A two-game Sankaku match of alpha-beta against itself, with `--weights weights`.
fn sankaku_match_with_weights(weights: &str) -> String {
    success(&[
        "match",
        "sankaku",
        "--engines",
        "alphabeta,alphabeta",
        "--weights",
        weights,
        "--games",
        "2",
        "--nodes",
        "200",
        "--quiet",
    ])
}

#[test]
fn match_takes_weights_per_engine_and_names_them() {
    let dir = TempDir::new("match-weights");
    let file = dir.write("heavy-soldiers.txt", "# a test\nsankaku.soldier=300\n");
    let out = sankaku_match_with_weights(&format!("hand,{file}"));
    assert!(out.lines().any(|l| l.starts_with("alphabeta-hand ")), "{out}");
    assert!(out.lines().any(|l| l.starts_with("alphabeta-heavy-soldiers ")), "{out}");
    let bad = dir.write("bad.txt", "sankaku.queen=9\n");
    let line = clean_error(&["match", "sankaku", "--engines", "alphabeta,greedy", "--weights", &bad, "--nodes", "10"]);
    assert!(line.contains("bad.txt") && line.contains("line 1") && line.contains("sankaku.queen"), "{line}");
    let line =
        clean_error(&["match", "sankaku", "--engines", "alphabeta,greedy", "--weights", "hand,hand,hand", "--nodes", "10"]);
    assert!(line.contains("--weights"), "{line}");
}

// tune

#[test]
fn tune_writes_a_weights_file_that_the_same_command_writes_again() {
    let dir = TempDir::new("tune");
    let first = dir.0.join("first.txt");
    let second = dir.0.join("second.txt");
    let args = ["tune", "sankaku", "--games", "20", "--nodes", "300", "--positions-per-game", "10"];
    // However many games run at once, each game is played the same.
    for (out, jobs) in [(&first, "2"), (&second, "1")] {
        // The tuner reports its progress on stderr.
        let output = polyshogi(&[&args[..], &["--jobs", jobs, "--out", out.to_str().unwrap()]].concat());
        let log = stderr(&output);
        assert!(output.status.success(), "{log}");
        assert!(log.contains("20 self-play games of alphabeta") && log.contains("tuned: loss"), "{log}");
    }
    let text = std::fs::read_to_string(&first).unwrap();
    assert_eq!(text, std::fs::read_to_string(&second).unwrap(), "the same seed must tune the same weights");
    assert!(text.contains("#   polyshogi tune sankaku --games 20 --nodes 300"), "{text}");
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    // Every Sankaku weight the evaluation reads but the soldier, the unit, which stays 100.
    let read = polyshogi_engine::Weights::keys_of(polyshogi::variant::Variant::Sankaku).count();
    assert_eq!(lines.len(), read - 1, "{text}");
    assert!(lines.iter().all(|l| l.starts_with("sankaku.") && !l.starts_with("sankaku.soldier=")), "{text}");
    // The file is a valid weights file: a match reads it.
    let out = sankaku_match_with_weights(&format!("{},hand", first.display()));
    assert!(out.lines().any(|l| l.starts_with("alphabeta-first ")), "{out}");
}

#[test]
fn tune_refuses_too_few_games_and_an_unknown_variant() {
    let line = clean_error(&["tune", "sankaku", "--games", "3"]);
    assert!(line.contains("--games must be at least 10"), "{line}");
    let line = clean_error(&["tune", "chess"]);
    assert!(line.contains("chess"), "{line}");
}

#[test]
fn tune_match_writes_the_chosen_value_under_its_results_and_replaces_them_when_run_again() {
    let dir = TempDir::new("tune-match");
    let from = dir.write("from.txt", "# Sankaku: set by hand\nsankaku.general=600\n");
    let (first, second) = (dir.0.join("first.txt"), dir.0.join("second.txt"));
    let args = ["tune-match", "sankaku", "undefended_pct", "--values", "0,12,40", "--games", "4", "--nodes", "200"];
    // However many games run at once, each game is played the same.
    for (out, jobs) in [(&first, "2"), (&second, "1")] {
        let output =
            polyshogi(&[&args[..], &["--from", &from, "--out", out.to_str().unwrap(), "--jobs", jobs, "--quiet"]].concat());
        assert!(output.status.success(), "{}", stderr(&output));
        let report = stdout(&output);
        // The base value (12, hand-set) is not played against itself.
        assert!(report.contains("the base has sankaku.undefended_pct=12"), "{report}");
        assert!(report.contains("  0: scored ") && report.contains("  40: scored ") && !report.contains("  12: "), "{report}");
    }
    let text = std::fs::read_to_string(&first).unwrap();
    assert_eq!(text, std::fs::read_to_string(&second).unwrap(), "the same command must write the same file");
    assert!(
        text.starts_with("# Sankaku: set by hand\nsankaku.general=600\n# Set by matches: polyshogi tune-match sankaku"),
        "{text}"
    );
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 2, "{text}");
    let chosen: i32 = lines[1].strip_prefix("sankaku.undefended_pct=").expect("the weight's line last").parse().unwrap();
    match text.lines().find(|l| l.ends_with("(chosen)")) {
        Some(line) => assert!(line.starts_with(&format!("#   {chosen}: ")), "{text}"),
        None => assert!(chosen == 12 && text.contains("No value beat the base"), "{text}"),
    }
    // Run again on its own output: the earlier block and line give way to the new ones.
    let again = first.to_str().unwrap();
    let output = polyshogi(&[&args[..], &["--seed", "2", "--from", again, "--out", again, "--quiet"]].concat());
    assert!(output.status.success(), "{}", stderr(&output));
    let text = std::fs::read_to_string(&first).unwrap();
    assert_eq!(text.matches("# Set by matches").count(), 1, "{text}");
    assert_eq!(text.matches("sankaku.undefended_pct=").count(), 2, "the base line and the weight's line: {text}");
    assert!(text.contains("--seed 2") && text.contains("sankaku.general=600"), "{text}");
}

#[test]
fn tune_spsa_writes_the_same_weights_for_the_same_command_and_replaces_its_block_when_run_again() {
    let dir = TempDir::new("tune-spsa");
    let from = dir.write("from.txt", "# Sankaku: set by hand\nsankaku.general=600\nsankaku.control=3\n");
    let (first, second) = (dir.0.join("first.txt"), dir.0.join("second.txt"));
    let args = [
        "tune-spsa",
        "sankaku",
        "--weights",
        "undefended_pct:4,control:2",
        "--iterations",
        "3",
        "--check-games",
        "0",
        "--nodes",
        "200",
    ];
    // However many games run at once, each game is played the same.
    for (out, jobs) in [(&first, "2"), (&second, "1")] {
        let output =
            polyshogi(&[&args[..], &["--from", &from, "--out", out.to_str().unwrap(), "--jobs", jobs, "--quiet"]].concat());
        assert!(output.status.success(), "{}", stderr(&output));
        let report = stdout(&output);
        assert!(report.contains("alphabeta by SPSA, from sankaku.undefended_pct=12 sankaku.control=3 to "), "{report}");
        assert!(report.contains("No check match."), "{report}");
        // The run reports its weights as it goes.
        assert!(stderr(&output).contains("step 3/3: sankaku.undefended_pct="), "{}", stderr(&output));
    }
    let text = std::fs::read_to_string(&first).unwrap();
    assert_eq!(text, std::fs::read_to_string(&second).unwrap(), "the same command must write the same file");
    assert!(
        text.starts_with("# Sankaku: set by hand\nsankaku.general=600\n# Set by matches: polyshogi tune-spsa sankaku"),
        "{text}"
    );
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[1].starts_with("sankaku.undefended_pct=") && lines[2].starts_with("sankaku.control="), "{text}");
    // The lines hold the values the report ends with.
    let reported = text.lines().find(|l| l.contains("by SPSA, from")).unwrap();
    assert!(reported.ends_with(&format!("to {} {}.", lines[1], lines[2])), "{text}");
    // Run again on its own output: the earlier block and lines give way to the new ones.
    let again = first.to_str().unwrap();
    let output = polyshogi(&[&args[..], &["--seed", "2", "--from", again, "--out", again, "--quiet"]].concat());
    assert!(output.status.success(), "{}", stderr(&output));
    let text = std::fs::read_to_string(&first).unwrap();
    assert_eq!(text.matches("# Set by matches").count(), 1, "{text}");
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0] == "sankaku.general=600" && lines[2].starts_with("sankaku.control="), "{text}");
    assert!(text.contains("--seed 2"), "{text}");
}

#[test]
fn tune_spsa_writes_the_file_only_when_the_check_match_keeps_the_result() {
    let dir = TempDir::new("tune-spsa-check");
    let from_text = "hex3.king_held=2400\n";
    let from = dir.write("from.txt", from_text);
    let out = dir.write("out.txt", from_text);
    let args = [
        "tune-spsa",
        "tphs91",
        "--weights",
        "king_held:300",
        "--iterations",
        "2",
        "--check-games",
        "3",
        "--nodes",
        "100",
        "--max-plies",
        "30",
        "--quiet",
        "--from",
        &from,
        "--out",
        &out,
    ];
    let output = polyshogi(&args);
    assert!(output.status.success(), "{}", stderr(&output));
    let report = stdout(&output);
    assert!(report.contains("Check, alone against two of the start, and the start alone against two of it"), "{report}");
    let text = std::fs::read_to_string(&out).unwrap();
    // Three games each way cannot give an interval above the start: the file stays as it was.
    assert!(report.contains("(not kept: the interval reaches the start)"), "{report}");
    assert_eq!(text, from_text);
}

#[test]
fn tune_spsa_refuses_a_weight_without_its_step_and_out_without_from() {
    let line = clean_error(&["tune-spsa", "sankaku", "--weights", "control"]);
    assert!(line.contains("`control`: give each weight with its step, as name:step"), "{line}");
    let line = clean_error(&["tune-spsa", "sankaku", "--weights", "control:2", "--out", "x.txt"]);
    assert!(line.contains("give --from"), "{line}");
    let line = clean_error(&["tune-spsa", "sankaku", "--weights", "control:2", "--rate", "0"]);
    assert!(line.contains("--rate must be a positive number"), "{line}");
}

#[test]
fn tune_match_plays_each_side_alone_in_a_three_player_game() {
    let args = [
        "tune-match",
        "tphs91",
        "hex3.threat_pct",
        "--values",
        "90",
        "--games",
        "3",
        "--nodes",
        "100",
        "--max-plies",
        "30",
        "--quiet",
    ];
    let output = polyshogi(&args);
    assert!(output.status.success(), "{}", stderr(&output));
    let report = stdout(&output);
    assert!(report.contains("  90: alone ") && report.contains("the base alone"), "{report}");
}

#[test]
fn tune_match_refuses_a_weight_of_another_game_and_out_without_from() {
    let line = clean_error(&["tune-match", "sankaku", "queen", "--values", "1"]);
    assert!(line.contains("Sankaku shogi has no weight `queen`") && line.contains("undefended_pct"), "{line}");
    let line = clean_error(&["tune-match", "sankaku", "hex.threat_pct", "--values", "1"]);
    assert!(line.contains("not a weight of Sankaku shogi") && line.contains("sankaku.*"), "{line}");
    let line = clean_error(&["tune-match", "sankaku", "undefended_pct", "--values", "1", "--out", "x.txt"]);
    assert!(line.contains("give --from"), "{line}");
}

#[test]
fn play_refuses_bad_arguments_and_a_missing_terminal_in_one_line() {
    let line = clean_error(&["play", "sankaku", "--seat", "Red"]);
    assert!(line.contains("`Red`") && line.contains("Black, White"), "{line}");
    let line = clean_error(&["play", "sankaku", "--bots", "easy,grandmaster"]);
    assert!(line.contains("`grandmaster`") && line.contains("levels: beginner"), "{line}");
    let line = clean_error(&["play", "sankaku", "--bots", "easy,easy"]);
    assert!(line.contains("2 bot levels given for 1 bot seats"), "{line}");
    let line = clean_error(&["play", "hexshogi91", "--clock", "ten"]);
    assert!(line.contains("<minutes>+<seconds>"), "{line}");
    let line = clean_error(&["play", "sannin", "--rule", "colour=red"]);
    assert!(line.contains("colour"), "{line}");
    // The tests run without a terminal: the game cannot be shown, and nothing is written.
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("game.psn");
    let line = clean_error(&["play", "sankaku", "--record", record.to_str().unwrap()]);
    assert!(line.contains("cannot open the terminal"), "{line}");
    assert!(!record.exists());
}

// ---------------------------------------------------------------------------------------------
// bad input on the command line

#[test]
fn unknown_variant_fails_cleanly() {
    for args in [&["perft", "chess", "1"][..], &["perft", "chess", "1", "--divide"], &["moves", "chess"]] {
        let line = clean_error(args);
        assert!(line.contains("chess"), "the error names the variant: {line}");
    }
}

#[test]
fn garbled_move_fails_cleanly() {
    for args in [&["perft", "sannin", "1", "--moves", "P3c-4q"][..], &["moves", "sannin", "--moves", "P3c-4q"]] {
        let line = clean_error(args);
        assert!(line.contains("P3c-4q") || line.contains("4q"), "the error quotes the move: {line}");
    }
    for garbled in ["xyzzy", "P", "-", "P3c4d", "P3c-4d-5e", "Q3c-4d", "P99c-4d", "P3c-4d,P3c-4d"] {
        clean_error(&["moves", "sannin", "--moves", garbled]);
    }
}

#[test]
fn illegal_move_fails_cleanly() {
    for args in [&["perft", "sannin", "1", "--moves", "P3c-5e"][..], &["moves", "sannin", "--moves", "P3c-5e"]] {
        let line = clean_error(args);
        assert!(line.contains("P3c-5e"), "the error quotes the move: {line}");
    }
    // Legal for First, but it is Middle's turn.
    let line = clean_error(&["moves", "sannin", "--moves", "P3c-4d,P3d-4e"]);
    assert!(line.contains("move 2"), "the error names move 2: {line}");
}

#[test]
fn ambiguous_move_fails_cleanly() {
    // Both P3c and P3d can step to 4d.
    let line = clean_error(&["moves", "sannin", "--moves", "P-4d"]);
    assert!(line.contains("ambiguous"), "the error says why: {line}");
    clean_error(&["perft", "sannin", "1", "--moves", "P-4d"]);
}

#[test]
fn bad_rule_key_fails_cleanly() {
    let line = clean_error(&["perft", "sannin", "1", "--rule", "foo=bar"]);
    assert!(line.contains("foo"), "the error names the key: {line}");
    clean_error(&["moves", "sannin", "--rule", "foo=bar"]);
    clean_error(&["perft", "sannin", "1", "--rule", "=off"]);
}

#[test]
fn bad_rule_value_fails_cleanly() {
    let line = clean_error(&["perft", "sannin", "1", "--rule", "compulsory=sometimes"]);
    assert!(line.contains("sometimes"), "the error names the value: {line}");
    clean_error(&["perft", "sannin", "1", "--rule", "alliance=XY"]);
    clean_error(&["moves", "sannin", "--rule", "compulsory="]);
}

#[test]
fn rule_without_equals_fails_cleanly() {
    let line = clean_error(&["perft", "sannin", "1", "--rule", "compulsory"]);
    assert!(line.contains("compulsory"), "the error names the option: {line}");
    clean_error(&["moves", "sannin", "--rule", "compulsory"]);
}

#[test]
fn missing_or_bad_arguments_fail_cleanly() {
    clean_error(&["perft", "sannin"]);
    clean_error(&["perft"]);
    clean_error(&["moves"]);
    clean_error(&["replay"]);
    clean_error(&["perft", "sannin", "x"]);
    clean_error(&["perft", "sannin", "-1"]);
    clean_error(&["bench", "--depth", "x"]);
    clean_error(&["perft", "sannin", "1", "--no-such-flag"]);
    clean_error(&[]);
}

#[test]
fn unknown_subcommand_fails_cleanly() {
    let line = clean_error(&["frobnicate"]);
    assert!(line.contains("frobnicate"), "the error names the subcommand: {line}");
}

#[test]
fn missing_depth_error_names_the_argument() {
    let line = clean_error(&["perft", "sannin"]);
    assert!(line.to_lowercase().contains("depth"), "the error should name the missing depth: {line}");
}

#[test]
fn no_arguments_error_says_a_command_is_needed() {
    let line = clean_error(&[]);
    assert!(line.contains("no command"), "the error should say a command is needed: {line}");
}

#[test]
fn divide_at_depth_0_is_refused() {
    let line = clean_error(&["perft", "sannin", "0", "--divide"]);
    assert!(line.contains("--divide"), "{line}");
    assert_eq!(total_line(&success(&["perft", "sannin", "0"])), 1);
}

#[test]
fn empty_entries_in_a_move_list_are_refused() {
    let line = clean_error(&["moves", "sannin", "--moves", "P3c-4d,,P10k-10j"]);
    assert!(line.contains("move 2 is empty"), "{line}");
}

#[test]
fn a_move_that_cannot_promote_says_so() {
    let line = clean_error(&["moves", "sannin", "--moves", "P3c-4d+"]);
    assert!(line.contains("may not promote"), "{line}");
}

/// The pieces a picture draws on its board.
fn pictured_pieces(svg: &str) -> usize {
    svg.matches(r#"<g class="piece"#).count()
}

/// The pieces of a position string's board field: one upper-case letter each.
fn pieces_in_position(position: &str) -> usize {
    position.split_whitespace().nth(1).expect("a board field").chars().filter(char::is_ascii_uppercase).count()
}

#[test]
fn show_svg_draws_a_record_s_position_from_the_seat_asked() {
    let dir = TempDir::new("show-svg");
    let record = sample_record();
    let record = record.to_str().unwrap();
    let file = dir.0.join("sample.svg");
    let file = file.to_str().unwrap();
    assert_eq!(success(&["show", record, "--svg", file, "--seat", "middle"]), "", "the picture goes to the file only");
    let svg = std::fs::read_to_string(file).expect("the picture was written");
    assert!(svg.starts_with("<?xml") && svg.trim_end().ends_with("</svg>"), "{svg}");
    assert!(svg.contains(r#"data-view-seat="Middle""#));
    // The record's final position, its last move marked.
    let position = success(&["convert", record, "--to", "position"]);
    assert_eq!(pictured_pieces(&svg), pieces_in_position(&position));
    assert!(svg.contains("After move 18 (Last ") && svg.matches(r#"class="last-move""#).count() == 2, "{svg}");

    // The start of the record, in kanji without cell names; a position string as given.
    success(&["show", record, "--svg", file, "--ply", "0", "--pieces", "kanji", "--no-coordinates"]);
    let start = std::fs::read_to_string(file).unwrap();
    assert_eq!(pictured_pieces(&start), 54);
    assert!(start.contains("Start · First to move") && start.contains(">歩<") && !start.contains(r#"class="coordinate""#));
    success(&["show", position.trim(), "--svg", file]);
    let from_string = std::fs::read_to_string(file).unwrap();
    assert_eq!(pictured_pieces(&from_string), pictured_pieces(&svg));
    assert!(from_string.contains(r#"data-view-seat="First""#) && !from_string.contains("last-move"));
}

#[test]
fn show_svg_refuses_what_it_cannot_draw() {
    let dir = TempDir::new("show-svg-errors");
    let record = sample_record();
    let record = record.to_str().unwrap();
    let file = dir.0.join("picture.svg");
    let file = file.to_str().unwrap();
    let start = "sankaku cec/hhghh/1sssss1/7/7/1SSSSS1/HHGHH/CEC B ply=0";
    for (args, words) in [
        (
            vec!["show", record, "--svg", file, "--seat", "Nobody"],
            "--seat: `Nobody` is not a seat of Sannin shogi (seats: First, Middle, Last)",
        ),
        (vec!["show", record, "--svg", file, "--ply", "19"], "--ply 19: the record has only 18 moves"),
        (vec!["show", start, "--svg", file, "--ply", "1"], "--ply 1: a position string has no moves to count"),
        (vec!["show", start, "--seat", "White"], "--svg"),
        (vec!["show", "no-such-record.psn", "--svg", file], "`no-such-record.psn` is neither a file nor a position string"),
        (vec!["show", start, "--svg", dir.0.join("missing/picture.svg").to_str().unwrap()], "cannot write"),
    ] {
        let line = clean_error(&args);
        assert!(line.contains(words), "`{line}` does not say `{words}`");
    }
    assert!(!Path::new(file).exists(), "nothing written on a refusal");
}
