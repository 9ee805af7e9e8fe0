//! `polyshogi tune`: tunes a variant's evaluation weights from self-play (Texel-style). The best
//! engine of the variant plays games against itself from random openings at a fixed node
//! budget; quiet positions of those games are labelled with what each seat scored in the end;
//! `polyshogi_engine::tune` then fits the variant's weights to predict those scores. The result
//! is a weights file (`crates/polyshogi-engine/weights/<variant>.txt`), headed by the command
//! that wrote it. The same command and seed write the same file.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use anyhow::{anyhow, bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use polyshogi::outcome::Outcome;
use polyshogi::splitmix::SplitMix;
use polyshogi::variant::{AnyGame, Variant};
use polyshogi::{with_game, Game};
use polyshogi_engine::tune::{fit_scale, loss, quiet_end, tune, Progress, Sample};
use polyshogi_engine::{Engine, EngineKind, EngineOptions, Evaluate, Limits, Weights};

use crate::match_cmd::{opening, score};

/// Tunes a variant's evaluation weights from self-play games.
#[derive(clap::Args, Debug, Clone)]
pub struct TuneArgs {
    /// The game: sannin, hexshogi91, tphs91 or sankaku.
    pub variant: String,
    /// Self-play games to learn from.
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// Nodes per move in the self-play games.
    #[arg(long, default_value_t = 2000)]
    pub nodes: u64,
    /// Random plies from the start before the engine takes over.
    #[arg(long, default_value_t = 8)]
    pub opening_plies: usize,
    /// Plies after which a game is scored a draw among the players still in it.
    #[arg(long, default_value_t = 400)]
    pub max_plies: usize,
    /// Positions kept from each game at most (drawn at random from its quiet positions).
    #[arg(long, default_value_t = 24)]
    pub positions_per_game: usize,
    /// Seeds the openings and the choice of positions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 2)]
    pub jobs: usize,
    /// Write the weights file here instead of printing it.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

pub fn run(args: TuneArgs) -> Result<()> {
    let variant: Variant = args.variant.parse().map_err(|e| anyhow!("{e}"))?;
    if args.games < 10 {
        bail!("--games must be at least 10 (one game in ten is held out to check the fit)");
    }
    if args.nodes == 0 || args.positions_per_game == 0 {
        bail!("--nodes and --positions-per-game must be at least 1");
    }
    let start = AnyGame::new(variant, &[] as &[&str]).map_err(|e| anyhow!("{e}"))?;
    let text = with_game!(&start, g => tune_variant(g, variant, &args))?;
    match &args.out {
        Some(path) => std::fs::write(path, &text).with_context(|| format!("cannot write {}", path.display()))?,
        None => print!("{text}"),
    }
    Ok(())
}

/// Plays the games, fits the weights and returns the weights file.
fn tune_variant<P: Evaluate>(start: &Game<P>, variant: Variant, args: &TuneArgs) -> Result<String> {
    let engine = EngineKind::best_for(variant);
    let (training, held_out) = self_play(start, engine, args)?;
    if training.is_empty() || held_out.is_empty() {
        bail!("the games gave too few quiet positions to tune on; play more games");
    }
    let hand_set = Weights::hand_set();
    let group = Weights::group_of(variant);
    let keys: Vec<&str> = Weights::keys_of(variant).filter(|key| !FIXED.contains(&(group, key))).collect();
    let scale = fit_scale(&training, &hand_set);
    let before = (loss(&training, &hand_set, scale), loss(&held_out, &hand_set, scale));
    eprintln!(
        "{} training and {} held-out positions; scale {scale:.6}; loss {:.6} (held out {:.6})",
        training.len(),
        held_out.len(),
        before.0,
        before.1
    );
    let tuned = tune(&training, &held_out, hand_set, group, &keys, scale, &mut |progress| match progress {
        Progress::Moved { key, value, loss } => eprintln!("  {group}.{key}={value}  loss {loss:.6}"),
        Progress::Pass { number, loss, held_out } => eprintln!("pass {number}: loss {loss:.6} (held out {held_out:.6})"),
    });
    let (training_loss, held_out_loss) = (tuned.loss, tuned.held_out);
    let tuned = tuned.weights;
    eprintln!("tuned: loss {training_loss:.6} (held out {held_out_loss:.6})");

    let mut file = String::new();
    let _ = writeln!(file, "# {}'s evaluation weights, tuned from self-play. Written by:", variant.title());
    let _ = writeln!(
        file,
        "#   polyshogi tune {} --games {} --nodes {} --opening-plies {} --max-plies {} --positions-per-game {} --seed {}",
        variant.name(),
        args.games,
        args.nodes,
        args.opening_plies,
        args.max_plies,
        args.positions_per_game,
        args.seed
    );
    let _ = writeln!(
        file,
        "# {} games of {} against itself; {} positions to fit, {} held out (every tenth game); each weight kept within half and double its hand-set value.",
        args.games,
        engine.name(),
        training.len(),
        held_out.len()
    );
    let _ = writeln!(
        file,
        "# Loss (mean squared error of the predicted scores, scale {scale:.6}/cp): hand-set {:.6}, tuned {training_loss:.6};",
        before.0
    );
    let _ = writeln!(file, "# held out: hand-set {:.6}, tuned {held_out_loss:.6}.", before.1);
    let fixed: Vec<String> = FIXED.iter().filter(|(g, _)| *g == group).map(|(g, k)| format!("{g}.{k}")).collect();
    if !fixed.is_empty() {
        let _ = writeln!(file, "# Kept as set by hand: {}.", fixed.join(", "));
    }
    for key in &keys {
        let _ = writeln!(file, "{group}.{key}={}", tuned.get(group, key).expect("a key of the group"));
    }
    Ok(file)
}

/// Weights the tuner leaves alone.
/// - The pawn (Sankaku's soldier) stays 100: it is the unit of every value, and the search's
///   margin for delta pruning is set in those units. Without an anchor the fit may also drift
///   towards larger values all round, which the fixed scale reads as more confidence.
/// - `sannin.allied` is a cost put on the searcher's own choice to ally, set by hand so that it
///   stops forming alliances that lose it the game (docs/STRENGTH.md); self-play games, which
///   always accept an alliance, cannot tell its worth.
const FIXED: [(&str, &str); 5] =
    [("sannin", "pawn"), ("hex", "pawn"), ("hex3", "pawn"), ("sankaku", "soldier"), ("sannin", "allied")];

type Samples<P> = Vec<Sample<P>>;

/// Plays `args.games` games of `engine` against itself and returns the labelled quiet positions:
/// those of nine games in ten to fit on, and the rest held out.
fn self_play<P: Evaluate>(start: &Game<P>, engine: EngineKind, args: &TuneArgs) -> Result<(Samples<P>, Samples<P>)> {
    let progress = ProgressBar::new(args.games as u64);
    progress.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} self-play games  eta {eta}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    let next = AtomicUsize::new(0);
    let games: Mutex<Vec<(usize, SelfPlayGame<P>)>> = Mutex::new(Vec::with_capacity(args.games));
    std::thread::scope(|scope| -> Result<()> {
        let mut workers = Vec::new();
        for _ in 0..args.jobs.max(1) {
            let (next, games, progress) = (&next, &games, &progress);
            let worker =
                std::thread::Builder::new().stack_size(polyshogi_engine::SEARCH_STACK).spawn_scoped(scope, move || {
                    let mut player = Engine::with_options(
                        engine,
                        EngineOptions { hash_mb: 8, weights: Weights::hand_set(), ..EngineOptions::default() },
                    );
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        if index >= args.games {
                            break;
                        }
                        let game = self_play_game(start, &mut player, index, args);
                        games.lock().expect("no worker panicked").push((index, game));
                        progress.inc(1);
                    }
                })?;
            workers.push(worker);
        }
        for worker in workers {
            worker.join().map_err(|_| anyhow!("a self-play thread panicked"))?;
        }
        Ok(())
    })?;
    progress.finish_and_clear();
    let mut games = games.into_inner().expect("no worker panicked");
    games.sort_by_key(|(index, _)| *index);
    let plies: usize = games.iter().map(|(_, game)| game.plies).sum();
    let decisive = games.iter().filter(|(_, game)| game.decisive).count();
    eprintln!(
        "{} self-play games of {}: {:.1} plies a game, {decisive} won outright, the rest drawn or cut off",
        games.len(),
        engine.name(),
        plies as f64 / games.len() as f64
    );
    let (mut training, mut held_out) = (Vec::new(), Vec::new());
    for (index, game) in games {
        if index % 10 == 9 {
            held_out.extend(game.samples);
        } else {
            training.extend(game.samples);
        }
    }
    Ok((training, held_out))
}

