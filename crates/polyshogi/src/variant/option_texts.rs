//! Rule options in players' words: a label, a one-line explanation and where the default comes
//! from, for every option of every game, and each value in words. The lobby and the rules
//! pages show these instead of the `key=value` text.

use crate::catalog::Variant;

/// What a player reads about one rule option.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct OptionText {
    pub label: &'static str,
    pub explanation: &'static str,
    /// Where the default comes from: a source of the game, or polyshogi's own choice.
    pub source: &'static str,
}

const fn text(label: &'static str, explanation: &'static str, source: &'static str) -> OptionText {
    OptionText { label, explanation, source }
}

/// The words for option `key` of `variant`; `None` for a key the variant does not have.
pub fn option_text(variant: Variant, key: &str) -> Option<OptionText> {
    match variant {
        Variant::Sannin => sannin(key),
        Variant::HexShogi91 | Variant::Tphs91 => hex(variant, key),
        Variant::Sankaku => sankaku(key),
    }
}

fn sannin(key: &str) -> Option<OptionText> {
    Some(match key {
        "alliance" => text(
            "Alliance before the game",
            "Middle and Last may agree to play together against First from the start.",
            "English Wikipedia: players may ally before the game",
        ),
        "compulsory" => text(
            "Compulsory alliances",
            "When two players together threaten the third, they become allies: at once, never, or only if both accept.",
            "the rule: English Wikipedia; how it is detected: polyshogi",
        ),
        "detect_mate_threat" => text(
            "Mate threats form alliances",
            "A threat of mate next move counts as an attack that can form an alliance (makes bots slower).",
            "the sources list it; off by default: polyshogi",
        ),
        "illumination" => text(
            "Illumination removes",
            "Which of the pieces a promoted king lights up are removed: any he chooses, all of them, or exactly one.",
            "the sources are unclear; polyshogi lets the king choose",
        ),
        "dead_cell_rule" => text(
            "Pawn or lance on its last row",
            "A pawn or lance that could never move again must promote, may not go there at all, or may stay stuck.",
            "Japanese Wikipedia: promotion is compulsory",
        ),
        "forbid_pawn_drop_mate" => text(
            "No mate by pawn drop",
            "Dropping a pawn to give checkmate is illegal, as in shogi.",
            "polyshogi, following shogi",
        ),
        "castle_may_capture" => text(
            "Castling may capture",
            "A castling move may capture an enemy piece on the cell it lands on.",
            "English Wikipedia and Fairbairn: yes; Japanese Wikipedia: empty cells only",
        ),
        "king_zone_promotion" => text(
            "Kings promote in enemy territory",
            "A king may promote like other pieces by entering enemy territory.",
            "Kapitan no. 40: the king can promote",
        ),
        "promoted_rook_keeps_rear_diagonal" => text(
            "Promoted rook ranges straight back",
            "A promoted rook also keeps the rook's straight-back range.",
            "English Wikipedia likens it to the shogi rook; off: polyshogi",
        ),
        "allied_promotion" => text(
            "Promotion while allied",
            "Allies never promote, or must promote on moves in the ally's territory.",
            "English Wikipedia: allies cannot promote",
        ),
        "promotion_returns_after_dissolution" => {
            text("Promotion after an alliance ends", "Former allies may promote again once their alliance is over.", "polyshogi")
        }
        "garden_returns_after_dissolution" => text(
            "Garden win after an alliance ends",
            "Former allies may again win by entering the Pleasure Garden once their alliance is over.",
            "polyshogi",
        ),
        "mate_evaluation" => text(
            "When a mate counts",
            "A checkmate is judged after every move, or only when the mated player's turn comes.",
            "the sources: mate is decided at once",
        ),
        "turn_after_mate" => text(
            "Who moves after a mate",
            "After a checkmate the mating player moves again, or play goes on in the usual order.",
            "the sources: play passes to the mating player",
        ),
        "forbid_exposing_ally" => text(
            "Never expose an ally's king",
            "Opening a line onto your ally's king for the third player is illegal too.",
            "the sources forbid only checking an ally yourself",
        ),
        "must_parry_mate_threat" => text(
            "Mate threats must be parried",
            "A player who could be mated next move must stop it when he can (makes bots much slower).",
            "polyshogi reads the sources' remark as advice, not a rule",
        ),
        "stalemate" => text(
            "A player with no legal move",
            "A player who cannot move and is not mated leaves the game, passes, or the game is drawn.",
            "the sources are silent; polyshogi",
        ),
        "repetition" => text(
            "Repeated positions",
            "The player who starts a repetition must vary, no position may ever recur, or repetition is allowed.",
            "the sources: the starter of a repetition must vary",
        ),
        "max_plies" => {
            text("Move limit", "The game is drawn after this many moves, all players counted together.", "polyshogi safety limit")
        }
        _ => return None,
    })
}

