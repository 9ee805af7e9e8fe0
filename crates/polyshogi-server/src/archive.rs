//! Finished games and players, for everyone: the archive's pages of finished games (by
//! variant, by player) and a player's page (his ratings and their history).

use std::collections::HashMap;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use polyshogi::variant::Variant;
use tracing::error;

use crate::accounts::check_name;
use crate::app::{error_response, AppState};
use crate::lobby::variant_filter;
use crate::store::{GameFilter, ListedGame, PlayerRecord};
use crate::wire;

/// Games a page of the archive lists.
pub const PER_PAGE: i64 = 20;
/// The last page that may be asked for: deep pages cost the database a long scan.
const MAX_PAGE: i64 = 500;

/// `GET /api/games?player=&variant=&page=`.
pub async fn finished_games(State(app): State<AppState>, Query(query): Query<HashMap<String, String>>) -> Response {
    let variant = match variant_filter(&query) {
        Ok(variant) => variant,
        Err(message) => return error_response(StatusCode::BAD_REQUEST, message),
    };
    let page = match query.get("page").map(|p| p.parse::<i64>()) {
        None => 1,
        Some(Ok(page)) if (1..=MAX_PAGE).contains(&page) => page,
        Some(_) => return error_response(StatusCode::BAD_REQUEST, format!("page: a number from 1 to {MAX_PAGE}")),
    };
    let player = query.get("player").filter(|p| !p.is_empty()).cloned();
    if let Some(Err(message)) = player.as_deref().map(check_name) {
        return error_response(StatusCode::BAD_REQUEST, format!("player: {}", message.trim_start_matches("name: ")));
    }
    // One more than a page: whether there is a next page.
    let filter =
        GameFilter { player, variant: variant.map(|v| v.name().to_string()), offset: (page - 1) * PER_PAGE, limit: PER_PAGE + 1 };
    match app.rooms.store().finished_games(&filter).await {
        Ok(mut games) => {
            let more = games.len() as i64 > PER_PAGE;
            games.truncate(PER_PAGE as usize);
            Json(wire::GameList { page, more, games: games.into_iter().filter_map(finished_game).collect() }).into_response()
        }
        Err(e) => {
            error!("cannot read the finished games: {e}");
            error_response(StatusCode::INTERNAL_SERVER_ERROR, "the finished games cannot be read now")
        }
    }
}

fn finished_game(game: ListedGame) -> Option<wire::FinishedGame> {
    let variant: Variant = game.variant.parse().ok()?;
    let seats = variant
        .seats()
        .iter()
        .zip(game.seats)
        .map(|(&seat, listed)| wire::FinishedSeat {
            seat: variant.seat_name(seat).to_string(),
            kind: listed.kind,
            player: listed.player.map(|(name, _)| wire::PlayerName { name }),
            level: listed.level,
            place: listed.place,
            rating_before: listed.change.map(|(before, _)| before.shown().rating),
            rating_after: listed.change.map(|(_, after)| after.shown().rating),
        })
        .collect();
    Some(wire::FinishedGame {
        id: game.id,
        variant: game.variant,
        rated: game.rated,
        rules: game.rules,
        clock: game.clock.map(|(initial_ms, increment_ms)| wire::Clock { initial_ms, increment_ms }),
        created_ms: game.created_ms,
        finished_ms: game.finished_ms,
        plies: game.plies,
        result: game.result,
        seats,
    })
}

/// `GET /api/players/{name}`.
pub async fn player(State(app): State<AppState>, Path(name): Path<String>) -> Response {
    if check_name(&name).is_err() {
        return error_response(StatusCode::NOT_FOUND, format!("no player `{name}`"));
    }
    match app.rooms.store().player(&name).await {
        Ok(Some(record)) => Json(profile(record)).into_response(),
        Ok(None) => error_response(StatusCode::NOT_FOUND, format!("no player `{name}`")),
        Err(e) => {
            error!("cannot read player {name}: {e}");
            error_response(StatusCode::INTERNAL_SERVER_ERROR, "the player cannot be read now")
        }
    }
}

fn profile(record: PlayerRecord) -> wire::PlayerProfile {
    wire::PlayerProfile {
        name: record.name,
        created_ms: record.created_ms,
        ratings: record
            .ratings
            .into_iter()
            .map(|r| wire::VariantRating {
                variant: r.variant,
                rating: r.rating.shown(),
                games: r.games,
                history: r
                    .history
                    .into_iter()
                    .map(|point| {
                        let shown = point.rating.shown();
                        wire::RatingPoint { game: point.game_id, ms: point.ms, rating: shown.rating, deviation: shown.deviation }
                    })
                    .collect(),
            })
            .collect(),
    }
}
