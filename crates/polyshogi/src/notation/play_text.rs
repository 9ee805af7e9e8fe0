//! Text played on a game, one token at a time: a move in canonical or short text, an answer to a
//! proposed alliance (`accept`, `refuse`) or a departure (`resign:First`, …). The one interpreter
//! of move lists, behind records, the engine protocol, the command line and the benchmarks.

use super::departure;
use super::move_text::{self, MoveTextError};
use crate::game::Game;
use crate::mv::{Move, MoveList};
use crate::outcome::Events;
use crate::player::Player;
use crate::rules::{RepetitionRule, Rules};

/// What one token did.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Played {
    /// A move by `player`, with its canonical text and what it set off.
    Move { player: Player, mv: Move, canonical: String, events: Events },
    /// An answer to a proposal or a departure: no move; its events follow the move before it.
    Interjection { events: Events },
}

/// Plays one token on `game`. A refused token leaves the game as it was.
pub fn play_token<P: Rules>(game: &mut Game<P>, text: &str) -> Result<Played, MoveTextError> {
    let not_legal = |reason: String| MoveTextError::NotLegal { text: text.to_string(), reason };
    if let Some(departure) = departure::parse(game.position(), text) {
        let events = departure.map_err(not_legal).and_then(|d| game.depart(d).map_err(|e| not_legal(e.to_string())))?;
        return Ok(Played::Interjection { events });
    }
    if let answer @ ("accept" | "refuse") = text {
        let events = game.answer_pending(answer == "accept").map_err(|e| not_legal(e.to_string()))?;
        return Ok(Played::Interjection { events });
    }
    let position = game.position();
    if position.outcome().is_some() {
        return Err(not_legal("the game is already over".into()));
    }
    if position.decision_pending() {
        return Err(not_legal("an alliance was proposed: `accept` or `refuse` must come first".into()));
    }
    let mut legal = MoveList::new();
    game.legal_moves(&mut legal);
    let mv = parse_in_game(game, &legal, text)?;
    let position = game.position();
    let player = position.to_move();
    let canonical = move_text::canonical(position, mv);
    let events = game.play_unchecked(mv);
    Ok(Played::Move { player, mv, canonical, events })
}

/// Reads move text against the game's legal moves (`legal`, from `Game::legal_moves`). A move
/// refused only by the repetition rule says so, instead of a reason about the board that would
/// not be true.
pub fn parse_in_game<P: Rules>(game: &Game<P>, legal: &[Move], text: &str) -> Result<Move, MoveTextError> {
    let refusal = match move_text::parse(game.position(), legal, text) {
        Err(refusal @ MoveTextError::NotLegal { .. }) => refusal,
        parsed => return parsed,
    };
    let reason = match game.position().repetition_rule() {
        RepetitionRule::Superko => "it repeats an earlier position (no position may come back)",
        RepetitionRule::InitiatorMustVary => "it repeats an earlier position (the player who began the repetition must vary)",
        RepetitionRule::ThreefoldDraw | RepetitionRule::Off => return Err(refusal),
    };
    let mut unrestricted = MoveList::new();
    game.position().legal_moves(&mut unrestricted);
    match move_text::parse(game.position(), &unrestricted, text) {
        Ok(_) => Err(MoveTextError::NotLegal { text: text.to_string(), reason: reason.to_string() }),
        Err(_) => Err(refusal),
    }
}

/// Plays every token in order, stopping at the first refused one: its index (from 0) and why.
pub fn play_tokens<'a, P: Rules>(
    game: &mut Game<P>,
    tokens: impl IntoIterator<Item = &'a str>,
) -> Result<(), (usize, MoveTextError)> {
    for (index, text) in tokens.into_iter().enumerate() {
        play_token(game, text).map_err(|e| (index, e))?;
    }
    Ok(())
}
