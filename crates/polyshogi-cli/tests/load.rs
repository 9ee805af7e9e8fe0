//! The load tool (`polyshogi load`) against a real server on a temporary SQLite file: it makes
//! moves, counts no errors, its latency figures are ordered, and every move it counted as
//! accepted is in the server's games; with `--from-ply`, only moves past that ply are measured.
//! No timing assertions: how fast is for docs/BENCHMARKS.md.

use polyshogi_cli::load::{self, protocol, stats::Errors, LoadArgs, PlayedGame};
use polyshogi_server::{Server, ServerConfig};

/// A server on a temporary SQLite file, on a runtime of its own (the tool builds its own in
/// the test's thread), as `polyshogi serve --no-address-limits`: every client of the tool has
/// one address.
struct TestServer {
    server: Server,
    runtime: tokio::runtime::Runtime,
    base_url: String,
    _dir: tempfile::TempDir,
}

impl TestServer {
    fn start() -> TestServer {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let database = format!("sqlite:{}", dir.path().join("load.db").display());
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("a runtime");
        let mut config = ServerConfig::new("127.0.0.1:0", &database);
        config.limits.address_messages = None;
        config.limits.address_games = None;
        let server = runtime.block_on(Server::start_with(config)).expect("the server starts");
        let base_url = format!("http://{}", server.addr());
        TestServer { server, runtime, base_url, _dir: dir }
    }

    /// The moves of each game as `GET /api/games/{id}` tells them.
    fn stored_moves(&self, games: &[PlayedGame]) -> Vec<u64> {
        self.runtime.block_on(async {
            let http = reqwest::Client::new();
            let mut stored = Vec::new();
            for game in games {
                let response = http.get(format!("{}/api/games/{}", self.base_url, game.id)).send().await.expect("an answer");
                assert!(response.status().is_success(), "GET game {}: {}", game.id, response.status());
                let body = response.text().await.expect("a body");
                stored.push(u64::from(protocol::plies_of_game_state(&body).expect("a game state")));
            }
            stored
        })
    }

    fn stop(self) {
        self.server.stop();
    }
}

#[test]
fn the_load_tool_counts_the_moves_the_server_stored() {
    let server = TestServer::start();
    let base_url = server.base_url.clone();

    let mut args = LoadArgs::for_url(&base_url);
    args.games = 3;
    args.spectators = 1;
    args.seconds = 2.0;
    args.warmup = 0.5;
    // This process holds the server: its memory is the server's.
    args.server_pid = Some(std::process::id());
    args.unknown_ids = 50.0;
    let report = load::run(&args).expect("the load runs");

    assert!(report.tally.accepted_measured > 0, "no move was accepted: {}", report.to_text());
    assert_eq!(report.tally.errors, Errors::default(), "{}", report.to_text());
    assert!(report.memory.start_kb.is_some() && report.memory.end_kb.is_some(), "{:?}", report.memory);
    // The server's CPU time in the window is read too (it may round to 0 ms).
    assert!(report.server_cpu_ms.is_some(), "{}", report.to_text());
    // Every request for an unknown game was answered 404.
    let flood = report.unknown_ids.expect("unknown-id requests were made");
    assert!(flood.sent > 0 && flood.not_found == flood.sent, "{flood:?}");

    // One mover sample per accepted move; spectators saw moves too.
    assert_eq!(report.tally.mover.len() as u64, report.tally.accepted_measured);
    assert!(!report.tally.spectator.is_empty(), "{}", report.to_text());
    for latencies in [&report.tally.mover, &report.tally.spectator] {
        // Samples are durations (unsigned); each comes from a send before its broadcast.
        assert!(latencies.samples_micros().iter().all(|&micros| i64::from(micros) >= 0));
        let summary = latencies.summary().expect("samples");
        assert!(summary.p50 <= summary.p99 && summary.p99 <= summary.max, "{summary:?}");
    }

    // Every game the tool played holds exactly the moves it counted as accepted.
    assert!(report.games.len() >= 3, "{:?}", report.games);
    let counted: u64 = report.games.iter().map(|game| game.accepted_moves).sum();
    assert_eq!(counted, report.tally.accepted_total);
    let expected: Vec<u64> = report.games.iter().map(|game| game.accepted_moves).collect();
    assert_eq!(
        server.stored_moves(&report.games),
        expected,
        "moves stored per game vs moves the tool counted: {:?}",
        report.games
    );
    server.stop();
}

/// `--from-ply`: every slot's game is played to the ply unmeasured, then on, and only moves
/// after the ply are measured; each slot keeps its one game, and the counts are the server's
/// across the reconnection between the two parts.
#[test]
fn from_ply_measures_only_moves_past_the_prefix() {
    let server = TestServer::start();
    let mut args = LoadArgs::for_url(&server.base_url);
    args.games = 2;
    args.spectators = 1;
    args.from_ply = 30;
    // Below the prefix: --max-plies does not end games kept going.
    args.max_plies = 10;
    args.seconds = 1.5;
    args.warmup = 0.5;
    let report = load::run(&args).expect("the load runs");

    let prefix = report.prefix.expect("a prefix was played");
    assert_eq!((prefix.ply, prefix.games_reaching_it, prefix.games_falling_short), (30, 2, 0), "{}", report.to_text());
    assert_eq!(report.tally.errors, Errors::default(), "{}", report.to_text());
    assert!(report.tally.accepted_measured > 0, "{}", report.to_text());
    let (lowest, highest) = report.tally.measured_plies.expect("measured moves");
    assert!(lowest > 30 && lowest <= highest, "measured plies {lowest} to {highest}: {}", report.to_text());
    assert_eq!(report.tally.mover.len() as u64, report.tally.accepted_measured);
    // Moves played: the prefix's 60 and the measured run's (warm-up included), no more.
    assert_eq!(report.games.len(), 2, "{:?}", report.games);
    let counted: u64 = report.games.iter().map(|game| game.accepted_moves).sum();
    assert_eq!(counted, report.tally.accepted_total);
    assert!(counted >= 60 + report.tally.accepted_measured, "{}", report.to_text());
    let expected: Vec<u64> = report.games.iter().map(|game| game.accepted_moves).collect();
    assert!(expected.iter().all(|&moves| moves > 30), "{:?}", report.games);
    assert_eq!(
        server.stored_moves(&report.games),
        expected,
        "moves stored per game vs moves the tool counted: {:?}",
        report.games
    );
    // The measured run's connections opened on the game at ply 30 or more: a whole state, then updates.
    let messages = report.tally.messages;
    assert!(messages.largest_state_bytes > 0 && messages.updates_measured > 0, "{messages:?}");
    server.stop();
}
