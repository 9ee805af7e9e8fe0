//! The store in SQLite or PostgreSQL through sqlx's `Any` driver: the schema, the reads, and
//! the SQL of each write (which the group-commit writer runs, many to a transaction).

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::sync::{Arc, Mutex, Once};

use async_trait::async_trait;
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::{AnyConnection, AnyPool, Executor, Row};
use tokio::sync::mpsc;

use super::changes::{self, Change, APPLICATION_PREFIX, CHANNEL};
use super::group_commit::{Write, Writer};
use super::players::{
    self, Account, ChatChannel, ChatLine, GameFilter, ListedGame, NewUser, PlayerRecord, SeatTaken, Settled, Settlement,
};
use super::{ActionKind, Run, SeatPlayer, Store, StoreError, StoredAction, StoredGame, StoredSeat};
use crate::ratings::Rating;
use crate::tokens::new_game_id;

/// The schema, as portable SQL (one set of migrations for both databases).
const MIGRATIONS: [(i64, &str, &str); 4] = [
    (1, "games", include_str!("../../migrations/0001_games.sql")),
    (2, "wake and runs", include_str!("../../migrations/0002_wake_and_runs.sql")),
    (3, "players", include_str!("../../migrations/0003_players.sql")),
    (4, "reviews", include_str!("../../migrations/0004_reviews.sql")),
];

fn migrator() -> Migrator {
    let migrations: Vec<Migration> = MIGRATIONS
        .iter()
        .map(|&(version, description, sql)| {
            Migration::new(version, Cow::Borrowed(description), MigrationType::Simple, Cow::Borrowed(sql), false)
        })
        .collect();
    Migrator { migrations: Cow::Owned(migrations), ..Migrator::DEFAULT }
}

/// Storage in SQLite or PostgreSQL through sqlx's `Any` driver. Reads share a pool; every
/// write goes through the one writer, which commits the writes of many games together.
#[derive(Clone, Debug)]
pub struct SqlStore {
    pool: AnyPool,
    writer: Writer,
    /// This process's name among those sharing the database.
    instance: String,
    postgres: bool,
    /// What the other processes store (PostgreSQL), until the server takes it.
    changes: Arc<Mutex<Option<mpsc::UnboundedReceiver<Change>>>>,
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
    if sqlite.contains(":memory:") {
        // Each connection would have a database of its own, and every game would die with the
        // process.
        return Err(StoreError::Url(url.to_string()));
    }
    if sqlite.contains("mode=") {
        Ok(sqlite)
    } else if sqlite.contains('?') {
        Ok(format!("{sqlite}&mode=rwc"))
    } else {
        Ok(format!("{sqlite}?mode=rwc"))
    }
}

/// A pool of up to `connections` connections to `url`.
async fn open_pool(url: &str, connections: u32) -> Result<AnyPool, StoreError> {
    let sqlite = url.starts_with("sqlite:");
    let pool = AnyPoolOptions::new()
        .max_connections(connections)
        .after_connect(move |connection, _| {
            Box::pin(async move {
                if sqlite {
                    // Every commit reaches the disk before it returns (docs/DEPLOY.md), and a
                    // reader that meets a checkpoint waits rather than fails.
                    connection.execute("PRAGMA synchronous = FULL").await?;
                    connection.execute("PRAGMA busy_timeout = 5000").await?;
                }
                Ok(())
            })
        })
        .connect(url)
        .await?;
    Ok(pool)
}

