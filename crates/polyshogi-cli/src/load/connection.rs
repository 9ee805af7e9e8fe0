//! One WebSocket connection of the load tool: a seat that plays a random legal move whenever
//! it is its turn (one that keeps the game going, with `--from-ply`), at most as fast as the
//! server's rate limit allows, or a spectator that only watches. Both time each move from its
//! sending to its broadcast, matched by move count.

use std::borrow::Cow;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use tokio::net::TcpStream;
use tokio::sync::watch;
use tokio::time::{sleep_until, timeout, Instant};
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use super::lasting::LastingGame;
use super::protocol::{self, GameView, Update};
use super::stats::Tally;

pub type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// At most this many messages and timer wakes per connection: a guard only, as every
/// connection's loop also ends at the run's deadline.
const MAX_WAKES: u64 = 100_000_000;
/// How long closing a socket may take before it is simply dropped.
const CLOSE_PATIENCE: Duration = Duration::from_secs(1);

/// The run's timeline: moves sent from `measure_from` on are counted; nothing new is sent from
/// `stop_at` on; a move already sent is waited for until `drain_until`.
#[derive(Debug, Clone, Copy)]
pub struct Window {
    pub measure_from: Instant,
    pub stop_at: Instant,
    pub drain_until: Instant,
}

impl Window {
    fn measures(&self, sent: Instant) -> bool {
        sent >= self.measure_from && sent < self.stop_at
    }

    /// A window that measures nothing and stops at `stop_at`: for the unmeasured prefix.
    pub fn unmeasured(stop_at: Instant, drain: Duration) -> Window {
        Window { measure_from: stop_at, stop_at, drain_until: stop_at + drain }
    }
}

/// Shared by the connections of one game.
pub struct GameShared {
    /// When each move was sent, by ply (index `ply - 1`): spectators measure from it.
    sent_at: Mutex<Vec<Option<Instant>>>,
    /// Set when the game is given up (a seat's connection broke) or its seats are done: the
    /// other connections stop waiting.
    over: watch::Sender<bool>,
    /// The tool's own copy of the game, with `--from-ply`: the seats pick moves that keep it
    /// going, and play each on it as they pick it.
    lasting: Option<Mutex<LastingGame>>,
}

/// What the seat to move sends.
#[derive(Debug, PartialEq, Eq)]
enum Choice<'m> {
    Move(Cow<'m, str>),
    Resign,
    /// The tool's copy of the game no longer matches the server's.
    Diverged,
}

impl GameShared {
    pub fn new(max_plies: u32, lasting: Option<LastingGame>) -> GameShared {
        let plies = usize::try_from(max_plies).unwrap_or(usize::MAX).min(100_000);
        GameShared {
            sent_at: Mutex::new(Vec::with_capacity(plies)),
            over: watch::Sender::new(false),
            lasting: lasting.map(Mutex::new),
        }
    }

    /// The tool's copy of the game, to play on after a reconnection.
    pub fn into_lasting(self) -> Option<LastingGame> {
        self.lasting.map(|lasting| lasting.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner()))
    }

    pub fn end(&self) {
        self.over.send_replace(true);
    }

    fn note_sent(&self, ply: u32, at: Instant) {
        let index = ply as usize - 1;
        let mut sent_at = self.sent_at.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if sent_at.len() <= index {
            sent_at.resize(index + 1, None);
        }
        sent_at[index] = Some(at);
    }

    fn sent(&self, ply: u32) -> Option<Instant> {
        let sent_at = self.sent_at.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        sent_at.get(ply as usize - 1).copied().flatten()
    }

    /// The move of the seat to move after `plies` moves, from the server's `legal_moves`: a
    /// random one, or a resignation at `max_plies`; with the tool's own copy of the game, one
    /// that keeps it going, whatever its length.
    fn choose<'m>(&self, legal_moves: &[&'m str], plies: u32, max_plies: u32, rng: &mut SmallRng) -> Choice<'m> {
        let Some(lasting) = &self.lasting else {
            return match legal_moves.choose(rng) {
                Some(text) if plies < max_plies => Choice::Move(Cow::Borrowed(text)),
                _ => Choice::Resign,
            };
        };
        let mut lasting: MutexGuard<LastingGame> = lasting.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if lasting.plies() != plies as usize {
            return Choice::Diverged;
        }
        match lasting.play_lasting_move(rng) {
            // The server's list is the truth: a move outside it means the copy went wrong.
            Some(text) if legal_moves.contains(&text.as_str()) => Choice::Move(Cow::Owned(text)),
            None if legal_moves.is_empty() => Choice::Resign,
            _ => Choice::Diverged,
        }
    }
}

