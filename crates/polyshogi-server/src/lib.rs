//! polyshogi-server: the web API of docs/API.md over axum — lobby, rooms, seats, clocks, bots
//! and spectators — with every game stored in SQLite or PostgreSQL through sqlx.
//!
//! Each live game has one owner task (`room`) that holds its state, stores every action before
//! it is broadcast, runs the clocks and starts the bots on the blocking pool. Storage sits
//! behind the `Store` trait. Several server processes may share one PostgreSQL: they hear of
//! each other's actions through it (`store::Change`), and each game's timers and bots run in
//! one of them (`instances`).

pub mod accounts;
pub mod analysis;
pub mod api;
pub mod app;
pub mod archive;
pub mod bots;
pub mod chat;
pub mod client;
pub mod diagram;
pub mod diagram_api;
pub mod instances;
pub mod json;
pub mod json_body;
pub mod json_errors;
pub mod limits;
pub mod lobby;
pub mod move_log;
pub mod rate_limits;
pub mod ratings;
pub mod record;
pub mod review;
pub mod room;
pub mod rooms;
pub mod rule_list;
pub mod serve;
pub mod settle;
pub mod store;
pub mod study;
pub mod table;
pub mod tokens;
pub mod uptime;
pub mod variants;
pub mod web;
pub mod wire;
pub mod ws;

use std::fmt;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::task::JoinHandle;
use tracing::info;

use crate::app::App;
use crate::lobby::Lobby;
use crate::rate_limits::RateLimits;
use crate::review::Reviews;
use crate::room::now_ms;
use crate::rooms::Rooms;
use crate::store::{SqlStore, Store, StoreError};
use crate::tokens::new_game_id;
use crate::uptime::{Uptime, KEEP_ALIVE_EVERY};

/// The defaults of `polyshogi serve`.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";
pub const DEFAULT_DATABASE: &str = "sqlite:polyshogi.db";
pub use crate::limits::{Limits, Rate};
pub use crate::room::{RoomSettings, DEFAULT_FIRST_MOVE_TIME, DEFAULT_IDLE_TIME, DEFAULT_OPEN_TIME};

/// How often the rate limiters forget the seats and addresses they no longer hold back.
const FORGET_IDLE_EVERY: Duration = Duration::from_secs(60);
/// How often the server looks for games to wake (a clock to fall, a bot to move), and for the
/// other server processes on the database.
const WAKE_EVERY: Duration = Duration::from_secs(1);

/// What a server is started with. `ServerConfig::new` has the defaults of `polyshogi serve`.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// The address to listen on (port 0 picks a free port).
    pub addr: String,
    /// `sqlite:FILE` or `postgres://…`.
    pub database: String,
    /// How games are run: the time for a first move, how long an idle game stays in memory.
    pub rooms: RoomSettings,
    pub limits: Limits,
}

impl ServerConfig {
    pub fn new(addr: &str, database: &str) -> ServerConfig {
        ServerConfig {
            addr: addr.to_string(),
            database: database.to_string(),
            rooms: RoomSettings::default(),
            limits: Limits::default(),
        }
    }
}

/// Why the server could not start.
#[derive(Debug)]
pub enum ServerError {
    Store(StoreError),
    Bind { addr: String, error: std::io::Error },
    Io(std::io::Error),
}

impl fmt::Display for ServerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServerError::Store(e) => write!(f, "{e}"),
            ServerError::Bind { addr, error } => write!(f, "cannot listen on {addr}: {error}"),
            ServerError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ServerError {}

impl From<StoreError> for ServerError {
    fn from(e: StoreError) -> Self {
        ServerError::Store(e)
    }
}

/// A running server: its address, and the tasks to stop.
pub struct Server {
    addr: SocketAddr,
    app: Arc<App>,
    serving: JoinHandle<()>,
    /// Forgetting idle rate limiters, waking games, noting that the server is alive, keeping
    /// the lobby's list fresh, hearing the other server processes on the database.
    background: Vec<JoinHandle<()>>,
}

