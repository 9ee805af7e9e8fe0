//! Storage of games: a small `Store` trait (what a live game needs from a database) and its
//! sqlx implementation, one set of portable SQL for SQLite files and PostgreSQL alike.

use std::borrow::Cow;
use std::fmt;
use std::sync::Once;

use async_trait::async_trait;
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::{AnyPool, Row};

/// Why storage failed.
#[derive(Debug)]
pub enum StoreError {
    /// The URL names no database sqlx can open (`sqlite:…` or `postgres://…`).
    Url(String),
    Database(sqlx::Error),
    Migration(sqlx::migrate::MigrateError),
    /// A stored row cannot be read back (a hand-edited database, or a newer schema).
    Corrupt(String),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Url(url) => write!(f, "unsupported database URL `{url}` (expected sqlite:FILE or postgres://…)"),
            StoreError::Database(e) => write!(f, "database: {e}"),
            StoreError::Migration(e) => write!(f, "database migration: {e}"),
            StoreError::Corrupt(what) => write!(f, "stored data cannot be read: {what}"),
        }
    }
}

impl std::error::Error for StoreError {}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        StoreError::Database(e)
    }
}

/// A seat as stored: a human (with the hash of his token) or a bot (with its level).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum StoredSeat {
    Human { token_hash: String },
    Bot { level: String },
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
}

impl ActionKind {
    pub const ALL: [ActionKind; 10] = [
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
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct StoredGame {
    pub id: String,
    pub variant: String,
    pub rules: Vec<String>,
    pub start_position: Option<String>,
    /// (initial, increment) in ms.
    pub clock: Option<(i64, i64)>,
    pub created_ms: i64,
    pub seats: Vec<StoredSeat>,
    pub finished: bool,
    pub result: Option<String>,
    pub actions: Vec<StoredAction>,
}

/// What a live game needs from storage. Every method is one atomic step: a game and its seats
/// are created together, and an action is stored together with the game's finished mark.
#[async_trait]
pub trait Store: Send + Sync + 'static {
    /// Stores a new game and its seats (its `actions` are ignored).
    async fn create_game(&self, game: &StoredGame) -> Result<(), StoreError>;
    /// Stores the rematch `game` (as `create_game`) together with the `Rematch` action that
    /// links the finished game `from_id` to it.
    async fn create_rematch(&self, game: &StoredGame, from_id: &str, link: &StoredAction) -> Result<(), StoreError>;
    /// Appends one action; `result` marks the game finished with that outcome text.
    async fn append_action(&self, game_id: &str, action: &StoredAction, result: Option<&str>) -> Result<(), StoreError>;
    /// A game with all its actions, or `None` if there is no such game.
    async fn load_game(&self, id: &str) -> Result<Option<StoredGame>, StoreError>;
    /// The ids of the games that have not ended, oldest first.
    async fn unfinished_games(&self) -> Result<Vec<String>, StoreError>;
}

/// The schema, as portable SQL (one set of migrations for both databases).
const MIGRATIONS: [(i64, &str, &str); 1] = [(1, "games", include_str!("../migrations/0001_games.sql"))];

fn migrator() -> Migrator {
    let migrations: Vec<Migration> = MIGRATIONS
        .iter()
        .map(|&(version, description, sql)| {
            Migration::new(version, Cow::Borrowed(description), MigrationType::Simple, Cow::Borrowed(sql), false)
        })
        .collect();
    Migrator { migrations: Cow::Owned(migrations), ..Migrator::DEFAULT }
}

/// Storage in SQLite or PostgreSQL through sqlx's `Any` driver.
#[derive(Clone, Debug)]
pub struct SqlStore {
    pool: AnyPool,
}

/// `sqlite:FILE` (created if missing), `postgres://…`, or a bare file path (SQLite).
pub fn normalize_url(url: &str) -> Result<String, StoreError> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        return Ok(url.to_string());
    }
    let sqlite = if url.starts_with("sqlite:") {
        url.to_string()
    } else if !url.contains("://") && !url.is_empty() {
        format!("sqlite:{url}")
    } else {
        return Err(StoreError::Url(url.to_string()));
    };
    if sqlite.contains("mode=") || sqlite.contains(":memory:") {
        Ok(sqlite)
    } else if sqlite.contains('?') {
        Ok(format!("{sqlite}&mode=rwc"))
    } else {
        Ok(format!("{sqlite}?mode=rwc"))
    }
}

