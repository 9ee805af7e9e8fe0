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
use crate::rooms::Rooms;
use crate::store::{SqlStore, StoreError};

/// The defaults of `polyshogi serve`.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";
pub const DEFAULT_DATABASE: &str = "sqlite:polyshogi.db";
pub use crate::room::DEFAULT_FIRST_MOVE_TIME;

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
}

impl Server {
    /// Opens the database (running its migrations), resumes every unfinished game, and starts
    /// answering on `addr` (port 0 picks a free port).
    pub async fn start(addr: &str, database: &str) -> Result<Server, ServerError> {
        Server::start_with(addr, database, DEFAULT_FIRST_MOVE_TIME).await
    }

    /// `start`, with the time a human seat has for its first move before a timed game is aborted.
    pub async fn start_with(addr: &str, database: &str, first_move_time: Duration) -> Result<Server, ServerError> {
        let store = SqlStore::connect(database).await?;
        let app = Arc::new(App { rooms: Rooms::new(Arc::new(store), first_move_time) });
        app.rooms.resume_unfinished().await?;
        let listener = TcpListener::bind(addr).await.map_err(|error| ServerError::Bind { addr: addr.to_string(), error })?;
        let addr = listener.local_addr().map_err(ServerError::Io)?;
        let router = api::router(app.clone());
        let serving = tokio::spawn(async move {
            if let Err(e) = axum::serve(listener, router).await {
                tracing::error!("the server stopped: {e}");
            }
        });
        Ok(Server { addr, app, serving })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stops answering and stops every game owner. Nothing is lost: every action was stored
    /// when it was taken.
    pub fn stop(self) {
        self.serving.abort();
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
        let server = Server::start_with(addr, database, first_move_time).await?;
        info!("polyshogi serving on http://{} (database {database})", server.addr());
        println!("polyshogi serving on http://{}", server.addr());
        stop_signal().await;
        info!("stopping");
        server.stop();
        Ok(())
    })
}
