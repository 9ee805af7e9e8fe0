//! The games polyshogi knows: one module per game behind the closed `Variant` enum (whose facts
//! are data in `catalog`), `AnyGame` to pick one at run time, and the rule options of each.

pub mod hexshogi;
pub mod option_texts;
pub mod options;
pub mod sankaku;
pub mod sannin;

use std::fmt;

use crate::game::Departure;
use crate::notation::position_error::ParsePositionError;
use crate::outcome::Events;
use crate::player::Player;
use crate::rules::{IllegalMove, PositionView};
use crate::variant::hexshogi::{HexShogiGame, HexShogiPosition, HexShogiRules, HexVariant};
use crate::variant::options::{describe, RuleOptionError, RuleOptionInfo};
use crate::variant::sankaku::{SankakuGame, SankakuPosition, SankakuRules};
use crate::variant::sannin::{SanninGame, SanninPosition, SanninRules};

pub use crate::catalog::{UnknownVariant, Variant};

impl Variant {
    /// Every rule option of this variant with its default and its choices, in key order.
    pub fn rule_options(self) -> Vec<RuleOptionInfo> {
        match self {
            Variant::Sannin => describe(&SanninRules::KEYS, SanninRules::default().to_pairs(), SanninRules::choices),
            Variant::Sankaku => describe(&SankakuRules::KEYS, SankakuRules::default().to_pairs(), SankakuRules::choices),
            Variant::HexShogi91 | Variant::Tphs91 => {
                let hex_variant = if self == Variant::HexShogi91 { HexVariant::HexShogi91 } else { HexVariant::Tphs91 };
                describe(&HexShogiRules::KEYS, HexShogiRules::new(hex_variant).to_pairs(), HexShogiRules::choices)
            }
        }
    }
}

/// Why a game could not be started.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum NewGameError {
    Rules(RuleOptionError),
    Variant(UnknownVariant),
    Position(ParsePositionError),
}

impl fmt::Display for NewGameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NewGameError::Rules(e) => write!(f, "{e}"),
            NewGameError::Variant(e) => write!(f, "{e}"),
            NewGameError::Position(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for NewGameError {}

impl From<RuleOptionError> for NewGameError {
    fn from(e: RuleOptionError) -> Self {
        NewGameError::Rules(e)
    }
}

/// A game of any variant, from its start position: the closed set of games behind one enum,
/// for front ends that pick the variant at run time. `with_game!` reaches the typed game.
// The variants differ in size (a Sannin game holds the largest board), but a game is made once
// and then worked on in place: boxing it would put a pointer in front of every move made.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum AnyGame {
    Sannin(SanninGame),
    /// Hex Shogi 91 or Three Player Hex Shogi 91: one rules module serves both.
    HexShogi(HexShogiGame),
    Sankaku(SankakuGame),
}

impl AnyGame {
    /// A new game of `variant` under the given `key=value` rule options.
    pub fn new<S: AsRef<str>>(variant: Variant, options: &[S]) -> Result<AnyGame, NewGameError> {
        match variant {
            Variant::Sannin => {
                let mut rules = SanninRules::default();
                for option in options {
                    rules.set(option.as_ref())?;
                }
                Ok(AnyGame::Sannin(SanninGame::new(SanninPosition::start(rules))))
            }
            Variant::Sankaku => {
                let mut rules = SankakuRules::default();
                for option in options {
                    rules.set(option.as_ref())?;
                }
                Ok(AnyGame::Sankaku(SankakuGame::new(SankakuPosition::start(rules))))
            }
            Variant::HexShogi91 | Variant::Tphs91 => {
                let hex_variant = if variant == Variant::HexShogi91 { HexVariant::HexShogi91 } else { HexVariant::Tphs91 };
                let mut rules = HexShogiRules::new(hex_variant);
                for option in options {
                    rules.set(option.as_ref())?;
                }
                Ok(AnyGame::HexShogi(HexShogiGame::new(HexShogiPosition::start(rules))))
            }
        }
    }

    pub fn variant(&self) -> Variant {
        match self {
            AnyGame::Sannin(_) => Variant::Sannin,
            AnyGame::HexShogi(game) => crate::rules::Rules::variant(game.position()),
            AnyGame::Sankaku(_) => Variant::Sankaku,
        }
    }

    /// A new game from a position string (its first word names the variant).
    pub fn from_position_text<S: AsRef<str>>(text: &str, options: &[S]) -> Result<AnyGame, NewGameError> {
        let name = text.split_whitespace().next().unwrap_or("");
        let variant: Variant = name.parse().map_err(NewGameError::Variant)?;
        match AnyGame::new(variant, options)? {
            AnyGame::Sannin(game) => {
                let rules = *game.position().rules();
                let position = SanninPosition::from_text(text, rules).map_err(NewGameError::Position)?;
                Ok(AnyGame::Sannin(SanninGame::new(position)))
            }
            AnyGame::HexShogi(game) => {
                let rules = *game.position().rules();
                let position = HexShogiPosition::from_text(text, rules).map_err(NewGameError::Position)?;
                Ok(AnyGame::HexShogi(HexShogiGame::new(position)))
            }
            AnyGame::Sankaku(game) => {
                let rules = *game.position().rules();
                let position = SankakuPosition::from_text(text, rules).map_err(NewGameError::Position)?;
                Ok(AnyGame::Sankaku(SankakuGame::new(position)))
            }
        }
    }

    /// The current position as a position string.
    pub fn position_text(&self) -> String {
        match self {
            AnyGame::Sannin(game) => game.position().to_text(),
            AnyGame::HexShogi(game) => game.position().to_text(),
            AnyGame::Sankaku(game) => game.position().to_text(),
        }
    }

