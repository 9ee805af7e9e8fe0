//! The live games of this process by id: created here, resumed from storage at start, and
//! loaded on demand when a finished game is asked for.

use std::collections::HashMap;
use std::sync::{Arc, Mutex as StdMutex};
use std::time::Duration;

use tokio::sync::Mutex;
use tokio::task::AbortHandle;
use tracing::{error, info};

use crate::room::{spawn_room, GameSetup, RoomHandle};
use crate::store::{Store, StoreError};
use crate::tokens::is_game_id;

pub struct Rooms {
    store: Arc<dyn Store>,
    /// How long a human seat has for its first move in a game with a clock.
    first_move_time: Duration,
    live: Mutex<HashMap<String, RoomHandle>>,
    tasks: StdMutex<Vec<AbortHandle>>,
}

/// Why a game could not be reached.
#[derive(Debug)]
pub enum RoomError {
    Store(StoreError),
    /// The stored game cannot be replayed.
    Broken(String),
}

impl std::fmt::Display for RoomError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RoomError::Store(e) => write!(f, "{e}"),
            RoomError::Broken(e) => write!(f, "{e}"),
        }
    }
}

impl Rooms {
    pub fn new(store: Arc<dyn Store>, first_move_time: Duration) -> Rooms {
        Rooms { store, first_move_time, live: Mutex::new(HashMap::new()), tasks: StdMutex::new(Vec::new()) }
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
        let mut live = self.live.lock().await;
        let (handle, task) = spawn_room(stored, self.store.clone(), self.first_move_time).map_err(RoomError::Broken)?;
        self.tasks.lock().expect("not poisoned").push(task.abort_handle());
        live.insert(setup.id.clone(), handle.clone());
        Ok(handle)
    }

    /// The live game `id`, loaded from storage if needed; `None` if there is no such game.
    pub async fn get(&self, id: &str) -> Result<Option<RoomHandle>, RoomError> {
        if !is_game_id(id) {
            return Ok(None);
        }
        let mut live = self.live.lock().await;
        if let Some(handle) = live.get(id) {
            return Ok(Some(handle.clone()));
        }
        let Some(stored) = self.store.load_game(id).await.map_err(RoomError::Store)? else {
            return Ok(None);
        };
        let (handle, task) = spawn_room(stored, self.store.clone(), self.first_move_time).map_err(RoomError::Broken)?;
        self.tasks.lock().expect("not poisoned").push(task.abort_handle());
        live.insert(id.to_string(), handle.clone());
        Ok(Some(handle))
    }

    /// Stops every game owner (their state is all in storage already).
    pub fn abort_all(&self) {
        for task in self.tasks.lock().expect("not poisoned").drain(..) {
            task.abort();
        }
    }
}
