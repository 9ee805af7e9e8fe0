//! What the load tool counts: latency samples (kept whole, for exact percentiles) and errors by
//! kind. Each connection counts on its own; the tallies are merged once, at the end.

use std::time::Duration;

/// Latency samples in microseconds. A sorted `Vec` rather than an HDR histogram: a run lasts
/// seconds to minutes (a million samples is 4 MB), percentiles come out exact, merging is an
/// append, and no dependency is needed.
#[derive(Debug, Default, Clone)]
pub struct Latencies {
    micros: Vec<u32>,
}

impl Latencies {
    pub fn record(&mut self, latency: Duration) {
        self.micros.push(u32::try_from(latency.as_micros()).unwrap_or(u32::MAX));
    }

    pub fn merge(&mut self, other: Latencies) {
        self.micros.extend(other.micros);
    }

    pub fn len(&self) -> usize {
        self.micros.len()
    }

    pub fn is_empty(&self) -> bool {
        self.micros.is_empty()
    }

    /// The samples in microseconds, in no particular order.
    pub fn samples_micros(&self) -> &[u32] {
        &self.micros
    }

    /// p50, p99 and the maximum; `None` without samples.
    pub fn summary(&self) -> Option<LatencySummary> {
        let mut sorted = self.micros.clone();
        sorted.sort_unstable();
        let max = *sorted.last()?;
        Some(LatencySummary {
            samples: sorted.len(),
            p50: Duration::from_micros(nearest_rank(&sorted, 50).into()),
            p99: Duration::from_micros(nearest_rank(&sorted, 99).into()),
            max: Duration::from_micros(max.into()),
        })
    }
}

/// The nearest-rank percentile of sorted, non-empty samples: the smallest sample with at least
/// `percent` % of the samples at or below it.
fn nearest_rank(sorted: &[u32], percent: usize) -> u32 {
    let rank = (sorted.len() * percent).div_ceil(100).max(1);
    sorted[rank - 1]
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LatencySummary {
    pub samples: usize,
    pub p50: Duration,
    pub p99: Duration,
    pub max: Duration,
}

/// Errors by kind. Every one of them is a failure of the run.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Errors {
    /// Messages refused with "slow down" (the per-connection rate limit).
    pub rate_limited: u64,
    /// Other refused messages (a move the server found illegal or out of turn).
    pub refused: u64,
    /// Connections closed or broken by the server before their game ended.
    pub disconnected: u64,
    /// WebSocket connections that could not be opened.
    pub connect_failed: u64,
    /// `POST /api/games` or `GET /api/variants` failures (no answer or an error status).
    pub http: u64,
    /// Server messages the tool could not read.
    pub unreadable: u64,
    /// Moves sent whose broadcast had not come when the run stopped waiting.
    pub unconfirmed: u64,
    /// Games whose copy in the tool (`--from-ply`) stopped matching the server's.
    pub diverged: u64,
}

impl Errors {
    pub fn merge(&mut self, other: Errors) {
        self.rate_limited += other.rate_limited;
        self.refused += other.refused;
        self.disconnected += other.disconnected;
        self.connect_failed += other.connect_failed;
        self.http += other.http;
        self.unreadable += other.unreadable;
        self.unconfirmed += other.unconfirmed;
        self.diverged += other.diverged;
    }

    pub fn total(&self) -> u64 {
        self.rate_limited
            + self.refused
            + self.disconnected
            + self.connect_failed
            + self.http
            + self.unreadable
            + self.unconfirmed
            + self.diverged
    }

    /// Each kind with its name, for printing.
    pub fn by_kind(&self) -> [(&'static str, u64); 8] {
        [
            ("rate_limited", self.rate_limited),
            ("refused", self.refused),
            ("disconnected", self.disconnected),
            ("connect_failed", self.connect_failed),
            ("http", self.http),
            ("unreadable", self.unreadable),
            ("unconfirmed", self.unconfirmed),
            ("diverged", self.diverged),
        ]
    }
}

/// The sizes of the server's messages that moved a connection's view of its game on.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct MessageSizes {
    /// The largest whole state (a `state`, with every move of the game) seen in the run: a
    /// connection's first message, so for a `--from-ply` run one at about that ply.
    pub largest_state_bytes: usize,
    /// Updates (only what changed) received in the measured window, and their bytes.
    pub updates_measured: u64,
    pub update_bytes_measured: u64,
}

