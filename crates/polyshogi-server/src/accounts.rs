//! Accounts: registering a name with a password (argon2id), logging in and out, and the
//! session cookie that says who a request comes from. Playing needs no account: a seat link
//! works without one.
//!
//! The session cookie is a random token, HttpOnly (no script reads it) and SameSite=Lax (no
//! other site's form posts with it); only its SHA-256 is stored, as for seat tokens.

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use tracing::error;

use crate::app::{error_response, AppState};
use crate::client::ClientAddress;
use crate::json;
use crate::json_body::JsonBody;
use crate::room::now_ms;
use crate::store::{Account, NewUser};
use crate::tokens::{hash_token, new_game_id, new_token};
use crate::wire::{AccountView, Credentials};

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "polyshogi_session";
/// How long a session lasts.
const SESSION_DAYS: i64 = 30;
const NAME_CHARS: std::ops::RangeInclusive<usize> = 3..=20;
const PASSWORD_CHARS: std::ops::RangeInclusive<usize> = 8..=200;

/// Who a request comes from: the account of its session cookie, if it has a live one.
pub struct SessionAccount(pub Option<Account>);

impl FromRequestParts<AppState> for SessionAccount {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<SessionAccount, Response> {
        let Some(token) = session_token(&parts.headers) else { return Ok(SessionAccount(None)) };
        match app.rooms.store().session_account(&hash_token(&token), now_ms()).await {
            Ok(account) => Ok(SessionAccount(account)),
            Err(e) => {
                error!("cannot read a session: {e}");
                Err(error_response(StatusCode::INTERNAL_SERVER_ERROR, "the server cannot tell who you are now; please try again"))
            }
        }
    }
}

/// The session token of the request's cookies.
fn session_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|cookies| cookies.split(';'))
        .filter_map(|cookie| cookie.trim().split_once('='))
        .find(|(name, _)| *name == SESSION_COOKIE)
        .map(|(_, value)| value.to_string())
        .filter(|token| !token.is_empty() && token.len() <= 128)
}

/// Why a name cannot be an account's.
pub fn check_name(name: &str) -> Result<(), String> {
    let chars = name.chars().count();
    if !NAME_CHARS.contains(&chars) {
        return Err(format!("name: {} to {} characters", NAME_CHARS.start(), NAME_CHARS.end()));
    }
    if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return Err("name: starts with a letter".into());
    }
    if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        return Err("name: letters, digits, `_` and `-` only".into());
    }
    Ok(())
}

fn check_password(password: &str) -> Result<(), String> {
    let chars = password.chars().count();
    if !PASSWORD_CHARS.contains(&chars) {
        return Err(format!("password: {} to {} characters", PASSWORD_CHARS.start(), PASSWORD_CHARS.end()));
    }
    Ok(())
}

fn read_credentials(body: &[u8]) -> Result<Credentials, String> {
    let value = json::parse_body(body)?;
    serde_json::from_value::<Credentials>(value).map_err(|_| "body: expected {\"name\": …, \"password\": …}".to_string())
}

/// Hashing costs tens of milliseconds of one core by design: it runs on the blocking pool.
async fn hash_password(password: String) -> Result<String, String> {
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default().hash_password(password.as_bytes(), &salt).map(|hash| hash.to_string()).map_err(|e| e.to_string())
    })
    .await
    .map_err(|e| e.to_string())?
}

async fn verify_password(password: String, stored: String) -> bool {
    tokio::task::spawn_blocking(move || {
        PasswordHash::new(&stored).is_ok_and(|hash| Argon2::default().verify_password(password.as_bytes(), &hash).is_ok())
    })
    .await
    .unwrap_or(false)
}

/// Starts a session for `account`: stored, and answered with its cookie.
async fn logged_in(app: &AppState, account: Account, status: StatusCode, secure: bool) -> Response {
    let token = new_token();
    let now = now_ms();
    let expires = now + SESSION_DAYS * 24 * 3_600_000;
    if let Err(e) = app.rooms.store().create_session(&hash_token(&token), &account.id, now, expires).await {
        error!("cannot store a session: {e}");
        return error_response(StatusCode::INTERNAL_SERVER_ERROR, "the server could not log you in; please try again");
    }
    let cookie = format!(
        "{SESSION_COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{}",
        SESSION_DAYS * 24 * 3600,
        if secure { "; Secure" } else { "" }
    );
    let mut answer = (status, Json(AccountView { name: Some(account.name) })).into_response();
    answer.headers_mut().insert(header::SET_COOKIE, HeaderValue::from_str(&cookie).expect("a cookie of hex digits"));
    answer
}

/// Whether the browser reached the server over HTTPS (through a trusted proxy that says so):
/// the cookie is then marked `Secure`.
fn is_https(app: &AppState, headers: &HeaderMap) -> bool {
    app.limits.trust_proxy
        && headers.get("x-forwarded-proto").and_then(|v| v.to_str().ok()).is_some_and(|p| p.eq_ignore_ascii_case("https"))
}

pub async fn me(SessionAccount(account): SessionAccount) -> Response {
    Json(AccountView { name: account.map(|a| a.name) }).into_response()
}

