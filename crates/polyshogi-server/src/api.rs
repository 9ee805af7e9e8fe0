//! The HTTP side of docs/API.md: health, variants, layouts, levels, creating games and taking
//! their open seats, a game's state and record; accounts, the lobby, the archive and players'
//! pages, the pictures of positions, the WebSockets and the web client are routed here too.

use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{middleware, Json, Router};
use polyshogi::player::Player;
use polyshogi::variant::Variant;
use serde_json::Value;
use serde_path_to_error::Segment;
use tracing::error;

use crate::accounts::{self, too_many, SessionAccount};
use crate::app::{error_response, find_room, AppState};
use crate::bots::Bot;
use crate::client::ClientAddress;
use crate::json_body::JsonBody;
use crate::json_errors::{as_json_error, no_such_page};
use crate::lobby::{self, seat_named};
use crate::room::{now_ms, ClockConfig, GameSetup, SeatKind, SitError};
use crate::rule_list::checked_rules;
use crate::store::{Account, SeatPlayer};
use crate::tokens::{hash_token, new_game_id, new_token};
use crate::{analysis, archive, diagram_api, json, review, study, variants, web, wire, ws};

pub fn router(app: AppState) -> Router {
    Router::new()
        .route("/health", get(|| async { "ok" }))
        .route("/api/levels", get(|| async { Json(variants::levels()) }))
        .route("/api/variants", get(|| async { Json(variants::variants()) }))
        .route("/api/variants/{name}/layout", get(variant_layout))
        .route("/api/variants/{name}/pieces", get(variant_pieces))
        .route("/api/variants/{name}/rules", get(variant_rules))
        .route("/api/account", get(accounts::me))
        .route("/api/account/register", post(accounts::register))
        .route("/api/account/login", post(accounts::login))
        .route("/api/account/logout", post(accounts::logout))
        .route("/api/lobby", get(lobby::open_games))
        .route("/api/lobby/ws", get(lobby::watch_lobby))
        .route("/api/players/{name}", get(archive::player))
        .route("/api/games", get(archive::finished_games).post(create_game))
        .route("/api/games/{id}", get(game_state))
        .route("/api/games/{id}/seats/{seat}", post(take_seat))
        .route("/api/games/{id}/record", get(game_record))
        .route("/api/games/{id}/positions/{ply}", get(game_position))
        .route("/api/games/{id}/positions/{ply}/diagram.svg", get(diagram_api::game_diagram))
        .route("/api/diagram.svg", get(diagram_api::position_diagram))
        .route("/api/games/{id}/review", get(review::get_review).post(review::ask_review))
        .route("/api/games/{id}/ws", get(ws::upgrade))
        .route("/api/study/position", post(study::study_position))
        .route("/api/analysis/ws", get(analysis::upgrade))
        .merge(web::routes())
        .fallback(no_such_page)
        .layer(middleware::map_response(as_json_error))
        .with_state(app)
}

async fn variant_layout(Path(name): Path<String>) -> Response {
    match name.parse::<Variant>().ok().and_then(variants::layout) {
        Some(layout) => Json(layout).into_response(),
        None => error_response(StatusCode::NOT_FOUND, format!("no playable variant `{name}`")),
    }
}

async fn variant_pieces(Path(name): Path<String>) -> Response {
    match name.parse::<Variant>().ok().and_then(variants::pieces) {
        Some(pieces) => Json(pieces).into_response(),
        None => error_response(StatusCode::NOT_FOUND, format!("no playable variant `{name}`")),
    }
}

async fn variant_rules(Path(name): Path<String>) -> Response {
    match name.parse::<Variant>() {
        Ok(variant) => ([(header::CONTENT_TYPE, "text/markdown; charset=utf-8")], variants::rules_text(variant)).into_response(),
        Err(_) => error_response(StatusCode::NOT_FOUND, format!("no playable variant `{name}`")),
    }
}

