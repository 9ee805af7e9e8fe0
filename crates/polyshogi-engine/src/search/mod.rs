//! Search: what every searcher shares (limits and the stop flag, node counting, move ordering
//! with killer and history tables, repetition inside the tree) and the searchers themselves —
//! `alphabeta` (PVS for two players, and for three reduced to two sides: paranoid or BRS),
//! `maxn` (a value per seat) and `mcts` (UCT with a value vector).

pub mod alphabeta;
pub mod maxn;
pub mod mcts;
mod ordered;
mod quiet_scoring;
mod repetitions;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use polyshogi::mv::{Move, MoveList};
use polyshogi::player::Player;
use polyshogi::rules::RepetitionRule;
use polyshogi::splitmix::mix;
use polyshogi::{Game, Rules};

use crate::eval::{AttackMapCache, Evaluate, Values, Weights};
use crate::time::Budget;
use crate::tt::TranspositionTable;
pub use ordered::OrderedMoves;
use ordered::ToCome;
use quiet_scoring::QuietScoring;
pub use repetitions::Repetitions;

/// The deepest ply any search reaches (main search and quiescence together).
pub const MAX_PLY: usize = 96;
/// Larger than any score.
pub const INFINITY: i32 = 32_000;

/// What a search reports after each iteration (and once at the end).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub nodes: u64,
    pub time_ms: u64,
    /// Which line this is, from 1 (the best) up to the context's `multipv`.
    pub multipv: u32,
    /// The value of each seat of the game, from that seat's point of view, in turn order.
    pub scores: Vec<i32>,
    pub pv: Vec<Move>,
}

/// Limits, the stop flag and the node count of one search.
pub struct Control<'a> {
    stop: &'a AtomicBool,
    start: Instant,
    budget: Budget,
    node_limit: Option<u64>,
    pub nodes: u64,
    aborted: bool,
}

impl<'a> Control<'a> {
    pub fn new(stop: &'a AtomicBool, budget: Budget, node_limit: Option<u64>) -> Control<'a> {
        Control { stop, start: Instant::now(), budget, node_limit, nodes: 0, aborted: false }
    }

    /// Counts a node; true when the search must stop now (stop flag, hard time, node limit).
    #[inline]
    pub fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.aborted {
            return true;
        }
        if self.node_limit.is_some_and(|n| self.nodes >= n) {
            self.aborted = true;
        } else if self.nodes & 127 == 0 {
            self.aborted = self.stop.load(Ordering::Relaxed) || self.budget.hard.is_some_and(|h| self.start.elapsed() >= h);
        }
        self.aborted
    }