pub async fn register(
    State(app): State<AppState>,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    JsonBody(body): JsonBody,
) -> Response {
    if let Err(wait) = app.rate_limits.allow_registration(address) {
        return too_many(format!("too many accounts registered from your address: try again in {} s", seconds(wait)), wait);
    }
    let Credentials { name, password } = match read_credentials(&body) {
        Ok(credentials) => credentials,
        Err(message) => return error_response(StatusCode::BAD_REQUEST, message),
    };
    if let Err(message) = check_name(&name).and_then(|()| check_password(&password)) {
        return error_response(StatusCode::BAD_REQUEST, message);
    }
    let password_hash = match hash_password(password).await {
        Ok(hash) => hash,
        Err(e) => {
            error!("cannot hash a password: {e}");
            return error_response(StatusCode::INTERNAL_SERVER_ERROR, "the server could not register you; please try again");
        }
    };
    let user = NewUser { id: new_game_id(), name: name.clone(), password_hash, created_ms: now_ms() };
    match app.rooms.store().create_user(&user).await {
        Ok(true) => {
            let secure = is_https(&app, &headers);
            logged_in(&app, Account { id: user.id, name }, StatusCode::CREATED, secure).await
        }
        Ok(false) => error_response(StatusCode::CONFLICT, format!("the name `{name}` is taken")),
        Err(e) => {
            error!("cannot store an account: {e}");
            error_response(StatusCode::INTERNAL_SERVER_ERROR, "the server could not register you; please try again")
        }
    }
}

pub async fn login(
    State(app): State<AppState>,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    JsonBody(body): JsonBody,
) -> Response {
    let Credentials { name, password } = match read_credentials(&body) {
        Ok(credentials) => credentials,
        Err(message) => return error_response(StatusCode::BAD_REQUEST, message),
    };
    if let Err(wait) = app.rate_limits.allow_login(address, &name) {
        return too_many(
            format!("too many login attempts for this name or from your address: try again in {} s", seconds(wait)),
            wait,
        );
    }
    const WRONG: &str = "wrong name or password";
    if check_name(&name).is_err() || check_password(&password).is_err() {
        return error_response(StatusCode::UNAUTHORIZED, WRONG);
    }
    let found = match app.rooms.store().user_for_login(&name).await {
        Ok(found) => found,
        Err(e) => {
            error!("cannot read an account: {e}");
            return error_response(StatusCode::INTERNAL_SERVER_ERROR, "the server could not log you in; please try again");
        }
    };
    // A name that does not exist costs a hash too, so that the answer's time does not tell
    // which names do.
    let (account, stored) = match found {
        Some((account, stored)) => (Some(account), stored),
        None => (None, DUMMY_HASH.to_string()),
    };
    let verified = verify_password(password, stored).await;
    match account.filter(|_| verified) {
        Some(account) => logged_in(&app, account, StatusCode::OK, is_https(&app, &headers)).await,
        None => error_response(StatusCode::UNAUTHORIZED, WRONG),
    }
}

/// An argon2id hash of a password nobody has, verified against when the name is unknown.
const DUMMY_HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$2D6kH2p9v5rG1eGzM9o9qfL3ZyqkQm0vF8m4m1lL5xE";

pub async fn logout(State(app): State<AppState>, headers: HeaderMap, JsonBody(_): JsonBody) -> Response {
    if let Some(token) = session_token(&headers) {
        if let Err(e) = app.rooms.store().delete_session(&hash_token(&token)).await {
            error!("cannot delete a session: {e}");
            return error_response(StatusCode::INTERNAL_SERVER_ERROR, "the server could not log you out; please try again");
        }
    }
    let mut answer = Json(AccountView { name: None }).into_response();
    let cookie = format!("{SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
    answer.headers_mut().insert(header::SET_COOKIE, HeaderValue::from_str(&cookie).expect("a plain cookie"));
    answer
}

fn seconds(wait: std::time::Duration) -> u64 {
    wait.as_secs() + u64::from(wait.subsec_nanos() > 0)
}

/// `429`, with the whole seconds to wait in `Retry-After` as well as in words.
pub fn too_many(message: String, wait: std::time::Duration) -> Response {
    let mut answer = error_response(StatusCode::TOO_MANY_REQUESTS, message);
    answer.headers_mut().insert(header::RETRY_AFTER, seconds(wait).into());
    answer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_rules() {
        assert!(check_name("alice").is_ok());
        assert!(check_name("Bob_2-x").is_ok());
        assert!(check_name("al").unwrap_err().starts_with("name: 3 to 20"));
        assert!(check_name(&"a".repeat(21)).is_err());
        assert!(check_name("2bob").unwrap_err().contains("starts with a letter"));
        assert!(check_name("bob smith").unwrap_err().contains("letters, digits"));
        assert!(check_name("bøb").is_err());
        assert!(check_password("short").is_err());
        assert!(check_password("long enough").is_ok());
    }

    #[test]
    fn the_session_cookie_is_found_among_others() {
        let mut headers = HeaderMap::new();
        assert_eq!(session_token(&headers), None);
        headers.insert(header::COOKIE, HeaderValue::from_static("theme=dark; polyshogi_session=abc123; x=y"));
        assert_eq!(session_token(&headers), Some("abc123".to_string()));
    }

    #[test]
    fn the_dummy_hash_is_a_hash_nothing_matches() {
        let hash = PasswordHash::new(DUMMY_HASH).expect("a PHC string");
        assert!(Argon2::default().verify_password(b"password", &hash).is_err());
    }
}
