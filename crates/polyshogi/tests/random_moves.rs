//! `Game::random_legal_move`, the chooser of random playouts: along random games of every
//! variant it chooses only actions that `legal_moves` lists, repetition rules included, and
//! each of them about equally often.

use polyshogi::splitmix::SplitMix;
use polyshogi::variant::{AnyGame, Variant};
use polyshogi::{with_game, Game, Move, MoveList, Outcome, Rules};

/// Draws per listed action when the frequencies are tested.
const DRAWS_PER_ACTION: usize = 40;

/// Pearson's statistic of the draws against the uniform law over `moves`.
fn chi_square<P: Rules>(game: &Game<P>, moves: &[Move], rng: &mut SplitMix) -> f64 {
    let mut counts = vec![0usize; moves.len()];
    for _ in 0..DRAWS_PER_ACTION * moves.len() {
        let m = game.random_legal_move(rng).expect("a listed action exists");
        let index = moves.iter().position(|&listed| listed == m);
        let index = index.unwrap_or_else(|| panic!("chose {m:?}, which `legal_moves` does not list"));
        counts[index] += 1;
    }
    let expected = DRAWS_PER_ACTION as f64;
    counts.iter().map(|&c| (c as f64 - expected).powi(2) / expected).sum()
}

/// Plays `plies` random actions; at each position the choice is tested (every few plies, its
/// frequencies too: a chooser that favoured some pieces or drops fails by far).
fn check_random_game<P: Rules>(game: &mut Game<P>, rng: &mut SplitMix, plies: usize) {
    let mut moves = MoveList::new();
    for ply in 0..plies {
        if game.position().outcome().is_some() {
            assert_eq!(game.random_legal_move(rng), None, "a finished game has no action");
            return;
        }
        if game.position().decision_pending() {
            game.answer_pending(rng.below(2) == 0).expect("a decision is pending");
            continue;
        }
        moves.clear();
        game.legal_moves(&mut moves);
        let chosen = game.random_legal_move(rng).expect("a game that goes on has an action");
        assert!(moves.contains(&chosen), "chose {chosen:?}, which `legal_moves` does not list");
        if ply % 7 == 0 && moves.len() > 1 {
            // Pearson's statistic has mean df and standard deviation sqrt(2 df): six
            // deviations above is far beyond chance, yet far below what a bias gives.
            let df = (moves.len() - 1) as f64;
            let statistic = chi_square(game, &moves, rng);
            assert!(
                statistic < df + 6.0 * (2.0 * df).sqrt() + 10.0,
                "{:?} after {} actions: statistic {statistic:.0} for {df} degrees of freedom",
                game.position().variant(),
                game.moves().len()
            );
        }
        game.play_unchecked(chosen);
    }
}

#[test]
fn random_actions_are_listed_actions_chosen_uniformly() {
    let mut rng = SplitMix::new(0x5eed);
    for variant in Variant::ALL {
        for _ in 0..3 {
            let mut game = AnyGame::new::<&str>(variant, &[]).expect("the variant starts");
            with_game!(&mut game, g => check_random_game(g, &mut rng, 160));
        }
    }
}

/// The first game found, at most `plies` actions from `game`, in which the repetition rule
/// bans some action of the player to move.
fn with_banned_action<P: Rules>(game: &Game<P>, plies: usize) -> Option<Game<P>> {
    let (mut all, mut allowed) = (MoveList::new(), MoveList::new());
    game.position().legal_moves(&mut all);
    game.legal_moves(&mut allowed);
    if allowed.len() < all.len() {
        return Some(game.clone());
    }
    if plies == 0 {
        return None;
    }
    allowed.iter().find_map(|&m| {
        let mut next = game.clone();
        next.play_unchecked(m);
        with_banned_action(&next, plies - 1)
    })
}

/// Super-ko (Sankaku's default) bans a move into an earlier position: when the position's
/// chooser picks one, the game draws again among the allowed moves only.
#[test]
fn under_super_ko_a_banned_move_is_never_chosen() {
    let game = AnyGame::new::<&str>(Variant::Sankaku, &[]).expect("Sankaku starts");
    let AnyGame::Sankaku(game) = game else { unreachable!("a Sankaku game") };
    let game = with_banned_action(&game, 3).expect("a move and its way back make a position recur");
    let (mut all, mut allowed) = (MoveList::new(), MoveList::new());
    game.position().legal_moves(&mut all);
    game.legal_moves(&mut allowed);
    let mut rng = SplitMix::new(7);
    let mut chosen = vec![false; allowed.len()];
    for _ in 0..DRAWS_PER_ACTION * all.len() {
        let m = game.random_legal_move(&mut rng).expect("moves remain");
        let index = allowed.iter().position(|&a| a == m);
        chosen[index.unwrap_or_else(|| panic!("chose {m:?}, which super-ko bans"))] = true;
    }
    assert!(chosen.iter().all(|&c| c), "some allowed move was never chosen");
}

/// A random game to its end from where `game` stands: the actions and how it ended.
fn play_out<P: Rules>(game: &mut Game<P>, rng: &mut SplitMix) -> (Vec<Move>, Option<Outcome>) {
    while game.position().outcome().is_none() {
        if game.position().decision_pending() {
            game.answer_pending(rng.below(2) == 0).expect("a decision is pending");
            continue;
        }
        let m = game.random_legal_move(rng).expect("a game that goes on has an action");
        game.play_unchecked(m);
    }
    (game.moves().to_vec(), game.position().outcome())
}

/// `bench --playouts` takes one game back to its start after each random game instead of
/// starting a new one, keeping the room its history made: the game then plays exactly as a new
/// one would, its repetition counts (kept in a map past the first 64 positions) included.
#[test]
fn a_game_taken_back_to_its_start_plays_as_a_new_one() {
    let mut longest = 0;
    for variant in Variant::ALL {
        let start = AnyGame::new::<&str>(variant, &[]).expect("the variant starts");
        let mut reused = start.clone();
        for seed in 0..3 {
            reused.rewind_to(0).expect("a random game has no departure to stop a takeback");
            let mut fresh = start.clone();
            let again = with_game!(&mut reused, g => play_out(g, &mut SplitMix::new(seed)));
            let new = with_game!(&mut fresh, g => play_out(g, &mut SplitMix::new(seed)));
            longest = longest.max(new.0.len());
            assert_eq!(again, new, "{variant:?}, seed {seed}");
        }
    }
    assert!(longest > 64, "no game was long enough to fill the repetition map");
}
