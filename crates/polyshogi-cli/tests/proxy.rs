//! The reverse-proxy configuration of docs/DEPLOY.md ("The reverse proxy for several
//! instances"), run as written in a real nginx in front of two `polyshogi serve` processes on
//! one PostgreSQL: a game against a bot is played through the proxy, one process is killed
//! with SIGKILL mid-game, and the game goes on through the proxy with every acknowledged move.
//!
//! Needs `POLYSHOGI_TEST_POSTGRES_URL` (scripts/postgres.sh) and `POLYSHOGI_TEST_NGINX`
//! (scripts/nginx.sh); without them the test says so and passes, unless
//! `POLYSHOGI_REQUIRE_POSTGRES=1` (as `.ci/run` sets).

use std::io::{BufRead, BufReader, Write};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use sqlx::Executor;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// How long the test waits for something that should happen before it fails: not a timing
/// assertion, only a way not to hang.
const PATIENCE: Duration = Duration::from_secs(90);

/// The environment the test needs, or `None` (with a notice) when it is not there.
fn required(name: &str) -> Option<String> {
    match std::env::var(name) {
        Ok(value) => Some(value),
        Err(_) if std::env::var("POLYSHOGI_REQUIRE_POSTGRES").as_deref() == Ok("1") => {
            panic!("{name} is not set (scripts/postgres.sh and scripts/nginx.sh set it; .ci/run runs both)")
        }
        Err(_) => {
            let notice = format!("\nNOTICE: the reverse-proxy test did not run: {name} is not set\n");
            let _ = std::io::stderr().write_all(notice.as_bytes());
            None
        }
    }
}

/// The database of this test's own on the PostgreSQL at `url`.
const DATABASE: &str = "polyshogi_test_proxy";

/// Runs `sql` on the PostgreSQL at `url`.
async fn run_sql(url: &str, sql: &str) {
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(url).await.expect("PostgreSQL answers");
    pool.execute(sql).await.unwrap_or_else(|e| panic!("{sql}: {e}"));
    pool.close().await;
}

/// A new, empty database of the test's own on the PostgreSQL at `url`; answers its URL.
async fn fresh_database(url: &str) -> String {
    run_sql(url, &format!("DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")).await;
    run_sql(url, &format!("CREATE DATABASE {DATABASE}")).await;
    let (base, query) = url.split_once('?').map_or((url, None), |(b, q)| (b, Some(q)));
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let server = base[scheme_end..].find('/').map_or(base, |i| &base[..scheme_end + i]);
    format!("{server}/{DATABASE}{}", query.map(|q| format!("?{q}")).unwrap_or_default())
}

