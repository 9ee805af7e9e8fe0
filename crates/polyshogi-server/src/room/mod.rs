//! A live game's owner: one task per game holds its state, stores each action before anyone
//! hears of it, runs the clocks, starts the bots and publishes the state to every connection.
//!
//! When several server processes share the database, each may hold the same game: an action
//! stored by one is read by the others when they hear of it (`catch_up`), and only the game's
//! owner among them (`Instances`) runs its timers and bots.

mod chat;
mod seating;

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, RwLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::extract::ws::Utf8Bytes;
use polyshogi::mv::MoveList;
use polyshogi::notation::move_text;
use polyshogi::player::{Player, PlayerSet};
use polyshogi::variant::Variant;
use polyshogi::with_game;
use polyshogi_engine::Limits;
use tokio::sync::{broadcast, mpsc, oneshot, Notify};
use tokio::time::{sleep_until, Instant};
use tracing::{debug, error, info, warn};

use crate::bots::Bot;
use crate::chat::{ChatFeed, ChatLimits};
use crate::diagram::DiagramPosition;
use crate::instances::Instances;
use crate::move_log::MoveLog;
use crate::record::{date_tag, write_record};
use crate::store::{
    ActionKind, Change, ChatChannel, ChatLine, SeatPlayer, SeatTaken, Store, StoreError, StoredAction, StoredGame, StoredSeat,
};
use crate::table::{Action, Table};
use crate::tokens::new_game_id;
use crate::uptime::Uptime;
use crate::wire;
use seating::token_hashes;

/// Who sits in a seat: a human (with his account, if he has one), nobody yet (a seat open to
/// anyone), or a bot.
#[derive(Clone, Debug)]
pub enum SeatKind {
    Human { token_hash: String, player: Option<SeatPlayer> },
    Open,
    Bot { bot: Bot, level: String },
}

/// A game's clock: each seat starts with `initial_ms` and gains `increment_ms` per move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ClockConfig {
    pub initial_ms: i64,
    pub increment_ms: i64,
}

/// How long a human seat has for its first move, from the start of its first turn, in a game
/// with a clock, before the game is aborted (docs/API.md). Longer than lichess's 30 s: a seat
/// link travels by hand, so a friend may open it only after his turn has come.
pub const DEFAULT_FIRST_MOVE_TIME: Duration = Duration::from_secs(60);

/// How long a game stays in memory with no connection open and nothing to do by itself.
pub const DEFAULT_IDLE_TIME: Duration = Duration::from_secs(120);

/// How long a game with a seat open to anyone waits for players before it expires.
pub const DEFAULT_OPEN_TIME: Duration = Duration::from_secs(20 * 60);

/// A game with something to do by itself this soon (a clock to fall) stays in memory however
/// idle: longer than the look-ahead of `Rooms::wake_due`, so that it is not unloaded and loaded
/// again in turn.
const KEEP_WHEN_WAKING_WITHIN: Duration = Duration::from_secs(30);

/// How a server runs its games.
#[derive(Clone, Copy, Debug)]
pub struct RoomSettings {
    /// How long a human seat has for its first move (games with a clock).
    pub first_move_time: Duration,
    /// How long a game nobody watches and nothing happens in stays in memory.
    pub idle_time: Duration,
    /// How long a game with an open seat waits for players.
    pub open_time: Duration,
}

impl Default for RoomSettings {
    fn default() -> Self {
        RoomSettings { first_move_time: DEFAULT_FIRST_MOVE_TIME, idle_time: DEFAULT_IDLE_TIME, open_time: DEFAULT_OPEN_TIME }
    }
}

/// The clocks of a game: what each seat has left, and whose clock runs since when. A seat's
/// clock runs only after its first move; during its first turn it waits instead.
#[derive(Clone, Debug)]
struct Clocks {
    remaining: Vec<i64>,
    increment: i64,
    running: Option<(Player, Instant)>,
    /// Which seats have made a move.
    moved: Vec<bool>,
    /// The seat on its first turn, and since when.
    first_turn: Option<(Player, Instant)>,
}

impl Clocks {
    /// Charges the running clock for the time since it started, and stops it.
    fn stop(&mut self, now: Instant) {
        if let Some((seat, since)) = self.running.take() {
            let spent = now.saturating_duration_since(since).as_millis() as i64;
            let left = &mut self.remaining[seat.index()];
            *left = (*left - spent).max(0);
        }
    }

    /// Starts `seat`'s clock, or its first turn if it has not moved yet (a first turn that
    /// goes on, say after an alliance answer, keeps its start).
    fn start(&mut self, seat: Option<Player>, now: Instant) {
        let going_on = self.first_turn.filter(|(s, _)| Some(*s) == seat);
        self.running = None;
        self.first_turn = None;
        match seat {
            Some(seat) if self.moved[seat.index()] => self.running = Some((seat, now)),
            Some(seat) => self.first_turn = Some(going_on.unwrap_or((seat, now))),
            None => {}
        }
    }

    fn left(&self, seat: Player, now: Instant) -> i64 {
        let left = self.remaining[seat.index()];
        match self.running {
            Some((runner, since)) if runner == seat => (left - now.saturating_duration_since(since).as_millis() as i64).max(0),
            _ => left,
        }
    }

    /// When the running clock falls.
    fn deadline(&self) -> Option<(Player, Instant)> {
        self.running.map(|(seat, since)| (seat, since + Duration::from_millis(self.remaining[seat.index()].max(0) as u64)))
    }
}

pub fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

/// A validated new game, before it is stored.
#[derive(Clone, Debug)]
pub struct GameSetup {
    pub id: String,
    pub variant: Variant,
    pub rules: Vec<String>,
    pub clock: Option<ClockConfig>,
    pub seats: Vec<SeatKind>,
    pub created_ms: i64,
    /// Whether the result changes the players' ratings.
    pub rated: bool,
    /// While a seat is open: when the game expires (ms since the epoch).
    pub open_until_ms: Option<i64>,
}

impl GameSetup {
    /// Whether the game waits for players to take its open seats.
    pub fn is_waiting(&self) -> bool {
        self.seats.iter().any(|s| matches!(s, SeatKind::Open))
    }

    /// The rematch of this game, as `id`: the same variant, rules and clock, and each occupant
    /// one seat on (the last seat's to the first), so that colours change hands.
    pub fn rematch(&self, id: String, created_ms: i64) -> GameSetup {
        let mut seats = self.seats.clone();
        seats.rotate_right(1);
        GameSetup { id, seats, created_ms, ..self.clone() }
    }

    pub fn to_stored(&self) -> StoredGame {
        StoredGame {
            id: self.id.clone(),
            variant: self.variant.name().to_string(),
            rules: self.rules.clone(),
            start_position: None,
            clock: self.clock.map(|c| (c.initial_ms, c.increment_ms)),
            created_ms: self.created_ms,
            seats: self
                .seats
                .iter()
                .map(|s| match s {
                    SeatKind::Human { token_hash, player } => {
                        StoredSeat::Human { token_hash: token_hash.clone(), player: player.clone() }
                    }
                    SeatKind::Open => StoredSeat::Open,
                    SeatKind::Bot { level, .. } => StoredSeat::Bot { level: level.clone() },
                })
                .collect(),
            rated: self.rated,
            open_until_ms: self.open_until_ms,
            finished: false,
            settled: false,
            result: None,
            // Woken at once if the server stops before the game's owner stores a better time.
            wake_ms: Some(self.created_ms),
            actions: Vec::new(),
        }
    }
}

