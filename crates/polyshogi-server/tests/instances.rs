//! Several server processes on one PostgreSQL (docs/DEPLOY.md, "Several instances"): what is
//! played through one reaches the connections of the other; each move is decided by exactly one
//! of them, however close two come; and when one is killed mid-game, the other carries on with
//! everything that was acknowledged, its bots included.
//!
//! Needs `POLYSHOGI_TEST_POSTGRES_URL` (scripts/postgres.sh); without it the tests say so and
//! pass, unless `POLYSHOGI_REQUIRE_POSTGRES=1`. On SQLite the processes would not hear of each
//! other: several instances need PostgreSQL.

mod common;

use common::*;
use polyshogi_server::instances::owner;
use serde_json::{json, Value};

fn two_player(seats: Value) -> Value {
    json!({ "variant": "hexshogi91", "seats": seats })
}

fn is_connected(state: &Value, seat: &str) -> bool {
    seat_entry(state, seat)["connected"] == true
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_through_one_server_reaches_the_connections_of_the_other() {
    let Some((url, own)) = postgres_url("instances_moves").await else { return };
    let a = TestServer::start(&url).await;
    let b = TestServer::start(&url).await;
    let created = a.create(two_player(json!([{ "kind": "human" }, { "kind": "human" }]))).await;
    let id = created["id"].as_str().unwrap().to_string();
    let state = a.state(&id).await;
    let (first, second) = (state["seats"][0]["seat"].as_str().unwrap(), state["seats"][1]["seat"].as_str().unwrap());

    // The first player plays through A; the second and a spectator watch through B.
    let mut spectator = Client::connect(b.addr, &id, None).await;
    let mut player_a = Client::connect(a.addr, &id, Some(&token(&created, 0))).await;
    let mut player_b = Client::connect(b.addr, &id, Some(&token(&created, 1))).await;
    spectator.until_game("both players shown connected through B", |s| is_connected(s, first) && is_connected(s, second)).await;
    player_a.until_game("both players shown connected through A", |s| is_connected(s, first) && is_connected(s, second)).await;

    let mut played = Vec::new();
    for turn in 0..6 {
        let (mover, watcher) = if turn % 2 == 0 { (&mut player_a, &mut player_b) } else { (&mut player_b, &mut player_a) };
        let state = mover.until_game("its turn", |s| moves(s).len() == played.len()).await;
        played.push(play_some_move(mover, &state, turn).await);
        for client in [watcher, &mut spectator] {
            let seen = client.until_game("the move made through the other server", |s| moves(s).len() == played.len()).await;
            assert_eq!(moves(&seen), played);
        }
    }

    // A player leaving A is shown gone through B.
    player_a.close().await;
    spectator.until_game("the first player shown gone", |s| !is_connected(s, first) && is_connected(s, second)).await;
    assert_eq!(steady(&a.state(&id).await), steady(&b.state(&id).await));
    a.kill();
    b.kill();
    drop_database(own).await;
}

/// Reads until the game has `played` moves; answers it, and the errors that came meanwhile (a
/// refusal may come before or after the update of the move that beat it).
async fn until_moves_noting_errors(client: &mut Client, played: usize) -> (Value, Vec<String>) {
    let mut errors = Vec::new();
    while moves(client.game()).len() < played {
        let message = client.next().await;
        if message["type"] == "error" {
            errors.push(message["message"].as_str().unwrap().to_string());
        }
    }
    (client.game().clone(), errors)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_moves_sent_at_once_through_two_servers_are_decided_once() {
    let Some((url, own)) = postgres_url("instances_race").await else { return };
    let a = TestServer::start(&url).await;
    let b = TestServer::start(&url).await;
    let created = a.create(two_player(json!([{ "kind": "human" }, { "kind": "human" }]))).await;
    let id = created["id"].as_str().unwrap().to_string();
    // The first seat is held through both servers; the second through A.
    let mut first_a = Client::connect(a.addr, &id, Some(&token(&created, 0))).await;
    let mut first_b = Client::connect(b.addr, &id, Some(&token(&created, 0))).await;
    let mut second = Client::connect(a.addr, &id, Some(&token(&created, 1))).await;

    let mut played = 0;
    for round in 0..10 {
        let state_a = first_a.until_game("the first seat's turn through A", |s| moves(s).len() == played).await;
        first_b.until_game("the first seat's turn through B", |s| moves(s).len() == played).await;
        let legal: Vec<String> =
            state_a["legal_moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect();
        let (move_a, move_b) = (legal[round % legal.len()].clone(), legal[(round + 1) % legal.len()].clone());
        assert_ne!(move_a, move_b);
        first_a.send(json!({ "type": "move", "move": move_a })).await;
        first_b.send(json!({ "type": "move", "move": move_b })).await;
        played += 1;
        let (seen_a, mut refused_a) = until_moves_noting_errors(&mut first_a, played).await;
        let (seen_b, mut refused_b) = until_moves_noting_errors(&mut first_b, played).await;
        let chosen = moves(&seen_a)[played - 1].clone();
        assert_eq!(moves(&seen_a), moves(&seen_b), "round {round}: the servers disagree");
        assert!(chosen == move_a || chosen == move_b, "round {round}: {chosen} was never sent");
        // The other move was refused, with the reason, on the connection that sent it.
        let (winner_refusals, loser, loser_refusals) = if chosen == move_a {
            (&refused_a, &mut first_b, &mut refused_b)
        } else {
            (&refused_b, &mut first_a, &mut refused_a)
        };
        assert!(winner_refusals.is_empty(), "round {round}: the move played was refused: {winner_refusals:?}");
        if loser_refusals.is_empty() {
            loser_refusals.push(loser.error_after_states().await);
        }
        assert_eq!(loser_refusals.len(), 1, "round {round}: {loser_refusals:?}");

        let state = second.until_game("the second seat's turn", |s| moves(s).len() == played).await;
        play_some_move(&mut second, &state, round).await;
        played += 1;
    }
    first_b.until_game("the last move through B", |s| moves(s).len() == played).await;
    let through_a = a.state(&id).await;
    assert_eq!(moves(&through_a).len(), played);
    assert_eq!(steady(&through_a), steady(&b.state(&id).await));
    a.kill();
    b.kill();
    // What is stored is what both showed: a third server reads the same game.
    let c = TestServer::start(&url).await;
    assert_eq!(steady(&c.state(&id).await), steady(&through_a));
    c.kill();
    drop_database(own).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killing_the_server_that_runs_a_bot_leaves_the_game_to_the_other() {
    let Some((url, own)) = postgres_url("instances_kill").await else { return };
    let a = TestServer::start(&url).await;
    let b = TestServer::start(&url).await;
    let live = {
        let mut live = vec![a.instance(), b.instance()];
        live.sort();
        live
    };
    // A game whose bot A runs, so that B must take it over.
    let created = loop {
        let created = a.create(two_player(json!([{ "kind": "human" }, { "kind": "bot", "level": "beginner" }]))).await;
        if owner(&live, created["id"].as_str().unwrap()) == Some(a.instance().as_str()) {
            break created;
        }
    };
    let id = created["id"].as_str().unwrap().to_string();
    let human = created["seats"][0]["seat"].as_str().unwrap().to_string();
    let mut player = Client::connect(a.addr, &id, Some(&token(&created, 0))).await;
    let mut spectator = Client::connect(b.addr, &id, None).await;

    // Two moves each (the human moves first), the bot's thought out on A.
    let mut state = player.until_game("the first turn", |s| s["to_move"] == human.as_str()).await;
    for pick in 0..2 {
        play_some_move(&mut player, &state, pick).await;
        state = until_turn_after(&mut player, &human, 2 * pick + 1).await;
    }
    assert_eq!(moves(&state).len(), 4);
    spectator.until_game("the moves made through A", |s| moves(s) == moves(&state)).await;

    // The human's third move is acknowledged, and A is killed at once: the bot's answer is
    // A's if it was stored in time, B's otherwise.
    play_some_move(&mut player, &state, 2).await;
    let acknowledged = player.until_game("the third move", |s| moves(s).len() == 5).await;
    a.kill();

    let after_kill = spectator.until_game("the bot's answer, through B", |s| moves(s).len() == 6).await;
    assert_eq!(moves(&after_kill)[..5], moves(&acknowledged)[..], "an acknowledged move was lost");
    let mut player = Client::connect(b.addr, &id, Some(&token(&created, 0))).await;
    let state = until_turn_after(&mut player, &human, 5).await;
    assert_eq!(moves(&state), moves(&after_kill));
    play_some_move(&mut player, &state, 3).await;
    let state = until_turn_after(&mut player, &human, 7).await;
    assert_eq!(moves(&state).len(), 8, "the bot moves on, run by B");
    b.kill();
    drop_database(own).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_that_runs_out_is_flagged_once_whichever_servers_watch_it() {
    let Some((url, own)) = postgres_url("instances_flag").await else { return };
    let a = TestServer::start(&url).await;
    let b = TestServer::start(&url).await;
    let body = json!({ "variant": "hexshogi91", "clock": { "initial_ms": 1_500, "increment_ms": 0 }, "seats": [{ "kind": "human" }, { "kind": "human" }] });
    let created = a.create(body).await;
    let id = created["id"].as_str().unwrap().to_string();
    // Each seat is held through both servers: both have the game in memory, its clock running.
    let mut first = Client::connect(a.addr, &id, Some(&token(&created, 0))).await;
    let mut second = Client::connect(b.addr, &id, Some(&token(&created, 1))).await;
    let mut first_b = Client::connect(b.addr, &id, Some(&token(&created, 0))).await;
    let mut second_a = Client::connect(a.addr, &id, Some(&token(&created, 1))).await;
    let state = first.until_game("the first turn", |s| s.is_object()).await;
    play_some_move(&mut first, &state, 0).await;
    let state = second.until_game("the second turn", |s| moves(s).len() == 1).await;
    play_some_move(&mut second, &state, 0).await;
    // Nobody moves again: the first seat's clock runs out.
    for client in [&mut first, &mut second, &mut first_b, &mut second_a] {
        let over = client.until_game("the flag", |s| !s["outcome"].is_null()).await;
        assert_eq!(moves(&over).len(), 2);
        // Two moves and one flag, whichever server runs the game's timers.
        assert_eq!(over["version"], 3, "{}", over["outcome"]);
        let events = over["moves"][1]["events"].to_string();
        assert!(events.contains("time ran out"), "{events}");
    }
    assert_eq!(steady(&a.state(&id).await), steady(&b.state(&id).await));
    a.kill();
    b.kill();
    drop_database(own).await;
}
