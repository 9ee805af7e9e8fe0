//! Perft: the number of move sequences of a given length, the first correctness test of a
//! move generator. Leaves are bulk-counted: the last ply counts legal moves without playing.

use crate::mv::{Move, MoveList};
use crate::variant::sannin::SanninGame;

/// Perft from the game's current position.
pub fn perft(game: &mut SanninGame, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &m in &moves {
        let before = game.position().clone();
        game.play_unchecked(m);
        total += perft(game, depth - 1);
        game.take_back(before);
    }
    total
}

/// Perft split by first move: each legal move with the count below it.
pub fn divide(game: &mut SanninGame, depth: u32) -> Vec<(Move, u64)> {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&m| {
            let before = game.position().clone();
            game.play_unchecked(m);
            let count = perft(game, depth.saturating_sub(1));
            game.take_back(before);
            (m, count)
        })
        .collect()
}