enum Command {
    /// A connection opens (or catches up): the state now, and a receiver of every update after.
    Join {
        seat: Option<Player>,
        reply: oneshot::Sender<(Arc<wire::GameState>, Updates)>,
    },
    Leave {
        seat: Option<Player>,
    },
    Act {
        seat: Player,
        action: Action,
        reply: oneshot::Sender<Result<(), String>>,
    },
    State {
        reply: oneshot::Sender<Arc<wire::GameState>>,
    },
    Record {
        reply: oneshot::Sender<String>,
    },
    /// Asks for (or agrees to) a rematch, or turns it down.
    Rematch {
        seat: Player,
        agree: bool,
        reply: oneshot::Sender<Result<(), String>>,
    },
    /// The position after a number of moves; `None` past the last move.
    Position {
        plies: usize,
        reply: oneshot::Sender<Option<wire::PositionAt>>,
    },
    /// What a picture shows of the position after a number of moves; `None` past the last move.
    Diagram {
        plies: usize,
        reply: oneshot::Sender<Option<DiagramPosition>>,
    },
    /// Someone takes an open seat.
    Sit {
        seat: Player,
        token_hash: String,
        player: Option<SeatPlayer>,
        reply: oneshot::Sender<Result<(), SitError>>,
    },
    /// A connection opens its chat: the latest lines of its channel, and every line after.
    ChatJoin {
        channel: ChatChannel,
        reply: oneshot::Sender<ChatFeed>,
    },
    /// A line for a channel of the chat, from `seat` (the players' chat) or a spectator's
    /// account (`account`).
    Chat {
        seat: Option<Player>,
        account: Option<String>,
        text: String,
        reply: oneshot::Sender<Result<(), String>>,
    },
}

/// Why an open seat was not taken.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SitError {
    /// Someone sits there already (or it was never open).
    Taken(String),
    /// The account sits at another seat of this rated game.
    AlreadySeated,
    /// A rated game's seat needs an account.
    LoginNeeded,
    /// Nobody took the open seats in time.
    Expired,
    /// The game is over otherwise.
    Over(String),
    Storage,
}

/// What another server process says about a game.
enum Elsewhere {
    Presence {
        instance: String,
        connected: Vec<u32>,
    },
    AskPresence,
    /// It stored a line of the game's chat.
    Chat {
        line_id: String,
    },
}

/// How many times in all a player's request is tried when another process stores first.
const MAX_RACES: usize = 3;

/// What a player asks the game for.
enum PlayerRequest {
    Act(Action),
    Rematch { agree: bool },
}

/// The updates of a game, each an `update` message serialized once for every connection.
pub type Updates = broadcast::Receiver<Utf8Bytes>;

/// How many updates a connection may fall behind before it is sent the whole state instead.
const UPDATES_KEPT: usize = 64;

/// A bot's answer from the blocking pool; `generation` is the action count it was asked at.
struct BotReply {
    generation: i64,
    seat: Player,
    text: Option<String>,
}

/// How the rest of the server reaches a live game.
#[derive(Clone, Debug)]
pub struct RoomHandle {
    pub id: String,
    tx: mpsc::Sender<Command>,
    /// What other server processes say about the game.
    elsewhere: mpsc::UnboundedSender<Elsewhere>,
    /// Asks the game to look again: at storage, for actions stored elsewhere, and at whether
    /// it is now the owner of its timers and bots.
    nudge: Arc<Notify>,
    /// The SHA-256 of each seat's token (None for bots and open seats), by seat index; the
    /// owner writes a seat's when it is taken.
    token_hashes: Arc<RwLock<Vec<Option<String>>>>,
    seat_names: Arc<Vec<(Player, &'static str)>>,
    pub variant: Variant,
}

impl RoomHandle {
    /// The owner has stopped (the game was idle and left memory): this handle reaches nothing.
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }

    /// Asks the game to look again (many asks before it does come to one look).
    pub fn nudge(&self) {
        self.nudge.notify_one();
    }

    /// Another server process holds `connected` connections to each seat of the game.
    pub fn connected_elsewhere(&self, instance: String, connected: Vec<u32>) {
        let _ = self.elsewhere.send(Elsewhere::Presence { instance, connected });
    }

    /// Another server process asks who is connected to the game here.
    pub fn asked_presence(&self) {
        let _ = self.elsewhere.send(Elsewhere::AskPresence);
    }

    /// Another server process stored line `line_id` of the game's chat.
    pub fn chat_elsewhere(&self, line_id: String) {
        let _ = self.elsewhere.send(Elsewhere::Chat { line_id });
    }

    /// The seat a token opens, if any.
    pub fn seat_for_token(&self, token: &str) -> Option<Player> {
        let hash = crate::tokens::hash_token(token);
        self.token_hashes
            .read()
            .expect("not poisoned")
            .iter()
            .enumerate()
            .find(|(_, h)| h.as_deref() == Some(hash.as_str()))
            .and_then(|(i, _)| Player::from_index(i))
    }

    pub fn seat_name(&self, seat: Player) -> &'static str {
        self.seat_names.iter().find(|(p, _)| *p == seat).map(|(_, n)| *n).unwrap_or("?")
    }

    /// A connection of `seat` (`None`: a spectator, or a connection catching up) opens: the state
    /// now, and every update after it.
    pub async fn join(&self, seat: Option<Player>) -> Option<(Arc<wire::GameState>, Updates)> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Command::Join { seat, reply }).await.ok()?;
        rx.await.ok()
    }

    pub async fn leave(&self, seat: Option<Player>) {
        let _ = self.tx.send(Command::Leave { seat }).await;
    }

    /// Performs a seat's action; the error is the message for that client.
    pub async fn act(&self, seat: Player, action: Action) -> Result<(), String> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Command::Act { seat, action, reply }).await.map_err(|_| "the game is not available".to_string())?;
        rx.await.map_err(|_| "the game is not available".to_string())?
    }

    /// A seat asks for a rematch (or agrees to it), or turns it down; the error is the message
    /// for that client.
    pub async fn rematch(&self, seat: Player, agree: bool) -> Result<(), String> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Command::Rematch { seat, agree, reply }).await.map_err(|_| "the game is not available".to_string())?;
        rx.await.map_err(|_| "the game is not available".to_string())?
    }

    pub async fn state(&self) -> Option<Arc<wire::GameState>> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Command::State { reply }).await.ok()?;
        rx.await.ok()
    }

    pub async fn record(&self) -> Option<String> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Command::Record { reply }).await.ok()?;
        rx.await.ok()
    }

    /// The position after `plies` moves: `None` when the game is not available, `Some(None)`
    /// past the last move.
    pub async fn position(&self, plies: usize) -> Option<Option<wire::PositionAt>> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Command::Position { plies, reply }).await.ok()?;
        rx.await.ok()
    }

    /// What a picture shows of the position after `plies` moves (the last one marked): `None`
    /// when the game is not available, `Some(None)` past the last move. The picture itself is
    /// drawn by the caller, not in the game's task.
    pub async fn diagram(&self, plies: usize) -> Option<Option<DiagramPosition>> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Command::Diagram { plies, reply }).await.ok()?;
        rx.await.ok()
    }

    /// Takes the open seat `seat` for the holder of the token hashed `token_hash`.
    pub async fn sit(&self, seat: Player, token_hash: String, player: Option<SeatPlayer>) -> Result<(), SitError> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Command::Sit { seat, token_hash, player, reply }).await.map_err(|_| SitError::Storage)?;
        rx.await.map_err(|_| SitError::Storage)?
    }

    /// The chat of `channel`: its latest lines, and a receiver of the lines after them.
    pub async fn chat_join(&self, channel: ChatChannel) -> Option<ChatFeed> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Command::ChatJoin { channel, reply }).await.ok()?;
        rx.await.ok()
    }

    /// Writes a chat line: a seat's in the players' chat, a spectator's (with his account's
    /// name) in the spectators'; the error is the message for that client.
    pub async fn chat(&self, seat: Option<Player>, account: Option<String>, text: String) -> Result<(), String> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Command::Chat { seat, account, text, reply }).await.map_err(|_| "the game is not available".to_string())?;
        rx.await.map_err(|_| "the game is not available".to_string())?
    }
}

