//! `polyshogi tune-match`: sets one evaluation weight by playing matches (a line search). Each
//! value to try plays a node-limited match against the weights as they are (the base): in a
//! two-player game the two play each other in both seat orders; in a three-player game each in
//! turn plays alone against two copies of the other, in every seat, and what counts is how far
//! the candidate alone scores above the base alone. The value with the best estimate among
//! those whose 95 % interval lies above the base is chosen; if none does, the base value stays.
//! With `--out` the weights file is written back with the chosen line under a comment that holds
//! the command and the results, so that the file says how to make it again. Node budgets make
//! the matches independent of the machine's load: the same command writes the same file.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{anyhow, bail, Context, Result};
use polyshogi::variant::Variant;
use polyshogi_engine::{EngineKind, Weights};

use crate::match_cmd::{elo_of, mean_and_error, weights_match, MatchArgs};

/// Sets one evaluation weight by playing matches.
#[derive(clap::Args, Debug, Clone)]
pub struct TuneMatchArgs {
    /// The game: sannin, hexshogi91, tphs91 or sankaku.
    pub variant: String,
    /// The weight, by its name in the game's group (`threat_pct`) or in full (`hex.threat_pct`).
    pub weight: String,
    /// The values to try, comma separated.
    #[arg(long, value_delimiter = ',', required = true)]
    pub values: Vec<i32>,
    /// Start from this weights file, laid over the hand-set weights, rather than from the
    /// weights the engines play with.
    #[arg(long)]
    pub from: Option<PathBuf>,
    /// Write the `--from` file here with the weight's line set to the chosen value (it may be
    /// the same file).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Games per value (per direction in a three-player game), rounded up to whole cycles of
    /// seat orders.
    #[arg(long, default_value_t = 400)]
    pub games: usize,
    #[command(flatten)]
    pub play: TuningPlay,
}

/// How the games of a tuner by matches are played: node budgets, so that the same command
/// gives the same games whatever the machine's load.
#[derive(clap::Args, Debug, Clone)]
pub struct TuningPlay {
    /// Nodes per move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Random plies from the start before the engines take over.
    #[arg(long, default_value_t = 4)]
    pub opening_plies: usize,
    /// Plies after which an unfinished game is scored a draw among the players still in it.
    #[arg(long, default_value_t = 600)]
    pub max_plies: usize,
    /// Seeds the openings and the engines' random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 2)]
    pub jobs: usize,
    /// No progress bars (for logs).
    #[arg(long)]
    pub quiet: bool,
}

impl TuningPlay {
    /// The `match` settings: this budget, the default rules and table size.
    pub(crate) fn match_args(&self, variant: Variant, games: usize) -> MatchArgs {
        MatchArgs {
            variant: variant.name().to_string(),
            engines: Vec::new(),
            externals: Vec::new(),
            external_options: Vec::new(),
            timemargin: 0,
            games,
            movetime: None,
            nodes: Some(self.nodes),
            depth: None,
            clock: None,
            opening_plies: self.opening_plies,
            max_plies: self.max_plies,
            out: None,
            rules: Vec::new(),
            seed: self.seed,
            jobs: self.jobs,
            hash: 16,
            threads: vec![1],
            weights: Vec::new(),
            quiet: self.quiet,
        }
    }

    /// The flags as given to the command, for the report.
    pub(crate) fn flags(&self) -> String {
        format!(
            "--nodes {} --opening-plies {} --max-plies {} --seed {}",
            self.nodes, self.opening_plies, self.max_plies, self.seed
        )
    }
}

/// How one value fared against the base.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Trial {
    value: i32,
    /// The candidate's score; in a three-player game, alone against two of the base.
    score: f64,
    /// Three players: the base's score alone against two of the candidate.
    base_alone: Option<f64>,
    /// The measure of the gain (Elo for two players, the lead in percentage points for three)
    /// and its 95 % error.
    gain: f64,
    error: f64,
    /// The 95 % interval of the score (two players) or of the lead (three) lies above the
    /// base's. Judged on the score rather than the Elo, whose interval is lopsided near the ends.
    pub(crate) beats_the_base: bool,
}

