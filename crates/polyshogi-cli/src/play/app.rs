//! A terminal game without the terminal: the game table, who plays each seat (people, bots),
//! the clocks, the move line with its completion, the cursor and the questions waiting for a
//! key. It takes key presses and bot replies; `view::draw` draws it.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{bail, Context, Result};
use polyshogi::mv::Move;
use polyshogi::notation::record_write::write_record;
use polyshogi::piece::Role;
use polyshogi::player::Player;
use polyshogi::variant::{AnyGame, Variant};
use polyshogi::{with_game, Cell, Rules};
use polyshogi_engine::{Level, Limits};
use polyshogi_server::record::date_tag;
use polyshogi_server::table::{Action, EntryKind, LogEntry, Refusal, Table};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind};

use super::board::TextBoard;
use super::bots::{BotReply, BotRequest, BotWorker};
use super::clocks::{Clocks, TimeControl};
use super::input::{self, Command};
use super::moves::{self, LegalMove};

/// Who plays a seat.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SeatKind {
    Human,
    Bot(Level),
}

/// Everything a game starts from.
#[derive(Clone, Debug)]
pub struct PlaySetup {
    pub variant: Variant,
    /// Rule options as `key=value`.
    pub rules: Vec<String>,
    /// Who plays each seat, in seat order.
    pub seats: Vec<SeatKind>,
    pub clock: Option<TimeControl>,
    /// Seeds the bots' choices, so that a game can be played again.
    pub seed: u64,
    /// Where the record is written when the game ends or the player quits.
    pub record_path: PathBuf,
    /// The name the record gives the people's seats.
    pub player_name: String,
}

