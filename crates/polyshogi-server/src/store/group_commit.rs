//! Group commit: one writer task stores the writes of every game, as many as are waiting in
//! one transaction, and answers each only once that transaction is committed. A sync of the
//! disk (or a round trip to PostgreSQL) is then paid once per batch rather than once per move,
//! and SQLite never sees two writers fight over its lock.

use sqlx::AnyPool;
use tokio::sync::{mpsc, oneshot};
use tracing::warn;

use super::sql::apply_write;
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
    pub fn start(pool: AnyPool) -> Writer {
        let (queue, requests) = mpsc::channel(QUEUE);
        tokio::spawn(run(pool.clone(), requests));
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

async fn run(pool: AnyPool, mut requests: mpsc::Receiver<Request>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while requests.recv_many(&mut batch, MAX_BATCH).await > 0 {
        let result = commit(&pool, batch.iter().map(|r| &r.write)).await;
        match result {
            Ok(()) => {
                for request in batch.drain(..) {
                    let _ = request.done.send(Ok(()));
                }
            }
            Err(e) if batch.len() == 1 => {
                let _ = batch.pop().expect("one request").done.send(Err(e));
            }
            Err(e) => {
                // One bad write must not fail the others: each is tried again on its own.
                warn!("a batch of {} writes failed ({e}); storing them one by one", batch.len());
                for request in batch.drain(..) {
                    let result = commit(&pool, std::iter::once(&request.write)).await;
                    let _ = request.done.send(result);
                }
            }
        }
    }
}

/// Stores `writes` in one transaction: all of them, or none.
async fn commit(pool: &AnyPool, writes: impl Iterator<Item = &Write>) -> Result<(), StoreError> {
    let mut tx = pool.begin().await?;
    for write in writes {
        apply_write(&mut tx, write).await?;
    }
    tx.commit().await?;
    Ok(())
}
