//! Perft: the number of move sequences of a given length, the first correctness test of a
//! move generator. Leaves are bulk-counted: the last ply counts legal moves without playing.
//! A decision that is not a move (a proposed Sannin alliance) is taken as accepted.

use crate::game::Game;
use crate::mv::{Move, MoveList};
use crate::rules::Rules;

/// Perft from the game's current position.
pub fn perft<P: Rules>(game: &mut Game<P>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return game.legal_move_count() as u64;
    }
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    let mut total = 0;
    for &m in &moves {
        let before = game.position().clone();
        play_accepting(game, m);
        total += perft(game, depth - 1);
        game.take_back(before);
    }
    total
}

/// Perft split by first move: each legal move with the count below it.
pub fn divide<P: Rules>(game: &mut Game<P>, depth: u32) -> Vec<(Move, u64)> {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&m| {
            let before = game.position().clone();
            play_accepting(game, m);
            let count = perft(game, depth.saturating_sub(1));
            game.take_back(before);
            (m, count)
        })
        .collect()
}

fn play_accepting<P: Rules>(game: &mut Game<P>, m: Move) {
    game.play_unchecked(m);
    if game.position().decision_pending() {
        game.answer_pending(true).expect("a decision is pending");
    }
}