    #[inline]
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// True once the soft limit has passed: finish, but start nothing new.
    pub fn soft_expired(&self) -> bool {
        self.aborted
            || self.stop.load(Ordering::Relaxed)
            || self.budget.soft.is_some_and(|s| self.start.elapsed() >= s)
            || self.node_limit.is_some_and(|n| self.nodes >= n)
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    pub fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// Killer moves per ply and the history table, kept between searches of one game.
pub struct Heuristics {
    killers: Vec<[u32; 2]>,
    history: Vec<i32>,
}

/// History slots per seat: origin (128 cells, then 8 roles dropped) × destination (128).
const HISTORY_FROM: usize = 136;
const HISTORY_MAX: i32 = 40_000;

impl Default for Heuristics {
    fn default() -> Self {
        Heuristics { killers: vec![[0; 2]; MAX_PLY + 2], history: vec![0; 3 * HISTORY_FROM * 128] }
    }
}

impl Heuristics {
    pub fn clear(&mut self) {
        *self = Heuristics::default();
    }

    /// Ages the history so that the new search leans on recent experience.
    pub fn new_search(&mut self) {
        self.history.iter_mut().for_each(|h| *h /= 4);
        self.killers.iter_mut().for_each(|k| *k = [0; 2]);
    }

    fn history_index(player: Player, m: Move) -> Option<usize> {
        let (from, to) = match m {
            Move::Normal { from, to, .. } => (from.usize(), to.usize()),
            Move::Drop { role, to } => (128 + role.index(), to.usize()),
            _ => return None,
        };
        Some((player.index() * HISTORY_FROM + from) * 128 + to)
    }

    pub fn history(&self, player: Player, m: Move) -> i32 {
        Self::history_index(player, m).map_or(0, |i| self.history[i])
    }

    /// A quiet move caused a cut-off at `ply` with `depth` left.
    pub fn reward(&mut self, player: Player, m: Move, ply: usize, depth: i32) {
        let packed = m.pack();
        let killers = &mut self.killers[ply.min(MAX_PLY)];
        if killers[0] != packed {
            killers[1] = killers[0];
            killers[0] = packed;
        }
        if let Some(i) = Self::history_index(player, m) {
            let h = &mut self.history[i];
            *h = (*h + depth * depth).min(HISTORY_MAX);
        }
    }

    /// A quiet move was searched without causing the cut-off another one did.
    pub fn punish(&mut self, player: Player, m: Move, depth: i32) {
        if let Some(i) = Self::history_index(player, m) {
            let h = &mut self.history[i];
            *h = (*h - depth).max(-HISTORY_MAX);
        }
    }

    fn killer_rank(&self, ply: usize, m: Move) -> Option<usize> {
        let packed = m.pack();
        self.killers[ply.min(MAX_PLY)].iter().position(|&k| k == packed)
    }

    /// A sink that pushes the quiet moves of `player` at `ply` into `ordered` with their
    /// ordering scores.
    fn quiet_scoring<'a>(&'a self, player: Player, ply: usize, ordered: &'a mut OrderedMoves) -> QuietScoring<'a> {
        let slots = HISTORY_FROM * 128;
        QuietScoring {
            ordered,
            history: &self.history[player.index() * slots..][..slots],
            killers: self.killers[ply.min(MAX_PLY)],
            pushed: 0,
        }
    }
}

/// Move-ordering scores: the table's move, then captures (most valuable victim first, least
/// valuable attacker next), promotions, the two killers, then history.
pub const ORDER_TT: i32 = 1_000_000;
pub const ORDER_CAPTURE: i32 = 200_000;
pub const ORDER_PROMOTION: i32 = 150_000;
pub const ORDER_KILLER: i32 = 100_000;

/// What every searcher shares: weights, tables, limits, the repetition history and pools of
/// move lists (a `MoveList` is large, so it lives on the heap and is reused).
pub struct Ctx<'a> {
    pub weights: &'a Weights,
    pub tt: &'a TranspositionTable,
    pub heur: &'a mut Heuristics,
    pub control: Control<'a>,
    /// Keys of the game's positions up to the root, then of the current search path.
    pub reps: Repetitions,
    pub rule: RepetitionRule,
    /// Evaluation noise in centipawns (weaker levels), seeded.
    pub noise: i32,
    pub seed: u64,
    /// How many lines to report, the best moves of the root (1 when playing; analysis asks
    /// for more). Above 1, even a lone legal move is searched, for its value.
    pub multipv: usize,
    lists: Vec<Box<MoveList>>,
    ordered: Vec<OrderedMoves>,
    pub seldepth: usize,
    evaluations: EvalCache,
    attack_maps: AttackMapCache,
}

impl<'a> Ctx<'a> {
    pub fn new(weights: &'a Weights, tt: &'a TranspositionTable, heur: &'a mut Heuristics, control: Control<'a>) -> Ctx<'a> {
        Ctx {
            weights,
            tt,
            heur,
            control,
            reps: Repetitions::default(),
            rule: RepetitionRule::Off,
            noise: 0,
            seed: 0,
            multipv: 1,
            lists: Vec::new(),
            ordered: Vec::new(),
            seldepth: 0,
            evaluations: EvalCache::new(),
            attack_maps: AttackMapCache::new(),
        }
    }

    /// The static values of `pos`, from the cache when this search has evaluated it before.
    pub fn evaluate<P: Evaluate>(&mut self, pos: &P) -> Values {
        self.evaluations.get_or_insert(pos.search_key(), || pos.evaluate_with(self.weights, &mut self.attack_maps))
    }

    /// Starts loading what evaluating `pos` reads first: its cache entry and the attack maps
    /// kept for its seats, spread over more memory than the processor keeps close.
    pub fn prefetch_evaluation<P: Evaluate>(&self, pos: &P) {
        self.evaluations.prefetch(pos.search_key());
        pos.prefetch_attack_maps(&self.attack_maps);
    }

    pub fn take_list(&mut self) -> Box<MoveList> {
        self.lists.pop().unwrap_or_else(|| Box::new(MoveList::new()))
    }

