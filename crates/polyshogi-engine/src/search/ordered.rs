//! The moves of a node handed out best first, sorted only as far as the search gets.

use polyshogi::mv::Move;

/// How many moves are picked out one at a time before the rest is sorted. Most nodes end after
/// their first move or two (a cut-off, a BRS opponent's one move), so sorting a hundred moves
/// there is wasted.
const PICKED_ONE_BY_ONE: usize = 3;

/// How many moves after those are selected and sorted before the rest is sorted in one go. Near
/// the leaves the search leaves out the late quiet moves from the fifth to the thirteenth on
/// (`late_move_base` 3), and the moves it drops (`retain_rest`) need no sorting; a node that
/// goes on pays one selection more.
const SORTED_IN_A_BATCH: usize = 16;

/// A node's moves with their ordering scores. Each move's sort key holds its score in the high
/// half and its place in the generator's order in the low half, so no two keys are equal: the
/// order handed out is the same whether the moves are picked one by one or sorted, and equal
/// scores keep the generator's order, as at the root.
///
/// Moves may also come in unscored, after the scored ones (in the search, the table's move is
/// the one scored move then): they get their scores only when the search asks for more than
/// the scored moves (`score_waiting`), which most nodes with a table move never do.
///
/// Or some moves may be left out at first (`Ctx::staged_moves` lists a node's captures alone,
/// or its table's move alone): `wanted` says which are still to come once every move in has
/// been handed out.
#[derive(Default)]
pub struct OrderedMoves {
    moves: Vec<(u64, Move)>,
    /// How many moves have been handed out.
    given: usize,
    /// `moves[..placed]` are in their final order.
    placed: usize,
    /// Where the unscored moves start, if any came in.
    unscored_from: Option<usize>,
    /// The moves that have not come in yet.
    to_come: ToCome,
}

/// The moves of a node left out of its `OrderedMoves` at first.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum ToCome {
    #[default]
    Nothing,
    /// The moves that win nothing (the captures are in).
    Gainless,
    /// Every legal move but this one (the table's move, which is in).
    AllBut(Move),
}

impl OrderedMoves {
    pub fn clear(&mut self) {
        self.moves.clear();
        self.given = 0;
        self.placed = 0;
        self.unscored_from = None;
        self.to_come = ToCome::Nothing;
    }

    /// Notes which moves are left out for now, to come when those in are used up.
    pub fn expect(&mut self, to_come: ToCome) {
        self.to_come = to_come;
    }

    /// The moves still to come once every move in has been handed out, else `Nothing`;
    /// asking counts as their coming (the caller pushes them next).
    pub fn wanted(&mut self) -> ToCome {
        if self.given < self.moves.len() {
            return ToCome::Nothing;
        }
        std::mem::take(&mut self.to_come)
    }

    /// Adds a move with its ordering score (larger first).
    pub fn push(&mut self, order: i32, m: Move) {
        debug_assert!(self.unscored_from.is_none(), "scored moves come before the unscored ones");
        self.moves.push((Self::key(order, self.moves.len()), m));
    }

    /// Adds a move whose score waits until the moves pushed before it are handed out.
    pub fn push_unscored(&mut self, m: Move) {
        self.unscored_from.get_or_insert(self.moves.len());
        self.moves.push((Self::key(i32::MIN, self.moves.len()), m));
    }

    /// Whether the next move to hand out is among the unscored ones.
    pub fn waiting_for_scores(&self) -> bool {
        self.unscored_from.is_some_and(|from| self.given >= from)
    }

    /// Gives the unscored moves their scores.
    pub fn score_waiting(&mut self, score: impl Fn(Move) -> i32) {
        let Some(from) = self.unscored_from.take() else { return };
        for (i, (key, m)) in self.moves.iter_mut().enumerate().skip(from) {
            *key = Self::key(score(*m), i);
        }
        // The moves not handed out yet are placed again, by their new keys.
        self.placed = self.given;
    }

    /// The sort key of a move with score `order` that came in `index`-th: the score, made
    /// unsigned in the same order, above the complement of the index (earlier moves first).
    fn key(order: i32, index: usize) -> u64 {
        let score = (order as u32 ^ 1 << 31) as u64;
        let later = u32::MAX - index as u32;
        score << 32 | later as u64
    }

    /// The score a sort key holds.
    fn score(key: u64) -> i32 {
        ((key >> 32) as u32 ^ 1 << 31) as i32
    }

    /// Drops the moves not handed out yet that `keep` refuses; the others keep their order.
    /// Every move is in and scored.
    pub fn retain_rest(&mut self, mut keep: impl FnMut(Move) -> bool) {
        debug_assert!(self.unscored_from.is_none() && self.to_come == ToCome::Nothing, "every move is in and scored");
        let mut kept = self.given;
        let mut kept_placed = self.given;
        for i in self.given..self.moves.len() {
            if keep(self.moves[i].1) {
                self.moves[kept] = self.moves[i];
                kept += 1;
                if i < self.placed {
                    kept_placed = kept;
                }
            }
        }
        self.moves.truncate(kept);
        self.placed = kept_placed;
    }

    /// The best move not handed out yet, with its score, left to be handed out.
    pub fn peek(&mut self) -> Option<(i32, Move)> {
        debug_assert!(!self.waiting_for_scores(), "the unscored moves are scored before they are handed out");
        if !self.place_next() {
            return None;
        }
        let (key, m) = self.moves[self.given];
        Some((Self::score(key), m))
    }