impl SqlStore {
    /// Opens the database and brings its schema up to date.
    pub async fn connect(url: &str) -> Result<SqlStore, StoreError> {
        static DRIVERS: Once = Once::new();
        DRIVERS.call_once(sqlx::any::install_default_drivers);
        let url = normalize_url(url)?;
        let readers = open_pool(&url, 8).await?;
        if url.starts_with("sqlite:") {
            // Write-ahead logging: readers never wait for the writer, and a commit costs one
            // append and one sync. The mode is kept in the file itself.
            sqlx::query("PRAGMA journal_mode = WAL").execute(&readers).await?;
        }
        migrator().run(&readers).await.map_err(StoreError::Migration)?;
        let instance = new_game_id();
        let postgres = !url.starts_with("sqlite:");
        let mut changes = None;
        if postgres {
            // Listening before anything is written here: no change made from now on is missed.
            let listener = changes::connect_listener(&url, &instance).await?;
            let (tx, rx) = mpsc::unbounded_channel();
            tokio::spawn(changes::listen(listener, instance.clone(), tx));
            changes = Some(rx);
        }
        // The writer has a connection of its own, so that a flood of reads never delays a move.
        let writer = Writer::start(open_pool(&url, 1).await?, postgres.then(|| instance.clone()));
        Ok(SqlStore { pool: readers, writer, instance, postgres, changes: Arc::new(Mutex::new(changes)) })
    }

    /// Closes every connection (waits for those in use).
    pub async fn close(&self) {
        self.pool.close().await;
        self.writer.close().await;
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

/// What became of one write.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Written {
    Done,
    /// The action's place in its game was taken (by another process): nothing was written.
    Conflict,
}

/// Runs one write inside the writer's transaction (`Write::Action`s go faster, many at a time,
/// through `apply_actions`).
pub(super) async fn apply_write(tx: &mut AnyConnection, write: &Write) -> Result<Written, StoreError> {
    match write {
        Write::Game(game) => {
            insert_game(tx, game).await?;
            Ok(Written::Done)
        }
        Write::Rematch { game, from_id, link } => {
            // The link first: if its place is taken, the new game is not created either.
            if insert_action(tx, from_id, link).await? == Written::Conflict {
                return Ok(Written::Conflict);
            }
            insert_game(tx, game).await?;
            Ok(Written::Done)
        }
        Write::Action { game_id, action, result, wake_ms } => {
            let row = ActionRow { game_id, action, result: result.as_deref(), wake_ms: *wake_ms };
            Ok(apply_actions(tx, std::slice::from_ref(&row)).await?[0])
        }
        Write::Sit { game_id, action, taken, open_until_ms, wake_ms } => {
            players::apply_take_seat(tx, game_id, action, taken, *open_until_ms, *wake_ms).await
        }
        Write::Wake { game_id, wake_ms } => {
            sqlx::query("UPDATE games SET wake_ms = $1 WHERE id = $2").bind(*wake_ms).bind(game_id).execute(&mut *tx).await?;
            Ok(Written::Done)
        }
        Write::RunStarted { run, started_ms } => {
            sqlx::query("INSERT INTO server_runs (id, started_ms, alive_ms) VALUES ($1, $2, $2)")
                .bind(run)
                .bind(*started_ms)
                .execute(&mut *tx)
                .await?;
            Ok(Written::Done)
        }
        Write::Alive { run, alive_ms } => {
            sqlx::query("UPDATE server_runs SET alive_ms = $1 WHERE id = $2").bind(*alive_ms).bind(run).execute(&mut *tx).await?;
            Ok(Written::Done)
        }
    }
}

/// One action to store, with what it changes in its game's row.
#[derive(Clone, Copy, Debug)]
pub(super) struct ActionRow<'a> {
    pub game_id: &'a str,
    pub action: &'a StoredAction,
    /// The game's outcome, if this action ends it.
    pub result: Option<&'a str>,
    /// When the game must wake next (ignored for an action that ends it).
    pub wake_ms: Option<i64>,
}

/// The most bind parameters in one statement: SQLite's default limit (PostgreSQL's is 65,535).
const MAX_BIND_PARAMETERS: usize = 32_766;
/// Bind parameters per row of the multi-row `INSERT INTO actions`.
const ACTION_COLUMNS: usize = 7;
/// Bind parameters per row of the multi-row `UPDATE games`.
const GAME_UPDATE_COLUMNS: usize = 3;
/// The most actions one statement stores: a power of two (see `padded_rows`).
const MAX_ROWS: usize = 4_096;
const _: () = assert!(
    MAX_ROWS.is_power_of_two()
        && MAX_ROWS * ACTION_COLUMNS <= MAX_BIND_PARAMETERS
        && MAX_ROWS * GAME_UPDATE_COLUMNS <= MAX_BIND_PARAMETERS
);

