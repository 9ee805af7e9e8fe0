//! Static evaluation: one `Evaluate` implementation per game turns a position into a value per
//! seat (centipawns, each from that seat's own point of view); the weights are data (`Weights`).
//!
//! Every game computes a raw strength per seat (material, hands, king or Emperor safety, the
//! Garden or the kings collected); `utilities` turns strengths into the values searches compare:
//! two players are zero-sum, three players score against the others' average, allies share one
//! value (their interests are tied: if either is mated both lose), and a seat out of the game
//! is worth `ELIMINATED`.

mod attack_map_cache;
mod attacks;
mod hexshogi;
mod sankaku;
mod sannin;
mod weights;

use arrayvec::ArrayVec;
use polyshogi::geometry::Cell;
use polyshogi::mv::{Move, MoveList, MoveSink};
use polyshogi::outcome::Outcome;
use polyshogi::piece::{Hand, Piece, Role};
use polyshogi::player::{Player, PlayerSet};
use polyshogi::Rules;

pub use attack_map_cache::AttackMapCache;
pub use weights::{CommonWeights, HexWeights, Pruning, SankakuWeights, SanninWeights, Weights};

/// One value per seat, indexed by `Player::index()`; the unused third seat of a two-player game
/// holds 0.
pub type Values = [i32; 3];

/// The value of a won game at the root; a win `n` plies away scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// Scores beyond this (in absolute value) are wins or losses found by search.
pub const WIN_BOUND: i32 = WIN - 1_000;
/// The static value of a seat that has left the game (mated, stalemated, without pieces).
pub const ELIMINATED: i32 = -20_000;

/// A game the engines can evaluate. Implemented for every position type of the rules library.
pub trait Evaluate: Rules + Send + Sync + 'static {
    /// The value of the position for every seat, from that seat's point of view (centipawns).
    fn evaluate(&self, weights: &Weights) -> Values;

    /// `evaluate`, for a search that keeps each seat's attack map in `maps` from one position
    /// to the next (the weights must stay the same). The same values.
    fn evaluate_with(&self, weights: &Weights, _maps: &mut AttackMapCache) -> Values {
        self.evaluate(weights)
    }

    /// Starts loading what `evaluate_with` will read from `maps` for this position.
    fn prefetch_attack_maps(&self, _maps: &AttackMapCache) {}

    /// What the piece on `cell` is worth to its owner (0 for an empty cell or a king that
    /// cannot be taken).
    fn piece_value(&self, cell: Cell, weights: &Weights) -> i32;

    /// The material a legal move wins at once: captured pieces (an illumination's several, a
    /// run-down's victims) and the gain of a promotion. Zero for a quiet move.
    fn capture_gain(&self, m: Move, weights: &Weights) -> i32 {
        match m {
            Move::Normal { to, .. } => {
                let mover = self.to_move();
                match self.piece_text(to) {
                    Some(piece) if piece.player != mover => self.piece_value(to, weights),
                    _ => 0,
                }
            }
            Move::Illuminate { from, rays } => {
                self.illumination_targets(from, rays).map(|cell| self.piece_value(cell, weights)).sum()
            }
            Move::Drop { .. } | Move::Pass => 0,
        }
    }

    /// A value no legal move's `capture_gain` exceeds here, where a game can tell it cheaply:
    /// quiescence stands pat at once when even that gain would leave the side to move below
    /// alpha. None by default (an illumination or a run-down takes several pieces at once).
    fn capture_gain_bound(&self, _weights: &Weights) -> Option<i32> {
        None
    }

    /// The legal moves that may have a positive `capture_gain`, in `legal_moves`' order: the
    /// quiescence search's candidates. By default every legal move; a game whose captures the
    /// generator can list alone lists only those.
    fn capture_candidates(&self, out: &mut MoveList) {
        self.legal_moves(out);
    }

    /// Whether `m` is a legal move here, where the game can tell without listing the legal
    /// moves: a node then searches its table's move (which a collision of keys may have
    /// brought from another position) before listing the others. None where it cannot (by
    /// default).
    fn is_legal_cheaply(&self, _m: Move) -> Option<bool> {
        None
    }

    /// Pushes the legal moves whose `capture_gain` is not positive into `out`, in
    /// `legal_moves`' order, where the game can list them alone: the moves a node searches
    /// once its captures are used up. False, with nothing pushed, where it cannot (by
    /// default); the search then lists every legal move and keeps those.
    fn gainless_moves(&self, _weights: &Weights, _out: &mut impl MoveSink) -> bool {
        false
    }

    /// The key of the position for the transposition table (the rules library's incremental
    /// Zobrist key).
    fn search_key(&self) -> u64 {
        self.repetition_key()
    }

    /// What `may_give_check` reads off the position once for all its moves (in Sannin, the
    /// players in check before the move, the cells where a drop checks and the pieces whose
    /// move could open a line onto a king), so that a search asks for it once a node.
    type CheckContext: Copy;

    /// The `CheckContext` of this position.
    fn check_context(&self) -> Self::CheckContext;

    /// False only when the legal move `m` certainly puts no seat in check and sets off nothing
    /// else a search must see (a Sannin alliance, a win in the Garden), told without making
    /// it: late move pruning then leaves the move out unmade. `context` is this position's
    /// `check_context`. True by default, where a game cannot tell cheaply; the search then
    /// makes the move and looks.
    fn may_give_check(&self, _context: &Self::CheckContext, _m: Move) -> bool {
        true
    }
}

