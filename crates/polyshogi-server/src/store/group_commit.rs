//! Group commit: one writer task stores the writes of every game, as many as are waiting in
//! one transaction, and answers each only once that transaction is committed. A sync of the
//! disk (or a round trip to PostgreSQL) is then paid once per batch rather than once per move,
//! and SQLite never sees two writers fight over its lock.
//!
//! On PostgreSQL the same transaction announces the actions it stores to the other server
//! processes (`changes`): they hear of an action when, and only if, it is committed.
//!
//! On PostgreSQL every statement is a network round trip, and the database shares the machine:
//! a batch's actions are stored by two multi-row statements (`sql::apply_actions`) rather than
//! two statements each, its announcements by one, and the writer keeps its connection from one
//! batch to the next.

use std::collections::HashSet;

use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyConnection, AnyPool, Connection};
use tokio::sync::{mpsc, oneshot};
use tracing::warn;

use super::changes::{self, Change, CHANNEL};
use super::players::SeatTaken;
use super::sql::{apply_actions, apply_write, ActionRow, Written};
use super::{StoreError, StoredAction, StoredGame};

/// The most writes committed together: bounds how long one commit holds the database.
const MAX_BATCH: usize = 512;
/// Writes waiting for the writer; a full queue makes the rooms wait (back-pressure).
const QUEUE: usize = 4096;

/// One write, as the `Store` methods describe it.
#[derive(Debug)]
pub(super) enum Write {
    Game(StoredGame),
    Rematch { game: StoredGame, from_id: String, link: StoredAction },
    Action { game_id: String, action: StoredAction, result: Option<String>, wake_ms: Option<i64> },
    Sit { game_id: String, action: StoredAction, taken: SeatTaken, open_until_ms: Option<i64>, wake_ms: Option<i64> },
    Wake { game_id: String, wake_ms: Option<i64> },
    RunStarted { run: String, started_ms: i64 },
    Alive { run: String, alive_ms: i64 },
}

impl Write {
    /// What the other server processes hear of this write once it is stored.
    fn change(&self) -> Option<Change> {
        match self {
            Write::Action { game_id, action, result, wake_ms } => Some(Change::Stored {
                game_id: game_id.clone(),
                seq: action.seq,
                wake_ms: if result.is_some() { None } else { *wake_ms },
            }),
            Write::Rematch { from_id, link, .. } => {
                Some(Change::Stored { game_id: from_id.clone(), seq: link.seq, wake_ms: None })
            }
            Write::Sit { game_id, action, wake_ms, .. } => {
                Some(Change::Stored { game_id: game_id.clone(), seq: action.seq, wake_ms: *wake_ms })
            }
            _ => None,
        }
    }

    /// The games whose rows this write changes.
    fn games(&self) -> impl Iterator<Item = &str> {
        let (first, second) = match self {
            Write::Game(game) => (Some(game.id.as_str()), None),
            Write::Rematch { game, from_id, .. } => (Some(game.id.as_str()), Some(from_id.as_str())),
            Write::Action { game_id, .. } | Write::Wake { game_id, .. } | Write::Sit { game_id, .. } => {
                (Some(game_id.as_str()), None)
            }
            Write::RunStarted { .. } | Write::Alive { .. } => (None, None),
        };
        first.into_iter().chain(second)
    }
}

struct Request {
    write: Write,
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// The way to the writer task; it stops when the last handle is dropped.
#[derive(Clone, Debug)]
pub(super) struct Writer {
    queue: mpsc::Sender<Request>,
    pool: AnyPool,
}

impl Writer {
    /// Starts the writer on `pool`; with `announce_as` (PostgreSQL), every stored action is
    /// announced to the other processes as coming from that instance.
    pub fn start(pool: AnyPool, announce_as: Option<String>) -> Writer {
        let (queue, requests) = mpsc::channel(QUEUE);
        tokio::spawn(run(pool.clone(), requests, announce_as));
        Writer { queue, pool }
    }