/// The rows a multi-row statement is written for, `rows` or more: the next power of two, the
/// rows after `rows` all null (and skipped by the statement). So there are a few such
/// statements, not one per number of rows, and each is kept prepared: to PostgreSQL a prepared
/// statement is one round trip and no parsing or planning, a new one two round trips and both.
fn padded_rows(rows: usize) -> usize {
    rows.next_power_of_two()
}

/// Stores many actions in two statements (for up to 4,096 actions of distinct games): one
/// multi-row insert that skips the places already taken and returns those it took, and one
/// multi-row update of the games rows of the actions stored. Answers each action's outcome, in
/// the order of `rows`. On PostgreSQL every statement is a round trip, and two per action were
/// most of a batch's time.
///
/// A statement takes at most one action of a game (a game's row is updated once, from one
/// action): a game's later actions go to the statements after, in order, so that the result is
/// that of storing `rows` one after another.
pub(super) async fn apply_actions(tx: &mut AnyConnection, rows: &[ActionRow<'_>]) -> Result<Vec<Written>, StoreError> {
    let mut outcomes = vec![Written::Conflict; rows.len()];
    let mut left: Vec<usize> = (0..rows.len()).collect();
    while !left.is_empty() {
        let mut games = HashSet::new();
        let (now, later): (Vec<usize>, Vec<usize>) = left.into_iter().partition(|&i| games.insert(rows[i].game_id));
        for chunk in now.chunks(MAX_ROWS) {
            let taken = insert_actions(tx, chunk.iter().map(|&i| &rows[i]).collect()).await?;
            // The games are distinct here: a game's place answers for its one action.
            let stored: Vec<usize> =
                chunk.iter().copied().filter(|&i| taken.get(rows[i].game_id) == Some(&rows[i].action.seq)).collect();
            update_games(tx, stored.iter().map(|&i| &rows[i]).collect()).await?;
            for i in stored {
                outcomes[i] = Written::Done;
            }
        }
        left = later;
    }
    Ok(outcomes)
}

/// Inserts the actions of `rows` whose places are free; answers the place (game, seq) of each
/// action inserted.
async fn insert_actions(tx: &mut AnyConnection, mut rows: Vec<&ActionRow<'_>>) -> Result<HashMap<String, i64>, StoreError> {
    // In the order of the primary key: two processes storing actions of the same games then
    // take their places in one order, and neither waits for a place the other waits on.
    rows.sort_unstable_by_key(|row| (row.game_id, row.action.seq));
    let padded = padded_rows(rows.len());
    // `INSERT … SELECT … WHERE`, not `INSERT … VALUES`, to skip the padding rows (and SQLite
    // reads `ON CONFLICT` after a SELECT only if it has a WHERE).
    let sql = format!(
        "INSERT INTO actions (game_id, seq, seat, kind, detail, clocks, created_ms) \
         SELECT column1, column2, column3, column4, column5, column6, column7 FROM (VALUES {}) AS v \
         WHERE column1 IS NOT NULL \
         ON CONFLICT (game_id, seq) DO NOTHING RETURNING game_id, seq",
        placeholders(padded, ACTION_COLUMNS, Parameters::of(tx))
    );
    let mut query = sqlx::query(&sql);
    for row in &rows {
        let action = row.action;
        query = query
            .bind(row.game_id)
            .bind(action.seq)
            .bind(action.seat as i64)
            .bind(action.kind.name())
            .bind(&action.detail)
            .bind(clocks_text(&action.clocks))
            .bind(action.created_ms);
    }
    for _ in rows.len()..padded {
        // Nulls of each column's type: a prepared statement's parameters keep their types.
        let (text, number) = (None::<&str>, None::<i64>);
        query = query.bind(text).bind(number).bind(number).bind(text).bind(text).bind(text).bind(number);
    }
    let returned = query.fetch_all(&mut *tx).await?;
    returned.iter().map(|row| Ok((row.try_get("game_id")?, row.try_get("seq")?))).collect()
}

/// Brings the games rows of stored actions up to date: the wake time, or the end of the game.
async fn update_games(tx: &mut AnyConnection, stored: Vec<&ActionRow<'_>>) -> Result<(), StoreError> {
    if stored.is_empty() {
        return Ok(());
    }
    let padded = padded_rows(stored.len());
    // `UPDATE … FROM (VALUES …)` runs on PostgreSQL and on SQLite (3.33 on; the bundled one is
    // 3.46), where the columns of a VALUES list are named column1, column2, … on both. The
    // padding rows' null id matches no game.
    let sql = format!(
        "UPDATE games SET wake_ms = v.column2, \
         finished = CASE WHEN v.column3 IS NULL THEN games.finished ELSE 1 END, \
         result = COALESCE(v.column3, games.result) \
         FROM (VALUES {}) AS v WHERE games.id = v.column1",
        placeholders(padded, GAME_UPDATE_COLUMNS, Parameters::of(tx))
    );
    let mut query = sqlx::query(&sql);
    for row in &stored {
        // A finished game never wakes.
        let wake_ms = if row.result.is_some() { None } else { row.wake_ms };
        query = query.bind(row.game_id).bind(wake_ms).bind(row.result);
    }
    for _ in stored.len()..padded {
        query = query.bind(None::<&str>).bind(None::<i64>).bind(None::<&str>);
    }
    query.execute(&mut *tx).await?;
    Ok(())
}

/// How a statement names its bind parameters.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Parameters {
    /// `$1, $2, …`: PostgreSQL knows no other form.
    Numbered,
    /// `?, ?, …`, bound in order. SQLite finds a named parameter's name by a linear search and
    /// sqlx asks it for the name of every parameter: thousands of `$N` cost quadratic time (a
    /// twentieth of the server's time under load, measured), thousands of `?` none.
    InOrder,
}

