//! Sannin shogi evaluation (RULES.md §1): material on the board and in hand, king safety,
//! the way to the Pleasure Garden, castling rights, the cells each seat attacks and undefended
//! pieces under attack.

use polyshogi::cellset::CellSet;
use polyshogi::geometry::Cell;
use polyshogi::mv::{Move, MoveList, MoveSink};
use polyshogi::piece::{Piece, Role};
use polyshogi::player::Player;
use polyshogi::variant::sannin::{CheckContext, SanninPosition};

use super::attacks::{
    attack_maps_and_values, attacked_before_turn_of, drop_room, king_safety, KingSafetyWeights, Neighbourhoods,
};
use super::{hand_value, kind_values, utilities, AttackMapCache, Evaluate, SanninWeights, Values, Weights};

/// The value of a piece on the board (a king: 0 unpromoted, its bonus when promoted).
pub fn piece_value(piece: Piece, w: &SanninWeights) -> i32 {
    match (piece.role, piece.promoted) {
        (Role::King, false) => 0,
        (Role::King, true) => w.pro_king,
        (Role::Rook, false) => w.rook,
        (Role::Rook, true) => w.pro_rook,
        (Role::Bishop, false) => w.bishop,
        (Role::Bishop, true) => w.pro_bishop,
        (Role::Gold, _) => w.gold,
        (Role::Silver, false) => w.silver,
        (Role::Silver, true) => w.pro_silver,
        (Role::Knight, _) => w.knight,
        (Role::Lance, false) => w.lance,
        (Role::Lance, true) => w.pro_lance,
        (Role::Pawn, false) => w.pawn,
        (Role::Pawn, true) => w.pro_pawn,
    }
}

/// Whether `player`'s king wins by entering the Garden (§1.12), as the rules library decides it.
fn has_garden_right(pos: &SanninPosition, player: Player) -> bool {
    if pos.allies().contains(player) {
        return false;
    }
    !pos.former_allies().contains(player) || pos.rules().garden_returns_after_dissolution
}

impl Evaluate for SanninPosition {
    fn evaluate(&self, weights: &Weights) -> Values {
        let values = kind_values(|piece| piece_value(piece, &weights.sannin));
        evaluate_from(self, weights, &values, |p| self.attack_map_and_value(p, &values))
    }

    fn prefetch_attack_maps(&self, maps: &AttackMapCache) {
        for p in Player::ALL {
            maps.prefetch(self.board_key(p));
        }
    }

    fn evaluate_with(&self, weights: &Weights, maps: &mut AttackMapCache) -> Values {
        let values = kind_values(|piece| piece_value(piece, &weights.sannin));
        let occupied = self.occupied();
        evaluate_from(self, weights, &values, |p| {
            let steps = || self.step_map_and_value(p, &values);
            maps.get_or_insert(self.board_key(p), occupied, steps, self.ranging_pieces(p), |from, hours| {
                self.reach_along(from, hours)
            })
        })
    }

    fn piece_value(&self, cell: Cell, weights: &Weights) -> i32 {
        self.piece_at(cell).map_or(0, |p| piece_value(p, &weights.sannin))
    }

    /// A gain comes only from a capture, an illumination or the king's step into the Garden.
    fn capture_candidates(&self, out: &mut MoveList) {
        self.legal_captures(out);
    }

    /// Captures, plus the king's step into the Garden, which wins at once: so that quiescence
    /// sees it and ordering tries it first.
    fn capture_gain(&self, m: Move, weights: &Weights) -> i32 {
        match m {
            Move::Normal { from, to, .. } => {
                let mover = self.to_move();
                let mut gain = match self.piece_at(to) {
                    Some(piece) if piece.player != mover => piece_value(piece, &weights.sannin),
                    _ => 0,
                };
                if to == self.tables().garden && self.king(mover) == Some(from) && has_garden_right(self, mover) {
                    gain += GARDEN_GAIN;
                }
                gain
            }
            Move::Illuminate { from, rays } => {
                SanninPosition::illumination_targets(self, from, rays).map(|c| self.piece_value(c, weights)).sum()
            }
            Move::Drop { .. } | Move::Pass => 0,
        }
    }

