//! `polyshogi bench`: perft speed on one core over a fixed list of positions of every variant
//! (the total node count is the bench signature: it changes only when move generation changes),
//! with `--search`, the nodes per second of every search on the same positions (and of Sannin's
//! alpha-beta searches under the default rules too), and with `--playouts`, how many random
//! games from the start one core (or `--threads` cores) plays in a second, and with
//! `--to-depth`, how much sooner `--threads` threads finish a search of a fixed depth than one.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use polyshogi::notation::move_text;
use polyshogi::notation::play_text::play_tokens;
use polyshogi::perft::perft;
use polyshogi::splitmix::SplitMix;
use polyshogi::variant::{AnyGame, Variant};
use polyshogi::{with_game, Game, Outcome, Rules};
use polyshogi_engine::{Engine, EngineKind, EngineOptions, Evaluate, Limits};

/// Positions as (variant, name, rule options, moves from the start). Sannin: the start, the
/// 1932 sample game's opening, a middle game with full hands and promoted bishops, and a
/// pre-game-alliance game in which First's promoted king has illuminated. The other games: the
/// start, and for the hex games a middle game with hands (the lines of tests/data/*.perft).
const POSITIONS: [(Variant, &str, &str, &str); 9] = [
    (Variant::Sannin, "sannin: start", "", ""),
    (Variant::Sannin, "sannin: 1932 game after 6 rounds", "", "P3c-4d,P10k-10j,P11g-10g,S-2d,S-9l,S-10e,S-2e,P7k-6j,P8d-7d,P-4e,R-7g+,Bx12l,G-3d,Sx12l,P-9g,P4d-5e,+R-7l,R-10g"),
    (Variant::Sannin, "sannin: middle game with hands", "", "B2gx10k,G11m-11l,B7bx3f+,P*2e,B12lx10k,P*11h,G1ex3f,P5k-4j,S8b-8c,B*7e,B*2g,K10d-11f,B7ex10k+,P4jx3i,N9e-10g,B*7e,P*8f,P12h-12i,+B10kx2g,P8fx7e,N10g-12h,B*7i,B*2d,G11e-10d,B7ix10f,P3ix3h,K11fx10f,P*6a,P*9j,P11g-10g,L1gx7m,B2dx12i+,B*11f,P3c-4c,P*4b,L7ax6a,L*12l,+B12ix11h,K10f-9f,L7mx8m,P*4e,P*9l,S*4i,P3hx3g,P9lx9m+,+B2gx3g,P*4d,G*1g,P*2f,P7k-7j,+P9mx8m,K1dx1g,K10mx12l,L*8j,G*6j,L*10j,L8jx8k,P3bx4b,+B11h-9g,K9fx9g,P*4h,P4dx4c,P*7a,+B3gx7c,P*9l,B*8e,P*6c,P4ex3d+,P13i-12i,+B7cx6a"),
    (Variant::Sannin, "sannin: alliance, promoted king", "alliance=ML", "B2gx10k+,N9kx10k,B7bx3f,P*7d,B*11j,P*10j,S1b-2d,B11jx3f,P8dx7d,N3ex3f,B*1b,P*8i,P3c-4c,B1bx2d,P10jx10k,B*2c,S*12j,N*5j,B2c-4g,P6kx5j,N9e-11f,+K1d!2d,N*2f,G9c-9d,B*13l,P7k-7j,S8b-7b,R2bx11k,N2fx3f,P10f-9f,P*5g,N*11j,G9d-9e,P4c-5d,N3fx5g,G9e-10f,R11kx12l,P*5c,P5a-5b,B*8d"),
    (Variant::HexShogi91, "hexshogi91: start", "", ""),
    (Variant::HexShogi91, "hexshogi91: middle game with hands", "", "P-10g,P7d-6e,R-6i,S7b-8c,S-3i,P3d-3e,R-8i,B-7c,G3k-3j,P-6f,B-4i,G9a-7b,Bx7c+,Kx7c,B*4g,B*6c,N-4i,N-11c,G-6j,Bx10g,Rx10g,P*9f,Bx6f,N-8e,Bx4d,Nx6h+,B*4c,P*10a,Bx3e,+Nx4i,Kx4i,N*8i,Lx8i,L-3d,Bx10a,P-6e,Bx5d+,Kx5d,P*7j,P11d-10e"),
    (Variant::Tphs91, "tphs91: start", "", ""),
    (Variant::Tphs91, "tphs91: middle game, a king dropped", "", "P7i-7h,S-8d,N-7c,Bx5d,P9f-8g,P-6d,P*1i,K-10c,P1h-2h,Bx4c+,Sx7c,P-6e,+Bx5c,S-8a,Px2i,S*7i,R-10a,P*8f,G*3h,Sx8f,Bx8a,G-5g,Sx7h,S*7c,Sx2i,Sx6j,N-3g,P*9f,Sx5k,Bx9b,+Bx4d,Rx9b,Sx9b,Px9e,Gx9e,P*4h,+Bx5b,Sx6i,R*10b,K*5k,R*8f,P-7c,L*7f,Sx5i,P-7d,Sx4h,Gx7f,Sx11a,P*6g,Gx5g,N*1g,+Bx3f,R-8a,Rx11b,+Bx2e,R-8e,L*7g,L*8b,B*5d,Rx8b"),
    (Variant::Sankaku, "sankaku: start", "", ""),
];

