//! Sankaku Shogi's rule options (RULES.md §3.3, §3.5 and §5 #26–29): one field per question
//! the source leaves open, with the project's defaults.

use crate::variant::options::{choice, parse_bool, split_option, RuleOptionError, BOOL_CHOICES};

choice!(
    /// Repeated positions (§3.5).
    Repetition {
        /// No move may recreate a position (board and side to move) that has occurred.
        Superko = "superko",
        /// The third occurrence of a position draws.
        ThreefoldDraw = "threefold_draw",
        Off = "off",
    }
);

/// Every Sankaku rule option. `Default` gives the RULES.md §5 defaults.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct SankakuRules {
    /// A Soldier's single step to a side neighbour may capture (§5 #26).
    pub soldier_step_captures: bool,
    /// A Chariot may run down any number of Soldiers in one move, not just one (§5 #27).
    pub chariot_run_down_multiple: bool,
    pub repetition: Repetition,
}

impl Default for SankakuRules {
    fn default() -> Self {
        SankakuRules { soldier_step_captures: true, chariot_run_down_multiple: false, repetition: Repetition::Superko }
    }
}

impl SankakuRules {
    pub const KEYS: [&'static str; 3] = ["soldier_step_captures", "chariot_run_down_multiple", "repetition"];

    /// Applies one `key=value` option.
    pub fn set(&mut self, option: &str) -> Result<(), RuleOptionError> {
        let (key, value) = split_option(option)?;
        match key {
            "soldier_step_captures" => self.soldier_step_captures = parse_bool(key, value)?,
            "chariot_run_down_multiple" => self.chariot_run_down_multiple = parse_bool(key, value)?,
            "repetition" => self.repetition = Repetition::parse(key, value)?,
            _ => return Err(RuleOptionError::UnknownKey { key: key.to_string(), known: Self::KEYS.to_vec() }),
        }
        Ok(())
    }

    /// The choices of one of `KEYS` (`None` for an unknown key).
    pub fn choices(key: &str) -> Option<&'static [&'static str]> {
        match key {
            "soldier_step_captures" | "chariot_run_down_multiple" => Some(BOOL_CHOICES),
            "repetition" => Some(Repetition::NAMES),
            _ => None,
        }
    }

    /// Every option as `key=value`, in `KEYS` order.
    pub fn to_pairs(&self) -> Vec<String> {
        let values = [
            self.soldier_step_captures.to_string(),
            self.chariot_run_down_multiple.to_string(),
            self.repetition.name().to_string(),
        ];
        Self::KEYS.iter().zip(values).map(|(k, v)| format!("{k}={v}")).collect()
    }

    /// The options that differ from the defaults, as `key=value`.
    pub fn non_default_pairs(&self) -> Vec<String> {
        let defaults = SankakuRules::default().to_pairs();
        self.to_pairs().into_iter().filter(|p| !defaults.contains(p)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_round_trips_through_its_text() {
        let mut rules = SankakuRules::default();
        for option in ["soldier_step_captures=off", "chariot_run_down_multiple=true", "repetition=threefold_draw"] {
            rules.set(option).unwrap();
        }
        let mut reparsed = SankakuRules::default();
        for pair in rules.to_pairs() {
            reparsed.set(&pair).unwrap();
        }
        assert_eq!(reparsed, rules);
        assert_eq!(rules.non_default_pairs().len(), 3);
        assert!(SankakuRules::default().non_default_pairs().is_empty());
    }

    #[test]
    fn unknown_keys_and_values_are_named_in_the_error() {
        let mut rules = SankakuRules::default();
        let err = rules.set("drops=on").unwrap_err();
        assert!(err.to_string().contains("unknown rule option `drops`"), "{err}");
        let err = rules.set("repetition=fivefold").unwrap_err();
        assert!(err.to_string().contains("superko|threefold_draw|off"), "{err}");
        assert!(matches!(rules.set("repetition"), Err(RuleOptionError::Malformed(_))));
        assert_eq!(rules, SankakuRules::default());
    }
}
