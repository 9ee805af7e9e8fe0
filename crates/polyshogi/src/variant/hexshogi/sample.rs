//! Random legal actions for playouts, drawn by rejection instead of generating every action.
//! The actions of the player to move are laid out in slots: the drops (counted exactly), the
//! king's steps (two players), and for every other piece as many slots as it has moves from its
//! cell on an empty board; the position keeps those counts summed by quarter of the board, so
//! laying the slots out costs nothing per piece. A draw picks a slot and keeps it when it holds
//! a legal action, which costs one piece's moves instead of all of them. Every legal action
//! owns exactly one slot, so each is equally likely; in check, and after too many empty slots,
//! the exact sampler of `movegen` chooses instead, also uniformly.

use super::movegen::ALL;
use super::position::HexShogiPosition;
use crate::cellset::CellSet;
use crate::geometry::Cell;
use crate::mv::{Move, MoveAt, MoveCount, MoveSampler};
use crate::splitmix::SplitMix;

/// Draws before the exact sampler takes over. Most positions of a random game keep a draw in
/// one to four; the cap bounds a position whose pieces are hemmed in.
const MAX_DRAWS: usize = 32;

impl HexShogiPosition {
    /// One of the actions `legal_moves` would list, chosen uniformly at random without listing
    /// them; `None` once the game is over.
    pub fn random_legal_move(&self, rng: &mut SplitMix) -> Option<Move> {
        if self.outcome.is_some() {
            return None;
        }
        self.draw_by_rejection(rng).or_else(|| {
            let mut sampler = MoveSampler::new(rng);
            self.generate::<ALL>(&mut sampler);
            sampler.chosen()
        })
    }

    /// A legal action drawn by rejection, or `None` where the exact sampler must choose: in
    /// check, for a player who only passes, and when `MAX_DRAWS` draws all miss.
    fn draw_by_rejection(&self, rng: &mut SplitMix) -> Option<Move> {
        let mover = self.to_move;
        let own = self.store.pieces_of(mover);
        // Three players have no check: every move of every piece, kings included, is legal.
        let (king, pinned) = if self.is_three_player() {
            if self.timed_out.contains(mover) {
                return None;
            }
            (None, CellSet::EMPTY)
        } else {
            let king = self.king_of(mover)?;
            let safety = self.king_safety(king);
            if !safety.checkers.is_empty() {
                return None;
            }
            (Some(king), safety.pinned)
        };
        let empty = self.tables.grid.all() - self.store.occupied();
        let mut drops = MoveCount::default();
        self.push_drops(mover, empty, &mut drops);
        let king_steps = king.map_or(CellSet::EMPTY, |k| self.tables.step_targets[self.store.code(k) as usize][k.usize()] - own);
        let pieces_start = (drops.0 + king_steps.count() as usize) as u32;
        // The slots of the pieces, quarter by quarter of the cell indexes; a two-player king's
        // moves are its steps above, so its own slots come off.
        let mut quarters = self.move_bound_sums[mover].map(u32::from);
        if let Some(king) = king {
            quarters[king.usize() / 32] -= u32::from(self.move_bound_at(king));
        }
        let pieces = own - king.map_or(CellSet::EMPTY, CellSet::from_cell);
        let end = pieces_start + quarters.iter().sum::<u32>();
        if end == 0 {
            return None;
        }
        for _ in 0..MAX_DRAWS {
            let slot = rng.below_by_product(end as usize);
            if slot < drops.0 {
                // A drop never exposes the king, and out of check every drop is legal.
                let mut at = MoveAt::new(slot);
                self.push_drops(mover, empty, &mut at);
                return at.chosen();
            }
            if let Some(king) = king.filter(|_| slot < pieces_start as usize) {
                let to = king_steps.into_iter().nth(slot - drops.0).expect("the slot is one of the king's steps");
                let enemy = self.opponent(mover);
                let enemies = self.store.pieces_of(enemy).without(to);
                if !self.attacked_by(to, enemy, enemies, self.store.occupied().without(king)) {
                    return Some(Move::Normal { from: king, to, promote: false });
                }
                continue;
            }
            let (from, rank) = self.piece_slot(pieces, quarters, slot - pieces_start as usize);
            let code = self.store.code(from) as usize;
            let mut targets = self.reach(code, from) - own;
            if let Some(king) = king.filter(|_| pinned.contains(from)) {
                targets &= self.tables.grid.pin_line(king, from, self.store.occupied());
            }
            let mut at = MoveAt::new(rank);
            self.push_board_moves(from, code, targets, &mut at);
            if let Some(m) = at.chosen() {
                return Some(m);
            }
        }
        None
    }

