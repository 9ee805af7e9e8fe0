//! Storage of players: accounts and sessions, taking open seats, settling a finished game
//! (places, archive entry, ratings), the lobby's and the archive's lists, and each game's
//! chat. The same portable SQL for SQLite and PostgreSQL as the games' (`sql`).

use std::collections::HashMap;

use sqlx::any::AnyRow;
use sqlx::{AnyConnection, AnyPool, Connection, Row};

use super::{SeatPlayer, StoreError, StoredAction};
use crate::ratings::Rating;

/// An account: its id (never shown) and its name.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Account {
    pub id: String,
    pub name: String,
}

/// A new account, its password already hashed.
#[derive(Clone, Debug)]
pub struct NewUser {
    pub id: String,
    pub name: String,
    pub password_hash: String,
    pub created_ms: i64,
}

/// An open seat taken: by whom (the hash of his new token, and his account if he has one).
#[derive(Clone, PartialEq, Debug)]
pub struct SeatTaken {
    pub seat: usize,
    pub token_hash: String,
    pub player: Option<SeatPlayer>,
}

impl SeatTaken {
    /// The `Sit` action's detail: the token hash, then the account's id, name and rating.
    /// Names hold no spaces (accounts' name rules), so the words read back unambiguously.
    pub fn detail(&self) -> String {
        match &self.player {
            None => self.token_hash.clone(),
            Some(p) => format!("{} {} {} {} {}", self.token_hash, p.user_id, p.name, p.rating.mu, p.rating.sigma),
        }
    }

    /// Reads a `Sit` action back: `None` if its detail is not one `detail` writes.
    pub fn from_detail(seat: usize, detail: &str) -> Option<SeatTaken> {
        let words: Vec<&str> = detail.split(' ').collect();
        let player = match words[..] {
            [_] => None,
            [_, user_id, name, mu, sigma] => Some(SeatPlayer {
                user_id: user_id.to_string(),
                name: name.to_string(),
                rating: Rating { mu: mu.parse().ok()?, sigma: sigma.parse().ok()? },
            }),
            _ => return None,
        };
        Some(SeatTaken { seat, token_hash: words[0].to_string(), player })
    }
}

/// What a finished game leaves: when it ended, its length, whether the archive lists it, each
/// seat's place, and its players' new ratings (rated games).
#[derive(Clone, Debug)]
pub struct Settlement {
    pub game_id: String,
    pub variant: String,
    pub finished_ms: i64,
    pub plies: i64,
    pub listed: bool,
    /// Each seat's place, in seat order (`None`: the game ended without places).
    pub places: Vec<Option<u8>>,
    pub ratings: Vec<RatingUpdate>,
}

/// One player's rating change, with the number of rated games his rating counted when it was
/// read: it is written only if that is still so.
#[derive(Clone, Debug)]
pub struct RatingUpdate {
    pub user_id: String,
    pub before: Rating,
    pub games_before: i64,
    pub after: Rating,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Settled {
    Done,
    /// A rating changed since it was read (another game of the player ended): nothing was
    /// written; read and compute again.
    Stale,
    AlreadySettled,
}

/// A game as the lobby and the archive list it.
#[derive(Clone, PartialEq, Debug)]
pub struct ListedGame {
    pub id: String,
    pub variant: String,
    pub rated: bool,
    pub rules: Vec<String>,
    pub clock: Option<(i64, i64)>,
    pub created_ms: i64,
    pub open_until_ms: Option<i64>,
    pub finished_ms: Option<i64>,
    pub plies: Option<i64>,
    pub result: Option<String>,
    pub seats: Vec<ListedSeat>,
}

#[derive(Clone, PartialEq, Debug)]
pub struct ListedSeat {
    /// `human`, `open` or `bot`.
    pub kind: String,
    pub level: Option<String>,
    /// The account's name and its rating in the variant now.
    pub player: Option<(String, Rating)>,
    pub place: Option<i64>,
    /// The game's rating change (rated games): before and after.
    pub change: Option<(Rating, Rating)>,
}

/// Which finished games to list: of a player, of a variant, a page of them.
#[derive(Clone, Debug, Default)]
pub struct GameFilter {
    pub player: Option<String>,
    pub variant: Option<String>,
    pub offset: i64,
    pub limit: i64,
}

/// A player's page: the account, and his rating and its history in each variant he played rated.
#[derive(Clone, Debug)]
pub struct PlayerRecord {
    pub name: String,
    pub created_ms: i64,
    pub ratings: Vec<VariantRating>,
}

#[derive(Clone, Debug)]
pub struct VariantRating {
    pub variant: String,
    pub rating: Rating,
    pub games: i64,
    /// After each rated game, oldest first.
    pub history: Vec<RatingPoint>,
}

#[derive(Clone, Debug)]
pub struct RatingPoint {
    pub game_id: String,
    pub ms: i64,
    pub rating: Rating,
}

/// A game's two chats, kept apart.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ChatChannel {
    Players,
    Spectators,
}

