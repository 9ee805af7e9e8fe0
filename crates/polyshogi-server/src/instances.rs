//! Which server process runs what a game does by itself — its clocks falling, its first move
//! overdue, its bots thinking — when several processes share one PostgreSQL.
//!
//! Any process may store a player's action (the database takes each action's place once); but
//! only a game's owner starts its bots and its timers, so that no two processes think for the
//! same bot. The owner is picked by rendezvous hashing over the processes serving the database
//! now: every process picks the same one from the same list, and when a process stops, only
//! its games change hands.

use std::collections::HashSet;
use std::sync::RwLock;

use sha2::{Digest, Sha256};

use crate::store::{Store, StoreError};

pub struct Instances {
    me: String,
    /// The processes serving the database, as last read (sorted; this one included).
    live: RwLock<Vec<String>>,
    /// The processes that served the database and stopped.
    gone: RwLock<HashSet<String>>,
}

impl Instances {
    /// Alone, until `refresh` finds others.
    pub fn new(me: &str) -> Instances {
        Instances { me: me.to_string(), live: RwLock::new(vec![me.to_string()]), gone: RwLock::default() }
    }

    pub fn me(&self) -> &str {
        &self.me
    }

    /// Whether this process runs game `game_id`'s timers and bots.
    pub fn owns(&self, game_id: &str) -> bool {
        let live = self.live.read().expect("not poisoned");
        live.len() <= 1 || owner(&live, game_id) == Some(self.me.as_str())
    }

    /// Whether other processes serve the database too, as last read.
    pub fn is_shared(&self) -> bool {
        self.live.read().expect("not poisoned").len() > 1
    }

    /// Whether `instance` has stopped serving the database (a process not seen yet has not:
    /// it may have started since the last read).
    pub fn is_gone(&self, instance: &str) -> bool {
        self.gone.read().expect("not poisoned").contains(instance)
    }

    /// Reads which processes serve the database now; true if that changed.
    pub async fn refresh(&self, store: &dyn Store) -> Result<bool, StoreError> {
        let mut live = store.live_instances().await?;
        if !live.contains(&self.me) {
            live.push(self.me.clone());
            live.sort_unstable();
        }
        let mut current = self.live.write().expect("not poisoned");
        let changed = *current != live;
        let departed = current.iter().filter(|instance| !live.contains(instance)).cloned();
        self.gone.write().expect("not poisoned").extend(departed);
        *current = live;
        Ok(changed)
    }

    #[cfg(test)]
    fn with_live(me: &str, live: &[&str]) -> Instances {
        let instances = Instances::new(me);
        *instances.live.write().unwrap() = live.iter().map(|i| i.to_string()).collect();
        instances
    }
}

/// Which of the `live` processes runs game `game_id`'s timers and bots.
pub fn owner<'a>(live: &'a [String], game_id: &str) -> Option<&'a str> {
    live.iter().max_by_key(|instance| score(instance, game_id)).map(String::as_str)
}

/// How much `instance` wants `game_id`: the highest score owns the game.
fn score(instance: &str, game_id: &str) -> [u8; 8] {
    let mut hash = Sha256::new();
    hash.update(instance.as_bytes());
    hash.update(b"/");
    hash.update(game_id.as_bytes());
    hash.finalize()[..8].try_into().expect("eight bytes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_exactly_one_owner_and_only_a_leavers_games_move() {
        let names = ["a", "b", "c"];
        let games: Vec<String> = (0..300).map(|i| format!("game{i}")).collect();
        let all: Vec<Instances> = names.iter().map(|me| Instances::with_live(me, &names)).collect();
        let two: Vec<Instances> = names[..2].iter().map(|me| Instances::with_live(me, &names[..2])).collect();
        for game in &games {
            let owners: Vec<&str> = all.iter().filter(|i| i.owns(game)).map(|i| i.me()).collect();
            assert_eq!(owners.len(), 1, "{game}: {owners:?}");
            let owners_after: Vec<&str> = two.iter().filter(|i| i.owns(game)).map(|i| i.me()).collect();
            assert_eq!(owners_after.len(), 1);
            if owners[0] != "c" {
                // Only the games of the process that left change hands.
                assert_eq!(owners_after, owners);
            }
        }
        // Shared out, not all on one process.
        for instance in &all {
            assert!(games.iter().filter(|g| instance.owns(g)).count() > 50);
        }
    }

    #[test]
    fn alone_a_process_owns_everything() {
        let alone = Instances::new("a");
        assert!(alone.owns("anything"));
        assert!(!alone.is_shared());
        assert!(!alone.is_gone("b"));
    }
}