pub fn run(args: TuneMatchArgs) -> Result<()> {
    let variant: Variant = args.variant.parse().map_err(|e| anyhow!("{e}"))?;
    let group = Weights::group_of(variant);
    let key = weight_key(variant, &args.weight)?;
    if args.out.is_some() && args.from.is_none() {
        bail!("--out writes the --from file back with the new value: give --from");
    }
    if args.games < 2 || args.play.nodes == 0 {
        bail!("--games must be at least 2 and --nodes at least 1");
    }
    let (from_text, base) = read_base(args.from.as_deref())?;
    let base_value = base.get(group, key).expect("a key of the group");
    let match_args = args.play.match_args(variant, args.games);
    let three_players = variant.seats().len() == 3;
    let mut trials = Vec::new();
    for &value in args.values.iter().filter(|&&v| v != base_value) {
        let mut candidate = base;
        candidate.set(&format!("{group}.{key}={value}")).map_err(|e| anyhow!("{e}"))?;
        let label = value.to_string();
        let scores = weights_match(&match_args, (candidate, &label), (base, "base"))?;
        let base_scores =
            if three_players { Some(weights_match(&match_args, (base, "base"), (candidate, &label))?) } else { None };
        let trial = judge(value, &scores, base_scores.as_deref())?;
        eprintln!("{group}.{key}={value}: {}", trial_text(&trial));
        trials.push(trial);
    }
    let chosen = choose(&trials);
    let chosen_value = chosen.map_or(base_value, |t| t.value);
    let report = report(&args, variant, group, key, base_value, &trials, chosen);
    print!("{report}");
    if let (Some(out), Some(text)) = (&args.out, &from_text) {
        let block = as_comments(&report);
        let text = with_weight_line(text, &format!("{group}.{key}"), &format!("{block}{group}.{key}={chosen_value}\n"));
        std::fs::write(out, text).with_context(|| format!("cannot write {}", out.display()))?;
    }
    Ok(())
}

/// A weight of the variant's group, by its name in the group (`threat_pct`) or in full
/// (`hex.threat_pct`).
pub(crate) fn weight_key(variant: Variant, name: &str) -> Result<&str> {
    let group = Weights::group_of(variant);
    let key = match name.split_once('.') {
        Some((g, key)) if g == group => key,
        Some(_) => bail!("`{name}` is not a weight of {}: its weights are {group}.*", variant.title()),
        None => name,
    };
    if Weights::keys_of(variant).any(|k| k == key) {
        return Ok(key);
    }
    let read: Vec<&str> = Weights::keys_of(variant).collect();
    if Weights::keys(group).contains(&key) {
        bail!("{}'s evaluation does not read `{group}.{key}` (it reads: {})", variant.title(), read.join(", "));
    }
    bail!("{} has no weight `{key}` (its weights: {})", variant.title(), read.join(", "))
}

/// The base weights: the `--from` file (returned too, to be written back) laid over the
/// hand-set weights, or without one the weights the engines play with.
pub(crate) fn read_base(from: Option<&std::path::Path>) -> Result<(Option<String>, Weights)> {
    let Some(path) = from else { return Ok((None, Weights::default())) };
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read the weights file {}", path.display()))?;
    let mut weights = Weights::hand_set();
    weights.apply_text(&text).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    Ok((Some(text), weights))
}

/// A trial from the candidate's per-game points (and, in a three-player game, the base's when
/// alone against two of the candidate).
pub(crate) fn judge(value: i32, scores: &[f64], base_scores: Option<&[f64]>) -> Result<Trial> {
    let too_few = || anyhow!("too few games to judge: give --games 2 or more per seat order");
    let (score, score_error) = mean_and_error_of_games(scores).ok_or_else(too_few)?;
    match base_scores {
        None => {
            let (gain, error) = elo_of(score, score_error);
            Ok(Trial { value, score, base_alone: None, gain, error, beats_the_base: score - score_error > 0.5 })
        }
        Some(base_scores) => {
            let (base_alone, base_error) = mean_and_error_of_games(base_scores).ok_or_else(too_few)?;
            // The two means are independent: their difference's error adds in quadrature.
            let error = 100.0 * (score_error * score_error + base_error * base_error).sqrt();
            let gain = 100.0 * (score - base_alone);
            Ok(Trial { value, score, base_alone: Some(base_alone), gain, error, beats_the_base: gain - error > 0.0 })
        }
    }
}

/// `mean_and_error`, with an error of at least 3/n: when (nearly) every game ends the same,
/// the spread of the games says little, and the rule of three bounds the true score within
/// 3/n of what was seen (95 %). A few games all won do not pass for a sure gain.
fn mean_and_error_of_games(points: &[f64]) -> Option<(f64, f64)> {
    let (mean, error) = mean_and_error(points)?;
    Some((mean, error.max(3.0 / points.len() as f64)))
}

