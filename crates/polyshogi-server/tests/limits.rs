//! The limits of docs/API.md against a real server: timeouts close half-sent headers, silent
//! sockets and silent WebSockets; the connection cap refuses at once; an oversized WebSocket
//! frame ends the connection before it is read; rate limits hold per seat across connections
//! and per client address; every refusal is JSON. Timeouts are made short here so that the
//! tests wait for the server to act, never for a clock: no test asserts how long anything took.

mod common;

use std::time::Duration;

use common::*;
use futures_util::{SinkExt, StreamExt};
use polyshogi_server::{Rate, ServerConfig};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

fn database(dir: &tempfile::TempDir) -> String {
    format!("sqlite:{}", dir.path().join("limits.db").display())
}

async fn start(dir: &tempfile::TempDir, adjust: impl FnOnce(&mut ServerConfig)) -> TestServer {
    let mut config = test_config(&database(dir));
    adjust(&mut config);
    TestServer::start_config(config).await
}

/// A rate that never refills within a test: exactly `burst` are allowed.
fn only(burst: u32) -> Rate {
    Rate { burst, every: Duration::from_secs(3600) }
}

/// How long a test waits for a connection to be closed by a timeout of a second or less
/// (or at once). hyper's own header timeout, 30 s, and the default idle timeout, 90 s, are
/// longer: a connection closed by them, and not by the limit under test, fails the test.
const CLOSE_PATIENCE: Duration = Duration::from_secs(20);

/// Reads until the server closes the connection (end of stream or a reset), and answers what
/// it sent before.
async fn read_until_closed(stream: &mut TcpStream) -> Vec<u8> {
    let mut received = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        match tokio::time::timeout(CLOSE_PATIENCE, stream.read(&mut buffer)).await {
            Err(_) => panic!("the server kept the connection open; it sent {:?}", String::from_utf8_lossy(&received)),
            Ok(Ok(0)) | Ok(Err(_)) => return received,
            Ok(Ok(n)) => received.extend_from_slice(&buffer[..n]),
        }
    }
}

