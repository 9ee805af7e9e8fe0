//! Engines for polyshogi: evaluation per game, searches for two and three players, time
//! control and levels, how a bot chooses its move, and the USI-derived line protocol that
//! lets GUIs and other programs drive it (docs/PROTOCOL.md).

pub mod choose;
pub mod engine;
pub mod eval;
pub mod levels;
mod prefetch;
pub mod protocol;
pub mod search;
#[cfg(test)]
mod test_games;
pub mod time;
pub mod tt;
pub mod tune;

pub use choose::{EngineKind, Limits, SearchResult};
pub use engine::{Engine, EngineOptions, SEARCH_STACK};
pub use eval::{Evaluate, Weights};
pub use levels::Level;
pub use search::Info;
pub use time::Clock;