    /// Puts the next move to hand out in its place; false when none is left.
    fn place_next(&mut self) -> bool {
        if self.given < self.placed {
            return true;
        }
        let rest = &mut self.moves[self.placed..];
        if rest.is_empty() {
            return false;
        }
        let by_key = |&(key, _): &(u64, Move)| std::cmp::Reverse(key);
        if self.placed < PICKED_ONE_BY_ONE {
            let best = (0..rest.len()).max_by_key(|&i| rest[i].0).expect("not empty");
            rest.swap(0, best);
            self.placed += 1;
        } else if self.placed < PICKED_ONE_BY_ONE + SORTED_IN_A_BATCH && rest.len() > SORTED_IN_A_BATCH {
            rest.select_nth_unstable_by_key(SORTED_IN_A_BATCH, by_key);
            rest[..SORTED_IN_A_BATCH].sort_unstable_by_key(by_key);
            self.placed += SORTED_IN_A_BATCH;
        } else {
            rest.sort_unstable_by_key(by_key);
            self.placed = self.moves.len();
        }
        true
    }
}

impl Iterator for OrderedMoves {
    type Item = (i32, Move);

    /// The best move not handed out yet, with its ordering score.
    fn next(&mut self) -> Option<(i32, Move)> {
        let next = self.peek()?;
        self.given += 1;
        Some(next)
    }
}

#[cfg(test)]
mod tests {
    use polyshogi::geometry::Cell;
    use proptest::prelude::*;

    use super::*;

    fn a_move(i: usize) -> Move {
        Move::Normal { from: Cell::new(0).unwrap(), to: Cell::new(i as u8).unwrap(), promote: false }
    }

    proptest! {
        /// Whatever the scores, the moves come out as a stable sort by score, best first,
        /// would put them, each once; peeking changes nothing.
        #[test]
        fn moves_come_out_as_a_stable_sort_puts_them(
            scores in proptest::collection::vec(-3i32..3, 0..40),
            peeks in proptest::collection::vec(any::<bool>(), 40),
        ) {
            let mut ordered = OrderedMoves::default();
            for (i, &score) in scores.iter().enumerate() {
                ordered.push(score * 100_000, a_move(i));
            }
            let mut expected: Vec<(i32, Move)> = scores.iter().enumerate().map(|(i, &s)| (s * 100_000, a_move(i))).collect();
            expected.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
            let mut got = Vec::new();
            for &peek in &peeks {
                if peek {
                    prop_assert_eq!(ordered.peek(), expected.get(got.len()).copied());
                }
                match ordered.next() {
                    Some(next) => got.push(next),
                    None => break,
                }
            }
            prop_assert_eq!(got, expected);
        }

        /// Dropping some of the moves not handed out yet, at any point, leaves the others to
        /// come out in the order they had.
        #[test]
        fn moves_left_after_a_sift_keep_their_order(
            scores in proptest::collection::vec(-3i32..3, 0..60),
            sift_after in 0usize..60,
            dropped in proptest::collection::vec(any::<bool>(), 60),
        ) {
            let mut ordered = OrderedMoves::default();
            for (i, &score) in scores.iter().enumerate() {
                ordered.push(score, a_move(i));
            }
            let mut sorted: Vec<(usize, i32)> = scores.iter().copied().enumerate().collect();
            sorted.sort_by_key(|&(_, score)| std::cmp::Reverse(score));
            let sift_after = sift_after.min(scores.len());
            let expected: Vec<(i32, Move)> = sorted
                .iter()
                .enumerate()
                .filter(|&(rank, &(i, _))| rank < sift_after || !dropped[i])
                .map(|(_, &(i, score))| (score, a_move(i)))
                .collect();
            let mut got: Vec<(i32, Move)> = ordered.by_ref().take(sift_after).collect();
            ordered.retain_rest(|m| match m {
                Move::Normal { to, .. } => !dropped[to.usize()],
                _ => unreachable!(),
            });
            got.extend(ordered);
            prop_assert_eq!(got, expected);
        }

        /// Moves that come in unscored wait until the scored ones are handed out, and then come
        /// out as a stable sort by the scores they get puts them.
        #[test]
        fn unscored_moves_come_after_the_scored_ones_sorted_by_their_late_scores(
            scored in proptest::collection::vec(-3i32..3, 0..6),
            late in proptest::collection::vec(-3i32..3, 0..40),
        ) {
            let mut ordered = OrderedMoves::default();
            for (i, &score) in scored.iter().enumerate() {
                ordered.push(score, a_move(i));
            }
            for i in 0..late.len() {
                ordered.push_unscored(a_move(scored.len() + i));
            }
            let sorted = |scores: &[i32], first: usize| {
                let mut moves: Vec<(i32, Move)> = scores.iter().enumerate().map(|(i, &s)| (s, a_move(first + i))).collect();
                moves.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
                moves
            };
            let mut expected = sorted(&scored, 0);
            expected.extend(sorted(&late, scored.len()));
            let mut got = Vec::new();
            loop {
                if ordered.waiting_for_scores() {
                    prop_assert_eq!(got.len(), scored.len());
                    let to_index = |m: Move| match m {
                        Move::Normal { to, .. } => to.usize(),
                        _ => unreachable!(),
                    };
                    ordered.score_waiting(|m| late[to_index(m) - scored.len()]);
                }
                match ordered.next() {
                    Some(next) => got.push(next),
                    None => break,
                }
            }
            prop_assert_eq!(got, expected);
        }
    }
}