/// The trial with the best estimate among those whose interval lies above the base.
fn choose(trials: &[Trial]) -> Option<&Trial> {
    trials.iter().filter(|t| t.beats_the_base).max_by(|a, b| a.gain.total_cmp(&b.gain))
}

pub(crate) fn trial_text(trial: &Trial) -> String {
    match trial.base_alone {
        None => format!("scored {:.1} %, {:+.0} ± {:.0} Elo", 100.0 * trial.score, trial.gain, trial.error),
        Some(base_alone) => format!(
            "alone {:.1} %, the base alone {:.1} %: {:+.1} ± {:.1} points",
            100.0 * trial.score,
            100.0 * base_alone,
            trial.gain,
            trial.error
        ),
    }
}

/// What was played and what came of it; written into the weights file above the chosen line.
fn report(
    args: &TuneMatchArgs,
    variant: Variant,
    group: &str,
    key: &str,
    base_value: i32,
    trials: &[Trial],
    chosen: Option<&Trial>,
) -> String {
    let values: Vec<String> = args.values.iter().map(i32::to_string).collect();
    let mut text = String::new();
    let _ = writeln!(
        text,
        "Set by matches: polyshogi tune-match {} {key} --values {} --games {} {}",
        variant.name(),
        values.join(","),
        args.games,
        args.play.flags()
    );
    let how = if variant.seats().len() == 3 {
        "each value alone against two of the base and the base alone against two of it, in every seat; \
         the gain is the first score less the second"
    } else {
        "each value against the base in both seat orders"
    };
    let _ = writeln!(
        text,
        "{} with the other weights as they are; the base has {group}.{key}={base_value}; {how}; 95 % intervals.",
        EngineKind::best_for(variant).name()
    );
    for trial in trials {
        let mark = if chosen == Some(trial) { "  (chosen)" } else { "" };
        let _ = writeln!(text, "  {}: {}{mark}", trial.value, trial_text(trial));
    }
    if chosen.is_none() {
        let _ = writeln!(text, "No value beat the base with its interval above it: {base_value} stays.");
    }
    text
}

/// A report as the comment block that goes above its lines in a weights file.
pub(crate) fn as_comments(report: &str) -> String {
    report.lines().map(|line| format!("# {line}\n")).collect()
}

/// The weights file with the `name=` line, and the comment block above it that begins with
/// "# Set by matches" (an earlier run's), replaced by `block` at the end of the file.
fn with_weight_line(text: &str, name: &str, block: &str) -> String {
    with_weight_lines(text, &[name], block)
}

