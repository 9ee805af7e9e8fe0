//! Games leave memory when idle and come back from storage when asked for or when a clock is to
//! fall; a restart charges the running clock for the thinking before it, not for the downtime.

mod common;

use std::time::Duration;

use common::*;
use polyshogi_server::store::{SqlStore, Store};
use polyshogi_server::RoomSettings;
use serde_json::{json, Value};

fn sqlite_url(dir: &tempfile::TempDir) -> String {
    format!("sqlite:{}", dir.path().join("games.db").display())
}

/// A server that unloads a game after a tenth of a second without anything happening in it.
async fn forgetful_server(url: &str) -> TestServer {
    TestServer::start_with(url, RoomSettings { idle_time: Duration::from_millis(100), ..RoomSettings::default() }).await
}

fn clock_of(state: &Value, seat: &str) -> i64 {
    seat_entry(state, seat)["clock_ms"].as_i64().expect("a clock")
}

/// A two-human Hex Shogi 91 game with `initial_ms` on each clock where each side has made his
/// first move, so that Black's clock runs; answers its id and the state then.
async fn game_with_blacks_clock_running(server: &TestServer, initial_ms: i64) -> (String, Value) {
    let created = server
        .create(json!({ "variant": "hexshogi91", "clock": { "initial_ms": initial_ms, "increment_ms": 0 }, "seats": [{ "kind": "human" }, { "kind": "human" }] }))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let mut black = server.connect(&id, Some(&token(&created, 0))).await;
    let mut white = server.connect(&id, Some(&token(&created, 1))).await;
    let state = black.until_state("the state", |_| true).await;
    play_some_move(&mut black, &state, 0).await;
    let state = white.until_state("Black's first move", |s| moves(s).len() == 1).await;
    play_some_move(&mut white, &state, 0).await;
    let state = black.until_state("White's first move", |s| moves(s).len() == 2).await;
    assert_eq!(state["to_move"], "Black");
    (id, state)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_charges_the_thinking_time_before_it() {
    let dir = tempfile::tempdir().unwrap();
    let url = sqlite_url(&dir);
    let server = TestServer::start(&url).await;
    let (id, state) = game_with_blacks_clock_running(&server, 600_000).await;
    let stored = clock_of(&state, "Black");
    // Black thinks for two and a half seconds, then the server dies.
    server.wait_state(&id, "Black's thinking", |s| clock_of(s, "Black") <= stored - 2_500).await;
    server.kill();

    let server = TestServer::start(&url).await;
    let after = clock_of(&server.state(&id).await, "Black");
    // Charged the thinking before the crash, less at most the last second before it (the
    // server notes it is alive once a second: the rest counts as downtime).
    assert!(after <= stored - 1_500, "Black's clock went back to {after} ms of the {stored} stored with his last move");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_games_leave_memory_and_clocks_fall_with_nobody_watching() {
    let dir = tempfile::tempdir().unwrap();
    let url = sqlite_url(&dir);
    let server = forgetful_server(&url).await;
    let (id, _) = game_with_blacks_clock_running(&server, 3_000).await;
    server.kill();

    // After a restart nobody asks for the game: it is woken from storage when Black's clock is
    // about to fall, and flags him.
    let server = forgetful_server(&url).await;
    let store = SqlStore::connect(&url).await.unwrap();
    wait_until("Black's flag", || async { store.load_game(&id).await.unwrap().is_some_and(|g| g.finished) }).await;
    let stored = store.load_game(&id).await.unwrap().unwrap();
    assert_eq!(stored.actions.last().map(|a| a.kind.name()), Some("flag"));

    // Finished and unwatched, the game leaves memory; asked for, it comes back as it ended.
    server.wait_until("the game to leave memory", || server.games_in_memory() == 0).await;
    let state = server.state(&id).await;
    assert!(state["outcome"]["text"].as_str().unwrap().contains("White wins"), "{state}");
    assert_eq!(server.games_in_memory(), 1);

    // An unknown game leaves nothing in memory.
    server.wait_until("the game to leave memory again", || server.games_in_memory() == 0).await;
    assert_eq!(server.get("/api/games/zzzzzzzzzz").await.status().as_u16(), 404);
    assert_eq!(server.games_in_memory(), 0);
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_left_idle_mid_play_loads_again_where_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let server = forgetful_server(&sqlite_url(&dir)).await;
    let created = server.create(new_game(&["human", "human", "human"], None)).await;
    let id = created["id"].as_str().unwrap().to_string();
    let mut first = server.connect(&id, Some(&token(&created, 0))).await;
    let state = first.until_state("the state", |_| true).await;
    play_some_move(&mut first, &state, 0).await;
    let before = first.until_state("First's move", |s| moves(s).len() == 1).await;
    first.close().await;
    server.wait_until("the game to leave memory", || server.games_in_memory() == 0).await;

    let mut middle = server.connect(&id, Some(&token(&created, 1))).await;
    let state = middle.until_state("the state", |_| true).await;
    assert_eq!(steady(&state), steady(&before));
    play_some_move(&mut middle, &state, 0).await;
    middle.until_state("Middle's move", |s| moves(s).len() == 2).await;
}
