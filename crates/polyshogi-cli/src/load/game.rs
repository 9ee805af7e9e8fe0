//! One game slot of the load tool: creates a game with every seat human, connects its seats and
//! spectators, plays it to its end, and starts the next one, until the run stops. With
//! `--from-ply`, a slot first plays one game to that ply (the prefix), then plays only it on.

use std::time::Duration;

use futures_util::future::join_all;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use tokio::time::{sleep_until, timeout, Instant};

use super::connection::{self, GameShared, Seat, SeatRules, Socket, Window};
use super::lasting::LastingGame;
use super::protocol::{self, Created, GameView};
use super::stats::Tally;

/// How long a refused or failed game creation waits before the next try.
const RETRY_AFTER: Duration = Duration::from_millis(200);
/// How long opening one WebSocket may take.
const CONNECT_PATIENCE: Duration = Duration::from_secs(10);
/// At most this many games per slot in one run, whatever happens.
const MAX_GAMES_PER_SLOT: u32 = 1_000_000;

/// What every slot of a run shares.
#[derive(Debug, Clone)]
pub struct SlotPlan {
    pub http: reqwest::Client,
    /// `http://host:port`, without a trailing slash.
    pub base_url: String,
    pub variant: String,
    pub seats: Vec<String>,
    pub spectators: usize,
    pub rules: SeatRules,
    pub window: Window,
    pub seed: u64,
    /// 0: random games, each replaced when it ends. N: games kept going (the tool plays each
    /// too), every slot's played to ply N by `prepare_slot` before `run_slot` plays it on.
    pub from_ply: u32,
}

impl SlotPlan {
    /// The plan of the prefix: no spectators, nothing measured, the seats stopping at the ply.
    pub fn for_prefix(&self, stop_at: Instant, drain: Duration) -> SlotPlan {
        SlotPlan {
            spectators: 0,
            rules: SeatRules { stop_at_ply: Some(self.from_ply), ..self.rules },
            window: Window::unmeasured(stop_at, drain),
            ..self.clone()
        }
    }
}

/// A game played to the prefix's ply, its seats disconnected, to be played on.
pub struct PreparedGame {
    created: Created,
    lasting: LastingGame,
    accepted_moves: u64,
}

/// A game the tool played and the moves the server accepted in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayedGame {
    pub id: String,
    pub accepted_moves: u64,
}

/// Plays games one after another in slot `slot` until the run stops; with `--from-ply`, only its
/// prepared game, if it has one (a new game would be measured from its first move).
pub async fn run_slot(slot: usize, plan: &SlotPlan, prepared: Option<PreparedGame>) -> (Tally, Vec<PlayedGame>) {
    if plan.from_ply > 0 {
        let Some(PreparedGame { created, lasting, accepted_moves }) = prepared else {
            return (Tally::default(), Vec::new());
        };
        let seed = mix(plan.seed, slot as u64, u64::from(MAX_GAMES_PER_SLOT));
        let (tally, accepted_after, _) = play_game(plan, &created, seed, Some(lasting)).await;
        return (tally, vec![PlayedGame { id: created.id, accepted_moves: accepted_moves + accepted_after }]);
    }
    let mut tally = Tally::default();
    let mut played = Vec::new();
    for game_number in 0..MAX_GAMES_PER_SLOT {
        let Some(created) = create_before_stop(plan, &mut tally).await else { break };
        let seed = mix(plan.seed, slot as u64, u64::from(game_number));
        let (game_tally, accepted_moves, _) = play_game(plan, &created, seed, None).await;
        tally.merge(game_tally);
        played.push(PlayedGame { id: created.id, accepted_moves });
    }
    (tally, played)
}

/// Plays games in slot `slot` (under `SlotPlan::for_prefix`), the tool's copy of each from
/// `start`, until one reaches the prefix's ply still going, and answers it; `None` if none did
/// before the plan's stop. The games that did not make it (a broken connection, or an end the
/// tool could not avoid) are in the list.
pub async fn prepare_slot(slot: usize, plan: &SlotPlan, start: &LastingGame) -> (Tally, Option<PreparedGame>, Vec<PlayedGame>) {
    let mut tally = Tally::default();
    let mut given_up = Vec::new();
    for game_number in 0..MAX_GAMES_PER_SLOT {
        let Some(created) = create_before_stop(plan, &mut tally).await else { break };
        // Seeds apart from the measured run's (whose games are numbered from the top).
        let seed = mix(plan.seed, slot as u64, u64::from(game_number));
        let (game_tally, accepted_moves, lasting) = play_game(plan, &created, seed, Some(start.clone())).await;
        tally.merge(game_tally);
        // Every seat counts its own moves as their broadcasts come, and stops at the ply only
        // once its last move is counted: the count is the server's.
        match lasting {
            Some(lasting) if accepted_moves == u64::from(plan.from_ply) && !lasting.is_over() => {
                return (tally, Some(PreparedGame { created, lasting, accepted_moves }), given_up);
            }
            _ => given_up.push(PlayedGame { id: created.id, accepted_moves }),
        }
    }
    (tally, None, given_up)
}

