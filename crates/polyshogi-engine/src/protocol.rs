//! The engine protocol (docs/PROTOCOL.md): USI's line protocol over stdin/stdout, extended to
//! every variant and to three players. A bad line gets `info string error: …` and changes
//! nothing.
//!
//! The simple engines (`random`, `greedy`) answer `go` at once, in line. A searching engine
//! thinks on a thread of its own while commands are read: `stop` ends the search (its
//! `bestmove` follows), `isready` during `go infinite` answers at once, and any other command
//! waits for the search to end first, so replies keep their order.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::ScopedJoinHandle;
use std::time::{Duration, Instant};

use polyshogi::mv::Move;
use polyshogi::notation::move_text;
use polyshogi::notation::play_text::play_tokens;
use polyshogi::variant::{AnyGame, Variant};
use polyshogi::{with_game, Game, Rules};

use crate::choose::{EngineKind, Limits};
use crate::engine::{Engine, EngineOptions, SEARCH_STACK};
use crate::eval::{Evaluate, Weights};
use crate::levels::Level;
use crate::search::Info;
use crate::time::Clock;

/// The `Engine` option's value for the variant's strongest engine (EngineKind::best_for), the
/// default: an engine author's tool gets full strength without knowing our engines.
const BEST: &str = "best";
/// The most lines `MultiPV` asks for: each costs a search of the root's remaining moves.
pub const MAX_MULTIPV: usize = 10;
/// The most search threads `Threads` asks for.
pub const MAX_THREADS: usize = 64;

/// The engine's state between commands.
struct Session {
    variant: Variant,
    rules: Vec<String>,
    /// The engine chosen with the `Engine` option; `None` (`best`) is the variant's strongest.
    engine: Option<EngineKind>,
    level: Option<Level>,
    hash_mb: usize,
    weights: Weights,
    seed: u64,
    /// Lines per `info` report of a searching engine (`MultiPV`).
    multipv: usize,
    /// Search threads (`Threads`).
    threads: usize,
    game: AnyGame,
    /// The searching engine, kept between moves of a game (its tables carry over).
    searcher: Option<Engine>,
}

impl Session {
    fn new() -> Session {
        let variant = Variant::Sannin;
        Session {
            variant,
            rules: Vec::new(),
            engine: None,
            level: None,
            hash_mb: EngineOptions::default().hash_mb,
            weights: Weights::default(),
            seed: 0,
            multipv: 1,
            threads: 1,
            game: AnyGame::new::<String>(variant, &[]).expect("the default variant starts"),
            searcher: None,
        }
    }

    /// The engine kind `go` uses: the level's choice when a level is set, else the one chosen,
    /// else the variant's strongest.
    fn kind(&self) -> EngineKind {
        match self.level {
            Some(level) => level.settings(self.variant).kind,
            None => self.engine.unwrap_or_else(|| EngineKind::best_for(self.variant)),
        }
    }

    /// The searching engine for the next `go`, made afresh when its settings changed.
    fn take_searcher(&mut self) -> Engine {
        let kind = self.kind();
        let mut options = EngineOptions {
            hash_mb: self.hash_mb,
            weights: self.weights,
            noise_cp: 0,
            multipv: self.multipv,
            threads: self.threads,
        };
        if let Some(level) = self.level {
            options = level.options(self.variant, options);
        }
        match self.searcher.take() {
            Some(engine) if engine.kind == kind && engine.options == options => engine,
            _ => Engine::with_options(kind, options),
        }
    }

    /// The answer to `isready`: the engine of the next `go` is made now, its table too, so
    /// that the first move spends its time searching (writing a 256 MiB table takes longer
    /// than a 100 ms move).
    fn ready(&mut self) -> Vec<String> {
        if self.kind().searches() {
            let mut engine = self.take_searcher();
            engine.prepare();
            self.searcher = Some(engine);
        }
        vec!["readyok".to_string()]
    }
}

/// A search running on its own thread.
struct Running<'scope> {
    handle: ScopedJoinHandle<'scope, Engine>,
    stop: Arc<AtomicBool>,
    infinite: bool,
}

