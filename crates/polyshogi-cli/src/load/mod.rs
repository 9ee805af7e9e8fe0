//! `polyshogi load`: drives a running server with N concurrent games of human seats making
//! random legal moves (and optional spectators), and reports moves/s, latencies and errors.
//!
//! `protocol` reads and writes the messages, `connection` is one seat or spectator, `game` one
//! game slot, `lasting` the tool's own copy of a game kept going (`--from-ply`), `stats` the
//! counting and `report` the printing.

mod connection;
mod flood;
mod game;
mod lasting;
pub mod protocol;
mod report;
pub mod stats;

use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use tokio::time::Instant;

use self::connection::{SeatRules, Window};
pub use self::flood::FloodTally;
pub use self::game::PlayedGame;
use self::game::{PreparedGame, SlotPlan};
use self::lasting::LastingGame;
use self::protocol::VariantSeats;
pub use self::report::{Memory, Prefix, Report};
use self::stats::Tally;

/// The server's per-connection limit (docs/API.md): 20 messages a second.
pub const SERVER_MESSAGES_PER_SECOND: f64 = 20.0;
/// How long, after the run stops, a seat waits for the broadcast of a move it already sent.
const DRAIN: Duration = Duration::from_secs(5);
/// The prefix of `--from-ply` may take this long beyond one pace per move (twice what two seats,
/// each moving at its own pace, need), before the slots still short of the ply are left out.
const PREFIX_SLACK: Duration = Duration::from_secs(60);

#[derive(clap::Args, Debug, Clone)]
pub struct LoadArgs {
    /// The server, `http://host:port` (only plain HTTP; the tool connects nowhere else).
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    pub url: String,
    /// Games kept running at once (a finished game is replaced by a new one).
    #[arg(long, default_value_t = 10)]
    pub games: usize,
    /// Seconds measured, after the warm-up.
    #[arg(long, default_value_t = 10.0)]
    pub seconds: f64,
    /// Seconds of warm-up first, left out of the figures.
    #[arg(long, default_value_t = 2.0)]
    pub warmup: f64,
    /// Spectator connections per game.
    #[arg(long, default_value_t = 0)]
    pub spectators: usize,
    /// The variant played (its every seat human, no clock).
    #[arg(long, default_value = "hexshogi91")]
    pub variant: String,
    /// At this many moves the seat to move resigns and a new game takes the slot.
    #[arg(long, default_value_t = 300)]
    pub max_plies: u32,
    /// Measure games this many moves long: every slot first plays one game to this ply, unmeasured
    /// (the prefix), then the warm-up and the measured seconds play it on. The seats choose
    /// moves that keep games going (no mate, check, or position seen before; --max-plies does not
    /// apply), and a game that ends anyway is not replaced. 0: off.
    #[arg(long, default_value_t = 0)]
    pub from_ply: u32,
    /// Seed of the random move choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Messages per second per connection, at most (the server refuses more than 20).
    #[arg(long, default_value_t = SERVER_MESSAGES_PER_SECOND)]
    pub rate: f64,
    /// Threads of the tool's runtime: 1 runs every connection on one thread.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// The server's process id, to report its memory (VmRSS) at the start and the end.
    #[arg(long)]
    pub server_pid: Option<u32>,
    /// Requests a second for games that do not exist, beside the games (0: none).
    #[arg(long, default_value_t = 0.0)]
    pub unknown_ids: f64,
    /// One JSON line instead of the text report.
    #[arg(long)]
    pub json: bool,
}

impl LoadArgs {
    /// The arguments' defaults, for `url`.
    pub fn for_url(url: &str) -> LoadArgs {
        use clap::Parser;
        #[derive(clap::Parser)]
        struct Wrapper {
            #[command(flatten)]
            args: LoadArgs,
        }
        let mut args = Wrapper::parse_from(["load"]).args;
        args.url = url.to_string();
        args
    }
}

/// `polyshogi load`: runs and prints the report.
pub fn command(args: &LoadArgs) -> Result<()> {
    let report = run(args)?;
    if args.json {
        println!("{}", report.to_json());
    } else {
        print!("{}", report.to_text());
    }
    Ok(())
}