impl ChatChannel {
    pub fn name(self) -> &'static str {
        match self {
            ChatChannel::Players => "players",
            ChatChannel::Spectators => "spectators",
        }
    }

    fn from_name(name: &str) -> Option<ChatChannel> {
        [ChatChannel::Players, ChatChannel::Spectators].into_iter().find(|c| c.name() == name)
    }
}

/// One line of a game's chat.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ChatLine {
    pub id: String,
    pub channel: ChatChannel,
    pub author: String,
    /// The writer's seat index (the players' chat).
    pub seat: Option<usize>,
    pub text: String,
    pub created_ms: i64,
}

/// The name as compared: names are unique whatever their case.
pub(super) fn name_key(name: &str) -> String {
    name.to_lowercase()
}

/// Stores a taken seat inside the writer's transaction: the `Sit` action first (if its place
/// is taken, nothing else is written), then the seat's occupant and the game's open time.
pub(super) async fn apply_take_seat(
    tx: &mut AnyConnection,
    game_id: &str,
    action: &StoredAction,
    taken: &SeatTaken,
    open_until_ms: Option<i64>,
    wake_ms: Option<i64>,
) -> Result<super::sql::Written, StoreError> {
    use super::sql::{insert_action, Written};
    if insert_action(tx, game_id, action).await? == Written::Conflict {
        return Ok(Written::Conflict);
    }
    sqlx::query("UPDATE seats SET kind = 'human', token_hash = $1, user_id = $2 WHERE game_id = $3 AND seat = $4")
        .bind(&taken.token_hash)
        .bind(taken.player.as_ref().map(|p| p.user_id.clone()))
        .bind(game_id)
        .bind(taken.seat as i64)
        .execute(&mut *tx)
        .await?;
    sqlx::query("UPDATE games SET open_until_ms = $1, wake_ms = $2 WHERE id = $3")
        .bind(open_until_ms)
        .bind(wake_ms)
        .bind(game_id)
        .execute(&mut *tx)
        .await?;
    Ok(Written::Done)
}

