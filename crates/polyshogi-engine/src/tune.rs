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

use crate::eval::{Evaluate, Weights};

/// One labelled position.
#[derive(Clone, Debug)]
pub struct Sample<P> {
    pub position: P,
    /// Points scored in the end, by `Player::index()`.
    pub points: [f64; 3],
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
    /// A weight moved: its new value and the loss after it.
    Moved { key: &'a str, value: i32, loss: f64 },
    /// A pass over every weight ended.
    Pass { number: usize, loss: f64 },
}

/// Tunes the weights `keys` of `group`, starting from `start`, by local search on the loss under
/// `scale`. Weights stay non-negative: every term is a size, its sign is in the evaluation.
/// Returns the tuned weights and their loss.
pub fn tune<P: Evaluate>(
    samples: &[Sample<P>],
    start: Weights,
    group: &str,
    keys: &[&str],
    scale: f64,
    on_progress: &mut dyn FnMut(Progress<'_>),
) -> (Weights, f64) {
    let mut weights = start;
    let mut best = loss(samples, &weights, scale);
    let value_of = |weights: &Weights, key: &str| weights.get(group, key).expect("a key of the group");
    // A first step of an eighth of the weight (at least 4): large weights move fast, and
    // halving brings every step down to one.
    let mut steps: Vec<i32> = keys.iter().map(|key| (value_of(&weights, key).abs() / 8).max(4)).collect();
    let mut pass = 0;
    while steps.iter().any(|&step| step > 0) {
        pass += 1;
        for (key, step) in keys.iter().zip(steps.iter_mut()) {
            if *step == 0 {
                continue;
            }
            let current = value_of(&weights, key);
            let mut moved = false;
            for value in [current + *step, current - *step] {
                if value < 0 {
                    continue;
                }
                let mut candidate = weights;
                candidate.set(&format!("{group}.{key}={value}")).expect("a key of the group");
                let candidate_loss = loss(samples, &candidate, scale);
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
        on_progress(Progress::Pass { number: pass, loss: best });
    }
    (weights, best)
}