/// Runs the load on a runtime of its own and answers what it measured.
pub fn run(args: &LoadArgs) -> Result<Report> {
    let base_url = checked_url(&args.url)?;
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let measured = seconds(args.seconds, "--seconds")?;
    let warmup = seconds(args.warmup, "--warmup")?;
    if measured.is_zero() {
        bail!("--seconds must be more than 0");
    }
    if !(args.rate > 0.0 && args.rate.is_finite()) {
        bail!("--rate must be a positive number of messages per second");
    }
    let pace = Duration::from_secs_f64(1.0 / args.rate);
    let runtime = if args.threads <= 1 {
        tokio::runtime::Builder::new_current_thread().enable_all().build()
    } else {
        tokio::runtime::Builder::new_multi_thread().worker_threads(args.threads).enable_all().build()
    }
    .context("starting the tool's runtime")?;
    runtime.block_on(async {
        let http = reqwest::Client::builder().no_proxy().build().context("an HTTP client")?;
        let seats = variant_seats(&http, &base_url, &args.variant).await?;
        // The tool plays the games of `--from-ply` itself too: it must know the variant.
        let lasting_start = match args.from_ply {
            0 => None,
            _ => Some(LastingGame::new(&args.variant).map_err(|e| anyhow!("--from-ply: {e}"))?),
        };
        let memory_start = args.server_pid.and_then(report::server_rss_kb);
        let mut plan = SlotPlan {
            http,
            base_url,
            variant: args.variant.clone(),
            seats: seats.clone(),
            spectators: args.spectators,
            rules: SeatRules { pace, max_plies: args.max_plies, stop_at_ply: None },
            // Set below, once the prefix (if any) is played.
            window: Window::unmeasured(Instant::now(), DRAIN),
            seed: args.seed,
            from_ply: args.from_ply,
        };
        let mut tally = Tally::default();
        let mut games = Vec::new();
        let (prepared, prefix) = if let Some(lasting_start) = &lasting_start {
            let (prefix_tally, prefix_games, prepared, prefix) = play_prefixes(&plan, args.games, lasting_start).await?;
            tally.merge(prefix_tally);
            games.extend(prefix_games);
            (prepared, Some(prefix))
        } else {
            (Vec::new(), None)
        };
        let start = Instant::now();
        let window = Window {
            measure_from: start + warmup,
            stop_at: start + warmup + measured,
            drain_until: start + warmup + measured + DRAIN,
        };
        plan.window = window;
        let flooding = (args.unknown_ids > 0.0).then(|| {
            tokio::spawn(flood::flood(plan.http.clone(), plan.base_url.clone(), args.unknown_ids, window.stop_at, args.seed))
        });
        let mut slots = tokio::task::JoinSet::new();
        let mut prepared = prepared.into_iter();
        for slot in 0..args.games {
            let plan = plan.clone();
            let prepared = prepared.next().flatten();
            slots.spawn(async move { game::run_slot(slot, &plan, prepared).await });
        }
        // Read while the games still run (the slots stop at `stop_at`).
        let at_stop = tokio::spawn({
            let pid = args.server_pid;
            async move {
                tokio::time::sleep_until(window.measure_from).await;
                let cpu_from = pid.and_then(report::server_cpu_ms);
                tokio::time::sleep_until(window.stop_at).await;
                let cpu = pid.and_then(report::server_cpu_ms).zip(cpu_from).map(|(to, from)| to.saturating_sub(from));
                (pid.and_then(report::server_rss_kb), cpu)
            }
        });
        while let Some(done) = slots.join_next().await {
            let (slot_tally, played) = done.map_err(|e| anyhow!("a game slot failed: {e}"))?;
            tally.merge(slot_tally);
            games.extend(played);
        }
        let (at_stop_kb, server_cpu_ms) = at_stop.await.unwrap_or_default();
        let unknown_ids = match flooding {
            Some(flooding) => Some(flooding.await.map_err(|e| anyhow!("the unknown-id requests failed: {e}"))?),
            None => None,
        };
        let memory = Memory { start_kb: memory_start, at_stop_kb, end_kb: args.server_pid.and_then(report::server_rss_kb) };
        Ok(Report {
            games_at_once: args.games,
            variant: args.variant.clone(),
            seats: seats.len(),
            spectators: args.spectators,
            measured,
            warmup,
            seed: args.seed,
            tally,
            games,
            memory,
            server_cpu_ms,
            unknown_ids,
            prefix,
        })
    })
}

/// The prefix of `--from-ply`: every slot plays a game to that ply, all at once. Answers what
/// the seats counted, every game played, and each slot's prepared game (`None` for a slot
/// whose games all fell short).
async fn play_prefixes(
    plan: &SlotPlan,
    slots: usize,
    lasting_start: &LastingGame,
) -> Result<(Tally, Vec<PlayedGame>, Vec<Option<PreparedGame>>, Prefix)> {
    let start = Instant::now();
    let patience = plan.rules.pace.saturating_mul(plan.from_ply) + PREFIX_SLACK;
    let prefix_plan = plan.for_prefix(start + patience, DRAIN);
    let mut running = tokio::task::JoinSet::new();
    for slot in 0..slots {
        let prefix_plan = prefix_plan.clone();
        let lasting_start = lasting_start.clone();
        running.spawn(async move { (slot, game::prepare_slot(slot, &prefix_plan, &lasting_start).await) });
    }
    let mut tally = Tally::default();
    let mut games = Vec::new();
    let mut prepared: Vec<Option<PreparedGame>> = (0..slots).map(|_| None).collect();
    while let Some(done) = running.join_next().await {
        let (slot, (slot_tally, slot_game, given_up)) = done.map_err(|e| anyhow!("a game slot's prefix failed: {e}"))?;
        tally.merge(slot_tally);
        games.extend(given_up);
        prepared[slot] = slot_game;
    }
    let prefix = Prefix {
        ply: plan.from_ply,
        games_reaching_it: prepared.iter().flatten().count(),
        games_falling_short: games.len(),
        duration: start.elapsed(),
    };
    Ok((tally, games, prepared, prefix))
}

/// The URL without its trailing slash; only `http://` (WebSockets then go to `ws://`).
fn checked_url(url: &str) -> Result<String> {
    if !url.starts_with("http://") {
        bail!("--url must start with http:// (got {url})");
    }
    Ok(url.trim_end_matches('/').to_string())
}

fn seconds(value: f64, option: &str) -> Result<Duration> {
    Duration::try_from_secs_f64(value).map_err(|_| anyhow!("{option} must be a number of seconds, not {value}"))
}

/// The seat names of `variant`, from `GET /api/variants`.
async fn variant_seats(http: &reqwest::Client, base_url: &str, variant: &str) -> Result<Vec<String>> {
    let response =
        http.get(format!("{base_url}/api/variants")).send().await.with_context(|| format!("no answer from {base_url}"))?;
    if !response.status().is_success() {
        bail!("GET /api/variants answered {}", response.status());
    }
    let variants: Vec<VariantSeats> = response.json().await.context("reading GET /api/variants")?;
    let names: Vec<&str> = variants.iter().map(|v| v.name.as_str()).collect();
    let found = variants.iter().find(|v| v.name == variant);
    found.map(|v| v.seats.clone()).ok_or_else(|| anyhow!("unknown variant `{variant}` (known: {})", names.join(", ")))
}
