//! Perft counts frozen in tests/data/<variant>.perft for every variant, and the 120° symmetry of
//! the Sannin start.

use polyshogi::notation::move_text;
use polyshogi::perft::perft;
use polyshogi::variant::sannin::{Compulsory, SanninGame, SanninPosition, SanninRules, SanninSetup};
use polyshogi::variant::{AnyGame, Variant};
use polyshogi::{with_game, MoveList, Player};

/// The game of `variant` after `moves` (canonical or short text) under `options`.
fn game_after(variant: Variant, options: &str, moves: &str) -> AnyGame {
    let options: Vec<&str> = options.split(';').map(str::trim).filter(|o| !o.is_empty()).collect();
    let mut game = AnyGame::new(variant, &options).unwrap_or_else(|e| panic!("{e}"));
    with_game!(&mut game, g => {
        let mut legal = MoveList::new();
        for text in move_text::split_move_list(moves) {
            g.legal_moves(&mut legal);
            let m = move_text::parse(g.position(), &legal, &text).unwrap_or_else(|e| panic!("{e}"));
            g.play_unchecked(m);
        }
    });
    game
}

/// Every line of `tests/data/<variant>.perft` holds, and there are at least `at_least` lines.
fn check_frozen_counts(variant: Variant, data: &str, at_least: usize) {
    let mut checked = 0;
    for line in data.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split(" | ").map(str::trim).collect();
        let [options, moves, depth, expected] = fields[..] else { panic!("bad line: {line}") };
        let mut game = game_after(variant, options, moves);
        let count = with_game!(&mut game, g => perft(g, depth.parse().unwrap()));
        assert_eq!(count, expected.parse::<u64>().unwrap(), "{} {line}", variant.name());
        checked += 1;
    }
    assert!(checked >= at_least, "{} has only {checked} frozen counts", variant.name());
}

#[test]
fn frozen_sannin_perft_counts_hold() {
    check_frozen_counts(Variant::Sannin, include_str!("data/sannin.perft"), 10);
}

#[test]
fn frozen_hexshogi91_perft_counts_hold() {
    check_frozen_counts(Variant::HexShogi91, include_str!("data/hexshogi91.perft"), 10);
}

#[test]
fn frozen_tphs91_perft_counts_hold() {
    check_frozen_counts(Variant::Tphs91, include_str!("data/tphs91.perft"), 10);
}

#[test]
fn frozen_sankaku_perft_counts_hold() {
    check_frozen_counts(Variant::Sankaku, include_str!("data/sankaku.perft"), 10);
}

/// The start array is the same for each player turned by 120°, so whoever moves first has
/// the same tree below him.
#[test]
fn start_perft_is_the_same_whichever_player_moves_first() {
    let rules = SanninRules { compulsory: Compulsory::Off, ..SanninRules::default() };
    let counts: Vec<Vec<u64>> = Player::ALL
        .iter()
        .map(|&first| {
            let setup = SanninSetup { to_move: first, ..SanninSetup::start(&rules) };
            let mut game = SanninGame::new(SanninPosition::from_setup(setup, rules).unwrap());
            (1..=3).map(|depth| perft(&mut game, depth)).collect()
        })
        .collect();
    assert_eq!(counts[0][0], 48);
    assert_eq!(counts[0], counts[1]);
    assert_eq!(counts[0], counts[2]);
}

/// Random games in which quiet moves are favoured, so that positions come back and the
/// repetition rules ban moves: at every position, perft's count (`legal_move_count`, which
/// counts without listing where it can) equals the number of moves `legal_moves` lists.
/// Returns how many positions had some move banned by the repetition rule.
fn counts_match_lists<P: polyshogi::Rules>(mut game: polyshogi::Game<P>, games: u64, plies: usize) -> usize {
    let start = game.clone();
    let mut banned_somewhere = 0;
    let mut legal = MoveList::new();
    let mut everything = MoveList::new();
    for seed in 0..games {
        let mut rng = polyshogi::splitmix::SplitMix::new(seed);
        game = start.clone();
        for _ in 0..plies {
            if game.position().decision_pending() {
                game.answer_pending(rng.below(2) == 0).unwrap();
                continue;
            }
            game.legal_moves(&mut legal);
            assert_eq!(game.legal_move_count(), legal.len(), "after {:?}", game.moves());
            game.position().legal_moves(&mut everything);
            if everything.len() != legal.len() {
                banned_somewhere += 1;
            }
            if legal.is_empty() {
                break;
            }
            let quiet: Vec<_> = legal.iter().copied().filter(|&m| !game.position().is_capture(m)).collect();
            let pool = if !quiet.is_empty() && rng.below(10) != 0 { &quiet[..] } else { &legal[..] };
            game.play_unchecked(pool[rng.below(pool.len())]);
        }
    }
    banned_somewhere
}

#[test]
fn counting_without_listing_agrees_with_the_list() {
    for variant in Variant::ALL {
        let game = AnyGame::new(variant, &[] as &[&str]).unwrap();
        let banned = with_game!(game, g => counts_match_lists(g, 20, 300));
        // Sankaku's super-ko bans moves in these shuffling games; the shogi rule only bans
        // the repeating player's own move, which random games meet more rarely.
        if variant == Variant::Sankaku {
            assert!(banned >= 20, "super-ko banned a move at only {banned} positions");
        }
    }
}
