//! The tool's own copy of one game, for `--from-ply`: it picks random legal moves that neither
//! end the game nor bring back an earlier position, so that a game lasts to any length.
//!
//! Random play ends a game in a few hundred moves (mate, threefold repetition, too long without a
//! capture); measuring the server at ply 2,000 needs games that do not. The server tells only the
//! legal moves and the outcome, not what a move would do, so the tool plays each game itself too.

use polyshogi::notation::move_text;
use polyshogi::variant::{AnyGame, Variant};
use polyshogi::{with_game, Game, Rules};
use polyshogi::{Move, MoveList};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

/// A game as the server plays it (the variant's default rules, as the tool creates its games),
/// kept in step by playing on it every move the tool sends.
#[derive(Debug, Clone)]
pub struct LastingGame {
    game: AnyGame,
}

impl LastingGame {
    /// A new game of the variant named `variant` under its default rules.
    pub fn new(variant: &str) -> Result<LastingGame, String> {
        let variant: Variant = variant.parse().map_err(|e| format!("{e}"))?;
        let game = AnyGame::new(variant, &[] as &[&str]).map_err(|e| format!("{e}"))?;
        Ok(LastingGame { game })
    }

    /// Moves played so far.
    pub fn plies(&self) -> usize {
        self.game.plies()
    }

    /// The game has an outcome (only when every legal move ended it).
    pub fn is_over(&self) -> bool {
        self.game.position().outcome().is_some()
    }

    /// Picks a random move that keeps the game going, plays it here, and answers its canonical
    /// text (the form of the server's legal moves); `None` when there is no legal move.
    pub fn play_lasting_move(&mut self, rng: &mut SmallRng) -> Option<String> {
        with_game!(&mut self.game, game => {
            let m = lasting_move(game, rng)?;
            let text = move_text::canonical(game.position(), m);
            game.play_unchecked(m);
            Some(text)
        })
    }
}

/// A random legal move that leaves the game without an outcome, in a position not seen before,
/// and the next player not in check; failing that, the one that misses the fewest of these, the
/// outcome first.
fn lasting_move<P: Rules>(game: &Game<P>, rng: &mut SmallRng) -> Option<Move> {
    let mut legal = MoveList::new();
    game.legal_moves(&mut legal);
    legal.shuffle(rng);
    let position = game.position();
    let now = position.repetition_key();
    // What a move misses, worst first, so that the smallest is the best.
    let misses = |m: Move| {
        // A position never seen before cannot make a repetition of any kind, so the threefold
        // draw never comes and superko rules never narrow the choice.
        let key = position.key_after(m);
        let seen = key == now || game.keys().contains(&key);
        let mut next = position.clone();
        next.play_unchecked(m);
        // A player in check may have only moves that mate back (it happened at ply 1,339 of a
        // game that checked freely): without checks, no one is left with only ending moves.
        (next.outcome().is_some(), seen, next.in_check(next.to_move()))
    };
    let mut best: Option<(Move, (bool, bool, bool))> = None;
    for &m in &legal {
        let missed = misses(m);
        if missed == (false, false, false) {
            return Some(m);
        }
        if best.is_none_or(|(_, fewest)| missed < fewest) {
            best = Some((m, missed));
        }
    }
    best.map(|(m, _)| m)
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;

    /// Random play ends a Hex Shogi 91 game in about 440 moves; this one goes to 2,000 and
    /// never repeats a position.
    #[test]
    fn a_lasting_game_of_hexshogi91_reaches_ply_2000() {
        let mut lasting = LastingGame::new("hexshogi91").unwrap();
        let mut rng = SmallRng::seed_from_u64(7);
        for _ in 0..2000 {
            assert!(lasting.play_lasting_move(&mut rng).is_some(), "no move at ply {}", lasting.plies());
            assert!(!lasting.is_over(), "the game ended at ply {}: {:?}", lasting.plies(), lasting.game.position().outcome());
        }
        assert_eq!(lasting.plies(), 2000);
        let AnyGame::HexShogi(game) = &lasting.game else { panic!("a Hex Shogi game") };
        let mut keys = game.keys().to_vec();
        keys.push(game.position().repetition_key());
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), 2001, "a position came back");
    }

    /// The texts are the server's: each parses back to the move played.
    #[test]
    fn the_move_texts_are_canonical() {
        let mut lasting = LastingGame::new("hexshogi91").unwrap();
        let mut rng = SmallRng::seed_from_u64(1);
        let start = lasting.clone();
        let text = lasting.play_lasting_move(&mut rng).unwrap();
        let AnyGame::HexShogi(game) = &start.game else { panic!("a Hex Shogi game") };
        let mut legal = MoveList::new();
        game.legal_moves(&mut legal);
        let m = move_text::parse(game.position(), &legal, &text).unwrap();
        let AnyGame::HexShogi(played) = &lasting.game else { panic!("a Hex Shogi game") };
        assert_eq!(played.moves(), [m]);
    }

    #[test]
    fn an_unknown_variant_is_refused() {
        assert!(LastingGame::new("chess").unwrap_err().contains("unknown variant"));
    }
}
