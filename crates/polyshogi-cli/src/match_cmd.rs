//! `polyshogi match`: plays engines against each other and reports who is stronger — every
//! seat order (all 6 for three players), random openings shared by all seat orders, a fixed
//! time, node or depth budget per move (or a game clock), a progress bar, a results table
//! (score by engine and seat, wins/draws/losses, and for two engines in a two-player game the
//! Elo difference with its 95% error), and a record of every game in a folder. Engines are
//! this build's searches and levels, or other programs spoken to over the engine protocol.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use polyshogi::mv::{Move, MoveList};
use polyshogi::notation::describe::{ending_text, outcome_text};
use polyshogi::notation::move_text;
use polyshogi::notation::play_text::parse_in_game;
use polyshogi::notation::record_write::write_record;
use polyshogi::outcome::{Event, Outcome};
use polyshogi::player::Player;
use polyshogi::splitmix::SplitMix;
use polyshogi::variant::{AnyGame, Variant};
use polyshogi::{with_game, Game};
use polyshogi_cli::time_control::parse_clock;
use polyshogi_engine::{Clock, Engine, EngineKind, EngineOptions, Evaluate, Level, Limits, Weights};

use crate::external_engine::{protocol_moves, ExternalEngine, ExternalSpec, Forfeit};

/// How long an external engine may think with only a node or depth budget, before
/// `--timemargin`.
const EXTERNAL_WAIT_WITHOUT_TIME: Duration = Duration::from_secs(60);

/// Plays engines against each other.
#[derive(clap::Args, Debug, Clone)]
pub struct MatchArgs {
    /// The game: sannin, hexshogi91, tphs91 or sankaku.
    pub variant: String,
    /// The engines, comma separated: searches (random, greedy, alphabeta, paranoid, brs, maxn,
    /// mcts) or playing levels (beginner, easy, medium, hard, expert, max; a level caps the
    /// match's budget with its own). Two-player games: every ordered pair plays. Three
    /// players: with three or more engines every ordered triple of distinct engines plays (all
    /// 6 seat orders); with two, the first engine plays alone against two copies of the
    /// second, in each seat. The name of an `--external` engine can be listed too.
    #[arg(long, value_delimiter = ',', required = true)]
    pub engines: Vec<String>,
    /// Another program that speaks the engine protocol (docs/PROTOCOL.md), as `NAME=COMMAND`
    /// (the command is split at spaces, without quoting), e.g. `old=/tmp/old/polyshogi engine`;
    /// NAME can then be listed in `--engines`. Each seat of each game starts its own process.
    /// Repeat for several.
    #[arg(long = "external", value_name = "NAME=COMMAND")]
    pub externals: Vec<String>,
    /// An option of an `--external` engine, sent with `setoption` after the variant, the rules,
    /// `Hash` and `Threads`: `NAME:OPTION=VALUE`, e.g. `old:Engine=alphabeta`. Repeat for
    /// several.
    #[arg(long = "external-option", value_name = "NAME:OPTION=VALUE")]
    pub external_options: Vec<String>,
    /// How long an `--external` engine's move may come after its time (`--movetime`, or its
    /// clock) before it loses on time, in milliseconds. With only a node or depth budget it has
    /// 60 s and this.
    #[arg(long, default_value_t = 5000)]
    pub timemargin: u64,
    /// How many games to play (rounded down to whole cycles of seat orders when possible).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Thinking time per move, in milliseconds.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Nodes per move.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Depth per move.
    #[arg(long)]
    pub depth: Option<u32>,
    /// A game clock per player: `<minutes>+<increment seconds>`, e.g. `1+0.5`. A player whose
    /// clock runs out loses.
    #[arg(long)]
    pub clock: Option<String>,
    /// Random plies played from the start before the engines take over (one opening per cycle
    /// of seat orders, the same for every order).
    #[arg(long, default_value_t = 4)]
    pub opening_plies: usize,
    /// Plies after which an unfinished game is scored a draw among the players still in it.
    #[arg(long, default_value_t = 600)]
    pub max_plies: usize,
    /// A folder for the game records (`game-0001.psn`, …) and `results.txt`.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// A rule option as key=value; repeat for several.
    #[arg(long = "rule", value_name = "KEY=VALUE")]
    pub rules: Vec<String>,
    /// Seeds the openings and the engines' random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (each on its own thread).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Transposition table per engine, in MiB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Search threads per engine, one number for all or one per engine in `--engines` order
    /// (alpha-beta, paranoid and BRS search in parallel; the others use one). An engine with
    /// more than one thread is named with its count: `alphabeta-t2`.
    #[arg(long, value_delimiter = ',', default_value = "1")]
    pub threads: Vec<usize>,
    /// Evaluation weights per engine, one for all or one per engine in `--engines` order:
    /// `tuned` (what the engines play with), `hand` (the hand-set weights before tuning) or a
    /// weights file (`polyshogi tune` writes them) laid over the hand-set weights. An engine
    /// with other weights than `tuned` is named with them: `alphabeta-hand`.
    #[arg(long, value_delimiter = ',', default_value = "tuned")]
    pub weights: Vec<String>,
    /// No progress bar (for logs).
    #[arg(long)]
    pub quiet: bool,
}