    /// A capture takes one piece, never a king; a king steps into the Garden only from a cell
    /// next to it. A promoted king, which may illuminate several pieces at once, gives none.
    fn capture_gain_bound(&self, weights: &Weights) -> Option<i32> {
        let mover = self.to_move();
        let king = self.king(mover)?;
        if self.piece_at(king).is_some_and(|piece| piece.promoted) {
            return None;
        }
        let garden = self.tables().garden;
        let to_garden = self.tables().grid.next_door(king).contains(garden) && has_garden_right(self, mover);
        capturable_values(weights).into_iter().max().map(|piece| piece + if to_garden { GARDEN_GAIN } else { 0 })
    }

    /// From the king's safety and the one piece or drop, where that settles it.
    fn is_legal_cheaply(&self, m: Move) -> Option<bool> {
        self.is_legal_move(m)
    }

    /// The moves that take nothing and do not win in the Garden, where every capture gains
    /// something (a piece worth nothing or less would make its capture gainless too, and an
    /// illumination takes such pieces): the others gain nothing.
    fn gainless_moves(&self, weights: &Weights, out: &mut impl MoveSink) -> bool {
        capturable_values(weights).into_iter().all(|value| value > 0) && self.push_quiet_moves(out)
    }

    type CheckContext = CheckContext;

    fn check_context(&self) -> CheckContext {
        SanninPosition::check_context(self)
    }

    #[inline]
    fn may_give_check(&self, context: &CheckContext, m: Move) -> bool {
        self.may_give_check_knowing(m, context)
    }
}

/// What each kind of piece a move or an illumination may take is worth: every piece but a king.
fn capturable_values(weights: &Weights) -> [i32; 12] {
    let w = &weights.sannin;
    [
        w.rook,
        w.pro_rook,
        w.bishop,
        w.pro_bishop,
        w.gold,
        w.silver,
        w.pro_silver,
        w.knight,
        w.lance,
        w.pro_lance,
        w.pawn,
        w.pro_pawn,
    ]
}

/// The evaluation, given each seat's attack map and material on the board
/// (`attack_map_and_value`, whole or in parts).
fn evaluate_from(
    pos: &SanninPosition,
    weights: &Weights,
    values: &[i32; 16],
    attack_map_and_value: impl FnMut(Player) -> (CellSet, i32),
) -> Values {
    let w = &weights.sannin;
    let occupied = pos.occupied();
    let (maps, on_board) = attack_maps_and_values(&Player::ALL, attack_map_and_value);
    let hood = Neighbourhoods::get(pos.tables().grid);
    let safety = KingSafetyWeights { defender: w.king_defender, attacker: w.king_attacker, zone_attacked: w.king_zone_attacked };
    let active = pos.active_players();
    let mover = pos.to_move();
    let mut raw = [0; 3];
    for p in active.iter() {
        let own = pos.pieces_of(p);
        let mut score = on_board[p] + hand_value(pos.hand(p), values, w.hand_pct);
        score += maps[p].count() as i32 * w.control;
        let [q, r] = p.others3();
        // Every piece belongs to a seat, so these are the cells the other pieces attack.
        let attacked = maps[q] | maps[r];
        if let Some(king) = pos.king(p) {
            score += king_safety(king, p, own, occupied - own, &maps, hood, &safety);
            let others_in_hand = (pos.hand(q).total() + pos.hand(r).total()) as i32;
            score -= drop_room(king, occupied, hood) * others_in_hand * w.drop_near;
            if attacked.contains(king) {
                score -= w.in_check;
            }
            if has_garden_right(pos, p) {
                let distance = hood.centre_distance[king.usize()] as i32;
                score += (6 - distance).max(0) * w.garden_step;
                if reaches_garden(pos, p, king) {
                    // The king can step into the Garden on its next turn: attacked, the
                    // step is illegal, so only an unguarded Garden is a real threat.
                    let guarded = Player::ALL.iter().any(|&q| q != p && maps[q].contains(pos.tables().garden));
                    score += if guarded { w.garden_next / 4 } else { w.garden_next };
                }
            }
            if pos.may_castle(p) {
                score += w.castle_right;
            }
        }
        if p != mover {
            let attacked_first = attacked_before_turn_of(p, mover, active, &maps);
            score -= threatened_value(pos, own & attacked_first & !maps[p], values) * w.threat_pct / 100;
        }
        if pos.allies().contains(p) {
            score -= w.allied;
        }
        raw[p.index()] = score;
    }
    utilities(raw, &Player::ALL, active, pos.allies(), &weights.common)
}

