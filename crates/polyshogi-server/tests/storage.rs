//! The same storage suite against a SQLite file and against a real PostgreSQL: the `Store`
//! round trip, and a server killed mid-game and started again on the same database, after
//! which the game goes on with no move lost and the bots still moving.
//!
//! PostgreSQL is reached through `POLYSHOGI_TEST_POSTGRES_URL` (scripts/postgres.sh prints
//! one). Without it the PostgreSQL tests say so and pass, unless `POLYSHOGI_REQUIRE_POSTGRES=1`.

mod common;

use std::time::Duration;

use common::*;
use polyshogi::notation::move_text;
use polyshogi::variant::AnyGame;
use polyshogi::with_game;
use polyshogi_engine::{Level, Limits};
use polyshogi_server::bots::Bot;
use polyshogi_server::store::{ActionKind, Change, Run, SqlStore, Store, StoreError, StoredAction, StoredGame, StoredSeat};
use serde_json::Value;

fn sqlite_url(dir: &tempfile::TempDir) -> String {
    format!("sqlite:{}", dir.path().join("games.db").display())
}

fn sample_game(id: &str) -> StoredGame {
    StoredGame {
        id: id.to_string(),
        variant: "sannin".into(),
        rules: vec!["compulsory=off".into(), "max_plies=500".into()],
        start_position: None,
        clock: Some((600_000, 5_000)),
        created_ms: 1_700_000_000_000,
        seats: vec![
            StoredSeat::Human { token_hash: "ab".repeat(32), player: None },
            StoredSeat::Bot { level: "random".into() },
            StoredSeat::Bot { level: "greedy".into() },
        ],
        rated: false,
        open_until_ms: None,
        finished: false,
        settled: false,
        result: None,
        wake_ms: Some(1_700_000_000_000),
        actions: Vec::new(),
    }
}

fn action(seq: i64, seat: usize, kind: ActionKind, detail: &str, clocks: Option<Vec<i64>>) -> StoredAction {
    StoredAction { seq, seat, kind, detail: detail.into(), clocks, created_ms: 1_700_000_000_000 + seq }
}