    /// The start position as a position string.
    pub fn start_text(&self) -> String {
        match self {
            AnyGame::Sannin(game) => game.start().to_text(),
            AnyGame::HexShogi(game) => game.start().to_text(),
            AnyGame::Sankaku(game) => game.start().to_text(),
        }
    }

    /// The board for drawing.
    pub fn layout(&self) -> crate::layout::BoardLayout {
        match self {
            AnyGame::Sannin(game) => game.position().layout(),
            AnyGame::HexShogi(game) => game.position().layout(),
            AnyGame::Sankaku(game) => game.position().layout(),
        }
    }

    /// The current position drawn for a terminal.
    pub fn diagram(&self) -> String {
        match self {
            AnyGame::Sannin(game) => game.position().diagram(),
            AnyGame::HexShogi(game) => game.position().diagram(),
            AnyGame::Sankaku(game) => game.position().diagram(),
        }
    }

    /// One player's answer to the pending decision (see `Game::answer_as`).
    pub fn answer_as(&mut self, player: Player, accept: bool) -> Result<Option<Events>, IllegalMove> {
        crate::with_game!(self, game => game.answer_as(player, accept))
    }

    /// Takes the game back to just after its first `plies` moves (see `Game::rewind_to`).
    pub fn rewind_to(&mut self, plies: usize) -> Result<(), IllegalMove> {
        crate::with_game!(self, game => game.rewind_to(plies))
    }

    /// Whether the game may go back to its first `plies` moves (see `Game::can_rewind_to`).
    pub fn can_rewind_to(&self, plies: usize) -> bool {
        crate::with_game!(self, game => game.can_rewind_to(plies))
    }

    /// The number of moves played.
    pub fn plies(&self) -> usize {
        crate::with_game!(self, game => game.moves().len())
    }

    /// The seat that played move `ply` (counted from 1).
    pub fn mover_of(&self, ply: usize) -> Option<Player> {
        crate::with_game!(self, game => game.position_after(ply.checked_sub(1)?).map(|p| p.to_move()))
    }

    /// A player leaves, or the players agree a draw (see `Game::depart`).
    pub fn depart(&mut self, departure: Departure) -> Result<Events, IllegalMove> {
        crate::with_game!(self, game => game.depart(departure))
    }

    /// The current position, for the questions any game answers.
    pub fn position(&self) -> &dyn PositionView {
        match self {
            AnyGame::Sannin(game) => game.position(),
            AnyGame::HexShogi(game) => game.position(),
            AnyGame::Sankaku(game) => game.position(),
        }
    }
}

/// Runs `$body` with `$game` bound to the typed `Game` inside an `AnyGame`.
#[macro_export]
macro_rules! with_game {
    ($any:expr, $game:ident => $body:expr) => {
        match $any {
            $crate::variant::AnyGame::Sannin($game) => $body,
            $crate::variant::AnyGame::HexShogi($game) => $body,
            $crate::variant::AnyGame::Sankaku($game) => $body,
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    /// The catalog names every piece a game shows, and its seats are the game's.
    #[test]
    fn the_catalog_names_every_piece_of_every_start_position() {
        for variant in Variant::ALL {
            let game = AnyGame::new(variant, &[] as &[&str]).unwrap();
            let position = game.position();
            assert_eq!(position.variant(), variant);
            let letters: Vec<char> = variant.piece_names().iter().map(|p| p.letter).collect();
            let mut shown = 0;
            for cell in game.layout().cells.iter().map(|c| c.cell) {
                if let Some(piece) = position.piece_text(cell) {
                    assert!(letters.contains(&piece.letter), "{variant:?}: {} has no name", piece.letter);
                    assert!(variant.seats().contains(&piece.player), "{variant:?}: a piece of a seat the game lacks");
                    shown += 1;
                }
            }
            assert!(shown > 0, "{variant:?}: no pieces");
        }
    }

    /// The described options are exactly the ones a new game accepts: the keys are those an
    /// unknown key lists, every default leaves the rules at their defaults, every choice is
    /// accepted, and a value outside the choices is refused.
    #[test]
    fn described_rule_options_match_what_a_new_game_accepts() {
        for variant in Variant::ALL {
            let options = variant.rule_options();
            let keys: Vec<&str> = options.iter().map(|o| o.key).collect();
            match AnyGame::new(variant, &["no_such_option=1"]) {
                Err(NewGameError::Rules(RuleOptionError::UnknownKey { known, .. })) => assert_eq!(keys, known, "{variant:?}"),
                other => panic!("{variant:?}: an unknown key was not refused: {other:?}"),
            }
            let defaults: Vec<String> = options.iter().map(|o| format!("{}={}", o.key, o.default)).collect();
            let game = AnyGame::new(variant, &defaults).unwrap();
            assert_eq!(crate::with_game!(&game, g => g.start().non_default_options()), Vec::<String>::new(), "{variant:?}");
            for option in &options {
                match option.choices {
                    Some(choices) => {
                        assert!(choices.contains(&option.default.as_str()), "{variant:?} {}", option.key);
                        for choice in choices {
                            assert!(
                                AnyGame::new(variant, &[format!("{}={choice}", option.key)]).is_ok(),
                                "{} {choice}",
                                option.key
                            );
                        }
                        let refused = AnyGame::new(variant, &[format!("{}=maybe", option.key)]);
                        assert!(matches!(refused, Err(NewGameError::Rules(RuleOptionError::BadValue { .. }))), "{}", option.key);
                    }
                    None => {
                        assert!(AnyGame::new(variant, &[format!("{}=7", option.key)]).is_ok(), "{} takes a number", option.key)
                    }
                }
            }
        }
    }
}
