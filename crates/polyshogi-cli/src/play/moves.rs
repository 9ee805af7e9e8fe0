//! The legal moves of the position as the player meets them: each with its canonical and
//! short text and the cells it joins, for Tab completion and for the cursor.

use polyshogi::mv::{Move, MoveList};
use polyshogi::notation::move_text;
use polyshogi::variant::AnyGame;
use polyshogi::{with_game, Cell, Rules};

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LegalMove {
    pub mv: Move,
    pub canonical: String,
    pub short: String,
}

impl LegalMove {
    /// The cell the move starts from: a board move's origin, an illuminating king's cell.
    pub fn from(&self) -> Option<Cell> {
        match self.mv {
            Move::Normal { from, .. } | Move::Illuminate { from, .. } => Some(from),
            Move::Drop { .. } | Move::Pass => None,
        }
    }

    /// The cell a board move or a drop ends on.
    pub fn to(&self) -> Option<Cell> {
        match self.mv {
            Move::Normal { to, .. } | Move::Drop { to, .. } => Some(to),
            Move::Illuminate { .. } | Move::Pass => None,
        }
    }
}

/// The legal moves of the player to move (none once the game is over or while a proposed
/// alliance waits), in the rules' order.
pub fn legal_moves(game: &AnyGame) -> Vec<LegalMove> {
    with_game!(game, g => {
        let pos = g.position();
        let mut legal = MoveList::new();
        if pos.outcome().is_none() && !pos.decision_pending() {
            g.legal_moves(&mut legal);
        }
        legal
            .iter()
            .map(|&mv| LegalMove { mv, canonical: move_text::canonical(pos, mv), short: move_text::short(pos, &legal, mv) })
            .collect()
    })
}

/// The texts of the legal moves that start with `prefix`: a move's short text when it
/// matches, else its canonical text; without repeats. When nothing matches as typed, the
/// match ignores case, so that `p-4` finds `P-4e`.
pub fn candidates<'a>(moves: &'a [LegalMove], prefix: &str) -> Vec<&'a str> {
    let matching = |starts: &dyn Fn(&str) -> bool| {
        let mut found: Vec<&'a str> = Vec::new();
        for m in moves {
            let text = if starts(&m.short) {
                m.short.as_str()
            } else if starts(&m.canonical) {
                m.canonical.as_str()
            } else {
                continue;
            };
            if !found.contains(&text) {
                found.push(text);
            }
        }
        found
    };
    let exact = matching(&|text: &str| text.starts_with(prefix));
    if !exact.is_empty() {
        return exact;
    }
    let lower = prefix.to_lowercase();
    matching(&|text: &str| text.to_lowercase().starts_with(&lower))
}

/// The longest text every one of `texts` starts with.
pub fn common_prefix(texts: &[&str]) -> String {
    let Some((first, rest)) = texts.split_first() else { return String::new() };
    let mut length = first.len();
    for text in rest {
        length =
            first.chars().zip(text.chars()).take_while(|(a, b)| a == b).map(|(a, _)| a.len_utf8()).sum::<usize>().min(length);
    }
    first[..length].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use polyshogi::variant::Variant;

    #[test]
    fn candidates_start_with_the_typed_text_in_either_form() {
        let game = AnyGame::new(Variant::Sannin, &[] as &[&str]).unwrap();
        let moves = legal_moves(&game);
        assert_eq!(moves.len(), 48);
        let pawns = candidates(&moves, "P");
        assert!(!pawns.is_empty() && pawns.iter().all(|t| t.starts_with('P')));
        // The canonical form is offered where the short one does not match.
        assert_eq!(candidates(&moves, "P3c-4d"), vec!["P3c-4d"]);
        assert_eq!(candidates(&moves, "p3c-4d"), vec!["P3c-4d"]);
        assert!(candidates(&moves, "Q").is_empty());
        assert_eq!(common_prefix(&["P-4d", "P-4e", "P-4f"]), "P-4");
        assert_eq!(common_prefix(&["K-2h"]), "K-2h");
    }
}
