//! The web API of docs/API.md against a real server on 127.0.0.1 with a SQLite file: the lobby
//! endpoints, games with bots, spectators, tokens, every bad message, resignation, draws,
//! clocks and the rate limit.

mod common;

use std::time::Duration;

use common::*;
use polyshogi_server::{Limits, Rate, RoomSettings};
use serde_json::{json, Value};

async fn server() -> (TestServer, tempfile::TempDir) {
    server_with_limits(|_| {}).await
}

/// A server on a SQLite file of its own, its limits as `adjust` leaves them.
async fn server_with_limits(adjust: impl FnOnce(&mut Limits)) -> (TestServer, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut config = test_config(&format!("sqlite:{}", dir.path().join("api.db").display()));
    adjust(&mut config.limits);
    (TestServer::start_config(config).await, dir)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lobby_endpoints_and_pages() {
    let (server, _dir) = server().await;
    let health = server.get("/health").await;
    assert_eq!(health.status(), 200);
    assert_eq!(health.text().await.unwrap(), "ok");

    let variants = server.get_json("/api/variants").await;
    let sannin = variants.as_array().unwrap().iter().find(|v| v["name"] == "sannin").expect("sannin is listed");
    assert_eq!(sannin["seats"], json!(["First", "Middle", "Last"]));
    assert_eq!(sannin["title"], "Sannin shogi");
    assert_eq!(sannin["note"], Value::Null);
    let tphs91 = variants.as_array().unwrap().iter().find(|v| v["name"] == "tphs91").expect("tphs91 is listed");
    assert_eq!(tphs91["seats"], json!(["Black", "White", "Gray"]));
    assert!(tphs91["note"].as_str().unwrap().contains("RECONSTRUCTION"));
    let options = sannin["options"].as_array().unwrap();
    let compulsory = options.iter().find(|o| o["key"] == "compulsory").expect("the compulsory option");
    assert_eq!(compulsory["default"], "auto");
    assert_eq!(compulsory["values"], json!(["auto", "off", "confirm"]));
    let max_plies = options.iter().find(|o| o["key"] == "max_plies").expect("the ply cap");
    assert_eq!((max_plies["default"].clone(), max_plies["values"].clone()), (json!("3000"), Value::Null));

    // Playing levels with a label and a strength hint, one of them the default; no engine.
    let levels = server.get_json("/api/levels").await;
    let names: Vec<&str> = levels.as_array().unwrap().iter().map(|l| l["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["beginner", "easy", "medium", "hard", "expert", "max"]);
    assert!(levels.as_array().unwrap().iter().all(|l| !l["strength"].as_str().unwrap().is_empty()), "{levels}");
    let defaults: Vec<&Value> = levels.as_array().unwrap().iter().filter(|l| l["default"] == true).collect();
    assert_eq!(defaults.len(), 1, "{levels}");
    // Every rule option says what it does and where its default comes from.
    assert_eq!(compulsory["label"], "Compulsory alliances");
    for variant in variants.as_array().unwrap() {
        for option in variant["options"].as_array().unwrap() {
            for field in ["label", "explanation", "source"] {
                assert!(!option[field].as_str().unwrap().is_empty(), "{option}");
            }
        }
    }

    let layout = server.get_json("/api/variants/sannin/layout").await;
    assert_eq!(layout["cells"].as_array().unwrap().len(), 127);
    assert_eq!(layout["cells"][0]["shape"], "hexagon");
    assert_eq!(layout["marked"], json!(["7g"]));
    assert_eq!(layout["seat_rotation"].as_array().unwrap().len(), 3);
    assert_eq!(layout["centre"], "centroid");
    assert_eq!(layout["title"], "Sannin shogi");
    assert_eq!(layout["pieces"]["R"], "rook");
    let sankaku = server.get_json("/api/variants/sankaku/layout").await;
    assert_eq!(sankaku["cells"][0]["shape"].as_str().map(|s| s.starts_with("triangle")), Some(true));
    assert_eq!(sankaku["pieces"]["E"], "emperor");
    assert_eq!(server.get("/api/variants/chess/layout").await.status(), 404);

    // Each piece's moves come from the rules: Sannin's king steps to its six neighbours.
    let pieces = server.get_json("/api/variants/sannin/pieces").await;
    let king = pieces.as_array().unwrap().iter().find(|p| p["letter"] == "K" && p["promoted"] == false).expect("the king");
    assert_eq!((king["from"].clone(), king["reach"].as_array().unwrap().len()), (json!("7g"), 6));
    assert!(pieces.as_array().unwrap().iter().any(|p| p["name"] == "promoted rook"), "{pieces}");
    assert_eq!(server.get("/api/variants/chess/pieces").await.status(), 404);
    let rules = server.get("/api/variants/sankaku/rules").await;
    assert!(rules.headers()["content-type"].to_str().unwrap().starts_with("text/markdown"));
    assert!(rules.text().await.unwrap().starts_with("# Sankaku Shogi"));

    for page in ["/", "/play/abc123", "/rules/sannin", "/games", "/analysis", "/study/1932"] {
        let response = server.get(page).await;
        assert_eq!(response.status(), 200, "{page}");
        assert!(response.headers()["content-type"].to_str().unwrap().starts_with("text/html"));
    }
    assert_eq!(server.get("/static/no-such-file.js").await.status(), 404);
    assert_eq!(server.get("/api/games/nosuchgame").await.status(), 404);
    assert_eq!(server.get("/api/games/..%2Fetc/record").await.status(), 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_create_bodies_get_400_naming_the_field() {
    let (server, _dir) = server().await;
    let humans = json!([{ "kind": "human" }, { "kind": "human" }, { "kind": "human" }]);
    let cases = [
        (json!({ "variant": "chess", "seats": humans }), "variant"),
        (json!({ "seats": humans }), "variant"),
        (json!({ "variant": "sannin", "rules": ["colour=blue"], "seats": humans }), "rules"),
        (json!({ "variant": "sannin", "rules": ["compulsory=sometimes"], "seats": humans }), "rules"),
        (json!({ "variant": "sannin", "seats": [{ "kind": "human" }] }), "seats"),
        (
            json!({ "variant": "sannin", "seats": [{ "kind": "human" }, { "kind": "bot", "level": "grandmaster" }, { "kind": "human" }] }),
            "seats[1].level",
        ),
        (
            json!({ "variant": "sannin", "seats": [{ "kind": "human" }, { "kind": "robot" }, { "kind": "human" }] }),
            "seats[1].kind",
        ),
        (json!({ "variant": "sannin", "clock": { "initial_ms": -5 }, "seats": humans }), "clock.initial_ms"),
        (json!({ "variant": "sannin", "clock": "fast", "seats": humans }), "clock"),
    ];
    for (body, field) in cases {
        let (status, reply) = server.post_json("/api/games", &body).await;
        assert_eq!(status, 400, "{body} -> {reply}");
        let error = reply["error"].as_str().expect("an error text");
        assert!(error.starts_with(&format!("{field}:")), "{body}: the error `{error}` does not name {field}");
    }
    let response = reqwest::Client::new()
        .post(server.url("/api/games"))
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
    let reply: Value = response.json().await.unwrap();
    assert!(reply["error"].as_str().unwrap().starts_with("body:"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_are_asked_for_by_playing_level_only() {
    let (server, _dir) = server().await;
    // The level of the docs/API.md example is accepted, in a two- and a three-player game.
    for (variant, seats) in [
        ("hexshogi91", json!([{ "kind": "human" }, { "kind": "bot", "level": "beginner" }])),
        ("sannin", json!([{ "kind": "human" }, { "kind": "bot", "level": "beginner" }, { "kind": "bot", "level": "max" }])),
    ] {
        let (status, reply) = server.post_json("/api/games", &json!({ "variant": variant, "seats": seats })).await;
        assert_eq!(status, 201, "{variant}: {reply}");
        assert_eq!(reply["seats"][1]["level"], "beginner");
    }
    // An engine name (a three-player search in a two-player game) or an unknown level is
    // refused, the error naming the seat and the levels there are.
    for level in ["paranoid", "random", "grandmaster", "Beginner"] {
        let body = json!({ "variant": "hexshogi91", "seats": [{ "kind": "human" }, { "kind": "bot", "level": level }] });
        let (status, reply) = server.post_json("/api/games", &body).await;
        assert_eq!(status, 400, "{level}: {reply}");
        let error = reply["error"].as_str().unwrap();
        assert!(error.starts_with(&format!("seats[1].level: unknown level `{level}`")), "{error}");
        assert!(error.contains("beginner, easy, medium, hard, expert, max"), "{error}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_human_plays_two_bots_while_a_spectator_watches() {
    let (server, _dir) = server().await;
    let created = server.create(new_game(&["human", "beginner", "easy"], Some((600_000, 5_000)))).await;
    let id = created["id"].as_str().unwrap().to_string();
    assert_eq!(created["seats"][1], json!({ "seat": "Middle", "kind": "bot", "level": "beginner" }));
    assert_eq!(created["spectator_link"], format!("/play/{id}"));
    let token = token(&created, 0);
    assert_eq!(created["seats"][0]["link"], format!("/play/{id}#seat=First&token={token}"));

    let mut spectator = server.connect(&id, None).await;
    let first_view = spectator.until_state("the first state", |_| true).await;
    assert_eq!(first_view["you"], Value::Null);
    assert_eq!(first_view["position"].as_str().unwrap().split_whitespace().next(), Some("sannin"));

    let mut human = server.connect(&id, Some(&token)).await;
    let mut state = human.until_state("the first state", |_| true).await;
    assert_eq!(state["you"], "First");
    assert_eq!(seat_entry(&state, "First")["connected"], true);
    assert!(seat_entry(&state, "First")["clock_ms"].is_i64());
    // The greedy bot may mate the test player early (his moves are not good ones); he is then
    // out, and the test checks what was played until then.
    let mut rounds = 0;
    for round in 0..3 {
        assert_eq!(state["to_move"], "First");
        let played = moves(&state).len();
        let chosen = play_some_move(&mut human, &state, 7 * round + 3).await;
        state = until_turn_after(&mut human, "First", played).await;
        assert_eq!(moves(&state)[played], chosen);
        let seats: Vec<&str> = state["moves"].as_array().unwrap()[played..].iter().map(|m| m["seat"].as_str().unwrap()).collect();
        assert_eq!(seats[0], "First");
        assert!(!seats[1..].contains(&"First"), "First moved twice before the bots answered: {seats:?}");
        rounds += 1;
        if seat_entry(&state, "First")["active"] == false {
            break;
        }
    }
    assert!(rounds >= 2 || seat_entry(&state, "First")["active"] == true, "First was out in the first round: {state}");
    let count = moves(&state).len();
    let seen = spectator.until_state("all the moves", |s| moves(s).len() == count).await;
    assert_eq!(moves(&seen), moves(&state));
    assert_eq!(seen["you"], Value::Null);
    assert_eq!(seat_entry(&seen, "Middle")["connected"], true, "bots are always there");

    let record = server.get(&format!("/api/games/{id}/record")).await;
    assert!(record.headers()["content-type"].to_str().unwrap().starts_with("text/plain"));
    let record = record.text().await.unwrap();
    assert!(record.starts_with("[Variant \"sannin\"]\n"), "{record}");
    assert!(record.contains("[Middle \"Bot (Beginner)\"]") && record.contains("[Rules \"compulsory=off\"]"), "{record}");
    for m in state["moves"].as_array().unwrap() {
        assert!(record.contains(m["short"].as_str().unwrap()), "{record} lacks {m}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_play_a_whole_game_by_themselves() {
    let (server, _dir) = server().await;
    let mut body = new_game(&["easy", "beginner", "easy"], Some((3_600_000, 0)));
    body["rules"] = json!(["compulsory=auto", "max_plies=120"]);
    let created = server.create(body).await;
    let id = created["id"].as_str().unwrap();
    assert!(created["seats"].as_array().unwrap().iter().all(|s| s.get("token").is_none()));
    let state = server.wait_state(id, "the end of the game", |s| !s["outcome"].is_null()).await;
    assert!(moves(&state).len() <= 120);
    assert_eq!(state["to_move"], Value::Null);
    assert_eq!(state["outcome"]["placings"].as_object().unwrap().len(), 3);
    let record = server.get(&format!("/api/games/{id}/record")).await.text().await.unwrap();
    assert!(!record.contains("[Result \"*\"]") && record.contains("[Rules \"max_plies=120\"]"), "{record}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_token_gets_an_error_and_a_spectators_view() {
    let (server, _dir) = server().await;
    let created = server.create(new_game(&["human", "human", "human"], None)).await;
    let id = created["id"].as_str().unwrap();
    let mut intruder = server.connect(id, Some("not-a-real-token")).await;
    assert_eq!(intruder.next_error().await, "bad token");
    let state = intruder.until_state("the state", |_| true).await;
    assert_eq!(state["you"], Value::Null);
    intruder.send(json!({ "type": "move", "move": "P3c-4d" })).await;
    assert!(intruder.next_error().await.contains("spectators cannot act"));
    assert!(moves(&server.state(id).await).is_empty());
    // A token of another game opens nothing here either.
    let other = server.create(new_game(&["human", "human", "human"], None)).await;
    let mut stranger = server.connect(id, Some(&token(&other, 0))).await;
    assert_eq!(stranger.next_error().await, "bad token");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_seat_token_comes_in_the_hello_never_in_the_url() {
    let (server, _dir) = server().await;
    let created = server.create(new_game(&["human", "human", "human"], None)).await;
    let id = created["id"].as_str().unwrap();
    for seat in created["seats"].as_array().unwrap() {
        let link = seat["link"].as_str().unwrap();
        assert!(!link.contains('?'), "a seat link with a query: {link}");
        assert!(link.contains("#seat="), "{link}");
    }
    // Before the hello nothing is sent and nothing is done.
    let mut early = Client::open(server.addr, id).await;
    early.send(json!({ "type": "move", "move": "P3c-4d" })).await;
    assert!(early.next_error().await.starts_with("say hello first"));
    early.send(json!({ "type": "hello" })).await;
    let state = early.until_state("the spectator's state", |_| true).await;
    assert_eq!(state["you"], Value::Null);
    assert!(moves(&state).is_empty());
    // The token's seat, and only one hello per connection.
    let mut first = server.connect(id, Some(&token(&created, 0))).await;
    let state = first.until_state("First's state", |_| true).await;
    assert_eq!(state["you"], "First");
    first.send(json!({ "type": "hello", "token": token(&created, 1) })).await;
    assert_eq!(first.next_error().await, "this connection has said hello already");
    first.send(json!({ "type": "move", "move": "P3c-4d" })).await;
    let state = first.until_state("First's move", |s| moves(s).len() == 1).await;
    assert_eq!(state["you"], "First");
    assert_eq!(state["to_move"], "Middle");
    // A token in the URL's query is not read at all: the hello decides.
    let mut query = Client::open_url(&format!("ws://{}/api/games/{id}/ws?token={}", server.addr, token(&created, 1))).await;
    query.send(json!({ "type": "hello", "token": null })).await;
    let state = query.until_state("the state", |_| true).await;
    assert_eq!(state["you"], Value::Null);
    query.send(json!({ "type": "move", "move": "P10m-10l" })).await;
    assert!(query.next_error().await.contains("spectators cannot act"));
}

/// Sends one bad message on `client` and checks that exactly one error comes back and that
/// nothing changed: a sentinel message sent right after must be answered next.
async fn refused(server: &TestServer, id: &str, client: &mut Client, message: Message<'_>, n: usize) -> String {
    let before = steady(&server.state(id).await);
    match message {
        Message::Text(text) => client.send_text(text).await,
        Message::Binary(bytes) => client.send_binary(bytes).await,
    }
    let sentinel = format!("sentinel-{n}");
    client.send(json!({ "type": sentinel })).await;
    let error = client.next_error().await;
    assert!(!error.contains(&sentinel), "the bad message got no error of its own");
    let next = client.next_error().await;
    assert!(next.contains(&sentinel), "a second message came for one bad message: {next}");
    assert_eq!(steady(&server.state(id).await), before, "the bad message changed the game");
    error
}

enum Message<'a> {
    Text(&'a str),
    Binary(&'a [u8]),
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_bad_message_gets_one_error_and_changes_nothing() {
    // Every case is two messages from one seat, more than a seat may send at once: this test is
    // about the errors, so the seat's budget is raised instead of the cases being spaced out.
    let (server, _dir) = server_with_limits(|limits| limits.seat_messages = Rate::per_second(1_000)).await;
    let created = server.create(new_game(&["human", "human", "human"], None)).await;
    let id = created["id"].as_str().unwrap().to_string();
    let mut first = server.connect(&id, Some(&token(&created, 0))).await;
    let mut middle = server.connect(&id, Some(&token(&created, 1))).await;
    let mut last = server.connect(&id, Some(&token(&created, 2))).await;
    let all_here = |s: &Value| s["seats"].as_array().unwrap().iter().all(|seat| seat["connected"] == true);
    for client in [&mut first, &mut middle, &mut last] {
        client.until_state("everyone connected", all_here).await;
    }
    let mut spectator = server.connect(&id, None).await;
    spectator.until_state("the state", all_here).await;

    let cases: Vec<(&str, Message, &str)> = vec![
        ("first", Message::Text("this is not JSON"), "not JSON"),
        ("first", Message::Text("[1, 2]"), "JSON object"),
        ("first", Message::Text(r#"{"move":"P3c-4d"}"#), "type"),
        ("first", Message::Text(r#"{"type":"dance"}"#), "unknown message type"),
        ("first", Message::Text(r#"{"type":"move"}"#), "move"),
        ("first", Message::Text(r#"{"type":"move","move":""}"#), "empty"),
        ("first", Message::Text(r#"{"type":"move","move":"P3c-"}"#), "P3c-"),
        ("first", Message::Text(r#"{"type":"move","move":"Q3c-4d"}"#), "Q3c-4d"),
        ("first", Message::Text(r#"{"type":"move","move":"P3c-5e"}"#), "not legal"),
        ("first", Message::Text(r#"{"type":"move","move":"P10k-10j"}"#), "not legal"),
        ("first", Message::Text(r#"{"type":"move","move":"P3c-4d","seat":"Middle"}"#), "not Middle"),
        ("first", Message::Text(r#"{"type":"alliance","accept":true}"#), "no proposed alliance"),
        ("first", Message::Text(r#"{"type":"alliance","accept":"maybe"}"#), "accept"),
        ("first", Message::Binary(b"\x00\x01"), "binary"),
        ("middle", Message::Text(r#"{"type":"move","move":"P10k-10j"}"#), "not your turn"),
        ("middle", Message::Text(r#"{"type":"resign","seat":"First"}"#), "not First"),
        ("last", Message::Text(r#"{"type":"offer_draw","seat":"Middle"}"#), "not Middle"),
        ("spectator", Message::Text(r#"{"type":"move","move":"P3c-4d"}"#), "spectators cannot act"),
        ("spectator", Message::Text(r#"{"type":"resign"}"#), "spectators cannot act"),
        ("spectator", Message::Text(r#"{"type":"offer_draw"}"#), "spectators cannot act"),
        ("spectator", Message::Text(r#"{"type":"alliance","accept":true}"#), "spectators cannot act"),
    ];
    for (n, (who, message, expected)) in cases.into_iter().enumerate() {
        let client = match who {
            "first" => &mut first,
            "middle" => &mut middle,
            "last" => &mut last,
            _ => &mut spectator,
        };
        let error = refused(&server, &id, client, message, n).await;
        assert!(error.contains(expected), "case {n} ({who}): `{error}` does not mention `{expected}`");
    }
    // Nobody else heard of any of it: each connection's next message is the answer to its own
    // sentinel.
    for (n, client) in [&mut first, &mut middle, &mut last, &mut spectator].into_iter().enumerate() {
        client.send(json!({ "type": format!("quiet-{n}") })).await;
        assert!(client.next_error().await.contains(&format!("quiet-{n}")));
    }
    // And the game still works: a good move reaches everyone.
    first.send(json!({ "type": "move", "move": "P3c-4d" })).await;
    for client in [&mut first, &mut middle, &mut last, &mut spectator] {
        let state = client.until_state("the move", |s| moves(s).len() == 1).await;
        assert_eq!(moves(&state), ["P3c-4d"]);
        assert_eq!(state["to_move"], "Middle");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resignation_draw_offers_and_the_end_of_the_game() {
    let (server, _dir) = server().await;
    let created = server.create(new_game(&["human", "human", "human"], Some((3_600_000, 0)))).await;
    let id = created["id"].as_str().unwrap().to_string();
    let mut first = server.connect(&id, Some(&token(&created, 0))).await;
    let mut middle = server.connect(&id, Some(&token(&created, 1))).await;
    let mut last = server.connect(&id, Some(&token(&created, 2))).await;
    let start = server.state(&id).await;
    // The others' connections are told to First by updates of their own: wait for them, so
    // that none comes between his requests and the errors they get.
    first
        .until_state("every seat connected", |s| s["seats"].as_array().unwrap().iter().all(|seat| seat["connected"] == true))
        .await;

    first.send(json!({ "type": "offer_draw" })).await;
    first.until_state("First's offer", |s| s["draw_offered_by"] == json!(["First"])).await;
    first.send(json!({ "type": "offer_draw" })).await;
    assert!(first.next_error().await.contains("already offered"));
    // A declined offer is withdrawn and told; the offerer cannot decline his own.
    first.send(json!({ "type": "decline_draw" })).await;
    assert!(first.next_error().await.contains("offered the draw yourself"));
    last.until_state("First's offer", |s| s["draw_offered_by"] == json!(["First"])).await;
    last.send(json!({ "type": "decline_draw" })).await;
    last.until_state("the decline", |s| s["draw_offered_by"] == json!([])).await;
    last.send(json!({ "type": "decline_draw" })).await;
    assert!(last.next_error().await.contains("no draw offer to decline"));
    first.send(json!({ "type": "offer_draw" })).await;
    first.until_state("First's offer again", |s| s["draw_offered_by"] == json!(["First"])).await;
    // Moving keeps one's own offer; playing on without offering declines it.
    first.send(json!({ "type": "move", "move": "P3c-4d" })).await;
    let state = first.until_state("the move", |s| moves(s).len() == 1).await;
    assert_eq!(state["draw_offered_by"], json!(["First"]));
    let after_first_move = state;
    middle.send(json!({ "type": "move", "move": "P10k-10j" })).await;
    let state = middle.until_state("the move", |s| moves(s).len() == 2).await;
    assert_eq!(state["draw_offered_by"], json!([]));
    let before_resignation = state;

    last.send(json!({ "type": "resign" })).await;
    let state = last.until_state("the resignation", |s| seat_entry(s, "Last")["active"] == false).await;
    assert_eq!(state["outcome"], Value::Null, "two players go on");
    assert_eq!(state["to_move"], "First");
    assert!(state["moves"][1]["events"].as_array().unwrap().contains(&json!("Last resigns")), "{state}");
    last.send(json!({ "type": "offer_draw" })).await;
    assert!(last.next_error().await.contains("no longer in the game"));

    first.send(json!({ "type": "offer_draw" })).await;
    first.until_state("First's offer", |s| s["draw_offered_by"] == json!(["First"])).await;
    middle.send(json!({ "type": "offer_draw" })).await;
    let state = middle.until_state("the draw", |s| !s["outcome"].is_null()).await;
    let outcome = state["outcome"]["text"].as_str().unwrap();
    assert_eq!(outcome, "Draw by agreement, between First and Middle");
    assert_eq!(state["outcome"]["placings"]["First"], state["outcome"]["placings"]["Middle"]);
    assert_eq!(state["to_move"], Value::Null);
    assert_eq!(state["legal_moves"], json!([]));
    first.until_state("the draw", |s| !s["outcome"].is_null()).await;
    first.send(json!({ "type": "move", "move": "P-5e" })).await;
    assert!(first.next_error().await.contains("the game is over"));
    let record = server.get(&format!("/api/games/{id}/record")).await.text().await.unwrap();
    assert!(
        record.contains("resign:Last {Last resigns}")
            && record.contains(" draw {Draw by agreement, between First and Middle; places: First 1st, Middle 1st, Last 3rd}"),
        "{record}"
    );
    assert!(!record.contains("[Result \"*\"]"), "{record}");
    assert_replays_to(&record, &state);

    // Going back through the game: each position as it was once that many moves were played.
    let position = |ply: usize| format!("/api/games/{id}/positions/{ply}");
    assert_eq!(server.get_json(&position(0)).await, drawn(&start, 0));
    assert_eq!(server.get_json(&position(1)).await, drawn(&after_first_move, 1));
    assert_eq!(server.get_json(&position(2)).await, drawn(&state, 2), "after move 2 come Last's resignation and the draw");
    assert_ne!(drawn(&state, 2)["board"], drawn(&before_resignation, 2)["board"], "Last's pieces left with him");
    for (ply, status, error) in
        [("3", 404, "fewer than 3 moves"), ("-1", 400, "not a move number"), ("two", 400, "not a move number")]
    {
        let response = server.get(&format!("/api/games/{id}/positions/{ply}")).await;
        assert_eq!(response.status().as_u16(), status, "{ply}");
        let body: Value = response.json().await.unwrap();
        assert!(body["error"].as_str().unwrap().contains(error), "{ply}: {body}");
    }
}

/// What a client draws of a state: the position after `ply` moves.
fn drawn(state: &Value, ply: usize) -> Value {
    json!({ "ply": ply, "to_move": state["to_move"], "board": state["board"], "hands": state["hands"], "in_check": state["in_check"] })
}

/// The record replays, resignations and draws included, to the game's final position.
fn assert_replays_to(record: &str, state: &Value) {
    let replayed = polyshogi::replay::replay(record).unwrap_or_else(|e| panic!("{e}\n{record}"));
    assert_eq!(replayed.bad_move, None, "{record}");
    assert_eq!(replayed.game.position_text(), state["position"].as_str().unwrap(), "{record}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_falls_as_a_resignation() {
    let (server, _dir) = server().await;
    // Tiny clocks, which run only after each seat's first move: everyone moves once, then
    // First, then Middle run out; Last is left and wins.
    let created = server.create(new_game(&["human", "human", "human"], Some((300, 0)))).await;
    let id = created["id"].as_str().unwrap();
    for (index, seat) in ["First", "Middle", "Last"].into_iter().enumerate() {
        let mut client = server.connect(id, Some(&token(&created, index))).await;
        let state = client.until_state(&format!("{seat}'s first turn"), |s| s["to_move"] == seat).await;
        assert_eq!(seat_entry(&state, seat)["clock_ms"], 300, "{seat}'s clock ran before his first move");
        play_some_move(&mut client, &state, index).await;
        client.until_state(&format!("{seat}'s move"), |s| moves(s).len() == index + 1).await;
    }
    let state = server.wait_state(id, "the end on time", |s| !s["outcome"].is_null()).await;
    assert_eq!(seat_entry(&state, "First")["active"], false);
    assert_eq!(seat_entry(&state, "Middle")["active"], false);
    assert_eq!(seat_entry(&state, "First")["clock_ms"], 0);
    assert_eq!(state["outcome"]["placings"]["Last"], 1);
    let record = server.get(&format!("/api/games/{id}/record")).await.text().await.unwrap();
    assert!(record.contains("timeout:First {First's time ran out}") && record.contains("Middle's time ran out"), "{record}");
    assert_replays_to(&record, &state);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rate_limit_bites() {
    let (server, _dir) = server().await;
    let created = server.create(new_game(&["human", "human", "human"], None)).await;
    let id = created["id"].as_str().unwrap();
    let mut client = server.connect(id, Some(&token(&created, 0))).await;
    client.until_state("the state", |_| true).await;
    let before = steady(&server.state(id).await);
    const BURST: usize = 100;
    for n in 0..BURST {
        client.feed(&json!({ "type": format!("burst-{n}") }).to_string()).await;
    }
    client.flush().await;
    let mut slow_down = 0;
    for _ in 0..BURST {
        let error = client.next_error().await;
        if error == "slow down" {
            slow_down += 1;
        } else {
            assert!(error.contains("burst-"), "{error}");
        }
    }
    assert!(slow_down > 0, "100 messages at once were all accepted");
    assert_eq!(steady(&server.state(id).await), before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reconnecting_resumes_the_game() {
    let (server, _dir) = server().await;
    let created = server.create(new_game(&["human", "beginner", "beginner"], Some((3_600_000, 1_000)))).await;
    let id = created["id"].as_str().unwrap().to_string();
    let token = token(&created, 0);
    let mut human = server.connect(&id, Some(&token)).await;
    let state = human.until_state("the state", |_| true).await;
    play_some_move(&mut human, &state, 5).await;
    let state = until_turn_after(&mut human, "First", 0).await;
    human.close().await;
    server.wait_state(&id, "First to be gone", |s| seat_entry(s, "First")["connected"] == false).await;
    let mut again = server.connect(&id, Some(&token)).await;
    let resumed = again.until_state("the state", |_| true).await;
    assert_eq!(resumed["you"], "First");
    assert_eq!(moves(&resumed), moves(&state));
    assert_eq!(seat_entry(&resumed, "First")["connected"], true);
    let played = moves(&resumed).len();
    play_some_move(&mut again, &resumed, 1).await;
    let state = until_turn_after(&mut again, "First", played).await;
    assert!(moves(&state).len() > played);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_takeback_needs_every_other_player_and_survives_a_restart() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite:{}", dir.path().join("takeback.db").display());
    let server = TestServer::start(&url).await;
    let created = server.create(new_game(&["human", "human", "human"], None)).await;
    let id = created["id"].as_str().unwrap().to_string();
    let mut first = server.connect(&id, Some(&token(&created, 0))).await;
    let mut middle = server.connect(&id, Some(&token(&created, 1))).await;
    let mut last = server.connect(&id, Some(&token(&created, 2))).await;
    let everyone_connected = |s: &Value| s["seats"].as_array().unwrap().iter().all(|seat| seat["connected"] == true);
    for client in [&mut first, &mut middle, &mut last] {
        client.until_state("everyone connected", everyone_connected).await;
    }

    middle.send(json!({ "type": "takeback" })).await;
    assert!(middle.next_error().await.contains("no move to take back"));
    first.send(json!({ "type": "move", "move": "P3c-4d" })).await;
    middle.until_state("First's move", |s| moves(s).len() == 1).await;
    middle.send(json!({ "type": "move", "move": "P10k-10j" })).await;
    first.until_state("Middle's move", |s| moves(s).len() == 2).await;

    // First asks: both others must agree; one refusal drops the request.
    first.send(json!({ "type": "takeback" })).await;
    let state = first.until_state("the request", |s| !s["takeback"].is_null()).await;
    assert_eq!(state["takeback"], json!({ "by": "First", "to_ply": 0, "waiting_for": ["Middle", "Last"] }));
    first.send(json!({ "type": "takeback" })).await;
    assert!(first.next_error().await.contains("already been asked"));
    first.send(json!({ "type": "takeback_answer", "accept": true })).await;
    assert!(first.next_error().await.contains("asked for the takeback yourself"));
    middle.until_state("the request", |s| !s["takeback"].is_null()).await;
    middle.send(json!({ "type": "takeback_answer", "accept": true })).await;
    middle.until_state("Middle's consent", |s| s["takeback"]["waiting_for"] == json!(["Last"])).await;
    last.until_state("Middle's consent", |s| s["takeback"]["waiting_for"] == json!(["Last"])).await;
    last.send(json!({ "type": "takeback_answer", "accept": false })).await;
    let state = last.until_state("the refusal", |s| s["takeback"].is_null()).await;
    assert_eq!(moves(&state), ["P3c-4d", "P10k-10j"]);
    assert!(state["moves"][1]["events"].as_array().unwrap().contains(&json!("Last declines the takeback")), "{state}");
    // The updates made the same game as the server holds.
    assert_eq!(steady(&state), steady(&server.state(&id).await));

    // Asked again and granted by both: First's move and Middle's after it are undone.
    first.until_state("the refusal", |s| s["takeback"].is_null() && moves(s).len() == 2).await;
    first.send(json!({ "type": "takeback" })).await;
    for client in [&mut middle, &mut last] {
        client.until_state("the second request", |s| !s["takeback"].is_null()).await;
        client.send(json!({ "type": "takeback_answer", "accept": true })).await;
    }
    let state = first.until_state("the takeback", |s| moves(s).is_empty()).await;
    assert_eq!((state["to_move"].as_str(), state["takeback"].is_null()), (Some("First"), true));
    first.send(json!({ "type": "move", "move": "P3d-4e" })).await;
    let before = first.until_state("First's new move", |s| moves(s) == ["P3d-4e"]).await;

    // Stored and replayed: after a restart the game is where the takeback left it.
    drop((first, middle, last));
    server.kill();
    let server = TestServer::start(&url).await;
    let after = server.state(&id).await;
    assert_eq!(steady(&after), steady(&before));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_grant_a_takeback_at_once() {
    let (server, _dir) = server().await;
    let created = server.create(new_game(&["human", "beginner", "beginner"], None)).await;
    let id = created["id"].as_str().unwrap().to_string();
    let mut first = server.connect(&id, Some(&token(&created, 0))).await;
    first.send(json!({ "type": "move", "move": "P3c-4d" })).await;
    let state = until_turn_after(&mut first, "First", 1).await;
    assert_eq!(moves(&state).len(), 3, "both bots answered");
    first.send(json!({ "type": "takeback" })).await;
    let state = first.until_state("the takeback", |s| moves(s).is_empty()).await;
    assert_eq!(state["to_move"], "First");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_clock_runs_before_a_seats_first_move() {
    let (server, _dir) = server().await;
    let created = server.create(new_game(&["human", "human", "human"], Some((600_000, 5_000)))).await;
    let id = created["id"].as_str().unwrap();
    let mut first = server.connect(id, Some(&token(&created, 0))).await;
    let state = first.until_state("First's state", |_| true).await;
    // Another change while First thinks over his first move: Middle connects.
    let mut middle = server.connect(id, Some(&token(&created, 1))).await;
    middle.until_state("Middle's state", |_| true).await;
    let waited = server.wait_state(id, "Middle online", |s| seat_entry(s, "Middle")["connected"] == true).await;
    for seat in ["First", "Middle", "Last"] {
        assert_eq!(seat_entry(&waited, seat)["clock_ms"], 600_000, "{seat}'s clock ran before First's first move");
    }
    play_some_move(&mut first, &state, 0).await;
    let state = middle.until_state("Middle's first turn", |s| s["to_move"] == "Middle").await;
    // First's first move cost him nothing and earned the increment; Middle's clock waits.
    assert_eq!(seat_entry(&state, "First")["clock_ms"], 605_000);
    assert_eq!(seat_entry(&state, "Middle")["clock_ms"], 600_000);
    play_some_move(&mut middle, &state, 0).await;
    middle.until_state("Middle's move", |s| moves(s).len() == 2).await;
    // First's clock waits too, as it is not his turn; Last's has not started.
    let state = server.state(id).await;
    assert_eq!(seat_entry(&state, "First")["clock_ms"], 605_000);
    assert_eq!(seat_entry(&state, "Middle")["clock_ms"], 605_000);
    assert_eq!(seat_entry(&state, "Last")["clock_ms"], 600_000);
    // That clocks run from the second move on, a_flag_falls_as_a_resignation shows.
}

/// A server whose human seats have a fifth of a second for their first move.
async fn impatient_server(url: &str) -> TestServer {
    TestServer::start_with(url, RoomSettings { first_move_time: Duration::from_millis(200), ..RoomSettings::default() }).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_human_who_does_not_make_his_first_move_aborts_the_game() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite:{}", dir.path().join("abort.db").display());
    let server = impatient_server(&url).await;
    // A bot moves first (bots never abort); the human Middle never moves.
    let created = server.create(new_game(&["beginner", "human", "beginner"], Some((600_000, 0)))).await;
    let id = created["id"].as_str().unwrap().to_string();
    let state = server.wait_state(&id, "the abort", |s| !s["outcome"].is_null()).await;
    assert_eq!(state["outcome"]["aborted"], true);
    assert_eq!(state["outcome"]["text"], "Game aborted: Middle did not make a first move in time");
    assert_eq!(state["outcome"]["placings"], json!({}));
    assert_eq!(moves(&state).len(), 1, "First, a bot, moved; nobody after the abort");
    assert_eq!(state["to_move"], Value::Null);
    assert_eq!(state["legal_moves"], json!([]));
    let record = server.get(&format!("/api/games/{id}/record")).await.text().await.unwrap();
    assert!(record.contains("[Termination \"Game aborted: Middle did not make a first move in time\"]"), "{record}");
    // Nothing more can be done in it.
    let mut middle = server.connect(&id, Some(&token(&created, 1))).await;
    middle.until_state("Middle's state", |_| true).await;
    middle.send(json!({ "type": "resign" })).await;
    assert!(middle.next_error().await.starts_with("the game is over: Game aborted"));
    server.kill();
    // An aborted game stays aborted after a restart.
    let server = impatient_server(&url).await;
    let again = server.state(&id).await;
    assert_eq!(steady(&again), steady(&state));
    // A game without a clock is never aborted: Middle's first turn waits as long as he likes.
    let untimed = server.create(new_game(&["beginner", "human", "beginner"], None)).await;
    let untimed_id = untimed["id"].as_str().unwrap();
    let mut middle = server.connect(untimed_id, Some(&token(&untimed, 1))).await;
    let state = middle.until_state("Middle's first turn", |s| s["to_move"] == "Middle").await;
    // A change that comes after the 200 ms: Middle's reconnection after a timed game aborts.
    let timed = server.create(new_game(&["human", "beginner", "beginner"], Some((600_000, 0)))).await;
    server.wait_state(timed["id"].as_str().unwrap(), "the other abort", |s| !s["outcome"].is_null()).await;
    play_some_move(&mut middle, &state, 0).await;
    let state = middle.until_state("Middle's move", |s| moves(s).len() >= 2).await;
    assert!(state["outcome"].is_null(), "{state}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_needs_every_player_rotates_the_seats_and_survives_a_restart() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite:{}", dir.path().join("rematch.db").display());
    let server = TestServer::start(&url).await;
    let body = json!({
        "variant": "hexshogi91",
        "rules": [],
        "clock": { "initial_ms": 300_000, "increment_ms": 2_000 },
        "seats": [{ "kind": "human" }, { "kind": "human" }],
    });
    let created = server.create(body).await;
    let id = created["id"].as_str().unwrap().to_string();
    let (black_token, white_token) = (token(&created, 0), token(&created, 1));
    let mut black = server.connect(&id, Some(&black_token)).await;
    let mut white = server.connect(&id, Some(&white_token)).await;
    let both_connected = |s: &Value| s["seats"].as_array().unwrap().iter().all(|seat| seat["connected"] == true);
    black.until_state("both connected", both_connected).await;
    white.until_state("both connected", both_connected).await;

    black.send(json!({ "type": "rematch" })).await;
    assert!(black.error_after_states().await.contains("once the game is over"));
    let state = server.state(&id).await;
    assert!(state["rematch"].is_null(), "{state}");

    black.send(json!({ "type": "resign" })).await;
    let state = white.until_state("the resignation", |s| !s["outcome"].is_null()).await;
    assert_eq!(state["rematch"], json!({ "offered_by": [], "game": null, "next_seat": { "Black": "White", "White": "Black" } }));
    white.send(json!({ "type": "decline_rematch" })).await;
    assert!(white.error_after_states().await.contains("no rematch has been asked for"));

    // Asked, declined, asked again and agreed to.
    black.send(json!({ "type": "rematch" })).await;
    white.until_state("Black's request", |s| s["rematch"]["offered_by"] == json!(["Black"])).await;
    white.send(json!({ "type": "decline_rematch" })).await;
    // White's own page tells that the refusal was taken (Black's may still hold an older state).
    white.until_state("the refusal", |s| s["rematch"]["offered_by"] == json!([])).await;
    black.send(json!({ "type": "rematch" })).await;
    white.until_state("Black's second request", |s| s["rematch"]["offered_by"] == json!(["Black"])).await;
    black.send(json!({ "type": "rematch" })).await;
    assert_eq!(black.error_after_states().await, "you have asked for a rematch already");
    white.send(json!({ "type": "rematch" })).await;
    let state = black.until_state("the rematch", |s| s["rematch"]["game"].is_string()).await;
    let rematch = state["rematch"]["game"].as_str().unwrap().to_string();
    assert_ne!(rematch, id);
    white.send(json!({ "type": "rematch" })).await;
    assert!(white.error_after_states().await.contains(&format!("the rematch has started already: game {rematch}")));

    // The same game, colours swapped: each old token opens the other seat, clocks at the start.
    let new_state = server.state(&rematch).await;
    assert_eq!((new_state["variant"].as_str(), &new_state["clock"]), (Some("hexshogi91"), &state["clock"]));
    assert!(moves(&new_state).is_empty() && new_state["outcome"].is_null());
    let mut new_white = server.connect(&rematch, Some(&black_token)).await;
    let mut new_black = server.connect(&rematch, Some(&white_token)).await;
    assert_eq!(new_white.until_state("the hello", |_| true).await["you"], "White");
    assert_eq!(new_black.until_state("the hello", |_| true).await["you"], "Black");
    let first_move = new_state["legal_moves"][0].as_str().unwrap().to_string();
    new_white.until_state("both connected", both_connected).await;
    new_white.send(json!({ "type": "move", "move": first_move })).await;
    let error = new_white.error_after_states().await;
    assert!(error.contains("not your turn"), "{error}");
    new_black.send(json!({ "type": "move", "move": first_move })).await;
    new_white.until_state("Black's first move", |s| moves(s).len() == 1).await;

    // The link is stored: after a restart the finished game still names its rematch.
    drop((black, white, new_white, new_black));
    server.kill();
    let server = TestServer::start(&url).await;
    assert_eq!(server.state(&id).await["rematch"]["game"], rematch);
    assert_eq!(moves(&server.state(&rematch).await).len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_agree_to_a_rematch_at_once() {
    let (server, _dir) = server().await;
    let created = server.create(new_game(&["human", "beginner", "easy"], None)).await;
    let id = created["id"].as_str().unwrap().to_string();
    let human = token(&created, 0);
    let mut first = server.connect(&id, Some(&human)).await;
    first.send(json!({ "type": "resign" })).await;
    first.until_state("the resignation", |s| !s["outcome"].is_null()).await;
    first.send(json!({ "type": "rematch" })).await;
    let state = first.until_state("the rematch", |s| s["rematch"]["game"].is_string()).await;
    let rematch = server.state(state["rematch"]["game"].as_str().unwrap()).await;
    // Each occupant one seat on: the human is Middle, Last's bot is First, Middle's is Last.
    let seats: Vec<(String, String)> = rematch["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["seat"].as_str().unwrap().to_string(), s["level"].as_str().unwrap_or("human").to_string()))
        .collect();
    let expected = [("First", "easy"), ("Middle", "human"), ("Last", "beginner")];
    assert_eq!(seats, expected.map(|(a, b)| (a.to_string(), b.to_string())));
    let mut middle = server.connect(rematch["id"].as_str().unwrap(), Some(&human)).await;
    assert_eq!(middle.until_state("the hello", |_| true).await["you"], "Middle");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resignation_before_the_first_move_is_told_and_recorded() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite:{}", dir.path().join("opening.db").display());
    let server = TestServer::start(&url).await;
    let created = server.create(json!({ "variant": "hexshogi91", "seats": [{ "kind": "human" }, { "kind": "human" }] })).await;
    let id = created["id"].as_str().unwrap().to_string();
    let mut black = server.connect(&id, Some(&token(&created, 0))).await;
    let state = black.until_state("the state", |_| true).await;
    assert_eq!(state["opening_events"], json!([]));
    black.send(json!({ "type": "resign" })).await;
    let state = black.until_state("the resignation", |s| !s["outcome"].is_null()).await;
    assert!(moves(&state).is_empty());
    let told = state["opening_events"].as_array().unwrap();
    assert!(told.contains(&json!("Black resigns")), "{state}");
    // The same after a restart, and in the record.
    drop(black);
    server.kill();
    let server = TestServer::start(&url).await;
    assert_eq!(server.state(&id).await["opening_events"], state["opening_events"]);
    let record = server.get(&format!("/api/games/{id}/record")).await.text().await.unwrap();
    assert!(record.contains("resign"), "{record}");
}
