//! The engine protocol (docs/PROTOCOL.md): USI's line protocol over stdin/stdout, extended to
//! every variant and to three players. A bad line gets `info string error: …` and changes
//! nothing.

use std::io::{BufRead, Write};
use std::time::Instant;

use polyshogi::mv::MoveList;
use polyshogi::notation::move_text;
use polyshogi::variant::{AnyGame, Variant};
use polyshogi::{with_game, Game, Rules};

use crate::choose::{EngineKind, Limits};

/// The engine's state between commands.
struct Session {
    variant: Variant,
    rules: Vec<String>,
    engine: EngineKind,
    seed: u64,
    game: AnyGame,
}

impl Session {
    fn new() -> Session {
        let variant = Variant::Sannin;
        Session {
            variant,
            rules: Vec::new(),
            engine: EngineKind::Greedy,
            seed: 0,
            game: AnyGame::new::<String>(variant, &[]).expect("the default variant starts"),
        }
    }
}

/// Runs the protocol until `quit` or the end of the input.
pub fn run(input: impl BufRead, output: &mut impl Write) -> std::io::Result<()> {
    let mut session = Session::new();
    for line in input.lines() {
        let line = line?;
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
        let reply = match command {
            "usi" => Ok(usi_reply()),
            "isready" => Ok(vec!["readyok".to_string()]),
            "setoption" => set_option(&mut session, rest).map(|()| Vec::new()),
            "usinewgame" => new_game(&session).map(|game| {
                session.game = game;
                Vec::new()
            }),
            "position" => set_position(&session, rest).map(|game| {
                session.game = game;
                Vec::new()
            }),
            "go" => go(&session, rest),
            // The simple engines answer `go` at once, so there is never a search to stop.
            "stop" => Ok(Vec::new()),
            "quit" => break,
            _ => Err(format!("unknown command `{command}`")),
        };
        let lines = reply.unwrap_or_else(|error| vec![format!("info string error: {error}")]);
        for line in lines {
            writeln!(output, "{line}")?;
        }
        output.flush()?;
    }
    Ok(())
}

fn usi_reply() -> Vec<String> {
    let variants: Vec<String> = Variant::ALL.iter().map(|v| format!("var {}", v.name())).collect();
    let engines: Vec<String> = EngineKind::ALL.iter().map(|e| format!("var {}", e.name())).collect();
    vec![
        format!("id name polyshogi {}", env!("CARGO_PKG_VERSION")),
        "id author the polyshogi developers".to_string(),
        format!("option name Variant type combo default sannin {}", variants.join(" ")),
        format!("option name Engine type combo default greedy {}", engines.join(" ")),
        "option name Seed type spin default 0 min 0 max 4294967295".to_string(),
        "option name Rule type string default <empty>".to_string(),
        "usiok".to_string(),
    ]
}

/// `setoption name <name> value <value>`.
fn set_option(session: &mut Session, rest: &str) -> Result<(), String> {
    let rest = rest.strip_prefix("name ").ok_or("expected `setoption name <name> value <value>`")?;
    let (name, value) = rest.split_once(" value ").ok_or("expected `value <value>` after the option name")?;
    let value = value.trim();
    match name.trim() {
        "Variant" => {
            let variant: Variant = value.parse().map_err(|e| format!("{e}"))?;
            let game = AnyGame::new::<String>(variant, &[]).map_err(|e| e.to_string())?;
            session.variant = variant;
            session.rules.clear();
            session.game = game;
        }
        "Engine" => {
            session.engine = EngineKind::from_name(value).ok_or_else(|| format!("unknown engine `{value}` (random, greedy)"))?;
        }
        "Seed" => session.seed = value.parse().map_err(|_| format!("`{value}` is not a seed (a whole number)"))?,
        "Rule" => {
            let mut rules = session.rules.clone();
            rules.push(value.to_string());
            let game = AnyGame::new(session.variant, &rules).map_err(|e| e.to_string())?;
            session.rules = rules;
            session.game = game;
        }
        other => return Err(format!("unknown option `{other}` (Variant, Engine, Seed, Rule)")),
    }
    Ok(())
}

