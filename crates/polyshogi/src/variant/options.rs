//! Rule options: a typed set of choices per variant, with RULES.md §5 defaults, parsed from
//! and written as `key=value` text.

use std::fmt;

/// A `key=value` rule option that could not be applied.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RuleOptionError {
    /// The text has no `=`.
    Malformed(String),
    /// The text holds a control character, such as a newline.
    ControlCharacter(String),
    /// The variant has no option of that name.
    UnknownKey { key: String, known: Vec<&'static str> },
    /// The option exists but the value is not one of its choices.
    BadValue { key: String, value: String, expected: String },
}

impl fmt::Display for RuleOptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleOptionError::Malformed(text) => {
                write!(f, "rule option `{text}` is not of the form key=value")
            }
            RuleOptionError::ControlCharacter(text) => {
                write!(f, "rule option {text:?} holds a control character")
            }
            RuleOptionError::UnknownKey { key, known } => {
                write!(f, "unknown rule option `{key}` (known: {})", known.join(", "))
            }
            RuleOptionError::BadValue { key, value, expected } => {
                write!(f, "rule option `{key}` cannot be `{value}` (expected {expected})")
            }
        }
    }
}

impl std::error::Error for RuleOptionError {}

/// One rule option as a lobby offers it: its key, its default for the variant, and its choices
/// (`None` for a free value such as a number).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RuleOptionInfo {
    pub key: &'static str,
    pub default: String,
    pub choices: Option<&'static [&'static str]>,
}

/// The choices of every on/off option, as written in `key=value` text.
pub const BOOL_CHOICES: &[&str] = &["true", "false"];

/// Pairs each key with its default (from `defaults`, the `key=value` text of a default rule set
/// in key order) and its choices.
pub(crate) fn describe(
    keys: &[&'static str],
    defaults: Vec<String>,
    choices: impl Fn(&str) -> Option<&'static [&'static str]>,
) -> Vec<RuleOptionInfo> {
    keys.iter()
        .zip(defaults)
        .map(|(&key, pair)| {
            let default = pair.split_once('=').map_or(String::new(), |(_, value)| value.to_string());
            RuleOptionInfo { key, default, choices: choices(key) }
        })
        .collect()
}

/// Splits `key=value`. A control character is refused anywhere in the text, even where
/// trimming would drop it: rule texts are stored and written into records one per line, so a
/// newline inside one would turn it into two rules when read back.
pub fn split_option(text: &str) -> Result<(&str, &str), RuleOptionError> {
    if text.chars().any(char::is_control) {
        return Err(RuleOptionError::ControlCharacter(text.to_string()));
    }
    let (key, value) = text.split_once('=').ok_or_else(|| RuleOptionError::Malformed(text.to_string()))?;
    Ok((key.trim(), value.trim()))
}

/// Declares an enum of choices for a rule option, with its text names.
macro_rules! choice {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
        pub enum $name {
            $($(#[$vmeta])* $variant),+
        }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            /// The text of each choice, in `ALL` order.
            pub const NAMES: &'static [&'static str] = &[$($text),+];

            pub const fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }

            pub fn parse(key: &str, value: &str) -> Result<$name, RuleOptionError> {
                Self::ALL.iter().copied().find(|c| c.name() == value).ok_or_else(|| {
                    RuleOptionError::BadValue {
                        key: key.to_string(),
                        value: value.to_string(),
                        expected: Self::NAMES.join("|"),
                    }
                })
            }
        }
    };
}
pub(crate) use choice;

pub fn parse_bool(key: &str, value: &str) -> Result<bool, RuleOptionError> {
    match value {
        "true" | "on" | "yes" => Ok(true),
        "false" | "off" | "no" => Ok(false),
        _ => Err(RuleOptionError::BadValue { key: key.to_string(), value: value.to_string(), expected: BOOL_CHOICES.join("|") }),
    }
}

pub fn parse_number(key: &str, value: &str) -> Result<u32, RuleOptionError> {
    value.parse().map_err(|_| RuleOptionError::BadValue {
        key: key.to_string(),
        value: value.to_string(),
        expected: "a whole number".to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_control_character_anywhere_is_refused() {
        assert_eq!(split_option(" max_plies = 500 "), Ok(("max_plies", "500")));
        for text in ["max_plies\n=500", "max_plies=500\n", "\rmax_plies=500", "max_plies=5\t00", "max_plies=\u{85}500"] {
            let refused = split_option(text).unwrap_err();
            assert_eq!(refused, RuleOptionError::ControlCharacter(text.to_string()));
            assert!(!refused.to_string().contains('\n'), "{refused}");
        }
    }
}