    pub fn give_list(&mut self, list: Box<MoveList>) {
        self.lists.push(list);
    }

    /// An `OrderedMoves` with nothing in, one given back before if any.
    fn empty_ordered(&mut self) -> OrderedMoves {
        let mut ordered = self.ordered.pop().unwrap_or_default();
        ordered.clear();
        ordered
    }

    pub fn give_ordered(&mut self, ordered: OrderedMoves) {
        self.ordered.push(ordered);
    }

    /// The legal moves of `pos` with their ordering scores, to be handed out best first by
    /// `next_move`. With `captures_only`, only moves that win material. When the table's move
    /// is legal, it comes first and the others are scored only if the search goes on past it.
    pub fn ordered_moves<P: Evaluate>(
        &mut self,
        pos: &P,
        tt_move: Option<Move>,
        ply: usize,
        captures_only: bool,
    ) -> OrderedMoves {
        let mut list = self.take_list();
        if captures_only {
            pos.capture_candidates(&mut list);
        } else {
            pos.legal_moves(&mut list);
        }
        let mut ordered = self.empty_ordered();
        match tt_move.filter(|m| !captures_only && list.contains(m)) {
            Some(first) => {
                ordered.push(ORDER_TT, first);
                list.iter().filter(|&&m| m != first).for_each(|&m| ordered.push_unscored(m));
            }
            None => self.push_scored(&mut ordered, pos, &list, ply, |gain| !captures_only || gain > 0),
        }
        self.give_list(list);
        ordered
    }

    /// Pushes the moves of `list` whose capture gain `keep` accepts, with their ordering scores.
    fn push_scored<P: Evaluate>(
        &self,
        ordered: &mut OrderedMoves,
        pos: &P,
        list: &MoveList,
        ply: usize,
        keep: impl Fn(i32) -> bool,
    ) {
        for &m in list.iter() {
            let gain = pos.capture_gain(m, self.weights);
            if keep(gain) {
                ordered.push(self.order_score(pos, m, gain, None, ply), m);
            }
        }
    }

    /// The moves of a main-search node, handed out best first by `next_move`. With a legal
    /// table move, as `ordered_moves` gives them; where the game tells the move legal without
    /// listing the others (`is_legal_cheaply`), it comes in alone, and the others when it has
    /// been searched, as most nodes with one never ask. Without one, the captures are listed
    /// alone first (`capture_candidates`), and the other moves only when the captures are used
    /// up: a capture often ends the node, and a BRS opponent that plays one move needs no
    /// others when it can capture. Every capture is ordered above every move that wins
    /// nothing, so the order is `ordered_moves`', except that the later moves are scored from
    /// the heuristics as they stand when the captures are used up.
    pub fn staged_moves<P: Evaluate>(&mut self, pos: &P, tt_move: Option<Move>, ply: usize) -> OrderedMoves {
        if let Some(first) = tt_move {
            return match pos.is_legal_cheaply(first) {
                Some(true) => {
                    let mut ordered = self.empty_ordered();
                    ordered.push(ORDER_TT, first);
                    ordered.expect(ToCome::AllBut(first));
                    ordered
                }
                Some(false) => self.ordered_moves(pos, None, ply, false),
                None => self.ordered_moves(pos, tt_move, ply, false),
            };
        }
        let mut ordered = self.ordered_moves(pos, None, ply, true);
        ordered.expect(ToCome::Gainless);
        ordered
    }

    /// The best move of `ordered` not handed out yet, with its ordering score, handed out.
    pub fn next_move<P: Evaluate>(&mut self, ordered: &mut OrderedMoves, pos: &P, ply: usize) -> Option<(i32, Move)> {
        self.prepare_next(ordered, pos, ply);
        ordered.next()
    }

    /// The move `next_move` would hand out next, left in `ordered`.
    pub fn peek_move<P: Evaluate>(&mut self, ordered: &mut OrderedMoves, pos: &P, ply: usize) -> Option<(i32, Move)> {
        self.prepare_next(ordered, pos, ply);
        ordered.peek()
    }

