//! Playing a Hex Shogi 91 move: the piece changes, then what the move sets off in order —
//! all three kings collected (three players), whose turn it is, and the end of the game by
//! checkmate, stalemate, everyone passing or too long without a capture (§2.6, §2.7).

use super::position::HexShogiPosition;
use crate::mv::Move;
use crate::outcome::{DrawReason, Event, Events, Outcome, WinReason};
use crate::player::{ByPlayer, Player, PlayerSet};
use crate::rules::{resignation_as_time_out, IllegalMove};

impl HexShogiPosition {
    /// Plays a move known to be legal (one from `legal_moves`), pushing what it set off onto
    /// `events`. Kept out of line, or the copy `Rules::play_into` avoids comes back.
    #[inline(never)]
    pub fn play_into(&mut self, m: Move, events: &mut Events) {
        let mover = self.to_move;
        let was_in = self.is_still_in(mover);
        let captured = self.apply_pieces(m, mover);
        self.plies += 1;
        // Passes are turns too: "fifty moves" are counted in plies, passes included.
        self.plies_without_capture = if captured { 0 } else { self.plies_without_capture.saturating_add(1) };
        if self.is_three_player() {
            // Only a forced pass of a player still in the game counts toward "everyone
            // passed"; a player who has lost passes every turn and changes nothing.
            match m {
                Move::Pass if was_in => self.passes_in_a_row = self.passes_in_a_row.saturating_add(1),
                Move::Pass => {}
                _ => self.passes_in_a_row = 0,
            }
            // Kings change hands only by capture, so only a capture can collect the third.
            if captured && self.kings_held(mover) == 3 {
                self.finish(Outcome::Win { winner: mover, reason: WinReason::KingsCollected }, events);
                return;
            }
            // Players who have lost keep their turn, to pass it (§2.7).
            self.to_move = mover.next3();
        } else {
            self.to_move = self.opponent(mover);
        }
        self.judge_turn(events);
    }

    /// The ends judged when a player comes to move. Two players: no legal move is checkmate
    /// (in check) or stalemate (a draw). Three players: a whole round of forced passes by
    /// everyone still in the game is a draw. Both: the no-capture limit, judged after mate so
    /// that a mate on the last allowed ply still wins.
    pub(super) fn judge_turn(&mut self, events: &mut Events) {
        self.mover_in_check = !self.is_three_player() && self.attacked_king(self.to_move);
        if self.outcome.is_some() {
            return;
        }
        if self.is_three_player() {
            let in_game = self.players_still_in();
            // Only reachable after a time-out: the two others have lost, so the last one in
            // wins, even when a King he needs is held by a player who only passes.
            if let (1, Some(winner)) = (in_game.len(), in_game.iter().next()) {
                self.finish(Outcome::Win { winner, reason: WinReason::LastStanding }, events);
                return;
            }
            if u32::from(self.passes_in_a_row) >= in_game.len() {
                self.finish(Outcome::Draw { players: in_game, reason: DrawReason::AllPassed }, events);
                return;
            }
        } else if !self.has_legal_move() {
            let player = self.to_move;
            let outcome = if self.in_check(player) {
                Outcome::Win { winner: self.opponent(player), reason: WinReason::Checkmate }
            } else {
                Outcome::Draw { players: self.players_still_in(), reason: DrawReason::Stalemate }
            };
            self.finish(outcome, events);
            return;
        }
        let limit = self.rules.no_capture_limit_plies;
        if limit > 0 && self.plies_without_capture >= limit {
            self.finish(Outcome::Draw { players: self.players_still_in(), reason: DrawReason::NoCapture }, events);
        }
    }

    /// `player` gives up; the other player still in wins. Two players: at any time. Three
    /// players (§2.7): only once a player has lost and two remain, so a resignation never
    /// leaves a three-sided game with a hole in it.
    pub fn resign(&mut self, player: Player) -> Result<Events, IllegalMove> {
        if self.outcome.is_some() {
            return Err(IllegalMove::GameOver);
        }
        let in_game = self.players_still_in();
        if !in_game.contains(player) || in_game.len() != 2 {
            return Err(IllegalMove::NotLegal);
        }
        let winner = in_game.iter().find(|&p| p != player).expect("two players are in");
        let mut events = Events::new();
        events.push(Event::Resigned { player });
        self.finish(Outcome::Win { winner, reason: WinReason::LastStanding }, &mut events);
        Ok(events)
    }

    /// `player`'s clock ran out (§2.7 [DEF]). While three players are in, he has lost: he
    /// passes from now on, scores 0, and his pieces stay to be captured. Otherwise he loses at
    /// once, as a resigning player does.
    pub fn time_out(&mut self, player: Player) -> Result<Events, IllegalMove> {
        let in_game = self.players_still_in();
        if !self.is_three_player() || in_game.len() < 3 {
            return self.resign(player).map(|events| resignation_as_time_out(events, player));
        }
        if self.outcome.is_some() {
            return Err(IllegalMove::GameOver);
        }
        self.timed_out.insert(player);
        let mut events = Events::new();
        events.push(Event::TimedOut { player });
        self.judge_turn(&mut events);
        Ok(events)
    }

    /// A draw agreed by the players still in (§2.7 allows it outside official
    /// tournaments; the two-player rules say nothing against it).
    pub fn agree_draw(&mut self) -> Result<Events, IllegalMove> {
        if self.outcome.is_some() {
            return Err(IllegalMove::GameOver);
        }
        let mut events = Events::new();
        self.finish(Outcome::Draw { players: self.players_still_in(), reason: DrawReason::Agreement }, &mut events);
        Ok(events)
    }

    /// Ends the game drawn by threefold repetition (judged by `Game`).
    pub fn draw_by_repetition(&mut self) -> Events {
        let mut events = Events::new();
        if self.outcome.is_none() {
            let players = self.players_still_in();
            self.finish(Outcome::Draw { players, reason: DrawReason::Repetition }, &mut events);
        }
        events
    }

    fn finish(&mut self, outcome: Outcome, events: &mut Events) {
        self.outcome = Some(outcome);
        events.push(Event::GameOver { outcome, placings: self.placings().expect("the game is over") });
    }

    /// Once the game is over, each seat's place from 1 (ties share a place; the unused third
    /// seat of the two-player game gets 0). A draw is shared only by the players who still
    /// have pieces (§2.7: a player without pieces has already lost); he comes last.
    pub fn placings(&self) -> Option<ByPlayer<u8>> {
        let outcome = self.outcome?;
        let mut placings = ByPlayer([0u8; 3]);
        let seats = self.tables.seats.iter().copied();
        let (first, mut next): (PlayerSet, u8) = match outcome {
            Outcome::Win { winner, .. } => (PlayerSet::of(&[winner]), 2),
            Outcome::Draw { players, .. } => (players, players.len() as u8 + 1),
        };
        for p in first.iter() {
            placings[p] = 1;
        }
        // Those still in share the next place; the players who have lost follow.
        let still_in: Vec<Player> = seats.clone().filter(|&p| !first.contains(p) && self.is_still_in(p)).collect();
        for &p in &still_in {
            placings[p] = next;
        }
        next += still_in.len() as u8;
        for p in seats.filter(|&p| !first.contains(p) && !self.is_still_in(p)) {
            placings[p] = next;
        }
        Some(placings)
    }
}