    /// The piece of `pieces` that owns slot `slot` of theirs, and the slot's rank among the
    /// piece's own: the quarter first, from its sum, then the pieces in it in cell order.
    fn piece_slot(&self, pieces: CellSet, quarters: [u32; 4], mut slot: usize) -> (Cell, usize) {
        let mut quarter = 0;
        while slot >= quarters[quarter] as usize {
            slot -= quarters[quarter] as usize;
            quarter += 1;
        }
        let in_quarter = CellSet(pieces.0 & (u128::from(u32::MAX) << (32 * quarter)));
        for from in in_quarter {
            let bound = usize::from(self.move_bound_at(from));
            if slot < bound {
                return (from, slot);
            }
            slot -= bound;
        }
        unreachable!("a quarter's sum counts the slots of its pieces")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mv::MoveList;
    use crate::player::Player;
    use crate::variant::hexshogi::HexShogiRules;
    use crate::Rules;

    /// The sums of the pieces' slots, kept up to date by the moves, equal those added up afresh
    /// in every position of random games of both hex games.
    #[test]
    fn kept_slot_sums_match_the_pieces() {
        let mut rng = SplitMix::new(5);
        for rules in [HexShogiRules::hexshogi91(), HexShogiRules::tphs91()] {
            for _ in 0..20 {
                let mut pos = HexShogiPosition::start(rules);
                loop {
                    for player in Player::ALL {
                        let mut sums = [0u16; 4];
                        for cell in pos.store.pieces_of(player) {
                            sums[cell.usize() / 32] += pos.move_bound_at(cell);
                        }
                        assert_eq!(pos.move_bound_sums[player], sums, "{player:?} after {} plies", pos.plies);
                    }
                    let Some(m) = pos.random_legal_move(&mut rng) else { break };
                    pos.play_unchecked(m);
                }
            }
        }
    }

    /// Draws per legal move in a frequency test.
    const DRAWS_PER_MOVE: usize = 40;

    /// Positions of random Hex Shogi 91 games where the sampler must refuse some of its slots:
    /// a pinned piece, whose moves off the pin line are illegal, or a king step onto an attacked
    /// cell. There too it draws only legal moves, and each about equally often.
    #[test]
    fn refused_slots_leave_every_legal_move_equally_likely() {
        let mut rng = SplitMix::new(11);
        let mut moves = MoveList::new();
        let (mut with_pin, mut with_attacked_step) = (0, 0);
        while with_pin < 4 || with_attacked_step < 4 {
            let mut pos = HexShogiPosition::start(HexShogiRules::hexshogi91());
            while pos.outcome().is_none() {
                let mover = pos.to_move();
                let king = pos.king_of(mover).expect("a two-player game goes on while both kings stand");
                let own = pos.store.pieces_of(mover);
                let safety = pos.king_safety(king);
                let enemy = pos.opponent(mover);
                let steps = pos.tables.step_targets[pos.store.code(king) as usize][king.usize()] - own;
                let attacked_step = steps.into_iter().any(|to| {
                    pos.attacked_by(to, enemy, pos.store.pieces_of(enemy).without(to), pos.store.occupied().without(king))
                });
                let pinned = !safety.pinned.is_empty();
                if safety.checkers.is_empty() && ((pinned && with_pin < 4) || (attacked_step && with_attacked_step < 4)) {
                    with_pin += usize::from(pinned);
                    with_attacked_step += usize::from(attacked_step);
                    pos.legal_moves(&mut moves);
                    let mut counts = vec![0usize; moves.len()];
                    for _ in 0..DRAWS_PER_MOVE * moves.len() {
                        let m = pos.random_legal_move(&mut rng).expect("the game goes on");
                        let index = moves.iter().position(|&listed| listed == m);
                        counts[index.unwrap_or_else(|| panic!("drew {m:?}, which is not legal"))] += 1;
                    }
                    // Pearson's statistic has mean df and deviation sqrt(2 df): six deviations
                    // above is far beyond chance, and far below what a refused slot kept gives.
                    let expected = DRAWS_PER_MOVE as f64;
                    let statistic: f64 = counts.iter().map(|&c| (c as f64 - expected).powi(2) / expected).sum();
                    let df = (moves.len() - 1) as f64;
                    assert!(
                        statistic < df + 6.0 * (2.0 * df).sqrt() + 10.0,
                        "statistic {statistic:.0} for {df} degrees of freedom"
                    );
                }
                let m = pos.random_legal_move(&mut rng).expect("the game goes on");
                pos.play_unchecked(m);
            }
        }
    }
}