/// Sannin positions that `--search` also times under the default rules, as games are played:
/// there the alliance detector runs after every move a search makes (the start and the 1932
/// opening of `POSITIONS`, whose moves form no alliance).
const SANNIN_AS_PLAYED: [(&str, &str); 2] =
    [("sannin, default rules: start", ""), ("sannin, default rules: 1932 game", POSITIONS[1].3)];

/// A bench position's game. Compulsory alliances are off: the positions must not depend on the
/// alliance detector.
fn bench_game(variant: Variant, options: &str, moves: &str) -> AnyGame {
    let mut rules: Vec<&str> = options.split(';').filter(|o| !o.is_empty()).collect();
    if variant == Variant::Sannin {
        rules.push("compulsory=off");
    }
    game_under(variant, &rules, moves)
}

/// The game of `variant` under `rules` after `moves`.
fn game_under(variant: Variant, rules: &[&str], moves: &str) -> AnyGame {
    let mut game = AnyGame::new(variant, rules).expect("bench rule options are valid");
    with_game!(&mut game, g => play_moves(g, moves));
    game
}

fn play_moves<P: Rules>(game: &mut Game<P>, moves: &str) {
    let tokens = move_text::split_move_list(moves);
    play_tokens(game, tokens.iter().map(String::as_str)).expect("bench positions are legal");
}

pub fn run(depth: u32) {
    let mut total_nodes = 0u64;
    let mut total_seconds = 0f64;
    for (variant, name, options, moves) in POSITIONS {
        let mut game = bench_game(variant, options, moves);
        let position_depth = if moves.is_empty() { depth } else { depth.saturating_sub(1).max(1) };
        let started = Instant::now();
        let nodes = with_game!(&mut game, g => perft(g, position_depth));
        let seconds = started.elapsed().as_secs_f64();
        println!(
            "{name:<36} depth {position_depth}  {nodes:>12} nodes  {seconds:>8.3} s  {:>7.2} Mnps",
            nodes as f64 / seconds / 1e6
        );
        total_nodes += nodes;
        total_seconds += seconds;
    }
    println!("signature {total_nodes}");
    println!("total {total_nodes} nodes in {total_seconds:.3} s: {:.2} Mnps", total_nodes as f64 / total_seconds / 1e6);
}

