//! The record and position commands: replay, validate, convert, and show (as text or as an SVG
//! picture).

use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};
use polyshogi::notation::describe::{event_text, outcome_text, result_tag};
use polyshogi::notation::record_write::write_record;
use polyshogi::replay::{replay, BadMove, Replay};
use polyshogi::variant::AnyGame;
use polyshogi::{with_game, Event, Player, Rules};
use polyshogi_server::diagram::{seat_by_name, svg, DiagramOptions, DiagramPosition, PieceSet};
use serde_json::json;

#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum Format {
    Record,
    Json,
    Position,
}

fn read(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
}

fn replay_file(path: &Path) -> Result<Replay> {
    let text = read(path)?;
    replay(&text).with_context(|| path.display().to_string())
}

fn seat_name(game: &AnyGame, player: Player) -> &'static str {
    game.position().seat_name(player)
}

fn bad_move_error(path: &Path, game: &AnyGame, bad: &BadMove) -> anyhow::Error {
    anyhow::anyhow!(
        "{}:{}:{}: move {} ({}) `{}`: {}",
        path.display(),
        bad.line,
        bad.column,
        bad.number,
        seat_name(game, bad.player),
        bad.text,
        bad.error
    )
}

pub fn replay_command(path: &Path, show_events: bool) -> Result<()> {
    let replay = replay_file(path)?;
    for (index, played) in replay.played.iter().enumerate() {
        let events: Vec<String> =
            if show_events { played.events.iter().map(|e| event_text(replay.game.position(), e)).collect() } else { Vec::new() };
        let suffix = if events.is_empty() { String::new() } else { format!("  {{{}}}", events.join("; ")) };
        println!("{:>3}. {:<6} {}{suffix}", index + 1, seat_name(&replay.game, played.player), played.canonical);
    }
    if let Some(bad) = &replay.bad_move {
        return Err(bad_move_error(path, &replay.game, bad));
    }
    println!("result: {}", result_line(&replay));
    Ok(())
}

fn result_line(replay: &Replay) -> String {
    with_game!(&replay.game, g => {
        let pos = g.position();
        match pos.outcome() {
            Some(outcome) => outcome_text(pos, outcome),
            None => format!("unfinished after {} moves, {} to move", replay.played.len(), pos.seat_name(pos.to_move())),
        }
    })
}

pub fn validate_command(path: &Path) -> Result<()> {
    let replay = replay_file(path)?;
    if let Some(bad) = &replay.bad_move {
        return Err(bad_move_error(path, &replay.game, bad));
    }
    println!("ok: {} moves, {}", replay.played.len(), result_line(&replay));
    Ok(())
}

/// A record, or a game from a position string.
fn load(text: &str, origin: &str) -> Result<(AnyGame, Option<Replay>)> {
    if text.trim_start().starts_with('[') {
        let replay = replay(text).with_context(|| origin.to_string())?;
        if let Some(bad) = &replay.bad_move {
            bail!("{origin}:{}:{}: move {} `{}`: {}", bad.line, bad.column, bad.number, bad.text, bad.error);
        }
        Ok((replay.game.clone(), Some(replay)))
    } else {
        let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
        let game = AnyGame::from_position_text::<&str>(line, &[]).with_context(|| origin.to_string())?;
        Ok((game, None))
    }
}