/// One finished game, as the table needs it.
#[derive(Clone, Debug)]
struct GameResult {
    index: usize,
    /// The engine (index into the engine list) in each seat, in seat order.
    lineup: Vec<usize>,
    /// Points per seat: 1 for a win, 1/n for a draw shared by n, 0 for a loss.
    points: Vec<f64>,
    /// Places per seat (1 = first; players sharing a place share its number).
    places: Vec<u8>,
    plies: usize,
    /// The same without names, for counting endings (`last player standing`).
    ending: String,
    record: String,
}

/// How one move's search is limited.
#[derive(Clone, Copy, Debug)]
struct Budget {
    movetime: Option<u64>,
    nodes: Option<u64>,
    depth: Option<u32>,
    clock: Option<(u64, u64)>,
}

/// A player of the match, with the threads and weights it plays with.
#[derive(Clone, Debug)]
struct Contestant {
    program: Program,
    variant: Variant,
    threads: usize,
    weights: MatchWeights,
    /// Its number among contestants that would go by the same name (`paranoid#2`), so the
    /// table's rows and the records' tags tell them apart; None when its name is its own.
    namesake: Option<usize>,
}

/// What chooses a contestant's moves.
#[derive(Clone, Debug)]
enum Program {
    /// A search by name (`alphabeta`, …), or a playing level (`easy`, …), which brings the
    /// level's engine, evaluation noise and caps on the match's budget.
    Search { kind: EngineKind, level: Option<Level> },
    /// Another program, over the engine protocol.
    External(ExternalSpec),
}

/// The engine in one seat of one game.
enum SeatEngine {
    /// Boxed: a search engine is much larger than a process's handles.
    Search(Box<Engine>),
    External(ExternalEngine),
}

/// The evaluation weights of a contestant, and the name they go by.
#[derive(Clone, Debug)]
struct MatchWeights {
    weights: Weights,
    /// None for the weights the engines play with.
    label: Option<String>,
}

impl MatchWeights {
    fn parse(text: &str) -> Result<MatchWeights> {
        match text {
            "tuned" => Ok(MatchWeights { weights: Weights::default(), label: None }),
            "hand" => Ok(MatchWeights { weights: Weights::hand_set(), label: Some("hand".to_string()) }),
            path => {
                let file = std::fs::read_to_string(path).with_context(|| format!("cannot read the weights file {path}"))?;
                let mut weights = Weights::hand_set();
                weights.apply_text(&file).map_err(|e| anyhow::anyhow!("{path}: {e}"))?;
                let stem = std::path::Path::new(path).file_stem().map_or(path.into(), |s| s.to_string_lossy());
                Ok(MatchWeights { weights, label: Some(stem.into_owned()) })
            }
        }
    }
}

impl Contestant {
    fn parse(
        name: &str,
        variant: Variant,
        threads: usize,
        weights: MatchWeights,
        externals: &[ExternalSpec],
    ) -> Result<Contestant> {
        let program = if let Some(spec) = externals.iter().find(|s| s.name == name) {
            if weights.label.is_some() {
                bail!("--weights apply to this build's engines, not to the external engine {name}");
            }
            Program::External(spec.clone())
        } else if let Some(kind) = EngineKind::from_name(name) {
            Program::Search { kind, level: None }
        } else if let Some(level) = Level::from_name(name) {
            Program::Search { kind: level.settings(variant).kind, level: Some(level) }
        } else {
            let engines: Vec<&str> = EngineKind::ALL.iter().map(|k| k.name()).collect();
            let levels: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
            bail!(
                "unknown engine `{name}` (engines: {}; levels: {}; or an --external name)",
                engines.join(", "),
                levels.join(", ")
            )
        };
        Ok(Contestant { program, variant, threads, weights, namesake: None })
    }

    fn name(&self) -> String {
        let mut name = match &self.program {
            Program::Search { kind, level } => level.map_or(kind.name(), Level::name).to_string(),
            Program::External(spec) => spec.name.clone(),
        };
        if self.threads > 1 {
            let _ = write!(name, "-t{}", self.threads);
        }
        if let Some(label) = &self.weights.label {
            let _ = write!(name, "-{label}");
        }
        if let Some(number) = self.namesake {
            let _ = write!(name, "#{number}");
        }
        name
    }

    /// The contestant's engine for one seat of one game: a search, or a started process.
    fn engine(&self, options: EngineOptions, rules: &[String]) -> Result<SeatEngine> {
        let (kind, level) = match &self.program {
            Program::Search { kind, level } => (*kind, *level),
            Program::External(spec) => {
                return Ok(SeatEngine::External(ExternalEngine::start(
                    spec,
                    self.variant,
                    rules,
                    options.hash_mb,
                    self.threads,
                )?));
            }
        };
        let options = EngineOptions { threads: self.threads, weights: self.weights.weights, ..options };
        let options = match level {
            Some(level) => level.options(self.variant, options),
            None => options,
        };
        let mut engine = Engine::with_options(kind, options);
        // Its table made before the game, as an external engine makes its own at `isready`:
        // off the clock of the first move.
        engine.prepare();
        Ok(SeatEngine::Search(Box::new(engine)))
    }