/// Why an action was not taken.
enum PerformError {
    /// The rules refused it (the message is for the player).
    Refused(String),
    /// It could not be stored.
    Storage,
    /// Another server process stored an action of the game first; the game has read it, and
    /// the action may be tried again on the game as it now stands.
    Overtaken,
}

impl PerformError {
    fn message(self) -> String {
        match self {
            PerformError::Refused(message) => message,
            PerformError::Storage => "the server could not store this action; nothing changed, please try again".to_string(),
            PerformError::Overtaken => "the game changed meanwhile; nothing changed, please try again".to_string(),
        }
    }
}

/// The state a game's owner task holds.
struct Room {
    setup: GameSetup,
    table: Table,
    moves: MoveLog,
    /// The number of stored actions (the next action's `seq`).
    seq: i64,
    clocks: Option<Clocks>,
    /// Open connections per seat index.
    connected: Vec<u32>,
    /// Open connections per seat index held by each other server process.
    connected_elsewhere: HashMap<String, Vec<u32>>,
    store: Arc<dyn Store>,
    instances: Arc<Instances>,
    nudge: Arc<Notify>,
    updates: broadcast::Sender<Utf8Bytes>,
    bot_tx: mpsc::UnboundedSender<BotReply>,
    /// The generation of the bot search in flight.
    bot_busy: Option<i64>,
    /// After a storage failure of the server's own action (a bot move, a flag): when to try again.
    retry_at: Option<Instant>,
    settings: RoomSettings,
    /// When the game is stored to wake next (ms since the epoch).
    stored_wake_ms: Option<i64>,
    /// The last command from outside, or the last change: the game stays in memory for
    /// `idle_time` after it.
    last_activity: Instant,
    /// Why the game was aborted, once it is: it ended without result.
    aborted: Option<String>,
    /// After the end: the rematch asked for.
    rematch: Rematch,
    /// Whether the finished game's places and ratings are written.
    settled: bool,
    /// When the last action was stored (ms since the epoch): a finished game ended then.
    last_action_ms: i64,
    /// Each chat channel's latest lines, once a connection asked for them.
    chat_history: HashMap<ChatChannel, VecDeque<ChatLine>>,
    /// Each chat channel's new lines, serialized once for every connection.
    chat_feeds: HashMap<ChatChannel, broadcast::Sender<Utf8Bytes>>,
    chat_limits: ChatLimits,
    /// Shared with the handles: the seat a token opens.
    token_hashes: Arc<RwLock<Vec<Option<String>>>>,
}

/// A finished game's rematch: which seats asked for it, and the new game once all agreed (all
/// stored as actions).
#[derive(Clone, Debug, Default)]
struct Rematch {
    asked: PlayerSet,
    game: Option<String>,
}

/// Starts the owner task of a stored game (new or resumed); fails if its actions cannot be
/// replayed.
pub fn spawn_room(
    stored: StoredGame,
    store: Arc<dyn Store>,
    settings: RoomSettings,
    uptime: &Uptime,
    instances: Arc<Instances>,
) -> Result<(RoomHandle, tokio::task::JoinHandle<()>), String> {
    let variant: Variant = stored.variant.parse().map_err(|e| format!("game {}: {e}", stored.id))?;
    let table = Table::new(variant, &stored.rules).map_err(|e| format!("game {}: {e}", stored.id))?;
    let mut seats = Vec::new();
    for seat in &stored.seats {
        seats.push(match seat {
            StoredSeat::Human { token_hash, player } => {
                SeatKind::Human { token_hash: token_hash.clone(), player: player.clone() }
            }
            StoredSeat::Open => SeatKind::Open,
            StoredSeat::Bot { level } => SeatKind::Bot { bot: Bot::stored(&stored.id, level), level: level.clone() },
        });
    }
    if seats.len() != table.seats().len() {
        return Err(format!("game {}: {} seats stored, the variant has {}", stored.id, seats.len(), table.seats().len()));
    }
    let clock = stored.clock.map(|(initial_ms, increment_ms)| ClockConfig { initial_ms, increment_ms });
    let clocks = clock.map(|c| Clocks {
        remaining: vec![c.initial_ms; 3],
        increment: c.increment_ms,
        running: None,
        moved: vec![false; 3],
        first_turn: None,
    });
    let setup = GameSetup {
        id: stored.id.clone(),
        variant,
        rules: stored.rules.clone(),
        clock,
        seats,
        created_ms: stored.created_ms,
        rated: stored.rated,
        open_until_ms: stored.open_until_ms,
    };
    let token_hashes = Arc::new(RwLock::new(token_hashes(&setup.seats)));
    let seat_names = Arc::new(table.seats().into_iter().map(|p| (p, table.seat_name(p))).collect());
    let (tx, rx) = mpsc::channel(64);
    let (bot_tx, bot_rx) = mpsc::unbounded_channel();
    let (elsewhere_tx, elsewhere_rx) = mpsc::unbounded_channel();
    let (updates, _) = broadcast::channel(UPDATES_KEPT);
    let nudge = Arc::new(Notify::new());
    let now = Instant::now();
    let mut room = Room {
        setup,
        table,
        moves: MoveLog::default(),
        seq: 0,
        clocks,
        connected: vec![0; 3],
        connected_elsewhere: HashMap::new(),
        store,
        instances,
        nudge: nudge.clone(),
        updates,
        bot_tx,
        bot_busy: None,
        retry_at: None,
        settings,
        stored_wake_ms: stored.wake_ms,
        last_activity: now,
        aborted: None,
        rematch: Rematch::default(),
        settled: stored.settled,
        last_action_ms: stored.actions.last().map_or(stored.created_ms, |a| a.created_ms),
        chat_history: HashMap::new(),
        chat_feeds: HashMap::new(),
        chat_limits: ChatLimits::new(),
        token_hashes: token_hashes.clone(),
    };
    for action in &stored.actions {
        room.replay(action)?;
    }
    // The running clock is charged for the time since the last action while a server was up
    // (the thinking before a crash included), never for the time it was down.
    let runner = room.clock_runner();
    if let Some(clocks) = room.clocks.as_mut() {
        let last_ms = stored.actions.last().map_or(stored.created_ms, |a| a.created_ms);
        let up = Duration::from_millis(uptime.up_between(last_ms, now_ms()).max(0) as u64);
        clocks.start(runner, now.checked_sub(up).unwrap_or(now));
    }
    // Whoever joins gets the whole state: the moves replayed are not news.
    room.moves.take_changes();
    let handle = RoomHandle { id: stored.id.clone(), tx, elsewhere: elsewhere_tx, nudge, token_hashes, seat_names, variant };
    let task = tokio::spawn(room.run(rx, bot_rx, elsewhere_rx));
    Ok((handle, task))
}

