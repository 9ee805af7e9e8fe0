//! Max^n (Luckhardt and Irani 1986): every node returns a value per seat, and the seat to
//! move picks the child best for itself. Allies share one value (the evaluation ties them),
//! so each ally also plays for the other. Iterative deepening, the table's move and
//! killer/history ordering; only shallow pruning (a seat that has found a win stops looking).
//! Quiescence: the seat to move may stand pat or capture.

use polyshogi::mv::Move;
use polyshogi::player::Player;
use polyshogi::Game;

use super::{child, root_moves, Ctx, Info, MAX_PLY};
use crate::eval::{terminal_values, Evaluate, Values, WIN_BOUND};
use crate::tt::Bound;

const SALT: u64 = 0x3c6e_f372_fe94_f82b;
const QUIESCENCE_PLIES: usize = 4;
/// Captures tried per quiescence ply: fewer the deeper (max^n cannot prune).
const QUIESCENCE_WIDTH: [usize; 4] = [6, 3, 2, 1];

/// The result of a whole search.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    pub best: Option<Move>,
    pub depth: u32,
    pub values: Values,
    pub pv: Vec<Move>,
}

pub struct MaxN<'c, 'a> {
    ctx: &'c mut Ctx<'a>,
    seats: &'static [Player],
    pv: Vec<Vec<Move>>,
}

impl<'c, 'a> MaxN<'c, 'a> {
    pub fn new(ctx: &'c mut Ctx<'a>, seats: &'static [Player]) -> MaxN<'c, 'a> {
        MaxN { ctx, seats, pv: vec![Vec::new(); MAX_PLY + 2] }
    }

    pub fn search<P: Evaluate>(&mut self, game: &Game<P>, max_depth: u32, on_info: &mut dyn FnMut(&Info)) -> Outcome {
        let pos = game.position();
        let mover = pos.to_move();
        let mut moves = root_moves(game);
        let mut result = Outcome::default();
        if moves.is_empty() {
            return result;
        }
        let tt_move = self.ctx.tt.probe(pos.search_key() ^ SALT, 0).and_then(|h| h.mv);
        self.ctx.order_root(pos, &mut moves, tt_move);
        result.best = Some(moves[0]);
        result.pv = vec![moves[0]];
        let lines = self.ctx.multipv.clamp(1, moves.len());
        if moves.len() == 1 && self.ctx.multipv <= 1 {
            return result;
        }
        'deepening: for depth in 1..=max_depth.max(1) {
            self.ctx.seldepth = 0;
            // Line k is the best of the moves the lines before it did not take.
            for line in 0..lines {
                let (best, complete) = self.root(pos, &mut moves[line..], depth as i32);
                // An unfinished iteration still gives the best line the move that beat the
                // previous best; the other lines wait for a whole one.
                let Some((m, values)) = best.filter(|_| complete || line == 0) else { break 'deepening };
                if line == 0 {
                    result.best = Some(m);
                    result.values = values;
                    result.pv = self.pv[0].clone();
                    if complete {
                        result.depth = depth;
                        self.ctx.tt.store(pos.search_key() ^ SALT, 0, Some(m), values[mover.index()], depth as i32, Bound::Exact);
                    }
                }
                on_info(&Info {
                    depth,
                    seldepth: self.ctx.seldepth.max(depth as usize) as u32,
                    nodes: self.ctx.control.nodes,
                    time_ms: self.ctx.control.elapsed().as_millis() as u64,
                    multipv: line as u32 + 1,
                    scores: self.seats.iter().map(|p| values[p.index()]).collect(),
                    pv: self.pv[0].clone(),
                });
                if !complete {
                    break 'deepening;
                }
            }
            if result.values[mover.index()] > WIN_BOUND || self.ctx.control.soft_expired() {
                break;
            }
        }
        result
    }

    /// One iteration at the root over `moves`, which it reorders to put the best first: the
    /// best move with its values (the first move unless another one did better for the seat
    /// to move), and whether the iteration finished.
    fn root<P: Evaluate>(&mut self, pos: &P, moves: &mut [Move], depth: i32) -> (Option<(Move, Values)>, bool) {
        let mover = pos.to_move();
        let mut best: Option<(usize, Values)> = None;
        self.pv[0].clear();
        for (i, &m) in moves.iter().enumerate() {
            let values = self.after(pos, m, depth - 1, 0);
            if self.ctx.control.aborted() {
                break;
            }
            if best.is_none_or(|(_, b)| values[mover.index()] > b[mover.index()]) {
                best = Some((i, values));
                self.update_pv(0, m);
            }
        }
        let complete = !self.ctx.control.aborted();
        let Some((index, values)) = best else { return (None, false) };
        moves[..=index].rotate_right(1);
        (Some((moves[0], values)), complete)
    }

