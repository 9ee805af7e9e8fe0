//! The live games of this process by id: created here, resumed from storage at start, and
//! loaded on demand when a finished game is asked for.
//!
//! The map is locked only to look up or insert an entry, never across storage: each game being
//! loaded has a cell of its own that its requests wait on, so loading (or failing to find) one
//! game never holds up another.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::OnceCell;
use tokio::task::AbortHandle;
use tracing::{error, info};

use crate::room::{spawn_room, GameSetup, RoomHandle};
use crate::store::{Store, StoreError, StoredGame};
use crate::tokens::is_game_id;

pub struct Rooms {
    store: Arc<dyn Store>,
    /// How long a human seat has for its first move in a game with a clock.
    first_move_time: Duration,
    live: Mutex<HashMap<String, Slot>>,
    tasks: Mutex<Vec<AbortHandle>>,
}

/// A game's entry: its room once started; empty while the first request for it loads it.
type Slot = Arc<OnceCell<RoomHandle>>;

/// Why a game could not be reached.
#[derive(Debug)]
pub enum RoomError {
    Store(StoreError),
    /// The stored game cannot be replayed.
    Broken(String),
    /// There is no such game (never shown: `get` answers `None`).
    NotFound,
}

impl std::fmt::Display for RoomError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RoomError::Store(e) => write!(f, "{e}"),
            RoomError::Broken(e) => write!(f, "{e}"),
            RoomError::NotFound => write!(f, "no such game"),
        }
    }
}

impl Rooms {
    pub fn new(store: Arc<dyn Store>, first_move_time: Duration) -> Rooms {
        Rooms { store, first_move_time, live: Mutex::new(HashMap::new()), tasks: Mutex::new(Vec::new()) }
    }

    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// Starts the owner of every unfinished game in storage; a game that cannot be replayed
    /// is reported and left alone.
    pub async fn resume_unfinished(&self) -> Result<usize, StoreError> {
        let ids = self.store.unfinished_games().await?;
        let mut resumed = 0;
        for id in ids {
            match self.get(&id).await {
                Ok(Some(_)) => resumed += 1,
                Ok(None) => {}
                Err(e) => error!(game = %id, "not resumed: {e}"),
            }
        }
        if resumed > 0 {
            info!("resumed {resumed} unfinished game(s)");
        }
        Ok(resumed)
    }

    /// Stores a new game and starts its owner.
    pub async fn create(&self, setup: &GameSetup) -> Result<RoomHandle, RoomError> {
        let stored = setup.to_stored();
        self.store.create_game(&stored).await.map_err(RoomError::Store)?;
        let handle = self.start(stored)?;
        let slot = Arc::new(OnceCell::new_with(Some(handle.clone())));
        self.live.lock().expect("not poisoned").insert(setup.id.clone(), slot);
        Ok(handle)
    }

    /// The live game `id`, loaded from storage if needed; `None` if there is no such game.
    pub async fn get(&self, id: &str) -> Result<Option<RoomHandle>, RoomError> {
        if !is_game_id(id) {
            return Ok(None);
        }
        let slot = self.live.lock().expect("not poisoned").entry(id.to_string()).or_default().clone();
        if let Some(handle) = slot.get() {
            return Ok(Some(handle.clone()));
        }
        let loaded = slot
            .get_or_try_init(|| async {
                match self.store.load_game(id).await.map_err(RoomError::Store)? {
                    Some(stored) => self.start(stored),
                    None => Err(RoomError::NotFound),
                }
            })
            .await;
        match loaded {
            Ok(handle) => Ok(Some(handle.clone())),
            Err(e) => {
                // Nothing is kept of a game that is not there (or could not be read): a flood
                // of unknown ids leaves no trace.
                let mut live = self.live.lock().expect("not poisoned");
                if live.get(id).is_some_and(|s| Arc::ptr_eq(s, &slot) && !s.initialized()) {
                    live.remove(id);
                }
                match e {
                    RoomError::NotFound => Ok(None),
                    e => Err(e),
                }
            }
        }
    }

    /// Starts the owner task of a stored game.
    fn start(&self, stored: StoredGame) -> Result<RoomHandle, RoomError> {
        let (handle, task) = spawn_room(stored, self.store.clone(), self.first_move_time).map_err(RoomError::Broken)?;
        self.tasks.lock().expect("not poisoned").push(task.abort_handle());
        Ok(handle)
    }

    /// Stops every game owner (their state is all in storage already).
    pub fn abort_all(&self) {
        for task in self.tasks.lock().expect("not poisoned").drain(..) {
            task.abort();
        }
    }
}