    fn limits(&self, limits: &Limits) -> Limits {
        match self.program {
            Program::Search { level: Some(level), .. } => level.limits(self.variant, limits),
            _ => *limits,
        }
    }
}

pub fn run(args: MatchArgs) -> Result<()> {
    let variant: Variant = args.variant.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
    let start = AnyGame::new(variant, &args.rules).map_err(|e| anyhow::anyhow!("{e}"))?;
    let seats = start.position().seats().len();
    let threads = per_engine(&args.threads, args.engines.len(), "--threads", "number")?;
    if let Some(&bad) = threads.iter().find(|&&t| !(1..=polyshogi_engine::protocol::MAX_THREADS).contains(&t)) {
        bail!("--threads {bad} is out of range (1..{})", polyshogi_engine::protocol::MAX_THREADS);
    }
    let weights = per_engine(&args.weights, args.engines.len(), "--weights", "choice")?;
    let externals = external_specs(&args)?;
    let mut contestants: Vec<Contestant> = args
        .engines
        .iter()
        .zip(threads)
        .zip(weights)
        .map(|((name, threads), weights)| {
            Contestant::parse(name.trim(), variant, threads, MatchWeights::parse(weights.trim())?, &externals)
        })
        .collect::<Result<_>>()?;
    if contestants.len() < 2 {
        bail!("a match needs at least two engines");
    }
    number_namesakes(&mut contestants);
    let clock = args.clock.as_deref().map(parse_clock).transpose()?;
    if args.movetime.is_none() && args.nodes.is_none() && args.depth.is_none() && clock.is_none() {
        bail!("give a budget: --movetime, --nodes, --depth or --clock");
    }
    let budget = Budget { movetime: args.movetime, nodes: args.nodes, depth: args.depth, clock };
    let lineups = lineups(contestants.len(), seats);
    let games = if args.games >= lineups.len() { args.games / lineups.len() * lineups.len() } else { args.games };
    if let Some(out) = &args.out {
        std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    }

    let started = Instant::now();
    let results = play_games(&start, &contestants, &lineups, budget, games, &args)?;
    let seat_names: Vec<String> = start.position().seats().iter().map(|&p| start.position().seat_name(p).to_string()).collect();
    let table = results_table(&results, &contestants, &seat_names, &args, started.elapsed());
    print!("{table}");
    if let Some(out) = &args.out {
        let path = out.join("results.txt");
        std::fs::write(&path, &table).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

/// A match between two sets of evaluation weights for the variant's best engine, at the budget,
/// game count, seed and jobs of `args` (its engines, threads and weights are not read). Returns
/// the points the first scored in each game: in a three-player game the first plays alone
/// against two copies of the second, in each seat.
pub(crate) fn weights_match(args: &MatchArgs, first: (Weights, &str), second: (Weights, &str)) -> Result<Vec<f64>> {
    let (start, contestants) = weights_contestants(args, first, second)?;
    let lineups = lineups(2, start.position().seats().len());
    let games = args.games.div_ceil(lineups.len()) * lineups.len();
    let results = play_games(&start, &contestants, &lineups, weights_budget(args), games, args)?;
    Ok(results.iter().flat_map(|r| r.lineup.iter().zip(&r.points).filter(|(&e, _)| e == 0).map(|(_, &p)| p)).collect())
}

/// One opening (from `args.seed`) played by two sets of weights for the variant's best engine
/// in every seat order: two players, each in both seats; three, each alone against two copies
/// of the other, in every seat. Returns the first's points less the second's, counting in a
/// three-player game only the games a side plays alone (as `weights_match` does): between
/// -2 and 2 for two players, -3 and 3 for three.
pub(crate) fn weights_duel(args: &MatchArgs, first: (Weights, &str), second: (Weights, &str)) -> Result<f64> {
    let (start, contestants) = weights_contestants(args, first, second)?;
    let seats = start.position().seats().len();
    let first_alone = lineups(2, seats);
    let second_alone = first_alone.iter().map(|lineup| lineup.iter().map(|&e| 1 - e).collect());
    let lineups: Vec<Vec<usize>> =
        if seats == 2 { first_alone } else { first_alone.iter().cloned().chain(second_alone).collect() };
    let results = play_games(&start, &contestants, &lineups, weights_budget(args), lineups.len(), args)?;
    let mut lead = 0.0;
    for result in &results {
        for (&engine, &points) in result.lineup.iter().zip(&result.points) {
            let alone = result.lineup.iter().filter(|&&e| e == engine).count() == 1;
            if alone {
                lead += if engine == 0 { points } else { -points };
            }
        }
    }
    Ok(lead)
}

/// Numbers the contestants that share a name in the order given (`paranoid#1`, `paranoid#2`).
fn number_namesakes(contestants: &mut [Contestant]) {
    let names: Vec<String> = contestants.iter().map(Contestant::name).collect();
    for (i, contestant) in contestants.iter_mut().enumerate() {
        if names.iter().filter(|&name| *name == names[i]).count() > 1 {
            contestant.namesake = Some(names[..=i].iter().filter(|&name| *name == names[i]).count());
        }
    }
}

/// The game's start and the two contestants of a match between weights.
fn weights_contestants(args: &MatchArgs, first: (Weights, &str), second: (Weights, &str)) -> Result<(AnyGame, [Contestant; 2])> {
    let variant: Variant = args.variant.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
    let start = AnyGame::new(variant, &args.rules).map_err(|e| anyhow::anyhow!("{e}"))?;
    let kind = EngineKind::best_for(variant);
    let contestant = |(weights, label): (Weights, &str)| Contestant {
        program: Program::Search { kind, level: None },
        variant,
        threads: 1,
        weights: MatchWeights { weights, label: Some(label.to_string()) },
        namesake: None,
    };
    Ok((start, [contestant(first), contestant(second)]))
}

fn weights_budget(args: &MatchArgs) -> Budget {
    Budget { movetime: args.movetime, nodes: args.nodes, depth: args.depth, clock: None }
}

/// Plays `games` games, the seat orders in turn, `args.jobs` at a time, with a progress bar
/// (unless `--quiet`); writes each record to `--out` as it comes. The results are in game order.
fn play_games(
    start: &AnyGame,
    contestants: &[Contestant],
    lineups: &[Vec<usize>],
    budget: Budget,
    games: usize,
    args: &MatchArgs,
) -> Result<Vec<GameResult>> {
    let progress = if args.quiet { ProgressBar::hidden() } else { ProgressBar::new(games as u64) };
    progress.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} games  eta {eta}  {msg}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel::<Result<GameResult>>();
    let mut results: Vec<GameResult> = Vec::with_capacity(games);
    std::thread::scope(|scope| -> Result<()> {
        for _ in 0..args.jobs.max(1) {
            let sender = sender.clone();
            let (next, failed, lineups, contestants, start, args) = (&next, &failed, lineups, contestants, start, args);
            std::thread::Builder::new().stack_size(polyshogi_engine::SEARCH_STACK).spawn_scoped(scope, move || loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= games || failed.load(Ordering::Relaxed) {
                    break;
                }
                let lineup = &lineups[index % lineups.len()];
                let opening_seed = args.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (index / lineups.len()) as u64;
                let result = with_game!(start, g => play_game(g, index, lineup, contestants, &budget, opening_seed, args));
                if result.is_err() {
                    failed.store(true, Ordering::Relaxed);
                }
                if sender.send(result).is_err() {
                    break;
                }
            })?;
        }
        drop(sender);
        for result in receiver {
            let result = result?;
            if let Some(out) = &args.out {
                let path = out.join(format!("game-{:04}.psn", result.index + 1));
                std::fs::write(&path, &result.record).with_context(|| format!("cannot write {}", path.display()))?;
            }
            results.push(result);
            progress.set_message(short_standing(&results, contestants));
            progress.inc(1);
        }
        Ok(())
    })?;
    progress.finish_and_clear();
    results.sort_by_key(|r| r.index);
    Ok(results)
}

