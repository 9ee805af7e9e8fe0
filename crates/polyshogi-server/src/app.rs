//! What every request handler shares: the application state (the live rooms, the lobby, the
//! limits and their rate limiters), the lookup of a game's room, and the JSON error answer.

use std::sync::Arc;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use tracing::error;

use crate::analysis::Analysers;
use crate::limits::Limits;
use crate::lobby::Lobby;
use crate::rate_limits::RateLimits;
use crate::review::Reviews;
use crate::room::RoomHandle;
use crate::rooms::{RoomError, Rooms};
use crate::wire::ErrorBody;

/// What every request handler shares.
pub struct App {
    pub rooms: Rooms,
    pub lobby: Arc<Lobby>,
    pub limits: Limits,
    pub rate_limits: RateLimits,
    pub analysers: Analysers,
    pub reviews: Arc<Reviews>,
}

pub type AppState = Arc<App>;

/// An error answer: `{ "error": "…" }`.
pub fn error_response(status: StatusCode, message: impl Into<String>) -> Response {
    (status, Json(ErrorBody { error: message.into() })).into_response()
}

/// The live game `id`, or the answer to give instead.
pub async fn find_room(app: &App, id: &str) -> Result<RoomHandle, Response> {
    match app.rooms.get(id).await {
        Ok(Some(room)) => Ok(room),
        Ok(None) | Err(RoomError::NotFound) => Err(error_response(StatusCode::NOT_FOUND, format!("no game `{id}`"))),
        Err(e) => {
            error!(game = %id, "cannot open game: {e}");
            Err(error_response(StatusCode::INTERNAL_SERVER_ERROR, "the game cannot be opened"))
        }
    }
}
