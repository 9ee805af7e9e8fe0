//! The lobby: the open games (a seat anyone may take), over HTTP and live over a WebSocket.
//!
//! The list is read from the database, so that every server process on it shows the same
//! one. One task per process reads it again each second while anyone watches (and at once
//! when a game is opened or a seat taken here), and sends it only when it changed: the cost
//! is one query a second per process, however many watch.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use polyshogi::player::Player;
use polyshogi::variant::Variant;
use tokio::sync::{watch, Notify};
use tokio::time::{interval_at, Instant};
use tracing::error;

use crate::app::{error_response, AppState};
use crate::room::now_ms;
use crate::store::{ListedGame, Store, StoreError};
use crate::wire;
use crate::ws::PING_EVERY;

/// How often the list is read again while anyone watches.
const REFRESH_EVERY: Duration = Duration::from_secs(1);

pub struct Lobby {
    store: Arc<dyn Store>,
    /// The latest `lobby` message, serialized once for every watcher.
    latest: watch::Sender<Utf8Bytes>,
    changed_here: Notify,
}

impl Lobby {
    pub fn new(store: Arc<dyn Store>) -> Lobby {
        let (latest, _) = watch::channel(Utf8Bytes::from_static(""));
        Lobby { store, latest, changed_here: Notify::new() }
    }

    /// Something the lobby shows changed in this process: the list is read again now.
    pub fn changed(&self) {
        self.changed_here.notify_one();
    }

    /// The open games now, newest first.
    pub async fn games(&self) -> Result<Vec<wire::LobbyGame>, StoreError> {
        Ok(self.store.open_games(now_ms()).await?.into_iter().filter_map(lobby_game).collect())
    }

    /// Reads the list and sends it to the watchers if it changed.
    async fn refresh(&self) -> Result<(), StoreError> {
        let games = self.games().await?;
        let message = wire::LobbyMessage::Lobby { games };
        // The wire types have only text keys, so writing them cannot fail.
        let text = Utf8Bytes::from(serde_json::to_string(&message).expect("the lobby is JSON"));
        self.latest.send_if_modified(|latest| {
            let changed = *latest != text;
            *latest = text;
            changed
        });
        Ok(())
    }

    /// Keeps the list fresh for as long as the server runs.
    pub async fn run(self: Arc<Self>) {
        loop {
            tokio::select! {
                _ = self.changed_here.notified() => {}
                _ = tokio::time::sleep(REFRESH_EVERY) => {}
            }
            if self.latest.receiver_count() > 0 {
                if let Err(e) = self.refresh().await {
                    error!("cannot read the open games: {e}");
                }
            }
        }
    }
}

/// An open game as the lobby shows it; `None` for a game of no playable variant.
fn lobby_game(game: ListedGame) -> Option<wire::LobbyGame> {
    let variant: Variant = game.variant.parse().ok()?;
    let seats = variant
        .seats()
        .iter()
        .zip(game.seats)
        .map(|(&seat, listed)| wire::ListedSeat {
            seat: variant.seat_name(seat).to_string(),
            kind: listed.kind,
            player: listed.player.map(|(name, rating)| wire::SeatPlayer { name, rating: rating.shown() }),
            level: listed.level,
        })
        .collect();
    Some(wire::LobbyGame {
        id: game.id,
        variant: game.variant,
        rated: game.rated,
        rules: game.rules,
        clock: game.clock.map(|(initial_ms, increment_ms)| wire::Clock { initial_ms, increment_ms }),
        created_ms: game.created_ms,
        expires_ms: game.open_until_ms.unwrap_or(game.created_ms),
        seats,
    })
}

/// The variant a `?variant=` names, or the error to answer with `400`.
pub fn variant_filter(query: &HashMap<String, String>) -> Result<Option<Variant>, String> {
    match query.get("variant").filter(|v| !v.is_empty()) {
        None => Ok(None),
        Some(name) => name.parse::<Variant>().map(Some).map_err(|_| format!("variant: no playable variant `{name}`")),
    }
}

/// `GET /api/lobby`.
pub async fn open_games(State(app): State<AppState>, Query(query): Query<HashMap<String, String>>) -> Response {
    let variant = match variant_filter(&query) {
        Ok(variant) => variant,
        Err(message) => return error_response(StatusCode::BAD_REQUEST, message),
    };
    match app.lobby.games().await {
        Ok(mut games) => {
            games.retain(|g| variant.is_none_or(|v| g.variant == v.name()));
            Json(wire::Lobby { games }).into_response()
        }
        Err(e) => {
            error!("cannot read the open games: {e}");
            error_response(StatusCode::INTERNAL_SERVER_ERROR, "the open games cannot be read now")
        }
    }
}

/// `GET /api/lobby/ws`: the list at once, then each time it changes.
pub async fn watch_lobby(ws: WebSocketUpgrade, State(app): State<AppState>) -> Response {
    ws.max_message_size(1024).on_upgrade(move |socket| watching(socket, app))
}

async fn watching(mut socket: WebSocket, app: AppState) {
    let mut latest = app.lobby.latest.subscribe();
    // The list may be old if nobody watched: read now, before the first message.
    if let Err(e) = app.lobby.refresh().await {
        error!("cannot read the open games: {e}");
    }
    let mut ping = interval_at(Instant::now() + PING_EVERY, PING_EVERY);
    loop {
        let text = latest.borrow_and_update().clone();
        if !text.is_empty() && socket.send(Message::Text(text)).await.is_err() {
            return;
        }
        loop {
            tokio::select! {
                changed = latest.changed() => {
                    if changed.is_err() {
                        return;
                    }
                    break;
                }
                incoming = socket.recv() => match incoming {
                    // The client says nothing; anything it sends is ignored, a close ends it.
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => return,
                    Some(Ok(_)) => {}
                },
                // Draws the browser's pongs, which keep the connection within the idle timeout.
                _ = ping.tick() => {
                    if socket.send(Message::Ping(Vec::new().into())).await.is_err() {
                        return;
                    }
                }
            }
        }
    }
}

/// A seat name of `variant` as a player, if it is one.
pub fn seat_named(variant: Variant, name: &str) -> Option<Player> {
    variant.seats().iter().copied().find(|&p| variant.seat_name(p).eq_ignore_ascii_case(name))
}