    /// Closes the writer's connection (waits for a commit in progress).
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// Stores `write`; returns once it is committed (or has failed).
    pub async fn write(&self, write: Write) -> Result<(), StoreError> {
        let (done, answer) = oneshot::channel();
        self.queue.send(Request { write, done }).await.map_err(|_| StoreError::Closed)?;
        answer.await.map_err(|_| StoreError::Closed)?
    }
}

async fn run(pool: AnyPool, mut requests: mpsc::Receiver<Request>, announce_as: Option<String>) {
    let announce_as = announce_as.as_deref();
    let mut connection = HeldConnection { pool, held: None };
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while requests.recv_many(&mut batch, MAX_BATCH).await > 0 {
        match commit(&mut connection, &batch, announce_as).await {
            Ok(outcomes) => {
                for (request, outcome) in batch.drain(..).zip(outcomes) {
                    let _ = request.done.send(outcome);
                }
            }
            Err(e) if batch.len() == 1 => {
                let _ = batch.pop().expect("one request").done.send(Err(e));
            }
            Err(e) => {
                // One bad write must not fail the others: each is tried again on its own.
                warn!("a batch of {} writes failed ({e}); storing them one by one", batch.len());
                for request in batch.drain(..) {
                    let outcome = commit(&mut connection, std::slice::from_ref(&request), announce_as).await;
                    let _ = request.done.send(outcome.and_then(|mut outcomes| outcomes.pop().expect("one outcome")));
                }
            }
        }
        if requests.is_empty() {
            connection.release();
        }
    }
}

/// The writer's connection, kept from one batch to the next while writes keep coming: the pool
/// tests a connection by a round trip each time it is taken and each time it is given back,
/// two more round trips per batch. Given back when no write waits, so that closing the pool
/// (which waits for its connections) never waits for an idle writer.
struct HeldConnection {
    pool: AnyPool,
    held: Option<PoolConnection<Any>>,
}

impl HeldConnection {
    async fn get(&mut self) -> Result<&mut AnyConnection, StoreError> {
        if self.pool.is_closed() {
            // The store is closing: no more writes.
            self.release();
        }
        if self.held.is_none() {
            self.held = Some(self.pool.acquire().await?);
        }
        Ok(self.held.as_mut().expect("a connection was just taken"))
    }

    /// Gives the connection back to the pool, which tests it (and replaces it if it is broken).
    fn release(&mut self) {
        self.held = None;
    }
}

/// Stores the writes of `requests` in one transaction, all of them or none, and answers each
/// one's outcome: stored, or a conflict (its place was taken: nothing of it was written).
async fn commit(
    connection: &mut HeldConnection,
    requests: &[Request],
    announce_as: Option<&str>,
) -> Result<Vec<Result<(), StoreError>>, StoreError> {
    let outcomes = commit_on(connection.get().await?, requests, announce_as).await;
    if outcomes.is_err() {
        // It may be the connection that failed.
        connection.release();
    }
    outcomes
}

async fn commit_on(
    connection: &mut AnyConnection,
    requests: &[Request],
    announce_as: Option<&str>,
) -> Result<Vec<Result<(), StoreError>>, StoreError> {
    let mut tx = connection.begin().await?;
    let mut written: Vec<Option<Written>> = vec![None; requests.len()];
    let mut actions = WaitingActions::default();
    for (index, request) in requests.iter().enumerate() {
        let write = &request.write;
        if write.games().any(|game| actions.games.contains(game)) {
            actions.store(&mut tx, requests, &mut written).await?;
        }
        match write {
            Write::Action { game_id, .. } => actions.add(index, game_id),
            _ => written[index] = Some(apply_write(&mut tx, write).await?),
        }
    }
    actions.store(&mut tx, requests, &mut written).await?;

    let written: Vec<Written> = written.into_iter().map(|w| w.expect("every write was stored or refused")).collect();
    let stored: Vec<Change> = requests
        .iter()
        .zip(&written)
        .filter(|(_, written)| **written == Written::Done)
        .filter_map(|(request, _)| request.write.change())
        .collect();
    if let Some(instance) = announce_as {
        announce(&mut tx, instance, &stored).await?;
    }
    tx.commit().await?;
    Ok(written
        .into_iter()
        .map(|written| match written {
            Written::Done => Ok(()),
            Written::Conflict => Err(StoreError::Conflict),
        })
        .collect())
}

/// Announces `stored` to the other processes, all the payloads in one statement (one round
/// trip). PostgreSQL delivers them at the commit, and not at all if the transaction fails.
async fn announce(tx: &mut AnyConnection, instance: &str, stored: &[Change]) -> Result<(), StoreError> {
    let payloads = changes::encode(instance, stored);
    if payloads.is_empty() {
        return Ok(());
    }
    let calls: Vec<String> = (0..payloads.len()).map(|i| format!("pg_notify($1, ${})", i + 2)).collect();
    let sql = format!("SELECT {}", calls.join(", "));
    let mut query = sqlx::query(&sql).bind(CHANNEL);
    for payload in payloads {
        query = query.bind(payload);
    }
    query.execute(&mut *tx).await?;
    Ok(())
}

/// The action writes of a batch not yet stored: they are stored together, in a few statements,
/// before the next write of one of their games (which must find them stored, as they were sent
/// before it) and at the end of the batch. Writes of other games may be stored before them:
/// they change other rows.
#[derive(Default)]
struct WaitingActions<'a> {
    /// Indices in the batch, in order.
    indices: Vec<usize>,
    games: HashSet<&'a str>,
}

