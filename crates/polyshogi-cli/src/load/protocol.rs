//! The one place that knows the game's WebSocket messages (docs/API.md): what a `state`, an
//! `update`, a `chat` or an `error` looks like, how the move count, the seat to move and the legal moves
//! are read, and the texts of `hello`, `move` and `resign`.
//!
//! Everything else sees a `GameView` (what one connection knows of its game) and the `Update`
//! each message brings.

use std::borrow::Cow;

use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::value::RawValue;

/// What one connection knows of its game, kept up to date by `apply`.
#[derive(Debug, Clone)]
pub struct GameView {
    /// The game's seat names, in turn order (from the creation reply).
    seats: Vec<String>,
    /// The game's `version`: actions taken so far; never goes down.
    pub version: u64,
    /// Moves made so far: the ply of the last move (0 at the start).
    pub plies: u32,
    /// The index in `seats` of the seat to move; `None` once the game is over.
    pub to_move: Option<usize>,
    /// The game has an outcome.
    pub finished: bool,
    /// No state seen yet.
    pub fresh: bool,
}

/// What one server message changed.
#[derive(Debug)]
pub enum Update<'m> {
    /// A newer state or update: the view moved on. `legal_moves` are those of the seat to move (empty
    /// once the game is over); `whole` for a `state` (every move of the game), not an `update`.
    State { legal_moves: LegalMoves<'m>, whole: bool },
    /// A state or update no newer than the view (a seat connecting or leaving, or a rematch
    /// asked for), or a chat line: no move changed.
    Stale,
    /// The server refused this connection's last message.
    Refused(Cow<'m, str>),
}

/// The legal moves of a state, read only when asked for: spectators and the seats not to move
/// never build the list.
#[derive(Debug, Clone, Copy)]
pub struct LegalMoves<'m>(&'m RawValue);

impl<'m> LegalMoves<'m> {
    /// The move texts, borrowed from the message (move texts carry no JSON escapes).
    pub fn texts(&self) -> Result<Vec<&'m str>, ProtocolError> {
        serde_json::from_str(self.0.get()).map_err(|e| ProtocolError(format!("unreadable legal moves: {e}")))
    }
}

/// A message the tool cannot read.
#[derive(Debug)]
pub struct ProtocolError(pub String);

impl std::fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A server message, reading only the fields the tool needs; serde skips the rest (board,
/// hands, position, move texts) without building them. A plain struct rather than an enum
/// tagged by `type`: serde would first copy a tagged message whole into a tree of its own.
#[derive(Deserialize)]
struct ServerMessage<'m> {
    #[serde(borrow, rename = "type")]
    kind: Cow<'m, str>,
    /// With `state` and `update`.
    #[serde(borrow)]
    game: Option<GameFields<'m>>,
    /// With `error`.
    #[serde(borrow)]
    message: Option<Cow<'m, str>>,
}

#[derive(Deserialize)]
struct GameFields<'m> {
    version: u64,
    #[serde(borrow)]
    to_move: Option<Cow<'m, str>>,
    /// Kept as raw JSON: only a seat whose turn it is reads it.
    #[serde(borrow)]
    legal_moves: &'m RawValue,
    outcome: Option<IgnoredAny>,
    /// With `update`: how many of the moves the view has stay; `moves` follow them.
    moves_from: Option<usize>,
    /// Only counted: a `Vec` of a zero-sized type never allocates.
    moves: Vec<IgnoredAny>,
}

impl GameView {
    pub fn new(seats: Vec<String>) -> GameView {
        GameView { seats, version: 0, plies: 0, to_move: None, finished: false, fresh: true }
    }

    /// The seat names, in turn order.
    pub fn seats(&self) -> &[String] {
        &self.seats
    }

    /// Reads one text message from the server and moves the view on.
    pub fn apply<'m>(&mut self, text: &'m str) -> Result<Update<'m>, ProtocolError> {
        let message: ServerMessage<'m> =
            serde_json::from_str(text).map_err(|e| ProtocolError(format!("unreadable server message: {e}")))?;
        let game = match (message.kind.as_ref(), message.game, message.message) {
            ("state" | "update", Some(game), _) => game,
            ("error", _, Some(refusal)) => return Ok(Update::Refused(refusal)),
            ("chat", _, _) => return Ok(Update::Stale),
            (kind, _, _) => return Err(ProtocolError(format!("unexpected server message of type `{kind}`"))),
        };
        if !self.fresh && game.version <= self.version {
            return Ok(Update::Stale);
        }
        let to_move = match &game.to_move {
            None => None,
            Some(name) => Some(
                self.seats
                    .iter()
                    .position(|seat| seat == name)
                    .ok_or_else(|| ProtocolError(format!("unknown seat to move: {name}")))?,
            ),
        };
        let whole = message.kind == "state";
        let kept = match (message.kind.as_ref(), game.moves_from) {
            ("state", _) => 0,
            (_, Some(kept)) if kept <= self.plies as usize => kept,
            (_, kept) => return Err(ProtocolError(format!("an update keeps {kept:?} moves of {}", self.plies))),
        };
        let plies = u32::try_from(kept + game.moves.len()).map_err(|_| ProtocolError("too many moves".into()))?;
        self.version = game.version;
        self.plies = plies;
        self.to_move = to_move;
        self.finished = game.outcome.is_some();
        self.fresh = false;
        Ok(Update::State { legal_moves: LegalMoves(game.legal_moves), whole })
    }
}

/// The first message of a connection: a seat's token, or `None` to watch.
pub fn hello(token: Option<&str>) -> String {
    serde_json::json!({ "type": "hello", "token": token }).to_string()
}

