//! Both Hex Shogi 91 games behind the common `Rules` trait.

use super::position::HexShogiPosition;
use crate::catalog::Variant;
use crate::geometry::{Cell, HexNaming, ParseCellError};
use crate::mv::{Move, MoveList};
use crate::outcome::{Events, Outcome};
use crate::piece::Role;
use crate::player::{Player, PlayerSet};
use crate::rules::{IllegalMove, PieceText, RepetitionRule, Rules};
use crate::splitmix::SplitMix;

impl Rules for HexShogiPosition {
    fn in_check(&self, player: Player) -> bool {
        HexShogiPosition::in_check(self, player)
    }

    fn players_in(&self) -> PlayerSet {
        if self.is_three_player() {
            self.players_still_in()
        } else {
            PlayerSet::of(self.seats())
        }
    }

    fn variant(&self) -> Variant {
        self.rules.variant.variant()
    }

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn legal_moves(&self, out: &mut MoveList) {
        HexShogiPosition::legal_moves(self, out)
    }

    fn legal_move_count(&self) -> usize {
        HexShogiPosition::legal_move_count(self)
    }

    fn random_legal_move(&self, rng: &mut SplitMix) -> Option<Move> {
        HexShogiPosition::random_legal_move(self, rng)
    }

    fn play_into(&mut self, m: Move, events: &mut Events) {
        HexShogiPosition::play_into(self, m, events)
    }

    fn repetition_key(&self) -> u64 {
        HexShogiPosition::repetition_key(self)
    }

    /// Both games: the third occurrence of a position is a draw (§2.6, §2.7).
    fn repetition_rule(&self) -> RepetitionRule {
        RepetitionRule::ThreefoldDraw
    }

    fn draw_by_repetition(&mut self) -> Events {
        HexShogiPosition::draw_by_repetition(self)
    }

    fn resign(&mut self, player: Player) -> Result<Events, IllegalMove> {
        HexShogiPosition::resign(self, player)
    }

    fn time_out(&mut self, player: Player) -> Result<Events, IllegalMove> {
        HexShogiPosition::time_out(self, player)
    }

    fn draw_by_agreement_allowed(&self) -> bool {
        self.outcome.is_none()
    }

    fn agree_draw(&mut self) -> Result<Events, IllegalMove> {
        HexShogiPosition::agree_draw(self)
    }

    fn non_default_options(&self) -> Vec<String> {
        self.rules.non_default_pairs()
    }

    fn cell_name(&self, cell: Cell) -> String {
        HexNaming::HexShogi91.name(self.tables.grid, cell)
    }

    fn parse_cell(&self, text: &str) -> Result<Cell, ParseCellError> {
        HexNaming::HexShogi91.parse(self.tables.grid, text)
    }

    fn piece_text(&self, cell: Cell) -> Option<PieceText> {
        self.piece_at(cell).map(|p| PieceText { player: p.player, letter: p.role.letter(), promoted: p.promoted })
    }

    fn in_hand(&self, player: Player, role: Role) -> u8 {
        self.hand(player).count(role)
    }
}