/// How a seat plays.
#[derive(Debug, Clone, Copy)]
pub struct SeatRules {
    /// The least time between two messages of one connection (the server's rate limit).
    pub pace: Duration,
    /// At this many moves, the seat to move resigns (not with the tool's own copy of the game,
    /// which keeps games going).
    pub max_plies: u32,
    /// At this many moves, the seats stop and close their connections, the game left going:
    /// the end of the unmeasured prefix of `--from-ply`.
    pub stop_at_ply: Option<u32>,
}

/// What a seat sent and waits to see broadcast.
#[derive(Debug, Clone, Copy)]
enum Pending {
    /// A move that will be move number `ply`.
    Move { ply: u32, sent: Instant },
    /// A resignation: done when the game is.
    Resign,
}

/// A seat's connection, before its hello.
pub struct Seat<'a> {
    pub socket: Socket,
    pub token: &'a str,
    /// Its index in the game's seats.
    pub me: usize,
    pub view: GameView,
}

/// A seat: says hello with its token, then plays until its game ends or the run stops.
/// Answers what it counted and how many of its moves the server accepted.
pub async fn play_seat(seat: Seat<'_>, game: &GameShared, window: Window, rules: SeatRules, rng: &mut SmallRng) -> (Tally, u64) {
    let Seat { mut socket, token, me, mut view } = seat;
    let mut tally = Tally::default();
    let mut accepted_in_game = 0;
    let mut over = game.over.subscribe();
    let mut last_sent = Instant::now();
    if socket.send(Message::text(protocol::hello(Some(token)))).await.is_err() {
        tally.errors.disconnected += 1;
        game.end();
        return (tally, 0);
    }
    // The message to send when the pace allows, kept until accepted (resent after "slow down").
    let mut ready: Option<Utf8Bytes> = None;
    let mut ready_is_resign = false;
    let mut pending: Option<Pending> = None;
    let mut out = String::with_capacity(64);
    for _ in 0..MAX_WAKES {
        let now = Instant::now();
        let stopping = now >= window.stop_at;
        if (stopping && pending.is_none()) || now >= window.drain_until {
            if pending.is_some() {
                tally.errors.unconfirmed += 1;
            }
            break;
        }
        let send_at = last_sent + rules.pace;
        // Wake to send only a message that is ready and not already waiting for its answer.
        let wake = match (ready.is_some() && pending.is_none(), stopping) {
            (_, true) => window.drain_until,
            (true, false) => send_at.min(window.stop_at),
            (false, false) => window.stop_at,
        };
        tokio::select! {
            biased;
            message = socket.next() => {
                let received = Instant::now();
                let text = match message {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Ping(_) | Message::Pong(_) | Message::Binary(_) | Message::Frame(_))) => continue,
                    None | Some(Err(_)) | Some(Ok(Message::Close(_))) => {
                        tally.errors.disconnected += 1;
                        game.end();
                        break;
                    }
                };
                match view.apply(text.as_str()) {
                    Err(_) => {
                        tally.errors.unreadable += 1;
                        game.end();
                        break;
                    }
                    Ok(Update::Stale) => {}
                    Ok(Update::Refused(reason)) => {
                        let rate_limited = protocol::is_rate_limited(&reason);
                        if rate_limited {
                            tally.errors.rate_limited += 1;
                        } else {
                            tally.errors.refused += 1;
                        }
                        if pending.take().is_some() && !rate_limited && !ready_is_resign {
                            // A move the server calls illegal: end the game rather than guess.
                            protocol::write_resign(&mut out);
                            ready = Some(Utf8Bytes::from(std::mem::take(&mut out)));
                            ready_is_resign = true;
                        }
                        // A rate-limited message stays `ready` and goes again at the next pace.
                    }
                    Ok(Update::State { legal_moves, whole }) => {
                        tally.messages.record(whole, text.len(), window.measures(received));
                        match pending {
                            // Only this seat acts on its turn, so a newer state has its resignation.
                            Some(Pending::Resign) => {
                                pending = None;
                                ready = None;
                            }
                            Some(Pending::Move { ply, sent }) if view.plies >= ply => {
                                pending = None;
                                ready = None;
                                accepted_in_game += 1;
                                tally.accepted_total += 1;
                                if window.measures(sent) {
                                    tally.record_measured_move(ply, received.saturating_duration_since(sent));
                                }
                            }
                            Some(Pending::Move { .. }) | None => {}
                        }
                        // Every seat sees the move that reaches the stop; its mover has just
                        // counted it, so no move is left waiting.
                        if view.finished || rules.stop_at_ply.is_some_and(|stop| view.plies >= stop) {
                            break;
                        }
                        if view.to_move == Some(me) && pending.is_none() && ready.is_none() && !stopping {
                            let Ok(legal_moves) = legal_moves.texts() else {
                                tally.errors.unreadable += 1;
                                game.end();
                                break;
                            };
                            match game.choose(&legal_moves, view.plies, rules.max_plies, rng) {
                                Choice::Move(text) => {
                                    protocol::write_move(&mut out, &text);
                                    ready_is_resign = false;
                                }
                                Choice::Resign => {
                                    protocol::write_resign(&mut out);
                                    ready_is_resign = true;
                                }
                                Choice::Diverged => {
                                    tally.errors.diverged += 1;
                                    game.end();
                                    break;
                                }
                            }
                            ready = Some(Utf8Bytes::from(std::mem::take(&mut out)));
                        }
                    }
                }
            }
            _ = sleep_until(wake) => {
                let now = Instant::now();
                if stopping || now < send_at || now >= window.stop_at || pending.is_some() {
                    continue;
                }
                let Some(message) = ready.clone() else { continue };
                let next = if ready_is_resign {
                    Pending::Resign
                } else {
                    let ply = view.plies + 1;
                    game.note_sent(ply, now);
                    Pending::Move { ply, sent: now }
                };
                last_sent = now;
                if socket.send(Message::Text(message)).await.is_err() {
                    tally.errors.disconnected += 1;
                    game.end();
                    break;
                }
                pending = Some(next);
            }
            _ = over.changed() => break,
        }
    }
    let _ = timeout(CLOSE_PATIENCE, socket.close(None)).await;
    (tally, accepted_in_game)
}

