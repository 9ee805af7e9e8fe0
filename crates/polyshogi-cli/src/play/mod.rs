//! `polyshogi play`: a game in the terminal against bots, or between people at one keyboard:
//! the arguments, the terminal and its event loop. The game itself is `app::App`, which
//! `view::draw` draws; neither needs a real terminal, so tests drive them on ratatui's
//! `TestBackend`.

pub mod app;
pub mod board;
pub mod bots;
pub mod clocks;
pub mod input;
pub mod moves;
pub mod view;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{bail, Context, Result};
use polyshogi::player::Player;
use polyshogi::variant::Variant;
use polyshogi_engine::Level;
use polyshogi_server::record::date_tag;
use ratatui::crossterm::event::{self, Event};
use ratatui::DefaultTerminal;

use crate::time_control::parse_clock;
use app::{App, PlaySetup, SeatKind};
use clocks::TimeControl;

/// Plays a game in the terminal.
#[derive(clap::Args, Debug, Clone)]
pub struct PlayArgs {
    /// The game: sannin, hexshogi91, tphs91 or sankaku.
    pub variant: String,
    /// The seats you play, by name or letter (`White`, `w`), comma separated or repeated; the
    /// first seat when not given. Several seats: people take turns at one keyboard.
    #[arg(long, value_delimiter = ',')]
    pub seat: Vec<String>,
    /// The bots' playing levels for the other seats, in seat order (beginner, easy, medium,
    /// hard, expert, max); the last level given plays every seat left. Default: easy.
    #[arg(long, value_delimiter = ',')]
    pub bots: Vec<String>,
    /// A clock per player: `<minutes>+<increment seconds>`, e.g. `10+5`. No clock when not
    /// given. A player whose time runs out loses.
    #[arg(long)]
    pub clock: Option<String>,
    /// A rule option as key=value; repeat for several.
    #[arg(long = "rule", value_name = "KEY=VALUE")]
    pub rules: Vec<String>,
    /// Where to write the game's record when it ends or you quit (default
    /// `polyshogi-<variant>-<date>-<time>.psn` in the current folder, date and time in UTC).
    #[arg(long)]
    pub record: Option<PathBuf>,
    /// Seeds the bots' choices, to play a game again (default: from the time).
    #[arg(long)]
    pub seed: Option<u64>,
}

pub fn command(args: &PlayArgs) -> Result<()> {
    let mut app = App::new(setup(args)?)?;
    // Checked before the terminal library starts: behind a pipe it would open the controlling
    // terminal, and take over the screen of whoever ran the command in a script.
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        bail!("cannot open the terminal: `polyshogi play` needs its input and output on one");
    }
    let mut terminal = ratatui::try_init().context("cannot open the terminal")?;
    let played = run(&mut terminal, &mut app);
    ratatui::restore();
    played?;
    if let Some(outcome) = app.outcome_text() {
        println!("{outcome}");
    }
    match app.saved_record() {
        Some(path) => println!("record: {}", path.display()),
        None => bail!("the record could not be written: {}", app.message().map_or("", |m| m.text.as_str())),
    }
    Ok(())
}

/// Draws, then waits for a key at most a tenth of a second, so that the clocks tick and the
/// bots' moves show between keys.
fn run(terminal: &mut DefaultTerminal, app: &mut App) -> Result<()> {
    while !app.should_quit() {
        terminal.draw(|frame| view::draw(frame, app))?;
        if event::poll(Duration::from_millis(100))? {
            if let Event::Key(key) = event::read()? {
                app.handle_key(key);
            }
        }
        app.update();
    }
    Ok(())
}

/// The game the arguments ask for.
pub fn setup(args: &PlayArgs) -> Result<PlaySetup> {
    let variant: Variant = args.variant.parse()?;
    let seats = variant.seats();
    let mut humans: Vec<Player> = Vec::new();
    for name in &args.seat {
        let name = name.trim();
        let seat = seats.iter().copied().find(|&s| {
            let seat_name = variant.seat_name(s);
            seat_name.eq_ignore_ascii_case(name) || (name.len() == 1 && seat_name[..1].eq_ignore_ascii_case(name))
        });
        match seat {
            Some(seat) => humans.push(seat),
            None => {
                let names: Vec<&str> = seats.iter().map(|&s| variant.seat_name(s)).collect();
                bail!("`{name}` is not a seat of {} (seats: {})", variant.title(), names.join(", "));
            }
        }
    }
    if humans.is_empty() {
        humans.push(seats[0]);
    }
    let mut levels = Vec::new();
    for name in &args.bots {
        let level = Level::from_name(name.trim()).with_context(|| {
            let known: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
            format!("unknown bot level `{}` (levels: {})", name.trim(), known.join(", "))
        })?;
        levels.push(level);
    }
    let bot_seats = seats.iter().filter(|s| !humans.contains(s)).count();
    if levels.len() > bot_seats {
        bail!("{} bot levels given for {bot_seats} bot seats", levels.len());
    }
    let mut next_level = levels.iter().copied();
    let mut last = *levels.last().unwrap_or(&Level::DEFAULT);
    let kinds = seats
        .iter()
        .map(|seat| {
            if humans.contains(seat) {
                SeatKind::Human
            } else {
                last = next_level.next().unwrap_or(last);
                SeatKind::Bot(last)
            }
        })
        .collect();
    let clock =
        args.clock.as_deref().map(parse_clock).transpose()?.map(|(base, increment)| TimeControl {
            base: Duration::from_millis(base),
            increment: Duration::from_millis(increment),
        });
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    let record_path = args.record.clone().unwrap_or_else(|| {
        let seconds = now.as_secs() % 86_400;
        let time = format!("{:02}{:02}{:02}", seconds / 3600, seconds / 60 % 60, seconds % 60);
        let date = date_tag(now.as_millis() as i64).replace('.', "-");
        PathBuf::from(format!("polyshogi-{}-{date}-{time}.psn", variant.name()))
    });
    Ok(PlaySetup {
        variant,
        rules: args.rules.clone(),
        seats: kinds,
        clock,
        seed: args.seed.unwrap_or(now.as_nanos() as u64),
        record_path,
        player_name: std::env::var("USER").ok().filter(|n| !n.is_empty()).unwrap_or_else(|| "player".to_string()),
    })
}
