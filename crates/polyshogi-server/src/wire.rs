//! Every JSON shape of docs/API.md as a serde type: the HTTP answers and bodies, and the
//! WebSocket messages both ways. A leaf: it knows serde, not the server or the rules.
//!
//! Field names, order and nulls are the wire format. tests/api_doc.rs parses each example of
//! docs/API.md into these types and writes it back unchanged, so a change here that the doc
//! does not follow (or the other way round) fails a test.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize};

pub use crate::ratings::ShownRating;

/// `GET /api/variants`: one playable variant.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct VariantInfo {
    /// The key used everywhere else (`sannin`).
    pub name: String,
    /// The name shown to players (`Sannin shogi`).
    pub title: String,
    /// The seat names, in turn order.
    pub seats: Vec<String>,
    pub options: Vec<RuleOption>,
    /// Shown to players, e.g. that a setup is a reconstruction.
    pub note: Option<String>,
}

/// A rule option of a variant, as `key=value` text.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct RuleOption {
    pub key: String,
    pub default: String,
    /// The choices; `None` for free text, such as a number.
    pub values: Option<Vec<String>>,
    /// The option's name for players.
    pub label: String,
    /// What it decides, in one line.
    pub explanation: String,
    /// Where the default comes from.
    pub source: String,
}

/// `GET /api/levels`: a playing level a bot seat may have.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct LevelInfo {
    /// The name a bot seat's `level` takes (`beginner`).
    pub name: String,
    /// The name shown to players.
    pub label: String,
    /// How strong it plays, in a line.
    pub strength: String,
    /// The level a lobby offers first.
    pub default: bool,
}

/// `GET /api/variants/{name}/layout`: the board for drawing.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Layout {
    pub title: String,
    pub cells: Vec<LayoutCell>,
    pub centre: Centre,
    /// Cells with a meaning of their own (the Pleasure Garden).
    pub marked: Vec<String>,
    /// Clockwise degrees per seat, in seat order.
    pub seat_rotation: Vec<i32>,
    /// The name of each piece letter of the variant, unpromoted.
    pub pieces: BTreeMap<char, String>,
    /// The kanji of a traditional piece set: each letter (`R`) and, where the piece promotes in
    /// this variant, its promoted form (`+R`) → the glyph written on the piece.
    pub kanji: BTreeMap<String, String>,
}

/// `GET /api/variants/{name}/pieces`: how one piece kind moves, from the rules.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct PieceMoves {
    pub letter: char,
    pub promoted: bool,
    /// For players: `rook`, `promoted rook`.
    pub name: String,
    /// The cell it stands on, in the middle of an empty board, owned by the seat drawn at the
    /// bottom.
    pub from: String,
    /// The cells it reaches in one move.
    pub reach: Vec<String>,
}

#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct LayoutCell {
    pub name: String,
    pub shape: CellShape,
    /// The centre (see `Centre`); y grows downward.
    pub x: f64,
    pub y: f64,
}

/// A hexagon has circumradius 1, a triangle side 2.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CellShape {
    Hexagon,
    TriangleUp,
    TriangleDown,
}

/// What a cell's (x, y) is.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Centre {
    /// The centroid: for a triangle, a third of its height above its base.
    Centroid,
}

/// `POST /api/games`: the body that creates a game.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct NewGame {
    /// A variant's `name`.
    pub variant: String,
    /// `key=value` rule options; left out or null: the defaults.
    #[serde(default, deserialize_with = "null_as_default")]
    pub rules: Vec<String>,
    /// `None`: no clock.
    #[serde(default)]
    pub clock: Option<Clock>,
    /// One per seat, in seat order.
    pub seats: Vec<Occupant>,
    /// Whether the result changes the players' ratings (accounts only, no bots).
    #[serde(default, deserialize_with = "null_as_default")]
    pub rated: bool,
}

/// A game's clock: each seat starts with `initial_ms` and gains `increment_ms` per move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Clock {
    pub initial_ms: i64,
    /// Left out or null in a request: no increment.
    #[serde(default, deserialize_with = "null_as_default")]
    pub increment_ms: i64,
}

/// Who sits in a seat: `{ "kind": "human" }` or `{ "kind": "bot", "level": "random" }`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Occupant {
    /// A seat reached by its link.
    Human,
    /// In a request only: the creator's own seat (his account's, when he is logged in).
    Me,
    /// A seat left open to anyone, listed in the lobby until it is taken.
    Open,
    /// `level` is one of `GET /api/levels`.
    Bot { level: String },
}

/// The answer to `POST /api/games`: the links to hand out.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Created {
    pub id: String,
    pub seats: Vec<CreatedSeat>,
    pub spectator_link: String,
}

#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct CreatedSeat {
    pub seat: String,
    #[serde(flatten)]
    pub access: SeatAccess,
}

