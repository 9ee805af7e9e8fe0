//! A game: a position plus the history that repetition rules need. Every front end (perft,
//! records, engines, the server) plays through `Game`, so the history is never forgotten.

use crate::key_history::KeyHistory;
use crate::mv::{Move, MoveList};
use crate::outcome::Events;
use crate::player::Player;
use crate::rules::{recurs, IllegalMove, RepetitionRule, Rules};
use crate::splitmix::SplitMix;

/// An end of play that is not a move: a player who gives up or whose time runs out (both leave
/// the game as a resignation does), or a draw the players agree.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Departure {
    Resigned(Player),
    TimeOut(Player),
    AgreedDraw,
}

#[derive(Clone, Debug)]
pub struct Game<P: Rules> {
    start: P,
    position: P,
    moves: Vec<Move>,
    /// The repetition key of the position before each move of `moves`.
    keys: KeyHistory,
    /// Answers to pending decisions: (number of moves played before it, accepted).
    decisions: Vec<(usize, bool)>,
    /// Departures, each with the number of moves played before it. A departure ends any pending
    /// decision, so at one move count the answers come first.
    departures: Vec<(usize, Departure)>,
}

impl<P: Rules> Game<P> {
    pub fn new(start: P) -> Game<P> {
        Game {
            position: start.clone(),
            start,
            moves: Vec::new(),
            keys: KeyHistory::new(),
            decisions: Vec::new(),
            departures: Vec::new(),
        }
    }

    pub fn start(&self) -> &P {
        &self.start
    }

    pub fn position(&self) -> &P {
        &self.position
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The answers given to pending decisions, each after the move count it followed.
    pub fn decisions(&self) -> &[(usize, bool)] {
        &self.decisions
    }

    /// Resignations, time-outs and agreed draws, each after the move count it followed.
    pub fn departures(&self) -> &[(usize, Departure)] {
        &self.departures
    }

    /// The repetition key of the position before each move.
    pub fn keys(&self) -> &[u64] {
        self.keys.as_slice()
    }

    /// The position after the first `plies` moves and the answers and departures that followed
    /// them, before the next move; `None` past the last move.
    pub fn position_after(&self, plies: usize) -> Option<P> {
        if plies > self.moves.len() {
            return None;
        }
        let mut replay = Game::new(self.start.clone());
        let mut decisions = self.decisions.iter().peekable();
        let mut departures = self.departures.iter().peekable();
        for played in 0..=plies {
            if played > 0 {
                replay.play_unchecked(self.moves[played - 1]);
            }
            // At one move count the answers come before the departures, as they were played.
            while let Some(&(_, accept)) = decisions.next_if(|(after, _)| *after == played) {
                replay.answer_pending(accept).expect("a recorded answer replays");
            }
            while let Some(&(_, departure)) = departures.next_if(|(after, _)| *after == played) {
                replay.depart(departure).expect("a recorded departure replays");
            }
        }
        Some(replay.position)
    }

    /// The legal actions, with the repetition rule applied.
    pub fn legal_moves(&self, out: &mut MoveList) {
        self.position.legal_moves(out);
        match self.position.repetition_rule() {
            RepetitionRule::Off | RepetitionRule::ThreefoldDraw => {}
            RepetitionRule::InitiatorMustVary => {
                let key = self.position.repetition_key();
                // Only a position met before bans anything; the history is looked through
                // for the moves played from it only then.
                if !self.keys.contains(key) {
                    return;
                }
                let banned: Vec<Move> =
                    self.keys.as_slice().iter().zip(&self.moves).filter(|(k, _)| **k == key).map(|(_, m)| *m).collect();
                // A player whose every action is banned must still act: the ban is lifted.
                if out.iter().any(|m| !banned.contains(m)) {
                    out.retain(|m| !banned.contains(m));
                }
            }
            RepetitionRule::Superko => {
                let recurring = |m: &Move| recurs(&self.position, *m, &self.keys);
                // As above, a player with nothing but recurring moves must still act.
                if out.iter().any(|m| !recurring(m)) {
                    out.retain(|m| !recurring(m));
                }
            }
        }
    }

    /// How many actions `legal_moves` lists, counted without listing them where the rules
    /// allow (perft's bulk counting).
    pub fn legal_move_count(&self) -> usize {
        match self.position.repetition_rule() {
            RepetitionRule::Off | RepetitionRule::ThreefoldDraw => self.position.legal_move_count(),
            RepetitionRule::InitiatorMustVary => {
                // Only a position met before bans anything.
                if self.keys.contains(self.position.repetition_key()) {
                    let mut moves = MoveList::new();
                    self.legal_moves(&mut moves);
                    moves.len()
                } else {
                    self.position.legal_move_count()
                }
            }
            RepetitionRule::Superko => match self.position.fresh_move_count(&self.keys) {
                (all, 0) => all,
                (_, fresh) => fresh,
            },
        }
    }

    /// One of the actions `legal_moves` lists, chosen uniformly at random (random playouts);
    /// `None` when there is none. The position chooses without listing where the repetition
    /// rule bans nothing here. Under super-ko a recurring choice is set aside and one is drawn
    /// from the listed fresh actions instead, which keeps every fresh action equally likely.
    pub fn random_legal_move(&self, rng: &mut SplitMix) -> Option<Move> {
        match self.position.repetition_rule() {
            RepetitionRule::Off | RepetitionRule::ThreefoldDraw => return self.position.random_legal_move(rng),
            RepetitionRule::InitiatorMustVary => {
                if !self.keys.contains(self.position.repetition_key()) {
                    return self.position.random_legal_move(rng);
                }
            }
            RepetitionRule::Superko => {
                let m = self.position.random_legal_move(rng)?;
                if !recurs(&self.position, m, &self.keys) {
                    return Some(m);
                }
            }
        }
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        rng.pick(&moves)
    }

    /// Plays `m` if legal here; the game is unchanged otherwise.
    pub fn play(&mut self, m: Move) -> Result<Events, IllegalMove> {
        self.position.ready_to_move()?;
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        if !moves.contains(&m) {
            return Err(IllegalMove::NotLegal);
        }
        Ok(self.play_unchecked(m))
    }

    /// Plays a move from `legal_moves`.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) -> Events {
        let mut events = Events::new();
        self.play_into(m, &mut events);
        events
    }