/// What every store must do.
async fn store_suite(url: &str) {
    let store = SqlStore::connect(url).await.expect("the database opens and migrates");
    // Migrations run again harmlessly.
    let store_again = SqlStore::connect(url).await.expect("a second start migrates nothing");
    store_again.close().await;

    let id = polyshogi_server::tokens::new_game_id();
    let game = sample_game(&id);
    store.create_game(&game).await.unwrap();
    assert!(store.create_game(&game).await.is_err(), "the same id twice");
    assert_eq!(store.load_game(&id).await.unwrap(), Some(game.clone()));
    // Due to wake by a time after its wake time, not before; not at all without one.
    assert!(store.games_to_wake(1_700_000_000_000, 1_000).await.unwrap().contains(&id));
    assert!(!store.games_to_wake(1_699_999_999_999, 1_000).await.unwrap().contains(&id));
    store.set_wake(&id, None).await.unwrap();
    assert!(!store.games_to_wake(i64::MAX, 1_000).await.unwrap().contains(&id));
    store.set_wake(&id, Some(1_700_000_000_000)).await.unwrap();
    assert_eq!(store.load_game("nosuchgame").await.unwrap(), None);

    let actions = vec![
        action(0, 0, ActionKind::Move, "P3c-4d", Some(vec![601_000, 600_000, 600_000])),
        action(1, 1, ActionKind::OfferDraw, "", Some(vec![601_000, 599_000, 600_000])),
        action(2, 1, ActionKind::Move, "P10k-10j", Some(vec![601_000, 603_000, 600_000])),
        action(3, 2, ActionKind::Answer, "accept", None),
    ];
    for a in &actions {
        store.append_action(&id, a, None, None).await.unwrap();
    }
    // A second action with the same number is refused and changes nothing.
    assert!(store.append_action(&id, &action(2, 2, ActionKind::Resign, "", None), None, None).await.is_err());
    let loaded = store.load_game(&id).await.unwrap().unwrap();
    assert_eq!(loaded.actions, actions);
    assert!(!loaded.finished);

    store.append_action(&id, &action(4, 2, ActionKind::Flag, "", None), Some("Middle wins (LastStanding)"), None).await.unwrap();
    let loaded = store.load_game(&id).await.unwrap().unwrap();
    assert!(loaded.finished);
    assert_eq!(loaded.result.as_deref(), Some("Middle wins (LastStanding)"));
    assert_eq!(loaded.actions.len(), 5);
    assert!(!store.games_to_wake(i64::MAX, 1_000).await.unwrap().contains(&id), "a finished game never wakes");
    assert_eq!(loaded.wake_ms, None);

    // Writes of many games at once are committed together; a bad one among them (an action
    // number taken already) fails alone.
    let others: Vec<String> = (0..50).map(|_| polyshogi_server::tokens::new_game_id()).collect();
    for other in &others {
        store.create_game(&sample_game(other)).await.unwrap();
    }
    let first_move = action(0, 0, ActionKind::Move, "P3c-4d", None);
    let writes =
        futures_util::future::join_all(others.iter().map(|other| store.append_action(other, &first_move, None, Some(1_000))));
    let taken = store.append_action(&id, &first_move, None, None);
    let (written, taken) = tokio::join!(writes, taken);
    assert!(taken.is_err(), "action 0 of {id} was stored twice");
    for (other, result) in others.iter().zip(written) {
        result.unwrap_or_else(|e| panic!("{other}'s move was lost with a bad neighbour: {e}"));
        assert_eq!(store.load_game(other).await.unwrap().unwrap().actions, vec![first_move.clone()]);
    }
    assert_eq!(store.load_game(&id).await.unwrap().unwrap().actions.len(), 5);
    assert_eq!(store.load_game(&others[0]).await.unwrap().unwrap().wake_ms, Some(1_000), "an action sets the wake time");

    // Runs: each start answers the runs before it, with the last time each was alive.
    let earlier = store.start_run("run-a", 10).await.unwrap();
    store.keep_alive("run-a", 25).await.unwrap();
    let runs = store.start_run("run-b", 40).await.unwrap();
    assert_eq!(&runs[..earlier.len()], &earlier[..]);
    assert_eq!(runs[earlier.len()..], [Run { started_ms: 10, alive_ms: 25 }]);
    store.close().await;
}

