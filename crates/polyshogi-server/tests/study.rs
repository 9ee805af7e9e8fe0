//! Study through the API: positions from moves or a record, live analysis over a WebSocket
//! (several lines, a value per seat, stop, replacement, the limits) and game reviews (queued,
//! computed, stored, and read again after a restart), on SQLite and on PostgreSQL.

mod common;

use std::time::Duration;

use common::*;
use polyshogi_server::ServerConfig;
use serde_json::{json, Value};

const RECORD_1932: &str = include_str!("../../../records/sannin-1932-sample.psn");

/// A server on a database file of its own (kept as long as the directory).
async fn server_with(mut config: impl FnMut(&mut ServerConfig)) -> (TestServer, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut settings = self::config(&format!("sqlite:{}", dir.path().join("study.db").display()));
    config(&mut settings);
    (TestServer::start_config(settings).await, dir)
}

fn config(database: &str) -> ServerConfig {
    let mut config = test_config(database);
    // Reviews search a few positions per ply: the test wants the review, not its strength.
    config.limits.review_nodes = 2_000;
    config
}

fn texts(value: &Value) -> Vec<String> {
    value.as_array().expect("a list").iter().map(|v| v.as_str().expect("a text").to_string()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn study_positions_come_from_moves_or_a_record() {
    let (server, _dir) = server_with(|_| {}).await;
    // The 1932 record cut after ten moves: Middle to move.
    let (status, cut) = server.post_json("/api/study/position", &json!({ "record": RECORD_1932, "ply": 10 })).await;
    assert_eq!(status, 200, "{cut}");
    assert_eq!((cut["variant"].as_str(), cut["moves"].as_array().map(Vec::len)), (Some("sannin"), Some(10)));
    assert_eq!(cut["to_move"], "Middle");
    assert!(!texts(&cut["legal_moves"]).is_empty());
    // The same position from its canonical moves, in short text or canonical.
    let canonical: Vec<String> =
        cut["moves"].as_array().unwrap().iter().map(|m| m["move"].as_str().unwrap().to_string()).collect();
    let (status, from_moves) = server.post_json("/api/study/position", &json!({ "variant": "sannin", "moves": canonical })).await;
    assert_eq!(status, 200, "{from_moves}");
    assert_eq!(from_moves["position"], cut["position"]);
    assert_eq!(from_moves["legal_moves"], cut["legal_moves"]);
    // From a position string: the start is that position, and its moves follow.
    let (status, from_position) = server
        .post_json(
            "/api/study/position",
            &json!({ "variant": "sannin", "start": cut["position"], "moves": [cut["legal_moves"][0]] }),
        )
        .await;
    assert_eq!(status, 200, "{from_position}");
    assert_eq!(
        (from_position["start"].clone(), from_position["moves"][0]["seat"].clone()),
        (cut["position"].clone(), json!("Middle"))
    );
    // Rule options are the study's own.
    let (status, allied) =
        server.post_json("/api/study/position", &json!({ "variant": "sannin", "rules": ["compulsory=off"], "moves": [] })).await;
    assert_eq!((status, texts(&allied["rules"])), (200, vec!["compulsory=off".to_string()]));

    // Bad requests say what is wrong.
    for (body, expected) in [
        (json!({ "variant": "sannin", "moves": ["P3c-4d", "P3c-4d"] }), "move 2: `P3c-4d` is not legal: you have no P on 3c"),
        (json!({ "record": RECORD_1932, "ply": 40 }), "ply 40 is past the record's 18 moves"),
        (json!({ "variant": "sankaku", "start": cut["position"] }), "start: the position is sannin, the variant is sankaku"),
        (json!({ "record": "[Event \"no variant\"]\n" }), "record: no [Variant \"…\"] tag"),
        (json!([1, 2]), "body: expected a JSON object"),
    ] {
        let (status, answer) = server.post_json("/api/study/position", &body).await;
        assert_eq!((status, answer["error"].as_str().unwrap_or_default()), (400, expected), "{body}");
    }
    let (status, answer) = server.post_json("/api/study/position", &json!({ "variant": "chess" })).await;
    assert_eq!(status, 400);
    assert!(answer["error"].as_str().unwrap().starts_with("variant: unknown variant `chess`"), "{answer}");
}

/// The next message of an analysis connection that is not an `analysis` report.
async fn until_not_report(client: &mut Client) -> Value {
    loop {
        let message = client.next().await;
        if message["type"] != "analysis" {
            return message;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analysis_reports_lines_with_every_seat_valued_until_stopped() {
    let (server, _dir) = server_with(|_| {}).await;
    let (_, position) = server.post_json("/api/study/position", &json!({ "record": RECORD_1932, "ply": 10 })).await;
    let legal = texts(&position["legal_moves"]);
    let url = format!("ws://{}/api/analysis/ws", server.addr);
    let mut analyst = Client::open_url(&url).await;
    analyst.send(json!({ "type": "analyse", "variant": "sannin", "start": position["position"], "lines": 3 })).await;
    // Reports deepen; each has three lines with a value for each of the three seats.
    let mut depths = Vec::new();
    while depths.len() < 3 {
        let report = analyst.next().await;
        assert_eq!(report["type"], "analysis", "{report}");
        let lines = report["lines"].as_array().expect("lines");
        assert_eq!(lines.len(), 3, "{report}");
        let mut firsts: Vec<String> = Vec::new();
        for line in lines {
            let scores = line["scores"].as_object().expect("scores");
            assert_eq!(scores.keys().collect::<Vec<_>>(), ["First", "Last", "Middle"], "{report}");
            let moves = texts(&line["moves"]);
            assert_eq!(moves.len(), texts(&line["short"]).len());
            assert!(legal.contains(&moves[0]), "{} is a legal first move: {report}", moves[0]);
            firsts.push(moves[0].clone());
        }
        firsts.dedup();
        assert_eq!(firsts.len(), 3, "three different moves: {report}");
        depths.push(report["depth"].as_u64().expect("a depth"));
    }
    assert!(depths.windows(2).all(|w| w[0] < w[1]), "{depths:?}");

    // One analysis at a time per address: another connection waits for this one to stop.
    let mut second = Client::open_url(&url).await;
    second.send(json!({ "type": "analyse", "variant": "sankaku" })).await;
    assert_eq!(second.next().await["message"], "one analysis at a time: stop the other one first");
    analyst.send(json!({ "type": "stop" })).await;
    assert_eq!(until_not_report(&mut analyst).await, json!({ "type": "analysis_end", "reason": "stopped" }));
    second.send(json!({ "type": "analyse", "variant": "sankaku", "lines": 1 })).await;
    let report = second.next().await;
    assert_eq!((report["type"].as_str(), report["lines"].as_array().map(Vec::len)), (Some("analysis"), Some(1)), "{report}");
    // A new position replaces the running analysis: its reports follow.
    second.send(json!({ "type": "analyse", "variant": "hexshogi91", "moves": ["P6h-6g"], "lines": 2 })).await;
    let mut report = second.next().await;
    while report["lines"][0]["scores"].get("Black").is_none() || report["lines"].as_array().map(Vec::len) != Some(2) {
        assert_eq!(report["type"], "analysis", "{report}");
        report = second.next().await;
    }
    // Bad requests change nothing: the analysis goes on.
    second.send(json!({ "type": "analyse", "variant": "sannin", "lines": 9 })).await;
    assert_eq!(until_not_report(&mut second).await["message"], "lines: 1 to 5, not 9");
    second.send(json!({ "type": "analyse", "variant": "sannin", "moves": ["K5a-5b"] })).await;
    let refused = until_not_report(&mut second).await;
    assert!(refused["message"].as_str().unwrap().starts_with("move 1: `K5a-5b`"), "{refused}");
    let report = second.next().await;
    assert!(report["type"] == "analysis" && report["lines"][0]["scores"].get("Black").is_some(), "{report}");
    second.send(json!({ "type": "stop" })).await;
    assert_eq!(until_not_report(&mut second).await["reason"], "stopped");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_stops_at_its_time_cap_and_a_finished_game_has_nothing_to_analyse() {
    let (server, _dir) = server_with(|config| config.limits.analysis_time = Duration::from_millis(300)).await;
    let mut analyst = Client::open_url(&format!("ws://{}/api/analysis/ws", server.addr)).await;
    analyst.send(json!({ "type": "analyse", "variant": "tphs91" })).await;
    assert_eq!(until_not_report(&mut analyst).await, json!({ "type": "analysis_end", "reason": "time" }));
    // Black resigned: the game is over, and the analysis ends at once.
    analyst.send(json!({ "type": "analyse", "variant": "hexshogi91", "moves": ["resign:Black"] })).await;
    assert_eq!(analyst.next().await, json!({ "type": "analysis_end", "reason": "finished" }));
}

/// A finished Hex Shogi 91 game: a few moves by two human seats, then Black resigns.
async fn finished_game(server: &TestServer) -> (String, Vec<String>) {
    let created = server.create(json!({ "variant": "hexshogi91", "seats": [{ "kind": "human" }, { "kind": "human" }] })).await;
    let id = created["id"].as_str().expect("an id").to_string();
    let mut black = server.connect(&id, Some(&token(&created, 0))).await;
    let mut white = server.connect(&id, Some(&token(&created, 1))).await;
    for played in 0..6 {
        let (mover, seat) = if played % 2 == 0 { (&mut black, "Black") } else { (&mut white, "White") };
        let state = mover.until_state(&format!("{seat}'s turn"), |s| moves(s).len() == played && s["to_move"] == seat).await;
        play_some_move(mover, &state, played).await;
    }
    black.until_state("six moves", |s| moves(s).len() == 6).await;
    black.send(json!({ "type": "resign" })).await;
    let over = black.until_state("the end", |s| !s["outcome"].is_null()).await;
    (id, moves(&over))
}

async fn review_suite(database: &str) {
    let server = TestServer::start_config(config(database)).await;
    let created = server.create(json!({ "variant": "sankaku", "seats": [{ "kind": "human" }, { "kind": "human" }] })).await;
    let unfinished = created["id"].as_str().unwrap();
    let (status, answer) = server.post_json(&format!("/api/games/{unfinished}/review"), &json!({})).await;
    assert_eq!((status, answer["error"].as_str().unwrap()), (409, "the game is not over: a review waits for its end"));
    let (status, _) = server.post_json("/api/games/nosuchgame/review", &json!({})).await;
    assert_eq!(status, 404);

    let (id, played) = finished_game(&server).await;
    let path = format!("/api/games/{id}/review");
    assert_eq!(server.get(&path).await.status(), 404, "nobody asked yet");
    let (status, asked) = server.post_json(&path, &json!({})).await;
    assert_eq!(status, 202, "{asked}");
    assert_eq!(asked["total"], played.len() + 1);
    wait_until("the review", || async {
        let answer = server.get_json(&path).await;
        assert!(answer["done"].as_u64() <= answer["total"].as_u64(), "{answer}");
        answer["status"] == "done"
    })
    .await;
    let review = server.get_json(&path).await;
    let plies = review["plies"].as_array().expect("plies");
    assert_eq!(plies.len(), played.len() + 1, "{review}");
    for (index, ply) in plies.iter().enumerate() {
        assert_eq!(ply["ply"], index);
        let scores = ply["scores"].as_object().expect("scores");
        assert_eq!(scores.keys().collect::<Vec<_>>(), ["Black", "White"], "{ply}");
        // The engine's move is legal where it was proposed.
        let (_, position) =
            server.post_json("/api/study/position", &json!({ "variant": "hexshogi91", "moves": &played[..index] })).await;
        match ply["best"].as_str() {
            Some(best) => assert!(texts(&position["legal_moves"]).iter().any(|m| m == best), "{best} at ply {index}"),
            // Only the last position, after Black's resignation, has no move to propose.
            None => assert_eq!(index, played.len(), "{ply}"),
        }
        if index == 0 {
            assert!(ply["loss"].is_null() && ply["mark"].is_null(), "{ply}");
            continue;
        }
        // The loss is the mover's value before the move less his value after it, and nothing
        // when he played the engine's own move.
        let mover = if index % 2 == 1 { "Black" } else { "White" };
        let value = |p: &Value| p["scores"][mover].as_i64().unwrap().clamp(-2000, 2000);
        let loss = ply["loss"].as_i64().expect("a loss");
        let expected = match plies[index - 1]["best"].as_str() == Some(played[index - 1].as_str()) {
            true => 0,
            false => (value(&plies[index - 1]) - value(ply)).max(0),
        };
        assert_eq!(loss, expected, "{ply}");
        let mark = match loss {
            700.. => json!("blunder"),
            300.. => json!("mistake"),
            100.. => json!("inaccuracy"),
            _ => Value::Null,
        };
        assert_eq!(ply["mark"], mark, "{ply}");
    }
    // The game is over after the last ply: Black resigned, White won.
    let last = plies.last().unwrap();
    assert!(last["best"].is_null() && last["scores"]["White"].as_i64() > last["scores"]["Black"].as_i64(), "{last}");
    // Asking again gives the stored review.
    let (status, again) = server.post_json(&path, &json!({})).await;
    assert_eq!((status, &again), (200, &review));

    // After a restart the review is read from storage, not searched again.
    server.kill();
    let server = TestServer::start_config(config(database)).await;
    assert_eq!(server.get_json(&path).await, review);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_evaluates_every_ply_once_and_is_kept_on_sqlite() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    review_suite(&format!("sqlite:{}", dir.path().join("study.db").display())).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_evaluates_every_ply_once_and_is_kept_on_postgres() {
    if let Some((url, own)) = postgres_url("review_suite").await {
        review_suite(&url).await;
        drop_database(own).await;
    }
}
