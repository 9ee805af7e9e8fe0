//! Perft counts frozen in tests/data/sannin.perft, and the 120° symmetry of the start.

use polyshogi::notation::move_text;
use polyshogi::perft::perft;
use polyshogi::variant::sannin::{Compulsory, SanninGame, SanninPosition, SanninRules, SanninSetup};
use polyshogi::{MoveList, Player};

fn game_after(options: &str, moves: &str) -> SanninGame {
    let mut rules = SanninRules::default();
    for option in options.split(';').map(str::trim).filter(|o| !o.is_empty()) {
        rules.set(option).unwrap();
    }
    let mut game = SanninGame::new(SanninPosition::start(rules));
    let mut legal = MoveList::new();
    for text in move_text::split_move_list(moves) {
        game.legal_moves(&mut legal);
        let m = move_text::parse(game.position(), &legal, &text).unwrap_or_else(|e| panic!("{e}"));
        game.play_unchecked(m);
    }
    game
}

#[test]
fn frozen_sannin_perft_counts_hold() {
    let data = include_str!("data/sannin.perft");
    let mut checked = 0;
    for line in data.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split(" | ").map(str::trim).collect();
        let [options, moves, depth, expected] = fields[..] else { panic!("bad line: {line}") };
        let mut game = game_after(options, moves);
        let count = perft(&mut game, depth.parse().unwrap());
        assert_eq!(count, expected.parse::<u64>().unwrap(), "{line}");
        checked += 1;
    }
    assert!(checked >= 10);
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
