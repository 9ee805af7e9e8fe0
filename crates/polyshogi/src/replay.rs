//! Replaying a record: every move checked against the rules, stopping at the first bad one
//! and keeping all the moves before it.

use std::fmt;

use crate::game::Game;
use crate::mv::Move;
use crate::notation::move_text::MoveTextError;
use crate::notation::play_text::{play_token, Played};
use crate::notation::record::{read_record, RecordError, RecordText};
use crate::outcome::Events;
use crate::player::Player;
use crate::rules::Rules;
use crate::variant::{AnyGame, NewGameError, UnknownVariant, Variant};
use crate::with_game;

/// A record that cannot be replayed at all.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ReplayError {
    Record(RecordError),
    MissingVariant,
    Variant(UnknownVariant),
    Rules(NewGameError),
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Record(e) => write!(f, "{e}"),
            ReplayError::MissingVariant => write!(f, "the record has no [Variant \"…\"] tag"),
            ReplayError::Variant(e) => write!(f, "[Variant]: {e}"),
            ReplayError::Rules(e) => write!(f, "[Rules]: {e}"),
        }
    }
}

impl std::error::Error for ReplayError {}

/// A move of the record that could not be played.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BadMove {
    /// 1-based index of the move in the record.
    pub number: usize,
    pub player: Player,
    pub text: String,
    pub line: usize,
    pub column: usize,
    pub error: MoveTextError,
}

/// One move of the record as played.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PlayedMove {
    pub player: Player,
    pub mv: Move,
    pub canonical: String,
    pub events: Events,
}

/// The result of replaying a record: the game after every good move, and the first bad one.
#[derive(Clone, Debug)]
pub struct Replay {
    pub record: RecordText,
    pub game: AnyGame,
    pub played: Vec<PlayedMove>,
    pub bad_move: Option<BadMove>,
}

/// The rule options of a record's `[Rules "key=value;…"]` tag.
pub fn record_rule_options(record: &RecordText) -> Vec<String> {
    record
        .tag("Rules")
        .map(|text| text.split(';').map(str::trim).filter(|o| !o.is_empty()).map(String::from).collect())
        .unwrap_or_default()
}

pub fn replay(text: &str) -> Result<Replay, ReplayError> {
    let record = read_record(text).map_err(ReplayError::Record)?;
    let variant: Variant = record.tag("Variant").ok_or(ReplayError::MissingVariant)?.parse().map_err(ReplayError::Variant)?;
    let options = record_rule_options(&record);
    let mut game = match record.tag("Position") {
        Some(position) => AnyGame::from_position_text(position, &options).map_err(ReplayError::Rules)?,
        None => AnyGame::new(variant, &options).map_err(ReplayError::Rules)?,
    };
    if game.variant() != variant {
        return Err(ReplayError::Rules(NewGameError::Variant(UnknownVariant(format!(
            "[Position] is a {} position but [Variant] says {}",
            game.variant().name(),
            variant.name()
        )))));
    }
    let (played, bad_move) = with_game!(&mut game, g => play_record_moves(g, &record));
    Ok(Replay { record, game, played, bad_move })
}

/// Plays the record's moves until the first that cannot be played.
fn play_record_moves<P: Rules>(game: &mut Game<P>, record: &RecordText) -> (Vec<PlayedMove>, Option<BadMove>) {
    let mut played: Vec<PlayedMove> = Vec::new();
    for (index, token) in record.moves.iter().enumerate() {
        let player = game.position().to_move();
        match play_token(game, &token.text) {
            Ok(Played::Move { player, mv, canonical, events }) => played.push(PlayedMove { player, mv, canonical, events }),
            // Answers and departures are no moves: their events go with the move before them.
            Ok(Played::Interjection { events }) => {
                if let Some(last) = played.last_mut() {
                    last.events.extend(events);
                }
            }
            Err(error) => {
                let bad = BadMove {
                    number: index + 1,
                    player,
                    text: token.text.clone(),
                    line: token.line,
                    column: token.column,
                    error,
                };
                return (played, Some(bad));
            }
        }
    }
    (played, None)
}
