//! Sannin shogi behind the common `Rules` trait, and the Sannin-only parts of `Game`.

use super::position::SanninPosition;
use super::rules::Repetition;
use super::SanninGame;
use crate::catalog::Variant;
use crate::cellset::CellSet;
use crate::geometry::{Cell, HexNaming, ParseCellError};
use crate::mv::{HourSet, Move, MoveList};
use crate::outcome::{DrawReason, Events, Outcome};
use crate::piece::Role;
use crate::player::{Player, PlayerSet};
use crate::rules::{Alliance, IllegalMove, PieceText, RepetitionRule, Rules};
use crate::splitmix::SplitMix;

impl Rules for SanninPosition {
    fn variant(&self) -> Variant {
        Variant::Sannin
    }

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn legal_moves(&self, out: &mut MoveList) {
        SanninPosition::legal_moves(self, out)
    }

    fn legal_move_count(&self) -> usize {
        SanninPosition::legal_move_count(self)
    }

    fn random_legal_move(&self, rng: &mut SplitMix) -> Option<Move> {
        SanninPosition::random_legal_move(self, rng)
    }

    fn play_into(&mut self, m: Move, events: &mut Events) {
        SanninPosition::play_into(self, m, events)
    }

    fn repetition_key(&self) -> u64 {
        SanninPosition::repetition_key(self)
    }

    fn repetition_rule(&self) -> RepetitionRule {
        match self.rules.repetition {
            Repetition::InitiatorMustVary => RepetitionRule::InitiatorMustVary,
            Repetition::Superko => RepetitionRule::Superko,
            Repetition::Off => RepetitionRule::Off,
        }
    }

    fn draw_by_repetition(&mut self) -> Events {
        let mut events = Events::new();
        self.finish(Outcome::Draw { players: self.active, reason: DrawReason::Repetition }, &mut events);
        events
    }

    fn decision_pending(&self) -> bool {
        self.proposal.is_some()
    }

    fn players_in(&self) -> PlayerSet {
        self.active
    }

    fn allies(&self) -> PlayerSet {
        self.allies
    }

    fn alliance(&self) -> Option<Alliance> {
        let lone = self.active.iter().find(|&p| !self.allies.contains(p))?;
        (self.allies.len() == 2).then_some(Alliance { allies: self.allies, against: lone })
    }

    fn pending_alliance(&self) -> Option<Alliance> {
        self.proposal.map(|f| Alliance { allies: f.allies, against: f.against })
    }

    fn in_check(&self, player: Player) -> bool {
        SanninPosition::in_check(self, player)
    }

    fn answer_pending(&mut self, accept: bool) -> Result<Events, IllegalMove> {
        self.answer_alliance(accept)
    }

    fn awaiting_answer(&self) -> PlayerSet {
        self.proposal.map_or(PlayerSet::EMPTY, |formation| formation.allies.without(self.accepted))
    }

    fn answer_as(&mut self, player: Player, accept: bool) -> Result<Option<Events>, IllegalMove> {
        self.answer_alliance_as(player, accept)
    }

    fn resign(&mut self, player: Player) -> Result<Events, IllegalMove> {
        SanninPosition::resign(self, player)
    }

    fn draw_by_agreement_allowed(&self) -> bool {
        self.outcome.is_none()
    }

    fn agree_draw(&mut self) -> Result<Events, IllegalMove> {
        SanninPosition::agree_draw(self)
    }

    fn non_default_options(&self) -> Vec<String> {
        self.rules.non_default_pairs()
    }

    fn cell_name(&self, cell: Cell) -> String {
        HexNaming::Sannin.name(self.tables.grid, cell)
    }

    fn parse_cell(&self, text: &str) -> Result<Cell, ParseCellError> {
        HexNaming::Sannin.parse(self.tables.grid, text)
    }

    fn piece_text(&self, cell: Cell) -> Option<PieceText> {
        self.piece_at(cell).map(|p| PieceText { player: p.player, letter: p.role.letter(), promoted: p.promoted })
    }

    fn in_hand(&self, player: Player, role: Role) -> u8 {
        self.hand(player).count(role)
    }

    fn illumination_targets(&self, from: Cell, rays: HourSet) -> CellSet {
        SanninPosition::illumination_targets(self, from, rays)
    }
}

impl SanninGame {
    /// Under `compulsory=confirm`, the allies' answer to a proposed alliance.
    pub fn answer_alliance(&mut self, accept: bool) -> Result<Events, IllegalMove> {
        self.answer_pending(accept)
    }
}
