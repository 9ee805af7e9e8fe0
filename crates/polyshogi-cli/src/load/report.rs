//! What a load run found, as text for people or one JSON line for scripts, and the server's
//! memory and CPU time read from /proc.

use std::fmt::Write;
use std::time::Duration;

use serde_json::{json, Value};

use super::flood::FloodTally;
use super::game::PlayedGame;
use super::stats::{Latencies, LatencySummary, Tally};

/// The server's resident memory (VmRSS) in kB, when its process id was given and readable.
#[derive(Debug, Clone, Copy, Default)]
pub struct Memory {
    /// Before the first game.
    pub start_kb: Option<u64>,
    /// When the run stopped, every game still connected.
    pub at_stop_kb: Option<u64>,
    /// After every connection was closed.
    pub end_kb: Option<u64>,
}

/// A process's CPU time so far (user and system) in ms, from /proc/PID/stat.
pub fn server_cpu_ms(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // After the command name in parentheses (which may hold spaces): field 3 on; utime and
    // stime are fields 14 and 15, in ticks of 1/100 s (USER_HZ, 100 on Linux whatever the kernel's own rate).
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks * 10)
}

/// A process's VmRSS in kB, from /proc/PID/status.
pub fn server_rss_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|line| line.starts_with("VmRSS:"))?;
    line.trim_start_matches("VmRSS:").trim().trim_end_matches("kB").trim().parse().ok()
}

/// The unmeasured prefix of a `--from-ply` run.
#[derive(Debug, Clone, Copy)]
pub struct Prefix {
    /// The ply every game was played to.
    pub ply: u32,
    /// Slots whose game reached it, still going (and was then played on, measured).
    pub games_reaching_it: usize,
    /// Games given up before it (a broken connection, or an end the tool could not avoid).
    pub games_falling_short: usize,
    pub duration: Duration,
}

#[derive(Debug, Clone)]
pub struct Report {
    pub games_at_once: usize,
    pub variant: String,
    pub seats: usize,
    pub spectators: usize,
    pub measured: Duration,
    pub warmup: Duration,
    pub seed: u64,
    pub tally: Tally,
    /// Every game played, warm-up included, with the moves the server accepted in it.
    pub games: Vec<PlayedGame>,
    pub memory: Memory,
    /// The server's CPU time (user and system) in the measured window, in ms.
    pub server_cpu_ms: Option<u64>,
    /// The requests for unknown games, when asked for.
    pub unknown_ids: Option<FloodTally>,
    /// With `--from-ply`.
    pub prefix: Option<Prefix>,
}

impl Report {
    /// Moves accepted per second of the measured window.
    pub fn moves_per_second(&self) -> f64 {
        self.tally.accepted_measured as f64 / self.measured.as_secs_f64()
    }

    /// The server's CPU time in the measured window per move accepted in it, in µs.
    pub fn server_cpu_us_per_move(&self) -> Option<f64> {
        let cpu_ms = self.server_cpu_ms?;
        (self.tally.accepted_measured > 0).then(|| cpu_ms as f64 * 1000.0 / self.tally.accepted_measured as f64)
    }