/// A question on screen, waiting for a key.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Question {
    Quit,
    Resign(Player),
    /// The cursor's move may promote or not.
    Promotion {
        from: Cell,
        to: Cell,
    },
    /// Which piece of the hand to drop on `to`.
    Drop {
        to: Cell,
        letters: Vec<char>,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Tone {
    Info,
    Error,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Message {
    pub tone: Tone,
    pub text: String,
}

/// One line of the move list: an entry of the game's log, with its ply for a move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LogLine {
    pub ply: Option<usize>,
    pub entry: LogEntry,
}

pub struct App {
    setup: PlaySetup,
    table: Table,
    board: TextBoard,
    /// The legal moves while a person is to move; empty otherwise.
    legal: Vec<LegalMove>,
    line: String,
    /// Tab pressed again among several candidates: the text they were found for and the one
    /// shown.
    cycle: Option<(String, usize)>,
    cursor: Cell,
    selected: Option<Cell>,
    question: Option<Question>,
    help: bool,
    message: Option<Message>,
    log: Vec<LogLine>,
    clocks: Option<Clocks>,
    bots: BotWorker,
    /// The bot seat whose move is being thought about.
    thinking: Option<Player>,
    /// Actions applied so far: a bot's reply to an older position is dropped.
    generation: u64,
    /// The record written last and the action count it holds.
    saved: Option<(PathBuf, u64)>,
    quit: bool,
}

impl App {
    pub fn new(setup: PlaySetup) -> Result<App> {
        let table = Table::new(setup.variant, &setup.rules)?;
        let seats = setup.variant.seats();
        if setup.seats.len() != seats.len() {
            bail!("{} has {} seats, not {}", setup.variant.title(), seats.len(), setup.seats.len());
        }
        // The first person's seat at the bottom, as the browser client turns the board.
        let bottom = setup.seats.iter().position(|&kind| kind == SeatKind::Human).unwrap_or(0);
        let board = TextBoard::new(&table.game().layout(), bottom);
        let cursor = board.centre();
        let clocks = setup.clock.map(Clocks::new);
        let bots = BotWorker::spawn().context("cannot start the bots' thread")?;
        let mut app = App {
            setup,
            table,
            board,
            legal: Vec::new(),
            line: String::new(),
            cycle: None,
            cursor,
            selected: None,
            question: None,
            help: false,
            message: None,
            log: Vec::new(),
            clocks,
            bots,
            thinking: None,
            generation: 0,
            saved: None,
            quit: false,
        };
        app.settle(Instant::now());
        Ok(app)
    }

    // ----- what the screen shows -----

    pub fn game(&self) -> &AnyGame {
        self.table.game()
    }

    pub fn variant(&self) -> Variant {
        self.setup.variant
    }

    pub fn board(&self) -> &TextBoard {
        &self.board
    }

    pub fn seats(&self) -> &'static [Player] {
        self.setup.variant.seats()
    }

    pub fn seat_kind(&self, seat: Player) -> SeatKind {
        let index = self.seats().iter().position(|&s| s == seat).expect("a seat of the game");
        self.setup.seats[index]
    }

    pub fn seat_name(&self, seat: Player) -> &'static str {
        self.table.seat_name(seat)
    }

    /// `you` or `easy bot`.
    pub fn player_text(&self, seat: Player) -> String {
        match self.seat_kind(seat) {
            SeatKind::Human => "you".to_string(),
            SeatKind::Bot(level) => format!("{} bot", level.name()),
        }
    }

    pub fn line(&self) -> &str {
        &self.line
    }

    pub fn message(&self) -> Option<&Message> {
        self.message.as_ref()
    }

    pub fn question(&self) -> Option<&Question> {
        self.question.as_ref()
    }

    pub fn help_shown(&self) -> bool {
        self.help
    }

    pub fn log(&self) -> &[LogLine] {
        &self.log
    }

    pub fn cursor(&self) -> Cell {
        self.cursor
    }

    pub fn selected(&self) -> Option<Cell> {
        self.selected
    }

    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// The bot seat thinking now.
    pub fn thinking(&self) -> Option<Player> {
        self.thinking
    }

    pub fn is_over(&self) -> bool {
        self.table.is_over()
    }

    /// How the game ended, in words.
    pub fn outcome_text(&self) -> Option<String> {
        self.table.outcome_text()
    }

    /// The record written last.
    pub fn saved_record(&self) -> Option<&Path> {
        self.saved.as_ref().map(|(path, _)| path.as_path())
    }

    /// The person's seat to move, if a person is to move.
    pub fn human_to_move(&self) -> Option<Player> {
        self.table.clock_runner().filter(|&seat| self.seat_kind(seat) == SeatKind::Human)
    }

    /// The person's seat asked to accept or refuse a proposed alliance.
    pub fn alliance_question(&self) -> Option<Player> {
        self.table.pending_answers().iter().find(|&seat| self.seat_kind(seat) == SeatKind::Human)
    }

    /// `seat`'s time left, in a game with a clock.
    pub fn clock_left(&self, seat: Player) -> Option<Duration> {
        self.clocks.as_ref().map(|clocks| clocks.left(seat, Instant::now()))
    }

    pub fn is_in(&self, seat: Player) -> bool {
        self.table.active(seat)
    }

    pub fn in_check(&self, seat: Player) -> bool {
        let position = self.game().position();
        !self.is_over() && self.is_in(seat) && position.in_check(seat)
    }

    /// `seat`'s pieces in hand, as records write them (`B 2P`), or `-`.
    pub fn hand_text(&self, seat: Player) -> String {
        let pieces: Vec<String> = with_game!(self.game(), g => Role::ALL
            .iter()
            .filter_map(|&role| match g.position().in_hand(seat, role) {
                0 => None,
                1 => Some(role.letter().to_string()),
                n => Some(format!("{n}{}", role.letter())),
            })
            .collect());
        if pieces.is_empty() {
            "-".to_string()
        } else {
            pieces.join(" ")
        }
    }

    /// The cells the selected piece can move to.
    pub fn destinations(&self) -> Vec<Cell> {
        let Some(from) = self.selected else { return Vec::new() };
        let mut cells: Vec<Cell> = self.legal.iter().filter(|m| m.from() == Some(from)).filter_map(LegalMove::to).collect();
        cells.dedup();
        cells
    }

    /// The cells of the last move: where it came from and where it went.
    pub fn last_move_cells(&self) -> Vec<Cell> {
        match with_game!(self.game(), g => g.moves().last().copied()) {
            Some(Move::Normal { from, to, .. }) => vec![from, to],
            Some(Move::Drop { to, .. }) => vec![to],
            Some(Move::Illuminate { from, .. }) => vec![from],
            Some(Move::Pass) | None => Vec::new(),
        }
    }

    /// The moves offered under the move line: those that complete the typed text, or those of
    /// the selected piece, or every legal move.
    pub fn candidates(&self) -> Vec<&str> {
        if let Some((prefix, _)) = &self.cycle {
            return moves::candidates(&self.legal, prefix);
        }
        match self.selected {
            Some(from) if self.line.is_empty() => {
                self.legal.iter().filter(|m| m.from() == Some(from)).map(|m| m.short.as_str()).collect()
            }
            _ => moves::candidates(&self.legal, &self.line),
        }
    }

    // ----- what the player does -----

    pub fn handle_key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        if self.help {
            self.help = false;
            return;
        }
        let typing = !self.line.is_empty() || self.question.is_some();
        let Some(command) = input::command(&key, typing) else { return };
        if command == Command::Interrupt {
            self.finish();
            return;
        }
        if let Some(question) = self.question.take() {
            self.answer(question, key.code);
            return;
        }
        if let Some(seat) = self.alliance_question() {
            match command {
                Command::Type('y' | 'a') => self.act(seat, Action::Answer(true)),
                Command::Type('n') => self.act(seat, Action::Answer(false)),
                Command::Quit | Command::Help | Command::Resign | Command::Cursor(_) | Command::Escape => self.command(command),
                _ => {}
            }
            return;
        }
        self.command(command);
    }

    fn command(&mut self, command: Command) {
        match command {
            Command::Type(c) => {
                self.line.push(c);
                self.cycle = None;
            }
            Command::Backspace => {
                self.line.pop();
                self.cycle = None;
            }
            Command::Complete => self.complete(),
            Command::Enter if self.line.trim().is_empty() => self.activate_cursor(),
            Command::Enter => self.submit_line(),
            Command::Select => self.activate_cursor(),
            Command::Cursor(direction) => self.cursor = self.board.step(self.cursor, direction),
            Command::Escape if !self.line.is_empty() => {
                self.line.clear();
                self.cycle = None;
            }
            Command::Escape if self.selected.is_some() => self.selected = None,
            Command::Escape | Command::Quit if self.is_over() => self.finish(),
            Command::Escape | Command::Quit => self.question = Some(Question::Quit),
            Command::Resign => self.ask_resign(),
            Command::Help => self.help = true,
            Command::Interrupt => self.finish(),
        }
    }

    /// A key pressed while a question is on screen: it answers or puts the question back.
    fn answer(&mut self, question: Question, key: KeyCode) {
        let yes = matches!(key, KeyCode::Char('y' | 'Y'));
        match question {
            Question::Quit if yes => self.finish(),
            Question::Resign(seat) if yes => self.act(seat, Action::Resign),
            Question::Quit | Question::Resign(_) => {}
            Question::Promotion { from, to } => match key {
                KeyCode::Char('y' | 'Y' | '+') => self.play_cursor_move(from, to, true),
                KeyCode::Char('n' | 'N' | '=') => self.play_cursor_move(from, to, false),
                KeyCode::Esc => {}
                _ => self.question = Some(Question::Promotion { from, to }),
            },
            Question::Drop { to, letters } => match key {
                KeyCode::Char(c) if letters.contains(&c.to_ascii_uppercase()) => self.play_drop(c.to_ascii_uppercase(), to),
                KeyCode::Esc => {}
                _ => self.question = Some(Question::Drop { to, letters }),
            },
        }
    }

    /// Tab: one candidate fills the line; several fill it up to what they share, and once
    /// the line holds that, each further Tab shows the next candidate.
    fn complete(&mut self) {
        let prefix = self.cycle.as_ref().map_or_else(|| self.line.clone(), |(prefix, _)| prefix.clone());
        let found: Vec<String> = moves::candidates(&self.legal, &prefix).into_iter().map(str::to_string).collect();
        match found.as_slice() {
            [] if self.legal.is_empty() => self.error("there is no move of yours to complete now"),
            [] => self.error(format!("no legal move starts with `{prefix}`")),
            [only] => {
                self.line = only.clone();
                self.cycle = None;
            }
            _ => {
                let shared = moves::common_prefix(&found.iter().map(String::as_str).collect::<Vec<_>>());
                if self.cycle.is_none() && shared != self.line && shared.len() >= self.line.len() {
                    self.line = shared;
                } else {
                    let index = self.cycle.as_ref().map_or(0, |(_, i)| (i + 1) % found.len());
                    self.line = found[index].clone();
                    self.cycle = Some((prefix, index));
                }
            }
        }
    }

    fn submit_line(&mut self) {
        let text = self.line.trim().to_string();
        if text == "resign" {
            self.line.clear();
            self.ask_resign();
            return;
        }
        let Some(seat) = self.human_to_move() else {
            self.not_your_turn();
            return;
        };
        if self.flag_if_due(Instant::now()) {
            return;
        }
        match self.table.apply(seat, &Action::Move(text)) {
            Ok(applied) => {
                self.line.clear();
                self.cycle = None;
                self.message = None;
                self.applied(seat, true, applied.entries);
            }
            Err(Refusal(reason)) => self.error(reason),
        }
    }

    /// Enter or Space with nothing typed: select the piece under the cursor, move the selected
    /// one there, or drop a piece from the hand on an empty cell.
    fn activate_cursor(&mut self) {
        if self.is_over() {
            return;
        }
        if self.human_to_move().is_none() {
            self.not_your_turn();
            return;
        }
        let cell = self.cursor;
        let name = self.game().position().cell_name(cell);
        let from_here = |app: &App| app.legal.iter().any(|m| m.from() == Some(cell));
        if let Some(from) = self.selected {
            if from == cell {
                self.selected = None;
                return;
            }
            let promotions: Vec<bool> = self
                .legal
                .iter()
                .filter_map(|m| match m.mv {
                    Move::Normal { from: f, to, promote } if f == from && to == cell => Some(promote),
                    _ => None,
                })
                .collect();
            match promotions.as_slice() {
                [promote] => self.play_cursor_move(from, cell, *promote),
                [_, _] => self.question = Some(Question::Promotion { from, to: cell }),
                _ if from_here(self) => self.select(cell),
                _ => self.error(format!("the selected piece cannot move to {name}")),
            }
            return;
        }
        if from_here(self) {
            self.select(cell);
            return;
        }
        let mut letters: Vec<char> = self
            .legal
            .iter()
            .filter_map(|m| match m.mv {
                Move::Drop { role, to } if to == cell => Some(role.letter()),
                _ => None,
            })
            .collect();
        letters.dedup();
        if !letters.is_empty() {
            self.question = Some(Question::Drop { to: cell, letters });
        } else if self.game().position().piece_text(cell).is_some() {
            self.error(format!("the piece on {name} has no legal move"));
        } else {
            self.error(format!("nothing to move from {name} and nothing to drop there"));
        }
    }

    fn select(&mut self, cell: Cell) {
        self.selected = Some(cell);
        self.message = None;
    }

    fn play_cursor_move(&mut self, from: Cell, to: Cell, promote: bool) {
        self.play_chosen(Move::Normal { from, to, promote });
    }

    fn play_drop(&mut self, letter: char, to: Cell) {
        let role = self.legal.iter().find_map(|m| match m.mv {
            Move::Drop { role, to: t } if t == to && role.letter() == letter => Some(role),
            _ => None,
        });
        if let Some(role) = role {
            self.play_chosen(Move::Drop { role, to });
        }
    }

    /// Plays a legal move chosen with the cursor, through its text as a typed move goes.
    fn play_chosen(&mut self, chosen: Move) {
        let Some(text) = self.legal.iter().find(|m| m.mv == chosen).map(|m| m.canonical.clone()) else { return };
        let Some(seat) = self.human_to_move() else { return };
        if self.flag_if_due(Instant::now()) {
            return;
        }
        match self.table.apply(seat, &Action::Move(text)) {
            Ok(applied) => {
                self.message = None;
                self.applied(seat, true, applied.entries);
            }
            Err(Refusal(reason)) => self.error(reason),
        }
    }

    fn ask_resign(&mut self) {
        // The person to move, or else the first person still playing.
        let seat = self
            .human_to_move()
            .or_else(|| self.seats().iter().copied().find(|&s| self.seat_kind(s) == SeatKind::Human && self.table.is_in(s)));
        match seat {
            Some(seat) => self.question = Some(Question::Resign(seat)),
            None => self.error("none of your seats is still in the game"),
        }
    }

    fn act(&mut self, seat: Player, action: Action) {
        let is_move = matches!(action, Action::Move(_));
        match self.table.apply(seat, &action) {
            Ok(applied) => self.applied(seat, is_move, applied.entries),
            Err(Refusal(reason)) => self.error(reason),
        }
    }

    /// Ends the session: the bots stop and the record is written.
    fn finish(&mut self) {
        self.bots.stop_thinking();
        self.save_record();
        self.quit = true;
    }

    fn not_your_turn(&mut self) {
        let text = match self.table.clock_runner() {
            _ if self.is_over() => "the game is over".to_string(),
            Some(seat) => format!("it is {}'s turn ({})", self.seat_name(seat), self.player_text(seat)),
            None => "the game waits for an answer to the proposed alliance".to_string(),
        };
        self.error(text);
    }

    fn error(&mut self, text: impl Into<String>) {
        self.message = Some(Message { tone: Tone::Error, text: text.into() });
    }

    // ----- time and the bots -----

    /// Handles what arrived without a key: bot replies and a fallen clock.
    pub fn update(&mut self) {
        self.flag_if_due(Instant::now());
        while let Some(reply) = self.bots.try_reply() {
            self.bot_reply(reply);
        }
    }

    /// Waits for the thinking bot's move and plays it; false when no bot is thinking.
    pub fn wait_for_bot(&mut self) -> bool {
        if self.thinking.is_none() {
            return false;
        }
        if let Some(reply) = self.bots.wait_reply() {
            self.bot_reply(reply);
        }
        true
    }

    /// The clocks at `now`: a seat whose time has run out loses it. True if one fell.
    pub fn flag_if_due(&mut self, now: Instant) -> bool {
        let Some(seat) = self.clocks.as_ref().and_then(|clocks| clocks.fallen(now)) else { return false };
        if let Ok(applied) = self.table.apply(seat, &Action::Flag) {
            self.applied(seat, false, applied.entries);
        }
        true
    }

    fn bot_reply(&mut self, reply: BotReply) {
        self.thinking = None;
        if reply.generation != self.generation || self.table.clock_runner() != Some(reply.seat) {
            // The game moved on while the bot thought (a resignation, a flag).
            self.start_bot();
            return;
        }
        if self.flag_if_due(Instant::now()) {
            return;
        }
        let Some(text) = reply.text.or_else(|| moves::legal_moves(self.game()).first().map(|m| m.canonical.clone())) else {
            return;
        };
        match self.table.apply(reply.seat, &Action::Move(text.clone())) {
            Ok(applied) => self.applied(reply.seat, true, applied.entries),
            Err(Refusal(reason)) => {
                // An engine bug must not stop the game: any legal move will do.
                self.error(format!("the bot's move {text} was refused ({reason}); it plays another"));
                if let Some(fallback) = moves::legal_moves(self.game()).first() {
                    let action = Action::Move(fallback.canonical.clone());
                    if let Ok(applied) = self.table.apply(reply.seat, &action) {
                        self.applied(reply.seat, true, applied.entries);
                    }
                }
            }
        }
    }

    /// After an applied action of `seat`: the clocks are charged (a move earns the increment),
    /// the log grows, and the game goes on.
    fn applied(&mut self, seat: Player, is_move: bool, entries: Vec<LogEntry>) {
        let now = Instant::now();
        self.generation += 1;
        if let Some(clocks) = &mut self.clocks {
            let was_running = clocks.running();
            clocks.run(None, now);
            if is_move && was_running == Some(seat) {
                clocks.add_increment(seat);
            }
        }
        let plies = self.game().plies();
        for mut entry in entries {
            let ply = matches!(entry.kind, EntryKind::Move { .. }).then_some(plies);
            if ply.is_some() {
                // Check is no event of the rules, but players want to hear of it.
                for &other in self.seats() {
                    if self.in_check(other) {
                        entry.events.push(format!("{} is in check", self.seat_name(other)));
                    }
                }
            }
            self.log.push(LogLine { ply, entry });
        }
        self.settle(now);
    }

    /// Plays what nobody chooses (passes of seats out of the game, bots' answers to a proposed
    /// alliance), then runs the clock of the seat to move, starts its bot or lists its moves,
    /// and writes the record once the game is over.
    fn settle(&mut self, now: Instant) {
        loop {
            let forced = if let Some(seat) = self.table.forced_pass() {
                Some((seat, Action::Move("pass".to_string())))
            } else {
                let bot = self.table.pending_answers().iter().find(|&s| matches!(self.seat_kind(s), SeatKind::Bot(_)));
                bot.map(|seat| (seat, Action::Answer(true)))
            };
            let Some((seat, action)) = forced else { break };
            let Ok(applied) = self.table.apply(seat, &action) else { break };
            self.generation += 1;
            self.log.extend(applied.entries.into_iter().map(|entry| LogLine { ply: None, entry }));
        }
        self.selected = None;
        self.legal = if self.human_to_move().is_some() { moves::legal_moves(self.game()) } else { Vec::new() };
        if let Some(clocks) = &mut self.clocks {
            clocks.run(self.table.clock_runner(), now);
        }
        if self.is_over() {
            self.bots.stop_thinking();
            self.save_record();
        } else {
            self.start_bot();
        }
    }

    fn start_bot(&mut self) {
        if self.thinking.is_some() {
            return;
        }
        let Some(seat) = self.table.clock_runner() else { return };
        let SeatKind::Bot(level) = self.seat_kind(seat) else { return };
        let limits = Limits {
            movetime_ms: self.clocks.as_ref().map(|clocks| bot_time(clocks, seat)),
            seed: self.setup.seed ^ self.generation.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ seat.index() as u64,
            ..Limits::default()
        };
        self.bots.ask(BotRequest { generation: self.generation, seat, level, game: self.game().clone(), limits });
        self.thinking = Some(seat);
    }

    // ----- the record -----

    /// The game's record: the players by seat, the date, the clock, every move and departure.
    pub fn record_text(&self) -> String {
        let mut tags = vec![("Event".to_string(), "polyshogi play".to_string()), ("Date".to_string(), date_tag(unix_ms()))];
        for &seat in self.seats() {
            let player = match self.seat_kind(seat) {
                SeatKind::Human => self.setup.player_name.clone(),
                SeatKind::Bot(level) => format!("polyshogi {} bot", level.name()),
            };
            tags.push((self.seat_name(seat).to_string(), player));
        }
        if let Some(control) = self.setup.clock {
            let minutes = control.base.as_secs_f64() / 60.0;
            tags.push(("TimeControl".to_string(), format!("{minutes}+{}", control.increment.as_secs_f64())));
        }
        with_game!(self.game(), g => write_record(g, &tags, None))
    }

    /// Writes the record unless the file already holds this very game state.
    fn save_record(&mut self) {
        if self.saved.as_ref().is_some_and(|(_, generation)| *generation == self.generation) {
            return;
        }
        let path = self.setup.record_path.clone();
        match std::fs::write(&path, self.record_text()) {
            Ok(()) => {
                self.message = Some(Message { tone: Tone::Info, text: format!("record saved to {}", path.display()) });
                self.saved = Some((path, self.generation));
            }
            Err(e) => self.error(format!("cannot write the record to {}: {e}", path.display())),
        }
    }
}

/// A bot's thinking time on the clock: a small share of what is left, as the server gives.
fn bot_time(clocks: &Clocks, seat: Player) -> u64 {
    let left = clocks.left(seat, Instant::now()).as_millis() as u64;
    (left / 40 + clocks.control.increment.as_millis() as u64 / 2).clamp(50, 10_000)
}

fn unix_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}
