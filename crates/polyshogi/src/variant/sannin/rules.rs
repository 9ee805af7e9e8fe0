//! Sannin shogi's rule options (RULES.md §5): one field per question the sources leave open,
//! with the project's defaults.

use crate::variant::options::{choice, parse_bool, parse_number, split_option, RuleOptionError, BOOL_CHOICES};

choice!(
    /// Which eligible targets an illumination removes (§1.11).
    Illumination { Subset = "subset", All = "all", ExactlyOne = "exactly_one" }
);
choice!(
    /// A pawn or lance ending on its far gap edge, where it has no move (§1.8).
    DeadCellRule { ForcePromote = "force_promote", Illegal = "illegal", AllowStuck = "allow_stuck" }
);
choice!(
    /// Promotion while allied (§1.8).
    AlliedPromotion { Forbidden = "forbidden", ForcedInAllyTerritory = "forced_in_ally_territory" }
);
choice!(
    /// When a checkmate is noticed (§1.10).
    MateEvaluation { Immediate = "immediate", AtVictimsTurn = "at_victims_turn" }
);
choice!(
    /// Who moves after a checkmate (§1.10).
    TurnAfterMate { MatingPlayer = "mating_player", NormalRotation = "normal_rotation" }
);
choice!(
    /// A player with no legal action who is not mated (§1.10).
    Stalemate { Eliminate = "eliminate", Pass = "pass", Draw = "draw" }
);
choice!(
    /// Repeated positions (§1.14).
    Repetition { InitiatorMustVary = "initiator_must_vary", Superko = "superko", Off = "off" }
);
choice!(
    /// Compulsory alliances (§1.13).
    Compulsory { Auto = "auto", Off = "off", Confirm = "confirm" }
);
choice!(
    /// A voluntary alliance made before the game. Only Middle and Last can ally: the lone
    /// player always sits First (§1.3).
    PreGameAlliance { None = "none", MiddleLast = "ML" }
);

/// Every Sannin rule option. `Default` gives the RULES.md §5 defaults.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct SanninRules {
    pub alliance: PreGameAlliance,
    pub compulsory: Compulsory,
    pub detect_mate_threat: bool,
    pub illumination: Illumination,
    pub dead_cell_rule: DeadCellRule,
    pub forbid_pawn_drop_mate: bool,
    pub castle_may_capture: bool,
    pub king_zone_promotion: bool,
    pub promoted_rook_keeps_rear_diagonal: bool,
    pub allied_promotion: AlliedPromotion,
    pub promotion_returns_after_dissolution: bool,
    pub garden_returns_after_dissolution: bool,
    pub mate_evaluation: MateEvaluation,
    pub turn_after_mate: TurnAfterMate,
    pub forbid_exposing_ally: bool,
    /// A player threatened with mate must parry the threat when some action does (§1.10).
    pub must_parry_mate_threat: bool,
    pub stalemate: Stalemate,
    pub repetition: Repetition,
    /// Plies after which the game is drawn among the players still in it (a safety cap).
    pub max_plies: u32,
}

impl Default for SanninRules {
    fn default() -> Self {
        SanninRules {
            alliance: PreGameAlliance::None,
            compulsory: Compulsory::Auto,
            detect_mate_threat: false,
            illumination: Illumination::Subset,
            dead_cell_rule: DeadCellRule::ForcePromote,
            forbid_pawn_drop_mate: true,
            castle_may_capture: true,
            king_zone_promotion: true,
            promoted_rook_keeps_rear_diagonal: false,
            allied_promotion: AlliedPromotion::Forbidden,
            promotion_returns_after_dissolution: true,
            garden_returns_after_dissolution: true,
            mate_evaluation: MateEvaluation::Immediate,
            turn_after_mate: TurnAfterMate::MatingPlayer,
            forbid_exposing_ally: false,
            must_parry_mate_threat: false,
            stalemate: Stalemate::Eliminate,
            repetition: Repetition::InitiatorMustVary,
            max_plies: 3000,
        }
    }
}

impl SanninRules {
    pub const KEYS: [&'static str; 19] = [
        "alliance",
        "compulsory",
        "detect_mate_threat",
        "illumination",
        "dead_cell_rule",
        "forbid_pawn_drop_mate",
        "castle_may_capture",
        "king_zone_promotion",
        "promoted_rook_keeps_rear_diagonal",
        "allied_promotion",
        "promotion_returns_after_dissolution",
        "garden_returns_after_dissolution",
        "mate_evaluation",
        "turn_after_mate",
        "forbid_exposing_ally",
        "must_parry_mate_threat",
        "stalemate",
        "repetition",
        "max_plies",
    ];