/// The `--external` engines with their `--external-option`s. Their names must differ from each
/// other and from this build's engines and levels.
fn external_specs(args: &MatchArgs) -> Result<Vec<ExternalSpec>> {
    let mut specs: Vec<ExternalSpec> = Vec::new();
    for text in &args.externals {
        let spec = ExternalSpec::parse(text)?;
        if EngineKind::from_name(&spec.name).is_some() || Level::from_name(&spec.name).is_some() {
            bail!("--external `{text}`: `{}` is the name of one of this build's engines; choose another", spec.name);
        }
        if specs.iter().any(|s| s.name == spec.name) {
            bail!("--external `{text}`: the name `{}` is given twice", spec.name);
        }
        specs.push(spec);
    }
    for text in &args.external_options {
        ExternalSpec::add_option(&mut specs, text)?;
    }
    Ok(specs)
}

/// A per-engine option given once for all `engines` or once per engine, one value per engine.
fn per_engine<T: Clone>(values: &[T], engines: usize, flag: &str, noun: &str) -> Result<Vec<T>> {
    match values {
        [all] => Ok(vec![all.clone(); engines]),
        _ if values.len() == engines => Ok(values.to_vec()),
        _ => bail!("{flag} takes one {noun}, or one per engine ({engines} engines, {} {noun}s)", values.len()),
    }
}

/// The seat orders: which engine sits in each seat, for every game of a cycle.
fn lineups(engines: usize, seats: usize) -> Vec<Vec<usize>> {
    if engines < seats {
        // Two engines, three seats: the first alone against two copies of the second.
        return (0..seats).map(|alone| (0..seats).map(|s| if s == alone { 0 } else { 1 }).collect()).collect();
    }
    let mut out = Vec::new();
    let mut current = Vec::new();
    fn permute(engines: usize, seats: usize, current: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if current.len() == seats {
            out.push(current.clone());
            return;
        }
        for e in 0..engines {
            if !current.contains(&e) {
                current.push(e);
                permute(engines, seats, current, out);
                current.pop();
            }
        }
    }
    permute(engines, seats, &mut current, &mut out);
    out
}