impl<'a> WaitingActions<'a> {
    fn add(&mut self, index: usize, game_id: &'a str) {
        self.indices.push(index);
        self.games.insert(game_id);
    }

    /// Stores the waiting actions, noting each one's outcome in `written`.
    async fn store(
        &mut self,
        tx: &mut AnyConnection,
        requests: &[Request],
        written: &mut [Option<Written>],
    ) -> Result<(), StoreError> {
        if self.indices.is_empty() {
            return Ok(());
        }
        let rows: Vec<ActionRow> = self
            .indices
            .iter()
            .map(|&index| match &requests[index].write {
                Write::Action { game_id, action, result, wake_ms } => {
                    ActionRow { game_id, action, result: result.as_deref(), wake_ms: *wake_ms }
                }
                other => unreachable!("only actions wait: {other:?}"),
            })
            .collect();
        let outcomes = apply_actions(tx, &rows).await?;
        for (&index, outcome) in self.indices.iter().zip(outcomes) {
            written[index] = Some(outcome);
        }
        self.indices.clear();
        self.games.clear();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::store::{normalize_url, ActionKind, SqlStore, Store, StoredSeat};
    use crate::tokens::new_game_id;

    fn game(id: &str) -> StoredGame {
        StoredGame {
            id: id.to_string(),
            variant: "hexshogi91".into(),
            rules: Vec::new(),
            start_position: None,
            clock: None,
            created_ms: 1,
            seats: vec![StoredSeat::Bot { level: "random".into() }, StoredSeat::Bot { level: "random".into() }],
            rated: false,
            open_until_ms: None,
            finished: false,
            settled: false,
            result: None,
            wake_ms: Some(1),
            actions: Vec::new(),
        }
    }

    fn action(seq: i64, detail: &str) -> StoredAction {
        StoredAction { seq, seat: 0, kind: ActionKind::Move, detail: detail.into(), clocks: None, created_ms: 2 }
    }

    fn act(game_id: &str, seq: i64, detail: &str, result: Option<&str>, wake_ms: Option<i64>) -> Write {
        Write::Action { game_id: game_id.into(), action: action(seq, detail), result: result.map(str::to_string), wake_ms }
    }

    /// One batch, committed by `commit` itself (no scheduler deciding what shares a batch), with
    /// every case the multi-row statements must keep as if the writes were stored one by one.
    async fn one_batch_suite(url: &str) {
        let store = SqlStore::connect(url).await.expect("the database opens and migrates");
        let listener = SqlStore::connect(url).await.unwrap();
        let mut heard = listener.take_changes();
        let [new, taken, ends, woken, twice, doubled] = std::array::from_fn(|_| new_game_id());
        for id in [&taken, &ends, &woken, &twice, &doubled] {
            store.create_game(&game(id)).await.unwrap();
        }
        store.append_action(&taken, &action(0, "first"), None, Some(9)).await.unwrap();

        let writes = vec![
            // A game created and played in the same batch: the game first.
            Write::Game(game(&new)),
            act(&new, 0, "a", None, Some(10)),
            // A place taken before: this write alone is refused.
            act(&taken, 0, "b", None, Some(20)),
            act(&ends, 0, "c", Some("Second wins (Resignation)"), Some(30)),
            // The wake time set after the action wins over the action's.
            act(&woken, 0, "d", None, Some(40)),
            Write::Wake { game_id: woken.clone(), wake_ms: Some(41) },
            // Two actions of one game: both stored, in order.
            act(&twice, 0, "e", None, Some(50)),
            act(&twice, 1, "f", None, Some(51)),
            // The same place twice in one batch: the first takes it.
            act(&doubled, 0, "g", None, Some(60)),
            act(&doubled, 0, "h", None, Some(61)),
            Write::Alive { run: new_game_id(), alive_ms: 1 },
        ];
        let requests: Vec<Request> = writes.into_iter().map(|write| Request { write, done: oneshot::channel().0 }).collect();
        let pool = AnyPool::connect(&normalize_url(url).unwrap()).await.unwrap();
        let mut connection = HeldConnection { pool, held: None };
        let announce_as = heard.is_some().then(new_game_id);
        let outcomes = commit(&mut connection, &requests, announce_as.as_deref()).await.expect("the batch commits");
        let refused: Vec<usize> = (0..outcomes.len()).filter(|&i| matches!(outcomes[i], Err(StoreError::Conflict))).collect();
        assert_eq!(refused, [2, 9], "{outcomes:?}");
        assert!(outcomes.iter().all(|o| matches!(o, Ok(()) | Err(StoreError::Conflict))), "{outcomes:?}");

        let load = |id: &String| {
            let (store, id) = (store.clone(), id.clone());
            async move { store.load_game(&id).await.unwrap().expect("the game is stored") }
        };
        let details = |game: &StoredGame| game.actions.iter().map(|a| a.detail.clone()).collect::<Vec<_>>();
        let g = load(&new).await;
        assert_eq!((details(&g), g.wake_ms), (vec!["a".into()], Some(10)));
        let g = load(&taken).await;
        assert_eq!((details(&g), g.wake_ms), (vec!["first".into()], Some(9)));
        let g = load(&ends).await;
        assert_eq!((details(&g), g.wake_ms, g.finished), (vec!["c".into()], None, true));
        assert_eq!(g.result.as_deref(), Some("Second wins (Resignation)"));
        let g = load(&woken).await;
        assert_eq!((details(&g), g.wake_ms), (vec!["d".into()], Some(41)));
        let g = load(&twice).await;
        assert_eq!((details(&g), g.wake_ms), (vec!["e".into(), "f".into()], Some(51)));
        let g = load(&doubled).await;
        assert_eq!((details(&g), g.wake_ms, g.finished), (vec!["g".into()], Some(60), false));

        if let Some(heard) = heard.as_mut() {
            // A write committed after the batch, announced after it: once it is heard, all is.
            let marker = new_game_id();
            store.create_game(&game(&marker)).await.unwrap();
            store.append_action(&marker, &action(0, "marker"), None, None).await.unwrap();
            let ours = [&new, &taken, &ends, &woken, &twice, &doubled];
            let mut stored = Vec::new();
            loop {
                let change = tokio::time::timeout(Duration::from_secs(10), heard.recv()).await.unwrap().unwrap();
                let Change::Stored { game_id, seq, wake_ms } = change else { continue };
                if game_id == marker {
                    break;
                }
                // Only this test's games, after the action stored before the batch.
                let change = (game_id, seq, wake_ms);
                if ours.contains(&&change.0) && change != (taken.clone(), 0, Some(9)) {
                    stored.push(change);
                }
            }
            // In the order of the writes, and only the actions stored.
            let expected = vec![
                (new.clone(), 0, Some(10)),
                (ends.clone(), 0, None),
                (woken.clone(), 0, Some(40)),
                (twice.clone(), 0, Some(50)),
                (twice.clone(), 1, Some(51)),
                (doubled.clone(), 0, Some(60)),
            ];
            assert_eq!(stored, expected);
        }
        connection.release();
        connection.pool.close().await;
        listener.close().await;
        store.close().await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn one_batch_stores_each_write_as_if_alone_on_sqlite() {
        let dir = tempfile::tempdir().unwrap();
        one_batch_suite(&format!("sqlite:{}", dir.path().join("games.db").display())).await;
    }

    /// On the database of `POLYSHOGI_TEST_POSTGRES_URL` itself (the games' ids are new).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn one_batch_stores_each_write_as_if_alone_on_postgres() {
        match std::env::var("POLYSHOGI_TEST_POSTGRES_URL") {
            Ok(url) => one_batch_suite(&url).await,
            Err(_) if std::env::var("POLYSHOGI_REQUIRE_POSTGRES").as_deref() == Ok("1") => {
                panic!("POLYSHOGI_REQUIRE_POSTGRES=1 but POLYSHOGI_TEST_POSTGRES_URL is not set")
            }
            Err(_) => eprintln!("NOTICE: the PostgreSQL batch test did not run: POLYSHOGI_TEST_POSTGRES_URL is not set"),
        }
    }
}
