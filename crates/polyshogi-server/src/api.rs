//! The HTTP side of docs/API.md: health, variants, layouts, levels, creating games, a game's
//! state and record; the WebSocket and the web client are routed here too.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use polyshogi::player::Player;
use polyshogi::variant::{NewGameError, Variant};
use polyshogi_engine::EngineKind;
use serde_json::{json, Map, Value};
use tracing::error;

use crate::app::{error_response, find_room, AppState};
use crate::room::{now_ms, ClockConfig, GameSetup, SeatKind};
use crate::table::Table;
use crate::tokens::{hash_token, new_game_id, new_token};
use crate::{variants, web, ws};

pub fn router(app: AppState) -> Router {
    Router::new()
        .route("/health", get(|| async { "ok" }))
        .route("/api/levels", get(|| async { Json(json!(variants::levels())) }))
        .route("/api/variants", get(|| async { Json(variants::variants()) }))
        .route("/api/variants/{name}/layout", get(variant_layout))
        .route("/api/games", post(create_game))
        .route("/api/games/{id}", get(game_state))
        .route("/api/games/{id}/record", get(game_record))
        .route("/api/games/{id}/positions/{ply}", get(game_position))
        .route("/api/games/{id}/ws", get(ws::upgrade))
        .merge(web::routes())
        .with_state(app)
}

async fn variant_layout(Path(name): Path<String>) -> Response {
    match name.parse::<Variant>().ok().and_then(variants::layout) {
        Some(layout) => Json(layout).into_response(),
        None => error_response(StatusCode::NOT_FOUND, format!("no playable variant `{name}`")),
    }
}

async fn game_state(State(app): State<AppState>, Path(id): Path<String>) -> Response {
    let room = match find_room(&app, &id).await {
        Ok(room) => room,
        Err(response) => return response,
    };
    match room.state().await {
        Some(state) => Json(state.as_ref().clone()).into_response(),
        None => error_response(StatusCode::SERVICE_UNAVAILABLE, "the game is not available"),
    }
}

async fn game_record(State(app): State<AppState>, Path(id): Path<String>) -> Response {
    let room = match find_room(&app, &id).await {
        Ok(room) => room,
        Err(response) => return response,
    };
    match room.record().await {
        Some(record) => ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], record).into_response(),
        None => error_response(StatusCode::SERVICE_UNAVAILABLE, "the game is not available"),
    }
}

/// The position after move `ply` (0: the start), for going back through a game.
async fn game_position(State(app): State<AppState>, Path((id, ply)): Path<(String, String)>) -> Response {
    let Ok(plies) = ply.parse::<usize>() else {
        return error_response(StatusCode::BAD_REQUEST, format!("`{ply}` is not a move number (0 is the start)"));
    };
    let room = match find_room(&app, &id).await {
        Ok(room) => room,
        Err(response) => return response,
    };
    match room.position(plies).await {
        Some(Some(mut position)) => {
            position.insert("ply".into(), json!(plies));
            Json(Value::Object(position)).into_response()
        }
        Some(None) => error_response(StatusCode::NOT_FOUND, format!("game `{id}` has fewer than {plies} moves")),
        None => error_response(StatusCode::SERVICE_UNAVAILABLE, "the game is not available"),
    }
}

/// The longest clock and increment accepted: a week, and an hour.
const MAX_INITIAL_MS: i64 = 7 * 24 * 3_600_000;
const MAX_INCREMENT_MS: i64 = 3_600_000;

/// A create-game body, checked.
struct NewGame {
    variant: Variant,
    rules: Vec<String>,
    clock: Option<ClockConfig>,
    seats: Vec<SeatRequest>,
}