    /// Brings in what `ordered` needs before its next move: scores for the moves waiting for
    /// them, from the heuristics as they stand, or the moves that win nothing, once the
    /// captures are used up.
    fn prepare_next<P: Evaluate>(&mut self, ordered: &mut OrderedMoves, pos: &P, ply: usize) {
        if ordered.waiting_for_scores() {
            ordered.score_waiting(|m| self.order_score(pos, m, pos.capture_gain(m, self.weights), None, ply));
        }
        match ordered.wanted() {
            ToCome::Nothing => {}
            ToCome::Gainless => {
                // Where the game lists them alone, they come in scored as the generator finds them.
                let listed_alone = pos.gainless_moves(self.weights, &mut self.heur.quiet_scoring(pos.to_move(), ply, ordered));
                if !listed_alone {
                    let mut list = self.take_list();
                    pos.legal_moves(&mut list);
                    self.push_scored(ordered, pos, &list, ply, |gain| gain <= 0);
                    self.give_list(list);
                }
            }
            ToCome::AllBut(first) => {
                let mut list = self.take_list();
                pos.legal_moves(&mut list);
                list.retain(|m| *m != first);
                self.push_scored(ordered, pos, &list, ply, |_| true);
                self.give_list(list);
            }
        }
    }

    /// The ordering score of one move whose `capture_gain` is `gain`.
    pub fn order_score<P: Evaluate>(&self, pos: &P, m: Move, gain: i32, tt_move: Option<Move>, ply: usize) -> i32 {
        if Some(m) == tt_move {
            ORDER_TT
        } else if gain > 0 {
            let attacker = match m {
                Move::Normal { from, .. } => match pos.piece_value(from, self.weights) {
                    0 => 2_000,
                    v => v,
                },
                _ => 0,
            };
            ORDER_CAPTURE + gain * 16 - attacker / 8
        } else if matches!(m, Move::Normal { promote: true, .. }) {
            ORDER_PROMOTION
        } else if let Some(rank) = self.heur.killer_rank(ply, m) {
            ORDER_KILLER - rank as i32
        } else {
            self.heur.history(pos.to_move(), m)
        }
    }

    /// Sorts the root's moves best first by the ordering scores (stable: ties keep the move
    /// generator's order).
    pub fn order_root<P: Evaluate>(&self, pos: &P, moves: &mut [Move], tt_move: Option<Move>) {
        moves.sort_by_cached_key(|&m| std::cmp::Reverse(self.order_score(pos, m, pos.capture_gain(m, self.weights), tt_move, 0)));
    }

    /// Whether a position with this key occurred before, in the game or on the search path.
    #[inline]
    pub fn repeated(&self, key: u64) -> bool {
        self.reps.contains(key)
    }

    /// A deterministic per-position perturbation of at most `noise` centipawns.
    #[inline]
    pub fn noise_for(&self, key: u64) -> i32 {
        if self.noise <= 0 {
            return 0;
        }
        (mix(key ^ self.seed) % (2 * self.noise as u64 + 1)) as i32 - self.noise
    }
}

/// The repetition keys of every position of the game from its start up to the current one.
pub fn game_keys<P: Rules>(game: &Game<P>) -> Vec<u64> {
    let mut keys = game.keys().to_vec();
    keys.push(game.position().repetition_key());
    keys
}

/// Plays `m` on a copy of `pos`; a decision the move leaves pending (a proposed alliance) is
/// accepted, as perft does.
#[inline]
pub fn child<P: Rules>(pos: &P, m: Move) -> P {
    let mut next = pos.clone();
    next.play_unchecked(m);
    if next.decision_pending() {
        let _ = next.answer_pending(true);
    }
    next
}

/// The root's legal moves, with the game's repetition rule applied.
pub fn root_moves<P: Rules>(game: &Game<P>) -> Vec<Move> {
    let mut list = Box::new(MoveList::new());
    game.legal_moves(&mut list);
    list.to_vec()
}

/// The static values of positions this search has evaluated, by key: a transposition reached
/// again, often a quiescence leaf, is not evaluated twice. Direct-mapped, the newer entry
/// replacing the older; one per search, so that the weights cannot change under it.
struct EvalCache {
    entries: Box<[(u64, Values)]>,
}

/// Entries in a search's evaluation cache (a power of two): 16 K of 24 bytes.
const EVAL_CACHE_ENTRIES: usize = 1 << 14;

impl EvalCache {
    fn new() -> EvalCache {
        EvalCache { entries: vec![(0, [0; 3]); EVAL_CACHE_ENTRIES].into_boxed_slice() }
    }

    fn index(key: u64) -> usize {
        key as usize & (EVAL_CACHE_ENTRIES - 1)
    }