impl MessageSizes {
    pub fn record(&mut self, whole_state: bool, bytes: usize, in_measured_window: bool) {
        if whole_state {
            self.largest_state_bytes = self.largest_state_bytes.max(bytes);
        } else if in_measured_window {
            self.updates_measured += 1;
            self.update_bytes_measured += bytes as u64;
        }
    }

    pub fn merge(&mut self, other: MessageSizes) {
        self.largest_state_bytes = self.largest_state_bytes.max(other.largest_state_bytes);
        self.updates_measured += other.updates_measured;
        self.update_bytes_measured += other.update_bytes_measured;
    }

    /// The mean size of the updates of the measured window, in bytes.
    pub fn mean_update_bytes(&self) -> Option<f64> {
        (self.updates_measured > 0).then(|| self.update_bytes_measured as f64 / self.updates_measured as f64)
    }
}

/// What one connection (or a game, or the run) counted.
#[derive(Debug, Default, Clone)]
pub struct Tally {
    /// Moves whose broadcast came back, sent inside the measured window.
    pub accepted_measured: u64,
    /// The lowest and highest move numbers (plies) among `accepted_measured`.
    pub measured_plies: Option<(u32, u32)>,
    /// Every move whose broadcast came back, warm-up included.
    pub accepted_total: u64,
    /// From sending a move to seeing it on the mover's own connection (measured window only).
    pub mover: Latencies,
    /// From sending a move to seeing it on a spectator's connection (measured window only).
    pub spectator: Latencies,
    pub errors: Errors,
    pub messages: MessageSizes,
}

impl Tally {
    /// A move sent in the measured window, move number `ply`, seen back by its mover after `latency`.
    pub fn record_measured_move(&mut self, ply: u32, latency: Duration) {
        self.accepted_measured += 1;
        self.mover.record(latency);
        self.note_measured_plies(Some((ply, ply)));
    }

    fn note_measured_plies(&mut self, plies: Option<(u32, u32)>) {
        self.measured_plies = match (self.measured_plies, plies) {
            (Some((low, high)), Some((other_low, other_high))) => Some((low.min(other_low), high.max(other_high))),
            (mine, theirs) => mine.or(theirs),
        };
    }

    pub fn merge(&mut self, other: Tally) {
        self.accepted_measured += other.accepted_measured;
        self.note_measured_plies(other.measured_plies);
        self.accepted_total += other.accepted_total;
        self.mover.merge(other.mover);
        self.spectator.merge(other.spectator);
        self.errors.merge(other.errors);
        self.messages.merge(other.messages);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_nearest_rank() {
        let mut latencies = Latencies::default();
        for ms in 1..=100 {
            latencies.record(Duration::from_millis(ms));
        }
        let summary = latencies.summary().unwrap();
        assert_eq!(summary.p50, Duration::from_millis(50));
        assert_eq!(summary.p99, Duration::from_millis(99));
        assert_eq!(summary.max, Duration::from_millis(100));
        assert_eq!(summary.samples, 100);
        assert_eq!(Latencies::default().summary(), None);
    }

    #[test]
    fn merged_tallies_keep_the_range_of_measured_plies() {
        let mut first = Tally::default();
        first.record_measured_move(12, Duration::from_millis(1));
        first.record_measured_move(15, Duration::from_millis(1));
        let mut second = Tally::default();
        second.record_measured_move(9, Duration::from_millis(1));
        let mut run = Tally::default();
        run.merge(first);
        assert_eq!(run.measured_plies, Some((12, 15)));
        run.merge(second);
        run.merge(Tally::default());
        assert_eq!((run.measured_plies, run.accepted_measured, run.mover.len()), (Some((9, 15)), 3, 3));
    }

    #[test]
    fn one_sample_is_every_percentile() {
        let mut latencies = Latencies::default();
        latencies.record(Duration::from_micros(7));
        let summary = latencies.summary().unwrap();
        assert_eq!(
            (summary.p50, summary.p99, summary.max),
            (Duration::from_micros(7), Duration::from_micros(7), Duration::from_micros(7))
        );
    }
}