/// A spectator: says hello without a token and times every move it sees, from its sending by
/// the seat to its broadcast here.
pub async fn watch_game(mut socket: Socket, mut view: GameView, game: &GameShared, window: Window) -> Tally {
    let mut tally = Tally::default();
    let mut over = game.over.subscribe();
    if socket.send(Message::text(protocol::hello(None))).await.is_err() {
        tally.errors.disconnected += 1;
        return tally;
    }
    // Moves seen so far; those made before the first state are not timed.
    let mut seen: Option<u32> = None;
    for _ in 0..MAX_WAKES {
        if Instant::now() >= window.stop_at {
            break;
        }
        tokio::select! {
            biased;
            message = socket.next() => {
                let received = Instant::now();
                let text = match message {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Ping(_) | Message::Pong(_) | Message::Binary(_) | Message::Frame(_))) => continue,
                    None | Some(Err(_)) | Some(Ok(Message::Close(_))) => {
                        tally.errors.disconnected += 1;
                        break;
                    }
                };
                match view.apply(text.as_str()) {
                    Err(_) => {
                        tally.errors.unreadable += 1;
                        break;
                    }
                    Ok(Update::Stale) => {}
                    Ok(Update::Refused(_)) => tally.errors.refused += 1,
                    Ok(Update::State { whole, .. }) => {
                        tally.messages.record(whole, text.len(), window.measures(received));
                        // States may skip moves (the server sends a slow connection only the
                        // newest): every move between the last state and this one is timed.
                        for ply in seen.map_or(view.plies + 1, |seen| seen + 1)..=view.plies {
                            if let Some(sent) = game.sent(ply).filter(|&sent| window.measures(sent)) {
                                tally.spectator.record(received.saturating_duration_since(sent));
                            }
                        }
                        seen = Some(view.plies);
                        if view.finished {
                            break;
                        }
                    }
                }
            }
            _ = sleep_until(window.stop_at) => break,
            _ = over.changed() => break,
        }
    }
    let _ = timeout(CLOSE_PATIENCE, socket.close(None)).await;
    tally
}