/// Every search of the game thinks `movetime_ms` on each bench position, with a fresh engine
/// whose table is made before the clock starts; then Sannin's alpha-beta searches on
/// `SANNIN_AS_PLAYED`.
pub fn run_search(movetime_ms: u64) {
    for (variant, name, options, moves) in POSITIONS {
        let game = bench_game(variant, options, moves);
        let seats = game.position().seats().len();
        let kinds: &[EngineKind] = if seats == 3 {
            &[EngineKind::Paranoid, EngineKind::Brs, EngineKind::MaxN, EngineKind::Mcts]
        } else {
            &[EngineKind::AlphaBeta, EngineKind::MaxN, EngineKind::Mcts]
        };
        for &kind in kinds {
            print_search(name, &game, kind, movetime_ms);
        }
    }
    for (name, moves) in SANNIN_AS_PLAYED {
        let game = game_under(Variant::Sannin, &[], moves);
        for kind in [EngineKind::Paranoid, EngineKind::Brs] {
            print_search(name, &game, kind, movetime_ms);
        }
    }
}

fn print_search(name: &str, game: &AnyGame, kind: EngineKind, movetime_ms: u64) {
    let (depth, nodes, seconds) = with_game!(game, g => think(g, kind, movetime_ms));
    println!(
        "{name:<36} {:<9} depth {depth:>2}  {nodes:>10} nodes  {seconds:>6.2} s  {:>9.0} nodes/s",
        kind.name(),
        nodes as f64 / seconds
    );
}

fn think<P: Evaluate>(game: &Game<P>, kind: EngineKind, movetime_ms: u64) -> (u32, u64, f64) {
    let limits = Limits { movetime_ms: Some(movetime_ms), ..Limits::default() };
    timed_search(game, Engine::new(kind), &limits)
}

/// The depth each alpha-beta search of a game is timed to by `--to-depth`: about a second or
/// a few on one core of a 2026 machine, deep enough for the threads to matter.
fn depth_to_time(variant: Variant, kind: EngineKind) -> u32 {
    match (variant, kind) {
        (Variant::Sannin, _) => 6,
        (Variant::HexShogi91, _) => 7,
        (Variant::Tphs91, EngineKind::Brs) => 7,
        (Variant::Tphs91, _) => 6,
        (Variant::Sankaku, _) => 10,
    }
}

/// Every alpha-beta search of the game (alphabeta for two players; paranoid and BRS for three)
/// searches each bench position to `depth` (its game's own when none is given), on one thread
/// and then on `threads`, with a fresh engine each time: the seconds each took, and how many
/// times faster the threads were, per position and over all the positions of the game.
pub fn run_to_depth(depth: Option<u32>, threads: usize) {
    let mut totals: Vec<(Variant, EngineKind, f64, f64)> = Vec::new();
    for (variant, name, options, moves) in POSITIONS {
        let game = bench_game(variant, options, moves);
        let kinds: &[EngineKind] =
            if game.position().seats().len() == 3 { &[EngineKind::Paranoid, EngineKind::Brs] } else { &[EngineKind::AlphaBeta] };
        for &kind in kinds {
            let depth = depth.unwrap_or_else(|| depth_to_time(variant, kind));
            let limits = Limits { depth: Some(depth), ..Limits::default() };
            let seconds = |thread_count: usize| {
                let options = EngineOptions { threads: thread_count, ..EngineOptions::default() };
                let engine = Engine::with_options(kind, options);
                with_game!(&game, g => timed_search(g, engine, &limits)).2
            };
            let (one, many) = (seconds(1), seconds(threads));
            println!(
                "{name:<36} {:<9} depth {depth:>2}  1 thread {one:>7.2} s  {threads} threads {many:>7.2} s  {:>5.2}×",
                kind.name(),
                one / many
            );
            match totals.iter_mut().find(|t| t.0 == variant && t.1 == kind) {
                Some(total) => (total.2, total.3) = (total.2 + one, total.3 + many),
                None => totals.push((variant, kind, one, many)),
            }
        }
    }
    for (variant, kind, one, many) in totals {
        println!(
            "{:<12} {:<9} all positions: 1 thread {one:>7.2} s  {threads} threads {many:>7.2} s  {:>5.2}×",
            variant.name(),
            kind.name(),
            one / many
        );
    }
}

