//! An engine of another program, played over the engine protocol (docs/PROTOCOL.md): what
//! `polyshogi match --external` starts, so that one build can play another, or an engine
//! author's program can play ours. One process per seat and game; it is told the variant, the
//! rules and its options once, then the whole move list and a `go` for every move.

use std::io::{BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use polyshogi::notation::move_text;
use polyshogi::variant::Variant;
use polyshogi::{Game, Rules};
use polyshogi_engine::protocol::next_line;

/// How many of an engine's lines may wait to be read; an engine that writes more waits.
const LINES_QUEUED: usize = 1024;
/// How long an engine may take to answer `usi` and `isready` when it starts.
const START_WAIT: Duration = Duration::from_secs(30);

/// An external engine as `--external NAME=COMMAND` and `--external-option NAME:OPTION=VALUE`
/// give it.
#[derive(Clone, Debug)]
pub struct ExternalSpec {
    pub name: String,
    /// The program and its arguments (the command split at spaces; no quoting).
    pub command: Vec<String>,
    /// Options sent with `setoption` after the variant and the rules, in the order given.
    pub options: Vec<(String, String)>,
}

impl ExternalSpec {
    /// Reads `NAME=COMMAND`.
    pub fn parse(text: &str) -> Result<ExternalSpec> {
        let Some((name, command)) = text.split_once('=') else {
            bail!("--external `{text}` is not of the form NAME=COMMAND");
        };
        let name = name.trim();
        if name.is_empty() || name.contains(',') || name.contains(char::is_whitespace) {
            bail!("--external `{text}`: the name must be one word without commas");
        }
        let command: Vec<String> = command.split_whitespace().map(str::to_string).collect();
        if command.is_empty() {
            bail!("--external `{text}` gives no command");
        }
        Ok(ExternalSpec { name: name.to_string(), command, options: Vec::new() })
    }

    /// Adds `NAME:OPTION=VALUE` to the spec of that name in `specs`.
    pub fn add_option(specs: &mut [ExternalSpec], text: &str) -> Result<()> {
        let parsed = text.split_once(':').and_then(|(name, rest)| rest.split_once('=').map(|(o, v)| (name, o, v)));
        let Some((name, option, value)) = parsed else {
            bail!("--external-option `{text}` is not of the form NAME:OPTION=VALUE");
        };
        let Some(spec) = specs.iter_mut().find(|s| s.name == name.trim()) else {
            bail!("--external-option `{text}`: no --external engine is named `{}`", name.trim());
        };
        spec.options.push((option.trim().to_string(), value.trim().to_string()));
        Ok(())
    }
}

/// Why an engine lost a game without the rules ending it.
#[derive(Debug)]
pub struct Forfeit {
    /// What the match's table counts (`illegal move`).
    pub ending: &'static str,
    /// The particulars, for the record's `Termination`.
    pub detail: String,
}

impl Forfeit {
    fn new(ending: &'static str, detail: impl Into<String>) -> Forfeit {
        Forfeit { ending, detail: detail.into() }
    }
}

/// A line from the engine, or why there are no more.
enum Line {
    Text(String),
    /// What is wrong with a line (too long, not UTF-8).
    Bad(String),
    End,
}

/// A running engine process.
pub struct ExternalEngine {
    child: Child,
    input: ChildStdin,
    lines: Receiver<Line>,
}

impl ExternalEngine {
    /// Starts the engine and sets it up: `usi`, the variant, each rule option, `Hash`, `Threads`
    /// when above one, the spec's options, then `isready`. A refused option or a silent engine is
    /// an error: the match cannot be played as asked.
    pub fn start(spec: &ExternalSpec, variant: Variant, rules: &[String], hash_mb: usize, threads: usize) -> Result<Self> {
        let mut child = Command::new(&spec.command[0])
            .args(&spec.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start the engine {} (`{}`)", spec.name, spec.command.join(" ")))?;
        let input = child.stdin.take().expect("stdin is piped");
        let output = child.stdout.take().expect("stdout is piped");
        let (sender, lines) = mpsc::sync_channel(LINES_QUEUED);
        std::thread::spawn(move || read_lines(output, &sender));
        let mut engine = ExternalEngine { child, input, lines };
        let mut options = vec![("Variant".to_string(), variant.name().to_string())];
        options.extend(rules.iter().map(|rule| ("Rule".to_string(), rule.clone())));
        options.push(("Hash".to_string(), hash_mb.to_string()));
        if threads > 1 {
            options.push(("Threads".to_string(), threads.to_string()));
        }
        options.extend(spec.options.iter().cloned());
        let deadline = Instant::now() + START_WAIT;
        let result = (|| {
            engine.send("usi")?;
            engine.read_until("usiok", deadline)?;
            for (option, value) in &options {
                engine.send(&format!("setoption name {option} value {value}"))?;
            }
            engine.send("isready")?;
            engine.read_until("readyok", deadline)
        })();
        result.map_err(|f| anyhow::anyhow!("the engine {} did not start: {}", spec.name, f.detail))?;
        Ok(engine)
    }

    /// Asks for a move: `position startpos moves …` with `moves` (the game's tokens so far),
    /// then `go` with `go_args`, and reads up to `bestmove`, waiting until `wait` has passed.
    /// Returns the move's text as the engine wrote it.
    pub fn best_move(&mut self, moves: &[String], go_args: &str, wait: Duration) -> Result<String, Forfeit> {
        let deadline = Instant::now() + wait;
        let position = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        self.send(&position)?;
        self.send(&format!("go {go_args}"))?;
        let reply = self.read_until("bestmove", deadline)?;
        match reply.split_whitespace().nth(1) {
            Some("none") | None => Err(Forfeit::new("no move", "answered `bestmove none` with moves to play")),
            Some(text) => Ok(text.to_string()),
        }
    }

    fn send(&mut self, line: &str) -> Result<(), Forfeit> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|e| Forfeit::new("engine stopped", format!("cannot be written to ({e})")))
    }

    /// Reads lines up to the first whose first word is `word`, and returns it. An
    /// `info string error:` line before it means that a command was refused.
    fn read_until(&mut self, word: &str, deadline: Instant) -> Result<String, Forfeit> {
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(wait) {
                Ok(Line::Text(line)) => line,
                Ok(Line::Bad(error)) => return Err(Forfeit::new("engine error", format!("wrote a bad line: {error}"))),
                Ok(Line::End) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(Forfeit::new("engine stopped", format!("stopped before `{word}`")));
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(Forfeit::new("lost on time", format!("sent no `{word}` in time")));
                }
            };
            if let Some(error) = line.strip_prefix("info string error:") {
                return Err(Forfeit::new("engine error", format!("refused a command:{error}")));
            }
            if line.split_whitespace().next() == Some(word) {
                return Ok(line);
            }
        }
    }
}

