//! The players' clocks of a terminal game: time left per seat, the seat whose clock runs and
//! since when, the increment a completed move earns. Every reading takes the moment it is
//! about, so that tests can ask about any moment without waiting for it.

use std::time::{Duration, Instant};

use polyshogi::player::{ByPlayer, Player};

/// Minutes and increment, as `--clock 10+5` gives them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TimeControl {
    pub base: Duration,
    pub increment: Duration,
}

#[derive(Clone, Debug)]
pub struct Clocks {
    pub control: TimeControl,
    left: ByPlayer<Duration>,
    running: Option<(Player, Instant)>,
}

impl Clocks {
    pub fn new(control: TimeControl) -> Clocks {
        Clocks { control, left: ByPlayer([control.base; 3]), running: None }
    }

    /// `seat`'s time left at `now`.
    pub fn left(&self, seat: Player, now: Instant) -> Duration {
        match self.running {
            Some((runner, since)) if runner == seat => self.left[seat].saturating_sub(now.saturating_duration_since(since)),
            _ => self.left[seat],
        }
    }

    pub fn running(&self) -> Option<Player> {
        self.running.map(|(seat, _)| seat)
    }

    /// The seat whose clock runs and has run out at `now`.
    pub fn fallen(&self, now: Instant) -> Option<Player> {
        self.running().filter(|&seat| self.left(seat, now).is_zero())
    }

    /// Charges the running clock up to `now` and runs `seat`'s from then on (none: all stop).
    pub fn run(&mut self, seat: Option<Player>, now: Instant) {
        if let Some((runner, _)) = self.running {
            self.left[runner] = self.left(runner, now);
        }
        self.running = seat.map(|seat| (seat, now));
    }

    /// A completed move earns its mover the increment.
    pub fn add_increment(&mut self, seat: Player) {
        self.left[seat] += self.control.increment;
    }
}

/// `9:58`, or `0:07.3` in the last ten seconds.
pub fn clock_text(left: Duration) -> String {
    let seconds = left.as_secs();
    if seconds < 10 {
        format!("0:{:04.1}", left.as_secs_f64())
    } else {
        format!("{}:{:02}", seconds / 60, seconds % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_running_clock_loses_time_and_a_move_earns_the_increment() {
        let control = TimeControl { base: Duration::from_secs(60), increment: Duration::from_secs(5) };
        let mut clocks = Clocks::new(control);
        let start = Instant::now();
        clocks.run(Some(Player::First), start);
        let later = start + Duration::from_secs(20);
        assert_eq!(clocks.left(Player::First, later), Duration::from_secs(40));
        assert_eq!(clocks.left(Player::Second, later), Duration::from_secs(60));
        clocks.run(Some(Player::Second), later);
        clocks.add_increment(Player::First);
        assert_eq!(clocks.left(Player::First, later + Duration::from_secs(100)), Duration::from_secs(45));
        assert_eq!(clocks.fallen(later + Duration::from_secs(59)), None);
        assert_eq!(clocks.fallen(later + Duration::from_secs(60)), Some(Player::Second));
        assert_eq!(clock_text(Duration::from_secs(125)), "2:05");
        assert_eq!(clock_text(Duration::from_millis(7_300)), "0:07.3");
    }
}