fn hex(variant: Variant, key: &str) -> Option<OptionText> {
    Some(match key {
        "no_capture_limit_plies" => text(
            "Moves without a capture",
            if variant == Variant::Tphs91 {
                "The game is drawn after this many moves in a row (all players, passes included) without a capture; 0 turns it off."
            } else {
                "The game is drawn after this many moves in a row (both players counted) without a capture; 0 turns it off."
            },
            if variant == Variant::Tphs91 {
                "Duniho's fifty moves, read as fifty rounds: polyshogi"
            } else {
                "Duniho: fifty moves each"
            },
        ),
        "pawn_drop_no_pawn_support" => text(
            "No pawn drop next to your own pawn",
            "A pawn may not be dropped on a cell that one of your own unpromoted pawns attacks.",
            "Duniho, in place of shogi's two-pawn rule",
        ),
        "pawn_drop_may_not_attack_king" => text(
            "No pawn drop attacking a king",
            "A pawn may not be dropped where it attacks a king.",
            if variant == Variant::Tphs91 { "Duniho's two-player rule, kept for three: polyshogi" } else { "Duniho" },
        ),
        _ => return None,
    })
}

fn sankaku(key: &str) -> Option<OptionText> {
    Some(match key {
        "soldier_step_captures" => text(
            "Soldiers capture sideways",
            "A Soldier's single step to a side neighbour may capture.",
            "polyshogi; another public version agrees",
        ),
        "chariot_run_down_multiple" => text(
            "Chariot runs down several Soldiers",
            "A Chariot may run down any number of Soldiers in one move, not just one.",
            "the run-down: L. Lynn Smith; one Soldier a move: polyshogi",
        ),
        "repetition" => text(
            "Repeated positions",
            "No move may recreate an earlier position, the third time a position occurs is a draw, or repetition is allowed.",
            "L. Lynn Smith forbids repeating to avoid capture; how it is judged: polyshogi",
        ),
        _ => return None,
    })
}

/// A value of an option in words: `yes`/`no` for on/off options, the choice's own words for
/// the others (`at_victims_turn` → `at victim's turn`), numbers as they are.
pub fn value_text(value: &str) -> String {
    match value {
        "true" => "yes".to_string(),
        "false" => "no".to_string(),
        "ML" => "Middle and Last".to_string(),
        "at_victims_turn" => "at the victim's turn".to_string(),
        other => other.replace('_', " "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_of_every_game_has_words() {
        for variant in Variant::ALL {
            for option in variant.rule_options() {
                let words = option_text(variant, option.key).unwrap_or_else(|| panic!("{variant:?} {}", option.key));
                assert!(!words.label.is_empty() && !words.explanation.is_empty() && !words.source.is_empty());
                assert!(!words.label.contains('_'), "{}", words.label);
            }
        }
        assert_eq!(option_text(Variant::Sankaku, "max_plies"), None);
        assert_eq!(value_text("false"), "no");
        assert_eq!(value_text("initiator_must_vary"), "initiator must vary");
    }
}
