//! Hex Shogi 91 and Three Player Hex Shogi 91 evaluation (RULES.md §2): material on the board
//! and in hand, king safety, and for three players the progress of the king collection.

use polyshogi::cellset::CellSet;
use polyshogi::geometry::Cell;
use polyshogi::piece::{Piece, Role};
use polyshogi::player::{ByPlayer, Player, PlayerSet};
use polyshogi::variant::hexshogi::HexShogiPosition;
use polyshogi::{MoveList, Rules};

use super::attacks::{attack_maps_and_values, king_safety, KingSafetyWeights, Neighbourhoods};
use super::{hand_value, kind_values, utilities, Evaluate, HexWeights, Values, Weights};

/// The value of a piece other than a king.
pub fn piece_value(piece: Piece, w: &HexWeights) -> i32 {
    match (piece.role, piece.promoted) {
        (Role::King, _) => 0,
        (Role::Rook, false) => w.rook,
        (Role::Rook, true) => w.pro_rook,
        (Role::Bishop, false) => w.bishop,
        (Role::Bishop, true) => w.pro_bishop,
        (Role::Gold, _) => w.gold,
        (Role::Silver, false) => w.silver,
        (Role::Silver, true) => w.pro_silver,
        (Role::Knight, false) => w.knight,
        (Role::Knight, true) => w.pro_knight,
        (Role::Lance, false) => w.lance,
        (Role::Lance, true) => w.pro_lance,
        (Role::Pawn, false) => w.pawn,
        (Role::Pawn, true) => w.pro_pawn,
    }
}

impl Evaluate for HexShogiPosition {
    fn evaluate(&self, weights: &Weights) -> Values {
        let w = hex_weights(self, weights);
        let values = kind_values(|piece| piece_value(piece, w));
        let occupied = self.occupied();
        let (maps, on_board) = attack_maps_and_values(self.seats(), |p| self.attack_map_and_value(p, &values));
        let hood = Neighbourhoods::get(self.tables().grid);
        let safety =
            KingSafetyWeights { defender: w.king_defender, attacker: w.king_attacker, zone_attacked: w.king_zone_attacked };
        let three = self.is_three_player();
        let active = Rules::players_in(self);
        let mover = self.to_move();
        let mut raw = [0; 3];
        for p in active.iter() {
            let own = self.pieces_of(p);
            let mut score = on_board[p] + hand_value(p, self.hand(p), |piece| values[piece.kind()], w.hand_pct);
            score += maps[p].count() as i32 * w.control;
            let kings = own & self.kings();
            for king in kings {
                score += king_safety(king, p, own, occupied - own, &maps, hood, &safety);
            }
            if three {
                let held = self.kings_held(p) as i32;
                score += held * w.king_held;
                if held >= 2 {
                    score += w.two_kings;
                }
            } else if !(kings & attacked_by_others(self, p, &maps)).is_empty() {
                // In check: the attack maps already say what `in_check` would work out again.
                score -= w.in_check;
            }
            if p != mover {
                score -= threatened_value(self, p, own, &maps, w, &values) * w.threat_pct / 100;
            }
            raw[p.index()] = score;
        }
        utilities(raw, self.seats(), active, PlayerSet::EMPTY, &weights.common)
    }

    /// Only a move onto another player's piece gains material here: no promotion is counted,
    /// and drops take nothing.
    fn capture_candidates(&self, out: &mut MoveList) {
        self.legal_captures(out);
    }

    fn piece_value(&self, cell: Cell, weights: &Weights) -> i32 {
        match self.piece_at(cell) {
            Some(p) if p.role == Role::King && self.is_three_player() => hex_weights(self, weights).king_held,
            Some(p) => piece_value(p, hex_weights(self, weights)),
            None => 0,
        }
    }
}

/// The weights of the game being played: Hex Shogi 91's or the three-player game's.
fn hex_weights<'w>(pos: &HexShogiPosition, weights: &'w Weights) -> &'w HexWeights {
    if pos.is_three_player() {
        &weights.hex3
    } else {
        &weights.hex
    }
}

/// The most valuable piece of `player` that another seat attacks and `player` does not defend
/// (kings count in the three-player game, where they can be taken).
fn threatened_value(
    pos: &HexShogiPosition,
    player: Player,
    own: CellSet,
    maps: &ByPlayer<CellSet>,
    w: &HexWeights,
    values: &[i32; 16],
) -> i32 {
    (own & attacked_by_others(pos, player, maps) & !maps[player])
        .map(|cell| match pos.piece_at(cell) {
            Some(piece) if piece.role == Role::King && pos.is_three_player() => w.king_held,
            Some(piece) if piece.role == Role::King => 0,
            Some(piece) => values[piece.kind()],
            None => 0,
        })
        .max()
        .unwrap_or(0)
}

/// The cells that some seat other than `player` attacks.
fn attacked_by_others(pos: &HexShogiPosition, player: Player, maps: &ByPlayer<CellSet>) -> CellSet {
    pos.seats().iter().filter(|&&p| p != player).fold(CellSet::EMPTY, |attacked, &p| attacked | maps[p])
}

#[cfg(test)]
mod tests {
    use polyshogi::variant::hexshogi::HexShogiRules;
    use polyshogi::Move;

    use super::*;

    /// Two players: each cell a side attacks is worth `control` to it, and the same against
    /// the other side. The three-player game leaves the term out.
    #[test]
    fn control_counts_the_cells_each_side_attacks() {
        let start = HexShogiPosition::start(HexShogiRules::hexshogi91());
        let mut moves = MoveList::new();
        start.legal_moves(&mut moves);
        // A move after which the two sides attack different numbers of cells.
        let (pos, lead) = moves
            .iter()
            .map(|&m: &Move| {
                let mut pos = start.clone();
                pos.play_unchecked(m);
                let lead = pos.attack_map(Player::First).count() as i32 - pos.attack_map(Player::Second).count() as i32;
                (pos, lead)
            })
            .find(|&(_, lead)| lead != 0)
            .expect("some first move changes how many cells Black attacks");
        let mut without = Weights::hand_set();
        without.hex.control = 0;
        let with = Weights::hand_set();
        assert!(with.hex.control > 0);
        let gain = pos.evaluate(&with)[Player::First.index()] - pos.evaluate(&without)[Player::First.index()];
        assert_eq!(gain, with.hex.control * lead);
        assert_eq!(Weights::hand_set().hex3.control, 0);
    }
}
