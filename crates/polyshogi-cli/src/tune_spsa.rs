//! `polyshogi tune-spsa`: sets several evaluation weights at once by playing games (SPSA,
//! simultaneous perturbation stochastic approximation). Each step moves every chosen weight up
//! or down by its step at random, plays the weights moved up against the weights moved down on
//! one opening in every seat order (`weights_duel`), and moves each weight towards the side
//! that won, in proportion to the lead. One game pair says almost nothing; over hundreds of
//! steps the moves add up to the direction in which the weights play better together, which a
//! line search over one weight at a time (`tune-match`) cannot find when weights trade off.
//!
//! The step sizes shrink as the run goes on, by the schedules of Spall's SPSA that Fishtest
//! uses: c_k = c / (k + 1)^0.101 for the perturbation and a_k = a / (A + k + 1)^0.602 for the
//! move, with A a tenth of the steps, set so that at the end the perturbation is the given step
//! and the move is `--rate` × step × lead. Weights are kept whole and not below zero.
//!
//! At the end a check match plays the result against the weights it started from; the file is
//! written only if the result wins with its 95 % interval above them (`--check-games 0` writes
//! without a check). The file then holds the command and the check, so that it says how to
//! make it again: node budgets make the same command give the same games.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{anyhow, bail, Context, Result};
use polyshogi::splitmix::SplitMix;
use polyshogi::variant::Variant;
use polyshogi_engine::{EngineKind, Weights};

use crate::match_cmd::{weights_duel, weights_match};
use crate::tune_match::{as_comments, judge, read_base, trial_text, weight_key, with_weight_lines, Trial, TuningPlay};

/// The exponents of the step schedules (Spall's).
const MOVE_DECAY: f64 = 0.602;
const PERTURBATION_DECAY: f64 = 0.101;

/// Sets several evaluation weights at once by playing games (SPSA).
#[derive(clap::Args, Debug, Clone)]
pub struct TuneSpsaArgs {
    /// The game: sannin, hexshogi91, tphs91 or sankaku.
    pub variant: String,
    /// The weights to set, each with its step: `name:step`, comma separated, e.g.
    /// `king_held:300,threat_pct:10`. The step is how far a weight is moved up or down to try
    /// it at the end of the run (about twice as far at the start); whole numbers, at least 1.
    #[arg(long, value_delimiter = ',', required = true)]
    pub weights: Vec<String>,
    /// Steps of the run: each plays one opening in every seat order (2 games for two players,
    /// 6 for three).
    #[arg(long, default_value_t = 500)]
    pub iterations: usize,
    /// How far a step moves a weight at the end of the run, in its step per point of lead.
    #[arg(long, default_value_t = 0.1)]
    pub rate: f64,
    /// Games of the check match between the result and the weights the run started from (per
    /// direction in a three-player game); 0 for none.
    #[arg(long, default_value_t = 400)]
    pub check_games: usize,
    /// Start from this weights file, laid over the hand-set weights, rather than from the
    /// weights the engines play with.
    #[arg(long)]
    pub from: Option<PathBuf>,
    /// Write the `--from` file here with the weights' lines set to the result (it may be the
    /// same file), if the check match allows it.
    #[arg(long)]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub play: TuningPlay,
}

/// One weight being set, with its step at the end of the run.
#[derive(Clone, Debug, PartialEq)]
struct Tuned {
    key: String,
    step: f64,
}

pub fn run(args: TuneSpsaArgs) -> Result<()> {
    let variant: Variant = args.variant.parse().map_err(|e| anyhow!("{e}"))?;
    let group = Weights::group_of(variant);
    let tuned = parse_weights(variant, &args.weights)?;
    if args.out.is_some() && args.from.is_none() {
        bail!("--out writes the --from file back with the new values: give --from");
    }
    if args.iterations == 0 || args.play.nodes == 0 {
        bail!("--iterations and --nodes must be at least 1");
    }
    if !(args.rate > 0.0 && args.rate.is_finite()) {
        bail!("--rate must be a positive number");
    }
    let (from_text, base) = read_base(args.from.as_deref())?;
    let start: Vec<f64> = tuned.iter().map(|t| f64::from(base.get(group, &t.key).expect("a key of the group"))).collect();
    let end = descend(&args, variant, base, &tuned, &start)?;
    let result = with_values(base, group, &tuned, &end)?;
    let check = if args.check_games == 0 { None } else { Some(check_match(&args, variant, result, base)?) };
    let report = report(&args, variant, &tuned, &start, &end, check.as_ref());
    print!("{report}");
    let keeps = check.as_ref().is_none_or(|c| c.beats_the_base);
    if let (Some(out), Some(text), true) = (&args.out, &from_text, keeps) {
        let names: Vec<String> = tuned.iter().map(|t| format!("{group}.{}", t.key)).collect();
        let lines: String =
            names.iter().zip(&tuned).map(|(name, t)| format!("{name}={}\n", result.get(group, &t.key).expect("a key"))).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let text = with_weight_lines(text, &names, &format!("{}{lines}", as_comments(&report)));
        std::fs::write(out, text).with_context(|| format!("cannot write {}", out.display()))?;
    }
    Ok(())
}