impl Parameters {
    fn of(connection: &AnyConnection) -> Parameters {
        if connection.backend_name() == "PostgreSQL" {
            Parameters::Numbered
        } else {
            Parameters::InOrder
        }
    }
}

/// `($1, $2), ($3, $4)` (or `(?, ?), (?, ?)`) for 2 rows of 2 columns.
fn placeholders(rows: usize, columns: usize, parameters: Parameters) -> String {
    let mut text = String::with_capacity(rows * columns * 6);
    for row in 0..rows {
        if row > 0 {
            text.push_str(", ");
        }
        text.push('(');
        for column in 0..columns {
            if column > 0 {
                text.push_str(", ");
            }
            match parameters {
                Parameters::Numbered => write!(text, "${}", row * columns + column + 1).expect("writing to a String"),
                Parameters::InOrder => text.push('?'),
            }
        }
        text.push(')');
    }
    text
}

/// Inserts a game and its seats.
async fn insert_game(tx: &mut AnyConnection, game: &StoredGame) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO games (id, variant, rules, start_position, clock_initial_ms, clock_increment_ms, created_ms, finished, result, \
         wake_ms, rated, open_until_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, 0, NULL, $8, $9, $10)",
    )
    .bind(&game.id)
    .bind(&game.variant)
    .bind(game.rules.join("\n"))
    .bind(game.start_position.clone())
    .bind(game.clock.map(|c| c.0))
    .bind(game.clock.map(|c| c.1))
    .bind(game.created_ms)
    .bind(game.wake_ms)
    .bind(i64::from(game.rated))
    .bind(game.open_until_ms)
    .execute(&mut *tx)
    .await?;
    for (index, seat) in game.seats.iter().enumerate() {
        let (kind, level, token_hash, user_id) = match seat {
            StoredSeat::Human { token_hash, player } => {
                ("human", None, Some(token_hash.clone()), player.as_ref().map(|p| p.user_id.clone()))
            }
            StoredSeat::Open => ("open", None, None, None),
            StoredSeat::Bot { level } => ("bot", Some(level.clone()), None, None),
        };
        sqlx::query("INSERT INTO seats (game_id, seat, kind, level, token_hash, user_id) VALUES ($1, $2, $3, $4, $5, $6)")
            .bind(&game.id)
            .bind(index as i64)
            .bind(kind)
            .bind(level)
            .bind(token_hash)
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
    }
    Ok(())
}

