//! Who plays a bot seat: a playing level (`beginner` … `max`, the only thing a new game may
//! ask for), or for games stored before the levels, the engine named by its stored level.

use std::sync::atomic::AtomicBool;

use polyshogi::mv::Move;
use polyshogi::Game;
use polyshogi_engine::{Engine, EngineKind, EngineOptions, Evaluate, Level, Limits};
use tracing::warn;

/// A bot seat's player.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bot {
    /// The best engine of the game with the level's noise and caps.
    Level(Level),
    /// An engine as such: games created when a seat's level was an engine name.
    Engine(EngineKind),
}

/// A small table: a bot thinks a few seconds at most, with a fresh engine each move.
const HASH_MB: usize = 4;

impl Bot {
    /// The bot a new game asks for by level name; `None` for any other name.
    pub fn requested(level: &str) -> Option<Bot> {
        Level::from_name(level).map(Bot::Level)
    }

    /// The bot of a stored seat. Old games stored an engine name, kept as that engine; an
    /// unknown name plays the default level, with a warning, rather than stop the game.
    pub fn stored(game_id: &str, level: &str) -> Bot {
        if let Some(level) = Level::from_name(level) {
            return Bot::Level(level);
        }
        if let Some(kind) = EngineKind::from_name(level) {
            return Bot::Engine(kind);
        }
        warn!(game = game_id, level, default = Level::DEFAULT.name(), "unknown bot level; playing the default level");
        Bot::Level(Level::DEFAULT)
    }

    pub fn name(self) -> &'static str {
        match self {
            Bot::Level(level) => level.name(),
            Bot::Engine(kind) => kind.name(),
        }
    }

    /// The bot's move in `game`, within `limits` (and the level's own caps).
    pub fn choose<P: Evaluate>(self, game: &Game<P>, limits: &Limits) -> Option<Move> {
        let stop = AtomicBool::new(false);
        let options = EngineOptions { hash_mb: HASH_MB, ..EngineOptions::default() };
        let (mut engine, limits) = match self {
            Bot::Level(level) => {
                let variant = game.position().variant();
                let kind = level.settings(variant).kind;
                (Engine::with_options(kind, level.options(variant, options)), level.limits(variant, limits))
            }
            Bot::Engine(kind) => (Engine::with_options(kind, options), *limits),
        };
        engine.think(game, &limits, &stop, &mut |_| {}).best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_games_take_levels_and_old_games_keep_their_engine() {
        assert_eq!(Bot::requested("beginner"), Some(Bot::Level(Level::Beginner)));
        assert_eq!(Bot::requested("random"), None, "engines are no longer offered");
        assert_eq!(Bot::stored("g", "random"), Bot::Engine(EngineKind::Random));
        assert_eq!(Bot::stored("g", "max"), Bot::Level(Level::Max));
        assert_eq!(Bot::stored("g", "grandmaster"), Bot::Level(Level::DEFAULT));
    }
}
