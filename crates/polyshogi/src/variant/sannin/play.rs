//! Playing a Sannin move: the piece changes, then everything the move sets off in order —
//! Garden win, lost castling rights, compulsory alliance, immediate checkmates, eliminations,
//! whose turn it is, and players left without a legal action (RULES.md §1.9–1.14).

use arrayvec::ArrayVec;

use super::alliance::PlayedAction;
use super::position::SanninPosition;
use super::rules::{Compulsory, MateEvaluation, Stalemate, TurnAfterMate};
use crate::mv::Move;
use crate::outcome::{DrawReason, Event, Events, Outcome, WinReason};
use crate::piece::Role;
use crate::player::{ByPlayer, Player, PlayerSet};
use crate::rules::IllegalMove;

impl SanninPosition {
    /// Plays a move known to be legal (one from `legal_moves`), pushing what it set off onto
    /// `events`. Kept out of line, or the copy `Rules::play_into` avoids comes back.
    #[inline(never)]
    pub fn play_into(&mut self, m: Move, events: &mut Events) {
        let mover = self.to_move;
        // Noted before the copy, so that the detector's two uses of them share one search.
        self.note_standing_threats();
        let before = self.alliance_possible().then(|| self.clone());
        self.apply_pieces(m, mover);
        self.plies += 1;
        // A king promoted on another player's turn may illuminate on its owner's next turn.
        for p in mover.others3() {
            self.illumination_ready[p] = true;
        }

        if let Move::Normal { to, .. } = m {
            let moved_king = self.piece_at(to).is_some_and(|p| p.role == Role::King);
            if moved_king && to == self.tables.garden && self.has_garden_right(mover) {
                // The previous action stays, its threats as found on the board it left.
                if let Some(before) = &before {
                    self.last_action = before.played_action().map(PlayedAction::from);
                }
                self.finish(Outcome::Win { winner: mover, reason: WinReason::Garden }, events);
                return;
            }
        }

        // A king attacked by anyone, even by an ally, may never castle afterwards.
        let mut checked = self.checked_players(mover);
        for p in checked.iter() {
            self.may_castle[p] = false;
        }

        self.last_action = None;
        if m == Move::Pass {
            // The threats noted before it (a pass leaves the board as it was) would otherwise
            // give the previous action's threats for this one's.
            self.standing_threats.take();
        }
        if let Some(before) = before {
            let new_threats = before.new_threats(self, mover);
            let defensive = before.is_defensive(self, mover);
            // Set first: the detector's mate test judges the other players' actions as they
            // would stand after this one.
            self.last_action = Some(PlayedAction { mover, mv: m, new_threats, defensive });
            if let Some(formation) = before.detect_alliance(self, m, mover, 0) {
                if self.rules.compulsory == Compulsory::Confirm {
                    self.proposal = Some(formation);
                    events.push(Event::AllianceProposed(formation));
                    return;
                }
                self.form_alliance(&formation);
                events.push(Event::AllianceFormed(formation));
                // The lone king, promoted in place, may check where it did not.
                checked = self.checked_players(mover);
            }
        }
        self.end_turn(mover, checked, events);
    }

    /// Under `compulsory=confirm`, one ally's answer to the pending proposal (§1.13: both must
    /// accept). The alliance forms once both have accepted and is refused as soon as one
    /// refuses; until then `None`.
    pub fn answer_alliance_as(&mut self, ally: Player, accept: bool) -> Result<Option<Events>, IllegalMove> {
        let formation = self.proposal.ok_or(IllegalMove::NoAllianceProposal)?;
        if !formation.allies.contains(ally) {
            return Err(IllegalMove::NotYourDecision);
        }
        if self.accepted.contains(ally) {
            return Err(IllegalMove::AlreadyAccepted);
        }
        if accept {
            self.accepted.insert(ally);
            if self.accepted != formation.allies {
                return Ok(None);
            }
        }
        self.answer_alliance(accept).map(Some)
    }