impl Room {
    async fn run(
        mut self,
        mut commands: mpsc::Receiver<Command>,
        mut bots: mpsc::UnboundedReceiver<BotReply>,
        mut elsewhere: mpsc::UnboundedReceiver<Elsewhere>,
    ) {
        if self.instances.is_shared() {
            // Connections held by other processes are told by them.
            let ask = Change::AskPresence { game_id: self.setup.id.clone(), instance: self.instances.me().to_string() };
            if let Err(e) = self.store.announce(&ask).await {
                warn!(game = %self.setup.id, "could not ask the other servers who is connected: {e}");
            }
        }
        self.after_change().await;
        self.store_wake().await;
        loop {
            // After a storage failure nothing is tried again (a flag included) before the retry;
            // only the game's owner runs its timers.
            let wake = self.retry_at.or_else(|| self.owner_deadline());
            let unload = self.unload_at();
            tokio::select! {
                command = commands.recv() => match command {
                    Some(command) => {
                        self.last_activity = Instant::now();
                        self.handle(command).await;
                    }
                    None => break,
                },
                _ = sleep_until(unload.unwrap_or_else(Instant::now)), if unload.is_some() => {
                    if self.unload_at().is_some_and(|at| at <= Instant::now()) {
                        // Whatever was sent before the close is still answered; a later
                        // request finds the handle closed and loads the game again.
                        commands.close();
                        while let Some(command) = commands.recv().await {
                            self.handle(command).await;
                        }
                        break;
                    }
                }
                Some(reply) = bots.recv() => self.bot_reply(reply).await,
                Some(news) = elsewhere.recv() => self.heard(news).await,
                _ = self.nudge.notified() => self.look_again().await,
                _ = sleep_until(wake.unwrap_or_else(Instant::now)), if wake.is_some() => {
                    self.retry_at = None;
                    self.flag_if_due().await;
                    self.abort_if_due().await;
                    self.expire_if_due().await;
                    self.after_change().await;
                }
            }
        }
    }

    /// When a clock falls or a first move is overdue, if this process runs the game's timers.
    fn owner_deadline(&self) -> Option<Instant> {
        if !self.instances.owns(&self.setup.id) {
            return None;
        }
        let flag = self.clocks.as_ref().and_then(Clocks::deadline).map(|(_, at)| at);
        let abort = self.abort_deadline().map(|(_, at)| at);
        flag.into_iter().chain(abort).chain(self.expiry()).min()
    }

    /// When the game expires, while it waits for players.
    fn expiry(&self) -> Option<Instant> {
        if self.aborted.is_some() || !self.setup.is_waiting() {
            return None;
        }
        self.setup.open_until_ms.map(instant_of_wall_ms)
    }

    async fn handle(&mut self, command: Command) {
        match command {
            Command::Join { seat, reply } => {
                if let Some(seat) = seat {
                    self.connected[seat.index()] += 1;
                    self.presence_changed().await;
                }
                let state = Arc::new(self.state());
                let _ = reply.send((state, self.updates.subscribe()));
            }
            Command::Leave { seat } => {
                if let Some(seat) = seat {
                    self.connected[seat.index()] = self.connected[seat.index()].saturating_sub(1);
                    self.presence_changed().await;
                }
            }
            Command::Act { seat, action, reply } => {
                self.flag_if_due().await;
                self.abort_if_due().await;
                let _ = reply.send(self.answer_player(seat, PlayerRequest::Act(action)).await);
                self.after_change().await;
            }
            Command::State { reply } => {
                let _ = reply.send(Arc::new(self.state()));
            }
            Command::Record { reply } => {
                let _ = reply.send(self.record());
            }
            Command::Rematch { seat, agree, reply } => {
                let _ = reply.send(self.answer_player(seat, PlayerRequest::Rematch { agree }).await);
            }
            Command::Position { plies, reply } => {
                let _ = reply.send(self.table.position_after(plies));
            }
            Command::Diagram { plies, reply } => {
                let _ = reply.send(DiagramPosition::after(self.table.game(), plies));
            }
            Command::Sit { seat, token_hash, player, reply } => {
                let _ = reply.send(self.take_seat(seat, token_hash, player).await);
                self.after_change().await;
            }
            Command::ChatJoin { channel, reply } => {
                let _ = reply.send(self.chat_join(channel).await);
            }
            Command::Chat { seat, account, text, reply } => {
                let _ = reply.send(self.chat(seat, account, text).await);
            }
        }
    }

    /// Takes a player's request, trying it again on the game as it now stands while another
    /// server process stores an action of the game first; the error is the player's message.
    async fn answer_player(&mut self, seat: Player, request: PlayerRequest) -> Result<(), String> {
        let mut result = Err(PerformError::Overtaken);
        for _ in 0..MAX_RACES {
            result = match &request {
                PlayerRequest::Act(action) => self.perform(seat, action.clone()).await,
                PlayerRequest::Rematch { agree } => self.answer_rematch(seat, *agree).await,
            };
            if !matches!(result, Err(PerformError::Overtaken)) {
                break;
            }
        }
        result.map_err(PerformError::message)
    }

    /// A seat's connections here changed: everyone is told, here and in the other processes.
    async fn presence_changed(&mut self) {
        self.publish();
        self.announce_presence().await;
    }

    async fn announce_presence(&self) {
        if !self.instances.is_shared() {
            return;
        }
        let presence = Change::Presence {
            game_id: self.setup.id.clone(),
            instance: self.instances.me().to_string(),
            connected: self.connected.clone(),
        };
        if let Err(e) = self.store.announce(&presence).await {
            warn!(game = %self.setup.id, "could not tell the other servers who is connected: {e}");
        }
    }

