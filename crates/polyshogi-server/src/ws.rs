//! One WebSocket connection to a game: the seat its `hello` token opens (or a spectator), the
//! state after the hello, an update after every change, the chat of its seat or of the
//! spectators, and the client's messages, checked and rate-limited.

use std::net::IpAddr;
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use polyshogi::player::Player;
use serde::Deserialize;
use serde_json::Value;
use tokio::sync::broadcast::error::RecvError;
use tokio::time::{interval_at, Instant};

use crate::accounts::SessionAccount;
use crate::app::{find_room, AppState};
use crate::client::ClientAddress;
use crate::json;
use crate::rate_limits::SeatKey;
use crate::room::RoomHandle;
use crate::store::ChatChannel;
use crate::table::Action;
use crate::wire::{ClientAction, ClientMessage, GameState, ServerMessage};

/// The longest message accepted, and the longest frame: a longer one ends the connection as
/// soon as its header says how long it is, before any of it is buffered.
const MAX_MESSAGE_BYTES: usize = 16 * 1024;
/// The WebSocket read buffer: one message fits, and more are read in several goes.
const READ_BUFFER_BYTES: usize = 4 * 1024;
/// How often the server pings a connection: browsers answer with a pong, so a connection on
/// which nothing arrives for the idle timeout (three pings by default) is gone.
pub const PING_EVERY: Duration = Duration::from_secs(30);

pub async fn upgrade(
    ws: WebSocketUpgrade,
    State(app): State<AppState>,
    Path(id): Path<String>,
    ClientAddress(address): ClientAddress,
    SessionAccount(account): SessionAccount,
) -> Response {
    let room = match find_room(&app, &id).await {
        Ok(room) => room,
        Err(response) => return response,
    };
    let limit = RateLimit { app, address, seat: None };
    // The account's name signs a spectator's chat lines (the browser sends the session cookie
    // with the upgrade request).
    let account = account.map(|a| a.name);
    // Client messages are small: a read buffer of their size, rather than the default 128 KiB
    // that is cleared for every read, took a fifth of the server's time under load.
    ws.max_frame_size(MAX_MESSAGE_BYTES)
        .max_message_size(MAX_MESSAGE_BYTES)
        .read_buffer_size(READ_BUFFER_BYTES)
        .on_upgrade(move |socket| connection(socket, room, limit, account))
}

/// The message budgets a connection draws on (docs/API.md): its client address's, and once it
/// holds a seat, that seat's, shared by every connection that holds it.
struct RateLimit {
    app: AppState,
    address: IpAddr,
    seat: Option<SeatKey>,
}

impl RateLimit {
    fn allow(&self) -> bool {
        self.app.rate_limits.allow_message(self.address, self.seat.as_ref())
    }
}

fn text_message(message: &ServerMessage) -> Message {
    // The wire types have only text keys, so writing them cannot fail.
    Message::Text(serde_json::to_string(message).expect("a server message is JSON").into())
}

fn error_message(message: &str) -> Message {
    text_message(&ServerMessage::Error { message: message.to_string() })
}

/// The state as this connection sees it: `you` is its seat.
fn state_message(state: &GameState, you: Option<&str>) -> Message {
    let game = GameState { you: you.map(str::to_string), ..state.clone() };
    text_message(&ServerMessage::State { game: Box::new(game) })
}

/// Waits for the connection's `hello` and answers the seat its token opens (`None`: a
/// spectator, a bad token included, after an error saying so); `None` if the connection ends
/// first. Anything else before the hello gets an error and changes nothing.
async fn greeting(socket: &mut WebSocket, room: &RoomHandle, limit: &RateLimit) -> Option<Option<Player>> {
    loop {
        let refusal = match socket.recv().await? {
            Err(_) | Ok(Message::Close(_)) => return None,
            Ok(Message::Ping(_) | Message::Pong(_)) => continue,
            Ok(_) if !limit.allow() => "slow down".to_string(),
            Ok(Message::Binary(_)) => "messages are JSON text, not binary".to_string(),
            Ok(Message::Text(text)) => match parse_message(text.as_str()) {
                Ok((Request::Hello(token), _)) => {
                    let Some(token) = token.filter(|t| !t.is_empty()) else { return Some(None) };
                    let seat = room.seat_for_token(&token);
                    if seat.is_none() {
                        socket.send(error_message("bad token")).await.ok()?;
                    }
                    return Some(seat);
                }
                Ok(_) => "say hello first: {\"type\": \"hello\", \"token\": …} (null for a spectator)".to_string(),
                Err(message) => message,
            },
        };
        socket.send(error_message(&refusal)).await.ok()?;
    }
}

