//! Storage of games: a small `Store` trait (what a live game needs from a database) and its
//! sqlx implementation (`sql`), one set of portable SQL for SQLite files and PostgreSQL alike,
//! whose writes go through one group-committing writer (`group_commit`). On PostgreSQL every
//! stored action is also announced to the other server processes on the database (`changes`).

mod changes;
mod group_commit;
mod players;
mod sql;

use std::fmt;

use async_trait::async_trait;
use tokio::sync::mpsc;

pub use changes::Change;
pub use players::{
    Account, ChatChannel, ChatLine, GameFilter, ListedGame, ListedSeat, NewUser, PlayerRecord, RatingPoint, RatingUpdate,
    SeatTaken, Settled, Settlement, VariantRating,
};
pub use sql::{normalize_url, SqlStore};

use crate::ratings::Rating;

/// Why storage failed.
#[derive(Debug)]
pub enum StoreError {
    /// The URL names no database sqlx can open (`sqlite:…` or `postgres://…`).
    Url(String),
    Database(sqlx::Error),
    Migration(sqlx::migrate::MigrateError),
    /// A stored row cannot be read back (a hand-edited database, or a newer schema).
    Corrupt(String),
    /// The writer has stopped: the store is closed.
    Closed,
    /// Another server process on the database stored an action of this game at the same place
    /// first: nothing was written.
    Conflict,
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Url(url) => write!(f, "unsupported database URL `{url}` (expected sqlite:FILE or postgres://…)"),
            StoreError::Database(e) => write!(f, "database: {e}"),
            StoreError::Migration(e) => write!(f, "database migration: {e}"),
            StoreError::Corrupt(what) => write!(f, "stored data cannot be read: {what}"),
            StoreError::Closed => write!(f, "the store is closed"),
            StoreError::Conflict => write!(f, "another server stored an action of this game first"),
        }
    }
}

impl std::error::Error for StoreError {}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        StoreError::Database(e)
    }
}

/// A seat as stored: a human (with the hash of his token, and his account if he has one), a
/// seat left open to anyone, or a bot (with its level).
#[derive(Clone, PartialEq, Debug)]
pub enum StoredSeat {
    Human { token_hash: String, player: Option<SeatPlayer> },
    Open,
    Bot { level: String },
}

/// The account at a seat, and its rating in the game's variant when it sat down.
#[derive(Clone, PartialEq, Debug)]
pub struct SeatPlayer {
    pub user_id: String,
    pub name: String,
    pub rating: Rating,
}

/// What a stored action did.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ActionKind {
    /// `detail` is the canonical move text.
    Move,
    /// An answer to a proposed alliance; `detail` is `accept` or `refuse`.
    Answer,
    Resign,
    /// The seat's clock ran out: a resignation.
    Flag,
    OfferDraw,
    DeclineDraw,
    RequestTakeback,
    /// An answer to a takeback request; `detail` is `accept` or `refuse`.
    AnswerTakeback,
    /// The seat did not make its first move in time: the game ends without result. A server
    /// end, not a rule of the game, so it is never given to the rules when replayed.
    Abort,
    /// After the end: every player agreed to a rematch; `detail` is the new game's id. Not a
    /// rule of the game either.
    Rematch,
    /// After the end: a seat asks for a rematch (not every player has yet).
    AskRematch,
    /// After the end: a seat turns the rematch asked for down.
    DeclineRematch,
    /// An open seat is taken; `detail` is `SeatTaken::detail`. Not a rule of the game.
    Sit,
    /// Nobody took the open seats in time: the game ends without result, like an abort.
    Expire,
}