/// The status and the JSON body of a raw HTTP answer.
fn parse_answer(bytes: &[u8]) -> (u16, Value) {
    let text = String::from_utf8_lossy(bytes);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or_else(|| panic!("not an HTTP answer: {text:?}"));
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or_else(|| panic!("no status in {head:?}"));
    (status, serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON ({e}): {body:?}")))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_sent_headers_silent_sockets_and_idle_keep_alives_are_closed() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&dir, |config| config.limits.header_timeout = Duration::from_millis(300)).await;
    let mut sockets = Vec::new();
    for n in 0..300 {
        let mut stream = TcpStream::connect(server.addr).await.unwrap();
        stream.write_all(format!("GET /health HTTP/1.1\r\nHost: test\r\nX-Slow: {n}\r\n").as_bytes()).await.unwrap();
        sockets.push(stream);
    }
    for _ in 0..100 {
        sockets.push(TcpStream::connect(server.addr).await.unwrap());
    }
    // A kept-alive connection, after its answer, has the same time for its next request.
    let mut kept_alive = TcpStream::connect(server.addr).await.unwrap();
    kept_alive.write_all(b"GET /health HTTP/1.1\r\nHost: test\r\n\r\n").await.unwrap();
    sockets.push(kept_alive);
    for stream in &mut sockets {
        let sent = read_until_closed(stream).await;
        // Half-sent headers and silent sockets are closed without an answer; the whole
        // request got its answer first.
        assert!(sent.is_empty() || String::from_utf8_lossy(&sent).starts_with("HTTP/1.1 200"), "{sent:?}");
    }
    assert_eq!(server.get("/health").await.status(), 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_websocket_on_which_nothing_arrives_is_closed() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&dir, |config| config.limits.idle_timeout = Duration::from_millis(500)).await;
    let created = server.create(new_game(&["human", "human", "human"], None)).await;
    let id = created["id"].as_str().unwrap();
    for token in [None, Some(token(&created, 0))] {
        let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{}/api/games/{id}/ws", server.addr)).await.unwrap();
        ws.send(Message::Text(json!({ "type": "hello", "token": token }).to_string().into())).await.unwrap();
        // The client only listens from here on: the state, then the end of the connection.
        loop {
            match tokio::time::timeout(CLOSE_PATIENCE, ws.next()).await.expect("the server closes the silent connection") {
                Some(Ok(Message::Text(_) | Message::Ping(_) | Message::Pong(_))) => continue,
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break,
                Some(Ok(other)) => panic!("unexpected {other:?}"),
            }
        }
    }
    assert_eq!(server.state(id).await["version"], 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_over_the_cap_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let created = start(&dir, |_| {}).await.create(new_game(&["human", "human", "human"], None)).await;
    let id = created["id"].as_str().unwrap();
    // The game is made on another server of the same database, so no connection of its making
    // holds a slot here.
    let server = start(&dir, |config| config.limits.max_connections = 3).await;
    let mut held = Vec::new();
    for _ in 0..3 {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{}/api/games/{id}/ws", server.addr)).await.unwrap();
        held.push(ws);
    }
    let mut extra = TcpStream::connect(server.addr).await.unwrap();
    let (status, body) = parse_answer(&read_until_closed(&mut extra).await);
    assert_eq!(status, 503);
    assert!(body["error"].as_str().unwrap().contains("too many connections"), "{body}");
    // A slot is given back when its connection ends.
    let mut first = held.remove(0);
    first.close(None).await.unwrap();
    while let Some(Ok(_)) = first.next().await {}
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let mut stream = TcpStream::connect(server.addr).await.unwrap();
        stream.write_all(b"GET /health HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n").await.unwrap();
        let answer = read_until_closed(&mut stream).await;
        if String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 200") {
            break;
        }
        // The client may see the close a moment before the server has let the slot go.
        assert!(tokio::time::Instant::now() < deadline, "no slot came back: {:?}", String::from_utf8_lossy(&answer));
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_websocket_frame_ends_the_connection_before_it_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&dir, |_| {}).await;
    let created = server.create(new_game(&["human", "human", "human"], None)).await;
    let id = created["id"].as_str().unwrap();
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{}/api/games/{id}/ws", server.addr)).await.unwrap();
    // The header of a masked text frame of 1 MiB, then only 1 KiB of it: a server that waited
    // for the whole frame before looking at its size would wait here forever.
    let mut frame = vec![0x81, 0x80 | 127];
    frame.extend_from_slice(&(1u64 << 20).to_be_bytes());
    frame.extend_from_slice(&[1, 2, 3, 4]);
    frame.extend_from_slice(&[b'x'; 1024]);
    let stream = match ws.get_mut() {
        tokio_tungstenite::MaybeTlsStream::Plain(stream) => stream,
        _ => unreachable!("ws:// is plain TCP"),
    };
    stream.write_all(&frame).await.unwrap();
    read_until_closed(stream).await;
    assert_eq!(server.get("/health").await.status(), 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_has_one_message_budget_across_its_connections() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&dir, |config| config.limits.seat_messages = only(4)).await;
    let created = server.create(new_game(&["human", "human", "human"], None)).await;
    let id = created["id"].as_str().unwrap();
    let mut first_a = server.connect(id, Some(&token(&created, 0))).await;
    let mut first_b = server.connect(id, Some(&token(&created, 0))).await;
    let mut middle = server.connect(id, Some(&token(&created, 1))).await;
    // Each message is refused by the game, unless the seat's budget is spent first.
    let refused = json!({ "type": "takeback_answer", "accept": true }).to_string();
    let mut answers = Vec::new();
    for _ in 0..3 {
        first_a.send_text(&refused).await;
        answers.push(first_a.error_after_states().await);
    }
    for _ in 0..3 {
        first_b.send_text(&refused).await;
        answers.push(first_b.error_after_states().await);
    }
    let slowed: Vec<bool> = answers.iter().map(|a| a == "slow down").collect();
    assert_eq!(slowed, [false, false, false, false, true, true], "{answers:?}");
    assert_eq!(answers[0], "there is no takeback to answer");
    // Another seat from the same address has its own budget.
    middle.send_text(&refused).await;
    assert_eq!(middle.error_after_states().await, "there is no takeback to answer");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_has_one_message_budget_across_its_connections() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&dir, |config| config.limits.address_messages = Some(only(5))).await;
    let created = server.create(new_game(&["human", "human", "human"], None)).await;
    let id = created["id"].as_str().unwrap();
    // Two hellos and three more messages spend the five.
    let mut one = server.connect(id, None).await;
    let mut two = server.connect(id, None).await;
    one.until_state("the hello's answer", |_| true).await;
    two.until_state("the hello's answer", |_| true).await;
    let action = json!({ "type": "resign" }).to_string();
    let mut answers = Vec::new();
    for round in 0..4 {
        let client = if round % 2 == 0 { &mut one } else { &mut two };
        client.send_text(&action).await;
        answers.push(client.error_after_states().await);
    }
    assert_eq!(answers[..3], ["spectators cannot act: say hello with a seat token"; 3], "{answers:?}");
    assert_eq!(answers[3], "slow down");
}