/// How a new seat is reached: a human's token, told once and never again, or a bot's level.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SeatAccess {
    Human { token: String, link: String },
    Open,
    Bot { level: String },
}

/// The answer to `POST /api/games/{id}/seats/{seat}`: the open seat taken, and its link.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct TakenSeat {
    pub seat: String,
    #[serde(flatten)]
    pub access: SeatAccess,
}

/// An account at a seat, with its rating in the game's variant.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct SeatPlayer {
    pub name: String,
    #[serde(flatten)]
    pub rating: ShownRating,
}

/// Any refused request: `{ "error": "…" }`, the text naming what was wrong.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ErrorBody {
    pub error: String,
}

/// `GET /api/games/{id}` and the WebSocket `state`: a game as its room holds it.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct GameState {
    pub id: String,
    /// How many actions the game has taken. It never goes down (a takeback is an action too),
    /// so a client can drop a state older than the one it shows.
    pub version: i64,
    pub variant: String,
    pub rules: Vec<String>,
    pub clock: Option<Clock>,
    /// Whether the result changes the players' ratings.
    pub rated: bool,
    /// While a seat is open: when the game expires (ms since the epoch); no move is played
    /// before every seat is taken.
    pub open_until_ms: Option<i64>,
    pub seats: Vec<SeatState>,
    /// The rules' part: position, legal moves, alliances, draw offers, outcome.
    #[serde(flatten)]
    pub table: TableView,
    pub moves: Vec<MoveEntry>,
    /// What happened before the first move (a resignation, a flag, a draw offer turned down):
    /// after a move, events are told with it.
    pub opening_events: Vec<String>,
    /// Once the game is over: who asked for a rematch, and the new game once every player agreed.
    pub rematch: Option<RematchView>,
    /// The seat of the connection's token; `None` over HTTP and for spectators.
    pub you: Option<String>,
}

/// A rematch of a finished game: the same players, rules and clock, each player one seat on
/// (the two-player games: colours swapped).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct RematchView {
    /// The seats whose players asked for it (bots agree at once and are not listed).
    pub offered_by: Vec<String>,
    /// The new game, once every player agreed.
    pub game: Option<String>,
    /// Seat here → the seat its player takes in the rematch. The token of a seat here opens its
    /// seat there, so no new token is handed out.
    pub next_seat: BTreeMap<String, String>,
}

#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct SeatState {
    pub seat: String,
    #[serde(flatten)]
    pub occupant: Occupant,
    /// A human with a connection open; a bot is always connected.
    pub connected: bool,
    /// What is left on the seat's clock; `None` without a clock.
    pub clock_ms: Option<i64>,
    /// Still in the game: not resigned, flagged or mated.
    pub active: bool,
    /// The account at the seat; `None` for an anonymous seat, a bot or an open seat.
    pub player: Option<SeatPlayer>,
}

/// The part of the game state the rules decide.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct TableView {
    #[serde(flatten)]
    pub drawn: DrawnPosition,
    /// The position string of docs/FORMATS.md.
    pub position: String,
    /// The canonical text of every legal move of the seat to move.
    pub legal_moves: Vec<String>,
    /// The alliance in force (Sannin shogi).
    pub alliance: Option<AllianceView>,
    /// A proposed alliance waiting for its allies' answers (`compulsory=confirm`).
    pub pending_alliance: Option<AllianceView>,
    pub draw_offered_by: Vec<String>,
    /// A takeback asked for and not yet settled.
    pub takeback: Option<TakebackView>,
    pub outcome: Option<OutcomeView>,
}

/// A player's request to take back his last move (and every move after it).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct TakebackView {
    pub by: String,
    /// How many moves stay: the game goes back to the position after move `to_ply`.
    pub to_ply: usize,
    /// The players whose consent it still waits for.
    pub waiting_for: Vec<String>,
}

/// A position as the client draws it.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct DrawnPosition {
    /// `None` once the game is over.
    pub to_move: Option<String>,
    /// The occupied cells, in layout order.
    pub board: Vec<BoardPiece>,
    /// Each seat's pieces in hand: letter → count, pieces held only.
    pub hands: BTreeMap<String, BTreeMap<char, u8>>,
    /// The seats still in the game whose king is attacked, in seat order; always empty in the
    /// games without check (Sankaku shogi).
    pub in_check: Vec<String>,
}

#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct BoardPiece {
    pub cell: String,
    pub seat: String,
    /// The unpromoted letter.
    pub letter: char,
    pub promoted: bool,
}

/// One move of the move list. What followed it before the next move (alliance answers,
/// resignations, flags, a draw) is told among its events.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct MoveEntry {
    /// 1 for the first move.
    pub ply: usize,
    pub seat: String,
    #[serde(rename = "move")]
    pub canonical: String,
    pub short: String,
    /// What the move set off, in words.
    pub events: Vec<String>,
}