    /// `play_unchecked` with the events pushed onto `events` (see `Rules::play_into`).
    #[inline(never)]
    fn play_into(&mut self, m: Move, events: &mut Events) {
        self.keys.push(self.position.repetition_key());
        self.moves.push(m);
        self.position.play_into(m, events);
        if self.position.repetition_rule() == RepetitionRule::ThreefoldDraw && self.position.outcome().is_none() {
            let key = self.position.repetition_key();
            if self.keys.occurrences(key) >= 2 {
                events.extend(self.position.draw_by_repetition());
            }
        }
    }

    /// Answers a pending decision (a proposed alliance): accepted or refused.
    pub fn answer_pending(&mut self, accept: bool) -> Result<Events, IllegalMove> {
        let events = self.position.answer_pending(accept)?;
        self.decisions.push((self.moves.len(), accept));
        Ok(events)
    }

    /// `player`'s own answer to a pending decision that asks several players; the decision is
    /// recorded once settled (see `Rules::answer_as`).
    pub fn answer_as(&mut self, player: Player, accept: bool) -> Result<Option<Events>, IllegalMove> {
        let settled = self.position.answer_as(player, accept)?;
        if settled.is_some() {
            self.decisions.push((self.moves.len(), accept));
        }
        Ok(settled)
    }

    /// Ends play without a move: a resignation, a time-out or an agreed draw, as the rules allow.
    pub fn depart(&mut self, departure: Departure) -> Result<Events, IllegalMove> {
        let events = match departure {
            Departure::Resigned(player) => self.position.resign(player)?,
            Departure::TimeOut(player) => self.position.time_out(player)?,
            Departure::AgreedDraw if !self.position.draw_by_agreement_allowed() => return Err(IllegalMove::NotLegal),
            Departure::AgreedDraw => self.position.agree_draw()?,
        };
        self.departures.push((self.moves.len(), departure));
        Ok(events)
    }

    /// Takes the game back to just after its first `plies` moves, keeping the answers and
    /// departures that followed them. Refused past the last move, and when a departure came
    /// later (a takeback does not undo a resignation or a time-out).
    pub fn rewind_to(&mut self, plies: usize) -> Result<(), IllegalMove> {
        if !self.can_rewind_to(plies) {
            return Err(IllegalMove::NotLegal);
        }
        let position = self.position_after(plies).ok_or(IllegalMove::NotLegal)?;
        self.moves.truncate(plies);
        self.keys.truncate(plies);
        self.decisions.retain(|&(after, _)| after <= plies);
        self.position = position;
        Ok(())
    }

    /// Whether `rewind_to(plies)` would be allowed.
    pub fn can_rewind_to(&self, plies: usize) -> bool {
        plies <= self.moves.len() && self.departures.iter().all(|&(after, _)| after <= plies)
    }

    /// Takes back the last move (and any answer that followed it), given the position before.
    pub fn take_back(&mut self, before: P) {
        self.keys.pop();
        self.moves.pop();
        self.decisions.retain(|&(after, _)| after <= self.moves.len());
        self.departures.retain(|&(after, _)| after <= self.moves.len());
        self.position = before;
    }
}
