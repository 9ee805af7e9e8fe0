//! Hex Shogi 91 and Three Player Hex Shogi 91 evaluation (RULES.md §2): material on the board
//! and in hand, king safety, and for three players the progress of the king collection.

use polyshogi::cellset::CellSet;
use polyshogi::geometry::Cell;
use polyshogi::mv::MoveSink;
use polyshogi::piece::{Piece, Role};
use polyshogi::player::{ByPlayer, Player, PlayerSet};
use polyshogi::variant::hexshogi::{CheckCells, HexShogiPosition};
use polyshogi::{Move, MoveList, Rules};

use super::attacks::{attack_maps_and_values, attacked_before_turn_of, king_safety, KingSafetyWeights, Neighbourhoods};
use super::{hand_value, kind_values, utilities, AttackMapCache, Evaluate, HexWeights, Values, Weights};

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
        let values = kind_values(|piece| piece_value(piece, hex_weights(self, weights)));
        evaluate_from(self, weights, &values, |p| self.attack_map_and_value(p, &values))
    }

    fn prefetch_attack_maps(&self, maps: &AttackMapCache) {
        for p in self.seats().iter().copied() {
            maps.prefetch(self.board_key(p));
        }
    }

    fn evaluate_with(&self, weights: &Weights, maps: &mut AttackMapCache) -> Values {
        let values = kind_values(|piece| piece_value(piece, hex_weights(self, weights)));
        let occupied = self.occupied();
        evaluate_from(self, weights, &values, |p| {
            let steps = || self.step_map_and_value(p, &values);
            maps.get_or_insert(self.board_key(p), occupied, steps, self.ranging_pieces(p), |from, hours| {
                self.reach_along(from, hours)
            })
        })
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

    /// A move takes at most one piece, and a promotion adds nothing to the gain.
    fn capture_gain_bound(&self, weights: &Weights) -> Option<i32> {
        capturable_values(self, weights).max()
    }

    /// From the king's safety and the one piece or drop; with three players, by running the
    /// generator without listing its moves.
    fn is_legal_cheaply(&self, m: Move) -> Option<bool> {
        Some(self.is_legal_move(m))
    }

    /// The moves onto an empty cell, where every capture gains something (a piece worth
    /// nothing or less would make its capture gainless too): the others gain nothing.
    fn gainless_moves(&self, weights: &Weights, out: &mut impl MoveSink) -> bool {
        let every_capture_gains = capturable_values(self, weights).all(|value| value > 0);
        if every_capture_gains {
            self.push_quiet_moves(out);
        }
        every_capture_gains
    }

    type CheckContext = CheckCells;

    fn check_context(&self) -> CheckCells {
        self.check_cells()
    }

    #[inline]
    fn may_give_check(&self, cells: &CheckCells, m: Move) -> bool {
        self.gives_check_knowing(cells, m)
    }
}

/// The evaluation, given each seat's attack map and material on the board
/// (`attack_map_and_value`, whole or in parts).
fn evaluate_from(
    pos: &HexShogiPosition,
    weights: &Weights,
    values: &[i32; 16],
    attack_map_and_value: impl FnMut(Player) -> (CellSet, i32),
) -> Values {
    let w = hex_weights(pos, weights);
    let occupied = pos.occupied();
    let (maps, on_board) = attack_maps_and_values(pos.seats(), attack_map_and_value);
    let hood = Neighbourhoods::get(pos.tables().grid);
    let safety = KingSafetyWeights { defender: w.king_defender, attacker: w.king_attacker, zone_attacked: w.king_zone_attacked };
    let three = pos.is_three_player();
    let active = Rules::players_in(pos);
    let mover = pos.to_move();
    let mut raw = [0; 3];
    for p in active.iter() {
        let own = pos.pieces_of(p);
        let attacked = if three { attacked_before_turn_of(p, mover, active, &maps) } else { attacked_by_others(pos, p, &maps) };
        let mut score = on_board[p] + hand_value(pos.hand(p), values, w.hand_pct);
        score += maps[p].count() as i32 * w.control;
        let kings = own & pos.kings();
        for king in kings {
            score += king_safety(king, p, own, occupied - own, &maps, hood, &safety);
        }
        if three {
            let held = pos.kings_held(p) as i32;
            score += held * w.king_held;
            if held >= 2 {
                score += w.two_kings;
            }
            if p != mover {
                // A king attacked by a seat that moves first may be taken before its owner
                // moves, and guarding it does not help: taking back the taker gains a piece,
                // not the king.
                score -= (kings & attacked).count() as i32 * w.in_check;
            }
        } else if !(kings & attacked).is_empty() {
            // In check: the attack maps already say what `in_check` would work out again.
            score -= w.in_check;
        }
        if p != mover {
            score -= threatened_value(pos, own & attacked & !maps[p], w, values) * w.threat_pct / 100;
        }
        raw[p.index()] = score;
    }
    utilities(raw, pos.seats(), active, PlayerSet::EMPTY, &weights.common)
}