/// The longest line read, without its line end: a `position` with ten thousand moves fits
/// several times over.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// The next line of the input, with its line end, or what is wrong with it. None at the end
/// of the input. A line over `MAX_LINE_BYTES` is read to its end and refused. (`polyshogi match`
/// reads external engines' replies with it too.)
pub fn next_line(input: &mut impl BufRead) -> std::io::Result<Option<Result<String, String>>> {
    let mut bytes = Vec::new();
    if std::io::Read::take(&mut *input, MAX_LINE_BYTES as u64 + 1).read_until(b'\n', &mut bytes)? == 0 {
        return Ok(None);
    }
    if bytes.len() > MAX_LINE_BYTES && bytes.last() != Some(&b'\n') {
        input.skip_until(b'\n')?;
        return Ok(Some(Err(format!("the line is longer than {MAX_LINE_BYTES} bytes"))));
    }
    Ok(Some(String::from_utf8(bytes).map_err(|_| "the line is not UTF-8 text".to_string())))
}

/// Runs the protocol until `quit` or the end of the input.
pub fn run<W: Write + Send>(mut input: impl BufRead, output: &mut W) -> std::io::Result<()> {
    let output = Mutex::new(output);
    std::thread::scope(|scope| -> std::io::Result<()> {
        let mut session = Session::new();
        let mut running: Option<Running<'_>> = None;
        let write_lines = |lines: &[String]| -> std::io::Result<()> {
            let mut out = output.lock().unwrap_or_else(|e| e.into_inner());
            for line in lines {
                writeln!(out, "{line}")?;
            }
            out.flush()
        };
        while let Some(line) = next_line(&mut input)? {
            let line = match line {
                Ok(line) => line,
                Err(error) => {
                    write_lines(&[format!("info string error: {error}")])?;
                    continue;
                }
            };
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
            // Commands that act on a running search.
            if let Some(search) = running.take() {
                match command {
                    "stop" | "quit" => search.stop.store(true, Ordering::Relaxed),
                    "isready" if search.infinite => {
                        write_lines(&["readyok".to_string()])?;
                        running = Some(search);
                        continue;
                    }
                    _ => {}
                }
                session.searcher = Some(search.handle.join().unwrap_or_else(|_| Engine::new(EngineKind::Greedy)));
                if command == "stop" {
                    continue;
                }
            }
            let reply = match command {
                "usi" => Ok(usi_reply()),
                "isready" => Ok(session.ready()),
                "setoption" => set_option(&mut session, rest).map(|()| Vec::new()),
                "usinewgame" => new_game(&session).map(|game| {
                    session.game = game;
                    if let Some(engine) = &mut session.searcher {
                        engine.new_game();
                    }
                    Vec::new()
                }),
                "position" => set_position(&session, rest).map(|game| {
                    session.game = game;
                    Vec::new()
                }),
                "go" => match parse_go(&session, rest) {
                    Err(e) => Err(e),
                    Ok(limits) if !session.kind().searches() => Ok(go_at_once(&session, &limits)),
                    Ok(limits) => {
                        let stop = Arc::new(AtomicBool::new(false));
                        let mut engine = session.take_searcher();
                        let game = session.game.clone();
                        let level = session.level;
                        let flag = Arc::clone(&stop);
                        let output = &output;
                        let handle = std::thread::Builder::new()
                            .name("search".to_string())
                            .stack_size(SEARCH_STACK)
                            .spawn_scoped(scope, move || {
                                let lines = with_game!(&game, g => search_lines(g, &mut engine, limits, level, &flag, output));
                                // `go infinite` answers only when stopped.
                                while limits.infinite && !flag.load(Ordering::Relaxed) {
                                    std::thread::sleep(Duration::from_millis(2));
                                }
                                let mut out = output.lock().unwrap_or_else(|e| e.into_inner());
                                for line in lines {
                                    let _ = writeln!(out, "{line}");
                                }
                                let _ = out.flush();
                                engine
                            })?;
                        running = Some(Running { handle, stop, infinite: limits.infinite });
                        Ok(Vec::new())
                    }
                },
                // Nothing is searching (a running search was handled above).
                "stop" => Ok(Vec::new()),
                "quit" => break,
                _ => Err(format!("unknown command `{command}`")),
            };
            let lines = reply.unwrap_or_else(|error| vec![format!("info string error: {error}")]);
            write_lines(&lines)?;
        }
        // The input ended (or `quit`): a search still running is stopped and answers.
        if let Some(search) = running.take() {
            search.stop.store(true, Ordering::Relaxed);
            let _ = search.handle.join();
        }
        Ok(())
    })
}

