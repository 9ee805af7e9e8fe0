//! The limits a server is started with: how many connections it holds, how long a client may
//! take, and how fast one seat or one client address may act. docs/API.md tells each answer.

use std::num::NonZeroU32;
use std::time::Duration;

use governor::Quota;

/// A rate: `burst` at once, then one more every `every` (a token bucket).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Rate {
    pub burst: u32,
    pub every: Duration,
}

impl Rate {
    /// `count` a second, and as many at once.
    pub fn per_second(count: u32) -> Rate {
        Rate { burst: count, every: Duration::from_secs(1) / count.max(1) }
    }

    /// The same rate as `governor` counts it; a zero burst or period is read as one.
    pub fn quota(self) -> Quota {
        let burst = NonZeroU32::new(self.burst).unwrap_or(NonZeroU32::MIN);
        let every = self.every.max(Duration::from_nanos(1));
        Quota::with_period(every).expect("the period is not zero").allow_burst(burst)
    }
}

#[derive(Clone, Debug)]
pub struct Limits {
    /// TCP connections open at once (WebSockets included); one more is answered `503` and
    /// closed at once, never queued.
    pub max_connections: usize,
    /// Time to send a request's headers, from the connection's start or, on a kept-alive
    /// connection, from the previous answer: half-sent headers and silent sockets are closed.
    pub header_timeout: Duration,
    /// Time to send a request's body once its headers are in.
    pub body_timeout: Duration,
    /// A connection on which nothing arrives for this long, or a write waits this long for
    /// the client to read, is closed. WebSockets are pinged every 30 s and browsers answer, so
    /// only a client that is gone or ignores the protocol reaches it.
    pub idle_timeout: Duration,
    /// WebSocket messages per seat of a game, over all the connections that hold it.
    pub seat_messages: Rate,
    /// WebSocket messages per client address, over all its connections (`None`: no limit).
    pub address_messages: Option<Rate>,
    /// Games created per client address (`None`: no limit).
    pub address_games: Option<Rate>,
    /// Accounts registered per client address (`None`: no limit).
    pub address_registrations: Option<Rate>,
    /// Login attempts per client address, and per account name whatever the address (`None`:
    /// no limit): guessing a password takes forever.
    pub address_logins: Option<Rate>,
    pub name_logins: Option<Rate>,
    /// Take the client's address from the last `X-Forwarded-For` hop, as a reverse proxy in
    /// front of the server writes it. Off, the TCP peer is the client: a header anyone can
    /// send must not choose whose budget a request spends.
    pub trust_proxy: bool,
    /// Engine analyses running at once, server-wide: they take a core each, and live games'
    /// bots need the rest.
    pub analysers: usize,
    /// Analyses at once per client address (`None`: no limit).
    pub address_analyses: Option<usize>,
    /// How long one analysis may run.
    pub analysis_time: Duration,
    /// Positions the engine searches per ply of a game review (a review runs alone, in the
    /// background).
    pub review_nodes: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            // Far below what one process can serve, above what one small server meets; the
            // file-descriptor limit (`ulimit -n`) must be above it.
            max_connections: 10_000,
            header_timeout: Duration::from_secs(20),
            body_timeout: Duration::from_secs(20),
            // Three missed pings.
            idle_timeout: Duration::from_secs(90),
            // What one connection was allowed before: a person sends a few a second at most.
            seat_messages: Rate::per_second(20),
            // A hot-seat page holds three seats, and players behind one NAT share an address.
            address_messages: Some(Rate::per_second(100)),
            // A few games at once, then one every 6 s (10 a minute).
            address_games: Some(Rate { burst: 10, every: Duration::from_secs(6) }),
            // A family behind one address at once, then one every six minutes.
            address_registrations: Some(Rate { burst: 10, every: Duration::from_secs(360) }),
            address_logins: Some(Rate { burst: 20, every: Duration::from_secs(3) }),
            // A few mistypes, then one try every 20 s: 4,320 guesses a day at most.
            name_logins: Some(Rate { burst: 5, every: Duration::from_secs(20) }),
            trust_proxy: false,
            // One core is left to the games.
            analysers: std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1).max(1)),
            address_analyses: Some(1),
            analysis_time: Duration::from_secs(60),
            // About a fifth of a second a ply on one core: a 100-move game in half a minute.
            review_nodes: 100_000,
        }
    }
}