pub fn convert_command(path: &Path, to: Format) -> Result<()> {
    let (game, replay) = load(&read(path)?, &path.display().to_string())?;
    let tags: Vec<(String, String)> = replay
        .as_ref()
        .map(|r| {
            r.record
                .tags
                .iter()
                .filter(|(k, _)| !matches!(k.as_str(), "Variant" | "Rules" | "Result" | "Position" | "SetupNote"))
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    match to {
        Format::Position => println!("{}", game.position_text()),
        Format::Record => {
            // A game that did not begin at the variant's start carries its start position.
            let options = with_game!(&game, g => g.start().non_default_options());
            let standard = AnyGame::new(game.variant(), &options).map(|g| g.start_text()).ok();
            let start = game.start_text();
            let position = (standard.as_deref() != Some(start.as_str())).then_some(start.as_str());
            print!("{}", with_game!(&game, g => write_record(g, &tags, position)))
        }
        Format::Json => println!("{}", serde_json::to_string_pretty(&record_json(&game, &tags, replay.as_ref()))?),
    }
    Ok(())
}

/// The JSON form of a record, as the web API serves it.
fn record_json(game: &AnyGame, tags: &[(String, String)], replay: Option<&Replay>) -> serde_json::Value {
    with_game!(game, g => {
        let pos = g.position();
        let moves: Vec<serde_json::Value> = replay
            .map(|r| {
                r.played
                    .iter()
                    .map(|m| {
                        let events: Vec<String> = m.events.iter().map(|e| event_text(pos, e)).collect();
                        json!({ "player": pos.seat_name(m.player), "move": m.canonical, "events": events })
                    })
                    .collect()
            })
            .unwrap_or_default();
        let placings = replay.and_then(|r| {
            r.played.iter().flat_map(|m| m.events.iter()).find_map(|e| match e {
                Event::GameOver { placings, .. } => Some(*placings),
                _ => None,
            })
        });
        json!({
            "variant": pos.variant().name(),
            "tags": tags.iter().cloned().collect::<std::collections::BTreeMap<String, String>>(),
            "rules": g.start().non_default_options(),
            "start": game.start_text(),
            "moves": moves,
            "result": result_tag(pos, placings),
            "outcome": pos.outcome().map(|o| outcome_text(pos, o)),
            "position": game.position_text(),
        })
    })
}

/// A record or a position string, from a file or given as it is.
fn load_input(input: &str) -> Result<(AnyGame, Option<Replay>)> {
    let (text, origin) = if Path::new(input).is_file() {
        (read(Path::new(input))?, input.to_string())
    } else if !input.trim().contains(char::is_whitespace) {
        // A mistyped file name, rather than a position string, which has several fields.
        bail!("`{input}` is neither a file nor a position string (a variant name, then its fields)")
    } else {
        (input.to_string(), "position".to_string())
    };
    load(&text, &origin)
}

pub fn show_command(input: &str) -> Result<()> {
    let (game, _) = load_input(input)?;
    print!("{}", game.diagram());
    Ok(())
}

/// How `show --svg` draws the position.
#[derive(Clone, Debug, clap::Args)]
pub struct PictureArgs {
    /// The seat at the bottom of the picture, its pieces upright (default: the first seat).
    #[arg(long, value_name = "NAME", requires = "svg")]
    seat: Option<String>,
    /// A record's position after this many moves (default: after its last; 0 is the start).
    #[arg(long, value_name = "N", requires = "svg")]
    ply: Option<usize>,
    /// What the pieces wear.
    #[arg(long, value_enum, default_value_t = Pieces::Letters, requires = "svg")]
    pieces: Pieces,
    /// Leave the empty cells without their names.
    #[arg(long, requires = "svg")]
    no_coordinates: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum Pieces {
    Letters,
    Kanji,
}

/// `show --svg FILE`: a picture of the position (a record's with its last move marked).
pub fn picture_command(input: &str, file: &Path, args: &PictureArgs) -> Result<()> {
    let (game, replay) = load_input(input)?;
    let position = match (args.ply, replay.is_some()) {
        (Some(ply), false) => bail!("--ply {ply}: a position string has no moves to count (give a record)"),
        (Some(ply), true) => DiagramPosition::after(&game, ply)
            .ok_or_else(|| anyhow!("--ply {ply}: the record has only {} moves", game.plies()))?,
        (None, true) => DiagramPosition::after(&game, game.plies()).expect("a game has a position after its last move"),
        (None, false) => DiagramPosition::current(&game, None)?,
    };
    let variant = game.variant();
    let bottom = match &args.seat {
        Some(name) => seat_by_name(variant, name).map_err(|e| anyhow!("--seat: {e}"))?,
        None => variant.seats()[0],
    };
    let mut options = DiagramOptions::new(bottom);
    options.coordinates = !args.no_coordinates;
    options.pieces = match args.pieces {
        Pieces::Letters => PieceSet::Letters,
        Pieces::Kanji => PieceSet::Kanji,
    };
    std::fs::write(file, svg(&position, &options)).with_context(|| format!("cannot write {}", file.display()))
}