/// A value for every piece kind (`Piece::kind`), so that an evaluation looks a piece's value up
/// rather than matching on its role: a jump the processor mostly mispredicts, once per piece.
pub fn kind_values(value: impl Fn(Piece) -> i32) -> [i32; 16] {
    let mut values = [0; 16];
    for role in Role::ALL {
        for promoted in [false, true] {
            let piece = Piece { player: Player::First, role, promoted };
            values[piece.kind()] = value(piece);
        }
    }
    values
}

/// One seat's hand, each piece at `hand_pct` percent of its value on the board (`values` by
/// `Piece::kind`). A king held in hand (Three Player Hex Shogi 91) counts nothing here.
pub fn hand_value(hand: &Hand, values: &[i32; 16], hand_pct: i32) -> i32 {
    // Only the roles held: most hands hold few, and the evaluation asks this of every seat.
    hand.roles()
        .filter(|&role| role != Role::King)
        .map(|role| {
            hand.count(role) as i32 * values[Piece { player: Player::First, role, promoted: false }.kind()] * hand_pct / 100
        })
        .sum()
}

/// Whether `a` and `b` play on one side: the same seat, or allies.
#[inline]
pub fn same_team(allies: PlayerSet, a: Player, b: Player) -> bool {
    a == b || (allies.contains(a) && allies.contains(b))
}

/// Values from raw strengths: zero-sum for two seats; for three, each seat against the average
/// of the others, allies sharing one value, a bonus for surviving an elimination, and
/// `ELIMINATED` for seats out of the game.
pub fn utilities(raw: Values, seats: &[Player], active: PlayerSet, allies: PlayerSet, common: &CommonWeights) -> Values {
    let mut values = [0; 3];
    if seats.len() == 2 {
        let (a, b) = (seats[0].index(), seats[1].index());
        values[a] = raw[a] - raw[b];
        values[b] = -values[a];
        return values;
    }
    for p in Player::ALL {
        if !active.contains(p) {
            values[p.index()] = ELIMINATED;
        }
    }
    let alive: ArrayVec<Player, 3> = active.iter().collect();
    match alive.len() {
        0 | 1 => {
            for p in alive {
                values[p.index()] = WIN_BOUND;
            }
        }
        2 => {
            let (a, b) = (alive[0].index(), alive[1].index());
            if allies.contains(alive[0]) && allies.contains(alive[1]) {
                // Cannot happen (an alliance needs a lone player), but keep them tied.
                values[a] = common.survivor_bonus;
                values[b] = common.survivor_bonus;
            } else {
                values[a] = raw[a] - raw[b] + common.survivor_bonus;
                values[b] = raw[b] - raw[a] + common.survivor_bonus;
            }
        }
        _ => {
            if allies.len() == 2 {
                let lone = Player::ALL.into_iter().find(|&p| !allies.contains(p)).expect("a lone seat");
                let team: i32 = allies.iter().map(|p| raw[p.index()]).sum::<i32>() / 2;
                let edge = team - raw[lone.index()];
                for p in allies.iter() {
                    values[p.index()] = edge;
                }
                values[lone.index()] = -edge;
            } else {
                for p in Player::ALL {
                    let others: i32 = p.others3().iter().map(|q| raw[q.index()]).sum();
                    values[p.index()] = raw[p.index()] - others / 2;
                }
            }
        }
    }
    values
}