async fn create_from(server: &TestServer, forwarded_for: Option<&str>) -> reqwest::Response {
    let mut request = reqwest::Client::new().post(server.url("/api/games")).json(&new_game(&["human", "human", "human"], None));
    if let Some(hops) = forwarded_for {
        request = request.header("x-forwarded-for", hops);
    }
    request.send().await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn game_creation_is_limited_per_address() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&dir, |config| config.limits.address_games = Some(only(3))).await;
    for _ in 0..3 {
        assert_eq!(create_from(&server, None).await.status(), 201);
    }
    let refused = create_from(&server, None).await;
    assert_eq!(refused.status(), 429);
    let wait: u64 = refused.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=3600).contains(&wait), "{wait}");
    let body: Value = refused.json().await.unwrap();
    assert!(body["error"].as_str().unwrap().starts_with("too many games created from your address"), "{body}");
    // Without --trust-proxy, X-Forwarded-For is anyone's to write and chooses nothing.
    assert_eq!(create_from(&server, Some("203.0.113.9")).await.status(), 429);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_trusted_proxy_the_last_forwarded_hop_is_the_client() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&dir, |config| {
        config.limits.address_games = Some(only(2));
        config.limits.trust_proxy = true;
    })
    .await;
    for _ in 0..2 {
        assert_eq!(create_from(&server, Some("198.51.100.1, 203.0.113.1")).await.status(), 201);
    }
    // What the client wrote before the proxy's hop changes nothing.
    assert_eq!(create_from(&server, Some("198.51.100.2, 203.0.113.1")).await.status(), 429);
    assert_eq!(create_from(&server, Some("203.0.113.1")).await.status(), 429);
    // Another client behind the proxy has his own budget.
    assert_eq!(create_from(&server, Some("198.51.100.1, 203.0.113.2")).await.status(), 201);
}

