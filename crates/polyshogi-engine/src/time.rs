//! Time control: from a fixed time per move or the mover's game clock (time left, increment,
//! moves to go) to a soft limit (no new iteration after it) and a hard limit (stop at once).

use std::time::Duration;

/// The game clock of the player to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Clock {
    pub time_left_ms: u64,
    pub increment_ms: u64,
    /// Moves until the next time control; `None` for sudden death (with increment).
    pub moves_to_go: Option<u32>,
}

/// How long one search may take.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Budget {
    /// Past this, no new iteration starts.
    pub soft: Option<Duration>,
    /// Past this, the search stops where it is.
    pub hard: Option<Duration>,
}

/// What one move costs besides thinking (protocol round trip, move generation at the root).
const OVERHEAD_MS: u64 = 10;
/// Moves a sudden-death clock is shared over.
const DEFAULT_MOVES_TO_GO: u64 = 30;

impl Budget {
    /// The budget for a move: `movetime` is used whole (less a small overhead); a clock is
    /// shared over the moves to go, plus most of the increment, never more than a third of
    /// what is left.
    pub fn new(movetime_ms: Option<u64>, clock: Option<Clock>) -> Budget {
        let mut budget = Budget::default();
        if let Some(ms) = movetime_ms {
            let ms = ms.saturating_sub(OVERHEAD_MS.min(ms / 10)).max(1);
            budget.soft = Some(Duration::from_millis(ms));
            budget.hard = Some(Duration::from_millis(ms));
        }
        if let Some(clock) = clock {
            let left = clock.time_left_ms.saturating_sub(OVERHEAD_MS);
            let to_go = clock.moves_to_go.map_or(DEFAULT_MOVES_TO_GO, |n| n.max(1) as u64);
            let share = left / to_go + clock.increment_ms * 3 / 4;
            let ceiling = (left / 3).max(1);
            let soft = (share * 6 / 10).clamp(1, ceiling);
            let hard = (share * 2).clamp(1, ceiling);
            budget.soft = Some(min(budget.soft, Duration::from_millis(soft)));
            budget.hard = Some(min(budget.hard, Duration::from_millis(hard)));
        }
        budget
    }
}

fn min(a: Option<Duration>, b: Duration) -> Duration {
    a.map_or(b, |a| a.min(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_never_exceed_the_clock_or_the_move_time() {
        let b = Budget::new(Some(100), None);
        assert_eq!(b.hard, Some(Duration::from_millis(90)));
        let clock = Clock { time_left_ms: 60_000, increment_ms: 1_000, moves_to_go: None };
        let b = Budget::new(None, Some(clock));
        assert!(b.soft.unwrap() < b.hard.unwrap());
        assert!(b.hard.unwrap() <= Duration::from_millis(20_000));
        let low = Clock { time_left_ms: 30, increment_ms: 0, moves_to_go: Some(1) };
        let b = Budget::new(Some(5_000), Some(low));
        assert!(b.hard.unwrap() <= Duration::from_millis(10));
        assert_eq!(Budget::new(None, None), Budget::default());
    }
}