impl Drop for ExternalEngine {
    fn drop(&mut self) {
        // The game is over, and nothing the engine would still do matters: it is not asked to
        // quit and waited for, but stopped.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends the engine's output line by line until it ends or a line is bad.
fn read_lines(output: impl Read, sender: &mpsc::SyncSender<Line>) {
    let mut reader = BufReader::new(output);
    loop {
        let line = match next_line(&mut reader) {
            Ok(Some(Ok(text))) => Line::Text(text.trim().to_string()),
            Ok(Some(Err(error))) => Line::Bad(error),
            Ok(None) | Err(_) => Line::End,
        };
        let last = !matches!(line, Line::Text(_));
        if sender.send(line).is_err() || last {
            return;
        }
    }
}

/// The game's moves and answers to proposed alliances as `position … moves` lists them, from
/// its start.
pub fn protocol_moves<P: Rules>(game: &Game<P>) -> Vec<String> {
    let mut replay = Game::new(game.start().clone());
    let mut decisions = game.decisions().iter().peekable();
    let mut tokens = Vec::new();
    for played in 0..=game.moves().len() {
        while let Some(&(_, accept)) = decisions.next_if(|(after, _)| *after == played) {
            tokens.push(if accept { "accept" } else { "refuse" }.to_string());
            let _ = replay.answer_pending(accept);
        }
        if let Some(&m) = game.moves().get(played) {
            tokens.push(move_text::canonical(replay.position(), m));
            replay.play_unchecked(m);
        }
    }
    tokens
}