/// Runs `engine`'s search of `game` to `limits`: its depth, its nodes and the seconds it took.
fn timed_search<P: Evaluate>(game: &Game<P>, mut engine: Engine, limits: &Limits) -> (u32, u64, f64) {
    // The table is made before the clock starts, as a game's engine has it before its first
    // move (`isready`): writing it is no part of searching.
    engine.prepare();
    let started = Instant::now();
    let result = engine.think(game, limits, &AtomicBool::new(false), &mut |_| {});
    (result.depth, result.nodes, started.elapsed().as_secs_f64())
}

/// A random game longer than this is cut short and counted apart: no variant's rules let one
/// last so long (Sannin's ply cap is 3,000), but a bench must end whatever the rules become.
const PLAYOUT_SAFETY_CAP: usize = 20_000;

/// What the random games of one variant came to.
#[derive(Default)]
struct Playouts {
    games: u64,
    plies: u64,
    decisive: u64,
    cut_short: u64,
}

impl Playouts {
    fn add(&self, other: &Playouts) -> Playouts {
        Playouts {
            games: self.games + other.games,
            plies: self.plies + other.plies,
            decisive: self.decisive + other.decisive,
            cut_short: self.cut_short + other.cut_short,
        }
    }
}

/// Random games from the start of every variant under its default rules, each variant for
/// `seconds` (whole games only): games and moves per second, summed over `threads` threads that
/// each play their own games (one core each, as a playout engine's threads would). Every move is
/// chosen uniformly among the legal ones, repetition rules included; a proposed alliance is
/// accepted or refused at random. The seed makes the games the same from run to run.
pub fn run_playouts(seconds: f64, seed: u64, threads: u64) {
    for variant in Variant::ALL {
        let started = Instant::now();
        let total = std::thread::scope(|scope| {
            let workers: Vec<_> =
                (0..threads).map(|thread| scope.spawn(move || thread_playouts(variant, seconds, seed + thread))).collect();
            workers.into_iter().fold(Playouts::default(), |sum, worker| sum.add(&worker.join().expect("a playout thread ends")))
        });
        let elapsed = started.elapsed().as_secs_f64();
        let on_threads = if threads > 1 { format!("  on {threads} threads") } else { String::new() };
        println!(
            "{:<12} {:>7} playouts  {:>11} moves  {elapsed:>6.2} s  {:>9.0} playouts/s  {:>11.0} moves/s  {:>6.0} moves a game  {:>3.0} % won  {} cut short{on_threads}",
            variant.name(),
            total.games,
            total.plies,
            total.games as f64 / elapsed,
            total.plies as f64 / elapsed,
            total.plies as f64 / total.games as f64,
            100.0 * total.decisive as f64 / total.games as f64,
            total.cut_short,
        );
    }
}

/// One thread's random games of `variant` for `seconds` (at least one game).
fn thread_playouts(variant: Variant, seconds: f64, seed: u64) -> Playouts {
    // One game, taken back to its start after each playout, so that its history keeps the room
    // the earlier playouts made.
    let mut game = AnyGame::new(variant, &[] as &[&str]).expect("every variant starts under its default rules");
    let mut rng = SplitMix::new(seed);
    let mut total = Playouts::default();
    let started = Instant::now();
    while total.games == 0 || started.elapsed().as_secs_f64() < seconds {
        game.rewind_to(0).expect("a random game has no departure to stop a takeback");
        with_game!(&mut game, g => random_game(g, &mut rng, &mut total));
    }
    total
}

fn random_game<P: Rules>(game: &mut Game<P>, rng: &mut SplitMix, total: &mut Playouts) {
    let mut plies = 0;
    while game.position().outcome().is_none() && plies < PLAYOUT_SAFETY_CAP {
        if game.position().decision_pending() {
            game.answer_pending(rng.below(2) == 0).expect("a decision is pending");
            continue;
        }
        let m = game.random_legal_move(rng).expect("a game that goes on has a legal action");
        game.play_unchecked(m);
        plies += 1;
    }
    total.games += 1;
    total.plies += plies as u64;
    match game.position().outcome() {
        Some(Outcome::Win { .. }) => total.decisive += 1,
        Some(Outcome::Draw { .. }) => {}
        None => total.cut_short += 1,
    }
}
