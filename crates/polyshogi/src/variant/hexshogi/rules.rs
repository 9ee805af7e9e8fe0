//! The rule options of the two Hex Shogi 91 games (RULES.md §2, §5): which game, and one field
//! per question the sources leave open, with the project's defaults for that game.

use crate::catalog::Variant;
use crate::variant::options::{parse_bool, parse_number, split_option, RuleOptionError, BOOL_CHOICES};

/// Which of the two games on the 91-cell board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum HexVariant {
    /// Duniho's two-player Hex Shogi 91: check and checkmate (§2.1–2.6).
    HexShogi91,
    /// Three Player Hex Shogi 91: no check, kings are collected (§2.7–2.8).
    Tphs91,
}

impl HexVariant {
    pub const fn variant(self) -> Variant {
        match self {
            HexVariant::HexShogi91 => Variant::HexShogi91,
            HexVariant::Tphs91 => Variant::Tphs91,
        }
    }

    /// The Hex Shogi game a `Variant` names, if it is one of them.
    pub const fn from_variant(variant: Variant) -> Option<HexVariant> {
        match variant {
            Variant::HexShogi91 => Some(HexVariant::HexShogi91),
            Variant::Tphs91 => Some(HexVariant::Tphs91),
            _ => None,
        }
    }

    pub const fn is_three_player(self) -> bool {
        matches!(self, HexVariant::Tphs91)
    }
}

/// Every rule option of one Hex Shogi 91 game. `HexShogiRules::new` gives the RULES.md
/// defaults of that game; `set` changes one option from `key=value` text. The game itself is
/// not an option: it is chosen by the variant name.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct HexShogiRules {
    pub variant: HexVariant,
    /// Plies in a row without a capture after which the game is drawn; 0 turns the rule off.
    /// Two players: 50 moves = 100 plies (§2.6). Three players: "fifty moves" read as 50
    /// rounds = 150 plies, passes included (§2.7 [DEF]; 50 and 100 are the alternatives).
    pub no_capture_limit_plies: u32,
    /// A pawn may not be dropped on a cell attacked by one of the dropper's own unpromoted
    /// pawns (Hex Shogi's replacement for nifu, §2.5).
    pub pawn_drop_no_pawn_support: bool,
    /// A pawn may not be dropped where it attacks another player's king: "no pawn drop gives
    /// check" in the two-player game (§2.5), read the same way for three (§2.7 [DEF]).
    pub pawn_drop_may_not_attack_king: bool,
}

impl HexShogiRules {
    pub const KEYS: [&'static str; 3] = ["no_capture_limit_plies", "pawn_drop_no_pawn_support", "pawn_drop_may_not_attack_king"];

    /// The defaults of `variant` (RULES.md §2.6, §2.7, §5 #20–21).
    pub const fn new(variant: HexVariant) -> HexShogiRules {
        HexShogiRules {
            variant,
            no_capture_limit_plies: match variant {
                HexVariant::HexShogi91 => 100,
                HexVariant::Tphs91 => 150,
            },
            pawn_drop_no_pawn_support: true,
            pawn_drop_may_not_attack_king: true,
        }
    }

    pub const fn hexshogi91() -> HexShogiRules {
        HexShogiRules::new(HexVariant::HexShogi91)
    }

    pub const fn tphs91() -> HexShogiRules {
        HexShogiRules::new(HexVariant::Tphs91)
    }

    /// Applies one `key=value` option.
    pub fn set(&mut self, option: &str) -> Result<(), RuleOptionError> {
        let (key, value) = split_option(option)?;
        match key {
            "no_capture_limit_plies" => self.no_capture_limit_plies = parse_number(key, value)?,
            "pawn_drop_no_pawn_support" => self.pawn_drop_no_pawn_support = parse_bool(key, value)?,
            "pawn_drop_may_not_attack_king" => self.pawn_drop_may_not_attack_king = parse_bool(key, value)?,
            _ => return Err(RuleOptionError::UnknownKey { key: key.to_string(), known: Self::KEYS.to_vec() }),
        }
        Ok(())
    }

    /// The choices of one of `KEYS`; `None` for a number (and for an unknown key).
    pub fn choices(key: &str) -> Option<&'static [&'static str]> {
        match key {
            "pawn_drop_no_pawn_support" | "pawn_drop_may_not_attack_king" => Some(BOOL_CHOICES),
            _ => None,
        }
    }

    /// Every option as `key=value`, in `KEYS` order.
    pub fn to_pairs(&self) -> Vec<String> {
        let values = [
            self.no_capture_limit_plies.to_string(),
            self.pawn_drop_no_pawn_support.to_string(),
            self.pawn_drop_may_not_attack_king.to_string(),
        ];
        Self::KEYS.iter().zip(values).map(|(k, v)| format!("{k}={v}")).collect()
    }

    /// The options that differ from this game's defaults, as `key=value`.
    pub fn non_default_pairs(&self) -> Vec<String> {
        let defaults = HexShogiRules::new(self.variant).to_pairs();
        self.to_pairs().into_iter().filter(|p| !defaults.contains(p)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_differ_by_game_and_options_round_trip() {
        assert_eq!(HexShogiRules::hexshogi91().no_capture_limit_plies, 100);
        assert_eq!(HexShogiRules::tphs91().no_capture_limit_plies, 150);
        let mut rules = HexShogiRules::tphs91();
        for option in ["no_capture_limit_plies=50", "pawn_drop_no_pawn_support=false"] {
            rules.set(option).unwrap();
        }
        let mut reparsed = HexShogiRules::tphs91();
        for pair in rules.to_pairs() {
            reparsed.set(&pair).unwrap();
        }
        assert_eq!(reparsed, rules);
        assert_eq!(rules.non_default_pairs().len(), 2);
    }

    #[test]
    fn bad_options_are_refused_and_leave_the_rules_unchanged() {
        let mut rules = HexShogiRules::hexshogi91();
        let err = rules.set("colour=blue").unwrap_err();
        assert!(err.to_string().contains("unknown rule option `colour`"), "{err}");
        let err = rules.set("pawn_drop_no_pawn_support=maybe").unwrap_err();
        assert!(err.to_string().contains("true|false"), "{err}");
        assert!(rules.set("no_capture_limit_plies=-3").is_err());
        assert!(matches!(rules.set("pawn_drop_may_not_attack_king"), Err(RuleOptionError::Malformed(_))));
        assert_eq!(rules, HexShogiRules::hexshogi91());
    }
}