    async fn heard(&mut self, news: Elsewhere) {
        match news {
            Elsewhere::Presence { instance, connected } => {
                if !self.instances.is_gone(&instance) {
                    self.connected_elsewhere.insert(instance, connected);
                    self.publish();
                }
            }
            Elsewhere::AskPresence => self.announce_presence().await,
            Elsewhere::Chat { line_id } => match self.store.chat_line(&line_id).await {
                Ok(Some((_, line))) => self.add_chat_line(line),
                Ok(None) => {}
                Err(e) => warn!(game = %self.setup.id, "could not read a chat line of another server: {e}"),
            },
        }
    }

    /// Reads what other processes stored, forgets the connections of processes that stopped,
    /// and does what the game's owner does if this process has become it.
    async fn look_again(&mut self) {
        let before = self.connected_elsewhere.len();
        self.connected_elsewhere.retain(|instance, _| !self.instances.is_gone(instance));
        if self.connected_elsewhere.len() != before {
            self.publish();
        }
        self.catch_up().await;
        if self.instances.owns(&self.setup.id) {
            self.flag_if_due().await;
            self.abort_if_due().await;
        }
        self.after_change().await;
    }

    /// Reads and applies the actions stored since this game's last one (by other processes).
    async fn catch_up(&mut self) {
        let actions = match self.store.actions_since(&self.setup.id, self.seq).await {
            Ok(actions) => actions,
            Err(e) => {
                warn!(game = %self.setup.id, "could not read the actions stored by the other servers: {e}");
                return;
            }
        };
        let Some(last) = actions.last() else { return };
        let last_ms = last.created_ms;
        self.last_action_ms = last_ms;
        for action in &actions {
            if let Err(e) = self.replay(action) {
                error!(game = %self.setup.id, "{e}");
                break;
            }
        }
        // The clock to move runs from when the last of them was stored.
        let runner = self.clock_runner();
        if let Some(clocks) = self.clocks.as_mut() {
            let ago = Duration::from_millis((now_ms() - last_ms).max(0) as u64);
            let now = Instant::now();
            clocks.start(runner, now.checked_sub(ago).unwrap_or(now));
        }
        self.stored_wake_ms = if self.is_over() { None } else { self.wake_at().map(wall_ms) };
        self.publish();
    }

    /// Applies a stored action to the game as it stands (loading it, or catching up).
    fn replay(&mut self, action: &StoredAction) -> Result<(), String> {
        let id = &self.setup.id;
        if action.seq != self.seq {
            return Err(format!("game {id}: stored action {} where {} was expected", action.seq, self.seq));
        }
        let seat = Player::from_index(action.seat).ok_or_else(|| format!("game {id}: seat {}", action.seat))?;
        self.replay_action(seat, action)?;
        self.seq += 1;
        Ok(())
    }

    fn replay_action(&mut self, seat: Player, action: &StoredAction) -> Result<(), String> {
        let id = &self.setup.id;
        let request = match action.kind {
            ActionKind::Move => Action::Move(action.detail.clone()),
            ActionKind::Answer => Action::Answer(action.detail == "accept"),
            ActionKind::Resign => Action::Resign,
            ActionKind::Flag => Action::Flag,
            ActionKind::OfferDraw => Action::OfferDraw,
            ActionKind::DeclineDraw => Action::DeclineDraw,
            ActionKind::RequestTakeback => Action::RequestTakeback,
            ActionKind::AnswerTakeback => Action::AnswerTakeback(action.detail == "accept"),
            ActionKind::Abort => {
                self.aborted = Some(abort_text(self.table.seat_name(seat)));
                return Ok(());
            }
            ActionKind::Rematch => {
                self.rematch.game = Some(action.detail.clone());
                return Ok(());
            }
            ActionKind::AskRematch => {
                self.rematch.asked.insert(seat);
                return Ok(());
            }
            ActionKind::DeclineRematch => {
                self.rematch.asked = PlayerSet::EMPTY;
                return Ok(());
            }
            ActionKind::Sit => {
                let taken = SeatTaken::from_detail(action.seat, &action.detail)
                    .filter(|t| t.seat < self.setup.seats.len())
                    .ok_or_else(|| format!("game {id}: stored action {} takes a seat unreadably", action.seq))?;
                self.apply_sit(taken);
                return Ok(());
            }
            ActionKind::Expire => {
                self.aborted = Some(EXPIRED_TEXT.to_string());
                return Ok(());
            }
        };
        if let (Some(clocks), ActionKind::Move) = (self.clocks.as_mut(), action.kind) {
            clocks.moved[seat.index()] = true;
        }
        let applied = self.table.apply(seat, &request).map_err(|r| {
            format!("game {id}: stored action {} ({:?} {}) cannot be replayed: {r}", action.seq, action.kind, action.detail)
        })?;
        self.moves.record(applied.entries, &self.table);
        if let (Some(clocks), Some(stored_clocks)) = (self.clocks.as_mut(), &action.clocks) {
            for (left, &stored_left) in clocks.remaining.iter_mut().zip(stored_clocks) {
                *left = stored_left;
            }
        }
        Ok(())
    }

    /// The seat whose clock runs: none once the game is over (an abort included), nor before
    /// every seat is taken.
    fn clock_runner(&self) -> Option<Player> {
        if self.aborted.is_some() || self.setup.is_waiting() {
            None
        } else {
            self.table.clock_runner()
        }
    }

    /// Applies an action, stores it, and only then publishes it. A refused action or a
    /// storage failure changes nothing.
    async fn perform(&mut self, seat: Player, action: Action) -> Result<(), PerformError> {
        if let Some(aborted) = &self.aborted {
            return Err(PerformError::Refused(format!("the game is over: {aborted}")));
        }
        if self.setup.is_waiting() {
            return Err(PerformError::Refused("the game starts when every seat is taken".into()));
        }
        let now = Instant::now();
        let mut table = self.table.clone();
        let applied = table.apply(seat, &action).map_err(|r| PerformError::Refused(r.0))?;
        let mut clocks = self.clocks.clone();
        if let Some(clocks) = clocks.as_mut() {
            clocks.stop(now);
            match action {
                Action::Move(_) => {
                    clocks.remaining[seat.index()] += clocks.increment;
                    clocks.moved[seat.index()] = true;
                }
                Action::Flag => clocks.remaining[seat.index()] = 0,
                _ => {}
            }
            clocks.start(table.clock_runner(), now);
        }
        let kind = match action {
            Action::Move(_) => ActionKind::Move,
            Action::Answer(_) => ActionKind::Answer,
            Action::Resign => ActionKind::Resign,
            Action::Flag => ActionKind::Flag,
            Action::OfferDraw => ActionKind::OfferDraw,
            Action::DeclineDraw => ActionKind::DeclineDraw,
            Action::RequestTakeback => ActionKind::RequestTakeback,
            Action::AnswerTakeback(_) => ActionKind::AnswerTakeback,
        };
        let stored = StoredAction {
            seq: self.seq,
            seat: seat.index(),
            kind,
            detail: applied.detail,
            clocks: clocks.as_ref().map(|c| c.remaining.clone()),
            created_ms: now_ms(),
        };
        let result = table.outcome_text();
        let wake_ms = wake_at(&self.setup, &table, clocks.as_ref(), self.settings.first_move_time).map(wall_ms);
        match self.store.append_action(&self.setup.id, &stored, result.as_deref(), wake_ms).await {
            Ok(()) => {}
            Err(StoreError::Conflict) => {
                debug!(game = %self.setup.id, "another server stored an action first; reading it");
                self.catch_up().await;
                return Err(PerformError::Overtaken);
            }
            Err(e) => {
                error!(game = %self.setup.id, "could not store an action: {e}");
                return Err(PerformError::Storage);
            }
        }
        self.stored_wake_ms = if result.is_some() { None } else { wake_ms };
        self.last_action_ms = stored.created_ms;
        self.table = table;
        self.clocks = clocks;
        self.seq += 1;
        self.moves.record(applied.entries, &self.table);
        if let Some(result) = result {
            info!(game = %self.setup.id, "game over: {result}");
        }
        self.publish();
        Ok(())
    }