/// A random opening of `plies` plies from the game's start. A random move that lets the next
/// player win at once (a Sankaku Emperor left to be taken) is redrawn, so that openings are
/// fair; the whole opening is redrawn if the game ends in it.
pub(crate) fn opening<P: Evaluate>(start: &Game<P>, plies: usize, seed: u64) -> Game<P> {
    let mut rng = SplitMix::new(seed);
    let mut moves = MoveList::new();
    for _ in 0..16 {
        let mut game = start.clone();
        for _ in 0..plies {
            if game.position().outcome().is_some() {
                break;
            }
            if game.position().decision_pending() {
                let _ = game.answer_pending(true);
                continue;
            }
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mut pick = moves[rng.below(moves.len())];
            for _ in 0..32 {
                if !loses_at_once(game.position(), pick) {
                    break;
                }
                pick = moves[rng.below(moves.len())];
            }
            game.play_unchecked(pick);
        }
        if game.position().outcome().is_none() {
            return game;
        }
    }
    start.clone()
}

/// Whether after `m` the next player can end the game with a win of his own in one move.
fn loses_at_once<P: Evaluate>(pos: &P, m: Move) -> bool {
    let mut next = pos.clone();
    next.play_unchecked(m);
    if next.outcome().is_some() {
        return false;
    }
    let them = next.to_move();
    let mut replies = MoveList::new();
    next.legal_moves(&mut replies);
    replies.iter().any(|&r| {
        let mut after = next.clone();
        after.play_unchecked(r);
        matches!(after.outcome(), Some(Outcome::Win { winner, .. }) if winner == them)
    })
}

fn play_game<P: Evaluate>(
    start: &Game<P>,
    index: usize,
    lineup: &[usize],
    contestants: &[Contestant],
    budget: &Budget,
    opening_seed: u64,
    args: &MatchArgs,
) -> Result<GameResult> {
    let seats = start.position().seats();
    let mut game = opening(start, args.opening_plies, opening_seed);
    let opening_moves = game.moves().len();
    let options = EngineOptions { hash_mb: args.hash, ..EngineOptions::default() };
    let mut engines: Vec<SeatEngine> =
        lineup.iter().map(|&e| contestants[e].engine(options, &args.rules)).collect::<Result<_>>()?;
    // What an external engine is sent after `position startpos moves`, kept as the game goes.
    let mut protocol_tokens = engines.iter().any(|e| matches!(e, SeatEngine::External(_))).then(|| protocol_moves(&game));
    let mut clocks: Vec<u64> = vec![budget.clock.map_or(0, |c| c.0); seats.len()];
    let stop = AtomicBool::new(false);
    let mut termination = String::new();
    let mut ending = String::new();
    // A player who lost without the rules ending the game: on time, or an external engine's
    // failure.
    let mut forfeited: Option<Player> = None;
    let mut final_places: Option<Vec<u8>> = None;
    while game.position().outcome().is_none() {
        if game.moves().len() >= args.max_plies {
            termination = format!("ply cap {}", args.max_plies);
            ending = termination.clone();
            break;
        }
        if game.position().decision_pending() {
            game.answer_pending(true).map_err(|e| anyhow::anyhow!("{e}"))?;
            if let Some(tokens) = &mut protocol_tokens {
                tokens.push("accept".to_string());
            }
            continue;
        }
        let mover = game.position().to_move();
        let seat = seats.iter().position(|&p| p == mover).expect("the mover has a seat");
        let limits = Limits {
            depth: budget.depth,
            nodes: budget.nodes,
            movetime_ms: budget.movetime,
            clock: budget.clock.map(|(_, inc)| Clock { time_left_ms: clocks[seat], increment_ms: inc, moves_to_go: None }),
            infinite: false,
            seed: opening_seed ^ (game.moves().len() as u64).wrapping_mul(0x2545_f491_4f6c_dd1d) ^ seat as u64,
        };
        let thinking = Instant::now();
        let limits = contestants[lineup[seat]].limits(&limits);
        let choice = match &mut engines[seat] {
            SeatEngine::Search(engine) => Ok(engine.think(&game, &limits, &stop, &mut |_| {}).best),
            SeatEngine::External(engine) => {
                let tokens = protocol_tokens.as_deref().expect("kept when an external engine plays");
                external_move(engine, &game, tokens, budget, &clocks, seat, args.timemargin).map(Some)
            }
        };
        let spent = thinking.elapsed();
        let seat_name = game.position().seat_name(mover);
        if let Some((_, inc)) = budget.clock {
            let spent = spent.as_millis() as u64;
            if spent > clocks[seat] {
                forfeited = Some(mover);
                termination = format!("{seat_name} lost on time");
                ending = "lost on time".to_string();
                break;
            }
            clocks[seat] = clocks[seat] - spent + inc;
        }
        let m = match choice {
            Ok(Some(m)) => m,
            Ok(None) => {
                termination = format!("{} found no move", contestants[lineup[seat]].name());
                ending = "an engine found no move".to_string();
                break;
            }
            Err(Forfeit { ending: why, detail }) => {
                forfeited = Some(mover);
                termination = format!("{seat_name} ({}) forfeits: {detail}", contestants[lineup[seat]].name());
                ending = why.to_string();
                break;
            }
        };
        if let Some(tokens) = &mut protocol_tokens {
            tokens.push(move_text::canonical(game.position(), m));
        }
        let events = game.play(m).map_err(|e| {
            anyhow::anyhow!("game {}: {} chose an illegal move {m:?}: {e}", index + 1, contestants[lineup[seat]].name())
        })?;
        for event in events {
            if let Event::GameOver { placings, .. } = event {
                final_places = Some(seats.iter().map(|&p| placings[p]).collect());
            }
        }
    }
    let points = score(game.position(), seats, forfeited);
    // Without a placing from the rules (a ply cap, a time forfeit): those who scored share
    // first place, the others second.
    let places = final_places
        .filter(|_| forfeited.is_none())
        .unwrap_or_else(|| points.iter().map(|&p| if p > 0.0 { 1 } else { 2 }).collect());
    if termination.is_empty() {
        (termination, ending) = match game.position().outcome() {
            Some(outcome) => (outcome_text(game.position(), outcome), ending_text(outcome).to_string()),
            None => ("unfinished".to_string(), "unfinished".to_string()),
        };
    }
    let mut tags: Vec<(String, String)> =
        vec![("Event".to_string(), "polyshogi match".to_string()), ("Round".to_string(), (index + 1).to_string())];
    for (s, &p) in seats.iter().enumerate() {
        tags.push((game.position().seat_name(p).to_string(), contestants[lineup[s]].name().to_string()));
    }
    tags.push(("Opening".to_string(), format!("{opening_moves} random plies")));
    tags.push(("TimeControl".to_string(), budget_text(budget)));
    // How the game ended in words, with names (`Last wins: First and Middle are out of the game`).
    tags.push(("Termination".to_string(), termination));
    let record = write_record(&game, &tags, None);
    Ok(GameResult { index, lineup: lineup.to_vec(), points, places, plies: game.moves().len(), ending, record })
}

