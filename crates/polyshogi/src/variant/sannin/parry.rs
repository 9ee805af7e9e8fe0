//! The `must_parry_mate_threat` option (RULES.md §1.10; off by default): a player threatened
//! with mate must play an action that parries the threat, when he has one.
//!
//! A threat against P is a legal action of another player X, were it X's turn now, that played
//! checkmates P (with everything it sets off: an alliance it forms, a king that promotes). P's
//! own action is judged by the position it leaves as played: one that ends the game leaves no
//! threat, and one that mates the threatening player removes his. A proposed alliance
//! (`compulsory=confirm`) is judged as if refused. When no action parries, every action stays
//! legal: the rule narrows a player's choice and never takes it away.

use super::position::SanninPosition;
use crate::mv::{Move, MoveList};
use crate::outcome::Event;
use crate::player::Player;
use crate::rules::Rules;

impl SanninPosition {
    /// Whether another player, were it his turn now, has an action that would checkmate `victim`.
    pub fn mate_threatened(&self, victim: Player) -> bool {
        let mut actions = MoveList::new();
        for threatener in victim.others3() {
            actions.clear();
            self.generate_for(threatener, &mut actions, 0);
            if actions.iter().any(|&action| self.action_mates(threatener, action, victim)) {
                return true;
            }
        }
        false
    }

    /// Whether `threatener`'s `action`, played as if it were his turn, checkmates `victim`.
    fn action_mates(&self, threatener: Player, action: Move, victim: Player) -> bool {
        // Only an action that leaves the victim in check can mate him; the piece changes alone
        // rule out most actions cheaply.
        let mut pieces_moved = self.clone();
        pieces_moved.apply_pieces(action, threatener);
        if !pieces_moved.in_check(victim) {
            return false;
        }
        let mut after = self.clone();
        after.to_move = threatener;
        let mates_victim =
            |events: &[Event]| events.iter().any(|e| matches!(e, Event::Checkmated { player, .. } if *player == victim));
        let mut mated = mates_victim(&after.play_unchecked(action));
        if after.proposal.is_some() {
            mated |= mates_victim(&after.answer_alliance(false).expect("a proposal is pending"));
        }
        // Under `mate_evaluation=at_victims_turn` the mate is declared later, on his turn.
        mated || (after.outcome.is_none() && after.in_check(victim) && !after.has_legal_action(victim, 0))
    }

    /// Narrows `moves`, the legal actions of the player to move, to those that parry a mate
    /// threat against him, when he is threatened and some action parries.
    pub(super) fn keep_mate_parries(&self, moves: &mut MoveList) {
        let mover = self.to_move;
        if !self.mate_threatened(mover) {
            return;
        }
        let parries = |action: &Move| {
            let mut after = self.clone();
            after.play_unchecked(*action);
            if after.proposal.is_some() {
                after.answer_alliance(false).expect("a proposal is pending");
            }
            after.outcome.is_some() || !after.mate_threatened(mover)
        };
        let mut parrying = moves.clone();
        parrying.retain(|action| parries(action));
        if !parrying.is_empty() {
            *moves = parrying;
        }
    }
}
