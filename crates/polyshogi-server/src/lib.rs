//! polyshogi-server: the web API of docs/API.md over axum — lobby, rooms, seats, clocks, bots
//! and spectators — with every game stored in SQLite or PostgreSQL through sqlx.
//!
//! Each live game has one owner task (`room`) that holds its state, stores every action before
//! it is broadcast, runs the clocks and starts the bots on the blocking pool. Storage sits
//! behind the `Store` trait, so other back ends (or several server processes) need no rewrite.

pub mod api;
pub mod app;
pub mod bots;
pub mod move_log;
pub mod record;
pub mod room;
pub mod rooms;
pub mod store;
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
use crate::room::now_ms;
use crate::rooms::Rooms;
use crate::store::{SqlStore, Store, StoreError};
use crate::tokens::new_game_id;
use crate::uptime::Uptime;

/// The defaults of `polyshogi serve`.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";
pub const DEFAULT_DATABASE: &str = "sqlite:polyshogi.db";
pub use crate::room::{RoomSettings, DEFAULT_FIRST_MOVE_TIME, DEFAULT_IDLE_TIME};

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

/// How often the server looks for games to wake (a clock to fall, a bot to move).
const WAKE_EVERY: Duration = Duration::from_secs(1);

/// A running server: its address, and the tasks to stop.
pub struct Server {
    addr: SocketAddr,
    app: Arc<App>,
    serving: JoinHandle<()>,
    background: Vec<JoinHandle<()>>,
}

impl Server {
    /// Opens the database (running its migrations) and starts answering on `addr` (port 0
    /// picks a free port). No game is loaded before one is asked for or has something to do by
    /// itself (a clock to fall, a bot to move): those are woken in the background.
    pub async fn start(addr: &str, database: &str) -> Result<Server, ServerError> {
        Server::start_with(addr, database, RoomSettings::default()).await
    }

    /// `start`, with how the games are run.
    pub async fn start_with(addr: &str, database: &str, settings: RoomSettings) -> Result<Server, ServerError> {
        let store: Arc<dyn Store> = Arc::new(SqlStore::connect(database).await?);
        let run = new_game_id();
        let started_ms = now_ms();
        let uptime = Uptime::new(store.start_run(&run, started_ms).await?, started_ms);
        let app = Arc::new(App { rooms: Rooms::new(store.clone(), settings, uptime) });
        let keeping_alive = tokio::spawn(uptime::keep_alive(store, run));
        let waking = tokio::spawn({
            let app = app.clone();
            async move {
                let mut every = tokio::time::interval(WAKE_EVERY);
                loop {
                    every.tick().await;
                    if let Err(e) = app.rooms.wake_due().await {
                        tracing::error!("could not look for games to wake: {e}");
                    }
                }
            }
        });
        let listener = TcpListener::bind(addr).await.map_err(|error| ServerError::Bind { addr: addr.to_string(), error })?;
        let addr = listener.local_addr().map_err(ServerError::Io)?;
        let router = api::router(app.clone());
        let serving = tokio::spawn(async move {
            if let Err(e) = axum::serve(listener, router).await {
                tracing::error!("the server stopped: {e}");
            }
        });
        Ok(Server { addr, app, serving, background: vec![keeping_alive, waking] })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
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
pub fn run(addr: &str, database: &str, first_move_time: Duration) -> Result<(), ServerError> {
    let filter =
        tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).try_init();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(ServerError::Io)?;
    runtime.block_on(async {
        let server = Server::start_with(addr, database, RoomSettings { first_move_time, ..RoomSettings::default() }).await?;
        info!("polyshogi serving on http://{} (database {database})", server.addr());
        println!("polyshogi serving on http://{}", server.addr());
        stop_signal().await;
        info!("stopping");
        server.stop();
        Ok(())
    })
}
