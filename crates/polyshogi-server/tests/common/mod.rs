//! Shared by the server tests: a real server on its own runtime (so a test can kill it the
//! hard way), an HTTP client, and WebSocket clients that wait for states.
#![allow(dead_code)]

use std::io::Write;
use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use polyshogi_server::{RoomSettings, Server, ServerConfig};
use serde_json::{json, Value};
use sqlx::Executor;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// How long a test waits for something that should happen, before it fails. Not a timing
/// assertion: only a way not to hang forever.
pub const PATIENCE: Duration = Duration::from_secs(90);

/// A server running on a runtime of its own, so that killing it drops every task at once, as
/// a killed process would: no shutdown code runs, nothing is flushed.
pub struct TestServer {
    pub addr: SocketAddr,
    server: Server,
    runtime: Option<tokio::runtime::Runtime>,
}

impl TestServer {
    pub async fn start(database: &str) -> TestServer {
        TestServer::start_with(database, RoomSettings::default()).await
    }

    /// A server that runs its games with `settings`.
    pub async fn start_with(database: &str, settings: RoomSettings) -> TestServer {
        let mut config = test_config(database);
        config.rooms = settings;
        TestServer::start_config(config).await
    }

    pub async fn start_config(config: ServerConfig) -> TestServer {
        let filter = tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into());
        let _ = tracing_subscriber::fmt().with_env_filter(filter).with_test_writer().try_init();
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("a runtime");
        let started = runtime.spawn(async move {
            // The server's tasks live on in this runtime after `Server` is dropped.
            Server::start_with(config).await
        });
        let server = started.await.expect("the start task ran").expect("the server starts");
        TestServer { addr: server.addr(), server, runtime: Some(runtime) }
    }

    /// How many games the server holds in memory.
    pub fn games_in_memory(&self) -> usize {
        self.server.games_in_memory()
    }

    /// The server's name among the server processes on its database.
    pub fn instance(&self) -> String {
        self.server.instance().to_string()
    }

    /// Kills the server: every task is dropped where it stands.
    pub fn kill(mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        reqwest::get(self.url(path)).await.expect("the server answers")
    }

    pub async fn get_json(&self, path: &str) -> Value {
        let response = self.get(path).await;
        assert!(response.status().is_success(), "GET {path}: {}", response.status());
        response.json().await.expect("JSON")
    }

    pub async fn post_json(&self, path: &str, body: &Value) -> (u16, Value) {
        let response = reqwest::Client::new().post(self.url(path)).json(body).send().await.expect("the server answers");
        let status = response.status().as_u16();
        (status, response.json().await.expect("JSON"))
    }

    /// Creates a game; answers the creation reply.
    pub async fn create(&self, body: Value) -> Value {
        let (status, reply) = self.post_json("/api/games", &body).await;
        assert_eq!(status, 201, "{reply}");
        reply
    }

    pub async fn state(&self, id: &str) -> Value {
        self.get_json(&format!("/api/games/{id}")).await
    }

    /// Polls `condition` until it holds.
    pub async fn wait_until(&self, what: &str, condition: impl Fn() -> bool) {
        wait_until(what, || async { condition() }).await;
    }

    /// Polls the game state until `pred` holds.
    pub async fn wait_state(&self, id: &str, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            let state = self.state(id).await;
            if pred(&state) {
                return state;
            }
            assert!(tokio::time::Instant::now() < deadline, "gave up waiting for {what}; last state: {state}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    pub async fn connect(&self, id: &str, token: Option<&str>) -> Client {
        Client::connect(self.addr, id, token).await
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// The defaults, but for the limits per client address: every test client comes from
/// 127.0.0.1, and a test may create more games at once than a person would.
pub fn test_config(database: &str) -> ServerConfig {
    let mut config = ServerConfig::new("127.0.0.1:0", database);
    config.limits.address_messages = None;
    config.limits.address_games = None;
    config
}

/// A game of three seats: `seats` like `["human", "random", "greedy"]`.
pub fn new_game(seats: &[&str], clock: Option<(i64, i64)>) -> Value {
    let seats: Vec<Value> = seats
        .iter()
        .map(|&s| if s == "human" { json!({ "kind": "human" }) } else { json!({ "kind": "bot", "level": s }) })
        .collect();
    let clock = clock.map(|(initial, increment)| json!({ "initial_ms": initial, "increment_ms": increment }));
    json!({ "variant": "sannin", "rules": ["compulsory=off"], "clock": clock, "seats": seats })
}

/// The token of seat `index` in a creation reply.
pub fn token(created: &Value, index: usize) -> String {
    created["seats"][index]["token"].as_str().expect("a human seat has a token").to_string()
}

pub fn moves(state: &Value) -> Vec<String> {
    state["moves"].as_array().expect("moves").iter().map(|m| m["move"].as_str().expect("move text").to_string()).collect()
}

pub fn seat_entry<'a>(state: &'a Value, name: &str) -> &'a Value {
    state["seats"].as_array().expect("seats").iter().find(|s| s["seat"] == name).expect("the seat is listed")
}

