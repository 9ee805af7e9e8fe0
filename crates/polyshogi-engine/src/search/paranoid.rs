//! Paranoid search for three players: the root seat assumes the two others play together
//! against it (its ally, if it has one, plays with it), which turns the game into one of two
//! sides that the alpha-beta core (`alphabeta.rs`) searches with every move of every seat.
//! With two seats left it is plain alpha-beta.

use polyshogi::Game;

use super::alphabeta::{AlphaBeta, Mode, Outcome};
use super::{Ctx, Info};
use crate::eval::Evaluate;

pub fn search<P: Evaluate>(ctx: &mut Ctx<'_>, game: &Game<P>, max_depth: u32, on_info: &mut dyn FnMut(&Info)) -> Outcome {
    AlphaBeta::new(ctx, game.position(), Mode::Paranoid).search(game, max_depth, on_info)
}
