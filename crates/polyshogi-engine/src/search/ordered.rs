//! The moves of a node handed out best first, sorted only as far as the search gets.

use polyshogi::mv::Move;

/// How many moves are picked out one at a time before the rest is sorted in one go. Most nodes
/// end after their first move or two (a cut-off, a BRS opponent's one move), so sorting a
/// hundred moves there is wasted; a node that goes on pays one sort of what is left.
const PICKED_ONE_BY_ONE: usize = 3;

/// A node's moves with their ordering scores. Each move's sort key holds its score in the high
/// half and its place in the generator's order in the low half, so no two keys are equal: the
/// order handed out is the same whether the moves are picked one by one or sorted, and equal
/// scores keep the generator's order, as at the root.
#[derive(Default)]
pub struct OrderedMoves {
    moves: Vec<(u64, Move)>,
    /// How many moves have been handed out.
    given: usize,
    /// `moves[..placed]` are in their final order.
    placed: usize,
}

impl OrderedMoves {
    pub fn clear(&mut self) {
        self.moves.clear();
        self.given = 0;
        self.placed = 0;
    }

    /// Adds a move with its ordering score (larger first).
    pub fn push(&mut self, order: i32, m: Move) {
        let score = (order as u32 ^ 1 << 31) as u64;
        let later = u32::MAX - self.moves.len() as u32;
        self.moves.push((score << 32 | later as u64, m));
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The best move not handed out yet, with its score, left to be handed out.
    pub fn peek(&mut self) -> Option<(i32, Move)> {
        if !self.place_next() {
            return None;
        }
        let (key, m) = self.moves[self.given];
        Some((((key >> 32) as u32 ^ 1 << 31) as i32, m))
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
        if self.placed < PICKED_ONE_BY_ONE {
            let best = (0..rest.len()).max_by_key(|&i| rest[i].0).expect("not empty");
            rest.swap(0, best);
            self.placed += 1;
        } else {
            rest.sort_unstable_by_key(|&(key, _)| std::cmp::Reverse(key));
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
    }
}