/// The status, the `Content-Type` and the JSON error of an answer.
async fn refusal(response: reqwest::Response) -> (u16, String) {
    let status = response.status().as_u16();
    let content_type = response.headers().get("content-type").map(|v| v.to_str().unwrap().to_string());
    let text = response.text().await.unwrap();
    assert_eq!(content_type.as_deref(), Some("application/json"), "{status}: {text}");
    let body: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{status}: not JSON ({e}): {text}"));
    (status, body["error"].as_str().unwrap_or_else(|| panic!("no error text: {body}")).to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_refusal_is_a_json_error() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&dir, |_| {}).await;
    let created = server.create(new_game(&["human", "human", "human"], None)).await;
    let id = created["id"].as_str().unwrap();
    let http = reqwest::Client::new();
    let post = |body: String, content_type: &str| {
        http.post(server.url("/api/games")).header("content-type", content_type.to_string()).body(body).send()
    };
    let game = new_game(&["human", "human", "human"], None).to_string();

    let (status, error) = refusal(post(game.clone(), "text/plain").await.unwrap()).await;
    assert_eq!((status, error.as_str()), (415, "body: expected JSON, sent with Content-Type: application/json"));
    let (status, error) = refusal(http.post(server.url("/api/games")).body(game.clone()).send().await.unwrap()).await;
    assert_eq!(status, 415, "{error}");
    let (status, error) = refusal(post(game.clone(), "application/x-www-form-urlencoded").await.unwrap()).await;
    assert_eq!(status, 415, "{error}");
    assert_eq!(post(game.clone(), "application/json; charset=utf-8").await.unwrap().status(), 201);

    // Just over the limit (about 68 KB): the server answers without reading the rest, and a body
    // many times larger could still be on its way when it closes the connection, so that the
    // client's write fails before it reads the answer.
    let huge = json!({ "variant": "sannin", "rules": vec!["compulsory=off"; 4_000], "seats": [] }).to_string();
    assert!(huge.len() > 64 * 1024);
    assert_eq!(refusal(post(huge, "application/json").await.unwrap()).await, (413, "body: larger than 64 KiB".to_string()));

    let twice = r#"{"variant":"sannin","variant":"tphs91","seats":[{"kind":"human"},{"kind":"human"},{"kind":"human"}]}"#;
    let (status, error) = refusal(post(twice.into(), "application/json").await.unwrap()).await;
    assert_eq!(status, 400);
    assert!(error.starts_with("body: the key \"variant\" appears twice in one object"), "{error}");

    let (status, error) = refusal(http.get(server.url("/api/nothing/here")).send().await.unwrap()).await;
    assert_eq!((status, error.as_str()), (404, "no such page: /api/nothing/here"));
    let (status, error) = refusal(http.get(server.url("/static/nothing.js")).send().await.unwrap()).await;
    assert_eq!((status, error.as_str()), (404, "no file `nothing.js`"));
    let response = http.delete(server.url(&format!("/api/games/{id}"))).send().await.unwrap();
    assert_eq!(response.headers()["allow"], "GET,HEAD");
    let (status, error) = refusal(response).await;
    assert_eq!((status, error.as_str()), (405, "this page does not take DELETE (the Allow header says what it takes)"));
    let (status, error) = refusal(http.get(server.url("/api/study/position")).send().await.unwrap()).await;
    assert_eq!(status, 405, "{error}");
    // A WebSocket URL asked for without the upgrade: axum's rejection, as JSON.
    let (status, error) = refusal(http.get(server.url(&format!("/api/games/{id}/ws"))).send().await.unwrap()).await;
    assert!((400..500).contains(&status) && !error.is_empty(), "{status} {error}");
    let (status, error) = refusal(http.get(server.url("/api/games/%FF")).send().await.unwrap()).await;
    assert_eq!(status, 400, "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rule_lists_are_checked_at_creation() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&dir, |_| {}).await;
    let humans = json!([{ "kind": "human" }, { "kind": "human" }, { "kind": "human" }]);
    let cases = [
        (json!(["compulsory=off", "max_plies\n=500"]), "rules[1]: rule option \"max_plies\\n=500\" holds a control character"),
        (json!(["max_plies=4000000000"]), "rules[0]: max_plies may be at most 3000 (its default), not 4000000000"),
        (json!(["compulsory=off", "compulsory=off"]), "rules[1]: `compulsory` is set twice (rules[0] sets it too)"),
        (json!(vec!["compulsory=off"; 33]), "rules: at most 32 rule options, got 33"),
    ];
    for (rules, expected) in cases {
        let (status, reply) =
            server.post_json("/api/games", &json!({ "variant": "sannin", "rules": rules, "seats": humans })).await;
        assert_eq!((status, reply["error"].as_str().unwrap()), (400, expected));
    }
    // A lower move limit is a game of its own, and comes back the same after a restart.
    let created = server.create(json!({ "variant": "sannin", "rules": [" max_plies=300 "], "seats": humans })).await;
    let id = created["id"].as_str().unwrap().to_string();
    server.kill();
    let server = start(&dir, |_| {}).await;
    assert_eq!(server.state(&id).await["rules"], json!(["max_plies=300"]));
}