/// An external engine's move: the engine is sent the game's moves and the budget (`go`), and
/// waits for its answer until its time and `margin_ms` have passed. A move that is not legal
/// here, a late answer or a refused command forfeits the game.
fn external_move<P: Evaluate>(
    engine: &mut ExternalEngine,
    game: &Game<P>,
    tokens: &[String],
    budget: &Budget,
    clocks: &[u64],
    seat: usize,
    margin_ms: u64,
) -> Result<Move, Forfeit> {
    let mut go = Vec::new();
    let mut time = None;
    if let Some(ms) = budget.movetime {
        go.push(format!("movetime {ms}"));
        time = Some(ms);
    }
    if let Some(n) = budget.nodes {
        go.push(format!("nodes {n}"));
    }
    if let Some(d) = budget.depth {
        go.push(format!("depth {d}"));
    }
    if let Some((_, inc)) = budget.clock {
        // The protocol's names for the first, second and third seat's clocks.
        for (s, ms) in clocks.iter().enumerate() {
            let (t, i) = [("btime", "binc"), ("wtime", "winc"), ("gtime", "ginc")][s];
            go.push(format!("{t} {ms} {i} {inc}"));
        }
        time = Some(clocks[seat]);
    }
    let wait = time.map_or(EXTERNAL_WAIT_WITHOUT_TIME, Duration::from_millis) + Duration::from_millis(margin_ms);
    let text = engine.best_move(tokens, &go.join(" "), wait)?;
    let mut legal = MoveList::new();
    game.legal_moves(&mut legal);
    parse_in_game(game, &legal, &text).map_err(|e| Forfeit { ending: "illegal move", detail: e.to_string() })
}

/// Points per seat (seat order): the winner 1; a draw shared by n players 1/n each; a game
/// stopped unfinished is a draw among the players still in it; a player who lost on time or
/// forfeited scores 0 and the others share his point.
pub(crate) fn score<P: Evaluate>(pos: &P, seats: &[Player], forfeited: Option<Player>) -> Vec<f64> {
    let share = |players: &[Player]| -> Vec<f64> {
        seats.iter().map(|p| if players.contains(p) { 1.0 / players.len() as f64 } else { 0.0 }).collect()
    };
    if let Some(loser) = forfeited {
        let others: Vec<Player> = seats.iter().copied().filter(|&p| p != loser && pos.players_in().contains(p)).collect();
        return share(&others);
    }
    match pos.outcome() {
        Some(Outcome::Win { winner, .. }) => share(&[winner]),
        Some(Outcome::Draw { players, .. }) => share(&players.iter().collect::<Vec<_>>()),
        None => share(&pos.players_in().iter().collect::<Vec<_>>()),
    }
}

