//! `Engine`: one player's bot. It keeps its transposition table and move-ordering history
//! between moves of a game, and answers `think` synchronously: callers run it on a thread of
//! their own (never an async executor) and end it early through the stop flag.

use std::sync::atomic::{AtomicBool, Ordering};

use polyshogi::rules::RepetitionRule;
use polyshogi::Game;

use crate::choose::{EngineKind, Limits, SearchResult};
use crate::eval::{Evaluate, Weights};
use crate::search::alphabeta::{AlphaBeta, Mode};
use crate::search::maxn::MaxN;
use crate::search::{game_keys, mcts, Control, Ctx, Heuristics, Info, Repetitions};
use crate::time::Budget;
use crate::tt::TranspositionTable;

/// Settings of an engine besides its kind.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct EngineOptions {
    /// Transposition table size.
    pub hash_mb: usize,
    pub weights: Weights,
    /// Evaluation noise in centipawns: weaker, less predictable play (levels use it).
    pub noise_cp: i32,
    /// Lines reported per iteration (`MultiPV`): the best moves of the root, best first.
    /// Only the best line decides the move; more lines cost search time, so bots keep 1.
    pub multipv: usize,
    /// Search threads (`Threads`). Alpha-beta, paranoid and BRS search in parallel over one
    /// shared table (Lazy SMP); max^n and MCTS use one thread whatever this says.
    pub threads: usize,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions { hash_mb: 16, weights: Weights::default(), noise_cp: 0, multipv: 1, threads: 1 }
    }
}

impl EngineKind {
    /// Chooses a move with a fresh engine of this kind (no stop flag, a small table): for one-off
    /// calls. Games should keep an `Engine` per seat, whose tables carry over between moves.
    pub fn choose<P: Evaluate>(self, game: &Game<P>, limits: &Limits) -> SearchResult {
        let stop = AtomicBool::new(false);
        Engine::with_hash(self, 4).think(game, limits, &stop, &mut |_| {})
    }
}

/// The stack a thread needs to search: deep searches recurse with large frames.
pub const SEARCH_STACK: usize = 64 * 1024 * 1024;

pub struct Engine {
    pub kind: EngineKind,
    pub options: EngineOptions,
    tt: Option<TranspositionTable>,
    heuristics: Heuristics,
}

impl Engine {
    /// The depth searched when nothing limits a search.
    pub const DEFAULT_DEPTH: u32 = 4;
    /// MCTS iterations when nothing limits a search.
    pub const DEFAULT_ITERATIONS: u64 = 2_000;
    /// The deepest iteration any search starts.
    pub const MAX_DEPTH: u32 = 64;

    pub fn new(kind: EngineKind) -> Engine {
        Engine::with_options(kind, EngineOptions::default())
    }

    pub fn with_hash(kind: EngineKind, hash_mb: usize) -> Engine {
        Engine::with_options(kind, EngineOptions { hash_mb, ..EngineOptions::default() })
    }

    pub fn with_options(kind: EngineKind, options: EngineOptions) -> Engine {
        Engine { kind, options, tt: None, heuristics: Heuristics::default() }
    }

    /// Forgets everything learnt in the previous game.
    pub fn new_game(&mut self) {
        if let Some(tt) = &mut self.tt {
            tt.clear();
        }
        self.heuristics.clear();
    }

    /// Makes the transposition table of the size the options ask for, unless it is made: so
    /// that a search's first move spends none of its time on it (writing a 256 MiB table takes
    /// longer than a 100 ms move). `think` makes it too; the protocol calls this at `isready`.
    pub fn prepare(&mut self) {
        if self.kind.searches() {
            self.table();
        }
    }

    /// The transposition table, made (or made again) at the size the options ask for.
    fn table(&mut self) -> &mut TranspositionTable {
        let hash_mb = self.options.hash_mb;
        let tt = self.tt.get_or_insert_with(|| TranspositionTable::new(hash_mb));
        if tt.megabytes() != hash_mb && hash_mb > 0 {
            *tt = TranspositionTable::new(hash_mb);
        }
        tt
    }

    /// The size of the transposition table, once made.
    pub fn table_megabytes(&self) -> Option<usize> {
        self.tt.as_ref().map(TranspositionTable::megabytes)
    }