    fn prefetch(&self, key: u64) {
        crate::prefetch::prefetch(&self.entries[Self::index(key)]);
    }

    fn get_or_insert(&mut self, key: u64, evaluate: impl FnOnce() -> Values) -> Values {
        let entry = &mut self.entries[Self::index(key)];
        // Key 0 marks an empty entry; a position whose key is 0 is evaluated every time.
        if entry.0 == key && key != 0 {
            return entry.1;
        }
        let values = evaluate();
        *entry = (key, values);
        values
    }
}

#[cfg(test)]
mod tests {
    use polyshogi::splitmix::SplitMix;
    use polyshogi::variant::hexshogi::{HexShogiPosition, HexShogiRules, HexVariant};
    use polyshogi::variant::sannin::{SanninPosition, SanninRules};

    use super::*;
    use crate::test_games::along_a_capturing_game;
    use crate::time::Budget;

    /// The moves of `ordered`, handed out one by one, each peeked at first when `peek` says.
    fn handed_out<P: Evaluate>(ctx: &mut Ctx, ordered: &mut OrderedMoves, pos: &P, peek: bool) -> Vec<(i32, Move)> {
        let mut got = Vec::new();
        loop {
            let peeked = peek.then(|| ctx.peek_move(ordered, pos, 1));
            let next = ctx.next_move(ordered, pos, 1);
            if let Some(peeked) = peeked {
                assert_eq!(peeked, next);
            }
            match next {
                Some(next) => got.push(next),
                None => return got,
            }
        }
    }

    /// A node's moves come out, peeked at or not, in the order `ordered_moves` gives the whole
    /// list: without a table move, its captures listed alone and then the moves that win
    /// nothing; with one, that move (where the game tells it legal) and then the others, or
    /// every move when it is not legal here. Along games that capture whenever they can, so
    /// that hands fill and most positions have captures, with some history and killers, so
    /// that the scores of the quiet moves differ, and as table moves now a legal move, now one
    /// of the position before.
    #[test]
    fn staged_moves_come_out_as_the_whole_list_would() {
        fn along_a_game<P: Evaluate>(pos: P, seed: u64, weights: Weights) {
            let (tt, mut heuristics, stop) = (TranspositionTable::new(1), Heuristics::default(), AtomicBool::new(false));
            let mut rng = SplitMix::new(seed ^ 0x5eed);
            let mut list = MoveList::new();
            let (mut positions_with_captures, mut legal_table_moves, mut illegal_table_moves) = (0, 0, 0);
            let mut ply = 0;
            let mut move_before: Option<Move> = None;
            along_a_capturing_game(pos, seed, 80, |pos| {
                pos.legal_moves(&mut list);
                // Some at the ply ordered below, which makes them its killers.
                for &m in list.iter() {
                    if rng.below(5) == 0 {
                        let ply = if rng.below(4) == 0 { 1 } else { 40 };
                        heuristics.reward(pos.to_move(), m, ply, 1 + rng.below(6) as i32);
                    }
                }
                let mut ctx = Ctx::new(&weights, &tt, &mut heuristics, Control::new(&stop, Budget::default(), None));
                let mut whole = ctx.ordered_moves(pos, None, 1, false);
                let expected: Vec<(i32, Move)> = whole.by_ref().collect();
                let mut staged = ctx.staged_moves(pos, None, 1);
                assert_eq!(handed_out(&mut ctx, &mut staged, pos, ply % 2 == 0), expected, "after {ply} plies");

                let table_move = if rng.below(2) == 0 { move_before } else { list.get(rng.below(list.len().max(1))).copied() };
                if let Some(table_move) = table_move {
                    let legal = list.contains(&table_move);
                    legal_table_moves += usize::from(legal);
                    illegal_table_moves += usize::from(!legal);
                    let mut whole = ctx.ordered_moves(pos, Some(table_move), 1, false);
                    let expected = handed_out(&mut ctx, &mut whole, pos, false);
                    let mut staged = ctx.staged_moves(pos, Some(table_move), 1);
                    let got = handed_out(&mut ctx, &mut staged, pos, ply % 3 == 0);
                    assert_eq!(got, expected, "after {ply} plies, table move {table_move:?}");
                }
                move_before = list.first().copied();
                positions_with_captures += usize::from(list.iter().any(|&m| pos.capture_gain(m, &weights) > 0));
                ply += 1;
            });
            assert!(positions_with_captures >= 10, "only {positions_with_captures} positions had captures");
            assert!(
                legal_table_moves >= 10 && illegal_table_moves >= 10,
                "{legal_table_moves} legal and {illegal_table_moves} illegal table moves"
            );
        }
        along_a_game(SanninPosition::start(SanninRules::default()), 1, Weights::default());
        along_a_game(HexShogiPosition::start(HexShogiRules::new(HexVariant::HexShogi91)), 2, Weights::default());
        along_a_game(HexShogiPosition::start(HexShogiRules::new(HexVariant::Tphs91)), 3, Weights::default());
        // A pawn worth nothing: taking one gains nothing, so it comes with the quiet moves.
        let mut worthless_pawns = Weights::default();
        worthless_pawns.hex.pawn = 0;
        along_a_game(HexShogiPosition::start(HexShogiRules::new(HexVariant::HexShogi91)), 4, worthless_pawns);
        // Sannin lists its quiet moves alone only where no alliance can form.
        let mut no_alliances = SanninRules::default();
        no_alliances.set("compulsory=off").expect("a rule option");
        along_a_game(SanninPosition::start(no_alliances), 5, Weights::default());
        let mut worthless_pawns = Weights::default();
        worthless_pawns.sannin.pawn = 0;
        along_a_game(SanninPosition::start(no_alliances), 6, worthless_pawns);
    }

