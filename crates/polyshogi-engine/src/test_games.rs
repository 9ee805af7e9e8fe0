//! Games the unit tests play through: random, but capturing whenever they can, so that pieces
//! promote, get taken and are dropped, and most positions have captures to look at.

use polyshogi::mv::MoveList;
use polyshogi::splitmix::SplitMix;
use polyshogi::Rules;

/// Plays up to `plies` plies from `pos`, a random capture when there is one and else a random
/// move (a proposed alliance accepted), and calls `check` on every position before its move.
pub fn along_a_capturing_game<P: Rules>(pos: P, seed: u64, plies: usize, check: impl FnMut(&P)) {
    along_a_game(pos, seed, plies, true, check);
}

/// As `along_a_capturing_game`, but any legal move is as likely as any other: Sankaku's
/// capturing games end in a few plies, as an Emperor takes the other.
pub fn along_a_random_game<P: Rules>(pos: P, seed: u64, plies: usize, check: impl FnMut(&P)) {
    along_a_game(pos, seed, plies, false, check);
}

fn along_a_game<P: Rules>(mut pos: P, seed: u64, plies: usize, captures_first: bool, mut check: impl FnMut(&P)) {
    let mut rng = SplitMix::new(seed);
    let mut moves = MoveList::new();
    for _ in 0..plies {
        check(&pos);
        pos.legal_moves(&mut moves);
        if moves.is_empty() || pos.outcome().is_some() {
            break;
        }
        let captures: Vec<_> = moves.iter().copied().filter(|&m| captures_first && pos.is_capture(m)).collect();
        let m = if captures.is_empty() { moves[rng.below(moves.len())] } else { captures[rng.below(captures.len())] };
        pos.play_unchecked(m);
        if pos.decision_pending() {
            let _ = pos.answer_pending(true);
        }
    }
}