    fn is_over(&self) -> bool {
        self.aborted.is_some() || self.table.is_over()
    }

    /// A seat asks for a rematch or agrees to it (`agree`), or turns it down. Bots agree at
    /// once; when every human has agreed, the new game is stored with the link to it, and every
    /// page of this game learns its id. Each step is stored, so that every process shows it.
    async fn answer_rematch(&mut self, seat: Player, agree: bool) -> Result<(), PerformError> {
        if !self.is_over() {
            return Err(PerformError::Refused("a rematch can be asked for once the game is over".into()));
        }
        if let Some(id) = &self.rematch.game {
            return Err(PerformError::Refused(format!("the rematch has started already: game {id}")));
        }
        if self.setup.is_waiting() {
            return Err(PerformError::Refused("the game expired before it started: there is nothing to play again".into()));
        }
        if !agree {
            if self.rematch.asked.is_empty() {
                return Err(PerformError::Refused("no rematch has been asked for".into()));
            }
            self.store_after_end(seat, ActionKind::DeclineRematch, String::new()).await?;
            self.rematch.asked = PlayerSet::EMPTY;
            self.publish();
            return Ok(());
        }
        if self.rematch.asked.contains(seat) {
            return Err(PerformError::Refused("you have asked for a rematch already".into()));
        }
        let mut asked = self.rematch.asked;
        asked.insert(seat);
        let mut humans = self.table.seats().into_iter().filter(|s| matches!(self.setup.seats[s.index()], SeatKind::Human { .. }));
        if !humans.all(|s| asked.contains(s)) {
            self.store_after_end(seat, ActionKind::AskRematch, String::new()).await?;
            self.rematch.asked = asked;
            self.publish();
            return Ok(());
        }
        let setup = self.setup.rematch(new_game_id(), now_ms());
        let link = self.after_end_action(seat, ActionKind::Rematch, setup.id.clone());
        match self.store.create_rematch(&setup.to_stored(), &self.setup.id, &link).await {
            Ok(()) => {}
            Err(StoreError::Conflict) => {
                self.catch_up().await;
                return Err(PerformError::Overtaken);
            }
            Err(e) => {
                error!(game = %self.setup.id, "could not store the rematch: {e}");
                return Err(PerformError::Storage);
            }
        }
        info!(game = %self.setup.id, "rematch: game {}", setup.id);
        self.seq += 1;
        self.rematch.asked = asked;
        self.rematch.game = Some(setup.id);
        self.publish();
        Ok(())
    }

    /// An action after the game's end, which the rules never see.
    fn after_end_action(&self, seat: Player, kind: ActionKind, detail: String) -> StoredAction {
        StoredAction {
            seq: self.seq,
            seat: seat.index(),
            kind,
            detail,
            clocks: self.clocks.as_ref().map(|c| c.remaining.clone()),
            created_ms: now_ms(),
        }
    }

    /// Stores an action after the game's end; on success the caller applies it.
    async fn store_after_end(&mut self, seat: Player, kind: ActionKind, detail: String) -> Result<(), PerformError> {
        let action = self.after_end_action(seat, kind, detail);
        match self.store.append_action(&self.setup.id, &action, None, None).await {
            Ok(()) => {
                self.seq += 1;
                Ok(())
            }
            Err(StoreError::Conflict) => {
                self.catch_up().await;
                Err(PerformError::Overtaken)
            }
            Err(e) => {
                error!(game = %self.setup.id, "could not store a rematch answer: {e}");
                Err(PerformError::Storage)
            }
        }
    }

    /// The human seat on its first turn, and when the game is aborted if it does not move. Bots
    /// never cause an abort; games without a clock are never aborted.
    fn abort_deadline(&self) -> Option<(Player, Instant)> {
        if self.aborted.is_some() {
            return None;
        }
        abort_deadline(&self.setup, self.clocks.as_ref()?, self.settings.first_move_time)
    }

    /// When the game must next run by itself, as it stands.
    fn wake_at(&self) -> Option<Instant> {
        wake_at(&self.setup, &self.table, self.clocks.as_ref(), self.settings.first_move_time)
    }

    /// When the game leaves memory if nothing happens: `idle_time` after the last activity,
    /// once no connection is open, no bot thinks, and nothing is due soon.
    fn unload_at(&self) -> Option<Instant> {
        let busy = self.updates.receiver_count() > 0 || self.bot_busy.is_some() || self.retry_at.is_some();
        let waking_soon = self.wake_at().is_some_and(|at| at < Instant::now() + KEEP_WHEN_WAKING_WITHIN);
        (!busy && !waking_soon).then(|| self.last_activity + self.settings.idle_time)
    }

    /// Stores when the game must wake next, if that is not what storage says (a game loaded
    /// after downtime wakes later than stored; a new game has nothing stored yet).
    async fn store_wake(&mut self) {
        let wake_ms = if self.is_over() { None } else { self.wake_at().map(wall_ms) };
        if wake_ms == self.stored_wake_ms {
            return;
        }
        match self.store.set_wake(&self.setup.id, wake_ms).await {
            Ok(()) => self.stored_wake_ms = wake_ms,
            Err(e) => warn!(game = %self.setup.id, "could not store when the game wakes: {e}"),
        }
    }

    /// Aborts the game if a human seat's first move is overdue: stored, then published.
    async fn abort_if_due(&mut self) {
        let Some((seat, at)) = self.abort_deadline() else { return };
        if Instant::now() < at {
            return;
        }
        let text = abort_text(self.table.seat_name(seat));
        let stored = StoredAction {
            seq: self.seq,
            seat: seat.index(),
            kind: ActionKind::Abort,
            detail: String::new(),
            clocks: self.clocks.as_ref().map(|c| c.remaining.clone()),
            created_ms: now_ms(),
        };
        match self.store.append_action(&self.setup.id, &stored, Some(&text), None).await {
            Ok(()) => {}
            Err(StoreError::Conflict) => {
                // Another process moved (or aborted) first: the game as it now stands decides.
                self.catch_up().await;
                return;
            }
            Err(e) => {
                error!(game = %self.setup.id, "could not store the abort: {e}");
                self.retry_at = Some(Instant::now() + Duration::from_secs(1));
                return;
            }
        }
        info!(game = %self.setup.id, "{text}");
        self.seq += 1;
        self.stored_wake_ms = None;
        if let Some(clocks) = self.clocks.as_mut() {
            clocks.start(None, Instant::now());
        }
        self.aborted = Some(text);
        self.publish();
    }

