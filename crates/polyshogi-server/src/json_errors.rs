//! Every refusal answered as a JSON error (docs/API.md): the router's own (no such page, a
//! method a page does not take) and axum's rejections, whose bodies are plain text or empty.

use axum::http::{header, Method, StatusCode, Uri};
use axum::response::Response;

use crate::app::error_response;
use crate::json_body::is_json;

/// The answer for a path no route takes.
pub async fn no_such_page(uri: Uri) -> Response {
    let shown: String = uri.path().chars().take(200).collect();
    error_response(StatusCode::NOT_FOUND, format!("no such page: {shown}"))
}

/// Rewrites an error answer that is not JSON as `{ "error": … }`, keeping its status and its
/// headers; its text, if any, becomes the error. (A `405`'s `Allow` header is added after
/// this, by the route itself.)
pub async fn as_json_error(method: Method, response: Response) -> Response {
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) || is_json(response.headers()) {
        return response;
    }
    let (parts, body) = response.into_parts();
    // Axum's rejection texts are one line; anything longer is not worth passing on.
    let text = axum::body::to_bytes(body, 4096).await.ok().map(|bytes| String::from_utf8_lossy(&bytes).trim().to_string());
    let message = match (status, text) {
        (StatusCode::METHOD_NOT_ALLOWED, _) => format!("this page does not take {method} (the Allow header says what it takes)"),
        (_, Some(text)) if !text.is_empty() => text,
        _ => status.canonical_reason().unwrap_or("refused").to_lowercase(),
    };
    let mut answer = error_response(status, message);
    for (name, value) in &parts.headers {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            answer.headers_mut().append(name, value.clone());
        }
    }
    answer
}