#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct AllianceView {
    pub allies: Vec<String>,
    pub against: String,
}

#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct OutcomeView {
    pub text: String,
    /// Each seat's place (1 is best); empty when the game ended without placings.
    pub placings: BTreeMap<String, u8>,
    /// Ended without result: a human seat did not make its first move in time.
    pub aborted: bool,
}

/// `GET /api/games/{id}/positions/{ply}`: the position after move `ply` (0: the start) and
/// whatever followed it before the next move.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct PositionAt {
    pub ply: usize,
    #[serde(flatten)]
    pub drawn: DrawnPosition,
}

/// After a change, to every connection of a game: the game state's fields that can change, and
/// the move list from the first entry that changed. Made and serialized once for all
/// connections, and as large after move 2,000 as after move 10.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct GameUpdate {
    pub version: i64,
    pub open_until_ms: Option<i64>,
    pub seats: Vec<SeatState>,
    #[serde(flatten)]
    pub table: TableView,
    /// The client keeps its first `moves_from` moves and puts `moves` after them (a takeback
    /// sends fewer moves than the client has).
    pub moves_from: usize,
    pub moves: Vec<MoveEntry>,
    pub opening_events: Vec<String>,
    pub rematch: Option<RematchView>,
}

/// A WebSocket message from the server.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// After the hello, and again if the connection fell too far behind the updates.
    State { game: Box<GameState> },
    /// After every change.
    Update { game: Box<GameUpdate> },
    /// To the sender of a refused message only.
    Error { message: String },
    /// Chat lines of the connection's channel: the latest ones after the state, then each new one.
    Chat { lines: Vec<ChatLine> },
}

/// A line of a game's chat.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ChatLine {
    /// `players` (the seats' chat) or `spectators`.
    pub channel: String,
    /// The account's name, or the seat's name for a seat without an account.
    pub author: String,
    /// The writer's seat, in the players' chat.
    pub seat: Option<String>,
    pub text: String,
    pub ms: i64,
}

/// A WebSocket message from a client: an action, and the seat it is meant for if it names one
/// (the server refuses it when that is not the connection's seat).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ClientMessage {
    #[serde(flatten)]
    pub action: ClientAction,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<String>,
}

#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientAction {
    /// The first message of every connection: the seat token, or `None` for a spectator. The
    /// token travels here, never in a URL, so that it stays out of logs.
    Hello {
        #[serde(default)]
        token: Option<String>,
    },
    /// A move in canonical or short text.
    Move {
        #[serde(rename = "move")]
        text: String,
    },
    Resign,
    /// Offers a draw, or accepts one when every other player still in has offered.
    OfferDraw,
    /// Declines the draw the others offered: every offer is withdrawn.
    DeclineDraw,
    /// Asks to take back one's last move and every move after it.
    Takeback,
    /// Answers another player's takeback request.
    TakebackAnswer {
        accept: bool,
    },
    /// Answers a proposed alliance.
    Alliance {
        accept: bool,
    },
    /// After the game: asks for a rematch, or agrees to the one asked for.
    Rematch,
    /// Turns down the rematch asked for: every request is withdrawn.
    DeclineRematch,
    /// Writes a line in the connection's chat.
    Chat {
        text: String,
    },
}

/// Reads `null` as the default, as a field left out is read.
fn null_as_default<'de, D: Deserializer<'de>, T: Default + Deserialize<'de>>(deserializer: D) -> Result<T, D::Error> {
    Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_default())
}

/// `GET /api/account` and the answers of logging in and out: who the session is.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct AccountView {
    pub name: Option<String>,
}

/// The body of registering and logging in.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Credentials {
    pub name: String,
    pub password: String,
}

/// `GET /api/lobby` and the lobby WebSocket's games: the open games, newest first.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Lobby {
    pub games: Vec<LobbyGame>,
}

/// The lobby WebSocket's one message.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LobbyMessage {
    Lobby { games: Vec<LobbyGame> },
}

/// An open game: what it is, and who sits where.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct LobbyGame {
    pub id: String,
    pub variant: String,
    pub rated: bool,
    pub rules: Vec<String>,
    pub clock: Option<Clock>,
    pub created_ms: i64,
    pub expires_ms: i64,
    pub seats: Vec<ListedSeat>,
}

/// A seat of a listed game: `kind` `human`, `open` or `bot` (with its `level`), and the
/// account at it (a human seat without one is anonymous).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ListedSeat {
    pub seat: String,
    pub kind: String,
    pub player: Option<SeatPlayer>,
    pub level: Option<String>,
}

/// `GET /api/games`: a page of finished games, newest first.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct GameList {
    pub page: i64,
    /// Whether there is a page after this one.
    pub more: bool,
    pub games: Vec<FinishedGame>,
}

