//! Best-Reply Search for three players (Schadd and Winands 2011), in its BRS+ form (Esser et
//! al. 2013): between two moves of the root's side, only one opponent's move is searched —
//! the best reply among all opponents — while the other opponents play the move that move
//! ordering ranks first (the table's move, else the best capture, killer or history move),
//! instead of passing. Every line is therefore a sequence of real, legal moves in the real
//! turn order, so the rules' turn machinery holds: a mating player moves again, eliminated
//! seats are skipped, and an alliance puts the root's ally on the root's side.
//!
//! Depth counts only searched moves, so BRS reaches the depth of a two-player search with
//! one opponent. The phase logic lives in the alpha-beta core (`alphabeta.rs`, `Mode::Brs`).

use polyshogi::Game;

use super::alphabeta::{AlphaBeta, Mode, Outcome};
use super::{Ctx, Info};
use crate::eval::Evaluate;

pub fn search<P: Evaluate>(ctx: &mut Ctx<'_>, game: &Game<P>, max_depth: u32, on_info: &mut dyn FnMut(&Info)) -> Outcome {
    AlphaBeta::new(ctx, game.position(), Mode::Brs).search(game, max_depth, on_info)
}