/// A validated create-game body, or the message naming the bad field.
fn parse_new_game(body: &[u8]) -> Result<NewGame, String> {
    let value: Value = serde_json::from_slice(body).map_err(|e| format!("body: not JSON ({e})"))?;
    let Value::Object(body) = value else { return Err("body: expected a JSON object".into()) };
    let variant_name = body.get("variant").and_then(Value::as_str).ok_or("variant: missing (a variant name, e.g. \"sannin\")")?;
    let variant: Variant = variant_name.parse().map_err(|e| format!("variant: {e}"))?;
    let rules: Vec<String> = match body.get("rules") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, r)| r.as_str().map(|s| s.trim().to_string()).ok_or(format!("rules[{i}]: expected a \"key=value\" text")))
            .collect::<Result<_, _>>()?,
        Some(_) => return Err("rules: expected a list of \"key=value\" texts".into()),
    };
    match Table::new(variant, &rules) {
        Ok(_) => {}
        Err(NewGameError::Rules(e)) => return Err(format!("rules: {e}")),
        Err(e) => return Err(format!("variant: {e}")),
    }
    let clock = match body.get("clock") {
        None | Some(Value::Null) => None,
        Some(Value::Object(clock)) => Some(parse_clock(clock)?),
        Some(_) => return Err("clock: expected null or { \"initial_ms\", \"increment_ms\" }".into()),
    };
    let seat_names = variant_seats(variant);
    let Some(Value::Array(seats)) = body.get("seats") else {
        return Err("seats: missing (one entry per seat, in seat order)".into());
    };
    if seats.len() != seat_names.len() {
        let names: Vec<&str> = seat_names.iter().map(|(_, n)| *n).collect();
        return Err(format!("seats: {} has {} seats ({}), got {}", variant.name(), names.len(), names.join(", "), seats.len()));
    }
    let seats = seats.iter().enumerate().map(|(i, seat)| parse_seat(i, seat)).collect::<Result<Vec<_>, _>>()?;
    Ok(NewGame { variant, rules, clock, seats })
}

fn parse_clock(clock: &Map<String, Value>) -> Result<ClockConfig, String> {
    let initial_ms = clock
        .get("initial_ms")
        .and_then(Value::as_i64)
        .filter(|&ms| ms > 0 && ms <= MAX_INITIAL_MS)
        .ok_or(format!("clock.initial_ms: expected a whole number of milliseconds from 1 to {MAX_INITIAL_MS}"))?;
    let increment_ms = match clock.get("increment_ms") {
        None | Some(Value::Null) => 0,
        Some(v) => v
            .as_i64()
            .filter(|&ms| (0..=MAX_INCREMENT_MS).contains(&ms))
            .ok_or(format!("clock.increment_ms: expected a whole number of milliseconds from 0 to {MAX_INCREMENT_MS}"))?,
    };
    Ok(ClockConfig { initial_ms, increment_ms })
}

enum SeatRequest {
    Human,
    Bot { engine: EngineKind, level: String },
}

fn parse_seat(index: usize, seat: &Value) -> Result<SeatRequest, String> {
    let kind = seat.get("kind").and_then(Value::as_str);
    match kind {
        Some("human") => Ok(SeatRequest::Human),
        Some("bot") => {
            let level = seat
                .get("level")
                .and_then(Value::as_str)
                .ok_or(format!("seats[{index}].level: missing (one of {})", variants::levels().join(", ")))?;
            let engine = EngineKind::from_name(level)
                .ok_or(format!("seats[{index}].level: unknown level `{level}` (known: {})", variants::levels().join(", ")))?;
            Ok(SeatRequest::Bot { engine, level: level.to_string() })
        }
        _ => Err(format!("seats[{index}].kind: expected \"human\" or \"bot\"")),
    }
}