/// Writes a `move` message into `out` (cleared first), reusing its buffer.
pub fn write_move(out: &mut String, move_text: &str) {
    out.clear();
    out.push_str(r#"{"type":"move","move":"#);
    // Move texts are plain ASCII and go in as they are; anything else is escaped by serde_json.
    if move_text.bytes().all(|b| (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\') {
        out.push('"');
        out.push_str(move_text);
        out.push('"');
    } else {
        out.push_str(&serde_json::to_string(move_text).expect("a str is JSON"));
    }
    out.push('}');
}

/// Writes a `resign` message into `out` (cleared first).
pub fn write_resign(out: &mut String) {
    out.clear();
    out.push_str(r#"{"type":"resign"}"#);
}

/// Whether a refusal is the rate limit's.
pub fn is_rate_limited(refusal: &str) -> bool {
    refusal == "slow down"
}

/// The reply to `POST /api/games`: the game's id and each seat's name and token.
#[derive(Deserialize)]
pub struct Created {
    pub id: String,
    pub seats: Vec<CreatedSeat>,
}

#[derive(Deserialize)]
pub struct CreatedSeat {
    pub seat: String,
    pub token: Option<String>,
}

/// A variant of `GET /api/variants`: its name and seats.
#[derive(Deserialize)]
pub struct VariantSeats {
    pub name: String,
    pub seats: Vec<String>,
}

/// The body of `POST /api/games` for a game of `variant` with every seat human, no clock.
pub fn new_game_body(variant: &str, seats: usize) -> serde_json::Value {
    let human = serde_json::json!({ "kind": "human" });
    serde_json::json!({ "variant": variant, "seats": vec![human; seats] })
}

/// The move count of a game as `GET /api/games/{id}` tells it.
pub fn plies_of_game_state(body: &str) -> Result<u32, ProtocolError> {
    #[derive(Deserialize)]
    struct Moves {
        moves: Vec<IgnoredAny>,
    }
    let game: Moves = serde_json::from_str(body).map_err(|e| ProtocolError(format!("unreadable game state: {e}")))?;
    u32::try_from(game.moves.len()).map_err(|_| ProtocolError("too many moves".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view() -> GameView {
        GameView::new(vec!["Black".into(), "White".into()])
    }

    #[test]
    fn a_state_moves_the_view_on() {
        let mut view = view();
        let text = r#"{"type":"state","game":{"id":"x","version":3,"to_move":"White","board":[],"legal_moves":["P1a-1b","K*2c"],"outcome":null,"moves":[{"ply":1},{"ply":2},{"ply":3}],"you":"White"}}"#;
        let Update::State { legal_moves, whole: true } = view.apply(text).unwrap() else { panic!("a state") };
        assert_eq!(legal_moves.texts().unwrap(), ["P1a-1b", "K*2c"]);
        assert_eq!((view.version, view.plies, view.to_move, view.finished), (3, 3, Some(1), false));
        assert!(matches!(view.apply(text).unwrap(), Update::Stale));
    }

    #[test]
    fn an_update_moves_the_view_on_from_the_moves_it_keeps() {
        let mut view = view();
        view.apply(
            r#"{"type":"state","game":{"version":3,"to_move":"White","legal_moves":[],"outcome":null,"moves":[{},{},{}]}}"#,
        )
        .unwrap();
        let update = r#"{"type":"update","game":{"version":4,"to_move":"Black","legal_moves":["P1a-1b"],"outcome":null,"moves_from":3,"moves":[{}]}}"#;
        let Update::State { legal_moves, whole: false } = view.apply(update).unwrap() else { panic!("an update") };
        assert_eq!(legal_moves.texts().unwrap(), ["P1a-1b"]);
        assert_eq!((view.version, view.plies, view.to_move), (4, 4, Some(0)));
        // A takeback keeps fewer moves than the view has.
        let takeback = r#"{"type":"update","game":{"version":6,"to_move":"White","legal_moves":[],"outcome":null,"moves_from":1,"moves":[]}}"#;
        view.apply(takeback).unwrap();
        assert_eq!((view.version, view.plies, view.to_move), (6, 1, Some(1)));
        // An update that would leave a gap is not believed.
        let gap = r#"{"type":"update","game":{"version":7,"to_move":"Black","legal_moves":[],"outcome":null,"moves_from":5,"moves":[{}]}}"#;
        assert!(view.apply(gap).is_err());
    }

    #[test]
    fn an_ended_game_has_no_seat_to_move() {
        let mut view = view();
        let text =
            r#"{"type":"state","game":{"version":9,"to_move":null,"legal_moves":[],"outcome":{"text":"Black wins"},"moves":[]}}"#;
        view.apply(text).unwrap();
        assert!(view.finished);
        assert_eq!(view.to_move, None);
    }

    #[test]
    fn an_error_is_a_refusal() {
        let Update::Refused(text) = view().apply(r#"{"type":"error","message":"slow down"}"#).unwrap() else {
            panic!("a refusal")
        };
        assert!(is_rate_limited(&text));
    }

    #[test]
    fn a_chat_line_changes_no_move() {
        let mut view = view();
        let chat = r#"{"type":"chat","lines":[{"channel":"players","author":"alice","seat":"Black","text":"hi","ms":1}]}"#;
        assert!(matches!(view.apply(chat).unwrap(), Update::Stale));
        assert!(view.fresh);
    }

    #[test]
    fn a_move_message_is_json() {
        let mut out = String::new();
        write_move(&mut out, "P*3g");
        let value: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(value, serde_json::json!({ "type": "move", "move": "P*3g" }));
    }
}