/// Every game's first action sent at once, each from a task of its own, one of them to a place
/// already taken: that one alone answers `Conflict` and changes nothing; the others are stored,
/// with their games' wake times and results. The writer takes every write waiting into one
/// transaction, so most of these share a batch (how many share which is up to the scheduler).
/// On PostgreSQL another process hears of the actions stored and of nothing else.
async fn conflict_in_a_batch_suite(url: &str) {
    let store = SqlStore::connect(url).await.expect("the database opens and migrates");
    // Another process on the same database, to hear what this one announces (PostgreSQL only).
    let other = SqlStore::connect(url).await.unwrap();
    let mut heard = other.take_changes();
    let games: Vec<String> = (0..200).map(|_| polyshogi_server::tokens::new_game_id()).collect();
    for game in &games {
        store.create_game(&sample_game(game)).await.unwrap();
    }
    let taken = games[77].clone();
    let first = action(0, 0, ActionKind::Move, "P3c-4d", None);
    store.append_action(&taken, &first, None, Some(5)).await.unwrap();

    let wake_ms = |i: usize| 2_000 + i as i64;
    let result = |i: usize| (i % 10 == 3).then_some("First wins (Resignation)");
    let tasks: Vec<_> = games
        .iter()
        .enumerate()
        .map(|(i, game)| {
            let (store, game) = (store.clone(), game.clone());
            let move_i = action(0, 0, ActionKind::Move, &format!("move{i}"), Some(vec![i as i64, 0]));
            tokio::spawn(async move { store.append_action(&game, &move_i, result(i), Some(wake_ms(i))).await })
        })
        .collect();
    for (i, task) in tasks.into_iter().enumerate() {
        let outcome = task.await.expect("the task ran");
        let loaded = store.load_game(&games[i]).await.unwrap().unwrap();
        if games[i] == taken {
            assert!(matches!(outcome, Err(StoreError::Conflict)), "the taken place answered {outcome:?}");
            assert_eq!(loaded.actions, vec![first.clone()], "a refused action was written");
            assert_eq!((loaded.wake_ms, loaded.finished), (Some(5), false), "a refused action changed its game");
        } else {
            outcome.unwrap_or_else(|e| panic!("game {i}'s action failed beside a conflict: {e}"));
            assert_eq!(loaded.actions.len(), 1);
            assert_eq!(loaded.actions[0].detail, format!("move{i}"));
            assert_eq!(loaded.actions[0].clocks, Some(vec![i as i64, 0]));
            assert_eq!(loaded.finished, result(i).is_some());
            assert_eq!(loaded.result.as_deref(), result(i));
            assert_eq!(loaded.wake_ms, if result(i).is_some() { None } else { Some(wake_ms(i)) });
        }
    }

    if let Some(heard) = heard.as_mut() {
        // A last write, announced after everything before it: once it is heard, all is.
        let marker = polyshogi_server::tokens::new_game_id();
        store.create_game(&sample_game(&marker)).await.unwrap();
        store.append_action(&marker, &first, None, None).await.unwrap();
        let mut stored = Vec::new();
        loop {
            let change = tokio::time::timeout(Duration::from_secs(10), heard.recv())
                .await
                .expect("the other process hears the stored actions")
                .expect("the other process still listens");
            if let Change::Stored { game_id, seq, wake_ms } = change {
                if game_id == marker {
                    break;
                }
                stored.push((game_id, seq, wake_ms));
            }
        }
        let mut expected: Vec<(String, i64, Option<i64>)> = vec![(taken.clone(), 0, Some(5))];
        for (i, game) in games.iter().enumerate().filter(|(_, game)| **game != taken) {
            expected.push((game.clone(), 0, if result(i).is_some() { None } else { Some(wake_ms(i)) }));
        }
        stored.sort();
        expected.sort();
        assert_eq!(stored, expected, "announced: the actions stored, each once, and nothing else");
    }
    other.close().await;
    store.close().await;
}

/// First's move as the `medium` bot would play it. The restart test needs First in the game
/// for some twenty plies: with quiet pawn moves the beginner bots mated him now and then.
async fn play_careful_move(human: &mut Client, state: &Value) -> String {
    let game = AnyGame::from_position_text(state["position"].as_str().expect("a position"), &[] as &[&str])
        .expect("the state's position reads back");
    let limits = Limits { seed: moves(state).len() as u64, ..Limits::default() };
    let chosen =
        with_game!(&game, g => Bot::Level(Level::Medium).choose(g, &limits).map(|m| move_text::canonical(g.position(), m)))
            .expect("First has a move");
    human.send(serde_json::json!({ "type": "move", "move": chosen })).await;
    chosen
}

/// Plays against two bots, kills the server right after one of the human's moves is
/// acknowledged, starts a new server on the same database and plays on.
/// The restart test needs First in the game to the end, and says so if he is out instead of
/// timing out.
fn assert_still_playing(state: &Value) {
    let playing = state["outcome"].is_null() && seat_entry(state, "First")["active"] == true;
    assert!(playing, "First was out before the restart test was done with him: {state}");
}

