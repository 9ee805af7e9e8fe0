//! The alpha-beta core: iterative deepening, principal variation search, transposition table,
//! quiescence on captures, killer and history ordering, late move reductions (a fixed schedule,
//! or growing with depth and move number), and near the leaves reverse futility and late move
//! pruning, where the game's weights turn them on.
//!
//! It searches a game of two sides: the root seat (with its ally, if any) against everybody
//! else. For two players that is ordinary alpha-beta; for three it is the paranoid reduction
//! (`Mode::Paranoid`) or Best-Reply Search (`Mode::Brs`). Turn order is never
//! assumed: after every move the side to move is read from the position, so a player who moves
//! twice (Sannin: the mating player moves next), eliminations, passes and alliances formed
//! inside the tree are all followed as the rules say. A node's value is from the point of view
//! of the side to move there; a child's value is negated only when the side changes.

use std::sync::LazyLock;

use arrayvec::ArrayVec;
use polyshogi::mv::Move;
use polyshogi::player::Player;
use polyshogi::Game;

use super::{child, root_moves, Ctx, Info, INFINITY, MAX_PLY, ORDER_KILLER};
use crate::eval::{same_team, terminal_values, Evaluate, Pruning, WIN, WIN_BOUND};
use crate::tt::Bound;

/// How the seats other than the root's side are searched.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// Every opponent move is searched: plain alpha-beta for two players; for three, the
    /// paranoid reduction, in which the root seat assumes the two others play together against
    /// it (its ally, if it has one, plays with it).
    Paranoid,
    /// Best-Reply Search (Schadd and Winands 2011) in its BRS+ form (Esser et al. 2013): between
    /// two moves of the root's side only one opponent move is searched, the best reply among all
    /// opponents, while the other opponents play the move that ordering ranks first (the table's
    /// move, else the best capture, killer or history move) instead of passing. Every line is a
    /// sequence of real, legal moves in the real turn order, so the rules' turn machinery holds
    /// (a mating player moves again, eliminated seats are skipped, an alliance puts the root's
    /// ally on its side). Depth counts only searched moves, so BRS reaches the depth of a
    /// two-player search with one opponent.
    Brs,
}

/// Keys salted for the BRS state "an opponent move of this phase has been searched".
const SEARCHED_SALT: u64 = 0x6c8e_9cf5_70a4_3f1b;
/// Quiescence depth limit, and how many captures it tries per node.
const QUIESCENCE_PLIES: usize = 8;
const QUIESCENCE_WIDTH: usize = 12;
/// How many quiet moves that failed before a cut-off lose history credit.
const QUIETS_PUNISHED: usize = 32;
/// Captures that cannot lift the score this close to alpha are skipped in quiescence.
const DELTA_MARGIN: i32 = 200;
/// The depths left at which reverse futility and late move pruning apply.
const FUTILITY_DEPTH: i32 = 3;
const LATE_MOVE_DEPTH: i32 = 3;
/// Natural logarithms of 0 to 255 (0 for 0), for the late move reductions: depths and move
/// numbers past the table read its last entry.
static LN: LazyLock<[f32; 256]> = LazyLock::new(|| std::array::from_fn(|n| if n == 0 { 0.0 } else { (n as f32).ln() }));

/// The plies a late quiet move is reduced by when the game's `late_move_reduction` is
/// `percent` (> 0): `percent` hundredths of ln(depth left) · ln(move number), rounded, at least
/// one ply and leaving at least one before quiescence (`new_depth` is the depth it would get
/// unreduced, at least 2).
fn late_move_reduction(percent: i32, depth: i32, move_number: usize, new_depth: i32) -> i32 {
    let ln = |n: usize| LN[n.min(255)];
    let plies = ln(depth as usize) * ln(move_number) * percent as f32 / 100.0;
    (plies.round() as i32).clamp(1, new_depth - 1)
}

