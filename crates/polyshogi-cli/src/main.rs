//! The `polyshogi` command: perft, legal moves, record replay, benchmarks, matches, terminal
//! play, the server and its load tool.
//! Every error ends as one `error: …` line on stderr and a non-zero exit.

mod bench;
mod external_engine;
mod match_cmd;
mod records;
mod tune;
mod tune_match;
mod tune_spsa;

use std::path::PathBuf;

use std::process::ExitCode;

use anyhow::{anyhow, bail, Result};
use clap::{Parser, Subcommand};
use polyshogi::mv::MoveList;
use polyshogi::notation::move_text;
use polyshogi::notation::play_text::play_tokens;
use polyshogi::perft::{divide, perft};
use polyshogi::variant::{AnyGame, Variant};
use polyshogi::{with_game, Game, Rules};

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
    Replay {
        record: PathBuf,
        /// Also print what each move set off (alliances, checkmates, the end).
        #[arg(long)]
        events: bool,
    },
    /// Check every move of a record; report the first bad one.
    Validate { record: PathBuf },
    /// Read a record or a position string and write it as a record, JSON or a position string.
    Convert {
        /// A file holding a record or a position string.
        input: PathBuf,
        #[arg(long, value_enum, default_value_t = records::Format::Record)]
        to: records::Format,
    },
    /// Draw the board of a position string or of a record's final position, as text or as an
    /// SVG picture (`--svg`).
    Show {
        /// A file holding a record or a position string, or a position string itself.
        input: String,
        /// Write a picture of the position to this file (SVG) instead of printing the board.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
        #[command(flatten)]
        picture: records::PictureArgs,
    },
    /// Play engines against each other: every seat order, random openings, a results table.
    Match(match_cmd::MatchArgs),
    /// Tune a variant's evaluation weights from self-play games (Texel-style) and write them as
    /// a weights file.
    Tune(tune::TuneArgs),
    /// Set one evaluation weight by playing matches: each value against the weights as they are,
    /// the best that beats them with its 95 % interval kept (and written into the weights file).
    TuneMatch(tune_match::TuneMatchArgs),
    /// Set several evaluation weights at once by playing games (SPSA): each step plays the
    /// weights moved up against them moved down and moves them towards the winner; a check
    /// match against the start decides whether the weights file is written.
    TuneSpsa(tune_spsa::TuneSpsaArgs),
    /// Play a game in the terminal against bots: type moves (Tab completes them) or pick them
    /// with the cursor; the record is saved at the end.
    Play(polyshogi_cli::play::PlayArgs),
    /// Speak the engine protocol (USI-derived, docs/PROTOCOL.md) on stdin and stdout.
    Engine,
    /// Serve the web API and the browser client (docs/API.md) until Ctrl-C.
    Serve {
        /// The address to listen on.
        #[arg(long, default_value = polyshogi_server::DEFAULT_ADDR)]
        addr: String,
        /// `sqlite:FILE` (created if missing) or `postgres://…`.
        #[arg(long, default_value = polyshogi_server::DEFAULT_DATABASE)]
        database: String,
        /// Seconds a human seat has for its first move in a game with a clock before the game
        /// is aborted.
        #[arg(long, default_value_t = polyshogi_server::DEFAULT_FIRST_MOVE_TIME.as_secs_f64())]
        first_move_seconds: f64,
        /// TCP connections open at once (WebSockets included); more are answered 503. Keep the
        /// file-descriptor limit (`ulimit -n`) above it.
        #[arg(long, default_value_t = polyshogi_server::Limits::default().max_connections)]
        max_connections: usize,
        /// Count each client by the last hop of X-Forwarded-For rather than by the TCP peer:
        /// only behind a reverse proxy that sets that header.
        #[arg(long)]
        trust_proxy: bool,
        /// No per-address limits on WebSocket messages, game creation, registrations and logins
        /// (per-seat and per-name limits stay): for `polyshogi load` and browser tests, whose
        /// every client has one address.
        #[arg(long)]
        no_address_limits: bool,
    },
    /// Drive a running server with concurrent games of random legal moves (and spectators);
    /// report accepted moves/s, latency percentiles, errors and the server's memory.
    Load(polyshogi_cli::load::LoadArgs),
    /// Measure perft speed on one core (bulk-counted leaves) over a fixed position list; with
    /// `--search` the nodes per second of every search on those positions; with `--playouts`
    /// random games from the start of every variant per second; with `--to-depth` the time the
    /// alpha-beta searches take to a fixed depth on one thread and on several.
    Bench {
        /// Perft depth from the start position (the middle-game positions use one less).
        #[arg(long, default_value_t = 4)]
        depth: u32,
        /// Time the searches instead of perft.
        #[arg(long)]
        search: bool,
        /// With `--search`: thinking time per search and position, in milliseconds.
        #[arg(long, default_value_t = 2000)]
        movetime: u64,
        /// Play random games from the start of every variant instead: games and moves per second.
        #[arg(long, conflicts_with = "search")]
        playouts: bool,
        /// With `--playouts`: seconds of random games per variant (whole games only).
        #[arg(long, default_value_t = 5.0)]
        seconds: f64,
        /// With `--playouts`: the seed of the random moves (the same seed plays the same games).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Time the alpha-beta searches of every position to a fixed depth, on one thread and
        /// on `--threads` (2 unless told), and print how many times faster the threads were.
        /// The depth is each game's own (about a second or a few on one core) unless given.
        #[arg(long, value_name = "PLIES", num_args = 0..=1, conflicts_with_all = ["search", "playouts"])]
        to_depth: Option<Option<u32>>,
        /// With `--playouts`: threads playing random games side by side, each its own games
        /// (thread i from seed + i); the line gives their sum (1 unless told). With
        /// `--to-depth`: the threads of the search timed against one (2 unless told).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: Option<u64>,
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
    restore_default_sigpipe();
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

/// Rust ignores SIGPIPE, so printing into a closed pipe (`polyshogi moves … | head`) would
/// panic; the default action ends the process quietly, as command-line tools do.
fn restore_default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in main, before any thread exists; SIG_DFL is a valid handler.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// A match writes to its external engines' pipes: one that has quit must be a failure of its
/// game (the write returns an error), not a signal that ends the whole match.
fn ignore_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called before the match starts any thread or process; SIG_IGN is a valid handler.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
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
        Command::Replay { record, events } => records::replay_command(&record, events)?,
        Command::Validate { record } => records::validate_command(&record)?,
        Command::Convert { input, to } => records::convert_command(&input, to)?,
        Command::Show { input, svg: None, .. } => records::show_command(&input)?,
        Command::Show { input, svg: Some(file), picture } => records::picture_command(&input, &file, &picture)?,
        Command::Bench { playouts: true, seconds, seed, threads, .. } => bench::run_playouts(seconds, seed, threads.unwrap_or(1)),
        Command::Bench { to_depth: Some(depth), threads, .. } => bench::run_to_depth(depth, threads.unwrap_or(2) as usize),
        Command::Bench { search: false, depth, .. } => bench::run(depth),
        Command::Bench { search: true, movetime, .. } => bench::run_search(movetime),
        Command::Match(args) => {
            if !args.externals.is_empty() {
                ignore_sigpipe();
            }
            match_cmd::run(args)?
        }
        Command::Tune(args) => tune::run(args)?,
        Command::TuneMatch(args) => tune_match::run(args)?,
        Command::TuneSpsa(args) => tune_spsa::run(args)?,
        Command::Play(args) => polyshogi_cli::play::command(&args)?,
        Command::Load(args) => polyshogi_cli::load::command(&args)?,
        Command::Engine => polyshogi_engine::protocol::run(std::io::stdin().lock(), &mut std::io::stdout())?,
        Command::Serve { addr, database, first_move_seconds, max_connections, trust_proxy, no_address_limits } => {
            let mut config = polyshogi_server::ServerConfig::new(&addr, &database);
            config.rooms.first_move_time = std::time::Duration::try_from_secs_f64(first_move_seconds)
                .map_err(|_| anyhow!("--first-move-seconds must be a number of seconds, not {first_move_seconds}"))?;
            config.limits.max_connections = max_connections;
            config.limits.trust_proxy = trust_proxy;
            if no_address_limits {
                config.limits.address_messages = None;
                config.limits.address_games = None;
                config.limits.address_registrations = None;
                config.limits.address_logins = None;
            }
            polyshogi_server::run(config)?
        }
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
    let tokens = move_text::split_move_list(moves);
    if let Some(index) = tokens.iter().position(String::is_empty) {
        bail!("move {} is empty (moves are separated by single commas)", index + 1);
    }
    play_tokens(game, tokens.iter().map(String::as_str)).map_err(|(index, e)| anyhow!("move {}: {e}", index + 1))
}
