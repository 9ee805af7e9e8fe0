//! Requests for games that do not exist, at a steady rate beside the games, so that a run shows
//! whether they slow the games down (they must not: issue 15).

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tokio::task::JoinSet;
use tokio::time::{interval, Duration, Instant};

/// What the unknown-id requests got.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FloodTally {
    pub sent: u64,
    /// Answered 404, as they should be.
    pub not_found: u64,
    /// Any other answer, or none.
    pub other: u64,
}

/// Sends `per_second` requests a second for random game ids until `stop_at`, without waiting
/// for one answer before the next request; answers once every request is answered.
pub async fn flood(http: reqwest::Client, base_url: String, per_second: f64, stop_at: Instant, seed: u64) -> FloodTally {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut every = interval(Duration::from_secs_f64(1.0 / per_second));
    let mut requests = JoinSet::new();
    let mut tally = FloodTally::default();
    while Instant::now() < stop_at {
        every.tick().await;
        // Ten lowercase letters or digits: the shape of a game id, so the server looks it up.
        let id: String = (0..10).map(|_| char::from(b"abcdefghijklmnopqrstuvwxyz0123456789"[rng.gen_range(0..36)])).collect();
        let request = http.get(format!("{base_url}/api/games/{id}"));
        requests.spawn(async move { request.send().await.map(|r| r.status().as_u16()).ok() });
        tally.sent += 1;
    }
    while let Some(answer) = requests.join_next().await {
        match answer {
            Ok(Some(404)) => tally.not_found += 1,
            _ => tally.other += 1,
        }
    }
    tally
}