fn usi_reply() -> Vec<String> {
    let variants: Vec<String> = Variant::ALL.iter().map(|v| format!("var {}", v.name())).collect();
    let engines: Vec<String> = EngineKind::ALL.iter().map(|e| format!("var {}", e.name())).collect();
    let levels: Vec<String> = Level::ALL.iter().map(|l| format!("var {}", l.name())).collect();
    vec![
        format!("id name polyshogi {}", env!("CARGO_PKG_VERSION")),
        "id author the polyshogi developers".to_string(),
        format!("option name Variant type combo default sannin {}", variants.join(" ")),
        format!("option name Engine type combo default {BEST} var {BEST} {}", engines.join(" ")),
        "option name Seed type spin default 0 min 0 max 4294967295".to_string(),
        "option name Rule type string default <empty>".to_string(),
        format!("option name Level type combo default <none> {}", levels.join(" ")),
        format!("option name Hash type spin default {} min 1 max 4096", EngineOptions::default().hash_mb),
        "option name Weight type string default <empty>".to_string(),
        format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"),
        format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"),
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
            let names: Vec<&str> = EngineKind::ALL.iter().map(|k| k.name()).collect();
            session.engine = match value {
                BEST => None,
                _ => Some(
                    EngineKind::from_name(value)
                        .ok_or_else(|| format!("unknown engine `{value}` ({BEST}, {})", names.join(", ")))?,
                ),
            };
            session.level = None;
        }
        "Level" => {
            let names: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
            session.level =
                Some(Level::from_name(value).ok_or_else(|| format!("unknown level `{value}` ({})", names.join(", ")))?);
        }
        "Hash" => {
            let mb: usize = value.parse().map_err(|_| format!("`{value}` is not a size in MiB"))?;
            if !(1..=4096).contains(&mb) {
                return Err(format!("hash size {mb} MiB is out of range (1..4096)"));
            }
            session.hash_mb = mb;
        }
        "Weight" => {
            let mut weights = session.weights;
            weights.set(value)?;
            session.weights = weights;
        }
        "MultiPV" => {
            let lines: usize = value.parse().map_err(|_| format!("`{value}` is not a number of lines"))?;
            if !(1..=MAX_MULTIPV).contains(&lines) {
                return Err(format!("MultiPV {lines} is out of range (1..{MAX_MULTIPV})"));
            }
            session.multipv = lines;
        }
        "Threads" => {
            let threads: usize = value.parse().map_err(|_| format!("`{value}` is not a number of threads"))?;
            if !(1..=MAX_THREADS).contains(&threads) {
                return Err(format!("Threads {threads} is out of range (1..{MAX_THREADS})"));
            }
            session.threads = threads;
        }
        "Seed" => session.seed = value.parse().map_err(|_| format!("`{value}` is not a seed (a whole number)"))?,
        "Rule" => {
            let mut rules = session.rules.clone();
            rules.push(value.to_string());
            let game = AnyGame::new(session.variant, &rules).map_err(|e| e.to_string())?;
            session.rules = rules;
            session.game = game;
        }
        other => {
            return Err(format!("unknown option `{other}` (Variant, Engine, Seed, Rule, Level, Hash, Weight, MultiPV, Threads)"))
        }
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
    play_tokens(game, moves.split_whitespace()).map_err(|(index, e)| format!("move {}: {e}", index + 1))
}

/// `go` with clocks per seat (`btime`/`wtime`/`gtime`, or the seat's letter: `ftime`,
/// `mtime`, `ltime`), increments (`…inc`), `movestogo`, `depth`, `nodes`, `movetime` or
/// `infinite`. The clock of the seat to move becomes the search's clock.
fn parse_go(session: &Session, rest: &str) -> Result<Limits, String> {
    let mut limits = Limits { seed: session.seed, ..Limits::default() };
    let mut times: [Option<u64>; 3] = [None; 3];
    let mut increments = [0u64; 3];
    let mut moves_to_go = None;
    let mut tokens = rest.split_whitespace();
    while let Some(token) = tokens.next() {
        if token == "infinite" {
            limits.infinite = true;
            continue;
        }
        let value = tokens.next().ok_or_else(|| format!("`{token}` needs a number"))?;
        let number: u64 = value.parse().map_err(|_| format!("`{token} {value}`: not a whole number"))?;
        match token {
            "depth" => limits.depth = Some(number as u32),
            "nodes" => limits.nodes = Some(number),
            "movetime" => limits.movetime_ms = Some(number),
            "movestogo" => moves_to_go = Some(number as u32),
            _ => match clock_seat(token) {
                Some((seat, false)) => times[seat] = Some(number),
                Some((seat, true)) => increments[seat] = number,
                None => return Err(format!("unknown `go` parameter `{token}`")),
            },
        }
    }
    let mover = session.game.position().to_move().index();
    if let Some(time_left_ms) = times[mover] {
        limits.clock = Some(Clock { time_left_ms, increment_ms: increments[mover], moves_to_go });
    }
    Ok(limits)
}