/// The weights file with each of the `names=` lines, and the comment block above them that
/// begins with "# Set by matches" (an earlier run's), replaced by `block` at the end of the file.
/// A record of several weights stays while any of them is not set again: it is still theirs.
pub(crate) fn with_weight_lines(text: &str, names: &[&str], block: &str) -> String {
    let is_named = |line: &str| line.split_once('=').is_some_and(|(k, _)| names.contains(&k.trim()));
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::with_capacity(text.len() + block.len());
    let mut push = |line: &str| {
        out.push_str(line);
        out.push('\n');
    };
    let mut start = 0;
    while start < lines.len() {
        // A run of comments and the weight lines under it; the run's last record is theirs.
        let comments_end = start + lines[start..].iter().take_while(|l| l.starts_with('#')).count();
        let weights_end = comments_end + lines[comments_end..].iter().take_while(|l| !l.starts_with('#')).count();
        let weight_lines = &lines[comments_end..weights_end];
        let record = lines[start..comments_end].iter().rposition(|l| l.starts_with("# Set by matches"));
        let record_replaced = !weight_lines.is_empty() && weight_lines.iter().all(|l| is_named(l));
        let comments_kept_to = match record {
            Some(at) if record_replaced => start + at,
            _ => comments_end,
        };
        lines[start..comments_kept_to].iter().for_each(|l| push(l));
        weight_lines.iter().filter(|l| !is_named(l)).for_each(|l| push(l));
        start = weights_end;
    }
    out.push_str(block);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trial(value: i32, gain: f64, error: f64) -> Trial {
        Trial { value, score: 0.5, base_alone: None, gain, error, beats_the_base: gain - error > 0.0 }
    }

    #[test]
    fn a_weight_is_named_in_its_group_and_must_be_read_by_the_game() {
        assert_eq!(weight_key(Variant::HexShogi91, "hex.threat_pct").unwrap(), "threat_pct");
        assert_eq!(weight_key(Variant::Tphs91, "king_held").unwrap(), "king_held");
        let unread = weight_key(Variant::HexShogi91, "king_held").unwrap_err().to_string();
        assert!(unread.starts_with("Hex Shogi 91's evaluation does not read `hex.king_held`"), "{unread}");
        let unknown = weight_key(Variant::Sankaku, "queen").unwrap_err().to_string();
        assert!(unknown.contains("has no weight `queen`"), "{unknown}");
        let other_group = weight_key(Variant::Sannin, "hex.pawn").unwrap_err().to_string();
        assert!(other_group.contains("is not a weight of"), "{other_group}");
    }

    #[test]
    fn the_best_value_above_the_base_with_its_interval_is_chosen() {
        let trials = [trial(60, 77.0, 35.0), trial(100, 122.0, 36.0), trial(150, 140.0, 150.0)];
        // 150 has the best estimate, but its interval reaches below the base.
        assert_eq!(choose(&trials).map(|t| t.value), Some(100));
        assert_eq!(choose(&[trial(60, 20.0, 35.0), trial(10, -56.0, 30.0)]), None);
    }

    #[test]
    fn a_few_games_all_won_do_not_make_a_sure_gain() {
        let trial = judge(7, &[1.0; 4], None).unwrap();
        assert!(trial.gain > 1000.0 && !trial.beats_the_base, "{trial:?}");
        // Many games all won do.
        let trial = judge(7, &[1.0; 400], None).unwrap();
        assert!(trial.beats_the_base, "{trial:?}");
    }

    #[test]
    fn a_three_player_gain_is_the_lead_of_the_candidate_alone_over_the_base_alone() {
        // Alone the candidate wins two games in three; alone the base wins one in three.
        let candidate = [1.0, 1.0, 0.0].repeat(100);
        let base = [1.0, 0.0, 0.0].repeat(100);
        let trial = judge(7, &candidate, Some(&base)).unwrap();
        assert!((trial.gain - 100.0 / 3.0).abs() < 1e-9, "{trial:?}");
        assert!(trial.error > 0.0 && trial.beats_the_base, "{trial:?}");
        let even = judge(7, &base, Some(&base)).unwrap();
        assert!(even.gain.abs() < 1e-9 && !even.beats_the_base, "{even:?}");
    }

    #[test]
    fn the_weight_line_and_its_earlier_block_are_replaced_and_the_rest_kept() {
        let text =
            "# fitted\nhex.gold=552\n# Set by matches: an earlier run\n#   30: …\nhex.threat_pct=60\n# by hand\nhex.control=8\n";
        let out = with_weight_line(text, "hex.threat_pct", "# Set by matches: now\nhex.threat_pct=100\n");
        assert_eq!(out, "# fitted\nhex.gold=552\n# by hand\nhex.control=8\n# Set by matches: now\nhex.threat_pct=100\n");
        // A record of several weights stays with the others, and goes when all are set again.
        let text = "# Set by matches: a run over two\nhex.threat_pct=60\nhex.control=8\n# Set by matches: gold\nhex.gold=552\n";
        let out = with_weight_line(text, "hex.threat_pct", "# Set by matches: now\nhex.threat_pct=100\n");
        assert_eq!(out, "# Set by matches: a run over two\nhex.control=8\n# Set by matches: gold\nhex.gold=552\n# Set by matches: now\nhex.threat_pct=100\n");
        let out = with_weight_lines(text, &["hex.control", "hex.threat_pct"], "# Set by matches: both\n");
        assert_eq!(out, "# Set by matches: gold\nhex.gold=552\n# Set by matches: both\n");
        // Comments above the line that are not a block of this command's stay.
        let text = "# fitted\nhex.gold=552\n# a note\nhex.threat_pct=60\n";
        let out = with_weight_line(text, "hex.threat_pct", "hex.threat_pct=100\n");
        assert_eq!(out, "# fitted\nhex.gold=552\n# a note\nhex.threat_pct=100\n");
        // A name that is a prefix of another is not confused with it.
        let out = with_weight_line("hex.gold_x=1\n", "hex.gold", "hex.gold=2\n");
        assert_eq!(out, "hex.gold_x=1\nhex.gold=2\n");
    }
}