/// Inserts an action, unless its place in the game is taken.
pub(super) async fn insert_action(tx: &mut AnyConnection, game_id: &str, action: &StoredAction) -> Result<Written, StoreError> {
    let inserted = sqlx::query(
        "INSERT INTO actions (game_id, seq, seat, kind, detail, clocks, created_ms) VALUES ($1, $2, $3, $4, $5, $6, $7) \
         ON CONFLICT (game_id, seq) DO NOTHING",
    )
    .bind(game_id)
    .bind(action.seq)
    .bind(action.seat as i64)
    .bind(action.kind.name())
    .bind(&action.detail)
    .bind(clocks_text(&action.clocks))
    .bind(action.created_ms)
    .execute(&mut *tx)
    .await?;
    Ok(if inserted.rows_affected() == 0 { Written::Conflict } else { Written::Done })
}

#[async_trait]
impl Store for SqlStore {
    fn instance(&self) -> &str {
        &self.instance
    }

    async fn live_instances(&self) -> Result<Vec<String>, StoreError> {
        let mut live = vec![self.instance.clone()];
        if self.postgres {
            let rows = sqlx::query(
                "SELECT application_name FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE $1",
            )
            .bind(format!("{APPLICATION_PREFIX}%"))
            .fetch_all(&self.pool)
            .await?;
            for row in rows {
                let name: String = row.try_get("application_name")?;
                live.extend(name.strip_prefix(APPLICATION_PREFIX).map(str::to_string));
            }
        }
        live.sort_unstable();
        live.dedup();
        Ok(live)
    }

    fn take_changes(&self) -> Option<mpsc::UnboundedReceiver<Change>> {
        self.changes.lock().expect("not poisoned").take()
    }

    async fn announce(&self, change: &Change) -> Result<(), StoreError> {
        if self.postgres {
            for payload in changes::encode(&self.instance, std::slice::from_ref(change)) {
                sqlx::query("SELECT pg_notify($1, $2)").bind(CHANNEL).bind(payload).execute(&self.pool).await?;
            }
        }
        Ok(())
    }

    async fn create_game(&self, game: &StoredGame) -> Result<(), StoreError> {
        self.writer.write(Write::Game(game.clone())).await
    }

    async fn create_rematch(&self, game: &StoredGame, from_id: &str, link: &StoredAction) -> Result<(), StoreError> {
        self.writer.write(Write::Rematch { game: game.clone(), from_id: from_id.to_string(), link: link.clone() }).await
    }

    async fn append_action(
        &self,
        game_id: &str,
        action: &StoredAction,
        result: Option<&str>,
        wake_ms: Option<i64>,
    ) -> Result<(), StoreError> {
        let write =
            Write::Action { game_id: game_id.to_string(), action: action.clone(), result: result.map(str::to_string), wake_ms };
        self.writer.write(write).await
    }

    async fn set_wake(&self, game_id: &str, wake_ms: Option<i64>) -> Result<(), StoreError> {
        self.writer.write(Write::Wake { game_id: game_id.to_string(), wake_ms }).await
    }

