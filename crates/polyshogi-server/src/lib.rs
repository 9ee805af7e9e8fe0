//! polyshogi-server: the web API of docs/API.md over axum — lobby, rooms, seats, clocks, bots
//! and spectators — with every game stored in SQLite or PostgreSQL through sqlx.
//!
//! Each live game has one owner task (`room`) that holds its state, stores every action before
//! it is broadcast, runs the clocks and starts the bots on the blocking pool. Storage sits
//! behind the `Store` trait, so other back ends (or several server processes) need no rewrite.

pub mod api;
pub mod app;
pub mod bots;
pub mod client;
pub mod json;
pub mod json_body;
pub mod json_errors;
pub mod limits;
pub mod rate_limits;
pub mod record;
pub mod room;
pub mod rooms;
pub mod rule_list;
pub mod serve;
pub mod store;
pub mod table;
pub mod tokens;
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
use crate::rate_limits::RateLimits;
use crate::rooms::Rooms;
use crate::store::{SqlStore, StoreError};

/// The defaults of `polyshogi serve`.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";
pub const DEFAULT_DATABASE: &str = "sqlite:polyshogi.db";
pub use crate::limits::{Limits, Rate};
pub use crate::room::DEFAULT_FIRST_MOVE_TIME;

/// How often the rate limiters forget the seats and addresses they no longer hold back.
const FORGET_IDLE_EVERY: Duration = Duration::from_secs(60);

/// What a server is started with. `ServerConfig::new` has the defaults of `polyshogi serve`.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// The address to listen on (port 0 picks a free port).
    pub addr: String,
    /// `sqlite:FILE` or `postgres://…`.
    pub database: String,
    /// The time a human seat has for its first move before a timed game is aborted.
    pub first_move_time: Duration,
    pub limits: Limits,
}

impl ServerConfig {
    pub fn new(addr: &str, database: &str) -> ServerConfig {
        ServerConfig {
            addr: addr.to_string(),
            database: database.to_string(),
            first_move_time: DEFAULT_FIRST_MOVE_TIME,
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
    forgetting: JoinHandle<()>,
}

impl Server {
    /// Opens the database (running its migrations), resumes every unfinished game, and starts
    /// answering on `addr` (port 0 picks a free port), with the default limits.
    pub async fn start(addr: &str, database: &str) -> Result<Server, ServerError> {
        Server::start_with(ServerConfig::new(addr, database)).await
    }

    /// `start`, with everything `config` says.
    pub async fn start_with(config: ServerConfig) -> Result<Server, ServerError> {
        let ServerConfig { addr, database, first_move_time, limits } = config;
        let store = SqlStore::connect(&database).await?;
        let rate_limits = RateLimits::new(&limits);
        let app = Arc::new(App { rooms: Rooms::new(Arc::new(store), first_move_time), limits: limits.clone(), rate_limits });
        app.rooms.resume_unfinished().await?;
        let listener = TcpListener::bind(&addr).await.map_err(|error| ServerError::Bind { addr: addr.clone(), error })?;
        let addr = listener.local_addr().map_err(ServerError::Io)?;
        let serving = tokio::spawn(serve::serve(listener, api::router(app.clone()), limits));
        let forgetting = tokio::spawn({
            let app = app.clone();
            async move {
                let mut every = tokio::time::interval(FORGET_IDLE_EVERY);
                loop {
                    every.tick().await;
                    app.rate_limits.forget_idle();
                }
            }
        });
        Ok(Server { addr, app, serving, forgetting })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stops answering and stops every game owner. Nothing is lost: every action was stored
    /// when it was taken.
    pub fn stop(self) {
        self.serving.abort();
        self.forgetting.abort();
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