/// A child process killed when dropped.
struct Process(Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `polyshogi serve` on a free port; answers it and its address.
fn start_instance(database: &str) -> (Process, SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_polyshogi"))
        .args(["serve", "--addr", "127.0.0.1:0", "--trust-proxy", "--database", database])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .spawn()
        .expect("polyshogi serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("its output")).read_line(&mut line).expect("its first line");
    let addr = line.trim().rsplit("http://").next().and_then(|a| a.parse().ok());
    (Process(child), addr.unwrap_or_else(|| panic!("`polyshogi serve` printed {line:?}")))
}

/// The nginx block of docs/DEPLOY.md, its upstreams and port replaced by the test's.
fn documented_configuration(instances: [SocketAddr; 2], port: u16) -> String {
    let deploy = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/DEPLOY.md")).expect("DEPLOY.md");
    let marker = deploy.find("<!-- the nginx block below is the one").expect("the marked block in DEPLOY.md");
    let block = deploy[marker..].split("```nginx\n").nth(1).and_then(|b| b.split("```").next()).expect("an nginx block");
    for expected in ["127.0.0.1:8081", "127.0.0.1:8082", "listen 8080;"] {
        assert!(block.contains(expected), "DEPLOY.md's block no longer has `{expected}`");
    }
    block
        .replace("127.0.0.1:8081", &instances[0].to_string())
        .replace("127.0.0.1:8082", &instances[1].to_string())
        .replace("listen 8080;", &format!("listen 127.0.0.1:{port};"))
}

/// Runs nginx with `http` as its `http` block, in a directory of its own, in the foreground.
fn start_nginx(binary: &str, dir: &Path, http: &str) -> Process {
    let d = dir.display();
    let configuration = format!(
        "daemon off;\nmaster_process off;\npid {d}/nginx.pid;\nerror_log {d}/error.log;\nevents {{ worker_connections 256; }}\n\
         http {{\n  access_log off;\n  client_body_temp_path {d}/body;\n  proxy_temp_path {d}/proxy;\n  fastcgi_temp_path {d}/fastcgi;\n  \
         uwsgi_temp_path {d}/uwsgi;\n  scgi_temp_path {d}/scgi;\n{http}\n}}\n"
    );
    let path = dir.join("nginx.conf");
    std::fs::write(&path, configuration).expect("the configuration written");
    let child =
        Command::new(binary).args(["-p", &d.to_string(), "-c", &path.display().to_string()]).spawn().expect("nginx starts");
    Process(child)
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").expect("a free port").local_addr().expect("its address").port()
}

/// A player's WebSocket through the proxy, keeping the game as states and updates make it.
struct Player {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    game: Value,
}

impl Player {
    async fn connect(proxy: &str, id: &str, token: &str) -> Player {
        let (mut ws, _) =
            tokio_tungstenite::connect_async(format!("ws://{proxy}/api/games/{id}/ws")).await.expect("the WebSocket opens");
        ws.send(Message::Text(json!({ "type": "hello", "token": token }).to_string().into())).await.expect("hello sent");
        Player { ws, game: Value::Null }
    }

    /// Reads until the game satisfies `done`; `None` if the connection closes first.
    async fn until(&mut self, what: &str, done: impl Fn(&Value) -> bool) -> Option<Value> {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        while !(self.game.is_object() && done(&self.game)) {
            let frame =
                tokio::time::timeout_at(deadline, self.ws.next()).await.unwrap_or_else(|_| panic!("gave up waiting for {what}"));
            let text = match frame {
                Some(Ok(Message::Text(text))) => text,
                Some(Ok(_)) => continue,
                // Closed: the instance behind it was killed.
                _ => return None,
            };
            let message: Value = serde_json::from_str(text.as_str()).expect("JSON");
            match message["type"].as_str() {
                Some("state") => self.game = message["game"].clone(),
                Some("update") => apply_update(&mut self.game, &message["game"]),
                // The chat's lines change no move.
                Some("chat") => {}
                _ => panic!("while waiting for {what}: {message}"),
            }
        }
        Some(self.game.clone())
    }

    /// Plays a quiet pawn step if there is one (so that the bot does not win too soon).
    async fn play(&mut self, pick: usize) {
        let legal: Vec<&str> =
            self.game["legal_moves"].as_array().expect("legal moves").iter().filter_map(Value::as_str).collect();
        let quiet: Vec<&str> = legal.iter().copied().filter(|m| m.starts_with('P') && m.contains('-')).collect();
        let choices = if quiet.is_empty() { &legal } else { &quiet };
        let chosen = choices[pick % choices.len()];
        self.ws.send(Message::Text(json!({ "type": "move", "move": chosen }).to_string().into())).await.expect("the move sent");
    }
}

fn apply_update(game: &mut Value, update: &Value) {
    let from = update["moves_from"].as_u64().expect("moves_from") as usize;
    let mut moves = game["moves"].as_array().expect("moves").clone();
    moves.truncate(from);
    moves.extend(update["moves"].as_array().expect("moves").iter().cloned());
    for (key, value) in update.as_object().expect("an object") {
        game[key] = value.clone();
    }
    game["moves"] = Value::Array(moves);
}

fn move_texts(game: &Value) -> Vec<String> {
    game["moves"].as_array().expect("moves").iter().map(|m| m["move"].as_str().expect("a move").to_string()).collect()
}

#[test]
fn two_instances_behind_the_documented_nginx_carry_a_game_past_a_kill() {
    let (Some(postgres), Some(nginx)) = (required("POLYSHOGI_TEST_POSTGRES_URL"), required("POLYSHOGI_TEST_NGINX")) else {
        return;
    };
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("a runtime");
    let database = runtime.block_on(fresh_database(&postgres));
    let (instance_a, addr_a) = start_instance(&database);
    let (_instance_b, addr_b) = start_instance(&database);
    let dir = tempfile::tempdir().expect("a directory for nginx");
    let port = free_port();
    let _nginx = start_nginx(&nginx, dir.path(), &documented_configuration([addr_a, addr_b], port));
    let proxy = format!("127.0.0.1:{port}");

    runtime.block_on(async move {
        let http = reqwest::Client::new();
        let deadline = tokio::time::Instant::now() + PATIENCE;
        // nginx answers once it listens.
        while http.get(format!("http://{proxy}/api/variants")).send().await.map(|r| r.status().is_success()).ok() != Some(true) {
            assert!(tokio::time::Instant::now() < deadline, "nginx never answered");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let body = json!({ "variant": "hexshogi91", "seats": [{ "kind": "human" }, { "kind": "bot", "level": "beginner" }] });
        let created: Value =
            http.post(format!("http://{proxy}/api/games")).json(&body).send().await.expect("created").json().await.expect("JSON");
        let id = created["id"].as_str().expect("an id").to_string();
        let token = created["seats"][0]["token"].as_str().expect("a token").to_string();

        // Two moves each through the proxy: the human first, the bot answering.
        let mut player = Player::connect(&proxy, &id, &token).await;
        let human =
            player.until("the first state", |_| true).await.expect("a state")["you"].as_str().expect("a seat").to_string();
        for pick in 0..2 {
            player.until("the human's turn", |g| g["to_move"] == human.as_str()).await.expect("open");
            player.play(pick).await;
            player
                .until("the bot's answer", |g| move_texts(g).len() == 2 * pick + 2 && g["to_move"] == human.as_str())
                .await
                .expect("open");
        }
        // The human's third move is acknowledged; then one instance is killed at once.
        player.play(2).await;
        let acknowledged = player.until("the third move", |g| move_texts(g).len() >= 5).await.expect("open");
        drop(instance_a);

        // Every request through the proxy is answered: those it sends to the killed instance
        // go to the other.
        for _ in 0..4 {
            let response = http.get(format!("http://{proxy}/api/games/{id}")).send().await.expect("an answer");
            assert!(response.status().is_success(), "through the proxy after the kill: {}", response.status());
        }
        // The page reconnects through the proxy, as a browser's does, and plays on.
        let mut player = Player::connect(&proxy, &id, &token).await;
        let state = player.until("the bot's answer after the kill", |g| move_texts(g).len() == 6).await.expect("open");
        assert_eq!(move_texts(&state)[..5], move_texts(&acknowledged)[..5], "an acknowledged move was lost");
        for pick in 3..5 {
            player.until("the human's turn", |g| g["to_move"] == human.as_str()).await.expect("open");
            player.play(pick).await;
            player.until("the bot's answer", |g| move_texts(g).len() == 2 * pick + 2).await.expect("open");
        }
        // The game as stored, read through the proxy, is the one played.
        let stored: Value =
            http.get(format!("http://{proxy}/api/games/{id}")).send().await.expect("read").json().await.expect("JSON");
        assert_eq!(move_texts(&stored), move_texts(&player.game));
    });
    runtime.block_on(run_sql(&postgres, &format!("DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")));
}