impl SqlStore {
    /// Opens the database and brings its schema up to date.
    pub async fn connect(url: &str) -> Result<SqlStore, StoreError> {
        static DRIVERS: Once = Once::new();
        DRIVERS.call_once(sqlx::any::install_default_drivers);
        let url = normalize_url(url)?;
        let pool = AnyPoolOptions::new().max_connections(8).connect(&url).await?;
        migrator().run(&pool).await.map_err(StoreError::Migration)?;
        Ok(SqlStore { pool })
    }

    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// Closes every connection (waits for those in use).
    pub async fn close(&self) {
        self.pool.close().await;
    }
}

fn corrupt(what: impl Into<String>) -> StoreError {
    StoreError::Corrupt(what.into())
}

fn clocks_text(clocks: &Option<Vec<i64>>) -> Option<String> {
    clocks.as_ref().map(|c| c.iter().map(i64::to_string).collect::<Vec<_>>().join(","))
}

fn parse_clocks(text: Option<String>) -> Result<Option<Vec<i64>>, StoreError> {
    text.map(|t| t.split(',').map(|n| n.parse::<i64>().map_err(|_| corrupt(format!("clocks `{t}`")))).collect()).transpose()
}

fn read_action(row: &AnyRow) -> Result<StoredAction, StoreError> {
    let kind: String = row.try_get("kind")?;
    let seat: i64 = row.try_get("seat")?;
    Ok(StoredAction {
        seq: row.try_get("seq")?,
        seat: usize::try_from(seat).map_err(|_| corrupt(format!("seat {seat}")))?,
        kind: ActionKind::from_name(&kind).ok_or_else(|| corrupt(format!("action kind `{kind}`")))?,
        detail: row.try_get("detail")?,
        clocks: parse_clocks(row.try_get("clocks")?)?,
        created_ms: row.try_get("created_ms")?,
    })
}

type Transaction = sqlx::Transaction<'static, sqlx::Any>;

