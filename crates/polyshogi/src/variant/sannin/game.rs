//! A Sannin game: a position plus the history that the repetition rule needs (§1.14).
//! The player to move in a recurring position may not repeat a move he played from it.

use super::position::SanninPosition;
use super::rules::Repetition;
use crate::mv::{Move, MoveList};
use crate::outcome::Events;
use crate::variant::sannin::play::IllegalMove;

#[derive(Clone, Debug)]
pub struct SanninGame {
    start: SanninPosition,
    position: SanninPosition,
    moves: Vec<Move>,
    /// The repetition key of the position before each move of `moves`.
    keys: Vec<u64>,
}

impl SanninGame {
    pub fn new(start: SanninPosition) -> SanninGame {
        SanninGame { position: start.clone(), start, moves: Vec::new(), keys: Vec::new() }
    }

    pub fn start(&self) -> &SanninPosition {
        &self.start
    }

    pub fn position(&self) -> &SanninPosition {
        &self.position
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The legal actions, with the repetition rule applied.
    pub fn legal_moves(&self, out: &mut MoveList) {
        self.position.legal_moves(out);
        match self.position.rules().repetition {
            Repetition::Off => {}
            Repetition::InitiatorMustVary => {
                let key = self.position.repetition_key();
                let mut banned = self.keys.iter().zip(&self.moves).filter(|(k, _)| **k == key).map(|(_, m)| *m).peekable();
                if banned.peek().is_none() {
                    return;
                }
                let banned: Vec<Move> = banned.collect();
                // A player whose every action is banned must still act: the ban is lifted.
                if out.iter().any(|m| !banned.contains(m)) {
                    out.retain(|m| !banned.contains(m));
                }
            }
            Repetition::Superko => {
                let now = self.position.repetition_key();
                let recurs = |m: &Move| {
                    let mut next = self.position.clone();
                    next.play_unchecked(*m);
                    let key = next.repetition_key();
                    key == now || self.keys.contains(&key)
                };
                if out.iter().any(|m| !recurs(m)) {
                    out.retain(|m| !recurs(m));
                }
            }
        }
    }

    /// Plays `m` if legal here; the game is unchanged otherwise.
    pub fn play(&mut self, m: Move) -> Result<Events, IllegalMove> {
        if self.position.outcome().is_some() {
            return Err(IllegalMove::GameOver);
        }
        if self.position.pending_alliance().is_some() {
            return Err(IllegalMove::AllianceProposalPending);
        }
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        if !moves.contains(&m) {
            return Err(IllegalMove::NotLegal);
        }
        Ok(self.play_unchecked(m))
    }

    /// Plays a move from `legal_moves`.
    pub fn play_unchecked(&mut self, m: Move) -> Events {
        self.keys.push(self.position.repetition_key());
        self.moves.push(m);
        self.position.play_unchecked(m)
    }

    /// Under `compulsory=confirm`, the allies' answer to a proposed alliance.
    pub fn answer_alliance(&mut self, accept: bool) -> Result<Events, IllegalMove> {
        self.position.answer_alliance(accept)
    }

    /// Takes back the last move, given the position before it.
    pub(crate) fn take_back(&mut self, before: SanninPosition) {
        self.keys.pop();
        self.moves.pop();
        self.position = before;
    }
}