    /// The values after `m` is played from `pos` at `ply`, searched `depth` more plies.
    fn after<P: Evaluate>(&mut self, pos: &P, m: Move, depth: i32, ply: usize) -> Values {
        let next = child(pos, m);
        let key = next.repetition_key();
        if self.ctx.repeated(key) {
            // The child's line is empty, not another subtree's left in `pv[ply + 1]`.
            self.pv[ply + 1].clear();
            return self.draw_values(&next);
        }
        self.ctx.reps.push(key);
        let values = self.node(&next, depth, ply + 1);
        self.ctx.reps.pop();
        values
    }

    /// A repeated position counts as a draw among the seats still playing.
    fn draw_values<P: Evaluate>(&self, pos: &P) -> Values {
        let mut values = pos.evaluate(self.ctx.weights);
        let active = pos.players_in();
        for &p in self.seats {
            if active.contains(p) {
                values[p.index()] = 0;
            }
        }
        values
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(m);
        head[ply].extend_from_slice(&tail[0]);
    }

    fn node<P: Evaluate>(&mut self, pos: &P, depth: i32, ply: usize) -> Values {
        self.pv[ply].clear();
        if let Some(outcome) = pos.outcome() {
            return terminal_values(outcome, self.seats, ply);
        }
        if self.ctx.control.tick() {
            return [0; 3];
        }
        if depth <= 0 || ply >= MAX_PLY - QUIESCENCE_PLIES {
            return quiescence(self.ctx, pos, ply, 0, QUIESCENCE_PLIES);
        }
        self.ctx.seldepth = self.ctx.seldepth.max(ply);
        let mover = pos.to_move();
        let key = pos.search_key() ^ SALT;
        let tt_move = self.ctx.tt.probe(key, ply).and_then(|h| h.mv);
        let mut ordered = self.ctx.staged_moves(pos, tt_move, ply);
        if self.ctx.peek_move(&mut ordered, pos, ply).is_none() {
            self.ctx.give_ordered(ordered);
            return self.draw_values(pos);
        }
        let mut best: Option<(Values, Move, i32)> = None;
        while let Some((order, m)) = self.ctx.next_move(&mut ordered, pos, ply) {
            let values = self.after(pos, m, depth - 1, ply);
            if self.ctx.control.aborted() {
                break;
            }
            if best.is_none_or(|(b, _, _)| values[mover.index()] > b[mover.index()]) {
                best = Some((values, m, order));
                self.update_pv(ply, m);
                if values[mover.index()] > WIN_BOUND {
                    break;
                }
            }
        }
        self.ctx.give_ordered(ordered);
        let Some((values, m, order)) = best else { return self.draw_values(pos) };
        if !self.ctx.control.aborted() {
            if order < super::ORDER_KILLER - 10 {
                self.ctx.heur.reward(mover, m, ply, depth);
            }
            self.ctx.tt.store(key, ply, Some(m), values[mover.index()], depth, Bound::Exact);
        }
        values
    }
}

/// Max^n quiescence: the seat to move keeps the static values or takes the capture best for
/// itself (the most promising few), up to `limit` plies. MCTS uses it to value its leaves.
pub fn quiescence<P: Evaluate>(ctx: &mut Ctx<'_>, pos: &P, ply: usize, qply: usize, limit: usize) -> Values {
    if let Some(outcome) = pos.outcome() {
        return terminal_values(outcome, pos.seats(), ply);
    }
    let mover = pos.to_move();
    let mut best = ctx.evaluate(pos);
    best[mover.index()] += ctx.weights.common.tempo + ctx.noise_for(pos.search_key());
    if qply >= limit || ply >= MAX_PLY || ctx.control.aborted() {
        return best;
    }
    ctx.seldepth = ctx.seldepth.max(ply);
    let mut ordered = ctx.ordered_moves(pos, None, ply, true);
    for (_, m) in ordered.by_ref().take(QUIESCENCE_WIDTH[qply.min(QUIESCENCE_WIDTH.len() - 1)]) {
        if ctx.control.tick() {
            break;
        }
        let next = child(pos, m);
        let values = quiescence(ctx, &next, ply + 1, qply + 1, limit);
        if values[mover.index()] > best[mover.index()] {
            best = values;
        }
    }
    ctx.give_ordered(ordered);
    best
}
