//! Replaying a record: every move checked against the rules, stopping at the first bad one
//! and keeping all the moves before it.

use std::fmt;

use super::move_text::{self, MoveTextError};
use super::record::{read_record, RecordError, RecordText};
use crate::mv::{Move, MoveList};
use crate::outcome::Events;
use crate::player::Player;
use crate::variant::options::RuleOptionError;
use crate::variant::sannin::{SanninGame, SanninPosition, SanninRules};
use crate::variant::{UnknownVariant, Variant};

/// A record that cannot be replayed at all.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ReplayError {
    Record(RecordError),
    MissingVariant,
    Variant(UnknownVariant),
    Rules(RuleOptionError),
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
    pub game: SanninGame,
    pub played: Vec<PlayedMove>,
    pub bad_move: Option<BadMove>,
}

/// The rule options a record's `[Rules "key=value;…"]` tag names.
pub fn record_rules(record: &RecordText) -> Result<SanninRules, ReplayError> {
    let mut rules = SanninRules::default();
    if let Some(text) = record.tag("Rules") {
        for option in text.split(';').map(str::trim).filter(|o| !o.is_empty()) {
            rules.set(option).map_err(ReplayError::Rules)?;
        }
    }
    Ok(rules)
}

pub fn replay(text: &str) -> Result<Replay, ReplayError> {
    let record = read_record(text).map_err(ReplayError::Record)?;
    let variant: Variant = record
        .tag("Variant")
        .ok_or(ReplayError::MissingVariant)?
        .parse()
        .map_err(ReplayError::Variant)?;
    match variant {
        Variant::Sannin => {}
    }
    let rules = record_rules(&record)?;
    let mut game = SanninGame::new(SanninPosition::start(rules));
    let mut played = Vec::new();
    let mut bad_move = None;
    let mut legal = MoveList::new();
    for (index, token) in record.moves.iter().enumerate() {
        let position = game.position().clone();
        let player = position.to_move();
        game.legal_moves(&mut legal);
        let parsed = if position.outcome().is_some() {
            Err(MoveTextError::NotLegal { text: token.text.clone(), reason: "the game is already over".into() })
        } else {
            move_text::parse(&position, &legal, &token.text)
        };
        match parsed {
            Ok(m) => {
                let canonical = move_text::canonical(&position, m);
                let events = game.play_unchecked(m);
                played.push(PlayedMove { player, mv: m, canonical, events });
            }
            Err(error) => {
                bad_move = Some(BadMove {
                    number: index + 1,
                    player,
                    text: token.text.clone(),
                    line: token.line,
                    column: token.column,
                    error,
                });
                break;
            }
        }
    }
    Ok(Replay { record, game, played, bad_move })
}