fn budget_text(budget: &Budget) -> String {
    let mut parts = Vec::new();
    if let Some(ms) = budget.movetime {
        parts.push(format!("{ms} ms/move"));
    }
    if let Some(n) = budget.nodes {
        parts.push(format!("{n} nodes/move"));
    }
    if let Some(d) = budget.depth {
        parts.push(format!("depth {d}"));
    }
    if let Some((base, inc)) = budget.clock {
        parts.push(format!("{} s + {} s", base as f64 / 1000.0, inc as f64 / 1000.0));
    }
    parts.join(", ")
}

/// Per engine: points, games, wins, draws, losses, and points by seat.
#[derive(Clone, Default)]
struct Tally {
    points: f64,
    games: usize,
    wins: usize,
    draws: usize,
    losses: usize,
    seat_points: Vec<f64>,
    seat_games: Vec<usize>,
    /// Per-game points, for the variance of the Elo estimate.
    samples: Vec<f64>,
}

fn tallies(results: &[GameResult], engines: usize, seats: usize) -> Vec<Tally> {
    let mut tallies = vec![Tally { seat_points: vec![0.0; seats], seat_games: vec![0; seats], ..Tally::default() }; engines];
    for r in results {
        for (seat, &e) in r.lineup.iter().enumerate() {
            let p = r.points[seat];
            let t = &mut tallies[e];
            t.points += p;
            t.games += 1;
            t.samples.push(p);
            t.seat_points[seat] += p;
            t.seat_games[seat] += 1;
            if p >= 1.0 - 1e-9 {
                t.wins += 1;
            } else if p > 1e-9 {
                t.draws += 1;
            } else {
                t.losses += 1;
            }
        }
    }
    tallies
}

fn short_standing(results: &[GameResult], contestants: &[Contestant]) -> String {
    let seats = results.first().map_or(2, |r| r.lineup.len());
    tallies(results, contestants.len(), seats)
        .iter()
        .zip(contestants)
        .map(|(t, k)| format!("{} {:.1}", k.name(), t.points))
        .collect::<Vec<_>>()
        .join("  ")
}

/// Three players: for each pair of engines, in the games they played together, how often the
/// row engine finished ahead of the column engine (ties count half).
fn head_to_head(results: &[GameResult], contestants: &[Contestant]) -> String {
    let n = contestants.len();
    let mut ahead = vec![vec![0.0f64; n]; n];
    let mut together = vec![vec![0usize; n]; n];
    for r in results {
        for (i, &a) in r.lineup.iter().enumerate() {
            for (j, &b) in r.lineup.iter().enumerate() {
                if a == b || i == j {
                    continue;
                }
                together[a][b] += 1;
                ahead[a][b] += match r.places[i].cmp(&r.places[j]) {
                    std::cmp::Ordering::Less => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Greater => 0.0,
                };
            }
        }
    }
    // Each column as wide as the longest name, so that `paranoid-t2` or `paranoid#2` stays
    // above its numbers.
    let width = contestants.iter().map(|c| c.name().len()).max().unwrap_or(0).max(8);
    let mut text = format!("{:<width$}", "ahead of");
    for contestant in contestants {
        let _ = write!(text, " {:>width$}", contestant.name());
    }
    text.push('\n');
    for a in 0..n {
        let _ = write!(text, "{:<width$}", contestants[a].name());
        for b in 0..n {
            if together[a][b] == 0 {
                let _ = write!(text, " {:>width$}", "-");
            } else {
                let share = format!("{:.1}%", 100.0 * ahead[a][b] / together[a][b] as f64);
                let _ = write!(text, " {share:>width$}");
            }
        }
        text.push('\n');
    }
    text
}

/// The mean of per-game points and its 95% error (1.96 standard errors); None for fewer than
/// two games.
pub(crate) fn mean_and_error(samples: &[f64]) -> Option<(f64, f64)> {
    let n = samples.len() as f64;
    if n < 2.0 {
        return None;
    }
    let mean = samples.iter().sum::<f64>() / n;
    let variance = samples.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
    Some((mean, 1.96 * (variance / n).sqrt()))
}

/// The Elo difference for a score fraction, and its 95% error from the per-game variance.
fn elo(samples: &[f64]) -> Option<(f64, f64)> {
    let (mean, error) = mean_and_error(samples)?;
    Some(elo_of(mean, error))
}

/// The Elo difference for a mean score, and the half-width in Elo of the score's interval
/// `mean ± error`.
pub(crate) fn elo_of(mean: f64, error: f64) -> (f64, f64) {
    let to_elo = |s: f64| -400.0 * (1.0 / s.clamp(1e-6, 1.0 - 1e-6) - 1.0).log10();
    let spread = (to_elo((mean + error).min(1.0 - 1e-6)) - to_elo((mean - error).max(1e-6))) / 2.0;
    (to_elo(mean), spread)
}

/// The least Elo difference consistent, at 95 %, with one side winning all of `games` games:
/// the winner's expected score `p` at which so clean a sweep has a chance of 2.5 %
/// (`p^games = 0.025`, the lower end of the two-sided Clopper–Pearson interval). A sweep has no
/// finite estimate, but it does bound the difference from below.
fn sweep_elo_bound(games: usize) -> f64 {
    elo_of(0.025f64.powf(1.0 / games.max(1) as f64), 0.0).0
}