async fn restart_suite(url: &str) {
    let server = TestServer::start(url).await;
    // A short game of bots that ends before the kill: it is read back from storage on demand.
    let mut short = new_game(&["beginner", "beginner", "beginner"], None);
    short["rules"] = serde_json::json!(["max_plies=30"]);
    let short_id = server.create(short).await["id"].as_str().unwrap().to_string();
    let finished = server.wait_state(&short_id, "the short game's end", |s| !s["outcome"].is_null()).await;
    let created = server.create(new_game(&["human", "beginner", "beginner"], Some((3_600_000, 2_000)))).await;
    let id = created["id"].as_str().unwrap().to_string();
    let token = token(&created, 0);
    let mut human = server.connect(&id, Some(&token)).await;
    let mut state = human.until_state("the state", |_| true).await;
    for _ in 0..3 {
        let played = moves(&state).len();
        play_careful_move(&mut human, &state).await;
        state = until_turn_after(&mut human, "First", played).await;
        assert_still_playing(&state);
    }
    // One more move: as soon as it is acknowledged, the server dies (the bots may or may not
    // have answered by then).
    let played = moves(&state).len();
    let chosen = play_careful_move(&mut human, &state).await;
    let acknowledged = human.until_state("the acknowledgement", |s| moves(s).len() > played).await;
    assert_eq!(moves(&acknowledged)[played], chosen);
    let clock_before = seat_entry(&acknowledged, "First")["clock_ms"].as_i64().unwrap();
    server.kill();
    drop(human);

    let server = TestServer::start(url).await;
    assert_eq!(steady(&server.state(&short_id).await), steady(&finished), "a finished game reads back as it ended");
    let resumed = server.state(&id).await;
    let before = moves(&acknowledged);
    assert_eq!(moves(&resumed)[..before.len()], before[..], "an acknowledged move was lost");
    // The bots move by themselves after the restart, until it is First's turn again.
    let state = server
        .wait_state(&id, "the bots after the restart", |s| {
            (moves(s).len() >= before.len() && s["to_move"] == "First")
                || seat_entry(s, "First")["active"] == false
                || !s["outcome"].is_null()
        })
        .await;
    assert_still_playing(&state);
    assert_eq!(moves(&state)[..before.len()], before[..]);
    // First's clock was stored with his move, and has not run since (it runs again only on
    // his turn, from the restart on).
    let clock_after = seat_entry(&state, "First")["clock_ms"].as_i64().unwrap();
    assert!(clock_after <= clock_before, "{clock_after} > {clock_before}");

    let mut human = server.connect(&id, Some(&token)).await;
    let state = human.until_state("the state", |_| true).await;
    assert_eq!(state["you"], "First");
    let played = moves(&state).len();
    play_careful_move(&mut human, &state).await;
    let state = until_turn_after(&mut human, "First", played).await;
    assert_still_playing(&state);
    let record = server.get(&format!("/api/games/{id}/record")).await.text().await.unwrap();
    for m in state["moves"].as_array().unwrap() {
        assert!(record.contains(m["short"].as_str().unwrap()), "{record} lacks {m}");
    }
    // A second kill while a bot may be thinking; a game in storage is never half-written.
    let stored = moves(&state);
    server.kill();
    let server = TestServer::start(url).await;
    let state = server
        .wait_state(&id, "First's turn", |s| {
            s["to_move"] == "First" || seat_entry(s, "First")["active"] == false || !s["outcome"].is_null()
        })
        .await;
    assert_still_playing(&state);
    assert_eq!(moves(&state)[..stored.len()], stored[..], "a stored move was lost");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_store() {
    let dir = tempfile::tempdir().unwrap();
    store_suite(&sqlite_url(&dir)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_conflict_in_a_batch_fails_alone() {
    let dir = tempfile::tempdir().unwrap();
    conflict_in_a_batch_suite(&sqlite_url(&dir)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_restart_continues_every_game() {
    let dir = tempfile::tempdir().unwrap();
    restart_suite(&sqlite_url(&dir)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_store() {
    if let Some((url, own)) = postgres_url("store").await {
        store_suite(&url).await;
        drop_database(own).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_conflict_in_a_batch_fails_alone() {
    if let Some((url, own)) = postgres_url("batch").await {
        conflict_in_a_batch_suite(&url).await;
        drop_database(own).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_restart_continues_every_game() {
    if let Some((url, own)) = postgres_url("restart").await {
        restart_suite(&url).await;
        drop_database(own).await;
    }
}

#[test]
fn database_names_are_replaced_in_urls() {
    assert_eq!(with_database("postgres://u@h:5/db", "x"), "postgres://u@h:5/x");
    assert_eq!(with_database("postgres://u@h:5/db?sslmode=disable", "x"), "postgres://u@h:5/x?sslmode=disable");
    assert_eq!(with_database("postgres://u@h:5", "x"), "postgres://u@h:5/x");
}