/// `settle_game`, in a transaction of its own. Every statement writes (the first takes the
/// game), so that SQLite takes its write lock at the start and never has to upgrade a read.
pub(super) async fn settle_game(pool: &AnyPool, s: &Settlement) -> Result<Settled, StoreError> {
    let mut connection = pool.acquire().await?;
    let mut tx = connection.begin().await?;
    let taken =
        sqlx::query("UPDATE games SET settled = 1, finished_ms = $1, plies = $2, listed = $3 WHERE id = $4 AND settled = 0")
            .bind(s.finished_ms)
            .bind(s.plies)
            .bind(i64::from(s.listed))
            .bind(&s.game_id)
            .execute(&mut *tx)
            .await?;
    if taken.rows_affected() == 0 {
        return Ok(Settled::AlreadySettled);
    }
    for (seat, place) in s.places.iter().enumerate() {
        if let Some(place) = place {
            sqlx::query("UPDATE seats SET place = $1 WHERE game_id = $2 AND seat = $3")
                .bind(i64::from(*place))
                .bind(&s.game_id)
                .bind(seat as i64)
                .execute(&mut *tx)
                .await?;
        }
    }
    for update in &s.ratings {
        let written = if update.games_before == 0 {
            sqlx::query(
                "INSERT INTO ratings (user_id, variant, mu, sigma, games) VALUES ($1, $2, $3, $4, 1) \
                 ON CONFLICT (user_id, variant) DO NOTHING",
            )
            .bind(&update.user_id)
            .bind(&s.variant)
            .bind(update.after.mu)
            .bind(update.after.sigma)
            .execute(&mut *tx)
            .await?
        } else {
            sqlx::query(
                "UPDATE ratings SET mu = $1, sigma = $2, games = games + 1 WHERE user_id = $3 AND variant = $4 AND games = $5",
            )
            .bind(update.after.mu)
            .bind(update.after.sigma)
            .bind(&update.user_id)
            .bind(&s.variant)
            .bind(update.games_before)
            .execute(&mut *tx)
            .await?
        };
        if written.rows_affected() == 0 {
            // Dropping the transaction rolls it back: the game stays unsettled.
            return Ok(Settled::Stale);
        }
        sqlx::query(
            "INSERT INTO rating_changes (game_id, user_id, variant, mu_before, sigma_before, mu_after, sigma_after, created_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(&s.game_id)
        .bind(&update.user_id)
        .bind(&s.variant)
        .bind(update.before.mu)
        .bind(update.before.sigma)
        .bind(update.after.mu)
        .bind(update.after.sigma)
        .bind(s.finished_ms)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(Settled::Done)
}

pub(super) async fn unsettled_games(pool: &AnyPool, limit: i64) -> Result<Vec<String>, StoreError> {
    let rows = sqlx::query("SELECT id FROM games WHERE finished = 1 AND settled = 0 ORDER BY created_ms LIMIT $1")
        .bind(limit)
        .fetch_all(pool)
        .await?;
    rows.iter().map(|row| row.try_get::<String, _>("id").map_err(StoreError::from)).collect()
}

pub(super) async fn create_user(pool: &AnyPool, user: &NewUser) -> Result<bool, StoreError> {
    let inserted = sqlx::query(
        "INSERT INTO users (id, name, name_key, password_hash, created_ms) VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (name_key) DO NOTHING",
    )
    .bind(&user.id)
    .bind(&user.name)
    .bind(name_key(&user.name))
    .bind(&user.password_hash)
    .bind(user.created_ms)
    .execute(pool)
    .await?;
    Ok(inserted.rows_affected() == 1)
}

pub(super) async fn user_for_login(pool: &AnyPool, name: &str) -> Result<Option<(Account, String)>, StoreError> {
    let row = sqlx::query("SELECT id, name, password_hash FROM users WHERE name_key = $1")
        .bind(name_key(name))
        .fetch_optional(pool)
        .await?;
    row.map(|row| Ok((Account { id: row.try_get("id")?, name: row.try_get("name")? }, row.try_get("password_hash")?))).transpose()
}

pub(super) async fn create_session(
    pool: &AnyPool,
    token_hash: &str,
    user_id: &str,
    created_ms: i64,
    expires_ms: i64,
) -> Result<(), StoreError> {
    sqlx::query("INSERT INTO sessions (token_hash, user_id, created_ms, expires_ms) VALUES ($1, $2, $3, $4)")
        .bind(token_hash)
        .bind(user_id)
        .bind(created_ms)
        .bind(expires_ms)
        .execute(pool)
        .await?;
    Ok(())
}

pub(super) async fn session_account(pool: &AnyPool, token_hash: &str, now_ms: i64) -> Result<Option<Account>, StoreError> {
    let row = sqlx::query(
        "SELECT u.id, u.name FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1 AND s.expires_ms > $2",
    )
    .bind(token_hash)
    .bind(now_ms)
    .fetch_optional(pool)
    .await?;
    row.map(|row| Ok(Account { id: row.try_get("id")?, name: row.try_get("name")? })).transpose()
}

pub(super) async fn delete_session(pool: &AnyPool, token_hash: &str) -> Result<(), StoreError> {
    sqlx::query("DELETE FROM sessions WHERE token_hash = $1").bind(token_hash).execute(pool).await?;
    Ok(())
}

pub(super) async fn ratings(pool: &AnyPool, user_ids: &[String], variant: &str) -> Result<Vec<(Rating, i64)>, StoreError> {
    let mut found = Vec::with_capacity(user_ids.len());
    for user_id in user_ids {
        let row = sqlx::query("SELECT mu, sigma, games FROM ratings WHERE user_id = $1 AND variant = $2")
            .bind(user_id)
            .bind(variant)
            .fetch_optional(pool)
            .await?;
        found.push(match row {
            Some(row) => (Rating { mu: row.try_get("mu")?, sigma: row.try_get("sigma")? }, row.try_get("games")?),
            None => (Rating::default(), 0),
        });
    }
    Ok(found)
}

/// The columns of a listed game and one of its seats (one row per seat).
const LISTED_COLUMNS: &str = "g.id, g.variant, g.rules, g.clock_initial_ms, g.clock_increment_ms, g.created_ms, g.rated, \
    g.open_until_ms, g.finished_ms, g.plies, g.result, s.seat, s.kind, s.level, s.place, u.name AS player_name, \
    r.mu, r.sigma, c.mu_before, c.sigma_before, c.mu_after, c.sigma_after \
    FROM games g JOIN seats s ON s.game_id = g.id \
    LEFT JOIN users u ON u.id = s.user_id \
    LEFT JOIN ratings r ON r.user_id = s.user_id AND r.variant = g.variant \
    LEFT JOIN rating_changes c ON c.game_id = g.id AND c.user_id = s.user_id";

/// The most open games the lobby lists.
const MAX_OPEN_GAMES: i64 = 200;

pub(super) async fn open_games(pool: &AnyPool, now_ms: i64) -> Result<Vec<ListedGame>, StoreError> {
    let sql = format!(
        "SELECT {LISTED_COLUMNS} WHERE g.id IN \
         (SELECT id FROM games WHERE finished = 0 AND open_until_ms > $1 ORDER BY created_ms DESC LIMIT $2) \
         ORDER BY g.created_ms DESC, g.id, s.seat"
    );
    let rows = sqlx::query(&sql).bind(now_ms).bind(MAX_OPEN_GAMES).fetch_all(pool).await?;
    listed_games(&rows)
}

pub(super) async fn finished_games(pool: &AnyPool, filter: &GameFilter) -> Result<Vec<ListedGame>, StoreError> {
    let mut conditions = vec!["listed = 1".to_string()];
    let mut next = 1;
    let mut parameter = || {
        let name = format!("${next}");
        next += 1;
        name
    };
    if filter.variant.is_some() {
        conditions.push(format!("variant = {}", parameter()));
    }
    if filter.player.is_some() {
        conditions.push(format!(
            "id IN (SELECT s.game_id FROM seats s JOIN users u ON u.id = s.user_id WHERE u.name_key = {})",
            parameter()
        ));
    }
    let (limit, offset) = (parameter(), parameter());
    let sql = format!(
        "SELECT {LISTED_COLUMNS} WHERE g.id IN \
         (SELECT id FROM games WHERE {} ORDER BY finished_ms DESC, id LIMIT {limit} OFFSET {offset}) \
         ORDER BY g.finished_ms DESC, g.id, s.seat",
        conditions.join(" AND ")
    );
    let mut query = sqlx::query(&sql);
    if let Some(variant) = &filter.variant {
        query = query.bind(variant);
    }
    if let Some(player) = &filter.player {
        query = query.bind(name_key(player));
    }
    let rows = query.bind(filter.limit).bind(filter.offset).fetch_all(pool).await?;
    listed_games(&rows)
}

/// Groups the rows of `LISTED_COLUMNS` (a game's seats in a row, in seat order) into games.
fn listed_games(rows: &[AnyRow]) -> Result<Vec<ListedGame>, StoreError> {
    let mut games: Vec<ListedGame> = Vec::new();
    for row in rows {
        let id: String = row.try_get("id")?;
        if games.last().is_none_or(|g| g.id != id) {
            let rules: String = row.try_get("rules")?;
            let initial: Option<i64> = row.try_get("clock_initial_ms")?;
            let increment: Option<i64> = row.try_get("clock_increment_ms")?;
            let rated: i64 = row.try_get("rated")?;
            games.push(ListedGame {
                id,
                variant: row.try_get("variant")?,
                rated: rated != 0,
                rules: rules.lines().map(String::from).filter(|r| !r.is_empty()).collect(),
                clock: initial.zip(increment),
                created_ms: row.try_get("created_ms")?,
                open_until_ms: row.try_get("open_until_ms")?,
                finished_ms: row.try_get("finished_ms")?,
                plies: row.try_get("plies")?,
                result: row.try_get("result")?,
                seats: Vec::new(),
            });
        }
        let name: Option<String> = row.try_get("player_name")?;
        let rating = rating_of(row, "mu", "sigma")?.unwrap_or_default();
        let change = rating_of(row, "mu_before", "sigma_before")?.zip(rating_of(row, "mu_after", "sigma_after")?);
        let game = games.last_mut().expect("pushed above");
        game.seats.push(ListedSeat {
            kind: row.try_get("kind")?,
            level: row.try_get("level")?,
            player: name.map(|name| (name, rating)),
            place: row.try_get("place")?,
            change,
        });
    }
    Ok(games)
}

fn rating_of(row: &AnyRow, mu: &str, sigma: &str) -> Result<Option<Rating>, StoreError> {
    let mu: Option<f64> = row.try_get(mu)?;
    let sigma: Option<f64> = row.try_get(sigma)?;
    Ok(mu.zip(sigma).map(|(mu, sigma)| Rating { mu, sigma }))
}

/// The most rating changes a player's page shows per variant (the latest).
const MAX_HISTORY: usize = 500;

pub(super) async fn player(pool: &AnyPool, name: &str) -> Result<Option<PlayerRecord>, StoreError> {
    let Some(user) = sqlx::query("SELECT id, name, created_ms FROM users WHERE name_key = $1")
        .bind(name_key(name))
        .fetch_optional(pool)
        .await?
    else {
        return Ok(None);
    };
    let user_id: String = user.try_get("id")?;
    let rating_rows = sqlx::query("SELECT variant, mu, sigma, games FROM ratings WHERE user_id = $1 ORDER BY variant")
        .bind(&user_id)
        .fetch_all(pool)
        .await?;
    let change_rows = sqlx::query(
        "SELECT game_id, variant, mu_after, sigma_after, created_ms FROM rating_changes WHERE user_id = $1 ORDER BY created_ms, game_id",
    )
    .bind(&user_id)
    .fetch_all(pool)
    .await?;
    let mut history: HashMap<String, Vec<RatingPoint>> = HashMap::new();
    for row in &change_rows {
        let variant: String = row.try_get("variant")?;
        history.entry(variant).or_default().push(RatingPoint {
            game_id: row.try_get("game_id")?,
            ms: row.try_get("created_ms")?,
            rating: Rating { mu: row.try_get("mu_after")?, sigma: row.try_get("sigma_after")? },
        });
    }
    let mut ratings = Vec::new();
    for row in &rating_rows {
        let variant: String = row.try_get("variant")?;
        let mut points = history.remove(&variant).unwrap_or_default();
        points.drain(..points.len().saturating_sub(MAX_HISTORY));
        ratings.push(VariantRating {
            rating: Rating { mu: row.try_get("mu")?, sigma: row.try_get("sigma")? },
            games: row.try_get("games")?,
            history: points,
            variant,
        });
    }
    Ok(Some(PlayerRecord { name: user.try_get("name")?, created_ms: user.try_get("created_ms")?, ratings }))
}

pub(super) async fn add_chat(pool: &AnyPool, game_id: &str, line: &ChatLine) -> Result<(), StoreError> {
    sqlx::query("INSERT INTO chat (id, game_id, channel, author, seat, text, created_ms) VALUES ($1, $2, $3, $4, $5, $6, $7)")
        .bind(&line.id)
        .bind(game_id)
        .bind(line.channel.name())
        .bind(&line.author)
        .bind(line.seat.map(|s| s as i64))
        .bind(&line.text)
        .bind(line.created_ms)
        .execute(pool)
        .await?;
    Ok(())
}

fn read_chat_line(row: &AnyRow) -> Result<ChatLine, StoreError> {
    let channel: String = row.try_get("channel")?;
    let seat: Option<i64> = row.try_get("seat")?;
    Ok(ChatLine {
        id: row.try_get("id")?,
        channel: ChatChannel::from_name(&channel).ok_or_else(|| StoreError::Corrupt(format!("chat channel `{channel}`")))?,
        author: row.try_get("author")?,
        seat: seat.and_then(|s| usize::try_from(s).ok()),
        text: row.try_get("text")?,
        created_ms: row.try_get("created_ms")?,
    })
}

pub(super) async fn chat_lines(
    pool: &AnyPool,
    game_id: &str,
    channel: ChatChannel,
    limit: i64,
) -> Result<Vec<ChatLine>, StoreError> {
    let rows = sqlx::query(
        "SELECT id, channel, author, seat, text, created_ms FROM chat WHERE game_id = $1 AND channel = $2 \
         ORDER BY created_ms DESC, id DESC LIMIT $3",
    )
    .bind(game_id)
    .bind(channel.name())
    .bind(limit)
    .fetch_all(pool)
    .await?;
    let mut lines = rows.iter().map(read_chat_line).collect::<Result<Vec<_>, _>>()?;
    lines.reverse();
    Ok(lines)
}

pub(super) async fn chat_line(pool: &AnyPool, id: &str) -> Result<Option<(String, ChatLine)>, StoreError> {
    let row = sqlx::query("SELECT id, game_id, channel, author, seat, text, created_ms FROM chat WHERE id = $1")
        .bind(id)
        .fetch_optional(pool)
        .await?;
    row.map(|row| Ok((row.try_get("game_id")?, read_chat_line(&row)?))).transpose()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_taken_seat_reads_back_from_its_detail() {
        let anonymous = SeatTaken { seat: 1, token_hash: "ab".repeat(32), player: None };
        assert_eq!(SeatTaken::from_detail(1, &anonymous.detail()), Some(anonymous));
        let player = SeatPlayer { user_id: "u1".into(), name: "alice-2".into(), rating: Rating { mu: 26.5, sigma: 7.25 } };
        let account = SeatTaken { seat: 2, token_hash: "cd".repeat(32), player: Some(player) };
        assert_eq!(SeatTaken::from_detail(2, &account.detail()), Some(account));
        assert_eq!(SeatTaken::from_detail(0, "a b"), None);
    }
}