    async fn load_game(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let Some(row) = sqlx::query(
            "SELECT id, variant, rules, start_position, clock_initial_ms, clock_increment_ms, created_ms, finished, result, wake_ms, \
             rated, open_until_ms, settled FROM games WHERE id = $1",
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
        let rated: i64 = row.try_get("rated")?;
        let settled: i64 = row.try_get("settled")?;
        let variant: String = row.try_get("variant")?;
        let seat_rows = sqlx::query(
            "SELECT s.seat, s.kind, s.level, s.token_hash, s.user_id, u.name, r.mu, r.sigma FROM seats s \
             LEFT JOIN users u ON u.id = s.user_id LEFT JOIN ratings r ON r.user_id = s.user_id AND r.variant = $2 \
             WHERE s.game_id = $1 ORDER BY s.seat",
        )
        .bind(id)
        .bind(&variant)
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
            let user_id: Option<String> = seat_row.try_get("user_id")?;
            let name: Option<String> = seat_row.try_get("name")?;
            let mu: Option<f64> = seat_row.try_get("mu")?;
            let sigma: Option<f64> = seat_row.try_get("sigma")?;
            let player = user_id.zip(name).map(|(user_id, name)| SeatPlayer {
                user_id,
                name,
                rating: mu.zip(sigma).map_or_else(Rating::default, |(mu, sigma)| Rating { mu, sigma }),
            });
            seats.push(match (kind.as_str(), level, token_hash) {
                ("human", _, Some(token_hash)) => StoredSeat::Human { token_hash, player },
                ("open", _, _) => StoredSeat::Open,
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
            variant,
            rules: rules.lines().map(String::from).filter(|r| !r.is_empty()).collect(),
            start_position: row.try_get("start_position")?,
            clock: initial.zip(increment),
            created_ms: row.try_get("created_ms")?,
            seats,
            rated: rated != 0,
            open_until_ms: row.try_get("open_until_ms")?,
            finished: finished != 0,
            settled: settled != 0,
            result: row.try_get("result")?,
            wake_ms: row.try_get("wake_ms")?,
            actions,
        }))
    }

    async fn actions_since(&self, game_id: &str, from: i64) -> Result<Vec<StoredAction>, StoreError> {
        let rows = sqlx::query(
            "SELECT seq, seat, kind, detail, clocks, created_ms FROM actions WHERE game_id = $1 AND seq >= $2 ORDER BY seq",
        )
        .bind(game_id)
        .bind(from)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(read_action).collect()
    }

