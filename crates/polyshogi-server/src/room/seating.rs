//! A game's seats over its life: an open seat taken, an unfilled game expiring, and a finished
//! game settled (its places, archive entry and rating changes written once).

use std::time::Duration;

use polyshogi::player::Player;
use tokio::time::Instant;
use tracing::{error, info, warn};

use super::{now_ms, wake_at, wall_ms, Room, SeatKind, SitError, EXPIRED_TEXT, MAX_RACES};
use crate::settle::{settle, FinishedGame};
use crate::store::{ActionKind, SeatPlayer, SeatTaken, StoreError, StoredAction};

impl Room {
    /// Takes an open seat, trying again on the game as it now stands while another server
    /// process stores an action of the game first.
    pub(super) async fn take_seat(
        &mut self,
        seat: Player,
        token_hash: String,
        player: Option<SeatPlayer>,
    ) -> Result<(), SitError> {
        for _ in 0..MAX_RACES {
            match &self.aborted {
                Some(text) if text == EXPIRED_TEXT => return Err(SitError::Expired),
                Some(text) => return Err(SitError::Over(text.clone())),
                None => {}
            }
            if !matches!(self.setup.seats.get(seat.index()), Some(SeatKind::Open)) {
                return Err(SitError::Taken(self.table.seat_name(seat).to_string()));
            }
            if self.setup.rated {
                let Some(player) = &player else { return Err(SitError::LoginNeeded) };
                let seated = self.setup.seats.iter().any(|s| match s {
                    SeatKind::Human { player: Some(p), .. } => p.user_id == player.user_id,
                    _ => false,
                });
                if seated {
                    return Err(SitError::AlreadySeated);
                }
            }
            let taken = SeatTaken { seat: seat.index(), token_hash: token_hash.clone(), player: player.clone() };
            let action = StoredAction {
                seq: self.seq,
                seat: seat.index(),
                kind: ActionKind::Sit,
                detail: taken.detail(),
                clocks: self.clocks.as_ref().map(|c| c.remaining.clone()),
                created_ms: now_ms(),
            };
            // What the game is once the seat is taken: it starts if that was the last open seat.
            let mut after = self.setup.clone();
            after.seats[seat.index()] = SeatKind::Human { token_hash: token_hash.clone(), player: player.clone() };
            if !after.is_waiting() {
                after.open_until_ms = None;
            }
            let mut clocks = self.clocks.clone();
            if let Some(clocks) = clocks.as_mut() {
                let runner = if after.is_waiting() { None } else { self.table.clock_runner() };
                clocks.start(runner, Instant::now());
            }
            let wake_ms = wake_at(&after, &self.table, clocks.as_ref(), self.settings.first_move_time).map(wall_ms);
            match self.store.take_seat(&self.setup.id, &action, &taken, after.open_until_ms, wake_ms).await {
                Ok(()) => {}
                Err(StoreError::Conflict) => {
                    self.catch_up().await;
                    continue;
                }
                Err(e) => {
                    error!(game = %self.setup.id, "could not store a seat taken: {e}");
                    return Err(SitError::Storage);
                }
            }
            self.seq += 1;
            self.last_action_ms = action.created_ms;
            self.stored_wake_ms = wake_ms;
            self.setup = after;
            self.clocks = clocks;
            *self.token_hashes.write().expect("not poisoned") = token_hashes(&self.setup.seats);
            info!(game = %self.setup.id, "{} taken{}", self.table.seat_name(seat), if self.setup.is_waiting() { "" } else { ": the game starts" });
            self.publish();
            return Ok(());
        }
        Err(SitError::Storage)
    }

    /// Applies a seat taken (stored here or by another process).
    pub(super) fn apply_sit(&mut self, taken: SeatTaken) {
        self.setup.seats[taken.seat] = SeatKind::Human { token_hash: taken.token_hash, player: taken.player };
        if !self.setup.is_waiting() {
            self.setup.open_until_ms = None;
        }
        *self.token_hashes.write().expect("not poisoned") = token_hashes(&self.setup.seats);
    }

    /// Ends the game if its open seats are still open when it expires: stored, then published.
    pub(super) async fn expire_if_due(&mut self) {
        if self.expiry().is_none_or(|at| at > Instant::now()) || !self.instances.owns(&self.setup.id) {
            return;
        }
        let stored = StoredAction {
            seq: self.seq,
            seat: 0,
            kind: ActionKind::Expire,
            detail: String::new(),
            clocks: self.clocks.as_ref().map(|c| c.remaining.clone()),
            created_ms: now_ms(),
        };
        match self.store.append_action(&self.setup.id, &stored, Some(EXPIRED_TEXT), None).await {
            Ok(()) => {}
            Err(StoreError::Conflict) => {
                // A seat was taken (or the game expired) elsewhere first: the game as it now stands decides.
                self.catch_up().await;
                return;
            }
            Err(e) => {
                error!(game = %self.setup.id, "could not store the expiry: {e}");
                self.retry_at = Some(Instant::now() + Duration::from_secs(1));
                return;
            }
        }
        info!(game = %self.setup.id, "{EXPIRED_TEXT}");
        self.seq += 1;
        self.last_action_ms = stored.created_ms;
        self.stored_wake_ms = None;
        self.aborted = Some(EXPIRED_TEXT.to_string());
        self.publish();
    }

    /// Writes the places, archive entry and rating changes of a game just over, once; the
    /// game's owner does it (and a game loaded unsettled after a stop).
    pub(super) async fn settle_if_over(&mut self) {
        if self.settled || !self.is_over() || !self.instances.owns(&self.setup.id) {
            return;
        }
        let players: Vec<Option<SeatPlayer>> = self
            .setup
            .seats
            .iter()
            .map(|s| match s {
                SeatKind::Human { player, .. } => player.clone(),
                _ => None,
            })
            .collect();
        let finished = FinishedGame {
            game_id: &self.setup.id,
            variant: self.setup.variant.name(),
            rated: self.setup.rated,
            aborted: self.aborted.is_some(),
            plies: self.moves.moves().len() as i64,
            finished_ms: self.last_action_ms,
            places: self.table.placings(),
            players: &players,
        };
        match settle(self.store.as_ref(), &finished).await {
            Ok(ratings) => {
                self.settled = true;
                let mut changed = false;
                for (seat, rating) in self.setup.seats.iter_mut().zip(ratings) {
                    if let (SeatKind::Human { player: Some(player), .. }, Some(rating)) = (seat, rating) {
                        player.rating = rating;
                        changed = true;
                    }
                }
                if changed {
                    self.publish();
                }
            }
            Err(e) => warn!(game = %self.setup.id, "could not settle the finished game (tried again when it is loaded): {e}"),
        }
    }
}

/// Each seat's token hash (`None` for bots and open seats), by seat index.
pub(super) fn token_hashes(seats: &[SeatKind]) -> Vec<Option<String>> {
    seats
        .iter()
        .map(|s| match s {
            SeatKind::Human { token_hash, .. } => Some(token_hash.clone()),
            SeatKind::Open | SeatKind::Bot { .. } => None,
        })
        .collect()
}