/// What one self-play game gives.
struct SelfPlayGame<P> {
    samples: Samples<P>,
    plies: usize,
    /// Won by one seat (not drawn, not cut off at the ply cap).
    decisive: bool,
}

/// One self-play game: its quiet positions (nobody in check, every seat still in, and a quiet
/// move played from it, so that the static value is not just a capture away from changing), at
/// most `positions_per_game` of them drawn at random, each taken to the end of its quiescence
/// line, and labelled with the final score.
fn self_play_game<P: Evaluate>(start: &Game<P>, player: &mut Engine, index: usize, args: &TuneArgs) -> SelfPlayGame<P> {
    let seed = args.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ index as u64;
    let mut game = opening(start, args.opening_plies, seed);
    player.new_game();
    let seats = game.position().seats();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut quiet: Vec<P> = Vec::new();
    while game.position().outcome().is_none() && game.moves().len() < args.max_plies {
        if game.position().decision_pending() {
            game.answer_pending(true).expect("a pending alliance can be accepted");
            continue;
        }
        let limits = Limits { nodes: Some(args.nodes), seed: seed ^ game.moves().len() as u64, ..Limits::default() };
        let Some(m) = player.think(&game, &limits, &stop, &mut |_| {}).best else { break };
        let pos = game.position();
        let mover = pos.to_move();
        if pos.players_in().len() as usize == seats.len() && !pos.in_check(mover) && !pos.is_capture(m) {
            quiet.push(pos.clone());
        }
        game.play(m).expect("the engine plays legal moves");
    }
    let points_by_seat = score(game.position(), seats, None);
    let mut points = [0.0; 3];
    for (&p, &share) in seats.iter().zip(&points_by_seat) {
        points[p.index()] = share;
    }
    let mut rng = SplitMix::new(seed ^ 0x5eed);
    let keep = args.positions_per_game.min(quiet.len());
    // A partial Fisher–Yates shuffle: the first `keep` are a uniform random choice.
    for i in 0..keep {
        let j = i + rng.below(quiet.len() - i);
        quiet.swap(i, j);
    }
    quiet.truncate(keep);
    let hand_set = Weights::hand_set();
    let samples = quiet
        .iter()
        .map(|position| quiet_end(position, &hand_set))
        .filter(|end| end.outcome().is_none() && end.players_in().len() as usize == seats.len())
        .map(|position| Sample { position, points })
        .collect();
    SelfPlayGame { samples, plies: game.moves().len(), decisive: matches!(game.position().outcome(), Some(Outcome::Win { .. })) }
}