/// What ordering and quiescence count a step into the Garden as (it wins the game).
const GARDEN_GAIN: i32 = 10_000;

/// Whether `player`'s king on `king` reaches the Garden in one move on an otherwise unchanged
/// board: a step for the king, a clear line for the promoted king.
fn reaches_garden(pos: &SanninPosition, player: Player, king: Cell) -> bool {
    let garden = pos.tables().garden;
    if pos.piece_at(garden).is_some_and(|p| p.player == player) {
        return false;
    }
    pos.attacks_cell(king, garden)
}

/// The most valuable piece on the cells of `exposed` (a seat's pieces that another seat attacks
/// and it does not defend).
fn threatened_value(pos: &SanninPosition, exposed: CellSet, values: &[i32; 16]) -> i32 {
    exposed.map(|cell| pos.piece_at(cell).map_or(0, |piece| values[piece.kind()])).max().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use polyshogi::variant::sannin::SanninRules;
    use polyshogi::Rules;

    use super::*;

    /// The evaluation with attack maps kept from one position to the next gives the values of
    /// the one from scratch, along random games whose positions share placements as a
    /// search's do (one cache for every game and rule set), eliminations and alliances included.
    #[test]
    fn kept_attack_maps_give_the_same_values() {
        let mut weights = Weights::hand_set();
        // Every attacked cell counts, so that a wrong map shows in the values.
        weights.sannin.control = 2;
        let values = kind_values(|piece| piece_value(piece, &weights.sannin));
        let mut maps = AttackMapCache::new();
        let mut rng = polyshogi::splitmix::SplitMix::new(3);
        let mut moves = MoveList::new();
        let mut compared = 0;
        for options in [&[][..], &["alliance=ML"], &["compulsory=off"]] {
            let mut rules = SanninRules::default();
            for option in options {
                rules.set(option).expect("a rule option");
            }
            for _ in 0..4 {
                let mut pos = SanninPosition::start(rules);
                while pos.outcome().is_none() && pos.plies() < 400 {
                    pos.legal_moves(&mut moves);
                    // Each move's position, as a search would see the children of one node.
                    for &m in moves.iter().take(8) {
                        let mut next = pos.clone();
                        next.play_unchecked(m);
                        assert_eq!(next.evaluate_with(&weights, &mut maps), next.evaluate(&weights), "{next:?}");
                        compared += 1;
                    }
                    for p in Player::ALL {
                        let (map, value) = pos.step_map_and_value(p, &values);
                        let ranges =
                            pos.ranging_pieces(p).fold(CellSet::EMPTY, |map, (from, hours)| map | pos.reach_along(from, hours));
                        assert_eq!((map | ranges, value), pos.attack_map_and_value(p, &values), "{p:?} in {pos:?}");
                    }
                    let m = moves[rng.below(moves.len())];
                    pos.play_unchecked(m);
                    if pos.decision_pending() {
                        pos.answer_pending(rng.below(2) == 0).expect("a pending alliance takes an answer");
                    }
                }
            }
        }
        assert!(compared > 10_000, "{compared} positions compared");
    }

    /// A seat not to move loses `threat_pct` of its undefended piece only when the seat that
    /// attacks it moves before it does; an attack by the seat that moves after it can be met
    /// first.
    #[test]
    fn a_threat_counts_only_from_a_seat_that_moves_before_the_owner() {
        use polyshogi::player::ByPlayer;
        use polyshogi::variant::sannin::SanninSetup;
        let rules = SanninRules::default();
        let start = SanninSetup::start(&rules);
        let grid = SanninPosition::start(rules).tables().grid;
        let values = kind_values(|piece| piece_value(piece, &Weights::hand_set().sannin));
        let (middle, last) = (Player::Second, Player::Third);
        let position = |pieces: &[(Cell, Piece)], to_move| {
            SanninPosition::from_setup(SanninSetup { pieces: pieces.to_vec(), to_move, ..start.clone() }, rules)
        };
        // The three kings of the start, a Middle gold and a Last rook that attacks it, where
        // nothing else stands attacked by another seat: so that only this one attack can move
        // the values.
        let gold = grid
            .cells()
            .flat_map(|on| grid.cells().map(move |by| (on, by)))
            .find_map(|(on, by)| {
                let mut pieces: Vec<(Cell, Piece)> =
                    start.pieces.iter().copied().filter(|&(_, p)| p.role == Role::King).collect();
                pieces.extend([
                    (on, Piece { player: middle, role: Role::Gold, promoted: false }),
                    (by, Piece { player: last, role: Role::Rook, promoted: false }),
                ]);
                let pos = position(&pieces, Player::First).ok()?;
                let maps = ByPlayer::new(|p| pos.attack_map_and_value(p, &values).0);
                let exposed = |p: Player| {
                    let [q, r] = p.others3();
                    pos.pieces_of(p) & (maps[q] | maps[r])
                };
                let alone = exposed(middle) == CellSet::from_cell(on)
                    && maps[last].contains(on)
                    && !maps[middle].contains(on)
                    && !maps[Player::First].contains(on)
                    && exposed(Player::First).is_empty()
                    && exposed(last).is_empty();
                alone.then_some(pieces)
            })
            .expect("some cell where a lone Last rook alone attacks a Middle gold");
        let mut without = Weights::hand_set();
        without.sannin.threat_pct = 0;
        let mut with = without;
        with.sannin.threat_pct = 100;
        let middle_loss = |to_move| {
            let pos = position(&gold, to_move).unwrap();
            pos.evaluate(&without)[middle.index()] - pos.evaluate(&with)[middle.index()]
        };
        // Last moves before Middle: Middle loses its gold.
        assert_eq!(middle_loss(last), with.sannin.gold);
        // First to move, then Middle, who can save its gold before Last moves; and Middle to move.
        assert_eq!(middle_loss(Player::First), 0);
        assert_eq!(middle_loss(middle), 0);
    }

    /// No legal move gains more than `capture_gain_bound`, where it gives one, with the tuned
    /// and the hand-set weights, along capturing games; the bound is reached.
    #[test]
    fn no_capture_gains_more_than_the_bound() {
        let mut moves = MoveList::new();
        for weights in [Weights::default(), Weights::hand_set()] {
            let (mut captures, mut reached, mut unbounded) = (0, 0, 0);
            for seed in 1..=8 {
                crate::test_games::along_a_capturing_game(SanninPosition::start(SanninRules::default()), seed, 300, |pos| {
                    let Some(bound) = pos.capture_gain_bound(&weights) else {
                        unbounded += 1;
                        return;
                    };
                    pos.legal_moves(&mut moves);
                    for &m in moves.iter() {
                        let gain = pos.capture_gain(m, &weights);
                        assert!(gain <= bound, "{m:?} gains {gain}, above {bound}, in {pos:?}");
                        captures += usize::from(gain > 0);
                        reached += usize::from(gain == bound);
                    }
                });
            }
            assert!(
                captures > 1_000 && reached > 0 && unbounded > 0,
                "{captures} captures, {reached} at the bound, {unbounded} without one"
            );
        }
        // First's king on every cell, with the other two kings of the start: the steps into
        // the Garden gain the most.
        use polyshogi::variant::sannin::SanninSetup;
        let rules = SanninRules::default();
        let start = SanninSetup::start(&rules);
        let weights = Weights::default();
        let mut garden_steps = 0;
        for cell in SanninPosition::start(rules).tables().grid.cells() {
            let mut pieces: Vec<(Cell, Piece)> = start.pieces.iter().copied().filter(|&(_, p)| p.role == Role::King).collect();
            pieces[0].0 = cell;
            let Ok(pos) = SanninPosition::from_setup(SanninSetup { pieces, ..start.clone() }, rules) else { continue };
            let bound = pos.capture_gain_bound(&weights).unwrap();
            pos.legal_moves(&mut moves);
            for &m in moves.iter() {
                let gain = pos.capture_gain(m, &weights);
                assert!(gain <= bound, "{m:?} gains {gain}, above {bound}, in {pos:?}");
                garden_steps += usize::from(gain >= GARDEN_GAIN);
            }
        }
        assert!(garden_steps > 0);
    }

    /// Each empty cell next to a seat's king costs it `drop_near` per piece the other seats
    /// hold in hand, along capturing games (whose hands fill).
    #[test]
    fn drop_near_counts_the_empty_cells_next_to_the_king_per_piece_in_the_others_hands() {
        let without = Weights::hand_set();
        assert_eq!(without.sannin.drop_near, 0);
        let mut with = without;
        // Even, so that halving the others' sum loses nothing to rounding.
        with.sannin.drop_near = 2;
        let hood = Neighbourhoods::get(SanninPosition::start(SanninRules::default()).tables().grid);
        let mut compared = 0;
        for seed in 1..=4 {
            crate::test_games::along_a_capturing_game(SanninPosition::start(SanninRules::default()), seed, 200, |pos| {
                if pos.active_players().len() < 3 || !pos.allies().is_empty() {
                    return;
                }
                let cost = |p: Player| {
                    let [q, r] = p.others3();
                    let in_hand = (pos.hand(q).total() + pos.hand(r).total()) as i32;
                    let empty = (hood.near[pos.king(p).unwrap().usize()] - pos.occupied()).count() as i32;
                    empty * in_hand * with.sannin.drop_near
                };
                for p in Player::ALL {
                    let [q, r] = p.others3();
                    let expected = -cost(p) + (cost(q) + cost(r)) / 2;
                    let gain = pos.evaluate(&with)[p.index()] - pos.evaluate(&without)[p.index()];
                    assert_eq!(gain, expected, "{p:?} in {pos:?}");
                    compared += (cost(p) != 0) as usize;
                }
            });
        }
        assert!(compared > 50, "only {compared} seats with pieces in the others' hands and room by the king");
    }

    /// Each cell a seat attacks is worth `control` to it; a seat's value is its own less half
    /// of the other two's.
    #[test]
    fn control_counts_the_cells_each_seat_attacks() {
        let start = SanninPosition::start(SanninRules::default());
        let values = kind_values(|piece| piece_value(piece, &Weights::hand_set().sannin));
        let mut moves = MoveList::new();
        start.legal_moves(&mut moves);
        let cells = |pos: &SanninPosition, p: Player| pos.attack_map_and_value(p, &values).0.count() as i32;
        // A move after which First attacks a different number of cells than the others' mean.
        let (pos, lead) = moves
            .iter()
            .map(|&m| {
                let mut pos = start.clone();
                pos.play_unchecked(m);
                let lead = 2 * cells(&pos, Player::First) - cells(&pos, Player::Second) - cells(&pos, Player::Third);
                (pos, lead)
            })
            .find(|&(_, lead)| lead != 0)
            .expect("some first move changes how many cells First attacks");
        let without = Weights::hand_set();
        assert_eq!(without.sannin.control, 0);
        let mut with = without;
        // Even, so that halving the others' sum loses nothing to rounding.
        with.sannin.control = 2;
        let gain = pos.evaluate(&with)[Player::First.index()] - pos.evaluate(&without)[Player::First.index()];
        assert_eq!(gain, lead);
    }
}