    /// Under `compulsory=confirm`, the allies' joint answer to the pending proposal; the turn
    /// then ends as it would have after the move.
    pub fn answer_alliance(&mut self, accept: bool) -> Result<Events, IllegalMove> {
        let formation = self.proposal.take().ok_or(IllegalMove::NoAllianceProposal)?;
        self.accepted = PlayerSet::EMPTY;
        let mut events = Events::new();
        if accept {
            self.form_alliance(&formation);
            events.push(Event::AllianceFormed(formation));
        } else {
            events.push(Event::AllianceRefused(formation));
        }
        self.end_turn(self.to_move, self.checked_players(self.to_move), &mut events);
        Ok(events)
    }

    /// `player` resigns: he leaves the game as a stalemated player would (so an ally's
    /// resignation loses for both allies, and the lone player's dissolves the alliance).
    pub fn resign(&mut self, player: Player) -> Result<Events, IllegalMove> {
        if self.outcome.is_some() {
            return Err(IllegalMove::GameOver);
        }
        if !self.active.contains(player) {
            return Err(IllegalMove::NotLegal);
        }
        let mut events = Events::new();
        events.push(Event::Resigned { player });
        self.proposal = None;
        self.accepted = PlayerSet::EMPTY;
        self.remove_player(player, &mut events);
        if self.outcome.is_none() && self.to_move == player {
            self.to_move = self.next_active(player);
            self.resolve_player_without_action(None, &mut events);
        }
        Ok(events)
    }

    /// A draw agreed by the players still in the game (§1.14 [DEF]).
    pub fn agree_draw(&mut self) -> Result<Events, IllegalMove> {
        if self.outcome.is_some() {
            return Err(IllegalMove::GameOver);
        }
        let mut events = Events::new();
        self.finish(Outcome::Draw { players: self.active, reason: DrawReason::Agreement }, &mut events);
        Ok(events)
    }

    /// The players in check after `mover`'s action, found once for the castling rights, the
    /// mates and the next player's turn: the other two, and `mover` himself (an ally's piece
    /// may attack his king) only while he may castle, the one thing it matters for.
    fn checked_players(&self, mover: Player) -> PlayerSet {
        let mut checked = PlayerSet::EMPTY;
        for p in Player::ALL {
            if (p != mover || self.may_castle[p]) && self.in_check(p) {
                checked.insert(p);
            }
        }
        checked
    }

    /// Mates, eliminations and the next player, after `mover`'s action, which left the
    /// players of `checked` in check.
    fn end_turn(&mut self, mover: Player, checked: PlayerSet, events: &mut Events) {
        let mut mated_someone = false;
        if self.rules.mate_evaluation == MateEvaluation::Immediate {
            // Judge every other player in the same position, so one move can mate both. The
            // lone player falls first: mating him and (through his fall) an ally at once
            // dissolves the alliance and leaves the mover the last player standing.
            let mut victims: ArrayVec<Player, 2> = mover
                .others3()
                .into_iter()
                .filter(|&p| self.active.contains(p) && checked.contains(p) && !self.has_legal_action_knowing(p, 0, true))
                .collect();
            victims.sort_by_key(|&p| self.allies.contains(p));
            for victim in victims {
                events.push(Event::Checkmated { player: victim, by: mover });
                self.remove_player(victim, events);
                mated_someone = true;
            }
        }

        if self.outcome.is_none() {
            self.to_move = if mated_someone && self.rules.turn_after_mate == TurnAfterMate::MatingPlayer {
                mover
            } else {
                self.next_active(mover)
            };
            // A mate took pieces off the board: the checks found before may have changed.
            let known_checks = (!mated_someone).then_some(checked);
            self.resolve_player_without_action(known_checks, events);
        }
        if self.outcome.is_none() && self.plies >= self.rules.max_plies {
            self.finish(Outcome::Draw { players: self.active, reason: DrawReason::PlyCap }, events);
        }
    }