    /// Flags the seat whose clock has run out, if any.
    async fn flag_if_due(&mut self) {
        let Some((seat, at)) = self.clocks.as_ref().and_then(Clocks::deadline) else { return };
        if Instant::now() < at {
            return;
        }
        match self.perform(seat, Action::Flag).await {
            // Overtaken: the game as it now stands is looked at again by the caller's loop.
            Ok(()) | Err(PerformError::Overtaken) => {}
            Err(PerformError::Storage) => self.retry_at = Some(Instant::now() + Duration::from_secs(1)),
            Err(PerformError::Refused(e)) => {
                // The rules allow no resignation now, so the flag cannot fall: the clock stops.
                error!(game = %self.setup.id, "{} is out of time but cannot lose on time: {e}", self.table.seat_name(seat));
                if let Some(clocks) = self.clocks.as_mut() {
                    clocks.stop(Instant::now());
                }
            }
        }
    }

    /// What the server does by itself after a change: a seat out of the game passes, bots
    /// accept proposed alliances, and a bot to move starts thinking (on the game's owner).
    async fn after_change(&mut self) {
        self.settle_if_over().await;
        if self.retry_at.is_some() || self.aborted.is_some() || self.setup.is_waiting() {
            return;
        }
        for _ in 0..MAX_RACES {
            match self.forced_actions().await {
                Ok(()) => {
                    self.start_bot();
                    return;
                }
                // Another process acted first: what is forced now is looked at again.
                Err(PerformError::Overtaken) => continue,
                Err(e) => {
                    warn!(game = %self.setup.id, "the server's own action could not be played: {}", e.message());
                    self.retry_at = Some(Instant::now() + Duration::from_secs(1));
                    return;
                }
            }
        }
    }

    /// Plays what nobody chooses: the passes of seats out of the game, and the bots' answers
    /// (they agree to a proposed alliance and to another player's takeback). Any process may
    /// play them: they are the same whoever does.
    async fn forced_actions(&mut self) -> Result<(), PerformError> {
        while let Some(seat) = self.table.forced_pass() {
            self.perform(seat, Action::Move("pass".into())).await?;
        }
        let alliance = self.table.pending_answers().iter().map(|seat| (seat, Action::Answer(true)));
        let takeback = self.table.takeback_waiting().iter().map(|seat| (seat, Action::AnswerTakeback(true)));
        for (seat, answer) in alliance.chain(takeback).collect::<Vec<_>>() {
            if matches!(self.setup.seats.get(seat.index()), Some(SeatKind::Bot { .. })) {
                self.perform(seat, answer).await?;
            }
        }
        Ok(())
    }

    fn start_bot(&mut self) {
        // Only the owner thinks for the game's bots, so that no two processes do.
        if self.bot_busy.is_some() || !self.instances.owns(&self.setup.id) {
            return;
        }
        let Some(seat) = self.table.clock_runner() else { return };
        let Some(SeatKind::Bot { bot, .. }) = self.setup.seats.get(seat.index()).cloned() else { return };
        let generation = self.seq;
        let game = self.table.game().clone();
        let limits = Limits { movetime_ms: Some(self.bot_time(seat)), seed: rand::random(), ..Limits::default() };
        let tx = self.bot_tx.clone();
        self.bot_busy = Some(generation);
        // Engines run on the blocking pool, never on the async executor.
        tokio::task::spawn_blocking(move || {
            let chosen = std::panic::catch_unwind(std::panic::AssertUnwindSafe(
                || with_game!(&game, g => bot.choose(g, &limits).map(|m| move_text::canonical(g.position(), m))),
            ));
            let text = chosen.unwrap_or_else(|_| {
                error!("the {} bot panicked", bot.name());
                None
            });
            let _ = tx.send(BotReply { generation, seat, text });
        });
    }

    /// A bot's thinking time: a small share of its clock, or two seconds without a clock.
    fn bot_time(&self, seat: Player) -> u64 {
        match &self.clocks {
            Some(clocks) => {
                let left = clocks.left(seat, Instant::now());
                (left / 40 + clocks.increment / 2).clamp(50, 10_000) as u64
            }
            None => 2_000,
        }
    }

    async fn bot_reply(&mut self, reply: BotReply) {
        self.bot_busy = None;
        if self.aborted.is_some() {
            return;
        }
        if reply.generation != self.seq || self.table.clock_runner() != Some(reply.seat) {
            // The game moved on while the bot thought (a resignation, a flag).
            self.after_change().await;
            return;
        }
        self.flag_if_due().await;
        if self.seq != reply.generation {
            self.after_change().await;
            return;
        }
        let text = match reply.text {
            Some(text) => text,
            None => match self.any_legal_move() {
                Some(text) => text,
                None => {
                    error!(game = %self.setup.id, "a bot has no move to play");
                    return;
                }
            },
        };
        match self.perform(reply.seat, Action::Move(text.clone())).await {
            // Overtaken: the game moved on elsewhere while the bot thought; it looks again.
            Ok(()) | Err(PerformError::Overtaken) => {}
            Err(PerformError::Refused(e)) => {
                // An engine bug must not stop the game: any legal move will do.
                error!(game = %self.setup.id, "the bot's move {text} was refused: {e}");
                if let Some(fallback) = self.any_legal_move() {
                    let played = self.perform(reply.seat, Action::Move(fallback)).await;
                    if let Err(e @ (PerformError::Refused(_) | PerformError::Storage)) = played {
                        warn!(game = %self.setup.id, "the bot's fallback move was not played: {}", e.message());
                        self.retry_at = Some(Instant::now() + Duration::from_secs(1));
                        return;
                    }
                }
            }
            Err(PerformError::Storage) => {
                self.retry_at = Some(Instant::now() + Duration::from_secs(1));
                return;
            }
        }
        self.after_change().await;
    }

    fn any_legal_move(&self) -> Option<String> {
        with_game!(self.table.game(), g => {
            let mut legal = MoveList::new();
            g.legal_moves(&mut legal);
            legal.first().map(|&m| move_text::canonical(g.position(), m))
        })
    }

    /// Sends every connection what changed, serialized once for all of them.
    fn publish(&mut self) {
        if self.updates.receiver_count() == 0 {
            // Nobody to tell: the next joiner gets the whole state.
            self.moves.take_changes();
            return;
        }
        let seats = self.seats_view();
        let table = self.table_view();
        let rematch = self.rematch_view();
        let open_until_ms = self.open_until_ms();
        let (moves_from, moves) = self.moves.take_changes();
        let update = wire::GameUpdate {
            version: self.seq,
            open_until_ms,
            seats,
            table,
            moves_from,
            moves: moves.to_vec(),
            opening_events: self.moves.opening_events().to_vec(),
            rematch,
        };
        let message = wire::ServerMessage::Update { game: Box::new(update) };
        // The wire types have only text keys, so writing them cannot fail.
        let text = serde_json::to_string(&message).expect("an update is JSON");
        let _ = self.updates.send(Utf8Bytes::from(text));
    }