async fn game_state(State(app): State<AppState>, Path(id): Path<String>) -> Response {
    let room = match find_room(&app, &id).await {
        Ok(room) => room,
        Err(response) => return response,
    };
    match room.state().await {
        Some(state) => Json(state.as_ref()).into_response(),
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
        Some(Some(position)) => Json(position).into_response(),
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
    rated: bool,
}

enum SeatRequest {
    Human,
    Me,
    Open,
    Bot { bot: Bot, level: String },
}

/// A validated create-game body, or the message naming the bad field.
fn parse_new_game(body: &[u8]) -> Result<NewGame, String> {
    let value = json::parse_body(body)?;
    if !value.is_object() {
        return Err("body: expected a JSON object".into());
    }
    let request: wire::NewGame = serde_path_to_error::deserialize(&value).map_err(|e| misshapen(&value, &e))?;
    let variant: Variant = request.variant.parse().map_err(|e| format!("variant: {e}"))?;
    let rules = checked_rules(variant, &request.rules)?;
    let clock = request.clock.map(checked_clock).transpose()?;
    let seat_names = variant_seats(variant);
    if request.seats.len() != seat_names.len() {
        let names: Vec<&str> = seat_names.iter().map(|(_, n)| *n).collect();
        return Err(format!(
            "seats: {} has {} seats ({}), got {}",
            variant.name(),
            names.len(),
            names.join(", "),
            request.seats.len()
        ));
    }
    let seats: Vec<SeatRequest> =
        request.seats.into_iter().enumerate().map(|(i, seat)| checked_seat(i, seat)).collect::<Result<_, _>>()?;
    let mine = seats.iter().filter(|s| matches!(s, SeatRequest::Me)).count();
    if mine > 1 {
        return Err("seats: at most one seat is \"me\"".into());
    }
    if request.rated && (mine != 1 || !seats.iter().all(|s| matches!(s, SeatRequest::Me | SeatRequest::Open))) {
        return Err(
            "rated: a rated game has the creator's seat (\"me\") and every other seat open: no bots, no link seats".into()
        );
    }
    Ok(NewGame { variant, rules, clock, seats, rated: request.rated })
}

const VARIANT_MISSING: &str = "variant: missing (a variant name, e.g. \"sannin\")";
const SEATS_MISSING: &str = "seats: missing (one entry per seat, in seat order)";

fn initial_ms_expected() -> String {
    format!("clock.initial_ms: expected a whole number of milliseconds from 1 to {MAX_INITIAL_MS}")
}

fn increment_ms_expected() -> String {
    format!("clock.increment_ms: expected a whole number of milliseconds from 0 to {MAX_INCREMENT_MS}")
}

fn level_missing(index: usize) -> String {
    format!("seats[{index}].level: missing (one of {})", variants::level_names().join(", "))
}

/// The message for a body that is not a `wire::NewGame`, naming the field. Reading stops at
/// the bad field, or at the object that lacks one (the body, a clock, a seat): which field
/// that is, the body itself tells.
fn misshapen(body: &Value, error: &serde_path_to_error::Error<serde_json::Error>) -> String {
    let segments: Vec<&Segment> = error.path().iter().collect();
    let field = |segment: &Segment| match segment {
        Segment::Map { key } => key.clone(),
        _ => String::new(),
    };
    match segments.as_slice() {
        [] if body.get("variant").is_none() => VARIANT_MISSING.into(),
        [] => SEATS_MISSING.into(),
        [top, inner @ ..] => match (field(top).as_str(), inner) {
            ("variant", _) => VARIANT_MISSING.into(),
            ("rules", [Segment::Seq { index }, ..]) => format!("rules[{index}]: expected a \"key=value\" text"),
            ("rules", _) => "rules: expected a list of \"key=value\" texts".into(),
            ("clock", [at, ..]) if field(at) == "increment_ms" => increment_ms_expected(),
            ("clock", []) if !body["clock"].is_object() => "clock: expected null or { \"initial_ms\", \"increment_ms\" }".into(),
            ("clock", _) => initial_ms_expected(),
            // A seat is read whole: a bot's level is wrong, or else its kind.
            ("seats", [Segment::Seq { index }, ..]) if body["seats"][index]["kind"] == "bot" => level_missing(*index),
            ("seats", [Segment::Seq { index }, ..]) => {
                format!("seats[{index}].kind: expected \"me\", \"human\", \"open\" or \"bot\"")
            }
            ("seats", _) => SEATS_MISSING.into(),
            _ => format!("{}: {}", error.path(), error.inner()),
        },
    }
}

fn checked_clock(clock: wire::Clock) -> Result<ClockConfig, String> {
    let wire::Clock { initial_ms, increment_ms } = clock;
    if !(1..=MAX_INITIAL_MS).contains(&initial_ms) {
        return Err(initial_ms_expected());
    }
    if !(0..=MAX_INCREMENT_MS).contains(&increment_ms) {
        return Err(increment_ms_expected());
    }
    Ok(ClockConfig { initial_ms, increment_ms })
}

fn checked_seat(index: usize, seat: wire::Occupant) -> Result<SeatRequest, String> {
    match seat {
        wire::Occupant::Human => Ok(SeatRequest::Human),
        wire::Occupant::Me => Ok(SeatRequest::Me),
        wire::Occupant::Open => Ok(SeatRequest::Open),
        wire::Occupant::Bot { level } => match Bot::requested(&level) {
            Some(bot) => Ok(SeatRequest::Bot { bot, level }),
            None => Err(format!("seats[{index}].level: unknown level `{level}` (known: {})", variants::level_names().join(", "))),
        },
    }
}

/// A seat of the game being made: a human with his token, handed out once in the answer (only
/// its hash is stored) and his account if it is the creator's, a seat left open, or a bot.
enum NewSeat {
    Human { token: String, player: Option<SeatPlayer> },
    Open,
    Bot { bot: Bot, level: String },
}

impl NewSeat {
    /// `creator`: the creator's account, with his rating in the variant.
    fn new(request: SeatRequest, creator: Option<&SeatPlayer>) -> NewSeat {
        match request {
            SeatRequest::Human => NewSeat::Human { token: new_token(), player: None },
            SeatRequest::Me => NewSeat::Human { token: new_token(), player: creator.cloned() },
            SeatRequest::Open => NewSeat::Open,
            SeatRequest::Bot { bot, level } => NewSeat::Bot { bot, level },
        }
    }

    /// What is stored of the seat.
    fn kind(&self) -> SeatKind {
        match self {
            NewSeat::Human { token, player } => SeatKind::Human { token_hash: hash_token(token), player: player.clone() },
            NewSeat::Open => SeatKind::Open,
            NewSeat::Bot { bot, level } => SeatKind::Bot { bot: *bot, level: level.clone() },
        }
    }

    /// What the creator of game `id` is told of seat `name`.
    fn answer(&self, name: &str, id: &str) -> wire::CreatedSeat {
        let access = match self {
            NewSeat::Human { token, .. } => seat_access(id, name, token),
            NewSeat::Open => wire::SeatAccess::Open,
            NewSeat::Bot { level, .. } => wire::SeatAccess::Bot { level: level.clone() },
        };
        wire::CreatedSeat { seat: name.to_string(), access }
    }
}

/// How a human seat is reached: its token, and the link that carries it.
fn seat_access(id: &str, seat_name: &str, token: &str) -> wire::SeatAccess {
    wire::SeatAccess::Human { token: token.to_string(), link: format!("/play/{id}#seat={seat_name}&token={token}") }
}

/// The account as it sits down in `variant`: with its rating there now.
async fn seat_player(app: &AppState, account: Account, variant: Variant) -> Result<SeatPlayer, Response> {
    match app.rooms.store().ratings(std::slice::from_ref(&account.id), variant.name()).await {
        Ok(ratings) => {
            let rating = ratings.first().map(|(rating, _)| *rating).unwrap_or_default();
            Ok(SeatPlayer { user_id: account.id, name: account.name, rating })
        }
        Err(e) => {
            error!("cannot read a rating: {e}");
            Err(error_response(StatusCode::INTERNAL_SERVER_ERROR, "your rating cannot be read now; please try again"))
        }
    }
}

async fn create_game(
    State(app): State<AppState>,
    ClientAddress(address): ClientAddress,
    SessionAccount(account): SessionAccount,
    JsonBody(body): JsonBody,
) -> Response {
    // Every creation counts, a refused body too: each costs the server a game built to check it.
    if let Err(wait) = app.rate_limits.allow_game(address) {
        return too_many_games(wait);
    }
    let NewGame { variant, rules, clock, seats: seat_requests, rated } = match parse_new_game(&body) {
        Ok(parsed) => parsed,
        Err(message) => return error_response(StatusCode::BAD_REQUEST, message),
    };
    if rated && account.is_none() {
        return error_response(StatusCode::UNAUTHORIZED, "log in to create a rated game");
    }
    let creator = match account {
        Some(account) => match seat_player(&app, account, variant).await {
            Ok(player) => Some(player),
            Err(answer) => return answer,
        },
        None => None,
    };
    let new_seats: Vec<NewSeat> = seat_requests.into_iter().map(|request| NewSeat::new(request, creator.as_ref())).collect();
    let seats: Vec<SeatKind> = new_seats.iter().map(NewSeat::kind).collect();
    let open = new_seats.iter().any(|s| matches!(s, NewSeat::Open));
    // A clash of random ids is all but impossible; a failed insert is retried with a new id.
    let mut last_error = String::new();
    for _ in 0..3 {
        let created_ms = now_ms();
        let setup = GameSetup {
            id: new_game_id(),
            variant,
            rules: rules.clone(),
            clock,
            seats: seats.clone(),
            created_ms,
            rated,
            open_until_ms: open.then(|| created_ms + app.rooms.settings().open_time.as_millis() as i64),
        };
        match app.rooms.create(&setup).await {
            Ok(room) => {
                if open {
                    app.lobby.changed();
                }
                let seats =
                    variant_seats(variant).iter().zip(&new_seats).map(|((_, name), seat)| seat.answer(name, &room.id)).collect();
                let answer = wire::Created { id: room.id.clone(), seats, spectator_link: format!("/play/{}", room.id) };
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

/// `429`, with the whole seconds to wait in `Retry-After` as well as in words.
fn too_many_games(wait: Duration) -> Response {
    let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    too_many(format!("too many games created from your address: the next one may be created in {seconds} s"), wait)
}

/// `POST /api/games/{id}/seats/{seat}`: takes an open seat; the answer is its token and link.
async fn take_seat(
    State(app): State<AppState>,
    Path((id, seat_name)): Path<(String, String)>,
    SessionAccount(account): SessionAccount,
    JsonBody(_): JsonBody,
) -> Response {
    let room = match find_room(&app, &id).await {
        Ok(room) => room,
        Err(response) => return response,
    };
    let variant = room.variant;
    let Some(seat) = seat_named(variant, &seat_name) else {
        return error_response(StatusCode::NOT_FOUND, format!("{} has no seat `{seat_name}`", variant.name()));
    };
    let player = match account {
        Some(account) => match seat_player(&app, account, variant).await {
            Ok(player) => Some(player),
            Err(answer) => return answer,
        },
        None => None,
    };
    let token = new_token();
    let name = variant.seat_name(seat);
    match room.sit(seat, hash_token(&token), player).await {
        Ok(()) => {
            app.lobby.changed();
            Json(wire::TakenSeat { seat: name.to_string(), access: seat_access(&id, name, &token) }).into_response()
        }
        Err(SitError::Taken(seat)) => error_response(StatusCode::CONFLICT, format!("the seat {seat} is taken")),
        Err(SitError::AlreadySeated) => error_response(StatusCode::CONFLICT, "you already sit in this game"),
        Err(SitError::LoginNeeded) => error_response(StatusCode::UNAUTHORIZED, "log in to sit in a rated game"),
        Err(SitError::Expired) => error_response(StatusCode::GONE, "the game has expired"),
        Err(SitError::Over(text)) => error_response(StatusCode::GONE, format!("the game is over: {text}")),
        Err(SitError::Storage) => error_response(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server could not store your seat; nothing changed, please try again",
        ),
    }
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

    #[test]
    fn what_a_body_may_leave_out_or_add() {
        let seats = r#"[{"kind":"human"},{"kind":"bot","level":"beginner"},{"kind":"human"}]"#;
        let game = parse_new_game(format!(r#"{{"variant":"sannin","seats":{seats}}}"#).as_bytes()).unwrap();
        assert!(game.rules.is_empty() && game.clock.is_none());
        let game = parse_new_game(
            format!(r#"{{"variant":"sannin","rules":null,"clock":{{"initial_ms":60000,"increment_ms":null}},"seats":{seats}}}"#)
                .as_bytes(),
        )
        .unwrap();
        assert_eq!(game.clock, Some(ClockConfig { initial_ms: 60000, increment_ms: 0 }));
        // Fields the server does not know are ignored, as docs/API.md says.
        assert!(parse_new_game(format!(r#"{{"variant":"sannin","colour":"blue","seats":{seats}}}"#).as_bytes()).is_ok());
        // A bot seat's level is checked, a missing one named.
        let no_level = r#"{"variant":"sannin","seats":[{"kind":"human"},{"kind":"bot"},{"kind":"human"}]}"#;
        assert!(error_of(no_level).starts_with("seats[1].level: missing"));
    }
}
