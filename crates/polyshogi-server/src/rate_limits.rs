//! The shared rate limiters, keyed by seat and by client address (governor's GCRA buckets):
//! every connection and request of one seat or one address draws on the same budget.

use std::net::IpAddr;
use std::time::Duration;

use governor::clock::Clock;
use governor::{DefaultKeyedRateLimiter, RateLimiter};
use polyshogi::player::Player;

use crate::limits::Limits;

/// One seat of one game.
pub type SeatKey = (String, Player);

pub struct RateLimits {
    seat_messages: DefaultKeyedRateLimiter<SeatKey>,
    address_messages: Option<DefaultKeyedRateLimiter<IpAddr>>,
    address_games: Option<DefaultKeyedRateLimiter<IpAddr>>,
    address_registrations: Option<DefaultKeyedRateLimiter<IpAddr>>,
    address_logins: Option<DefaultKeyedRateLimiter<IpAddr>>,
    /// By the name as compared (lower case).
    name_logins: Option<DefaultKeyedRateLimiter<String>>,
}

impl RateLimits {
    pub fn new(limits: &Limits) -> RateLimits {
        RateLimits {
            seat_messages: RateLimiter::keyed(limits.seat_messages.quota()),
            address_messages: limits.address_messages.map(|rate| RateLimiter::keyed(rate.quota())),
            address_games: limits.address_games.map(|rate| RateLimiter::keyed(rate.quota())),
            address_registrations: limits.address_registrations.map(|rate| RateLimiter::keyed(rate.quota())),
            address_logins: limits.address_logins.map(|rate| RateLimiter::keyed(rate.quota())),
            name_logins: limits.name_logins.map(|rate| RateLimiter::keyed(rate.quota())),
        }
    }

    /// Whether a WebSocket message from `address`, sent for `seat` (`None`: before the hello,
    /// or a spectator's), may be read now. A refused message spends nothing of the seat's
    /// budget, so a flood from one address cannot silence a seat played from another.
    pub fn allow_message(&self, address: IpAddr, seat: Option<&SeatKey>) -> bool {
        let address_allows = self.address_messages.as_ref().is_none_or(|limiter| limiter.check_key(&address).is_ok());
        address_allows && seat.is_none_or(|seat| self.seat_messages.check_key(seat).is_ok())
    }

    /// Whether `address` may create a game now; if not, how long until it may.
    pub fn allow_game(&self, address: IpAddr) -> Result<(), Duration> {
        check(&self.address_games, &address)
    }

    /// Whether `address` may register an account now; if not, how long until it may.
    pub fn allow_registration(&self, address: IpAddr) -> Result<(), Duration> {
        check(&self.address_registrations, &address)
    }

    /// Whether `address` may try to log in as `name` now; if not, how long until it may.
    pub fn allow_login(&self, address: IpAddr, name: &str) -> Result<(), Duration> {
        check(&self.address_logins, &address)?;
        check(&self.name_logins, &name.to_lowercase())
    }

    /// Forgets the keys whose buckets are full again: they are as good as new, and keeping
    /// them would let memory grow with every seat and address ever seen.
    pub fn forget_idle(&self) {
        self.seat_messages.retain_recent();
        for limiter in
            [&self.address_messages, &self.address_games, &self.address_registrations, &self.address_logins].into_iter().flatten()
        {
            limiter.retain_recent();
        }
        if let Some(limiter) = &self.name_logins {
            limiter.retain_recent();
        }
    }
}

/// Spends one of `key`'s budget, if there is a limit; if none is left, how long until there is.
fn check<K: Clone + Eq + std::hash::Hash>(limiter: &Option<DefaultKeyedRateLimiter<K>>, key: &K) -> Result<(), Duration> {
    match limiter {
        None => Ok(()),
        Some(limiter) => limiter.check_key(key).map_err(|wait| wait.wait_time_from(limiter.clock().now())),
    }
}
