//! The `polyshogi` command: perft, legal moves, record replay and the perft benchmark.
//! Every error ends as one `error: …` line on stderr and a non-zero exit.

mod bench;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use polyshogi::mv::MoveList;
use polyshogi::notation::move_text;
use polyshogi::notation::replay::replay;
use polyshogi::outcome::{Event, Outcome};
use polyshogi::perft::{divide, perft};
use polyshogi::variant::{AnyGame, Variant};
use polyshogi::{with_game, Game, Player, Rules};

#[derive(Parser)]
#[command(name = "polyshogi", version, about = "Shogi variants on hexagonal and triangular boards")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the move sequences of a given length (perft) from a position.
    Perft {
        variant: String,
        depth: u32,
        /// One line per legal first move with the count below it.
        #[arg(long)]
        divide: bool,
        #[command(flatten)]
        position: PositionArgs,
    },
    /// List the legal moves of a position, one per line, in canonical text.
    Moves {
        variant: String,
        #[command(flatten)]
        position: PositionArgs,
    },
    /// Replay a game record, reporting its outcome or its first bad move.
    Replay { record: PathBuf },
    /// Measure perft speed on one core (bulk-counted leaves) over a fixed position list.
    Bench {
        /// Perft depth from the start position (the middle-game positions use one less).
        #[arg(long, default_value_t = 4)]
        depth: u32,
    },
}

#[derive(clap::Args)]
struct PositionArgs {
    /// Moves from the start position, comma separated (canonical or short text).
    #[arg(long, default_value = "")]
    moves: String,
    /// A rule option as key=value; repeat for several.
    #[arg(long = "rule", value_name = "KEY=VALUE")]
    rules: Vec<String>,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version
            print!("{e}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("error: {} (see `polyshogi --help`)", one_line_clap_error(&e));
            return ExitCode::from(2);
        }
    };
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Clap's message without its usage block, folded onto one line.
fn one_line_clap_error(e: &clap::Error) -> String {
    if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        return "no command given".to_string();
    }
    let rendered = e.to_string();
    let message: Vec<&str> = rendered
        .lines()
        .take_while(|line| !line.starts_with("Usage:"))
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with("tip:"))
        .collect();
    message.join(" ").trim_start_matches("error: ").to_string()
}

fn run(command: Command) -> Result<()> {
    match command {
        Command::Perft { variant, depth, divide: split, position } => {
            if split && depth == 0 {
                bail!("--divide needs a depth of at least 1");
            }
            let mut game = build_game(&variant, &position)?;
            with_game!(&mut game, g => perft_command(g, depth, split));
        }
        Command::Moves { variant, position } => {
            let game = build_game(&variant, &position)?;
            with_game!(&game, g => {
                let mut moves = MoveList::new();
                g.legal_moves(&mut moves);
                for &m in &moves {
                    println!("{}", move_text::canonical(g.position(), m));
                }
            });
        }
        Command::Replay { record } => replay_command(&record)?,
        Command::Bench { depth } => bench::run(depth),
    }
    Ok(())
}

fn perft_command<P: Rules>(game: &mut Game<P>, depth: u32, split: bool) {
    if split {
        let rows = divide(game, depth);
        let mut total = 0;
        for (m, count) in rows {
            println!("{} {count}", move_text::canonical(game.position(), m));
            total += count;
        }
        println!("total {total}");
    } else {
        println!("total {}", perft(game, depth));
    }
}

/// The game after the `--moves` list, under the `--rule` options.
fn build_game(variant: &str, args: &PositionArgs) -> Result<AnyGame> {
    let variant: Variant = variant.parse()?;
    let mut game = AnyGame::new(variant, &args.rules)?;
    with_game!(&mut game, g => play_move_list(g, &args.moves))?;
    Ok(game)
}

fn play_move_list<P: Rules>(game: &mut Game<P>, moves: &str) -> Result<()> {
    let mut legal = MoveList::new();
    for (index, text) in move_text::split_move_list(moves).iter().enumerate() {
        if text.is_empty() {
            bail!("move {} is empty (moves are separated by single commas)", index + 1);
        }
        if game.position().outcome().is_some() {
            bail!("move {} `{text}`: the game is already over", index + 1);
        }
        game.legal_moves(&mut legal);
        let m = move_text::parse(game.position(), &legal, text).with_context(|| format!("move {}", index + 1))?;
        game.play_unchecked(m);
    }
    Ok(())
}

fn replay_command(path: &PathBuf) -> Result<()> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let replay = replay(&text).with_context(|| format!("{}", path.display()))?;
    let player_name = |p: Player| with_game!(&replay.game, g => g.position().seat_name(p));
    for (index, played) in replay.played.iter().enumerate() {
        let events: Vec<String> = played.events.iter().map(|e| describe_event(e, &player_name)).collect();
        let suffix = if events.is_empty() { String::new() } else { format!("  {{{}}}", events.join("; ")) };
        println!("{:>3}. {:<6} {}{suffix}", index + 1, player_name(played.player), played.canonical);
    }
    if let Some(bad) = &replay.bad_move {
        bail!(
            "{}:{}:{}: move {} ({}) `{}`: {}",
            path.display(),
            bad.line,
            bad.column,
            bad.number,
            player_name(bad.player),
            bad.text,
            bad.error
        );
    }
    let (outcome, to_move) = with_game!(&replay.game, g => (g.position().outcome(), g.position().to_move()));
    match outcome {
        Some(outcome) => println!("result: {}", describe_outcome(outcome, &player_name)),
        None => println!("result: unfinished after {} moves, {} to move", replay.played.len(), player_name(to_move)),
    }
    Ok(())
}

fn describe_event(event: &Event, player_name: &dyn Fn(Player) -> &'static str) -> String {
    match *event {
        Event::Checkmated { player, by } => format!("{} checkmated by {}", player_name(player), player_name(by)),
        Event::Stalemated { player } => format!("{} has no legal action and is eliminated", player_name(player)),
        Event::AllianceDissolved { allies } => {
            let names: Vec<&str> = allies.iter().map(player_name).collect();
            format!("alliance {} dissolved", names.join("+"))
        }
        Event::AllianceFormed(f) | Event::AllianceProposed(f) | Event::AllianceRefused(f) => {
            let names: Vec<&str> = f.allies.iter().map(player_name).collect();
            let what = match event {
                Event::AllianceFormed(_) => "alliance",
                Event::AllianceProposed(_) => "alliance proposed",
                _ => "alliance refused",
            };
            format!("{what} {} against {} ({:?})", names.join("+"), player_name(f.against), f.cause)
        }
        Event::GameOver { outcome, placings } => {
            let places: Vec<String> =
                placings.iter().map(|(p, place)| format!("{} {place}", player_name(p))).collect();
            format!("{}; placings: {}", describe_outcome(outcome, player_name), places.join(", "))
        }
    }
}

fn describe_outcome(outcome: Outcome, player_name: &dyn Fn(Player) -> &'static str) -> String {
    match outcome {
        Outcome::Win { winner, reason } => format!("{} wins ({reason:?})", player_name(winner)),
        Outcome::Draw { players, reason } => {
            let names: Vec<&str> = players.iter().map(player_name).collect();
            format!("draw among {} ({reason:?})", names.join(", "))
        }
    }
}