    /// With a legal table move, a node hands it out first and then every other legal move
    /// once, in the order their scores give, as a node without a table move would list them.
    #[test]
    fn the_table_move_comes_first_and_the_rest_as_their_scores_order_them() {
        let (weights, tt, mut heuristics, stop) =
            (Weights::default(), TranspositionTable::new(1), Heuristics::default(), AtomicBool::new(false));
        let mut pos = SanninPosition::start(SanninRules::default());
        let mut list = MoveList::new();
        for ply in 0..12 {
            pos.legal_moves(&mut list);
            // Some history, so that the scores are not all equal.
            for (i, &m) in list.iter().enumerate().filter(|(i, _)| i % 7 == ply % 7) {
                heuristics.reward(pos.to_move(), m, 40, 1 + i as i32 % 5);
            }
            let mut ctx = Ctx::new(&weights, &tt, &mut heuristics, Control::new(&stop, Budget::default(), None));
            let mut unstaged = ctx.ordered_moves(&pos, None, 0, false);
            let expected: Vec<Move> = unstaged.by_ref().map(|(_, m)| m).collect();
            let table_move = list[list.len() / 2];
            let mut staged = ctx.ordered_moves(&pos, Some(table_move), 0, false);
            let mut got = Vec::new();
            while let Some((_, m)) = ctx.next_move(&mut staged, &pos, 0) {
                got.push(m);
            }
            assert_eq!(got[0], table_move);
            let rest: Vec<Move> = expected.iter().copied().filter(|&m| m != table_move).collect();
            assert_eq!(got[1..], rest[..], "after {ply} plies");
            pos = child(&pos, list[ply * 5 % list.len()]);
        }
    }

    #[test]
    fn the_evaluation_cache_answers_a_key_it_holds_and_evaluates_any_other() {
        let mut cache = EvalCache::new();
        let mut calls = 0;
        let mut get = |cache: &mut EvalCache, key: u64, values: Values| {
            cache.get_or_insert(key, || {
                calls += 1;
                values
            })
        };
        assert_eq!(get(&mut cache, 77, [1, 2, 3]), [1, 2, 3]);
        // The same key again: the stored values, without evaluating.
        assert_eq!(get(&mut cache, 77, [9, 9, 9]), [1, 2, 3]);
        // A key in the same entry replaces it; the first is then evaluated again.
        let rival = 77 + EVAL_CACHE_ENTRIES as u64;
        assert_eq!(get(&mut cache, rival, [4, 5, 6]), [4, 5, 6]);
        assert_eq!(get(&mut cache, 77, [7, 8, 9]), [7, 8, 9]);
        // Key 0 marks an empty entry, so it is never answered from the cache.
        assert_eq!(get(&mut cache, 0, [1, 1, 1]), [1, 1, 1]);
        assert_eq!(get(&mut cache, 0, [2, 2, 2]), [2, 2, 2]);
        assert_eq!(calls, 5);
    }
}
