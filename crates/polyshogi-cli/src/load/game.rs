//! One game slot of the load tool: creates a game with every seat human, connects its seats and
//! spectators, plays it to its end, and starts the next one, until the run stops.

use std::time::Duration;

use futures_util::future::join_all;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use tokio::time::{sleep_until, timeout, Instant};

use super::connection::{self, GameShared, Seat, SeatRules, Socket, Window};
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
}

/// A game the tool played and the moves the server accepted in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayedGame {
    pub id: String,
    pub accepted_moves: u64,
}

/// Plays games one after another in slot `slot` until the run stops.
pub async fn run_slot(slot: usize, plan: &SlotPlan) -> (Tally, Vec<PlayedGame>) {
    let mut tally = Tally::default();
    let mut played = Vec::new();
    for game_number in 0..MAX_GAMES_PER_SLOT {
        if Instant::now() >= plan.window.stop_at {
            break;
        }
        let created = match create_game(plan).await {
            Ok(created) => created,
            Err(()) => {
                tally.errors.http += 1;
                sleep_until((Instant::now() + RETRY_AFTER).min(plan.window.stop_at)).await;
                continue;
            }
        };
        let seed = mix(plan.seed, slot as u64, u64::from(game_number));
        let (game_tally, accepted_moves) = play_game(plan, &created, seed).await;
        tally.merge(game_tally);
        played.push(PlayedGame { id: created.id, accepted_moves });
    }
    (tally, played)
}

/// `POST /api/games`; `Err` for no answer, an error status or an unreadable reply.
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

/// Connects every seat and spectator of a created game and plays it to its end (or the run's).
async fn play_game(plan: &SlotPlan, created: &Created, seed: u64) -> (Tally, u64) {
    let mut tally = Tally::default();
    let ws_url = format!("{}/api/games/{}/ws", plan.base_url.replacen("http://", "ws://", 1), created.id);
    let connections = plan.seats.len() + plan.spectators;
    let opened = join_all((0..connections).map(|_| connect(&ws_url))).await;
    let failed = opened.iter().filter(|socket| socket.is_none()).count();
    if failed > 0 {
        tally.errors.connect_failed += failed as u64;
        return (tally, 0);
    }
    let mut sockets = opened.into_iter().flatten();
    let game = GameShared::new(plan.rules.max_plies);
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
    (tally, accepted)
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