    /// The game state of docs/API.md, as a spectator sees it (`you` is none).
    fn state(&self) -> wire::GameState {
        wire::GameState {
            id: self.setup.id.clone(),
            version: self.seq,
            variant: self.setup.variant.name().to_string(),
            rules: self.setup.rules.clone(),
            clock: self.setup.clock.map(|c| wire::Clock { initial_ms: c.initial_ms, increment_ms: c.increment_ms }),
            rated: self.setup.rated,
            open_until_ms: self.open_until_ms(),
            seats: self.seats_view(),
            table: self.table_view(),
            moves: self.moves.moves().to_vec(),
            opening_events: self.moves.opening_events().to_vec(),
            rematch: self.rematch_view(),
            you: None,
        }
    }

    /// When the game expires, while it waits for players (not once it expired).
    fn open_until_ms(&self) -> Option<i64> {
        self.setup.open_until_ms.filter(|_| self.aborted.is_none() && self.setup.is_waiting())
    }

    /// Whether a seat has a connection open, here or through another process.
    fn is_connected(&self, seat: Player) -> bool {
        let i = seat.index();
        self.connected[i] > 0 || self.connected_elsewhere.values().any(|counts| counts.get(i).is_some_and(|&n| n > 0))
    }

    fn seats_view(&self) -> Vec<wire::SeatState> {
        let now = Instant::now();
        let table = &self.table;
        table
            .seats()
            .into_iter()
            .map(|seat| {
                let (occupant, connected, player) = match &self.setup.seats[seat.index()] {
                    SeatKind::Human { player, .. } => (
                        wire::Occupant::Human,
                        self.is_connected(seat),
                        player.as_ref().map(|p| wire::SeatPlayer { name: p.name.clone(), rating: p.rating.shown() }),
                    ),
                    SeatKind::Open => (wire::Occupant::Open, false, None),
                    SeatKind::Bot { level, .. } => (wire::Occupant::Bot { level: level.clone() }, true, None),
                };
                wire::SeatState {
                    seat: table.seat_name(seat).to_string(),
                    occupant,
                    connected,
                    clock_ms: self.clocks.as_ref().map(|c| c.left(seat, now)),
                    active: table.active(seat),
                    player,
                }
            })
            .collect()
    }

    /// The rules' view of the game, ended by the server on top of them if it was aborted.
    fn table_view(&self) -> wire::TableView {
        let mut view = self.table.view();
        if self.setup.is_waiting() {
            // Nobody moves before every seat is taken.
            view.legal_moves.clear();
        }
        if let Some(text) = &self.aborted {
            // The rules know nothing of an abort: the server ends the game on top of them.
            view.drawn.to_move = None;
            view.legal_moves.clear();
            view.pending_alliance = None;
            view.draw_offered_by.clear();
            view.outcome = Some(wire::OutcomeView { text: text.clone(), placings: Default::default(), aborted: true });
        }
        view
    }

    /// Once the game is over: who asked for a rematch, the new game, and where each player goes.
    fn rematch_view(&self) -> Option<wire::RematchView> {
        if !self.is_over() {
            return None;
        }
        let table = &self.table;
        let seats = table.seats();
        let next_seat = seats
            .iter()
            .zip(seats.iter().cycle().skip(1))
            .map(|(&here, &there)| (table.seat_name(here).to_string(), table.seat_name(there).to_string()))
            .collect();
        Some(wire::RematchView {
            offered_by: seats
                .iter()
                .filter(|s| self.rematch.asked.contains(**s))
                .map(|&s| table.seat_name(s).to_string())
                .collect(),
            game: self.rematch.game.clone(),
            next_seat,
        })
    }

    fn record(&self) -> String {
        let table = &self.table;
        let mut tags = vec![("Date".to_string(), date_tag(self.setup.created_ms))];
        for seat in table.seats() {
            let who = match &self.setup.seats[seat.index()] {
                SeatKind::Human { player: Some(player), .. } => player.name.clone(),
                SeatKind::Human { player: None, .. } => "Human".to_string(),
                SeatKind::Open => "Open seat".to_string(),
                // The level as players read it ("Bot (Easy)"), an old engine name as stored.
                SeatKind::Bot { level, .. } => {
                    format!("Bot ({})", polyshogi_engine::Level::from_name(level).map_or(level.as_str(), |l| l.label()))
                }
            };
            tags.push((table.seat_name(seat).to_string(), who));
        }
        tags.push(("Site".to_string(), format!("polyshogi server, game {}", self.setup.id)));
        if let Some(aborted) = &self.aborted {
            // The rules' result stays open (`*`): an aborted game has none.
            tags.push(("Termination".to_string(), aborted.clone()));
        }
        write_record(table, &tags)
    }
}

/// When the game must next run by itself: when it expires while it waits for players; at once
/// when a bot is to move, else when a clock falls or a first move is overdue, whichever comes
/// first; `None` when nothing happens in the game by itself (a human to move without a clock,
/// or the game over).
fn wake_at(setup: &GameSetup, table: &Table, clocks: Option<&Clocks>, first_move_time: Duration) -> Option<Instant> {
    if table.is_over() {
        return None;
    }
    if setup.is_waiting() {
        return setup.open_until_ms.map(instant_of_wall_ms);
    }
    if table.clock_runner().is_some_and(|seat| matches!(setup.seats[seat.index()], SeatKind::Bot { .. })) {
        return Some(Instant::now());
    }
    let clocks = clocks?;
    let flag = clocks.deadline().map(|(_, at)| at);
    let abort = abort_deadline(setup, clocks, first_move_time).map(|(_, at)| at);
    flag.into_iter().chain(abort).min()
}

/// The human seat on its first turn, and when the game is aborted if it does not move. Bots
/// never cause an abort.
fn abort_deadline(setup: &GameSetup, clocks: &Clocks, first_move_time: Duration) -> Option<(Player, Instant)> {
    let (seat, since) = clocks.first_turn?;
    match setup.seats.get(seat.index()) {
        Some(SeatKind::Human { .. }) => Some((seat, since + first_move_time)),
        _ => None,
    }
}

/// A time in ms since the epoch as an instant of this process's clock.
fn instant_of_wall_ms(ms: i64) -> Instant {
    let now = Instant::now();
    let ahead = ms - now_ms();
    if ahead >= 0 {
        now + Duration::from_millis(ahead as u64)
    } else {
        now.checked_sub(Duration::from_millis(ahead.unsigned_abs())).unwrap_or(now)
    }
}

/// What an expired game's outcome says.
const EXPIRED_TEXT: &str = "Expired: nobody took the open seats in time";

/// An instant as ms since the epoch (for storage, which outlives the process's clock).
fn wall_ms(at: Instant) -> i64 {
    let now = Instant::now();
    match at.checked_duration_since(now) {
        Some(ahead) => now_ms() + ahead.as_millis() as i64,
        None => now_ms() - now.duration_since(at).as_millis() as i64,
    }
}

/// What an aborted game's outcome says.
fn abort_text(seat_name: &str) -> String {
    format!("Game aborted: {seat_name} did not make a first move in time")
}