impl ActionKind {
    pub const ALL: [ActionKind; 14] = [
        ActionKind::Move,
        ActionKind::Answer,
        ActionKind::Resign,
        ActionKind::Flag,
        ActionKind::OfferDraw,
        ActionKind::DeclineDraw,
        ActionKind::RequestTakeback,
        ActionKind::AnswerTakeback,
        ActionKind::Abort,
        ActionKind::Rematch,
        ActionKind::AskRematch,
        ActionKind::DeclineRematch,
        ActionKind::Sit,
        ActionKind::Expire,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ActionKind::Move => "move",
            ActionKind::Answer => "answer",
            ActionKind::Resign => "resign",
            ActionKind::Flag => "flag",
            ActionKind::OfferDraw => "offer_draw",
            ActionKind::DeclineDraw => "decline_draw",
            ActionKind::RequestTakeback => "takeback",
            ActionKind::AnswerTakeback => "takeback_answer",
            ActionKind::Abort => "abort",
            ActionKind::Rematch => "rematch",
            ActionKind::AskRematch => "rematch_ask",
            ActionKind::DeclineRematch => "rematch_decline",
            ActionKind::Sit => "sit",
            ActionKind::Expire => "expire",
        }
    }

    pub fn from_name(name: &str) -> Option<ActionKind> {
        ActionKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// One action of a game, numbered from 0 in the order it was taken.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct StoredAction {
    pub seq: i64,
    /// The seat's index in turn order.
    pub seat: usize,
    pub kind: ActionKind,
    pub detail: String,
    /// Each seat's remaining time after the action (games with a clock).
    pub clocks: Option<Vec<i64>>,
    pub created_ms: i64,
}

/// A game as stored: how it was set up, and every action since.
#[derive(Clone, PartialEq, Debug)]
pub struct StoredGame {
    pub id: String,
    pub variant: String,
    pub rules: Vec<String>,
    pub start_position: Option<String>,
    /// (initial, increment) in ms.
    pub clock: Option<(i64, i64)>,
    pub created_ms: i64,
    pub seats: Vec<StoredSeat>,
    /// Whether the result changes the players' ratings.
    pub rated: bool,
    /// While a seat is open: when the game expires, in ms since the epoch.
    pub open_until_ms: Option<i64>,
    pub finished: bool,
    /// Whether the finished game's places and ratings are written (`settle_game`).
    pub settled: bool,
    pub result: Option<String>,
    /// When the server must have the game running without anyone asking (a clock to fall, a
    /// first move overdue, a bot to move), in ms since the epoch.
    pub wake_ms: Option<i64>,
    pub actions: Vec<StoredAction>,
}

/// A run of a server process on the database: its start and when it was last known alive.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Run {
    pub started_ms: i64,
    pub alive_ms: i64,
}

