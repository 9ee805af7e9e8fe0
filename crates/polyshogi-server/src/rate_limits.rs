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
}

impl RateLimits {
    pub fn new(limits: &Limits) -> RateLimits {
        RateLimits {
            seat_messages: RateLimiter::keyed(limits.seat_messages.quota()),
            address_messages: limits.address_messages.map(|rate| RateLimiter::keyed(rate.quota())),
            address_games: limits.address_games.map(|rate| RateLimiter::keyed(rate.quota())),
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
        match &self.address_games {
            None => Ok(()),
            Some(limiter) => limiter.check_key(&address).map_err(|wait| wait.wait_time_from(limiter.clock().now())),
        }
    }

    /// Forgets the keys whose buckets are full again: they are as good as new, and keeping
    /// them would let memory grow with every seat and address ever seen.
    pub fn forget_idle(&self) {
        self.seat_messages.retain_recent();
        for limiter in [&self.address_messages, &self.address_games].into_iter().flatten() {
            limiter.retain_recent();
        }
    }
}