fn new_game(session: &Session) -> Result<AnyGame, String> {
    AnyGame::new(session.variant, &session.rules).map_err(|e| e.to_string())
}

/// `position startpos [moves …]` or `position pos <position string> [moves …]`.
fn set_position(session: &Session, rest: &str) -> Result<AnyGame, String> {
    let (setup, moves) = match rest.split_once(" moves") {
        Some((setup, moves)) => (setup.trim(), Some(moves.trim())),
        None => (rest.trim(), None),
    };
    let mut game = if setup == "startpos" {
        new_game(session)?
    } else if let Some(text) = setup.strip_prefix("pos ") {
        let game = AnyGame::from_position_text(text.trim(), &session.rules).map_err(|e| e.to_string())?;
        if game.variant() != session.variant {
            return Err(format!("the position is {}, the variant is {}", game.variant().name(), session.variant.name()));
        }
        game
    } else {
        return Err("expected `startpos` or `pos <position string>`".to_string());
    };
    if let Some(moves) = moves {
        with_game!(&mut game, g => play_moves(g, moves))?;
    }
    Ok(game)
}

fn play_moves<P: Rules>(game: &mut Game<P>, moves: &str) -> Result<(), String> {
    let mut legal = MoveList::new();
    for (index, text) in moves.split_whitespace().enumerate() {
        if let answer @ ("accept" | "refuse") = text {
            game.answer_pending(answer == "accept").map_err(|e| format!("move {}: {e}", index + 1))?;
            continue;
        }
        game.legal_moves(&mut legal);
        let m = move_text::parse(game.position(), &legal, text).map_err(|e| format!("move {}: {e}", index + 1))?;
        game.play_unchecked(m);
    }
    Ok(())
}

/// `go` with clocks per seat (`btime`/`wtime`/`gtime`, or the seat's letter: `ftime`,
/// `mtime`, `ltime`), increments (`…inc`), `depth`, `nodes`, `movetime` or `infinite`.
fn go(session: &Session, rest: &str) -> Result<Vec<String>, String> {
    let mut limits = Limits { seed: session.seed, ..Limits::default() };
    let mut tokens = rest.split_whitespace();
    while let Some(token) = tokens.next() {
        if token == "infinite" {
            continue;
        }
        let value = tokens.next().ok_or_else(|| format!("`{token}` needs a number"))?;
        let number: u64 = value.parse().map_err(|_| format!("`{token} {value}`: not a whole number"))?;
        match token {
            "depth" => limits.depth = Some(number as u32),
            "nodes" => limits.nodes = Some(number),
            "movetime" => limits.movetime_ms = Some(number),
            _ if is_clock(token) => {}
            _ => return Err(format!("unknown `go` parameter `{token}`")),
        }
    }
    let started = Instant::now();
    let (result, best_text, letters) = with_game!(&session.game, g => {
        let result = session.engine.choose(g, &limits);
        let text = result.best.map(|m| move_text::canonical(g.position(), m));
        let letters: Vec<char> = g.position().seats().iter().map(|&p| seat_letter(g.position().seat_name(p))).collect();
        (result, text, letters)
    });
    let micros = started.elapsed().as_micros().max(1) as u64;
    let scores: Vec<String> = letters.iter().zip(&result.scores).map(|(l, s)| format!("{l} {s}")).collect();
    let mut lines = Vec::new();
    if let Some(best) = &best_text {
        lines.push(format!(
            "info depth {} nodes {} nps {} score {} pv {best}",
            result.depth,
            result.nodes,
            result.nodes * 1_000_000 / micros,
            scores.join(" ")
        ));
    }
    lines.push(format!("bestmove {}", best_text.unwrap_or_else(|| "none".to_string())));
    Ok(lines)
}

/// A seat's clock parameter: `btime`, `winc`, `ftime`, …
fn is_clock(token: &str) -> bool {
    let seat = token.strip_suffix("time").or_else(|| token.strip_suffix("inc"));
    matches!(seat, Some("b" | "w" | "g" | "f" | "m" | "l"))
}

fn seat_letter(name: &str) -> char {
    name.chars().next().unwrap_or('?')
}
