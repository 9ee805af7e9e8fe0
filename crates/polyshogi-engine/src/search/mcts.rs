//! Monte Carlo tree search (UCT) with a value vector: every node keeps, per seat, the sum of
//! that seat's results below it, and the seat to move at a node picks the child best for
//! itself (the max^n rule inside UCB1). Leaves are valued by a short capture quiescence and the
//! evaluation, turned into a result in [0, 1] per seat by a logistic curve, instead of random
//! playouts (too long and too noisy in these games). Children are added one by one in move
//! order, a few more as a node's visits grow (progressive widening).

use polyshogi::mv::Move;
use polyshogi::player::Player;
use polyshogi::Game;

use super::maxn::quiescence;
use super::{child, root_moves, Ctx, Info, MAX_PLY};
use crate::eval::{terminal_values, Evaluate, Values, WIN};

/// Centipawns per unit of the logistic: 400 cp is a result of about 0.73.
const SCALE: f32 = 400.0;
/// UCB1's exploration constant, for results in [0, 1].
const EXPLORATION: f32 = 0.5;
const LEAF_QUIESCENCE: usize = 2;
/// Moves kept as candidates below the root (the best-ordered ones): progressive widening
/// rarely gets further, and it bounds the memory of a node.
const CANDIDATES: usize = 32;
/// The tree stops growing (and the search ends) at this many nodes, to bound memory.
const MAX_NODES: usize = 500_000;

struct Node {
    mv: Option<Move>,
    /// The seat to move at this node: it chooses among the children.
    mover: Player,
    children: Vec<u32>,
    /// Moves not yet added as children, the most promising last.
    untried: Vec<Move>,
    expanded: bool,
    visits: u32,
    sum: [f32; 3],
    terminal: Option<[f32; 3]>,
}

impl Node {
    fn new(mv: Option<Move>, mover: Player) -> Node {
        Node { mv, mover, children: Vec::new(), untried: Vec::new(), expanded: false, visits: 0, sum: [0.0; 3], terminal: None }
    }
}

/// The result of a whole search.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    pub best: Option<Move>,
    pub iterations: u64,
    pub depth: u32,
    pub values: Values,
    pub pv: Vec<Move>,
}

pub fn search<P: Evaluate>(
    ctx: &mut Ctx<'_>,
    game: &Game<P>,
    max_iterations: Option<u64>,
    on_info: &mut dyn FnMut(&Info),
) -> Outcome {
    let root_pos = game.position();
    let seats = root_pos.seats();
    let mut result = Outcome::default();
    let moves = root_moves(game);
    if moves.is_empty() {
        return result;
    }
    result.best = Some(moves[0]);
    if moves.len() == 1 && ctx.multipv <= 1 {
        result.pv = moves.clone();
        return result;
    }
    // A move that wins at once is played without a tree (UCT would find it, but only after
    // trying the moves ordered before it).
    let mover = root_pos.to_move();
    for &m in &moves {
        let next = child(root_pos, m);
        ctx.control.tick();
        if matches!(next.outcome(), Some(polyshogi::outcome::Outcome::Win { winner, .. }) if winner == mover) {
            result.best = Some(m);
            result.pv = vec![m];
            result.depth = 1;
            result.values = terminal_values(next.outcome().expect("finished"), seats, 1);
            report_win(ctx, seats, &result, on_info);
            return result;
        }
    }
    let mut tree = vec![Node::new(None, root_pos.to_move())];
    let mut scored: Vec<(i32, Move)> =
        moves.iter().map(|&m| (ctx.order_score(root_pos, m, root_pos.capture_gain(m, ctx.weights), None, 0), m)).collect();
    scored.sort_by_key(|&(order, _)| order);
    tree[0].untried = scored.into_iter().map(|(_, m)| m).collect();
    tree[0].expanded = true;

    let mut path: Vec<u32> = Vec::with_capacity(64);
    let mut next_report = 1024u64;
    while max_iterations.is_none_or(|n| result.iterations < n) && !ctx.control.aborted() && tree.len() < MAX_NODES {
        path.clear();
        path.push(0);
        let mut pos = root_pos.clone();
        let mut node = 0usize;
        // Selection: descend while the node has no child left to add.
        loop {
            if tree[node].terminal.is_some() || path.len() >= MAX_PLY {
                break;
            }
            if !tree[node].expanded {
                let mut ordered = ctx.ordered_moves(&pos, None, path.len(), false);
                let mut untried: Vec<Move> = ordered.by_ref().take(CANDIDATES).map(|(_, m)| m).collect();
                untried.reverse();
                tree[node].untried = untried;
                ctx.give_ordered(ordered);
                tree[node].expanded = true;
            }
            let widen = tree[node].children.len() < 2 + (1.5 * (tree[node].visits as f32).sqrt()) as usize;
            if widen && !tree[node].untried.is_empty() {
                break;
            }
            let Some(best) = select(&tree, node) else { break };
            let m = tree[best].mv.expect("children have moves");
            pos = child(&pos, m);
            ctx.control.tick();
            node = best;
            path.push(best as u32);
        }
        // Expansion: add one child, the most promising move not tried yet.
        let values: [f32; 3] = if let Some(values) = tree[node].terminal {
            values
        } else {
            if let Some(m) = tree[node].untried.pop() {
                pos = child(&pos, m);
                ctx.control.tick();
                let index = tree.len();
                tree.push(Node::new(Some(m), pos.to_move()));
                tree[node].children.push(index as u32);
                node = index;
                path.push(index as u32);
            }
            match pos.outcome() {
                Some(outcome) => {
                    let results = terminal_results(&terminal_values(outcome, seats, 0));
                    tree[node].terminal = Some(results);
                    results
                }
                None => results_of(&quiescence(ctx, &pos, path.len(), 0, LEAF_QUIESCENCE)),
            }
        };
        if ctx.control.aborted() && result.iterations > 0 {
            break;
        }
        // Backpropagation.
        for &n in &path {
            let node = &mut tree[n as usize];
            node.visits += 1;
            for (sum, value) in node.sum.iter_mut().zip(values) {
                *sum += value;
            }
        }
        result.iterations += 1;
        if result.iterations >= next_report {
            next_report *= 2;
            report(ctx, &tree, seats, &mut result, on_info);
        }
    }
    report(ctx, &tree, seats, &mut result, on_info);
    result
}