#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct FinishedGame {
    pub id: String,
    pub variant: String,
    pub rated: bool,
    pub rules: Vec<String>,
    pub clock: Option<Clock>,
    pub created_ms: i64,
    pub finished_ms: Option<i64>,
    pub plies: Option<i64>,
    pub result: Option<String>,
    pub seats: Vec<FinishedSeat>,
}

/// A seat of a finished game: who sat there, his place, and what the game did to his rating.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct FinishedSeat {
    pub seat: String,
    pub kind: String,
    pub player: Option<PlayerName>,
    pub level: Option<String>,
    pub place: Option<i64>,
    pub rating_before: Option<i64>,
    pub rating_after: Option<i64>,
}

#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct PlayerName {
    pub name: String,
}

/// `GET /api/players/{name}`: a player's page.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct PlayerProfile {
    pub name: String,
    pub created_ms: i64,
    /// Each variant he has played rated games of.
    pub ratings: Vec<VariantRating>,
}

#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct VariantRating {
    pub variant: String,
    #[serde(flatten)]
    pub rating: ShownRating,
    pub games: i64,
    /// After each rated game, oldest first.
    pub history: Vec<RatingPoint>,
}

#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct RatingPoint {
    pub game: String,
    pub ms: i64,
    pub rating: i64,
    pub deviation: i64,
}

/// `POST /api/study/position`, and the position of an `analyse` message: a start and moves,
/// or a whole record cut after `ply` moves.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(untagged)]
pub enum StudyRequest {
    Moves(StudyMoves),
    Record(StudyRecord),
}

/// A position given as a record, cut after `ply` moves.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct StudyRecord {
    pub record: String,
    /// Moves kept from the record; left out or null: all of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ply: Option<usize>,
}

/// A position given as a variant's start (or a position string) and the moves after it.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct StudyMoves {
    pub variant: String,
    #[serde(default, deserialize_with = "null_as_default")]
    pub rules: Vec<String>,
    /// A position string; `None`: the variant's start position.
    #[serde(default)]
    pub start: Option<String>,
    /// Move texts, answers (`accept`, `refuse`) and departures (`resign:Middle`).
    #[serde(default, deserialize_with = "null_as_default")]
    pub moves: Vec<String>,
}

/// The answer to `POST /api/study/position`: the moves played and the position they reach.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct StudyPosition {
    pub variant: String,
    pub rules: Vec<String>,
    /// The start as a position string.
    pub start: String,
    pub moves: Vec<MoveEntry>,
    #[serde(flatten)]
    pub drawn: DrawnPosition,
    pub position: String,
    pub legal_moves: Vec<String>,
    pub alliance: Option<AllianceView>,
    pub pending_alliance: Option<AllianceView>,
    pub outcome: Option<OutcomeView>,
}

/// A message from a client of `GET /api/analysis/ws`.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum AnalysisRequest {
    /// Analyse this position (instead of the one being analysed).
    Analyse {
        #[serde(flatten)]
        position: StudyMoves,
        /// How many moves to show, best first; left out: 3.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lines: Option<usize>,
    },
    Stop,
}

/// A message to a client of `GET /api/analysis/ws`.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum AnalysisMessage {
    /// One finished iteration of the search, with every line.
    Analysis(Box<AnalysisReport>),
    /// The analysis ended: `stopped`, `finished` or `time`.
    AnalysisEnd {
        reason: String,
    },
    Error {
        message: String,
    },
}

#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct AnalysisReport {
    pub depth: u32,
    pub seldepth: u32,
    pub nodes: u64,
    pub nps: u64,
    pub time_ms: u64,
    /// Best first.
    pub lines: Vec<AnalysisLine>,
}

#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct AnalysisLine {
    /// Each seat's value in centipawns, from its own point of view.
    pub scores: BTreeMap<String, i32>,
    /// The line in canonical text, and in short text.
    pub moves: Vec<String>,
    pub short: Vec<String>,
}

/// `GET /api/games/{id}/review`: a finished game's positions evaluated one by one.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Review {
    /// `queued`, `running` or `done`.
    pub status: String,
    pub done: usize,
    /// The game's moves plus its start.
    pub total: usize,
    pub plies: Vec<ReviewPly>,
}

/// The position after move `ply` (0: the start), evaluated.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct ReviewPly {
    pub ply: usize,
    pub scores: BTreeMap<String, i32>,
    /// The engine's move for the seat to move there; `None` once the game is over.
    pub best: Option<String>,
    pub best_short: Option<String>,
    /// How much the move that led here cost its mover, in centipawns; `None` at the start.
    pub loss: Option<i32>,
    /// `inaccuracy`, `mistake` or `blunder` for a costly move.
    pub mark: Option<String>,
}