    /// Chooses a move for the player to move in `game`. Returns when a limit is reached or
    /// `stop` is set (with the best move found so far: always a legal one when any exists).
    /// `on_info` hears about the search as it deepens.
    pub fn think<P: Evaluate>(
        &mut self,
        game: &Game<P>,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        if !self.kind.searches() {
            return self.kind.choose_simple(game, limits);
        }
        let seats = game.position().seats();
        if game.position().outcome().is_some() || game.position().decision_pending() {
            return SearchResult { best: None, depth: 0, nodes: 0, scores: vec![0; seats.len()], pv: Vec::new() };
        }
        self.table().new_search();
        self.heuristics.new_search();
        let reps = Repetitions::new(&game_keys(game));
        let tt = self.tt.as_ref().expect("made by table()");
        let unlimited = limits.is_unlimited() && !limits.infinite;
        let budget = Budget::new(limits.movetime_ms, limits.clock);
        let control = Control::new(stop, budget, limits.nodes);
        let mut ctx = Ctx::new(&self.options.weights, tt, &mut self.heuristics, control);
        ctx.reps = reps;
        ctx.rule = game.position().repetition_rule();
        ctx.noise = self.options.noise_cp;
        ctx.seed = limits.seed;
        ctx.multipv = self.options.multipv.max(1);
        let max_depth = limits.depth.unwrap_or(if unlimited { Self::DEFAULT_DEPTH } else { Self::MAX_DEPTH });
        // The scores of the last report of the best line are the result's.
        let mut last_scores: Option<Vec<i32>> = None;
        let mut relay = |info: &Info| {
            if info.multipv == 1 {
                last_scores = Some(info.scores.clone());
            }
            on_info(info);
        };
        let (best, depth, pv) = match self.kind {
            EngineKind::MaxN => {
                let outcome = MaxN::new(&mut ctx, seats).search(game, max_depth, &mut relay);
                (outcome.best, outcome.depth, outcome.pv)
            }
            EngineKind::Mcts => {
                // MCTS has no depth: without a time, node or clock limit it runs its default
                // iterations (otherwise a `go depth` would grow the tree to its memory bound).
                let open_ended =
                    limits.nodes.is_none() && limits.movetime_ms.is_none() && limits.clock.is_none() && !limits.infinite;
                let iterations = if open_ended { Some(Self::DEFAULT_ITERATIONS) } else { None };
                let outcome = mcts::search(&mut ctx, game, iterations, &mut relay);
                (outcome.best, outcome.depth, outcome.pv)
            }
            kind => {
                let mode = if kind == EngineKind::Brs { Mode::Brs } else { Mode::Paranoid };
                let helpers = self.options.threads.max(1) - 1;
                let reps = ctx.reps.keys().to_vec();
                let setup = HelperSetup {
                    weights: &self.options.weights,
                    tt,
                    mode,
                    reps: &reps,
                    rule: ctx.rule,
                    noise: ctx.noise,
                    seed: ctx.seed,
                };
                let (outcome, helper_nodes) = with_helpers(
                    helpers,
                    |index, stop| setup.search(game, index, stop),
                    || AlphaBeta::new(&mut ctx, game.position(), mode).search(game, max_depth, &mut relay),
                );
                ctx.control.nodes += helper_nodes;
                (outcome.best, outcome.depth, outcome.pv)
            }
        };
        let scores = last_scores.unwrap_or_else(|| vec![0; seats.len()]);
        let nodes = ctx.control.nodes;
        SearchResult { best, depth, nodes, scores, pv }
    }
}

/// Runs `main` on this thread and `helpers` helper searches beside it; once `main` returns,
/// the helpers are told to stop. Returns `main`'s result and the helpers' nodes.
fn with_helpers<T>(helpers: usize, helper: impl Fn(usize, &AtomicBool) -> u64 + Sync, main: impl FnOnce() -> T) -> (T, u64) {
    if helpers == 0 {
        return (main(), 0);
    }
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (1..=helpers)
            .map(|index| {
                let (helper, stop) = (&helper, &stop);
                std::thread::Builder::new()
                    .name(format!("search helper {index}"))
                    .stack_size(SEARCH_STACK)
                    .spawn_scoped(scope, move || helper(index, stop))
                    .expect("a search thread starts")
            })
            .collect();
        let result = main();
        stop.store(true, Ordering::Relaxed);
        // A helper that panicked counts no nodes; the main search's move stands.
        let nodes = handles.into_iter().map(|h| h.join().unwrap_or(0)).sum();
        (result, nodes)
    })
}

/// What a Lazy SMP helper takes from the main search: everything but the heuristics, which
/// each thread keeps its own, and the limits (a helper runs until told to stop).
struct HelperSetup<'a> {
    weights: &'a Weights,
    tt: &'a TranspositionTable,
    mode: Mode,
    reps: &'a [u64],
    rule: RepetitionRule,
    noise: i32,
    seed: u64,
}

impl HelperSetup<'_> {
    /// Helper `index` searches the root until `stop`, sharing only the table; odd helpers
    /// start one iteration deeper, so that the threads are not all at one depth. Returns the
    /// nodes it searched.
    fn search<P: Evaluate>(&self, game: &Game<P>, index: usize, stop: &AtomicBool) -> u64 {
        let mut heuristics = Heuristics::default();
        let mut ctx = Ctx::new(self.weights, self.tt, &mut heuristics, Control::new(stop, Budget::default(), None));
        ctx.reps = Repetitions::new(self.reps);
        ctx.rule = self.rule;
        ctx.noise = self.noise;
        ctx.seed = self.seed ^ index as u64;
        let first_depth = 1 + (index % 2) as u32;
        AlphaBeta::new(&mut ctx, game.position(), self.mode).search_from(game, first_depth, Engine::MAX_DEPTH, &mut |_| {});
        ctx.control.nodes
    }
}