/// The SPSA steps from `start`: the tuned weights' values at the end, not rounded. Reports
/// them on standard error every twentieth of the run.
fn descend(args: &TuneSpsaArgs, variant: Variant, base: Weights, tuned: &[Tuned], start: &[f64]) -> Result<Vec<f64>> {
    let group = Weights::group_of(variant);
    let schedule = Schedule::new(args.iterations, args.rate);
    let mut theta = start.to_vec();
    let mut rng = SplitMix::new(args.play.seed ^ 0x5b5a_7e11_0000_0000);
    let report_every = (args.iterations / 20).max(1);
    for k in 0..args.iterations {
        let signs: Vec<f64> = tuned.iter().map(|_| if rng.next_u64() & 1 == 0 { 1.0 } else { -1.0 }).collect();
        let perturbation: Vec<f64> = tuned.iter().map(|t| schedule.perturbation(k, t.step)).collect();
        let moved = |direction: f64| {
            let values: Vec<f64> = theta.iter().zip(&signs).zip(&perturbation).map(|((v, s), c)| v + direction * s * c).collect();
            with_values(base, group, tuned, &values)
        };
        let mut step_args = args.play.match_args(variant, 1);
        step_args.seed = args.play.seed.wrapping_mul(1_000_003).wrapping_add(k as u64);
        step_args.quiet = true;
        let lead = weights_duel(&step_args, (moved(1.0)?, "plus"), (moved(-1.0)?, "minus"))?;
        for (i, t) in tuned.iter().enumerate() {
            theta[i] = (theta[i] + schedule.gain(k, t.step) * lead * signs[i] / perturbation[i]).max(0.0);
        }
        if (k + 1) % report_every == 0 || k + 1 == args.iterations {
            eprintln!("step {}/{}: {}", k + 1, args.iterations, values_text(group, tuned, &theta));
        }
    }
    Ok(theta)
}

/// The `name:step` list of `--weights`.
fn parse_weights(variant: Variant, items: &[String]) -> Result<Vec<Tuned>> {
    let mut tuned: Vec<Tuned> = Vec::new();
    for item in items {
        let (name, step) =
            item.split_once(':').ok_or_else(|| anyhow!("`{item}`: give each weight with its step, as name:step"))?;
        let key = weight_key(variant, name.trim())?.to_string();
        let step: u32 = step.trim().parse().map_err(|_| anyhow!("`{item}`: the step is not a whole number"))?;
        if step == 0 {
            bail!("`{item}`: the step must be at least 1");
        }
        if tuned.iter().any(|t| t.key == key) {
            bail!("`{key}` is given twice");
        }
        tuned.push(Tuned { key, step: f64::from(step) });
    }
    Ok(tuned)
}

/// The step sizes at step k of n.
struct Schedule {
    iterations: f64,
    /// A tenth of the steps: keeps the first moves from being much larger than the rest.
    stability: f64,
    rate: f64,
}

impl Schedule {
    fn new(iterations: usize, rate: f64) -> Schedule {
        let iterations = iterations as f64;
        Schedule { iterations, stability: (iterations / 10.0).floor(), rate }
    }

    /// How far a weight is moved either way to try it: its `step` at the last step.
    fn perturbation(&self, k: usize, step: f64) -> f64 {
        step * (self.iterations / (k as f64 + 1.0)).powf(PERTURBATION_DECAY)
    }

    /// The gain a_k: the move is a_k × lead / perturbation, `rate` × step × lead at the end.
    fn gain(&self, k: usize, step: f64) -> f64 {
        let at_end = self.rate * step * step;
        at_end * ((self.stability + self.iterations) / (self.stability + k as f64 + 1.0)).powf(MOVE_DECAY)
    }
}

/// The base weights with the tuned ones set to `values`, rounded.
fn with_values(base: Weights, group: &str, tuned: &[Tuned], values: &[f64]) -> Result<Weights> {
    let mut weights = base;
    for (t, v) in tuned.iter().zip(values) {
        weights.set(&format!("{group}.{}={}", t.key, v.max(0.0).round() as i64)).map_err(|e| anyhow!("{e}"))?;
    }
    Ok(weights)
}