/// The values of a finished game, `ply` plies from the root: the winner `WIN - ply`, those who
/// share a draw 0, everybody else `-(WIN - ply)` (so that a quicker win and a later loss
/// are preferred).
pub fn terminal_values(outcome: Outcome, seats: &[Player], ply: usize) -> Values {
    let win = WIN - ply as i32;
    let mut values = [0; 3];
    for &p in seats {
        values[p.index()] = match outcome {
            Outcome::Win { winner, .. } if winner == p => win,
            Outcome::Win { .. } => -win,
            Outcome::Draw { players, .. } if players.contains(p) => 0,
            Outcome::Draw { .. } => -win,
        };
    }
    values
}

#[cfg(test)]
mod tests {
    use polyshogi::variant::{AnyGame, Variant};
    use polyshogi::with_game;

    use super::*;
    use crate::test_games::{along_a_capturing_game, along_a_random_game};

    /// Whether the two sets of weights evaluate some position differently along a few
    /// capturing and random games from `start`.
    fn evaluations_differ<P: Evaluate + Clone>(start: &P, a: &Weights, b: &Weights) -> bool {
        let mut differ = false;
        for seed in 1..=8 {
            along_a_capturing_game(start.clone(), seed, 300, |pos| differ |= pos.evaluate(a) != pos.evaluate(b));
            along_a_random_game(start.clone(), seed, 300, |pos| differ |= pos.evaluate(a) != pos.evaluate(b));
        }
        differ
    }

    #[test]
    fn a_game_reads_every_weight_a_tuner_may_set_and_no_other() {
        for variant in Variant::ALL {
            let group = Weights::group_of(variant);
            let read: Vec<&str> = Weights::keys_of(variant).collect();
            let start = AnyGame::new(variant, &[] as &[&str]).unwrap();
            let base = Weights::default();
            for &key in Weights::keys(group) {
                let mut changed = base;
                changed.set(&format!("{group}.{key}={}", base.get(group, key).unwrap() * 2 + 50)).unwrap();
                let differ = with_game!(&start, game => evaluations_differ(game.position(), &base, &changed));
                assert_eq!(differ, read.contains(&key), "{}: {group}.{key}", variant.name());
            }
        }
    }

    #[test]
    fn two_seats_are_zero_sum_and_allies_share_a_value() {
        let common = CommonWeights::default();
        let two = utilities([300, 100, 0], &Player::ALL[..2], PlayerSet::of(&Player::ALL[..2]), PlayerSet::EMPTY, &common);
        assert_eq!(two, [200, -200, 0]);
        let allies = PlayerSet::of(&[Player::Second, Player::Third]);
        let three = utilities([500, 300, 100], &Player::ALL, PlayerSet::of(&Player::ALL), allies, &common);
        assert_eq!(three[1], three[2]);
        assert_eq!(three[0], -three[1]);
        let out =
            utilities([500, 300, 100], &Player::ALL, PlayerSet::of(&[Player::First, Player::Third]), PlayerSet::EMPTY, &common);
        assert_eq!(out[1], ELIMINATED);
        assert!(out[0] > out[2]);
    }
}