fn results_table(
    results: &[GameResult],
    contestants: &[Contestant],
    seat_names: &[String],
    args: &MatchArgs,
    elapsed: Duration,
) -> String {
    let seats = seat_names.len();
    let tallies = tallies(results, contestants.len(), seats);
    let mut text = String::new();
    let plies: usize = results.iter().map(|r| r.plies).sum();
    let budget = Budget {
        movetime: args.movetime,
        nodes: args.nodes,
        depth: args.depth,
        clock: args.clock.as_deref().and_then(|c| parse_clock(c).ok()),
    };
    let _ = writeln!(
        text,
        "{} games of {} ({}), {} random opening plies, {:.1} plies per game, {:.0} s",
        results.len(),
        args.variant,
        budget_text(&budget),
        args.opening_plies,
        plies as f64 / results.len().max(1) as f64,
        elapsed.as_secs_f64()
    );
    // The name column fits the longest name (`alphabeta-t2`).
    let width = contestants.iter().map(|c| c.name().len()).max().unwrap_or(0).max(10);
    let _ = write!(text, "{:<width$} {:>5} {:>7} {:>6} {:>4} {:>4} {:>4}", "engine", "games", "points", "score", "W", "D", "L");
    for name in seat_names {
        let _ = write!(text, " {:>8}", format!("{name}%"));
    }
    text.push('\n');
    for (t, contestant) in tallies.iter().zip(contestants) {
        let pct = 100.0 * t.points / t.games.max(1) as f64;
        let _ = write!(
            text,
            "{:<width$} {:>5} {:>7.1} {:>5.1}% {:>4} {:>4} {:>4}",
            contestant.name(),
            t.games,
            t.points,
            pct,
            t.wins,
            t.draws,
            t.losses
        );
        for seat in 0..seats {
            if t.seat_games[seat] == 0 {
                let _ = write!(text, " {:>8}", "-");
            } else {
                let _ = write!(text, " {:>7.1}%", 100.0 * t.seat_points[seat] / t.seat_games[seat] as f64);
            }
        }
        text.push('\n');
    }
    // Two engines in a three-player game: the one alone against each copy of the other.
    if seats == 3 {
        text.push_str(&head_to_head(results, contestants));
    }
    if seats == 2 && contestants.len() == 2 {
        let score = tallies[0].points / tallies[0].games.max(1) as f64;
        if score >= 1.0 - 1e-9 || score <= 1e-9 {
            let bound = sweep_elo_bound(tallies[0].games);
            let (estimate, bounded) =
                if score > 0.5 { ("+inf", format!("at least {bound:+.0}")) } else { ("-inf", format!("at most {:+.0}", -bound)) };
            let _ = writeln!(
                text,
                "Elo {} − {}: {estimate} (one side scored every point; {bounded} at 95%)",
                contestants[0].name(),
                contestants[1].name(),
            );
        } else if let Some((diff, error)) = elo(&tallies[0].samples) {
            let _ =
                writeln!(text, "Elo {} − {}: {:+.0} ± {:.0} (95%)", contestants[0].name(), contestants[1].name(), diff, error);
        }
    }
    let mut terminations: Vec<(String, usize)> = Vec::new();
    for r in results {
        match terminations.iter_mut().find(|(k, _)| *k == r.ending) {
            Some((_, n)) => *n += 1,
            None => terminations.push((r.ending.clone(), 1)),
        }
    }
    let ends: Vec<String> = terminations.iter().map(|(k, n)| format!("{k} {n}")).collect();
    let _ = writeln!(text, "endings: {}", ends.join(", "));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lineups_rotate_every_engine_through_every_seat() {
        assert_eq!(lineups(2, 2), vec![vec![0, 1], vec![1, 0]]);
        assert_eq!(lineups(3, 3).len(), 6);
        assert_eq!(lineups(4, 3).len(), 24);
        assert_eq!(lineups(2, 3), vec![vec![0, 1, 1], vec![1, 0, 1], vec![1, 1, 0]]);
    }

    #[test]
    fn elo_of_an_even_score_is_zero_and_grows_with_the_score() {
        let even = elo(&[1.0, 0.0, 0.5, 0.5]).unwrap();
        assert!(even.0.abs() < 1e-9);
        let better = elo(&[1.0, 1.0, 1.0, 0.0]).unwrap();
        assert!(better.0 > 150.0 && better.1 > 0.0);
    }

    /// At the bound, a side expected to score `p` sweeps with probability 2.5 %; more games
    /// swept bound the difference higher.
    #[test]
    fn a_sweep_bounds_the_elo_difference_from_below() {
        for games in [1, 20, 200, 2000] {
            let bound = sweep_elo_bound(games);
            let p = 1.0 / (1.0 + 10f64.powf(-bound / 400.0));
            assert!((p.powi(games as i32) - 0.025).abs() < 1e-9, "{games} games: {bound}");
        }
        assert!(sweep_elo_bound(20) < sweep_elo_bound(200));
        assert!(sweep_elo_bound(1) < 0.0, "one win is no evidence of a stronger side");
    }
}