/// The state without what changes by itself (clocks, who is connected).
pub fn steady(state: &Value) -> Value {
    let mut state = state.clone();
    for seat in state["seats"].as_array_mut().expect("seats") {
        seat.as_object_mut().expect("a seat").remove("clock_ms");
        seat.as_object_mut().expect("a seat").remove("connected");
    }
    state.as_object_mut().expect("a state").remove("you");
    state
}

/// A WebSocket client that keeps the game as the server's state and updates make it.
/// Polls `condition` until it holds: waits for a state, never for a fixed time.
pub async fn wait_until<F: std::future::Future<Output = bool>>(what: &str, condition: impl Fn() -> F) {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while !condition().await {
        assert!(tokio::time::Instant::now() < deadline, "gave up waiting for {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    game: Value,
    /// Every chat line received so far, in order: `chat` messages are kept here, not returned
    /// by `next`.
    pub chat: Vec<Value>,
    /// How many `chat` messages arrived (the first one, after the state, may have no line).
    pub chat_messages: usize,
    /// Whether `next_before` returns `chat` messages too (while `until_chat` waits).
    stop_at_chat: bool,
}

/// Puts an update's fields into `game`: its moves after the first `moves_from` of the game's,
/// every other field in place of the game's.
pub fn apply_update(game: &mut Value, update: &Value) {
    let from = update["moves_from"].as_u64().expect("an update says where its moves go") as usize;
    let mut moves = game["moves"].as_array().expect("a state has moves").clone();
    assert!(from <= moves.len(), "an update's moves from {from} leave a gap after {} moves", moves.len());
    moves.truncate(from);
    moves.extend(update["moves"].as_array().expect("an update has moves").iter().cloned());
    for (key, value) in update.as_object().expect("an update is an object") {
        if key != "moves_from" {
            game[key] = value.clone();
        }
    }
    game["moves"] = Value::Array(moves);
}

impl Client {
    /// Opens a connection and says hello with `token` (none: a spectator's hello).
    pub async fn connect(addr: SocketAddr, id: &str, token: Option<&str>) -> Client {
        let mut client = Client::open(addr, id).await;
        client.send(json!({ "type": "hello", "token": token })).await;
        client
    }

    /// Opens a connection without saying anything.
    pub async fn open(addr: SocketAddr, id: &str) -> Client {
        Client::open_url(&format!("ws://{addr}/api/games/{id}/ws")).await
    }

    pub async fn open_url(url: &str) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(url).await.expect("the WebSocket opens");
        Client::from_stream(ws)
    }

    /// A client of a WebSocket opened otherwise (with a cookie, say).
    pub fn from_stream(ws: WebSocketStream<MaybeTlsStream<TcpStream>>) -> Client {
        Client { ws, game: Value::Null, chat: Vec::new(), chat_messages: 0, stop_at_chat: false }
    }

    pub async fn send_text(&mut self, text: &str) {
        self.ws.send(Message::Text(text.into())).await.expect("sent");
    }

    pub async fn send(&mut self, message: Value) {
        self.send_text(&message.to_string()).await;
    }

    /// Queues a message without flushing (for bursts).
    pub async fn feed(&mut self, text: &str) {
        self.ws.feed(Message::Text(text.into())).await.expect("queued");
    }

    pub async fn flush(&mut self) {
        self.ws.flush().await.expect("flushed");
    }

    pub async fn send_binary(&mut self, bytes: &[u8]) {
        self.ws.send(Message::Binary(bytes.to_vec().into())).await.expect("sent");
    }

    /// The next JSON message from the server.
    pub async fn next(&mut self) -> Value {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        self.next_before(deadline).await.expect("a message within the patience")
    }

    /// The game as the states and updates received so far make it.
    pub fn game(&self) -> &Value {
        &self.game
    }

    /// The next JSON message, or `None` if none comes before `deadline`. A state or an update
    /// is applied to `game` on the way.
    pub async fn next_before(&mut self, deadline: tokio::time::Instant) -> Option<Value> {
        loop {
            let message = tokio::time::timeout_at(deadline, self.ws.next())
                .await
                .ok()?
                .expect("the connection is open")
                .expect("a good frame");
            match message {
                Message::Text(text) => {
                    let message: Value = serde_json::from_str(text.as_str()).expect("the server sends JSON");
                    match message["type"].as_str() {
                        Some("state") => self.game = message["game"].clone(),
                        Some("update") => {
                            assert!(self.game.is_object(), "an update before any state: {message}");
                            apply_update(&mut self.game, &message["game"]);
                        }
                        Some("chat") => {
                            self.chat.extend(message["lines"].as_array().expect("a chat message has lines").iter().cloned());
                            self.chat_messages += 1;
                            if !self.stop_at_chat {
                                continue;
                            }
                        }
                        _ => {}
                    }
                    return Some(message);
                }
                Message::Ping(_) | Message::Pong(_) => continue,
                other => panic!("unexpected frame {other:?}"),
            }
        }
    }

    /// The next message, which must be an error; answers its text.
    pub async fn next_error(&mut self) -> String {
        let message = self.next().await;
        assert_eq!(message["type"], "error", "expected an error, got {message}");
        message["message"].as_str().expect("an error message").to_string()
    }

    /// The next error, past any states and updates that come first (a seat connecting, a
    /// clock); answers its text.
    pub async fn error_after_states(&mut self) -> String {
        loop {
            let message = self.next().await;
            if message["type"] != "state" && message["type"] != "update" {
                assert_eq!(message["type"], "error", "expected an error, got {message}");
                return message["message"].as_str().expect("an error message").to_string();
            }
        }
    }

    /// Reads states and updates until the game satisfies `pred` (error messages are not
    /// expected meanwhile); answers the game then.
    pub async fn until_state(&mut self, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            let Some(message) = self.next_before(deadline).await else {
                panic!("gave up waiting for {what}; the game was {}", self.game);
            };
            assert!(message["type"] == "state" || message["type"] == "update", "while waiting for {what}: {message}");
            if pred(&self.game) {
                return self.game.clone();
            }
        }
    }

    /// The game once it satisfies `pred`: at once if it does already, else as `until_state`.
    pub async fn until_game(&mut self, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        if self.game.is_object() && pred(&self.game) {
            return self.game.clone();
        }
        self.until_state(what, pred).await
    }

    /// Reads messages (states, updates, errors are passed over) until the chat lines received
    /// satisfy `pred`.
    pub async fn until_chat(&mut self, what: &str, pred: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        self.stop_at_chat = true;
        while !pred(&self.chat) {
            if self.next_before(deadline).await.is_none() {
                panic!("gave up waiting for {what}; the chat was {:?}", self.chat);
            }
        }
        self.stop_at_chat = false;
        self.chat.clone()
    }

    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// Reads states until it is `seat`'s turn again after the first `played` moves, or `seat` is
/// out, or the game is over. How many moves that takes is not fixed: a mate takes the mated seat out of the turn
/// order and gives the mating seat the next move, and even random bots sometimes mate.
pub async fn until_turn_after(client: &mut Client, seat: &str, played: usize) -> Value {
    client
        .until_state(&format!("{seat}'s turn after move {played}"), |s| {
            (moves(s).len() > played && s["to_move"] == seat) || seat_entry(s, seat)["active"] == false || !s["outcome"].is_null()
        })
        .await
}

/// Plays one of the seat's legal moves and returns its text. It picks (by `pick`) among the
/// quiet pawn steps when there are any, so that the test player does not throw his game away
/// to the bots before the test is done with it.
pub async fn play_some_move(client: &mut Client, state: &Value, pick: usize) -> String {
    let legal: Vec<&str> =
        state["legal_moves"].as_array().expect("legal moves").iter().map(|m| m.as_str().expect("a move text")).collect();
    assert!(!legal.is_empty(), "no legal move in {state}");
    let quiet: Vec<&str> = legal.iter().copied().filter(|m| m.starts_with('P') && m.contains('-') && !m.ends_with('+')).collect();
    let candidates = if quiet.is_empty() { &legal } else { &quiet };
    let chosen = candidates[pick % candidates.len()].to_string();
    client.send(json!({ "type": "move", "move": chosen })).await;
    chosen
}

/// A fresh PostgreSQL database for this test (and the name to drop afterwards, if it is one
/// of its own), or `None` (with a notice) when none is configured.
pub async fn postgres_url(test: &str) -> Option<(String, Option<String>)> {
    let Ok(url) = std::env::var("POLYSHOGI_TEST_POSTGRES_URL") else {
        if std::env::var("POLYSHOGI_REQUIRE_POSTGRES").as_deref() == Ok("1") {
            panic!("POLYSHOGI_REQUIRE_POSTGRES=1 but POLYSHOGI_TEST_POSTGRES_URL is not set (run scripts/postgres.sh)");
        }
        // Written past the test harness's capture, so that a plain `cargo test` shows it.
        let notice = format!("\nNOTICE: the PostgreSQL {test} test did not run: POLYSHOGI_TEST_POSTGRES_URL is not set (eval \"$(scripts/postgres.sh)\" sets it)\n");
        let _ = std::io::stderr().write_all(notice.as_bytes());
        return None;
    };
    // Each test gets a database of its own, so that games of earlier runs are not resumed.
    let name = format!("polyshogi_test_{}_{}", test, polyshogi_server::tokens::new_game_id());
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&url).await.expect("PostgreSQL answers at POLYSHOGI_TEST_POSTGRES_URL");
    match pool.execute(format!("CREATE DATABASE {name}").as_str()).await {
        Ok(_) => {
            pool.close().await;
            Some((with_database(&url, &name), Some(name)))
        }
        Err(e) => {
            eprintln!("NOTICE: cannot create a database of its own ({e}); {test} uses the one in the URL");
            pool.close().await;
            Some((url, None))
        }
    }
}

/// Drops a test's own database (best effort: a leftover only costs disk in a throwaway cluster).
pub async fn drop_database(name: Option<String>) {
    let (Some(name), Ok(url)) = (name, std::env::var("POLYSHOGI_TEST_POSTGRES_URL")) else { return };
    if let Ok(pool) = sqlx::AnyPool::connect(&url).await {
        if let Err(e) = pool.execute(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)").as_str()).await {
            eprintln!("NOTICE: could not drop {name}: {e}");
        }
        pool.close().await;
    }
}

/// The URL with its database name replaced.
pub fn with_database(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((base, query)) => (base, Some(query)),
        None => (url, None),
    };
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let path_start = base[scheme_end..].find('/').map(|i| scheme_end + i).unwrap_or(base.len());
    let mut out = format!("{}/{name}", &base[..path_start]);
    if let Some(query) = query {
        out.push('?');
        out.push_str(query);
    }
    out
}
