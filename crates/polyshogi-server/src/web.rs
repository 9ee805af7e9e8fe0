//! The browser client, embedded in the binary from web/: `/` is the lobby, `/play/{id}` the
//! game page, `/rules/{variant}` a game's rules, `/@/{name}` a player's page, `/games` the
//! archive of finished games, `/analysis` the analysis board, `/study/1932` the 1932 Sannin game
//! as a study, `/static/{file}` everything else.

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use rust_embed::RustEmbed;

use crate::app::AppState;

#[derive(RustEmbed)]
#[folder = "../../web/"]
#[exclude = "tests/*"]
#[exclude = "node_modules/*"]
struct WebFiles;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(|| async { file("index.html") }))
        .route("/play/{id}", get(|| async { file("play.html") }))
        .route("/rules/{variant}", get(|| async { file("rules.html") }))
        .route("/@/{name}", get(|| async { file("player.html") }))
        .route("/games", get(|| async { file("games.html") }))
        .route("/analysis", get(|| async { file("analysis.html") }))
        .route("/study/1932", get(|| async { file("study-1932.html") }))
        .route("/static/{*path}", get(|Path(path): Path<String>| async move { file(&path) }))
}

fn file(path: &str) -> Response {
    match WebFiles::get(path) {
        Some(content) => {
            ([(header::CONTENT_TYPE, content_type(path)), (header::CACHE_CONTROL, "no-cache")], content.data.into_owned())
                .into_response()
        }
        None => (StatusCode::NOT_FOUND, format!("no file `{path}`")).into_response(),
    }
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "txt" | "md" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}