/// The child of `node` with the best UCB1 value for the seat to move at `node`.
fn select(tree: &[Node], node: usize) -> Option<usize> {
    let parent = &tree[node];
    let seat = parent.mover.index();
    let log_n = (parent.visits.max(1) as f32).ln();
    parent
        .children
        .iter()
        .map(|&c| {
            let c = c as usize;
            let n = tree[c].visits.max(1) as f32;
            let q = tree[c].sum[seat] / n;
            (c, q + EXPLORATION * (log_n / n).sqrt())
        })
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(c, _)| c)
}

/// Results in [0, 1] from values in centipawns.
fn results_of(values: &Values) -> [f32; 3] {
    values.map(|v| 1.0 / (1.0 + (-(v as f32) / SCALE).exp()))
}

/// A finished game: 1 for the winner, 0 for the losers, ½ for those sharing a draw.
fn terminal_results(values: &Values) -> [f32; 3] {
    values.map(|v| {
        if v >= WIN - MAX_PLY as i32 {
            1.0
        } else if v <= -(WIN - MAX_PLY as i32) {
            0.0
        } else {
            0.5
        }
    })
}

fn report_win(ctx: &Ctx<'_>, seats: &[Player], result: &Outcome, on_info: &mut dyn FnMut(&Info)) {
    on_info(&Info {
        depth: 1,
        seldepth: 1,
        nodes: ctx.control.nodes,
        time_ms: ctx.control.elapsed().as_millis() as u64,
        multipv: 1,
        scores: seats.iter().map(|p| result.values[p.index()]).collect(),
        pv: result.pv.clone(),
    });
}

/// Chooses the most visited root child and tells the caller: one line per root child asked
/// for (the context's `multipv`), most visited first, each followed down its most visited
/// children.
fn report(ctx: &Ctx<'_>, tree: &[Node], seats: &[Player], result: &mut Outcome, on_info: &mut dyn FnMut(&Info)) {
    // Most visited first; among equals the last added, as `max_by_key` picks below.
    let mut roots: Vec<usize> = tree[0].children.iter().rev().map(|&c| c as usize).filter(|&c| tree[c].visits > 0).collect();
    roots.sort_by_key(|&c| std::cmp::Reverse(tree[c].visits));
    for (line, &first) in roots.iter().take(ctx.multipv.max(1)).enumerate() {
        let n = tree[first].visits as f32;
        let values: Values = tree[first].sum.map(|s| {
            let p = (s / n).clamp(0.001, 0.999);
            (SCALE * (p / (1.0 - p)).ln()) as i32
        });
        let mut pv = vec![tree[first].mv.expect("children have moves")];
        let mut node = first;
        while let Some(&next) = tree[node].children.iter().max_by_key(|&&c| tree[c as usize].visits) {
            let next = next as usize;
            if tree[next].visits == 0 || pv.len() >= 16 {
                break;
            }
            pv.push(tree[next].mv.expect("children have moves"));
            node = next;
        }
        if line == 0 {
            result.best = Some(pv[0]);
            result.depth = pv.len() as u32;
            result.values = values;
            result.pv = pv.clone();
        }
        on_info(&Info {
            depth: pv.len() as u32,
            seldepth: ctx.seldepth as u32,
            nodes: ctx.control.nodes,
            time_ms: ctx.control.elapsed().as_millis() as u64,
            multipv: line as u32 + 1,
            scores: seats.iter().map(|p| values[p.index()]).collect(),
            pv,
        });
    }
}
