//! Texel-style tuning of the evaluation weights: positions from finished games, each labelled
//! with what every seat scored in the end, and the weights that make the static evaluation
//! predict those scores best.
//!
//! The prediction is a softmax over the seats' values, `exp(scale · v) / Σ exp(scale · v')`,
//! which for two seats is the usual logistic curve of the value and for three gives each seat
//! its share of the game. The loss is the mean squared error of the predicted shares against the
//! points scored (1 for a win, 1/n for a draw shared by n, 0 for a loss). The scale is fitted
//! once to the starting weights; then each weight in turn is moved up or down by a step while
//! that lowers the loss, and a step that helps neither way is halved, down to one centipawn.
//! Positions of some games are held out, and the weights kept are those that predict them best.

use std::sync::atomic::AtomicBool;

use crate::eval::{Evaluate, Weights};
use crate::search::alphabeta::{AlphaBeta, Mode};
use crate::search::{child, Control, Ctx, Heuristics};
use crate::time::Budget;
use crate::tt::TranspositionTable;

/// One labelled position.
#[derive(Clone, Debug)]
pub struct Sample<P> {
    pub position: P,
    /// Points scored in the end, by `Player::index()`.
    pub points: [f64; 3],
}

/// The position at the end of the capture line the quiescence search finds from `pos` under
/// `weights`. A static value with a capture pending says little about the game, so the tuner
/// fits the values of these quiet ends (as Texel's method does).
pub fn quiet_end<P: Evaluate>(pos: &P, weights: &Weights) -> P {
    let (tt, mut heuristics, stop) = (TranspositionTable::new(0), Heuristics::default(), AtomicBool::new(false));
    let mut ctx = Ctx::new(weights, &tt, &mut heuristics, Control::new(&stop, Budget::default(), None));
    let line = AlphaBeta::new(&mut ctx, pos, Mode::Paranoid).quiescence_line(pos);
    line.iter().fold(pos.clone(), |end, &m| child(&end, m))
}

/// The mean squared error of the predicted shares over `samples`, counted on every core.
pub fn loss<P: Evaluate>(samples: &[Sample<P>], weights: &Weights, scale: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = samples.len().div_ceil(threads);
    let total: f64 = std::thread::scope(|scope| {
        let parts: Vec<_> = samples
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().map(|s| sample_error(s, weights, scale)).sum::<f64>()))
            .collect();
        parts.into_iter().map(|part| part.join().expect("a loss thread panicked")).sum()
    });
    total / samples.len() as f64
}

/// One position's squared error, averaged over its seats.
fn sample_error<P: Evaluate>(sample: &Sample<P>, weights: &Weights, scale: f64) -> f64 {
    let values = sample.position.evaluate(weights);
    let seats = sample.position.seats();
    let top = seats.iter().map(|p| values[p.index()]).max().unwrap_or(0);
    let mut odds = [0.0; 3];
    for (odd, p) in odds.iter_mut().zip(seats) {
        *odd = (scale * f64::from(values[p.index()] - top)).exp();
    }
    let sum: f64 = odds.iter().sum();
    let error: f64 = seats.iter().zip(odds).map(|(p, odd)| (odd / sum - sample.points[p.index()]).powi(2)).sum();
    error / seats.len() as f64
}

/// The scale (per centipawn) under which `weights` predict `samples` best: a golden-section
/// search over its logarithm between 1e-5 and 1e-1.
pub fn fit_scale<P: Evaluate>(samples: &[Sample<P>], weights: &Weights) -> f64 {
    let at = |log_scale: f64| loss(samples, weights, log_scale.exp());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut low, mut high) = (1e-5f64.ln(), 1e-1f64.ln());
    let mut a = high - ratio * (high - low);
    let mut b = low + ratio * (high - low);
    let (mut loss_a, mut loss_b) = (at(a), at(b));
    for _ in 0..40 {
        if loss_a < loss_b {
            high = b;
            (b, loss_b) = (a, loss_a);
            a = high - ratio * (high - low);
            loss_a = at(a);
        } else {
            low = a;
            (a, loss_a) = (b, loss_b);
            b = low + ratio * (high - low);
            loss_b = at(b);
        }
    }
    ((low + high) / 2.0).exp()
}

/// What the tuner reports as it goes.
pub enum Progress<'a> {
    /// A weight moved: its new value and the training loss after it.
    Moved { key: &'a str, value: i32, loss: f64 },
    /// A pass over every weight ended: the training and held-out losses.
    Pass { number: usize, loss: f64, held_out: f64 },
}

/// The result of `tune`.
pub struct Tuned {
    pub weights: Weights,
    pub loss: f64,
    pub held_out: f64,
}

/// Passes in a row without a better held-out loss after which the tuner stops.
const PATIENCE: usize = 2;

/// Tunes the weights `keys` of `group`, starting from `start`, by local search on the training
/// loss under `scale`, and returns the weights of the pass with the best loss on `held_out`.
///
/// Outcome labels are noisy and rare terms appear in few positions, so the fit is held back in
/// two ways: each weight stays between half and double its starting value (a fit that wants a
/// knight worth nothing, or three rooks, is reading noise), and the search stops once the
/// held-out loss has not improved for `PATIENCE` passes.
pub fn tune<P: Evaluate>(
    training: &[Sample<P>],
    held_out: &[Sample<P>],
    start: Weights,
    group: &str,
    keys: &[&str],
    scale: f64,
    on_progress: &mut dyn FnMut(Progress<'_>),
) -> Tuned {
    let value_of = |weights: &Weights, key: &str| weights.get(group, key).expect("a key of the group");
    let bounds: Vec<(i32, i32)> = keys.iter().map(|key| value_of(&start, key)).map(|v| ((v + 1) / 2, 2 * v)).collect();
    let mut weights = start;
    let mut best = loss(training, &weights, scale);
    let mut kept = Tuned { weights, loss: best, held_out: loss(held_out, &weights, scale) };
    // A first step of an eighth of the weight (at least 4): large weights move fast, and
    // halving brings every step down to one.
    let mut steps: Vec<i32> = keys.iter().map(|key| (value_of(&weights, key).abs() / 8).max(4)).collect();
    let (mut pass, mut since_better) = (0, 0);
    while steps.iter().any(|&step| step > 0) && since_better < PATIENCE {
        pass += 1;
        for ((key, step), &(low, high)) in keys.iter().zip(steps.iter_mut()).zip(&bounds) {
            if *step == 0 {
                continue;
            }
            let current = value_of(&weights, key);
            let mut moved = false;
            for value in [current + *step, current - *step] {
                if !(low..=high).contains(&value) {
                    continue;
                }
                let mut candidate = weights;
                candidate.set(&format!("{group}.{key}={value}")).expect("a key of the group");
                let candidate_loss = loss(training, &candidate, scale);
                if candidate_loss < best {
                    (weights, best, moved) = (candidate, candidate_loss, true);
                    on_progress(Progress::Moved { key, value, loss: best });
                    break;
                }
            }
            if !moved {
                *step /= 2;
            }
        }
        let held_out_loss = loss(held_out, &weights, scale);
        on_progress(Progress::Pass { number: pass, loss: best, held_out: held_out_loss });
        if held_out_loss < kept.held_out {
            kept = Tuned { weights, loss: best, held_out: held_out_loss };
            since_better = 0;
        } else {
            since_better += 1;
        }
    }
    kept
}
