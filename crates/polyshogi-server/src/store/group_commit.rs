//! Group commit: one writer task stores the writes of every game, as many as are waiting in
//! one transaction, and answers each only once that transaction is committed. A sync of the
//! disk (or a round trip to PostgreSQL) is then paid once per batch rather than once per move,
//! and SQLite never sees two writers fight over its lock.
//!
//! On PostgreSQL the same transaction announces the actions it stores to the other server
//! processes (`changes`): they hear of an action when, and only if, it is committed.

use sqlx::AnyPool;
use tokio::sync::{mpsc, oneshot};
use tracing::warn;

use super::changes::{self, Change, CHANNEL};
use super::sql::{apply_write, Written};
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
            _ => None,
        }
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
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while requests.recv_many(&mut batch, MAX_BATCH).await > 0 {
        match commit(&pool, &batch, announce_as).await {
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
                    let outcome = commit(&pool, std::slice::from_ref(&request), announce_as).await;
                    let _ = request.done.send(outcome.and_then(|mut outcomes| outcomes.pop().expect("one outcome")));
                }
            }
        }
    }
}

/// Stores the writes of `requests` in one transaction, all of them or none, and answers each
/// one's outcome: stored, or a conflict (its place was taken: nothing of it was written).
async fn commit(
    pool: &AnyPool,
    requests: &[Request],
    announce_as: Option<&str>,
) -> Result<Vec<Result<(), StoreError>>, StoreError> {
    let mut tx = pool.begin().await?;
    let mut outcomes = Vec::with_capacity(requests.len());
    let mut stored = Vec::new();
    for request in requests {
        match apply_write(&mut tx, &request.write).await? {
            Written::Done => {
                stored.extend(request.write.change());
                outcomes.push(Ok(()));
            }
            Written::Conflict => outcomes.push(Err(StoreError::Conflict)),
        }
    }
    if let Some(instance) = announce_as {
        // Delivered by PostgreSQL at the commit, and not at all if the transaction fails.
        for payload in changes::encode(instance, &stored) {
            sqlx::query("SELECT pg_notify($1, $2)").bind(CHANNEL).bind(payload).execute(&mut *tx).await?;
        }
    }
    tx.commit().await?;
    Ok(outcomes)
}