impl Server {
    /// Opens the database (running its migrations) and starts answering on `addr` (port 0
    /// picks a free port), with the default limits. No game is loaded before one is asked for
    /// or has something to do by itself (a clock to fall, a bot to move): those are woken in
    /// the background.
    pub async fn start(addr: &str, database: &str) -> Result<Server, ServerError> {
        Server::start_with(ServerConfig::new(addr, database)).await
    }

    /// `start`, with everything `config` says.
    pub async fn start_with(config: ServerConfig) -> Result<Server, ServerError> {
        let ServerConfig { addr, database, rooms, limits } = config;
        let store: Arc<dyn Store> = Arc::new(SqlStore::connect(&database).await?);
        let run = new_game_id();
        let started_ms = now_ms();
        let uptime = Uptime::new(store.start_run(&run, started_ms).await?, started_ms);
        let rate_limits = RateLimits::new(&limits);
        let lobby = Arc::new(Lobby::new(store.clone()));
        let app = Arc::new(App {
            rooms: Rooms::new(store.clone(), rooms, uptime),
            lobby: lobby.clone(),
            limits: limits.clone(),
            rate_limits,
            analysers: Default::default(),
            reviews: Reviews::start(store.clone(), limits.review_nodes),
        });
        // Before answering anyone: which games are this process's to run.
        app.rooms.refresh_instances().await?;
        let hearing = store.take_changes().map(|mut changes| {
            let app = app.clone();
            tokio::spawn(async move {
                while let Some(change) = changes.recv().await {
                    app.rooms.heard(change).await;
                }
            })
        });
        let listener = TcpListener::bind(&addr).await.map_err(|error| ServerError::Bind { addr: addr.clone(), error })?;
        let addr = listener.local_addr().map_err(ServerError::Io)?;
        let serving = tokio::spawn(serve::serve(listener, api::router(app.clone()), limits));
        let forgetting = spawn_every(FORGET_IDLE_EVERY, {
            let app = app.clone();
            move || {
                app.rate_limits.forget_idle();
                std::future::ready(())
            }
        });
        let keeping_alive = spawn_every(KEEP_ALIVE_EVERY, move || uptime::keep_alive(store.clone(), run.clone()));
        let waking = spawn_every(WAKE_EVERY, {
            let app = app.clone();
            move || {
                let app = app.clone();
                async move {
                    if let Err(e) = app.rooms.refresh_instances().await {
                        tracing::error!("could not look for the other server processes: {e}");
                    }
                    if let Err(e) = app.rooms.wake_due().await {
                        tracing::error!("could not look for games to wake: {e}");
                    }
                }
            }
        });
        let listing = tokio::spawn(lobby.run());
        let background = [forgetting, keeping_alive, waking, listing].into_iter().chain(hearing).collect();
        Ok(Server { addr, app, serving, background })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// This process's name among the server processes on the database.
    pub fn instance(&self) -> &str {
        self.app.rooms.store().instance()
    }

    /// How many games are in memory (the others are only in storage).
    pub fn games_in_memory(&self) -> usize {
        self.app.rooms.live_count()
    }

    /// Stops answering and stops every game owner. Nothing is lost: every action was stored
    /// when it was taken.
    pub fn stop(self) {
        self.serving.abort();
        for task in &self.background {
            task.abort();
        }
        self.app.rooms.abort_all();
    }
}

/// Runs `task` every `period` (the first time at once) for as long as the server runs.
fn spawn_every<F, T>(period: Duration, task: F) -> JoinHandle<()>
where
    F: Fn() -> T + Send + 'static,
    T: std::future::Future<Output = ()> + Send + 'static,
{
    tokio::spawn(async move {
        let mut every = tokio::time::interval(period);
        loop {
            every.tick().await;
            task().await;
        }
    })
}

/// Ctrl-C, or (on Unix) SIGTERM.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}

/// `polyshogi serve`: runs the server until Ctrl-C (or SIGTERM).
pub fn run(config: ServerConfig) -> Result<(), ServerError> {
    let filter =
        tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).try_init();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(ServerError::Io)?;
    runtime.block_on(async {
        let database = config.database.clone();
        let server = Server::start_with(config).await?;
        info!("polyshogi serving on http://{} (database {database})", server.addr());
        println!("polyshogi serving on http://{}", server.addr());
        stop_signal().await;
        info!("stopping");
        server.stop();
        Ok(())
    })
}
