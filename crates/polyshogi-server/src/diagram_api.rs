//! The pictures of docs/API.md: `GET /api/diagram.svg?position=…` draws a position string, and
//! `GET /api/games/{id}/positions/{ply}/diagram.svg` a game's position after a move.

use std::collections::HashMap;

use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use polyshogi::variant::{AnyGame, NewGameError, Variant};

use crate::app::{error_response, find_room, AppState};
use crate::diagram::{self, DiagramOptions, DiagramPosition};

/// The longest query read: a Sannin position string is about 300 characters, a move text 40,
/// so even written with every character escaped they fit.
pub const MAX_QUERY: usize = 2000;

/// `GET /api/diagram.svg?position=…[&seat=…][&last=…][&coordinates=off][&pieces=kanji]`.
pub async fn position_diagram(uri: Uri) -> Response {
    let query = match read_query(&uri) {
        Ok(query) => query,
        Err((status, message)) => return error_response(status, message),
    };
    let Some(text) = query.get("position").filter(|text| !text.trim().is_empty()) else {
        return bad_request("position: missing (a position string of docs/FORMATS.md, URL-encoded)");
    };
    let game = match AnyGame::from_position_text::<&str>(text.trim(), &[]) {
        Ok(game) => game,
        // A misread string's error names the position and the column already.
        Err(NewGameError::Position(e)) => return bad_request(e.to_string()),
        Err(e) => return bad_request(format!("position: {e}")),
    };
    let options = match options(game.variant(), &query) {
        Ok(options) => options,
        Err(message) => return bad_request(message),
    };
    match DiagramPosition::current(&game, query.get("last").map(String::as_str)) {
        Ok(position) => svg_answer(diagram::svg(&position, &options)),
        Err(e) => bad_request(format!("last: {e}")),
    }
}

/// `GET /api/games/{id}/positions/{ply}/diagram.svg[?seat=…][&coordinates=off][&pieces=kanji]`.
pub async fn game_diagram(State(app): State<AppState>, Path((id, ply)): Path<(String, String)>, uri: Uri) -> Response {
    let query = match read_query(&uri) {
        Ok(query) => query,
        Err((status, message)) => return error_response(status, message),
    };
    let Ok(plies) = ply.parse::<usize>() else {
        return bad_request(format!("`{ply}` is not a move number (0 is the start)"));
    };
    let room = match find_room(&app, &id).await {
        Ok(room) => room,
        Err(answer) => return answer,
    };
    let options = match options(room.variant, &query) {
        Ok(options) => options,
        Err(message) => return bad_request(message),
    };
    match room.diagram(plies).await {
        Some(Some(position)) => svg_answer(diagram::svg(&position, &options)),
        Some(None) => error_response(StatusCode::NOT_FOUND, format!("game `{id}` has fewer than {plies} moves")),
        None => error_response(StatusCode::SERVICE_UNAVAILABLE, "the game is not available"),
    }
}

/// The query's parameters, or the status and reason of its refusal.
fn read_query(uri: &Uri) -> Result<HashMap<String, String>, (StatusCode, String)> {
    let length = uri.query().map_or(0, str::len);
    if length > MAX_QUERY {
        let message = format!("the query is {length} characters long; a diagram's may be {MAX_QUERY} at most");
        return Err((StatusCode::URI_TOO_LONG, message));
    }
    Query::try_from_uri(uri)
        .map(|Query(query)| query)
        .map_err(|e| (StatusCode::BAD_REQUEST, format!("the query cannot be read: {e}")))
}

/// The viewer's choices: `seat` at the bottom (the first seat unless named), `coordinates`
/// `on` or `off`, `pieces` `letters` or `kanji`.
fn options(variant: Variant, query: &HashMap<String, String>) -> Result<DiagramOptions, String> {
    let bottom = match query.get("seat") {
        Some(name) => diagram::seat_by_name(variant, name).map_err(|e| format!("seat: {e}"))?,
        None => variant.seats()[0],
    };
    let mut options = DiagramOptions::new(bottom);
    options.coordinates = match query.get("coordinates").map(String::as_str) {
        None | Some("on") => true,
        Some("off") => false,
        Some(other) => return Err(format!("coordinates: `{other}` is neither on nor off")),
    };
    if let Some(set) = query.get("pieces") {
        options.pieces = set.parse().map_err(|e| format!("pieces: {e}"))?;
    }
    Ok(options)
}

fn bad_request(message: impl Into<String>) -> Response {
    error_response(StatusCode::BAD_REQUEST, message)
}

/// An SVG document. It holds no script, and the policy says none may run should someone open
/// it from this origin.
fn svg_answer(svg: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, "image/svg+xml; charset=utf-8"),
            (header::CONTENT_SECURITY_POLICY, "default-src 'none'; style-src 'unsafe-inline'"),
        ],
        svg,
    )
        .into_response()
}
