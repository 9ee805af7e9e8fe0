//! When some server was running on the database: the runs stored before this one, and this one.
//! A clock is charged for the time a server was up while it ran, never for downtime
//! (docs/API.md), so a game loaded after a crash charges the thinking time before the crash.

use std::time::Duration;

use tracing::warn;

use crate::room::now_ms;
use crate::store::{Run, Store};

/// How often a run notes that it is alive: after a crash, up to this much of the time before it
/// is taken for downtime (in the players' favour).
pub const KEEP_ALIVE_EVERY: Duration = Duration::from_secs(1);

#[derive(Clone, Debug)]
pub struct Uptime {
    /// Earlier runs, as stored.
    earlier: Vec<Run>,
    /// This run's start, in ms since the epoch; it lasts until now.
    started_ms: i64,
}

impl Uptime {
    pub fn new(earlier: Vec<Run>, started_ms: i64) -> Uptime {
        Uptime { earlier, started_ms }
    }

    /// How many ms of `from_ms..to_ms` some run covered.
    pub fn up_between(&self, from_ms: i64, to_ms: i64) -> i64 {
        let mut spans: Vec<(i64, i64)> = self
            .earlier
            .iter()
            .map(|run| (run.started_ms, run.alive_ms))
            .chain(std::iter::once((self.started_ms, i64::MAX)))
            .map(|(start, end)| (start.max(from_ms), end.min(to_ms)))
            .filter(|(start, end)| start < end)
            .collect();
        spans.sort_unstable();
        let mut covered = 0;
        let mut reached = i64::MIN;
        for (start, end) in spans {
            let start = start.max(reached);
            if end > start {
                covered += end - start;
                reached = end;
            }
        }
        covered
    }
}

/// Notes that run `run` is alive now (the server does so every `KEEP_ALIVE_EVERY`).
pub async fn keep_alive(store: std::sync::Arc<dyn Store>, run: String) {
    if let Err(e) = store.keep_alive(&run, now_ms()).await {
        warn!("could not note that the server is alive: {e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn downtime_between_runs_is_not_counted() {
        let uptime = Uptime::new(
            vec![
                Run { started_ms: 0, alive_ms: 100 },
                Run { started_ms: 50, alive_ms: 150 },
                Run { started_ms: 300, alive_ms: 400 },
            ],
            1_000,
        );
        // Runs 0–150 (two overlapping), 300–400, and 1,000 on.
        assert_eq!(uptime.up_between(0, 2_000), 150 + 100 + 1_000);
        assert_eq!(uptime.up_between(120, 350), 30 + 50);
        assert_eq!(uptime.up_between(150, 300), 0);
        assert_eq!(uptime.up_between(1_200, 1_300), 100);
        assert_eq!(uptime.up_between(500, 400), 0);
    }
}