/// The result of a whole search.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    pub best: Option<Move>,
    pub depth: u32,
    pub score: i32,
    pub pv: Vec<Move>,
}

pub struct AlphaBeta<'c, 'a> {
    ctx: &'c mut Ctx<'a>,
    root: Player,
    mode: Mode,
    salt: u64,
    seats: &'static [Player],
    /// The game's shallow pruning settings, read once from the weights.
    pruning: Pruning,
    pv: Vec<Vec<Move>>,
}

impl<'c, 'a> AlphaBeta<'c, 'a> {
    pub fn new<P: Evaluate>(ctx: &'c mut Ctx<'a>, root_pos: &P, mode: Mode) -> AlphaBeta<'c, 'a> {
        let root = root_pos.to_move();
        let seats = root_pos.seats();
        // Two players: a value depends only on who is to move, so the table is shared by both
        // seats' searches. Three: values are the root seat's, so its searches get their own keys.
        let salt = if seats.len() == 2 {
            0
        } else {
            let mode_bits = if mode == Mode::Brs { 0x10 } else { 0x20 };
            polyshogi::splitmix::mix(0x9e37_79b9_7f4a_7c15 ^ (root.index() as u64 + mode_bits))
        };
        let pruning = ctx.weights.pruning(root_pos.variant());
        AlphaBeta { ctx, root, mode, salt, seats, pruning, pv: vec![Vec::new(); MAX_PLY + 2] }
    }

    /// Iterative deepening from the game's position up to `max_depth`, or until the limits in
    /// the context stop it. `on_info` hears about every finished iteration: one report per
    /// line when the context asks for several (`multipv`), the best line first.
    pub fn search<P: Evaluate>(&mut self, game: &Game<P>, max_depth: u32, on_info: &mut dyn FnMut(&Info)) -> Outcome {
        self.search_from(game, 1, max_depth, on_info)
    }

    /// `search` with the first iteration at `first_depth`: a helper thread of a parallel
    /// search starts deeper than the main one, so that the two work apart in the shared table.
    pub fn search_from<P: Evaluate>(
        &mut self,
        game: &Game<P>,
        first_depth: u32,
        max_depth: u32,
        on_info: &mut dyn FnMut(&Info),
    ) -> Outcome {
        let pos = game.position();
        let mut moves = root_moves(game);
        let mut result = Outcome::default();
        if moves.is_empty() {
            return result;
        }
        // Order the root once by the usual scores; later iterations keep the best moves first.
        let tt_move = self.ctx.tt.probe(pos.search_key() ^ self.salt, 0).and_then(|h| h.mv);
        self.ctx.order_root(pos, &mut moves, tt_move);
        result.best = Some(moves[0]);
        result.pv = vec![moves[0]];
        let lines = self.ctx.multipv.clamp(1, moves.len());
        // A lone move needs no search, unless its line is asked for.
        if moves.len() == 1 && self.ctx.multipv <= 1 {
            return result;
        }
        'deepening: for depth in first_depth.max(1)..=max_depth.max(1) {
            self.ctx.seldepth = 0;
            // Line k is the best of the moves that the lines before it did not take (moves
            // k.. of the list): each line brings its move to the front of the rest.
            for line in 0..lines {
                let (score, best, complete) = self.root(pos, &mut moves[line..], depth as i32, line == 0);
                // An unfinished iteration still gives the best line the move that beat the
                // previous best with a full window; the other lines wait for a whole one.
                let Some(best) = best.filter(|_| complete || line == 0) else { break 'deepening };
                let pv = self.pv[0].clone();
                if line == 0 {
                    result.best = Some(best);
                    result.score = score;
                    result.pv = pv.clone();
                    if complete {
                        result.depth = depth;
                    }
                }
                let info = Info {
                    depth,
                    seldepth: self.ctx.seldepth.max(depth as usize) as u32,
                    nodes: self.ctx.control.nodes,
                    time_ms: self.ctx.control.elapsed().as_millis() as u64,
                    multipv: line as u32 + 1,
                    scores: self.scores(pos, score, &pv),
                    pv,
                };
                on_info(&info);
                if !complete {
                    break 'deepening;
                }
            }
            if self.ctx.control.soft_expired() {
                break;
            }
            // A forced win or loss seen in full: deeper searches cannot change it.
            if result.score.abs() > WIN_BOUND && depth as i32 > WIN - result.score.abs() + 1 {
                break;
            }
        }
        result
    }

