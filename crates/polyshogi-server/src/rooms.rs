//! The games in this process's memory, by id: created here, loaded on demand (a request for a
//! game, or its stored wake time coming near), and dropped again by their owners when idle.
//!
//! The map is locked only to look up or insert an entry, never across storage: each game being
//! loaded has a cell of its own that its requests wait on, so loading (or failing to find) one
//! game never holds up another.
//!
//! With other server processes on the database, what they store and who is connected through
//! them reach the games here (`heard`); a game due to wake is loaded by its owner only.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::OnceCell;
use tokio::task::AbortHandle;
use tracing::error;

use crate::instances::Instances;
use crate::room::{now_ms, spawn_room, GameSetup, RoomHandle, RoomSettings};
use crate::store::{Change, Store, StoreError, StoredGame};
use crate::tokens::is_game_id;
use crate::uptime::Uptime;

/// Games whose wake time is this near are loaded, so that their owners are running when it comes.
const WAKE_AHEAD: Duration = Duration::from_secs(10);
/// The most games loaded by one `wake_due`: after a long downtime the rest follow a second later.
const WAKE_BATCH: i64 = 500;

pub struct Rooms {
    store: Arc<dyn Store>,
    settings: RoomSettings,
    uptime: Uptime,
    instances: Arc<Instances>,
    live: Mutex<HashMap<String, Slot>>,
}

/// A game's entry: its room once started; empty while the first request for it loads it.
type Slot = Arc<OnceCell<LiveRoom>>;

#[derive(Clone)]
struct LiveRoom {
    handle: RoomHandle,
    task: AbortHandle,
}

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
    pub fn new(store: Arc<dyn Store>, settings: RoomSettings, uptime: Uptime) -> Rooms {
        let instances = Arc::new(Instances::new(store.instance()));
        Rooms { store, settings, uptime, instances, live: Mutex::new(HashMap::new()) }
    }

    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    pub fn settings(&self) -> &RoomSettings {
        &self.settings
    }

    /// How many games are in memory.
    pub fn live_count(&self) -> usize {
        self.live.lock().expect("not poisoned").len()
    }

    /// Reads which server processes serve the database; if that changed, every game here looks
    /// again (it may own its timers and bots now, or a process's connections may be gone) and
    /// tells who is connected to it here (a process that just started does not know).
    pub async fn refresh_instances(&self) -> Result<(), StoreError> {
        if self.instances.refresh(self.store.as_ref()).await? {
            for handle in self.loaded_all() {
                handle.nudge();
                handle.asked_presence();
            }
        }
        Ok(())
    }

    fn nudge_all(&self) {
        for handle in self.loaded_all() {
            handle.nudge();
        }
    }

    /// Every game in memory.
    fn loaded_all(&self) -> Vec<RoomHandle> {
        let live = self.live.lock().expect("not poisoned");
        live.values().filter_map(|slot| slot.get()).map(|room| room.handle.clone()).collect()
    }

    /// The game `id` if it is in memory (not loading it).
    fn loaded(&self, id: &str) -> Option<RoomHandle> {
        let live = self.live.lock().expect("not poisoned");
        live.get(id).and_then(|slot| slot.get()).map(|room| room.handle.clone()).filter(|handle| !handle.is_closed())
    }

    /// Passes on what another server process did: a game it stored an action of looks again
    /// (and is loaded, if this process owns it and it has something to do soon), and
    /// connections it holds are shown.
    pub async fn heard(&self, change: Change) {
        match change {
            Change::Stored { game_id, wake_ms, .. } => match self.loaded(&game_id) {
                Some(handle) => handle.nudge(),
                None => {
                    let due = wake_ms.is_some_and(|at| at <= now_ms() + WAKE_AHEAD.as_millis() as i64);
                    if due && self.instances.owns(&game_id) {
                        if let Err(e) = self.get(&game_id).await {
                            error!(game = %game_id, "not resumed: {e}");
                        }
                    }
                }
            },
            Change::Presence { game_id, instance, connected } => {
                if let Some(handle) = self.loaded(&game_id) {
                    handle.connected_elsewhere(instance, connected);
                }
            }
            Change::AskPresence { game_id, .. } => {
                if let Some(handle) = self.loaded(&game_id) {
                    handle.asked_presence();
                }
            }
            Change::Chat { game_id, line_id } => {
                if let Some(handle) = self.loaded(&game_id) {
                    handle.chat_elsewhere(line_id);
                }
            }
            // Anything may have been stored meanwhile.
            Change::Missed => self.nudge_all(),
        }
    }

    /// Loads every unfinished game this process owns whose wake time is near (a clock to fall,
    /// a bot to move), and every finished one not yet settled (its owner stopped first, and
    /// settles it when loaded); forgets the games whose owners have stopped.
    pub async fn wake_due(&self) -> Result<(), StoreError> {
        let mut ids = self.store.games_to_wake(now_ms() + WAKE_AHEAD.as_millis() as i64, WAKE_BATCH).await?;
        ids.extend(self.store.unsettled_games(WAKE_BATCH).await?.into_iter().filter(|id| self.loaded(id).is_none()));
        for id in ids.into_iter().filter(|id| self.instances.owns(id)) {
            if let Err(e) = self.get(&id).await {
                error!(game = %id, "not resumed: {e}");
            }
        }
        self.live.lock().expect("not poisoned").retain(|_, slot| slot.get().is_none_or(|room| !room.handle.is_closed()));
        Ok(())
    }

    /// Stores a new game and starts its owner.
    pub async fn create(&self, setup: &GameSetup) -> Result<RoomHandle, RoomError> {
        let stored = setup.to_stored();
        self.store.create_game(&stored).await.map_err(RoomError::Store)?;
        let room = self.start(stored)?;
        let handle = room.handle.clone();
        self.live.lock().expect("not poisoned").insert(setup.id.clone(), Arc::new(OnceCell::new_with(Some(room))));
        Ok(handle)
    }

    /// The game `id`, loaded from storage if it is not in memory; `None` if there is no such game.
    pub async fn get(&self, id: &str) -> Result<Option<RoomHandle>, RoomError> {
        if !is_game_id(id) {
            return Ok(None);
        }
        let slot = {
            let mut live = self.live.lock().expect("not poisoned");
            let slot = live.entry(id.to_string()).or_default();
            if slot.get().is_some_and(|room| room.handle.is_closed()) {
                // Its owner stopped, idle: the game is loaded again.
                *slot = Slot::default();
            }
            slot.clone()
        };
        if let Some(room) = slot.get() {
            return Ok(Some(room.handle.clone()));
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
            Ok(room) => Ok(Some(room.handle.clone())),
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
    fn start(&self, stored: StoredGame) -> Result<LiveRoom, RoomError> {
        let (handle, task) = spawn_room(stored, self.store.clone(), self.settings, &self.uptime, self.instances.clone())
            .map_err(RoomError::Broken)?;
        Ok(LiveRoom { handle, task: task.abort_handle() })
    }

    /// Stops every game owner (their state is all in storage already).
    pub fn abort_all(&self) {
        for slot in self.live.lock().expect("not poisoned").values() {
            if let Some(room) = slot.get() {
                room.task.abort();
            }
        }
    }
}