/// A seat's clock parameter: `btime`, `winc`, `ftime`, … as (seat index, is increment).
/// Black/First is seat 0, White/Middle seat 1, Gray/Last seat 2.
fn clock_seat(token: &str) -> Option<(usize, bool)> {
    let (seat, increment) = match token.strip_suffix("time") {
        Some(seat) => (seat, false),
        None => (token.strip_suffix("inc")?, true),
    };
    let index = match seat {
        "b" | "f" => 0,
        "w" | "m" => 1,
        "g" | "l" => 2,
        _ => return None,
    };
    Some((index, increment))
}

/// The simple engines: they answer at once, on the protocol's own thread.
fn go_at_once(session: &Session, limits: &Limits) -> Vec<String> {
    let started = Instant::now();
    let (result, best_text, letters) = with_game!(&session.game, g => {
        let result = session.kind().choose(g, limits);
        let text = result.best.map(|m| move_text::canonical(g.position(), m));
        (result, text, seat_letters(g.position()))
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
    lines
}

/// Runs a search, writing an `info` line per iteration as it goes; returns the final lines
/// (the `bestmove`).
fn search_lines<P: Evaluate, W: Write + Send>(
    game: &Game<P>,
    engine: &mut Engine,
    limits: Limits,
    level: Option<Level>,
    stop: &AtomicBool,
    output: &Mutex<&mut W>,
) -> Vec<String> {
    let pos = game.position();
    let limits = match level {
        Some(level) => level.limits(pos.variant(), &limits),
        None => limits,
    };
    let letters = seat_letters(pos);
    let numbered = engine.options.multipv > 1;
    let mut on_info = |info: &Info| {
        let line = info_line(pos, &letters, info, numbered);
        let mut out = output.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    };
    let result = engine.think(game, &limits, stop, &mut on_info);
    let best = result.best.map(|m| move_text::canonical(pos, m)).unwrap_or_else(|| "none".to_string());
    vec![format!("bestmove {best}")]
}

/// `info depth … seldepth … [multipv …] nodes … nps … time … score <seat> <cp> … pv …`;
/// `multipv` is written only when several lines were asked for (`numbered`).
fn info_line<P: Rules>(pos: &P, letters: &[char], info: &Info, numbered: bool) -> String {
    let nps = info.nodes * 1000 / info.time_ms.max(1);
    let scores: Vec<String> = letters.iter().zip(&info.scores).map(|(l, s)| format!("{l} {s}")).collect();
    let line = if numbered { format!(" multipv {}", info.multipv) } else { String::new() };
    format!(
        "info depth {} seldepth {}{line} nodes {} nps {nps} time {} score {} pv {}",
        info.depth,
        info.seldepth,
        info.nodes,
        info.time_ms,
        scores.join(" "),
        pv_text(pos, &info.pv)
    )
}

/// A principal variation in canonical move text, each move read in its own position.
pub fn pv_text<P: Rules>(pos: &P, pv: &[Move]) -> String {
    let mut at = pos.clone();
    let mut texts = Vec::with_capacity(pv.len());
    for &m in pv {
        if at.outcome().is_some() {
            break;
        }
        texts.push(move_text::canonical(&at, m));
        at = crate::search::child(&at, m);
    }
    texts.join(" ")
}

fn seat_letters<P: Rules>(pos: &P) -> Vec<char> {
    pos.seats().iter().map(|&p| seat_letter(pos.seat_name(p))).collect()
}

fn seat_letter(name: &str) -> char {
    name.chars().next().unwrap_or('?')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `isready` leaves the engine the next `go` takes with its table made, at the size set.
    #[test]
    fn isready_makes_the_table_of_the_next_search() {
        let mut session = Session::new();
        for mb in [2, 3] {
            set_option(&mut session, &format!("name Hash value {mb}")).expect("a valid size");
            assert_eq!(session.ready(), ["readyok"]);
            let engine = session.take_searcher();
            assert_eq!(engine.table_megabytes(), Some(mb));
            session.searcher = Some(engine);
        }
    }
}
