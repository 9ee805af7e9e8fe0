//! Engines for polyshogi: how a bot chooses its move, and the USI-derived line protocol that
//! lets GUIs and other programs drive it (docs/PROTOCOL.md).

pub mod choose;
pub mod protocol;

pub use choose::{EngineKind, Limits, SearchResult};