    async fn games_to_wake(&self, by_ms: i64, limit: i64) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT id FROM games WHERE finished = 0 AND wake_ms <= $1 ORDER BY wake_ms, id LIMIT $2")
            .bind(by_ms)
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|row| row.try_get::<String, _>("id").map_err(StoreError::from)).collect()
    }

    async fn start_run(&self, run: &str, started_ms: i64) -> Result<Vec<Run>, StoreError> {
        let rows = sqlx::query("SELECT started_ms, alive_ms FROM server_runs ORDER BY started_ms").fetch_all(&self.pool).await?;
        let earlier = rows
            .iter()
            .map(|row| Ok(Run { started_ms: row.try_get("started_ms")?, alive_ms: row.try_get("alive_ms")? }))
            .collect::<Result<Vec<_>, StoreError>>()?;
        self.writer.write(Write::RunStarted { run: run.to_string(), started_ms }).await?;
        Ok(earlier)
    }

    async fn keep_alive(&self, run: &str, alive_ms: i64) -> Result<(), StoreError> {
        self.writer.write(Write::Alive { run: run.to_string(), alive_ms }).await
    }

    async fn take_seat(
        &self,
        game_id: &str,
        action: &StoredAction,
        taken: &SeatTaken,
        open_until_ms: Option<i64>,
        wake_ms: Option<i64>,
    ) -> Result<(), StoreError> {
        let write =
            Write::Sit { game_id: game_id.to_string(), action: action.clone(), taken: taken.clone(), open_until_ms, wake_ms };
        self.writer.write(write).await
    }

    async fn settle_game(&self, settlement: &Settlement) -> Result<Settled, StoreError> {
        players::settle_game(&self.pool, settlement).await
    }

    async fn unsettled_games(&self, limit: i64) -> Result<Vec<String>, StoreError> {
        players::unsettled_games(&self.pool, limit).await
    }

    async fn create_user(&self, user: &NewUser) -> Result<bool, StoreError> {
        players::create_user(&self.pool, user).await
    }

    async fn user_for_login(&self, name: &str) -> Result<Option<(Account, String)>, StoreError> {
        players::user_for_login(&self.pool, name).await
    }

    async fn create_session(&self, token_hash: &str, user_id: &str, created_ms: i64, expires_ms: i64) -> Result<(), StoreError> {
        players::create_session(&self.pool, token_hash, user_id, created_ms, expires_ms).await
    }

    async fn session_account(&self, token_hash: &str, now_ms: i64) -> Result<Option<Account>, StoreError> {
        players::session_account(&self.pool, token_hash, now_ms).await
    }

    async fn delete_session(&self, token_hash: &str) -> Result<(), StoreError> {
        players::delete_session(&self.pool, token_hash).await
    }

    async fn ratings(&self, user_ids: &[String], variant: &str) -> Result<Vec<(Rating, i64)>, StoreError> {
        players::ratings(&self.pool, user_ids, variant).await
    }

    async fn open_games(&self, now_ms: i64) -> Result<Vec<ListedGame>, StoreError> {
        players::open_games(&self.pool, now_ms).await
    }

    async fn finished_games(&self, filter: &GameFilter) -> Result<Vec<ListedGame>, StoreError> {
        players::finished_games(&self.pool, filter).await
    }

    async fn player(&self, name: &str) -> Result<Option<PlayerRecord>, StoreError> {
        players::player(&self.pool, name).await
    }

    async fn add_chat(&self, game_id: &str, line: &ChatLine) -> Result<(), StoreError> {
        players::add_chat(&self.pool, game_id, line).await?;
        self.announce(&Change::Chat { game_id: game_id.to_string(), line_id: line.id.clone() }).await
    }

    async fn chat_lines(&self, game_id: &str, channel: ChatChannel, limit: i64) -> Result<Vec<ChatLine>, StoreError> {
        players::chat_lines(&self.pool, game_id, channel, limit).await
    }

    async fn chat_line(&self, id: &str) -> Result<Option<(String, ChatLine)>, StoreError> {
        players::chat_line(&self.pool, id).await
    }

    async fn review(&self, game_id: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT review FROM reviews WHERE game_id = $1").bind(game_id).fetch_optional(&self.pool).await?;
        Ok(row.map(|row| row.try_get("review")).transpose()?)
    }

    async fn save_review(&self, game_id: &str, created_ms: i64, review: &str) -> Result<(), StoreError> {
        // A review another process stored first is the same game's: either one will do.
        sqlx::query("INSERT INTO reviews (game_id, created_ms, review) VALUES ($1, $2, $3) ON CONFLICT (game_id) DO NOTHING")
            .bind(game_id)
            .bind(created_ms)
            .bind(review)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_number_every_parameter_or_none() {
        assert_eq!(placeholders(2, 3, Parameters::Numbered), "($1, $2, $3), ($4, $5, $6)");
        assert_eq!(placeholders(2, 2, Parameters::InOrder), "(?, ?), (?, ?)");
        assert_eq!(placeholders(1, 1, Parameters::Numbered), "($1)");
    }

    #[test]
    fn sqlite_urls_get_created_and_postgres_urls_pass_through() {
        assert_eq!(normalize_url("sqlite:polyshogi.db").unwrap(), "sqlite:polyshogi.db?mode=rwc");
        assert_eq!(normalize_url("games.db").unwrap(), "sqlite:games.db?mode=rwc");
        assert_eq!(normalize_url("sqlite:x.db?mode=ro").unwrap(), "sqlite:x.db?mode=ro");
        assert_eq!(normalize_url("postgres://u@h/db").unwrap(), "postgres://u@h/db");
        assert!(normalize_url("mysql://h/db").is_err());
        assert!(normalize_url("sqlite::memory:").is_err());
    }
}
