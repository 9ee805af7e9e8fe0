//! Sankaku Shogi behind the common `Rules` trait.

use super::position::SankakuPosition;
use super::rules::Repetition;
use super::tables::SankakuRole;
use crate::catalog::Variant;
use crate::geometry::{Cell, ParseCellError};
use crate::key_history::KeyHistory;
use crate::mv::{Move, MoveList};
use crate::outcome::{Events, Outcome};
use crate::player::Player;
use crate::rules::{IllegalMove, PieceText, RepetitionRule, Rules};
use crate::splitmix::SplitMix;

impl Rules for SankakuPosition {
    fn variant(&self) -> Variant {
        Variant::Sankaku
    }

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn legal_moves(&self, out: &mut MoveList) {
        SankakuPosition::legal_moves(self, out)
    }

    fn legal_move_count(&self) -> usize {
        SankakuPosition::legal_move_count(self)
    }

    fn fresh_move_count(&self, earlier: &KeyHistory) -> (usize, usize) {
        SankakuPosition::fresh_move_count(self, earlier.as_slice())
    }

    fn random_legal_move(&self, rng: &mut SplitMix) -> Option<Move> {
        SankakuPosition::random_legal_move(self, rng)
    }

    fn play_into(&mut self, m: Move, events: &mut Events) {
        SankakuPosition::play_into(self, m, events)
    }

    fn repetition_key(&self) -> u64 {
        self.key
    }

    fn key_after(&self, m: Move) -> u64 {
        SankakuPosition::key_after(self, m)
    }

    fn repetition_rule(&self) -> RepetitionRule {
        match self.rules.repetition {
            // `Game` lifts the ban for a player left with nothing but recurring moves; that
            // never happens here (see `SankakuPosition::has_move`), so §3.5's loss for a
            // player without a move needs nothing from `Game`.
            Repetition::Superko => RepetitionRule::Superko,
            Repetition::ThreefoldDraw => RepetitionRule::ThreefoldDraw,
            Repetition::Off => RepetitionRule::Off,
        }
    }

    fn draw_by_repetition(&mut self) -> Events {
        SankakuPosition::draw_by_repetition(self)
    }

    fn resign(&mut self, player: Player) -> Result<Events, IllegalMove> {
        SankakuPosition::resign(self, player)
    }

    fn draw_by_agreement_allowed(&self) -> bool {
        self.outcome.is_none()
    }

    fn agree_draw(&mut self) -> Result<Events, IllegalMove> {
        SankakuPosition::agree_draw(self)
    }

    fn non_default_options(&self) -> Vec<String> {
        self.rules.non_default_pairs()
    }

    fn cell_name(&self, cell: Cell) -> String {
        self.grid.name(cell)
    }

    fn parse_cell(&self, text: &str) -> Result<Cell, ParseCellError> {
        self.grid.parse(text)
    }

    /// A promoted Soldier or Cavalry is a General, so no Sankaku piece reads as promoted.
    fn piece_text(&self, cell: Cell) -> Option<PieceText> {
        self.piece_at(cell).map(|p| PieceText { player: p.player, letter: p.role.letter(), promoted: false })
    }

    fn is_capture(&self, m: Move) -> bool {
        match m {
            Move::Normal { from, to, .. } => {
                self.occupied.contains(to)
                    || (self.piece_at(from).is_some_and(|p| p.role == SankakuRole::Chariot)
                        && !(self.grid.between(from, to) & self.occupied).is_empty())
            }
            _ => false,
        }
    }
}
