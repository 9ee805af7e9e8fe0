//! Playing a Sankaku move: the piece moves, captures (a Chariot's run-down victims included),
//! Soldier and Cavalry promotion on capture, and the end of the game (RULES.md §3.3, §3.5).

use super::key::{piece_key, WHITE_TO_MOVE};
use super::opponent;
use super::position::SankakuPosition;
use super::tables::{code_of, SankakuPiece, SankakuRole};
use crate::cellset::CellSet;
use crate::mv::Move;
use crate::outcome::{DrawReason, Event, Events, Outcome, WinReason};
use crate::player::{ByPlayer, Player, PlayerSet};
use crate::rules::IllegalMove;

impl SankakuPosition {
    /// Plays a move known to be legal (one from `legal_moves`), pushing what it set off onto
    /// `events`. Kept out of line, or the copy `Rules::play_into` avoids comes back.
    #[inline(never)]
    pub fn play_into(&mut self, m: Move, events: &mut Events) {
        // Sankaku has board moves only: no drops, no passing.
        let Move::Normal { from, to, .. } = m else { return };
        let mover = self.to_move;
        let them = opponent(mover);
        let piece = self.clear(from).expect("a move starts from a piece");
        let mut captured = false;
        if piece.role == SankakuRole::Chariot {
            // A run-down: whatever stood between was an enemy Soldier captured in passing.
            for victim in self.grid.between(from, to) & self.occupied {
                self.clear(victim);
                captured = true;
            }
        }
        let mut emperor_taken = false;
        if let Some(victim) = self.clear(to) {
            captured = true;
            if victim.role == SankakuRole::Emperor {
                self.emperors[them] = None;
                emperor_taken = true;
            }
        }
        let role = if captured && piece.role.promotes_on_capture() { SankakuRole::General } else { piece.role };
        self.put(to, SankakuPiece { player: mover, role });
        if role == SankakuRole::Emperor {
            self.emperors[mover] = Some(to);
        }
        self.plies += 1;
        self.set_to_move(them);
        if emperor_taken {
            self.finish(Outcome::Win { winner: mover, reason: WinReason::EmperorCaptured }, events);
        } else if !self.has_move() {
            // §3.5 [DEF]: a player without a legal move loses (see `has_move` for why no
            // valid position comes here).
            self.finish(Outcome::Win { winner: mover, reason: WinReason::NoLegalMove }, events);
        }
    }

    /// The repetition key after a legal move, from the changes `play_unchecked` would make,
    /// without copying the position: what a super-ko test needs (about twice as fast as
    /// playing the move on a copy).
    pub fn key_after(&self, m: Move) -> u64 {
        let Move::Normal { from, to, .. } = m else { return self.key };
        let Some(piece) = self.piece_at(from) else { return self.key };
        let mut key = self.key ^ WHITE_TO_MOVE ^ piece_key(self.board[from.usize()], from.usize());
        let mut victims = CellSet::from_cell(to) & self.occupied;
        if piece.role == SankakuRole::Chariot {
            victims |= self.grid.between(from, to) & self.occupied;
        }
        for victim in victims {
            key ^= piece_key(self.board[victim.usize()], victim.usize());
        }
        let captured = !victims.is_empty();
        let role = if captured && piece.role.promotes_on_capture() { SankakuRole::General } else { piece.role };
        key ^ piece_key(code_of(SankakuPiece { player: piece.player, role }), to.usize())
    }

    /// `player` resigns (or loses on time): the other player is left standing.
    pub fn resign(&mut self, player: Player) -> Result<Events, IllegalMove> {
        if self.outcome.is_some() {
            return Err(IllegalMove::GameOver);
        }
        if player == Player::Third {
            return Err(IllegalMove::NotLegal);
        }
        let mut events = Events::new();
        events.push(Event::Resigned { player });
        self.finish(Outcome::Win { winner: opponent(player), reason: WinReason::LastStanding }, &mut events);
        Ok(events)
    }

    /// A draw agreed by both players.
    pub fn agree_draw(&mut self) -> Result<Events, IllegalMove> {
        if self.outcome.is_some() {
            return Err(IllegalMove::GameOver);
        }
        let mut events = Events::new();
        let players = PlayerSet::of(&[Player::First, Player::Second]);
        self.finish(Outcome::Draw { players, reason: DrawReason::Agreement }, &mut events);
        Ok(events)
    }

    /// Ends the game drawn by repetition (under `repetition=threefold_draw`).
    pub(super) fn draw_by_repetition(&mut self) -> Events {
        let mut events = Events::new();
        if self.outcome.is_none() {
            let players = PlayerSet::of(&[Player::First, Player::Second]);
            self.finish(Outcome::Draw { players, reason: DrawReason::Repetition }, &mut events);
        }
        events
    }

    fn finish(&mut self, outcome: Outcome, events: &mut Events) {
        self.outcome = Some(outcome);
        events.push(Event::GameOver { outcome, placings: self.placings().expect("the game is over") });
    }

    /// Once the game is over, each seat's place: 1 for the winner (both after a draw), 2 for
    /// the loser; 0 for the third seat, which Sankaku does not have.
    pub fn placings(&self) -> Option<ByPlayer<u8>> {
        Some(match self.outcome? {
            Outcome::Win { winner, .. } => {
                let mut placings = ByPlayer([2, 2, 0]);
                placings[winner] = 1;
                placings
            }
            Outcome::Draw { .. } => ByPlayer([1, 1, 0]),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::{SankakuPosition, SankakuRules, SankakuSetup};
    use super::*;
    use crate::geometry::TRI44;
    use crate::rules::Rules;

    /// No valid position leaves a player without a move (see `has_move`), so the rule is
    /// exercised on a position stripped of White's army behind the constructor's back.
    #[test]
    fn a_player_without_a_legal_move_loses() {
        let cell = |name| TRI44.parse(name).unwrap();
        let pieces = vec![
            (cell("a3"), SankakuPiece { player: Player::First, role: SankakuRole::Emperor }),
            (cell("g6"), SankakuPiece { player: Player::Second, role: SankakuRole::Emperor }),
        ];
        let setup = SankakuSetup { pieces, to_move: Player::First };
        let mut pos = SankakuPosition::from_setup(setup, SankakuRules::default()).unwrap();
        pos.clear(cell("g6"));
        pos.emperors[Player::Second] = None;
        let events = pos.play_unchecked(Move::Normal { from: cell("a3"), to: cell("a4"), promote: false });
        let outcome = Outcome::Win { winner: Player::First, reason: WinReason::NoLegalMove };
        assert_eq!(pos.outcome(), Some(outcome));
        assert_eq!(events.as_slice(), [Event::GameOver { outcome, placings: ByPlayer([1, 2, 0]) }]);
    }
}