/// Inserts a game and its seats.
async fn insert_game(tx: &mut Transaction, game: &StoredGame) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO games (id, variant, rules, start_position, clock_initial_ms, clock_increment_ms, created_ms, finished, result) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, 0, NULL)",
    )
    .bind(&game.id)
    .bind(&game.variant)
    .bind(game.rules.join("\n"))
    .bind(game.start_position.clone())
    .bind(game.clock.map(|c| c.0))
    .bind(game.clock.map(|c| c.1))
    .bind(game.created_ms)
    .execute(&mut **tx)
    .await?;
    for (index, seat) in game.seats.iter().enumerate() {
        let (kind, level, token_hash) = match seat {
            StoredSeat::Human { token_hash } => ("human", None, Some(token_hash.clone())),
            StoredSeat::Bot { level } => ("bot", Some(level.clone()), None),
        };
        sqlx::query("INSERT INTO seats (game_id, seat, kind, level, token_hash) VALUES ($1, $2, $3, $4, $5)")
            .bind(&game.id)
            .bind(index as i64)
            .bind(kind)
            .bind(level)
            .bind(token_hash)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

async fn insert_action(tx: &mut Transaction, game_id: &str, action: &StoredAction) -> Result<(), StoreError> {
    sqlx::query("INSERT INTO actions (game_id, seq, seat, kind, detail, clocks, created_ms) VALUES ($1, $2, $3, $4, $5, $6, $7)")
        .bind(game_id)
        .bind(action.seq)
        .bind(action.seat as i64)
        .bind(action.kind.name())
        .bind(&action.detail)
        .bind(clocks_text(&action.clocks))
        .bind(action.created_ms)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

#[async_trait]
impl Store for SqlStore {
    async fn create_game(&self, game: &StoredGame) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        insert_game(&mut tx, game).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn create_rematch(&self, game: &StoredGame, from_id: &str, link: &StoredAction) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        insert_game(&mut tx, game).await?;
        insert_action(&mut tx, from_id, link).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn append_action(&self, game_id: &str, action: &StoredAction, result: Option<&str>) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        insert_action(&mut tx, game_id, action).await?;
        if let Some(result) = result {
            sqlx::query("UPDATE games SET finished = 1, result = $1 WHERE id = $2")
                .bind(result)
                .bind(game_id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn load_game(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let Some(row) = sqlx::query(
            "SELECT id, variant, rules, start_position, clock_initial_ms, clock_increment_ms, created_ms, finished, result \
             FROM games WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?
        else {
            return Ok(None);
        };
        let rules: String = row.try_get("rules")?;
        let initial: Option<i64> = row.try_get("clock_initial_ms")?;
        let increment: Option<i64> = row.try_get("clock_increment_ms")?;
        let finished: i64 = row.try_get("finished")?;
        let seat_rows = sqlx::query("SELECT seat, kind, level, token_hash FROM seats WHERE game_id = $1 ORDER BY seat")
            .bind(id)
            .fetch_all(&self.pool)
            .await?;
        let mut seats = Vec::new();
        for (expected, seat_row) in seat_rows.iter().enumerate() {
            let seat: i64 = seat_row.try_get("seat")?;
            if seat != expected as i64 {
                return Err(corrupt(format!("game {id}: seat {seat} out of order")));
            }
            let kind: String = seat_row.try_get("kind")?;
            let level: Option<String> = seat_row.try_get("level")?;
            let token_hash: Option<String> = seat_row.try_get("token_hash")?;
            seats.push(match (kind.as_str(), level, token_hash) {
                ("human", _, Some(token_hash)) => StoredSeat::Human { token_hash },
                ("bot", Some(level), _) => StoredSeat::Bot { level },
                _ => return Err(corrupt(format!("game {id}: seat {seat} of kind `{kind}`"))),
            });
        }
        let action_rows =
            sqlx::query("SELECT seq, seat, kind, detail, clocks, created_ms FROM actions WHERE game_id = $1 ORDER BY seq")
                .bind(id)
                .fetch_all(&self.pool)
                .await?;
        let actions = action_rows.iter().map(read_action).collect::<Result<Vec<_>, _>>()?;
        Ok(Some(StoredGame {
            id: row.try_get("id")?,
            variant: row.try_get("variant")?,
            rules: rules.lines().map(String::from).filter(|r| !r.is_empty()).collect(),
            start_position: row.try_get("start_position")?,
            clock: initial.zip(increment),
            created_ms: row.try_get("created_ms")?,
            seats,
            finished: finished != 0,
            result: row.try_get("result")?,
            actions,
        }))
    }

    async fn unfinished_games(&self) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT id FROM games WHERE finished = 0 ORDER BY created_ms, id").fetch_all(&self.pool).await?;
        rows.iter().map(|row| row.try_get::<String, _>("id").map_err(StoreError::from)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlite_urls_get_created_and_postgres_urls_pass_through() {
        assert_eq!(normalize_url("sqlite:polyshogi.db").unwrap(), "sqlite:polyshogi.db?mode=rwc");
        assert_eq!(normalize_url("games.db").unwrap(), "sqlite:games.db?mode=rwc");
        assert_eq!(normalize_url("sqlite:x.db?mode=ro").unwrap(), "sqlite:x.db?mode=ro");
        assert_eq!(normalize_url("postgres://u@h/db").unwrap(), "postgres://u@h/db");
        assert!(normalize_url("mysql://h/db").is_err());
    }
}