    /// The player to move may have no legal action: a removal opened a line onto his king,
    /// mates are judged at the victim's turn, or he is stalemated. Each case removes him (or
    /// draws), and the turn moves on until someone can act. (Under `stalemate=pass` the move
    /// generator offers a pass, so a player who is not in check always has an action.)
    /// `known_checks`, when given, says who is in check on the board as it stands.
    fn resolve_player_without_action(&mut self, mut known_checks: Option<PlayerSet>, events: &mut Events) {
        while self.outcome.is_none() {
            let player = self.to_move;
            let in_check = known_checks.map_or_else(|| self.in_check(player), |checked| checked.contains(player));
            if self.has_legal_action_knowing(player, 0, in_check) {
                return;
            }
            // The player leaves and his pieces with him.
            known_checks = None;
            if self.in_check(player) {
                let by = self.checking_player(player);
                events.push(Event::Checkmated { player, by });
            } else if self.rules.stalemate == Stalemate::Draw {
                let outcome = Outcome::Draw { players: self.active, reason: DrawReason::Stalemate };
                self.finish(outcome, events);
                return;
            } else {
                events.push(Event::Stalemated { player });
            }
            self.remove_player(player, events);
            if self.outcome.is_none() {
                self.to_move = self.next_active(player);
            }
        }
    }

    /// The first player (in turn order after the victim) whose piece attacks his king.
    fn checking_player(&self, victim: Player) -> Player {
        let king = self.kings[victim].expect("a checked player has a king");
        victim
            .others3()
            .into_iter()
            .find(|&p| self.is_attacked(king, self.store.pieces_of(p), self.store.occupied()))
            .unwrap_or(victim.next3())
    }

    /// Takes a mated or stalemated player out of the game, with the alliance consequences of
    /// §1.13: an ally's fall loses the game for both allies; the lone player's fall dissolves
    /// the alliance.
    fn remove_player(&mut self, player: Player, events: &mut Events) {
        if self.outcome.is_some() {
            return;
        }
        if self.allies.contains(player) {
            let lone = player.others3().into_iter().find(|&p| !self.allies.contains(p)).expect("a lone player");
            self.finish(Outcome::Win { winner: lone, reason: WinReason::AllyMated }, events);
            return;
        }
        let was_allied = self.allies;
        self.eliminate(player);
        if !was_allied.is_empty() {
            self.former_allies = was_allied;
            self.allies = PlayerSet::EMPTY;
            events.push(Event::AllianceDissolved { allies: was_allied });
        }
        if self.active.len() == 1 {
            let winner = self.active.iter().next().expect("one player left");
            self.finish(Outcome::Win { winner, reason: WinReason::LastStanding }, events);
        }
    }

    pub(super) fn finish(&mut self, outcome: Outcome, events: &mut Events) {
        self.outcome = Some(outcome);
        events.push(Event::GameOver { outcome, placings: self.placings().expect("the game is over") });
    }

    /// Once the game is over, each seat's place from 1: the winner first (or the players
    /// sharing a draw); both allies share second when an ally was mated; players who left the
    /// game are ranked by how long they lasted.
    pub fn placings(&self) -> Option<ByPlayer<u8>> {
        let outcome = self.outcome?;
        let mut placings = ByPlayer([0u8; 3]);
        let still_in: PlayerSet = match outcome {
            Outcome::Win { winner, .. } => {
                placings[winner] = 1;
                let mut rest = self.active;
                rest.remove(winner);
                for p in rest.iter() {
                    placings[p] = 2;
                }
                if rest.is_empty() {
                    PlayerSet::of(&[winner])
                } else {
                    self.active
                }
            }
            Outcome::Draw { players, .. } => {
                for p in players.iter() {
                    placings[p] = 1;
                }
                players
            }
        };
        let next_place = still_in.len() as u8 + 1;
        let mut previous: Option<(u8, u32)> = None;
        for (index, &(p, ply)) in self.eliminations.iter().rev().enumerate() {
            let place = match previous {
                Some((place, previous_ply)) if previous_ply == ply => place,
                _ => next_place + index as u8,
            };
            placings[p] = place;
            previous = Some((place, ply));
        }
        Some(placings)
    }
}
