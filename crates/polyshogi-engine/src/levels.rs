//! Playing levels a UI can offer, from `beginner` to `max`: each picks the strongest engine for
//! the game and caps its search (depth, nodes or time), the weakest with evaluation noise.

use polyshogi::variant::Variant;

use crate::choose::{EngineKind, Limits};
use crate::engine::EngineOptions;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Level {
    /// One ply and a noisy evaluation: sees captures, blunders often.
    Beginner,
    /// Two plies, some noise.
    Easy,
    /// 30 000 nodes.
    Medium,
    /// One second per move.
    Hard,
    /// Five seconds per move.
    Expert,
    /// Whatever the clock allows (30 s per move without a clock).
    Max,
}

/// What a level sets.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct LevelSettings {
    pub kind: EngineKind,
    pub noise_cp: i32,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime_ms: Option<u64>,
}

impl Level {
    pub const ALL: [Level; 6] = [Level::Beginner, Level::Easy, Level::Medium, Level::Hard, Level::Expert, Level::Max];

    pub fn name(self) -> &'static str {
        match self {
            Level::Beginner => "beginner",
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
            Level::Max => "max",
        }
    }

    /// The level a lobby offers first: `easy` makes real moves (two plies) yet loses to a
    /// careful newcomer, where `beginner` blunders too often to be a game and `medium` is some
    /// 400 to 700 Elo stronger in the two-player games (docs/STRENGTH.md).
    pub const DEFAULT: Level = Level::Easy;

    /// The level's name for players.
    pub fn label(self) -> &'static str {
        match self {
            Level::Beginner => "Beginner",
            Level::Easy => "Easy",
            Level::Medium => "Medium",
            Level::Hard => "Hard",
            Level::Expert => "Expert",
            Level::Max => "Strongest",
        }
    }

    /// How strong the level plays, in a line, from the matches of docs/STRENGTH.md. The steps
    /// between levels differ so much from game to game (`beginner` to `easy`: about +40 Elo in
    /// Three Player Hex Shogi 91, +500 in Hex Shogi 91) that one line gives no figure it cannot
    /// keep in every game.
    pub fn strength(self) -> &'static str {
        match self {
            Level::Beginner => "Looks one move ahead and blunders often",
            Level::Easy => "Looks two moves ahead, with some mistakes",
            Level::Medium => "Weighs 30,000 positions a move; in the two-player games it beats Easy 9 games in 10 or more",
            Level::Hard => "Thinks up to 1 second a move",
            Level::Expert => "Thinks up to 5 seconds a move (less on a short clock)",
            Level::Max => "Uses all the thinking time it is given",
        }
    }

    pub fn from_name(name: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.name() == name)
    }

    /// The level's engine and caps for a game of `variant`.
    pub fn settings(self, variant: Variant) -> LevelSettings {
        let kind = EngineKind::best_for(variant);
        let base = LevelSettings { kind, noise_cp: 0, depth: None, nodes: None, movetime_ms: None };
        match self {
            Level::Beginner => LevelSettings { noise_cp: 150, depth: Some(1), ..base },
            Level::Easy => LevelSettings { noise_cp: 60, depth: Some(2), ..base },
            Level::Medium => LevelSettings { nodes: Some(30_000), ..base },
            Level::Hard => LevelSettings { movetime_ms: Some(1_000), ..base },
            Level::Expert => LevelSettings { movetime_ms: Some(5_000), ..base },
            Level::Max => base,
        }
    }

    /// The engine options of this level (the noise), on top of `options`.
    pub fn options(self, variant: Variant, options: EngineOptions) -> EngineOptions {
        EngineOptions { noise_cp: self.settings(variant).noise_cp, ..options }
    }

    /// The caller's limits capped by the level: the smaller of each limit wins. `max` keeps
    /// the caller's limits, and thinks 30 s when given none.
    pub fn limits(self, variant: Variant, limits: &Limits) -> Limits {
        let s = self.settings(variant);
        let cap = |own: Option<u64>, given: Option<u64>| match (own, given) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let mut capped = Limits {
            depth: cap(s.depth.map(u64::from), limits.depth.map(u64::from)).map(|d| d as u32),
            nodes: cap(s.nodes, limits.nodes),
            movetime_ms: cap(s.movetime_ms, limits.movetime_ms),
            ..*limits
        };
        if self == Level::Max && capped.is_unlimited() && !capped.infinite {
            capped.movetime_ms = Some(30_000);
        }
        capped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_have_names_and_cap_the_callers_limits() {
        for level in Level::ALL {
            assert_eq!(Level::from_name(level.name()), Some(level));
            assert!(!level.label().is_empty() && !level.strength().is_empty());
        }
        let given = Limits { movetime_ms: Some(500), ..Limits::default() };
        assert_eq!(Level::Hard.limits(Variant::HexShogi91, &given).movetime_ms, Some(500));
        assert_eq!(Level::Expert.limits(Variant::Sannin, &Limits::default()).movetime_ms, Some(5_000));
        assert_eq!(Level::Beginner.limits(Variant::Sankaku, &Limits::default()).depth, Some(1));
        assert_eq!(Level::Max.limits(Variant::Tphs91, &Limits::default()).movetime_ms, Some(30_000));
        assert_eq!(Level::Max.settings(Variant::Sannin).kind, EngineKind::best_for(Variant::Sannin));
    }
}