async fn connection(mut socket: WebSocket, room: RoomHandle, mut limit: RateLimit, account: Option<String>) {
    let Some(seat) = greeting(&mut socket, &room, &limit).await else { return };
    limit.seat = seat.map(|seat| (room.id.clone(), seat));
    let you = seat.map(|s| room.seat_name(s));
    let mut ping = interval_at(Instant::now() + PING_EVERY, PING_EVERY);
    let Some((state, mut updates)) = room.join(seat).await else {
        let _ = socket.send(error_message("the game is not available")).await;
        return;
    };
    let channel = if seat.is_some() { ChatChannel::Players } else { ChatChannel::Spectators };
    let Some(chat) = room.chat_join(channel).await else {
        let _ = socket.send(error_message("the game is not available")).await;
        room.leave(seat).await;
        return;
    };
    let mut chat_lines = chat.lines;
    if socket.send(state_message(&state, you)).await.is_ok() && socket.send(Message::Text(chat.history)).await.is_ok() {
        loop {
            tokio::select! {
                incoming = socket.recv() => {
                    let reply = match incoming {
                        None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break,
                        Some(Ok(Message::Ping(_) | Message::Pong(_))) => None,
                        Some(Ok(_)) if !limit.allow() => Some("slow down".to_string()),
                        Some(Ok(Message::Binary(_))) => Some("messages are JSON text, not binary".to_string()),
                        Some(Ok(Message::Text(text))) => handle_text(&room, seat, account.as_deref(), text.as_str()).await.err(),
                    };
                    if let Some(message) = reply {
                        if socket.send(error_message(&message)).await.is_err() {
                            break;
                        }
                    }
                }
                update = updates.recv() => {
                    let message = match update {
                        Ok(text) => Message::Text(text),
                        // Too far behind to catch up change by change: the whole state again.
                        Err(RecvError::Lagged(_)) => {
                            let Some((state, fresh)) = room.join(None).await else { break };
                            updates = fresh;
                            state_message(&state, you)
                        }
                        // The game's owner stopped (the server is shutting down).
                        Err(RecvError::Closed) => break,
                    };
                    if socket.send(message).await.is_err() {
                        break;
                    }
                }
                line = chat_lines.recv() => {
                    match line {
                        Ok(text) => {
                            if socket.send(Message::Text(text)).await.is_err() {
                                break;
                            }
                        }
                        // Lines missed by a connection too far behind stay missed: a chat is
                        // not a record.
                        Err(RecvError::Lagged(_)) => {}
                        Err(RecvError::Closed) => break,
                    }
                }
                // Keeps idle connections alive through proxies, and draws the pongs that keep
                // a quiet client within the idle timeout: so on a clock of its own, which a
                // stream of updates does not put off.
                _ = ping.tick() => {
                    if socket.send(Message::Ping(Vec::new().into())).await.is_err() {
                        break;
                    }
                }
            }
        }
    }
    room.leave(seat).await;
}

/// Reads one client message and performs it; the error is the message for this client only.
async fn handle_text(room: &RoomHandle, seat: Option<Player>, account: Option<&str>, text: &str) -> Result<(), String> {
    const SECOND_HELLO: &str = "this connection has said hello already";
    let (request, named_seat) = parse_message(text)?;
    if matches!(request, Request::Hello(_)) {
        return Err(SECOND_HELLO.into());
    }
    if let Request::Chat(line) = request {
        return room.chat(seat, account.map(str::to_string), line).await;
    }
    let Some(seat) = seat else {
        return Err("spectators cannot act: say hello with a seat token".into());
    };
    if let Some(named) = named_seat {
        if named != room.seat_name(seat) {
            return Err(format!("you hold the {} seat, not {named}", room.seat_name(seat)));
        }
    }
    match request {
        Request::Hello(_) => Err(SECOND_HELLO.into()),
        Request::Act(action) => room.act(seat, action).await,
        Request::Rematch(agree) => room.rematch(seat, agree).await,
        Request::Chat(line) => room.chat(Some(seat), None, line).await,
    }
}