    /// Applies one `key=value` option.
    pub fn set(&mut self, option: &str) -> Result<(), RuleOptionError> {
        let (key, value) = split_option(option)?;
        match key {
            "alliance" => self.alliance = PreGameAlliance::parse(key, value)?,
            "compulsory" => self.compulsory = Compulsory::parse(key, value)?,
            "detect_mate_threat" => self.detect_mate_threat = parse_bool(key, value)?,
            "illumination" => self.illumination = Illumination::parse(key, value)?,
            "dead_cell_rule" => self.dead_cell_rule = DeadCellRule::parse(key, value)?,
            "forbid_pawn_drop_mate" => self.forbid_pawn_drop_mate = parse_bool(key, value)?,
            "castle_may_capture" => self.castle_may_capture = parse_bool(key, value)?,
            "king_zone_promotion" => self.king_zone_promotion = parse_bool(key, value)?,
            "promoted_rook_keeps_rear_diagonal" => self.promoted_rook_keeps_rear_diagonal = parse_bool(key, value)?,
            "allied_promotion" => self.allied_promotion = AlliedPromotion::parse(key, value)?,
            "promotion_returns_after_dissolution" => self.promotion_returns_after_dissolution = parse_bool(key, value)?,
            "garden_returns_after_dissolution" => self.garden_returns_after_dissolution = parse_bool(key, value)?,
            "mate_evaluation" => self.mate_evaluation = MateEvaluation::parse(key, value)?,
            "turn_after_mate" => self.turn_after_mate = TurnAfterMate::parse(key, value)?,
            "forbid_exposing_ally" => self.forbid_exposing_ally = parse_bool(key, value)?,
            "must_parry_mate_threat" => self.must_parry_mate_threat = parse_bool(key, value)?,
            "stalemate" => self.stalemate = Stalemate::parse(key, value)?,
            "repetition" => self.repetition = Repetition::parse(key, value)?,
            "max_plies" => self.max_plies = parse_number(key, value)?,
            _ => return Err(RuleOptionError::UnknownKey { key: key.to_string(), known: Self::KEYS.to_vec() }),
        }
        Ok(())
    }

    /// The choices of one of `KEYS`; `None` for a number (and for an unknown key).
    pub fn choices(key: &str) -> Option<&'static [&'static str]> {
        Some(match key {
            "alliance" => PreGameAlliance::NAMES,
            "compulsory" => Compulsory::NAMES,
            "illumination" => Illumination::NAMES,
            "dead_cell_rule" => DeadCellRule::NAMES,
            "allied_promotion" => AlliedPromotion::NAMES,
            "mate_evaluation" => MateEvaluation::NAMES,
            "turn_after_mate" => TurnAfterMate::NAMES,
            "stalemate" => Stalemate::NAMES,
            "repetition" => Repetition::NAMES,
            "max_plies" => return None,
            _ if Self::KEYS.contains(&key) => BOOL_CHOICES,
            _ => return None,
        })
    }

    /// Every option as `key=value`, in `KEYS` order.
    pub fn to_pairs(&self) -> Vec<String> {
        let values = [
            self.alliance.name().to_string(),
            self.compulsory.name().to_string(),
            self.detect_mate_threat.to_string(),
            self.illumination.name().to_string(),
            self.dead_cell_rule.name().to_string(),
            self.forbid_pawn_drop_mate.to_string(),
            self.castle_may_capture.to_string(),
            self.king_zone_promotion.to_string(),
            self.promoted_rook_keeps_rear_diagonal.to_string(),
            self.allied_promotion.name().to_string(),
            self.promotion_returns_after_dissolution.to_string(),
            self.garden_returns_after_dissolution.to_string(),
            self.mate_evaluation.name().to_string(),
            self.turn_after_mate.name().to_string(),
            self.forbid_exposing_ally.to_string(),
            self.must_parry_mate_threat.to_string(),
            self.stalemate.name().to_string(),
            self.repetition.name().to_string(),
            self.max_plies.to_string(),
        ];
        Self::KEYS.iter().zip(values).map(|(k, v)| format!("{k}={v}")).collect()
    }

    /// The options that differ from the defaults, as `key=value`.
    pub fn non_default_pairs(&self) -> Vec<String> {
        let defaults = SanninRules::default().to_pairs();
        self.to_pairs().into_iter().filter(|p| !defaults.contains(p)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_round_trips_through_its_text() {
        let mut rules = SanninRules::default();
        for option in
            ["alliance=ML", "compulsory=off", "illumination=all", "stalemate=draw", "castle_may_capture=false", "max_plies=500"]
        {
            rules.set(option).unwrap();
        }
        let mut reparsed = SanninRules::default();
        for pair in rules.to_pairs() {
            reparsed.set(&pair).unwrap();
        }
        assert_eq!(reparsed, rules);
        assert_eq!(rules.non_default_pairs().len(), 6);
    }

    #[test]
    fn unknown_keys_and_values_are_named_in_the_error() {
        let mut rules = SanninRules::default();
        let err = rules.set("colour=blue").unwrap_err();
        assert!(err.to_string().contains("unknown rule option `colour`"), "{err}");
        let err = rules.set("compulsory=sometimes").unwrap_err();
        assert!(err.to_string().contains("auto|off|confirm"), "{err}");
        assert!(matches!(rules.set("compulsory"), Err(RuleOptionError::Malformed(_))));
        assert_eq!(rules, SanninRules::default());
    }
}