/// What a live game needs from storage. Every method is one atomic step: a game and its seats
/// are created together, and an action is stored together with the game's finished mark.
///
/// Several server processes may share one database: an action's place (`seq`) is taken once,
/// by whichever process stores it first; the others get `StoreError::Conflict` and read it.
#[async_trait]
pub trait Store: Send + Sync + 'static {
    /// This process's name among the server processes on the database.
    fn instance(&self) -> &str;
    /// The server processes serving the database now, this one included, by `instance` name.
    /// On SQLite only this one: processes there hear nothing of each other.
    async fn live_instances(&self) -> Result<Vec<String>, StoreError>;
    /// What the other processes store, as they store it (`None` on SQLite, or once taken).
    fn take_changes(&self) -> Option<mpsc::UnboundedReceiver<Change>>;
    /// Tells the other processes something that is not stored (who is connected to a game).
    async fn announce(&self, change: &Change) -> Result<(), StoreError>;
    /// Stores a new game and its seats (its `actions` are ignored).
    async fn create_game(&self, game: &StoredGame) -> Result<(), StoreError>;
    /// Stores the rematch `game` (as `create_game`) together with the `Rematch` action that
    /// links the finished game `from_id` to it.
    async fn create_rematch(&self, game: &StoredGame, from_id: &str, link: &StoredAction) -> Result<(), StoreError>;
    /// Appends one action (`Conflict` if its `seq` is taken); `result` marks the game finished
    /// with that outcome text; `wake_ms` replaces the game's.
    async fn append_action(
        &self,
        game_id: &str,
        action: &StoredAction,
        result: Option<&str>,
        wake_ms: Option<i64>,
    ) -> Result<(), StoreError>;
    /// Sets when the game must run again by itself.
    async fn set_wake(&self, game_id: &str, wake_ms: Option<i64>) -> Result<(), StoreError>;
    /// A game with all its actions, or `None` if there is no such game.
    async fn load_game(&self, id: &str) -> Result<Option<StoredGame>, StoreError>;
    /// A game's actions from `seq` `from` on, in order.
    async fn actions_since(&self, game_id: &str, from: i64) -> Result<Vec<StoredAction>, StoreError>;
    /// Unfinished games due to wake by `by_ms`, soonest first, at most `limit` of them.
    async fn games_to_wake(&self, by_ms: i64, limit: i64) -> Result<Vec<String>, StoreError>;
    /// Records the start of run `run` and answers every earlier run, oldest first.
    async fn start_run(&self, run: &str, started_ms: i64) -> Result<Vec<Run>, StoreError>;
    /// Notes that run `run` is still alive at `alive_ms`.
    async fn keep_alive(&self, run: &str, alive_ms: i64) -> Result<(), StoreError>;

    /// Stores an open seat's taking: its action (`Conflict` if its `seq` is taken) and the
    /// seat's new occupant; `open_until_ms` and `wake_ms` replace the game's.
    async fn take_seat(
        &self,
        game_id: &str,
        action: &StoredAction,
        taken: &SeatTaken,
        open_until_ms: Option<i64>,
        wake_ms: Option<i64>,
    ) -> Result<(), StoreError>;
    /// Writes a finished game's places, archive entry and rating changes, once: `Stale` (and
    /// nothing written) if a rating changed since it was read, `AlreadySettled` if another
    /// process settled the game first.
    async fn settle_game(&self, settlement: &Settlement) -> Result<Settled, StoreError>;
    /// Finished games not yet settled (their owner stopped before it settled them).
    async fn unsettled_games(&self, limit: i64) -> Result<Vec<String>, StoreError>;

    /// Stores a new account; `false` (and nothing stored) if its name is taken.
    async fn create_user(&self, user: &NewUser) -> Result<bool, StoreError>;
    /// The account of `name` (in any case) and its password hash.
    async fn user_for_login(&self, name: &str) -> Result<Option<(Account, String)>, StoreError>;
    async fn create_session(&self, token_hash: &str, user_id: &str, created_ms: i64, expires_ms: i64) -> Result<(), StoreError>;
    /// The account of an unexpired session.
    async fn session_account(&self, token_hash: &str, now_ms: i64) -> Result<Option<Account>, StoreError>;
    async fn delete_session(&self, token_hash: &str) -> Result<(), StoreError>;
    /// Each account's rating in `variant` and its rated games there (a new player's if none).
    async fn ratings(&self, user_ids: &[String], variant: &str) -> Result<Vec<(Rating, i64)>, StoreError>;

    /// Unfinished games with an open seat that have not expired by `now_ms`, newest first.
    async fn open_games(&self, now_ms: i64) -> Result<Vec<ListedGame>, StoreError>;
    /// Finished games of the archive (not aborted or expired), newest first.
    async fn finished_games(&self, filter: &GameFilter) -> Result<Vec<ListedGame>, StoreError>;
    /// A player's account, ratings and rating history.
    async fn player(&self, name: &str) -> Result<Option<PlayerRecord>, StoreError>;

    async fn add_chat(&self, game_id: &str, line: &ChatLine) -> Result<(), StoreError>;
    /// The last `limit` lines of a game's channel, oldest first.
    async fn chat_lines(&self, game_id: &str, channel: ChatChannel, limit: i64) -> Result<Vec<ChatLine>, StoreError>;
    /// One line, by id, with its game (a line another process stored).
    async fn chat_line(&self, id: &str) -> Result<Option<(String, ChatLine)>, StoreError>;

    /// A finished game's stored review (the JSON of docs/API.md), if one was made.
    async fn review(&self, game_id: &str) -> Result<Option<String>, StoreError>;
    async fn save_review(&self, game_id: &str, created_ms: i64, review: &str) -> Result<(), StoreError>;
}