    pub fn to_text(&self) -> String {
        let mut text = String::new();
        let spectators = if self.spectators == 0 { String::new() } else { format!(", {} spectators each", self.spectators) };
        let _ = writeln!(
            text,
            "{} games at once of {} ({} human seats{spectators}); {:.1} s measured after {:.1} s of warm-up; seed {}",
            self.games_at_once,
            self.variant,
            self.seats,
            self.measured.as_secs_f64(),
            self.warmup.as_secs_f64(),
            self.seed
        );
        if let Some(prefix) = self.prefix {
            let _ = writeln!(
                text,
                "prefix: {} of {} games played to ply {} in {:.1} s, not measured ({} games fell short)",
                prefix.games_reaching_it,
                self.games_at_once,
                prefix.ply,
                prefix.duration.as_secs_f64(),
                prefix.games_falling_short
            );
        }
        let plies = match self.tally.measured_plies {
            Some((low, high)) => format!("; plies {low} to {high}"),
            None => String::new(),
        };
        let _ = writeln!(
            text,
            "accepted moves: {} in the measured window, {:.1}/s ({} games played, {} moves in all{plies})",
            self.tally.accepted_measured,
            self.moves_per_second(),
            self.games.len(),
            self.tally.accepted_total
        );
        let _ = writeln!(text, "latency, mover:     {}", latency_text(&self.tally.mover));
        if self.spectators > 0 {
            let _ = writeln!(text, "latency, spectator: {}", latency_text(&self.tally.spectator));
        }
        let errors = self.tally.errors;
        if errors.total() == 0 {
            let _ = writeln!(text, "errors: none");
        } else {
            let kinds: Vec<String> =
                errors.by_kind().iter().filter(|(_, count)| *count > 0).map(|(kind, count)| format!("{kind} {count}")).collect();
            let _ = writeln!(text, "errors: {}", kinds.join(", "));
            if errors.rate_limited > 0 {
                let _ = writeln!(text, "  ({} messages were refused with \"slow down\": lower --rate)", errors.rate_limited);
            }
        }
        if let Some(flood) = self.unknown_ids {
            let _ = writeln!(
                text,
                "unknown-id requests: {} sent, {} answered 404, {} otherwise",
                flood.sent, flood.not_found, flood.other
            );
        }
        if let (Some(cpu_ms), Some(per_move)) = (self.server_cpu_ms, self.server_cpu_us_per_move()) {
            let _ = writeln!(
                text,
                "server CPU in the measured window: {:.2} s, {per_move:.0} µs per accepted move",
                cpu_ms as f64 / 1000.0
            );
        }
        let messages = self.tally.messages;
        if let Some(mean) = messages.mean_update_bytes() {
            let _ = writeln!(
                text,
                "server messages: updates in the measured window {mean:.0} bytes on average ({}); largest whole state {:.1} kB",
                messages.updates_measured,
                messages.largest_state_bytes as f64 / 1000.0
            );
        }
        if self.memory.start_kb.is_some() || self.memory.end_kb.is_some() {
            let _ = writeln!(
                text,
                "server memory (VmRSS): {} at the start, {} at the stop, {} after closing",
                mb_text(self.memory.start_kb),
                mb_text(self.memory.at_stop_kb),
                mb_text(self.memory.end_kb)
            );
        }
        text
    }

    pub fn to_json(&self) -> Value {
        let errors: serde_json::Map<String, Value> =
            self.tally.errors.by_kind().iter().map(|(kind, count)| (kind.to_string(), json!(count))).collect();
        json!({
            "games_at_once": self.games_at_once,
            "variant": self.variant,
            "seats": self.seats,
            "spectators": self.spectators,
            "seconds": self.measured.as_secs_f64(),
            "warmup": self.warmup.as_secs_f64(),
            "seed": self.seed,
            "accepted_moves": self.tally.accepted_measured,
            "moves_per_second": self.moves_per_second(),
            "games_played": self.games.len(),
            "moves_in_all": self.tally.accepted_total,
            "latency_ms": latency_json(&self.tally.mover),
            "spectator_latency_ms": latency_json(&self.tally.spectator),
            "errors": errors,
            "server_cpu_ms": self.server_cpu_ms,
            "server_cpu_us_per_move": self.server_cpu_us_per_move(),
            "measured_plies": self.tally.measured_plies.map(|(low, high)| json!([low, high])),
            "prefix": self.prefix.map(|p| json!({
                "ply": p.ply,
                "games_reaching_it": p.games_reaching_it,
                "games_falling_short": p.games_falling_short,
                "seconds": p.duration.as_secs_f64(),
            })),
            "messages": {
                "largest_state_bytes": self.tally.messages.largest_state_bytes,
                "updates_measured": self.tally.messages.updates_measured,
                "mean_update_bytes": self.tally.messages.mean_update_bytes(),
            },
            "unknown_ids": self.unknown_ids.map(|f| json!({ "sent": f.sent, "not_found": f.not_found, "other": f.other })),
            "server_rss_kb": {
                "start": self.memory.start_kb,
                "at_stop": self.memory.at_stop_kb,
                "end": self.memory.end_kb,
            },
        })
    }
}

/// Milliseconds, to the microsecond.
fn ms(duration: Duration) -> f64 {
    (duration.as_secs_f64() * 1_000_000.0).round() / 1000.0
}

fn latency_text(latencies: &Latencies) -> String {
    match latencies.summary() {
        None => "no samples".to_string(),
        Some(LatencySummary { samples, p50, p99, max }) => {
            format!("p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms ({samples} samples)", ms(p50), ms(p99), ms(max))
        }
    }
}

fn latency_json(latencies: &Latencies) -> Value {
    match latencies.summary() {
        None => Value::Null,
        Some(LatencySummary { samples, p50, p99, max }) => {
            json!({ "p50": ms(p50), "p99": ms(p99), "max": ms(max), "samples": samples })
        }
    }
}

fn mb_text(kb: Option<u64>) -> String {
    kb.map_or_else(|| "?".to_string(), |kb| format!("{:.1} MB", kb as f64 / 1024.0))
}