/// `POST /api/games`; `Err` for no answer, an error status or an unreadable reply.
/// Creates a game for a slot, trying again after each failure (counted in `tally`); `None`
/// once the plan's stop has come.
async fn create_before_stop(plan: &SlotPlan, tally: &mut Tally) -> Option<Created> {
    while Instant::now() < plan.window.stop_at {
        match create_game(plan).await {
            Ok(created) => return Some(created),
            Err(()) => {
                tally.errors.http += 1;
                sleep_until((Instant::now() + RETRY_AFTER).min(plan.window.stop_at)).await;
            }
        }
    }
    None
}

async fn create_game(plan: &SlotPlan) -> Result<Created, ()> {
    let body = protocol::new_game_body(&plan.variant, plan.seats.len());
    let url = format!("{}/api/games", plan.base_url);
    let response = plan.http.post(url).json(&body).send().await.map_err(|_| ())?;
    if response.status().as_u16() != 201 {
        return Err(());
    }
    let created: Created = response.json().await.map_err(|_| ())?;
    if created.seats.len() != plan.seats.len() || created.seats.iter().any(|seat| seat.token.is_none()) {
        return Err(());
    }
    Ok(created)
}

/// Connects every seat and spectator of a created game and plays it to its end (or the run's,
/// or the plan's stop ply). Answers what it counted, the moves accepted, and the tool's copy of
/// the game when it keeps one.
async fn play_game(
    plan: &SlotPlan,
    created: &Created,
    seed: u64,
    lasting: Option<LastingGame>,
) -> (Tally, u64, Option<LastingGame>) {
    let mut tally = Tally::default();
    let ws_url = format!("{}/api/games/{}/ws", plan.base_url.replacen("http://", "ws://", 1), created.id);
    let connections = plan.seats.len() + plan.spectators;
    let opened = join_all((0..connections).map(|_| connect(&ws_url))).await;
    let failed = opened.iter().filter(|socket| socket.is_none()).count();
    if failed > 0 {
        tally.errors.connect_failed += failed as u64;
        return (tally, 0, lasting);
    }
    let mut sockets = opened.into_iter().flatten();
    let game = GameShared::new(plan.rules.max_plies, lasting);
    let view = GameView::new(plan.seats.clone());
    let mut rngs: Vec<SmallRng> = (0..plan.seats.len()).map(|seat| SmallRng::seed_from_u64(mix(seed, seat as u64, 0))).collect();
    let seat_sockets: Vec<Socket> = sockets.by_ref().take(plan.seats.len()).collect();
    let seats =
        seat_sockets.into_iter().zip(&created.seats).zip(rngs.iter_mut()).enumerate().map(|(me, ((socket, seat), rng))| {
            let token = seat.token.as_deref().unwrap_or_default();
            let seat = Seat { socket, token, me, view: view.clone() };
            connection::play_seat(seat, &game, plan.window, plan.rules, rng)
        });
    let seats_then_end = async {
        let results = join_all(seats).await;
        // The spectators stop watching once the seats are done.
        game.end();
        results
    };
    let spectators = join_all(sockets.map(|socket| connection::watch_game(socket, view.clone(), &game, plan.window)));
    let (seat_results, spectator_tallies) = tokio::join!(seats_then_end, spectators);
    let mut accepted = 0;
    for (seat_tally, seat_accepted) in seat_results {
        tally.merge(seat_tally);
        accepted += seat_accepted;
    }
    for spectator_tally in spectator_tallies {
        tally.merge(spectator_tally);
    }
    (tally, accepted, game.into_lasting())
}

/// Opens one WebSocket, with Nagle's algorithm off (small moves go out at once).
async fn connect(url: &str) -> Option<Socket> {
    let opening = tokio_tungstenite::connect_async_with_config(url, None, true);
    match timeout(CONNECT_PATIENCE, opening).await {
        Ok(Ok((socket, _))) => Some(socket),
        _ => None,
    }
}

/// A seed for one part of the run from the run's seed (SplitMix64's finaliser).
fn mix(seed: u64, a: u64, b: u64) -> u64 {
    let mut z = seed ^ a.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ b.wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