/// What a client message asks for.
#[derive(PartialEq, Debug)]
enum Request {
    /// To hold the seat of this token (`None`: to watch).
    Hello(Option<String>),
    Act(Action),
    /// To ask for (or agree to) a rematch, or to turn it down.
    Rematch(bool),
    /// To write a line in the connection's chat.
    Chat(String),
}

/// A client message: what it asks for, and the seat it names, if it names one.
fn parse_message(text: &str) -> Result<(Request, Option<String>), String> {
    let value = json::parse(text.as_bytes()).map_err(|e| if e.is_data() { e.to_string() } else { format!("not JSON: {e}") })?;
    let Value::Object(fields) = &value else { return Err("a message is a JSON object with a \"type\"".into()) };
    let kind = fields.get("type").and_then(Value::as_str).ok_or("a message needs a \"type\"")?;
    // Serde's own message would name Rust's view of the shape; the player is told what to fix.
    let message = ClientMessage::deserialize(&value).map_err(|_| match (kind, fields.get("seat")) {
        (_, Some(seat)) if !seat.is_string() && !seat.is_null() => "\"seat\" must be a seat name".to_string(),
        ("move", _) => "a move message needs the move text in \"move\"".to_string(),
        ("alliance", _) => "an alliance message needs \"accept\": true or false".to_string(),
        ("takeback_answer", _) => "a takeback answer needs \"accept\": true or false".to_string(),
        ("hello", _) => "a hello message needs the seat token in \"token\" (null for a spectator)".to_string(),
        ("chat", _) => "a chat message needs its line in \"text\"".to_string(),
        (other, _) => {
            let shown: String = other.chars().take(40).collect();
            format!(
                "unknown message type `{shown}` (known: hello, move, resign, offer_draw, decline_draw, takeback, takeback_answer, alliance, rematch, decline_rematch, chat)"
            )
        }
    })?;
    let request = match message.action {
        ClientAction::Hello { token } => Request::Hello(token),
        ClientAction::Move { text } => Request::Act(Action::Move(text)),
        ClientAction::Resign => Request::Act(Action::Resign),
        ClientAction::OfferDraw => Request::Act(Action::OfferDraw),
        ClientAction::DeclineDraw => Request::Act(Action::DeclineDraw),
        ClientAction::Takeback => Request::Act(Action::RequestTakeback),
        ClientAction::TakebackAnswer { accept } => Request::Act(Action::AnswerTakeback(accept)),
        ClientAction::Alliance { accept } => Request::Act(Action::Answer(accept)),
        ClientAction::Rematch => Request::Rematch(true),
        ClientAction::DeclineRematch => Request::Rematch(false),
        ClientAction::Chat { text } => Request::Chat(text),
    };
    Ok((request, message.seat))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_parse_or_say_what_is_wrong() {
        assert_eq!(parse_message(r#"{"type":"move","move":"P3c-4d"}"#), Ok((Request::Act(Action::Move("P3c-4d".into())), None)));
        assert_eq!(
            parse_message(r#"{"type":"alliance","accept":false,"seat":"Last"}"#),
            Ok((Request::Act(Action::Answer(false)), Some("Last".into())))
        );
        assert_eq!(parse_message(r#"{"type":"hello","token":"abc"}"#), Ok((Request::Hello(Some("abc".into())), None)));
        assert_eq!(parse_message(r#"{"type":"hello"}"#), Ok((Request::Hello(None), None)));
        assert!(parse_message(r#"{"type":"hello","token":5}"#).unwrap_err().contains("seat token"));
        assert!(parse_message("hello").unwrap_err().starts_with("not JSON"));
        assert!(parse_message("[1]").is_err());
        assert!(parse_message(r#"{"type":"castle"}"#).unwrap_err().contains("unknown message type `castle`"));
        assert!(parse_message(r#"{"type":"move"}"#).is_err());
        assert!(parse_message(r#"{"type":"alliance","accept":"yes"}"#).is_err());
        assert_eq!(parse_message(r#"{"type":"resign","seat":5}"#), Err("\"seat\" must be a seat name".to_string()));
        assert_eq!(
            parse_message(r#"{"type":"resign","type":"move","move":"P3c-4d"}"#),
            Err("the key \"type\" appears twice in one object at line 1 column 23".to_string())
        );
    }
}