    /// One iteration at the root over `moves`, which it reorders to put the best first.
    /// Returns the best score, the best move (the first move unless another one completed
    /// with a better score) and whether the iteration finished. The best move is kept in the
    /// table for the next search only for the best line (`main`).
    fn root<P: Evaluate>(&mut self, pos: &P, moves: &mut [Move], depth: i32, main: bool) -> (i32, Option<Move>, bool) {
        let mut alpha = -INFINITY;
        let beta = INFINITY;
        let mut best: Option<(usize, Move)> = None;
        self.pv[0].clear();
        for (i, &m) in moves.iter().enumerate() {
            let next = child(pos, m);
            let value = self.child_value(true, &next, depth - 1, 0, alpha, beta, false, i > 0, 0);
            if self.ctx.control.aborted() {
                break;
            }
            if best.is_none() || value > alpha {
                alpha = value;
                best = Some((i, m));
                self.update_pv(0, m);
            }
        }
        let complete = !self.ctx.control.aborted();
        let Some((index, m)) = best else { return (0, None, false) };
        moves[..=index].rotate_right(1);
        if complete && main {
            self.ctx.tt.store(pos.search_key() ^ self.salt, 0, Some(m), alpha, depth, Bound::Exact);
        }
        (alpha, Some(m), complete)
    }

    /// Searches the child position `next` of a node of side `parent_side`; the value
    /// comes back from the parent's point of view. With `null_window`, a PVS scout search is
    /// made first (`reduction` plies shallower, then at full depth if it beats alpha),
    /// re-searched with the full window when it beats alpha.
    #[allow(clippy::too_many_arguments)]
    fn child_value<P: Evaluate>(
        &mut self,
        parent_side: bool,
        next: &P,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        searched: bool,
        null_window: bool,
        reduction: i32,
    ) -> i32 {
        let key = next.repetition_key();
        if self.ctx.repeated(key) {
            // A repetition inside the tree: scored as a draw (positional super-ko forbids the
            // move outright; the root's moves are already filtered by the game). The child's
            // line is empty: what `pv[ply + 1]` holds is another subtree's, which the parent
            // would otherwise append to this move (an illegal line).
            self.pv[ply + 1].clear();
            return 0;
        }
        self.ctx.reps.push(key);
        let same = self.side(next) == parent_side;
        let scout = |this: &mut Self, d: i32, a: i32, b: i32| -> i32 {
            if same {
                this.node(next, d, ply + 1, a, b, searched)
            } else {
                -this.node(next, d, ply + 1, -b, -a, searched)
            }
        };
        let value = if null_window && beta - alpha > 1 {
            let mut v = scout(self, depth - reduction, alpha, alpha + 1);
            if v > alpha && reduction > 0 {
                v = scout(self, depth, alpha, alpha + 1);
            }
            if v > alpha && v < beta {
                v = scout(self, depth, alpha, beta);
            }
            v
        } else if null_window && reduction > 0 {
            let v = scout(self, depth - reduction, alpha, beta);
            if v > alpha {
                scout(self, depth, alpha, beta)
            } else {
                v
            }
        } else {
            scout(self, depth, alpha, beta)
        };
        self.ctx.reps.pop();
        value
    }