/// What each kind of piece a move may take is worth: every piece but a king, and with three
/// players a king too.
fn capturable_values(pos: &HexShogiPosition, weights: &Weights) -> impl Iterator<Item = i32> {
    let w = hex_weights(pos, weights);
    let pieces = [
        w.rook,
        w.pro_rook,
        w.bishop,
        w.pro_bishop,
        w.gold,
        w.silver,
        w.pro_silver,
        w.knight,
        w.pro_knight,
        w.lance,
        w.pro_lance,
        w.pawn,
        w.pro_pawn,
    ];
    let king = pos.is_three_player().then_some(w.king_held);
    pieces.into_iter().chain(king)
}

/// The weights of the game being played: Hex Shogi 91's or the three-player game's.
fn hex_weights<'w>(pos: &HexShogiPosition, weights: &'w Weights) -> &'w HexWeights {
    if pos.is_three_player() {
        &weights.hex3
    } else {
        &weights.hex
    }
}

/// The most valuable of the `exposed` pieces: a seat's own, attacked by another seat (with three
/// players, one that moves before it) and not defended (kings count in the three-player game,
/// where they can be taken).
fn threatened_value(pos: &HexShogiPosition, exposed: CellSet, w: &HexWeights, values: &[i32; 16]) -> i32 {
    exposed
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

    /// The evaluation with attack maps kept from one position to the next gives the values of
    /// the one from scratch, along random games of both games (one cache for each game, whose
    /// weights differ, as a search has its own).
    #[test]
    fn kept_attack_maps_give_the_same_values() {
        let mut weights = Weights::hand_set();
        // Every attacked cell counts, so that a wrong map shows in the values.
        (weights.hex.control, weights.hex3.control) = (2, 2);
        let mut rng = polyshogi::splitmix::SplitMix::new(5);
        let mut moves = MoveList::new();
        let mut compared = 0;
        for rules in [HexShogiRules::hexshogi91(), HexShogiRules::tphs91()] {
            let mut maps = AttackMapCache::new();
            let values = kind_values(|piece| piece_value(piece, hex_weights(&HexShogiPosition::start(rules), &weights)));
            for _ in 0..4 {
                let mut pos = HexShogiPosition::start(rules);
                while pos.outcome().is_none() && pos.plies() < 400 {
                    pos.legal_moves(&mut moves);
                    // Each move's position, as a search would see the children of one node.
                    for &m in moves.iter().take(8) {
                        let mut next = pos.clone();
                        next.play_unchecked(m);
                        assert_eq!(next.evaluate_with(&weights, &mut maps), next.evaluate(&weights), "{next:?}");
                        compared += 1;
                    }
                    for &p in pos.seats() {
                        let (map, value) = pos.step_map_and_value(p, &values);
                        let ranges =
                            pos.ranging_pieces(p).fold(CellSet::EMPTY, |map, (from, hours)| map | pos.reach_along(from, hours));
                        assert_eq!((map | ranges, value), pos.attack_map_and_value(p, &values), "{p:?} in {pos:?}");
                    }
                    pos.play_unchecked(moves[rng.below(moves.len())]);
                }
            }
        }
        assert!(compared > 5_000, "{compared} positions compared");
    }

    /// Three players: an attacked piece counts against its owner (`threat_pct`, and `in_check`
    /// for a king) only when the attacker moves before the owner does; an attack by the seat
    /// that moves after the owner can be met first.
    #[test]
    fn a_threat_counts_only_from_a_seat_that_moves_before_the_owner() {
        use polyshogi::variant::hexshogi::HexShogiSetup;
        let rules = HexShogiRules::tphs91();
        let start = HexShogiSetup::start(rules.variant);
        let grid = HexShogiPosition::start(rules).tables().grid;
        let (white, gray) = (Player::Second, Player::Third);
        let piece = |player, role| Piece { player, role, promoted: false };
        let position = |pieces: &[(Cell, Piece)], to_move| {
            HexShogiPosition::from_setup(HexShogiSetup { pieces: pieces.to_vec(), to_move, ..start.clone() }, rules)
        };
        // The three kings of the start, White's `target` (its king moved, or a gold added) and a
        // Gray rook that attacks it, where nothing else stands attacked by another seat: so
        // that only this one attack can move the values.
        let with_target = |target: Role| -> Vec<(Cell, Piece)> {
            for (on, by) in grid.cells().flat_map(|on| grid.cells().map(move |by| (on, by))) {
                let mut pieces: Vec<(Cell, Piece)> = start
                    .pieces
                    .iter()
                    .copied()
                    .filter(|&(_, p)| p.role == Role::King && !(target == Role::King && p.player == white))
                    .collect();
                pieces.extend([(on, piece(white, target)), (by, piece(gray, Role::Rook))]);
                let Ok(pos) = position(&pieces, Player::First) else { continue };
                let maps = ByPlayer::new(|p| pos.attack_map(p));
                let exposed = |p: Player| pos.pieces_of(p) & attacked_by_others(&pos, p, &maps);
                if exposed(white) == CellSet::from_cell(on)
                    && maps[gray].contains(on)
                    && !maps[white].contains(on)
                    && !maps[Player::First].contains(on)
                    && exposed(Player::First).is_empty()
                    && exposed(gray).is_empty()
                {
                    return pieces;
                }
            }
            panic!("no cell found where a lone Gray rook alone attacks White's {target:?}");
        };
        let white_loss = |pieces: &[(Cell, Piece)], to_move, with: &Weights, without: &Weights| {
            let pos = position(pieces, to_move).unwrap();
            pos.evaluate(without)[white.index()] - pos.evaluate(with)[white.index()]
        };
        let mut without = Weights::hand_set();
        (without.hex3.threat_pct, without.hex3.in_check) = (0, 0);

        let gold = with_target(Role::Gold);
        let mut threat = without;
        threat.hex3.threat_pct = 100;
        // Gray moves before White: White loses its gold.
        assert_eq!(white_loss(&gold, gray, &threat, &without), threat.hex3.gold);
        // Black to move, then White, who can save its gold before Gray moves; and White to move.
        assert_eq!(white_loss(&gold, Player::First, &threat, &without), 0);
        assert_eq!(white_loss(&gold, white, &threat, &without), 0);

        let king = with_target(Role::King);
        let mut check = without;
        check.hex3.in_check = 100;
        assert_eq!(white_loss(&king, gray, &check, &without), 100);
        assert_eq!(white_loss(&king, Player::First, &check, &without), 0);
        assert_eq!(white_loss(&king, white, &check, &without), 0);
    }

    /// No legal move gains more than `capture_gain_bound`, with the tuned and the hand-set
    /// weights, along capturing games of both games; the bound is reached, where the most
    /// valuable piece (or, with three players, a king) is taken.
    #[test]
    fn no_capture_gains_more_than_the_bound() {
        let mut moves = MoveList::new();
        for rules in [HexShogiRules::hexshogi91(), HexShogiRules::tphs91()] {
            for weights in [Weights::default(), Weights::hand_set()] {
                let bound = HexShogiPosition::start(rules).capture_gain_bound(&weights).unwrap();
                let (mut captures, mut reached) = (0, 0);
                for seed in 1..=6 {
                    crate::test_games::along_a_capturing_game(HexShogiPosition::start(rules), seed, 400, |pos| {
                        assert_eq!(pos.capture_gain_bound(&weights), Some(bound));
                        pos.legal_moves(&mut moves);
                        for &m in moves.iter() {
                            let gain = pos.capture_gain(m, &weights);
                            assert!(gain <= bound, "{m:?} gains {gain}, above {bound}, in {pos:?}");
                            captures += usize::from(gain > 0);
                            reached += usize::from(gain == bound);
                        }
                    });
                }
                assert!(captures > 1_000 && reached > 0, "{rules:?}: {captures} captures, {reached} at the bound");
            }
        }
    }

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