async fn create_game(State(app): State<AppState>, body: Bytes) -> Response {
    let NewGame { variant, rules, clock, seats: seat_requests } = match parse_new_game(&body) {
        Ok(parsed) => parsed,
        Err(message) => return error_response(StatusCode::BAD_REQUEST, message),
    };
    let seat_names = variant_seats(variant);
    let mut tokens = Vec::new();
    let seats: Vec<SeatKind> = seat_requests
        .into_iter()
        .map(|request| match request {
            SeatRequest::Human => {
                let token = new_token();
                let token_hash = hash_token(&token);
                tokens.push(Some(token));
                SeatKind::Human { token_hash }
            }
            SeatRequest::Bot { engine, level } => {
                tokens.push(None);
                SeatKind::Bot { engine, level }
            }
        })
        .collect();
    // A clash of random ids is all but impossible; a failed insert is retried with a new id.
    let mut last_error = String::new();
    for _ in 0..3 {
        let setup =
            GameSetup { id: new_game_id(), variant, rules: rules.clone(), clock, seats: seats.clone(), created_ms: now_ms() };
        match app.rooms.create(&setup).await {
            Ok(room) => {
                let seats: Vec<Value> = seat_names
                    .iter()
                    .zip(&setup.seats)
                    .zip(&tokens)
                    .map(|(((_, name), kind), token)| match (kind, token) {
                        (SeatKind::Human { .. }, Some(token)) => json!({
                            "seat": name, "kind": "human", "token": token,
                            "link": format!("/play/{}?seat={name}&token={token}", room.id),
                        }),
                        (SeatKind::Bot { level, .. }, _) => json!({ "seat": name, "kind": "bot", "level": level }),
                        _ => Value::Null,
                    })
                    .collect();
                let answer = json!({ "id": room.id, "seats": seats, "spectator_link": format!("/play/{}", room.id) });
                return (StatusCode::CREATED, Json(answer)).into_response();
            }
            Err(e) => {
                error!("cannot create a game: {e}");
                last_error = e.to_string();
            }
        }
    }
    error_response(StatusCode::INTERNAL_SERVER_ERROR, format!("the game could not be stored: {last_error}"))
}

/// A variant's seats in turn order, with their names.
fn variant_seats(variant: Variant) -> Vec<(Player, &'static str)> {
    variant.seats().iter().map(|&p| (p, variant.seat_name(p))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error_of(body: &str) -> String {
        match parse_new_game(body.as_bytes()) {
            Err(e) => e,
            Ok(_) => panic!("{body} was accepted"),
        }
    }

    #[test]
    fn bad_bodies_name_the_field() {
        assert!(error_of("{").starts_with("body:"));
        assert!(error_of("[]").starts_with("body:"));
        assert!(error_of(r#"{"variant":"chess","seats":[]}"#).starts_with("variant:"));
        let seats = r#"[{"kind":"human"},{"kind":"human"},{"kind":"human"}]"#;
        assert!(error_of(&format!(r#"{{"variant":"sannin","rules":["colour=blue"],"seats":{seats}}}"#)).starts_with("rules:"));
        assert!(error_of(&format!(r#"{{"variant":"sannin","rules":"x","seats":{seats}}}"#)).starts_with("rules:"));
        assert!(error_of(&format!(r#"{{"variant":"sannin","clock":{{"initial_ms":0}},"seats":{seats}}}"#))
            .starts_with("clock.initial_ms:"));
        assert!(error_of(r#"{"variant":"sannin","seats":[{"kind":"human"}]}"#).starts_with("seats:"));
        assert!(error_of(
            r#"{"variant":"sannin","seats":[{"kind":"human"},{"kind":"bot","level":"grandmaster"},{"kind":"human"}]}"#
        )
        .starts_with("seats[1].level:"));
        assert!(error_of(r#"{"variant":"sannin","seats":[{"kind":"human"},{"kind":"alien"},{"kind":"human"}]}"#)
            .starts_with("seats[1].kind:"));
        assert!(parse_new_game(
            format!(r#"{{"variant":"sannin","rules":["compulsory=off"],"clock":null,"seats":{seats}}}"#).as_bytes()
        )
        .is_ok());
    }
}