    /// The table key of a main-search node, given `searched` as `node` is: a BRS opponent
    /// phase keeps its states before and after its searched move apart.
    #[inline]
    fn table_key<P: Evaluate>(&self, pos: &P, searched: bool) -> u64 {
        let after_searched_move = searched && self.mode == Mode::Brs && !self.side(pos);
        pos.search_key() ^ self.salt ^ if after_searched_move { SEARCHED_SALT } else { 0 }
    }

    /// Whether the side to move at `pos` is the root's side.
    #[inline]
    fn side<P: Evaluate>(&self, pos: &P) -> bool {
        same_team(pos.allies(), pos.to_move(), self.root)
    }

    /// The value for the side to move of a finished game, or of a position the root seat has
    /// been eliminated from.
    fn terminal<P: Evaluate>(&self, pos: &P, ply: usize) -> Option<i32> {
        let root_value = if let Some(outcome) = pos.outcome() {
            terminal_values(outcome, self.seats, ply)[self.root.index()]
        } else if !pos.players_in().contains(self.root) {
            -(WIN - ply as i32)
        } else {
            return None;
        };
        Some(if self.side(pos) { root_value } else { -root_value })
    }

    /// The static value for the side to move (the root seat's value, negated for the others),
    /// with the tempo bonus and any noise.
    fn static_value<P: Evaluate>(&mut self, pos: &P) -> i32 {
        let values = self.ctx.evaluate(pos);
        let root_value = values[self.root.index()];
        let noise = self.ctx.noise_for(pos.search_key());
        let value = if self.side(pos) { root_value } else { -root_value };
        value + self.ctx.weights.common.tempo + noise
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(m);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// Whether the seat after the one to move (in rotation, skipping seats out of the game)
    /// plays against the root's side.
    fn next_is_opponent<P: Evaluate>(&self, pos: &P) -> bool {
        let active = pos.players_in();
        let mut next = pos.to_move();
        for _ in 0..3 {
            next = next.next3();
            if active.contains(next) {
                return !same_team(pos.allies(), next, self.root);
            }
        }
        false
    }

    /// A node of the main search; `searched` tells a BRS opponent phase that its one searched
    /// move has been made.
    fn node<P: Evaluate>(&mut self, pos: &P, depth: i32, ply: usize, mut alpha: i32, beta: i32, searched: bool) -> i32 {
        self.pv[ply].clear();
        if self.ctx.control.tick() {
            return 0;
        }
        if let Some(value) = self.terminal(pos, ply) {
            return value;
        }
        if depth <= 0 || ply >= MAX_PLY - QUIESCENCE_PLIES {
            return self.quiescence(pos, ply, alpha, beta, 0);
        }
        self.ctx.seldepth = self.ctx.seldepth.max(ply);
        let side = self.side(pos);
        let brs_opponent = self.mode == Mode::Brs && !side;
        let searched = brs_opponent && searched;
        let key = self.table_key(pos, searched);
        let pv_node = beta - alpha > 1;
        let mut tt_move = None;
        if let Some(hit) = self.ctx.tt.probe(key, ply) {
            tt_move = hit.mv;
            let usable = match hit.bound {
                Bound::Exact => true,
                Bound::Lower => hit.score >= beta,
                Bound::Upper => hit.score <= alpha,
            };
            if !pv_node && hit.depth >= depth && usable {
                return hit.score;
            }
        }
        // BRS: once this phase's searched move is made, the other opponents just play their
        // best-ordered move, at no cost in depth; so does the root's ally, whose interests
        // are the root's (only the root seat and one opponent branch).
        let ally = self.mode == Mode::Brs && side && pos.to_move() != self.root;
        let forced = searched || ally;
        // Only a node that chooses its move asks (a forced one returns below).
        let in_check = !forced && pos.in_check(pos.to_move());
        let pruning = self.pruning;
        // Far enough above beta near the leaves, the side to move keeps its edge whatever it
        // plays: cut without a search. Not in check, and not near a won or lost game.
        if !pv_node && !forced && !in_check && pruning.futility_margin > 0 && depth <= FUTILITY_DEPTH && beta.abs() < WIN_BOUND {
            let value = self.static_value(pos);
            if value - pruning.futility_margin * depth >= beta {
                return value;
            }
        }
        let mut ordered = self.ctx.staged_moves(pos, tt_move, ply);
        let Some((_, first)) = self.ctx.peek_move(&mut ordered, pos, ply) else {
            self.ctx.give_ordered(ordered);
            return 0;
        };
        if forced {
            self.ctx.give_ordered(ordered);
            let next = child(pos, first);
            let value = self.child_value(side, &next, depth, ply, alpha, beta, searched, false, 0);
            if value > alpha && value < beta {
                self.update_pv(ply, first);
            }
            return value;
        }
        let late_limit = if !pv_node && !in_check && pruning.late_move_base > 0 && depth <= LATE_MOVE_DEPTH {
            (pruning.late_move_base + depth * depth) as usize
        } else {
            usize::MAX
        };
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut count = 0;
        // BRS: the branch in which this opponent plays its best-ordered move and a later
        // opponent of the phase makes the searched move.
        if brs_opponent && self.next_is_opponent(pos) {
            let next = child(pos, first);
            let value = self.child_value(side, &next, depth, ply, alpha, beta, false, false, 0);
            count += 1;
            best = value;
            best_move = Some(first);
            if value > alpha {
                alpha = value;
                self.update_pv(ply, first);
            }
        }
        let two_sided = pos.players_in().len() == 2 || self.seats.len() == 2;
        let mover = pos.to_move();
        let mut quiets_tried: ArrayVec<Move, QUIETS_PUNISHED> = ArrayVec::new();
        // Whether the moves not handed out yet that check nobody have been dropped.
        let mut late_moves_sifted = false;
        if alpha < beta {
            while let Some((order, m)) = self.ctx.next_move(&mut ordered, pos, ply) {
                let quiet = order < ORDER_KILLER - 10;
                // Late quiet moves near the leaves are left out once a move that does not lose
                // is in hand, unless they end the game, take a seat out of it (a Sannin mate,
                // after which the mating player moves again) or check the next player. Most of
                // them are told apart before they are made: those that check nobody (where
                // the game can tell: Hex Shogi 91 and Sannin), which leaves out the rare quiet
                // move that ends the game without a check, a stalemate or the move-count draw,
                // with the rest.
                let late = quiet && count >= late_limit && best > -WIN_BOUND;
                debug_assert!(late || !late_moves_sifted, "a move after a late one is late");
                if late && !late_moves_sifted {
                    // Every move after a late one is late too (the moves come best first, so
                    // quiet ones last, and the count and the best value only grow): those that
                    // check nobody are dropped all at once, before they are sorted.
                    late_moves_sifted = true;
                    let context = pos.check_context();
                    ordered.retain_rest(|later| pos.may_give_check(&context, later));
                    if !pos.may_give_check(&context, m) {
                        continue;
                    }
                }
                let next = child(pos, m);
                let gives_check = two_sided && next.in_check(next.to_move());
                let extension = i32::from(gives_check && ply < 2 * depth as usize + 8);
                if late
                    && next.outcome().is_none()
                    && next.players_in() == pos.players_in()
                    && !(gives_check || (!two_sided && next.in_check(next.to_move())))
                {
                    continue;
                }
                let reducible = depth >= 3 && count >= 3 && quiet && !in_check && extension == 0;
                let mut new_depth = depth - 1 + extension;
                let reduction = if !reducible {
                    0
                } else if pruning.late_move_reduction > 0 {
                    late_move_reduction(pruning.late_move_reduction, depth, count + 1, new_depth)
                } else {
                    // The fixed schedule: one ply, verified; from the twelfth move deep in the
                    // tree one more, never verified.
                    if count >= 12 && depth >= 5 {
                        new_depth -= 1;
                    }
                    1
                };
                if new_depth > 0 {
                    // The child probes the table first thing: its bucket, nearly always out of
                    // the cache, is asked for now and loads while the child is set up.
                    self.ctx.tt.prefetch(self.table_key(&next, brs_opponent));
                }
                if new_depth <= 0 || (pruning.futility_margin > 0 && new_depth <= FUTILITY_DEPTH) {
                    // The child evaluates soon: a quiescence node first thing, a node near the
                    // leaves for reverse futility.
                    self.ctx.prefetch_evaluation(&next);
                }
                let value = self.child_value(side, &next, new_depth, ply, alpha, beta, brs_opponent, count > 0, reduction);
                count += 1;
                if self.ctx.control.aborted() {
                    self.ctx.give_ordered(ordered);
                    return 0;
                }
                if value > best {
                    best = value;
                    best_move = Some(m);
                    if value > alpha {
                        alpha = value;
                        self.update_pv(ply, m);
                        if value >= beta {
                            if quiet {
                                self.ctx.heur.reward(mover, m, ply, depth);
                                for &q in &quiets_tried {
                                    self.ctx.heur.punish(mover, q, depth);
                                }
                            }
                            break;
                        }
                    }
                }
                if quiet && !quiets_tried.is_full() {
                    quiets_tried.push(m);
                }
            }
        }
        self.ctx.give_ordered(ordered);
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.ctx.tt.store(key, ply, best_move, best, depth, bound);
        best
    }

    /// Quiescence: only captures (every move while in check, near the top), so that the static
    /// value is taken in a quiet position. The side to move may stand pat.
    fn quiescence<P: Evaluate>(&mut self, pos: &P, ply: usize, mut alpha: i32, beta: i32, qply: usize) -> i32 {
        self.pv[ply].clear();
        if qply > 0 && self.ctx.control.tick() {
            return 0;
        }
        if let Some(value) = self.terminal(pos, ply) {
            return value;
        }
        self.ctx.seldepth = self.ctx.seldepth.max(ply);
        let stand_pat = self.static_value(pos);
        let in_check = qply < 2 && pos.in_check(pos.to_move());
        if !in_check {
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
        }
        if qply >= QUIESCENCE_PLIES || ply >= MAX_PLY {
            return stand_pat;
        }
        // When not even the largest capture could pass the delta test below, every move would
        // be skipped: stand pat without listing them.
        if !in_check && pos.capture_gain_bound(self.ctx.weights).is_some_and(|gain| stand_pat + gain + DELTA_MARGIN <= alpha) {
            return stand_pat;
        }
        let mut ordered = self.ctx.ordered_moves(pos, None, ply, !in_check);
        let side = self.side(pos);
        let mut best = if in_check { -INFINITY } else { stand_pat };
        for (count, (_, m)) in ordered.by_ref().enumerate() {
            if !in_check {
                if count >= QUIESCENCE_WIDTH {
                    break;
                }
                if stand_pat + pos.capture_gain(m, self.ctx.weights) + DELTA_MARGIN <= alpha {
                    continue;
                }
            }
            let next = child(pos, m);
            self.ctx.prefetch_evaluation(&next);
            let key = next.repetition_key();
            if self.ctx.repeated(key) {
                continue;
            }
            self.ctx.reps.push(key);
            let value = if self.side(&next) == side {
                self.quiescence(&next, ply + 1, alpha, beta, qply + 1)
            } else {
                -self.quiescence(&next, ply + 1, -beta, -alpha, qply + 1)
            };
            self.ctx.reps.pop();
            if self.ctx.control.aborted() {
                break;
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    self.update_pv(ply, m);
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        self.ctx.give_ordered(ordered);
        if best == -INFINITY {
            stand_pat
        } else {
            best
        }
    }

    /// The capture line the quiescence search finds from `pos` (empty when standing pat is
    /// best), searched for the seat to move.
    pub fn quiescence_line<P: Evaluate>(&mut self, pos: &P) -> Vec<Move> {
        self.quiescence(pos, 0, -INFINITY, INFINITY, 0);
        self.pv[0].clone()
    }

    /// Every seat's value for `info`: the search score for the root seat; for the others, the
    /// static values at the end of the principal variation (two seats: the negated score).
    fn scores<P: Evaluate>(&self, pos: &P, score: i32, pv: &[Move]) -> Vec<i32> {
        let seats = pos.seats();
        if seats.len() == 2 {
            return seats.iter().map(|&p| if p == self.root { score } else { -score }).collect();
        }
        let mut end = pos.clone();
        for &m in pv {
            if end.outcome().is_some() {
                break;
            }
            end = child(&end, m);
        }
        let values = match end.outcome() {
            Some(outcome) => terminal_values(outcome, seats, pv.len()),
            None => end.evaluate(self.ctx.weights),
        };
        seats.iter().map(|&p| if p == self.root { score } else { values[p.index()] }).collect()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use polyshogi::mv::MoveList;
    use polyshogi::variant::hexshogi::{HexShogiPosition, HexShogiRules};

    use super::*;
    use crate::eval::Weights;
    use crate::search::{Control, Heuristics, Repetitions};
    use crate::time::Budget;
    use crate::tt::TranspositionTable;

    /// A move into a repeated position has no line after it: the parent must not append the
    /// line another subtree left behind (the three-player scores replay the line, and
    /// panicked on such a move).
    #[test]
    fn a_repetition_in_the_tree_leaves_the_child_line_empty() {
        for rules in [HexShogiRules::hexshogi91(), HexShogiRules::tphs91()] {
            let pos = HexShogiPosition::start(rules);
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            let next = child(&pos, moves[0]);
            let (weights, tt, mut heuristics, stop) =
                (Weights::default(), TranspositionTable::new(1), Heuristics::default(), AtomicBool::new(false));
            let mut ctx = Ctx::new(&weights, &tt, &mut heuristics, Control::new(&stop, Budget::default(), None));
            ctx.reps = Repetitions::new(&[next.repetition_key()]);
            let mut search = AlphaBeta::new(&mut ctx, &pos, Mode::Paranoid);
            search.pv[1] = vec![moves[1], moves[2]];
            let value = search.child_value(true, &next, 3, 0, -INFINITY, INFINITY, false, false, 0);
            assert_eq!(value, 0);
            assert!(search.pv[1].is_empty(), "the repeated child kept the line {:?}", search.pv[1]);
        }
    }

    /// The reductions grow with the depth left and the move number, are at least a ply, and
    /// always leave the move a ply of search before quiescence.
    #[test]
    fn late_move_reductions_grow_with_depth_and_move_number_within_bounds() {
        // Unreduced, a move from a node `depth` deep gets `depth - 1` plies.
        let reduction = |percent, depth, move_number| late_move_reduction(percent, depth, move_number, depth - 1);
        assert_eq!(reduction(50, 3, 4), 1);
        assert_eq!(reduction(50, 8, 40), 4, "0.5 · ln 8 · ln 40 = 3.8");
        for percent in [10, 50, 200] {
            for depth in 3..=64 {
                let mut last = 0;
                for move_number in 4..=600 {
                    let r = reduction(percent, depth, move_number);
                    assert!((1..=depth - 2).contains(&r), "{percent} %, depth {depth}, move {move_number}: {r} plies");
                    assert!(r >= last, "{percent} %, depth {depth}: move {move_number} reduced less than the one before");
                    let shallower = if depth > 3 { reduction(percent, depth - 1, move_number) } else { 1 };
                    assert!(r >= shallower, "{percent} %, depth {depth}, move {move_number}: less than with a ply less left");
                    last = r;
                }
            }
        }
        assert!(reduction(200, 20, 100) > reduction(50, 20, 100));
    }
}
