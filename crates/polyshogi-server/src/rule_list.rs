//! The rule list a new game may have: a few short `key=value` texts, no key twice, each a rule
//! option of the variant, and a move limit no longer than its default.

use std::collections::HashMap;

use polyshogi::variant::options::split_option;
use polyshogi::variant::{NewGameError, Variant};

use crate::table::Table;

/// More texts than any variant has options (Sannin shogi has 19), as no key may come twice.
pub const MAX_RULES: usize = 32;
/// Longer than any key and value (the longest key has 35 characters).
pub const MAX_RULE_CHARS: usize = 100;
/// The option that bounds a game's length: every state of a game carries its every move.
const MOVE_LIMIT_KEY: &str = "max_plies";

/// The rule texts of a new game of `variant`, checked, spaces around each trimmed; or the
/// message naming the bad one (`rules:` or `rules[2]:`).
pub fn checked_rules(variant: Variant, texts: &[String]) -> Result<Vec<String>, String> {
    if texts.len() > MAX_RULES {
        return Err(format!("rules: at most {MAX_RULES} rule options, got {}", texts.len()));
    }
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let mut rules = Vec::with_capacity(texts.len());
    for (index, text) in texts.iter().enumerate() {
        let text = text.trim_matches(' ');
        if text.chars().count() > MAX_RULE_CHARS {
            return Err(format!("rules[{index}]: longer than {MAX_RULE_CHARS} characters"));
        }
        let (key, _) = split_option(text).map_err(|e| format!("rules[{index}]: {e}"))?;
        if let Some(first) = seen.insert(key, index) {
            return Err(format!("rules[{index}]: `{key}` is set twice (rules[{first}] sets it too)"));
        }
        rules.push(text.to_string());
    }
    match Table::new(variant, &rules) {
        Ok(_) => {}
        Err(NewGameError::Rules(e)) => return Err(format!("rules: {e}")),
        Err(e) => return Err(format!("variant: {e}")),
    }
    check_move_limit(variant, &rules)?;
    Ok(rules)
}

/// A game may be made shorter than the variant's default move limit, not longer.
fn check_move_limit(variant: Variant, rules: &[String]) -> Result<(), String> {
    let Some(default) = variant.rule_options().into_iter().find(|option| option.key == MOVE_LIMIT_KEY) else {
        return Ok(());
    };
    let most: u64 = default.default.parse().expect("the move limit's default is a number");
    for (index, text) in rules.iter().enumerate() {
        if let Ok((MOVE_LIMIT_KEY, value)) = split_option(text) {
            // The rules have read it already as a number.
            if value.parse::<u64>().is_ok_and(|plies| plies > most) {
                return Err(format!("rules[{index}]: {MOVE_LIMIT_KEY} may be at most {most} (its default), not {value}"));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(rules: &[&str]) -> Vec<String> {
        rules.iter().map(|r| r.to_string()).collect()
    }

    fn refusal(variant: Variant, rules: &[&str]) -> String {
        checked_rules(variant, &texts(rules)).expect_err("refused")
    }

    #[test]
    fn good_rules_pass_trimmed() {
        assert_eq!(
            checked_rules(Variant::Sannin, &texts(&[" compulsory=off ", "max_plies=3000"])),
            Ok(texts(&["compulsory=off", "max_plies=3000"]))
        );
        assert_eq!(checked_rules(Variant::Sankaku, &[]), Ok(vec![]));
    }

    #[test]
    fn each_refusal_names_the_rule() {
        assert_eq!(
            refusal(Variant::Sannin, &["compulsory=off", "max_plies\n=500"]),
            "rules[1]: rule option \"max_plies\\n=500\" holds a control character"
        );
        assert!(refusal(Variant::Sannin, &["compulsory=off\n"]).starts_with("rules[0]: "));
        assert_eq!(
            refusal(Variant::Sannin, &["compulsory=off", "alliance=ML", "compulsory=auto"]),
            "rules[2]: `compulsory` is set twice (rules[0] sets it too)"
        );
        assert!(refusal(Variant::Sannin, &["compulsory"])
            .starts_with("rules[0]: rule option `compulsory` is not of the form key=value"));
        assert!(refusal(Variant::Sannin, &["colour=blue"]).starts_with("rules: unknown rule option `colour`"));
        assert!(refusal(Variant::Sannin, &[&format!("alliance={}", "M".repeat(100))]).starts_with("rules[0]: longer than 100"));
        let many: Vec<String> = (0..33).map(|_| "compulsory=off".to_string()).collect();
        assert_eq!(checked_rules(Variant::Sannin, &many), Err("rules: at most 32 rule options, got 33".into()));
    }

    #[test]
    fn the_move_limit_may_be_lowered_not_raised() {
        assert!(checked_rules(Variant::Sannin, &texts(&["max_plies=200"])).is_ok());
        assert_eq!(
            refusal(Variant::Sannin, &["max_plies=3001"]),
            "rules[0]: max_plies may be at most 3000 (its default), not 3001"
        );
        assert!(refusal(Variant::Sannin, &["max_plies=4294967295"]).contains("at most 3000"));
        // A variant without the option says so, and a number too large for the rules is theirs to refuse.
        assert!(refusal(Variant::HexShogi91, &["max_plies=5"]).starts_with("rules: unknown rule option `max_plies`"));
        assert!(refusal(Variant::Sannin, &["max_plies=99999999999"]).starts_with("rules: rule option `max_plies` cannot be"));
    }
}