fn values_text(group: &str, tuned: &[Tuned], values: &[f64]) -> String {
    let parts: Vec<String> = tuned.iter().zip(values).map(|(t, v)| format!("{group}.{}={}", t.key, v.round())).collect();
    parts.join(" ")
}

/// The result against the weights the run started from, as `tune-match` judges a value.
fn check_match(args: &TuneSpsaArgs, variant: Variant, result: Weights, base: Weights) -> Result<Trial> {
    let mut check_args = args.play.match_args(variant, args.check_games);
    // Another seed than any step's (seed × 1,000,003 + k), for other openings than the run's.
    check_args.seed = args.play.seed.wrapping_add(0x00c4_ec4e);
    let scores = weights_match(&check_args, (result, "spsa"), (base, "base"))?;
    let three_players = variant.seats().len() == 3;
    let base_scores = if three_players { Some(weights_match(&check_args, (base, "base"), (result, "spsa"))?) } else { None };
    // The whole set is judged, not one value: the trial's value is unused.
    judge(0, &scores, base_scores.as_deref())
}

/// What was played and what came of it; written into the weights file above the lines.
fn report(args: &TuneSpsaArgs, variant: Variant, tuned: &[Tuned], start: &[f64], end: &[f64], check: Option<&Trial>) -> String {
    let group = Weights::group_of(variant);
    let mut text = String::new();
    let _ = writeln!(
        text,
        "Set by matches: polyshogi tune-spsa {} --weights {} --iterations {} --rate {} --check-games {} {}",
        variant.name(),
        args.weights.join(","),
        args.iterations,
        args.rate,
        args.check_games,
        args.play.flags()
    );
    let _ = writeln!(
        text,
        "{} by SPSA, from {} to {}.",
        EngineKind::best_for(variant).name(),
        values_text(group, tuned, start),
        values_text(group, tuned, end)
    );
    match check {
        None => {
            let _ = writeln!(text, "No check match.");
        }
        Some(check) => {
            let how = if variant.seats().len() == 3 {
                "alone against two of the start, and the start alone against two of it, in every seat"
            } else {
                "against the start in both seat orders"
            };
            let verdict = if check.beats_the_base { "kept" } else { "not kept: the interval reaches the start" };
            let _ = writeln!(text, "Check, {how}, 95 %: {} ({verdict}).", trial_text(check));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_steps_shrink_to_the_given_sizes_at_the_end() {
        let schedule = Schedule::new(1000, 0.1);
        let last = 999;
        assert!((schedule.perturbation(last, 20.0) - 20.0).abs() < 1e-9);
        assert!((schedule.gain(last, 20.0) - 0.1 * 20.0 * 20.0).abs() < 1e-9);
        // Larger at the start, by about 2 for the perturbation (1000^0.101).
        let first = schedule.perturbation(0, 20.0);
        assert!(first > 39.0 && first < 41.0, "{first}");
        assert!(schedule.gain(0, 20.0) > schedule.gain(500, 20.0) && schedule.gain(500, 20.0) > schedule.gain(last, 20.0));
    }

    #[test]
    fn weights_are_read_with_their_steps_and_bad_ones_refused() {
        let tuned = parse_weights(Variant::Tphs91, &["king_held:300".into(), "hex3.threat_pct:10".into()]).unwrap();
        assert_eq!(tuned, [Tuned { key: "king_held".into(), step: 300.0 }, Tuned { key: "threat_pct".into(), step: 10.0 }]);
        let error = |items: &[&str]| {
            let items: Vec<String> = items.iter().map(|s| s.to_string()).collect();
            parse_weights(Variant::Tphs91, &items).unwrap_err().to_string()
        };
        assert!(error(&["king_held"]).contains("as name:step"));
        assert!(error(&["king_held:0"]).contains("at least 1"));
        assert!(error(&["king_held:ten"]).contains("not a whole number"));
        assert!(error(&["king_held:3", "hex3.king_held:4"]).contains("given twice"));
        assert!(error(&["queen:3"]).contains("no weight `queen`"));
    }

    #[test]
    fn values_are_rounded_and_kept_from_below_zero() {
        let tuned = [Tuned { key: "king_held".into(), step: 1.0 }, Tuned { key: "control".into(), step: 1.0 }];
        let weights = with_values(Weights::hand_set(), "hex3", &tuned, &[2400.6, -3.0]).unwrap();
        assert_eq!(weights.get("hex3", "king_held"), Some(2401));
        assert_eq!(weights.get("hex3", "control"), Some(0));
        // The other weights stay.
        assert_eq!(weights.get("hex3", "gold"), Weights::hand_set().get("hex3", "gold"));
    }
}
