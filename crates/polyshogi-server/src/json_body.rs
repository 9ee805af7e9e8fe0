//! A request's JSON body, read within limits: `Content-Type: application/json` only, at most
//! `MAX_BODY_BYTES`, and all of it within the body timeout.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::Response;
use http_body_util::{BodyExt, LengthLimitError, Limited};

use crate::app::{error_response, AppState};

/// The largest body read: a new game takes well under 1 KiB.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// The bytes of a JSON request's body; what they say is the handler's to read.
pub struct JsonBody(pub Bytes);

impl FromRequest<AppState> for JsonBody {
    type Rejection = Response;

    async fn from_request(request: Request, app: &AppState) -> Result<JsonBody, Response> {
        // A page of another site can post text/plain or a form without asking the browser's
        // leave, but not application/json: so no such page can create games.
        if !is_json(request.headers()) {
            return Err(error_response(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "body: expected JSON, sent with Content-Type: application/json",
            ));
        }
        let body = Limited::new(request.into_body(), MAX_BODY_BYTES);
        match tokio::time::timeout(app.limits.body_timeout, body.collect()).await {
            Ok(Ok(collected)) => Ok(JsonBody(collected.to_bytes())),
            Ok(Err(e)) if e.is::<LengthLimitError>() => {
                Err(error_response(StatusCode::PAYLOAD_TOO_LARGE, format!("body: larger than {} KiB", MAX_BODY_BYTES / 1024)))
            }
            Ok(Err(e)) => Err(error_response(StatusCode::BAD_REQUEST, format!("body: {e}"))),
            Err(_) => Err(error_response(
                StatusCode::REQUEST_TIMEOUT,
                format!("body: not received within {} s", app.limits.body_timeout.as_secs_f64()),
            )),
        }
    }
}

/// `application/json`, with or without parameters such as `; charset=utf-8`.
pub fn is_json(headers: &HeaderMap) -> bool {
    let Some(value) = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()) else { return false };
    value.split(';').next().is_some_and(|media_type| media_type.trim().eq_ignore_ascii_case("application/json"))
}
