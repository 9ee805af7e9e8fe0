//! Sankaku Shogi (RULES.md §3): frozen perft counts, the start array and its half-turn
//! symmetry, one test per rule on hand-built positions, and a slow reference move generator
//! written from RULES.md alone, cross-checked against the fast one on many positions.
//!
//! The reference knows cells only by their names (file letter, rank digit): it builds the
//! board of §3.1 from the rank widths and the triangle corners, the rays from the strip
//! formulas of §3.2 and the pieces from the text of §3.3. It uses none of the library's
//! tables, so a mistake in those cannot hide by being made twice.

use std::collections::{BTreeMap, BTreeSet};

use polyshogi::geometry::{Cell, TRI44};
use polyshogi::notation::{move_text, play_text};
use polyshogi::outcome::{DrawReason, Event, WinReason};
use polyshogi::perft::perft;
use polyshogi::rules::IllegalMove;
use polyshogi::variant::sankaku::{
    PositionError, SankakuGame, SankakuPiece, SankakuPosition, SankakuRole, SankakuRules, SankakuSetup,
};
use polyshogi::{ByPlayer, Move, MoveList, Outcome, Player, PlayerSet, Rules};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn cell(name: &str) -> Cell {
    TRI44.parse(name).unwrap_or_else(|e| panic!("{e}"))
}

/// Pieces of one player from text like `Ed1 Cc1 Hb2`.
fn pieces_of(player: Player, text: &str) -> Vec<(Cell, SankakuPiece)> {
    text.split_whitespace()
        .map(|token| {
            let role = SankakuRole::from_letter(token.chars().next().unwrap()).expect("a piece letter");
            (cell(&token[1..]), SankakuPiece { player, role })
        })
        .collect()
}

fn rules_with(options: &[&str]) -> SankakuRules {
    let mut rules = SankakuRules::default();
    for option in options {
        rules.set(option).unwrap();
    }
    rules
}

/// A position from both armies, Black to move.
fn position(black: &str, white: &str, options: &[&str]) -> SankakuPosition {
    let mut pieces = pieces_of(Player::First, black);
    pieces.extend(pieces_of(Player::Second, white));
    SankakuPosition::from_setup(SankakuSetup { pieces, to_move: Player::First }, rules_with(options))
        .unwrap_or_else(|e| panic!("{e}"))
}

fn legal(pos: &SankakuPosition) -> MoveList {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    moves
}

/// The destinations of the legal moves from `from`, sorted by name.
fn targets_from(pos: &SankakuPosition, from: &str) -> Vec<String> {
    let from = cell(from);
    let mut names: Vec<String> = legal(pos)
        .iter()
        .filter_map(|&m| match m {
            Move::Normal { from: f, to, .. } if f == from => Some(TRI44.name(to)),
            _ => None,
        })
        .collect();
    names.sort();
    names
}

fn mv(from: &str, to: &str) -> Move {
    Move::Normal { from: cell(from), to: cell(to), promote: false }
}

fn piece(pos: &SankakuPosition, name: &str) -> Option<(Player, SankakuRole)> {
    pos.piece_at(cell(name)).map(|p| (p.player, p.role))
}

// ---------------------------------------------------------------------------------------------
// Start array and perft
// ---------------------------------------------------------------------------------------------

#[test]
fn the_start_array_is_the_table_of_rules_3_4_with_its_orientations() {
    let table = [
        (Player::First, SankakuRole::Emperor, "d1^"),
        (Player::First, SankakuRole::Chariot, "c1v e1v"),
        (Player::First, SankakuRole::Cavalry, "b2v c2^ e2^ f2v"),
        (Player::First, SankakuRole::General, "d2v"),
        (Player::First, SankakuRole::Soldier, "b3^ c3v d3^ e3v f3^"),
        (Player::Second, SankakuRole::Emperor, "d8v"),
        (Player::Second, SankakuRole::Chariot, "c8^ e8^"),
        (Player::Second, SankakuRole::Cavalry, "b7^ c7v e7v f7^"),
        (Player::Second, SankakuRole::General, "d7^"),
        (Player::Second, SankakuRole::Soldier, "b6v c6^ d6v e6^ f6v"),
    ];
    let pos = SankakuPosition::start(SankakuRules::default());
    let mut expected = BTreeMap::new();
    for (player, role, cells) in table {
        for token in cells.split_whitespace() {
            let c = cell(&token[..2]);
            assert_eq!(TRI44.is_up(c), token.ends_with('^'), "{token}");
            expected.insert(c, SankakuPiece { player, role });
        }
    }
    let found: BTreeMap<Cell, SankakuPiece> = pos.occupied().map(|c| (c, pos.piece_at(c).unwrap())).collect();
    assert_eq!(found, expected);
    assert_eq!(pos.to_move(), Player::First);
    assert_eq!(pos.seat_name(Player::First), "Black");
    assert_eq!(pos.seat_name(Player::Second), "White");
    assert_eq!(pos.seats(), &[Player::First, Player::Second]);
}

#[test]
fn the_start_array_is_symmetric_under_the_half_turn() {
    let pos = SankakuPosition::start(SankakuRules::default());
    for c in TRI44.cells() {
        let turned = pos.piece_at(TRI44.half_turn(c));
        let expected = pos.piece_at(c).map(|p| SankakuPiece { player: other(p.player), ..p });
        assert_eq!(turned, expected, "{}", TRI44.name(c));
    }
}

/// RULES.md §3.4: 46 = Emperor 30 (18 empty cells + 12 enemy pieces; the White Emperor is
/// defended), Cavalry 12, Soldiers 4 (a3, c4, e4, g3); Chariots and General have no move.
#[test]
fn black_has_the_46_start_moves_of_rules_3_4() {
    let pos = SankakuPosition::start(SankakuRules::default());
    let moves = legal(&pos);
    assert_eq!(moves.len(), 46);
    let mut by_role: BTreeMap<SankakuRole, Vec<String>> = BTreeMap::new();
    for &m in &moves {
        let Move::Normal { from, to, promote } = m else { panic!("only board moves") };
        assert!(!promote);
        by_role.entry(pos.piece_at(from).unwrap().role).or_default().push(TRI44.name(to));
    }
    let emperor = &by_role[&SankakuRole::Emperor];
    assert_eq!(emperor.len(), 30);
    assert_eq!(emperor.iter().filter(|n| pos.piece_at(cell(n)).is_some()).count(), 12);
    assert!(!emperor.contains(&"d8".to_string()));
    assert_eq!(by_role[&SankakuRole::Cavalry].len(), 12);
    let mut soldiers = by_role[&SankakuRole::Soldier].clone();
    soldiers.sort();
    assert_eq!(soldiers, ["a3", "c4", "e4", "g3"]);
    assert!(!by_role.contains_key(&SankakuRole::Chariot));
    assert!(!by_role.contains_key(&SankakuRole::General));
}

#[test]
fn start_perft_is_the_same_whichever_side_moves_first() {
    let rules = SankakuRules::default();
    let white_first = SankakuSetup { to_move: Player::Second, ..SankakuSetup::start() };
    let mut black = SankakuGame::new(SankakuPosition::start(rules));
    let mut white = SankakuGame::new(SankakuPosition::from_setup(white_first, rules).unwrap());
    for depth in 1..=3 {
        assert_eq!(perft(&mut black, depth), perft(&mut white, depth), "depth {depth}");
    }
}

// ---------------------------------------------------------------------------------------------
// One rule at a time, on hand-built positions
// ---------------------------------------------------------------------------------------------

/// A Cavalry on d4 leaps to f4 b4 e3 c3 e5 c5. Off its friend on f4 it must leap once more:
/// to g3 (an enemy, taken), e3 and e5 (also reached directly: one move each), g5 (a friend:
/// no second relay, so not f6 beyond it) — and never back to d4, its start.
#[test]
fn cavalry_relays_once_off_a_friend_but_not_back_to_its_start() {
    let pos = position("Ea3 Hd4 Sf4 Sg5", "Ee8 Sg3", &[]);
    assert_eq!(targets_from(&pos, "d4"), ["b4", "c3", "c5", "e3", "e5", "g3"]);
    assert!(legal(&pos).iter().all(|m| !matches!(m, Move::Normal { from, to, .. } if from == to)));

    // Taking on the relay leap makes the Cavalry a General.
    let m = mv("d4", "g3");
    assert_eq!(move_text::canonical(&pos, m), "Hd4xg3");
    let mut after = pos.clone();
    after.play(m).unwrap();
    assert_eq!(piece(&after, "g3"), Some((Player::First, SankakuRole::General)));
    assert_eq!(piece(&after, "f4"), Some((Player::First, SankakuRole::Soldier)));
    assert_eq!(piece(&after, "d4"), None);
    assert_eq!(after.outcome(), None);
}

/// A Chariot on d4 with an enemy Soldier on d5, the first cell of its NE and NW rays: along
/// NE it runs the Soldier down and goes on to e5 or takes the Cavalry on e6 (two captures);
/// along NW it reaches c5 or takes the second Soldier on c6, which ends the slide — unless
/// `chariot_run_down_multiple` lets it run that one down too, on to b6 and b7.
#[test]
fn a_chariot_runs_a_soldier_down_and_then_captures() {
    let black = "Ea3 Cd4";
    let white = "Ee8 Sd5 He6 Sc6";
    let pos = position(black, white, &[]);
    let expected = ["a4", "b2", "b3", "b4", "c3", "c4", "c5", "c6", "d5", "e3", "e4", "e5", "e6", "f2", "f3", "f4", "g4"];
    assert_eq!(targets_from(&pos, "d4"), expected);
    let multiple = position(black, white, &["chariot_run_down_multiple=true"]);
    let mut more: Vec<&str> = expected.to_vec();
    more.extend(["b6", "b7"]);
    more.sort();
    assert_eq!(targets_from(&multiple, "d4"), more);

    // Two captures in one move; the Chariot stays a Chariot.
    let mut after = pos.clone();
    assert_eq!(move_text::canonical(&pos, mv("d4", "e6")), "Cd4xe6");
    after.play(mv("d4", "e6")).unwrap();
    assert_eq!(piece(&after, "e6"), Some((Player::First, SankakuRole::Chariot)));
    assert_eq!(piece(&after, "d5"), None);
    assert_eq!(after.pieces_of(Player::Second).count(), 2);

    // A run-down onto an empty cell is a capture, written with `x`.
    let moves = legal(&pos);
    assert!(pos.is_capture(mv("d4", "e5")));
    assert!(!pos.is_capture(mv("d4", "f4")));
    assert_eq!(move_text::canonical(&pos, mv("d4", "e5")), "Cd4xe5");
    assert_eq!(move_text::parse(&pos, &moves, "Cd4xe5"), Ok(mv("d4", "e5")));
    assert_eq!(move_text::parse(&pos, &moves, "Cxe5"), Ok(mv("d4", "e5")));
    let err = move_text::parse(&pos, &moves, "Cd4-e5").unwrap_err();
    assert!(err.to_string().contains("captures on its way"), "{err}");
    let mut after = pos.clone();
    after.play(mv("d4", "e5")).unwrap();
    assert_eq!(piece(&after, "d5"), None);
    assert_eq!(piece(&after, "e5"), Some((Player::First, SankakuRole::Chariot)));
}

/// A Soldier on d4 (sides c4 e4 d5): it cannot take the Chariot beside it on e4, nor the one
/// on c5 though the way (d5) is open; it takes the General on c3 through the empty c4 and
/// becomes a General; the Soldier on e3 is out of reach because e4 is occupied; the General
/// on d5 falls to a plain step unless `soldier_step_captures` is off.
#[test]
fn a_soldier_never_takes_a_chariot() {
    let black = "Ea3 Sd4";
    let white = "Ee8 Ce4 Cc5 Gc3 Se3 Gd5";
    let pos = position(black, white, &[]);
    assert_eq!(targets_from(&pos, "d4"), ["c3", "c4", "d5"]);
    let no_step_capture = position(black, white, &["soldier_step_captures=off"]);
    assert_eq!(targets_from(&no_step_capture, "d4"), ["c3", "c4"]);

    let mut after = pos.clone();
    after.play(mv("d4", "c3")).unwrap();
    assert_eq!(piece(&after, "c3"), Some((Player::First, SankakuRole::General)));
    // From now on it moves, and reads, as a General.
    let mut game = SankakuGame::new(after);
    game.play(mv("e8", "e7")).unwrap();
    let moves = legal(game.position());
    let texts: Vec<String> = moves.iter().map(|&m| move_text::canonical(game.position(), m)).collect();
    assert!(texts.contains(&"Gc3xe4".to_string()), "{texts:?}");
}

/// The White Emperor on d5 is defended by the General on d6, so Black's Emperor may not take
/// it; Black's General on d4 may, and wins.
#[test]
fn the_emperor_may_not_take_a_defended_emperor_but_another_piece_may() {
    let pos = position("Ea3 Gd4", "Ed5 Gd6", &[]);
    assert!(!targets_from(&pos, "a3").contains(&"d5".to_string()));
    assert!(targets_from(&pos, "a3").contains(&"d6".to_string()));
    assert!(targets_from(&pos, "d4").contains(&"d5".to_string()));
    let mut game = SankakuGame::new(pos);
    assert_eq!(game.play(mv("a3", "d5")), Err(IllegalMove::NotLegal));
    let events = game.play(mv("d4", "d5")).unwrap();
    let outcome = Outcome::Win { winner: Player::First, reason: WinReason::EmperorCaptured };
    assert_eq!(game.position().outcome(), Some(outcome));
    assert_eq!(events.as_slice(), [Event::GameOver { outcome, placings: ByPlayer([1, 2, 0]) }]);
    assert_eq!(game.play(mv("d5", "d6")), Err(IllegalMove::GameOver));
    assert!(legal(game.position()).is_empty());

    // Undefended, the Emperor falls to the Emperor.
    let pos = position("Ea3 Gd4", "Ed5", &[]);
    assert!(targets_from(&pos, "a3").contains(&"d5".to_string()));
}

/// §3.3 [DEF]: "defended" is judged after the capture, with every kind of move.
#[test]
fn defence_of_an_emperor_counts_every_move_after_the_capture() {
    // (Black, White, options, Black Emperor's cell, White Emperor's cell, defended)
    let cases: [(&str, &str, &[&str], bool, &str); 9] = [
        // The Chariot on g4 sees b4 only once the capturing Emperor has left d4.
        ("Ed4", "Eb4 Cg4", &[], true, "origin emptied"),
        ("Ea6 Gd4", "Eb4 Cg4", &[], false, "Chariot blocked"),
        ("Ea6 Sd4", "Eb4 Cg4", &[], true, "Chariot runs a Soldier down"),
        ("Ea6 Sd4 Se4", "Eb4 Cg4", &[], false, "two Soldiers in the way"),
        ("Ea6 Sd4 Se4", "Eb4 Cg4", &["chariot_run_down_multiple=true"], true, "both run down"),
        // A Cavalry relays off the Soldier on f4; the Soldier's own capture is blocked on e4.
        ("Ea6 Ge4", "Ed4 Sf4 Hg5", &[], true, "Cavalry relay"),
        ("Ea6 Ge4", "Ed4 Hg5", &[], false, "no friend to relay off"),
        ("Ea6", "Ed4 Sf4", &[], true, "Soldier second-orthogonal capture"),
        ("Ea6 Ge4", "Ed4 Sf4", &[], false, "Soldier's way blocked"),
    ];
    for (black, white, options, defended, why) in cases {
        let pos = position(black, white, options);
        let emperor = TRI44.name(pos.emperor(Player::First).unwrap());
        let target = TRI44.name(pos.emperor(Player::Second).unwrap());
        assert_eq!(!targets_from(&pos, &emperor).contains(&target), defended, "{why}");
        assert_eq!(reference::emperor_may_take(&ref_pos(&pos)), !defended, "reference: {why}");
    }
}

/// Super-ko (§3.5 default): a move may not recreate an earlier position. After
/// Ea3-a4 Eg6-g5 Ea4-a3, White may not play Eg5-g6, which would restore the start.
#[test]
fn super_ko_refuses_a_move_that_recreates_a_position() {
    let moves = [mv("a3", "a4"), mv("g6", "g5"), mv("a4", "a3")];
    let back = mv("g5", "g6");
    for (option, allowed) in [("repetition=superko", false), ("repetition=off", true), ("repetition=threefold_draw", true)] {
        let mut game = SankakuGame::new(position("Ea3 Gb2", "Eg6 Gf7", &[option]));
        for m in moves {
            game.play(m).unwrap();
        }
        let mut legal = MoveList::new();
        game.legal_moves(&mut legal);
        assert_eq!(legal.contains(&back), allowed, "{option}");
        assert!(legal.len() > 30);
        // Written as text, the refused move names the rule that refuses it.
        let text = move_text::canonical(game.position(), back);
        let played = play_text::play_token(&mut game.clone(), &text);
        match allowed {
            true => assert!(played.is_ok(), "{option}: {played:?}"),
            false => assert_eq!(
                played.unwrap_err().to_string(),
                format!("`{text}` is not legal: it repeats an earlier position (no position may come back)")
            ),
        }
        assert_eq!(game.play(back).is_ok(), allowed, "{option}");
    }
}

/// Perft counts super-ko's moves without listing them, by finding first the few quiet moves
/// that would bring an earlier position back. A Chariot's slide that runs a Soldier down onto
/// the cell it stood on in an earlier position, all else alike, looks like one of them, but
/// it captures, so it is legal: the count must agree with the list. Without the Soldier the
/// same slide is quiet, recreates that position, and is refused.
#[test]
fn super_ko_counts_a_run_down_back_onto_an_earlier_cell_as_fresh() {
    for (white, run_down) in [("Ee8 Sd5", true), ("Ee8", false)] {
        let mut pieces = pieces_of(Player::First, "Ea3 Ce5");
        pieces.extend(pieces_of(Player::Second, white));
        let start = SankakuPosition::from_setup(SankakuSetup { pieces, to_move: Player::Second }, SankakuRules::default());
        let mut game = SankakuGame::new(start.unwrap());
        // The Chariot goes round to d4 by f4 while White's Emperor goes round in three jumps:
        // Black is to move in the start position with the Chariot on d4 instead of e5.
        for m in [mv("e8", "g6"), mv("e5", "f4"), mv("g6", "f7"), mv("f4", "d4"), mv("f7", "e8")] {
            game.play(m).unwrap();
        }
        let back = mv("d4", "e5");
        assert_eq!(game.position().is_capture(back), run_down);
        let mut moves = MoveList::new();
        game.legal_moves(&mut moves);
        assert_eq!(moves.contains(&back), run_down, "{white}");
        assert_eq!(game.legal_move_count(), moves.len(), "{white}");
        assert_eq!(perft(&mut game, 1), moves.len() as u64);
    }
}

#[test]
fn threefold_repetition_draws_under_that_option() {
    let mut game = SankakuGame::new(position("Ea3 Gb2", "Eg6 Gf7", &["repetition=threefold_draw"]));
    let cycle = [mv("a3", "a4"), mv("g6", "g5"), mv("a4", "a3"), mv("g5", "g6")];
    let mut last = Vec::new();
    for m in cycle.iter().chain(&cycle) {
        assert_eq!(game.position().outcome(), None);
        last = game.play(*m).unwrap().to_vec();
    }
    let outcome = Outcome::Draw { players: PlayerSet::of(&[Player::First, Player::Second]), reason: DrawReason::Repetition };
    assert_eq!(game.position().outcome(), Some(outcome));
    assert_eq!(last, [Event::GameOver { outcome, placings: ByPlayer([1, 1, 0]) }]);
}

/// §3.5 [DEF] makes a player without a legal move lose. No position can come to that: the
/// Emperor may always take an enemy piece (a defended Emperor has a defender to take, an
/// Emperor alone is undefended), and that capture recreates nothing, because every earlier
/// position had more pieces. So under super-ko, on long games that shuffle pieces back and
/// forth, the mover always keeps a move — and super-ko does refuse moves along the way.
#[test]
fn super_ko_never_leaves_a_player_without_a_move() {
    let mut refused = 0;
    for seed in 1..=40u64 {
        let mut rng = Rng(seed * 7919);
        let mut game = SankakuGame::new(SankakuPosition::start(SankakuRules::default()));
        let mut history: BTreeSet<String> = BTreeSet::new();
        history.insert(ref_pos(game.position()).key());
        for _ in 0..200 {
            let pos = game.position().clone();
            if pos.outcome().is_some() {
                break;
            }
            let r = ref_pos(&pos);
            let reference: BTreeMap<(String, String), reference::RefMove> = r.legal_moves();
            let fresh: BTreeSet<(String, String)> =
                reference.iter().filter(|(_, m)| !history.contains(&r.after(m).key())).map(|(k, _)| k.clone()).collect();
            refused += reference.len() - fresh.len();
            let mut moves = MoveList::new();
            game.legal_moves(&mut moves);
            assert_eq!(move_names(&moves), fresh, "{pos:?}");
            assert!(!moves.is_empty());
            assert!(reference.values().any(|m| !m.captured.is_empty()), "no capture in {pos:?}");
            // Mostly quiet moves onto files a and b, so that positions recur.
            let quiet: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| !pos.is_capture(m) && matches!(m, Move::Normal { to, .. } if TRI44.name(to).as_str() < "c"))
                .collect();
            let m = if !quiet.is_empty() && rng.below(10) < 9 {
                quiet[rng.below(quiet.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            game.play(m).unwrap();
            history.insert(ref_pos(game.position()).key());
        }
    }
    println!("{refused} moves refused by super-ko");
    assert!(refused > 100, "only {refused} moves refused by super-ko");
}

#[test]
fn setups_that_cannot_be_positions_are_refused() {
    let rules = SankakuRules::default();
    let build = |black: &str, white: &str| {
        let mut pieces = pieces_of(Player::First, black);
        pieces.extend(pieces_of(Player::Second, white));
        SankakuPosition::from_setup(SankakuSetup { pieces, to_move: Player::First }, rules)
    };
    assert!(build("Ea3", "Eg6").is_ok());
    assert_eq!(build("Ea3 Eb3", "Eg6").unwrap_err(), PositionError::EmperorCount { player: Player::First, emperors: 2 });
    assert_eq!(build("Ca3", "Eg6").unwrap_err(), PositionError::EmperorCount { player: Player::First, emperors: 0 });
    assert_eq!(build("Ea3", "Eg6 Sa3").unwrap_err(), PositionError::TwoPiecesOnOneCell(cell("a3")));
    let err = build("Ea3 Cb3 Cc3 Cd3", "Eg6").unwrap_err();
    assert_eq!(err, PositionError::TooManyPieces { player: Player::First, role: SankakuRole::Chariot, count: 3 });
    // Ten Generals are possible only with no Soldier or Cavalry left.
    assert!(build("Ea3 Gb3 Gc3 Gd3 Ge3 Gf3 Gg3 Gb2 Gc2 Gd2 Ge2", "Eg6").is_ok());
    let err = build("Ea3 Gb3 Gc3 Gd3 Ge3 Gf3 Gg3 Gb2 Gc2 Gd2 Ge2 Sa4", "Eg6").unwrap_err();
    assert_eq!(err, PositionError::TooManyGenerals { player: Player::First, count: 10, most: 9 });
    assert!(err.to_string().contains("Black has 10 Generals"), "{err}");
    let setup = SankakuSetup { pieces: pieces_of(Player::First, "Ea3"), to_move: Player::Third };
    assert_eq!(SankakuPosition::from_setup(setup, rules).unwrap_err(), PositionError::NotASeat(Player::Third));
    let mut pieces = pieces_of(Player::First, "Ea3");
    pieces.extend(pieces_of(Player::Second, "Eg6"));
    pieces.extend(pieces_of(Player::Third, "Ed4"));
    let setup = SankakuSetup { pieces, to_move: Player::First };
    assert_eq!(SankakuPosition::from_setup(setup, rules).unwrap_err(), PositionError::NotASeat(Player::Third));
}

#[test]
fn resignation_and_agreed_draws_end_the_game() {
    let mut pos = SankakuPosition::start(SankakuRules::default());
    assert!(pos.draw_by_agreement_allowed());
    let events = Rules::resign(&mut pos, Player::First).unwrap();
    let outcome = Outcome::Win { winner: Player::Second, reason: WinReason::LastStanding };
    assert_eq!(
        events.as_slice(),
        [Event::Resigned { player: Player::First }, Event::GameOver { outcome, placings: ByPlayer([2, 1, 0]) }]
    );
    assert_eq!(Rules::resign(&mut pos, Player::Second), Err(IllegalMove::GameOver));
    assert!(!pos.draw_by_agreement_allowed());

    let mut pos = SankakuPosition::start(SankakuRules::default());
    assert_eq!(Rules::resign(&mut pos, Player::Third), Err(IllegalMove::NotLegal));
    Rules::agree_draw(&mut pos).unwrap();
    let players = PlayerSet::of(&[Player::First, Player::Second]);
    assert_eq!(pos.outcome(), Some(Outcome::Draw { players, reason: DrawReason::Agreement }));
}

#[test]
fn the_layout_draws_44_triangles_with_black_at_the_bottom() {
    let layout = SankakuPosition::start(SankakuRules::default()).layout();
    assert_eq!(layout.cells.len(), 44);
    let up = layout.cells.iter().filter(|c| c.shape == polyshogi::layout::CellShape::TriangleUp).count();
    assert_eq!(up, 22);
    let y = |name: &str| layout.cells.iter().find(|c| c.name == name).unwrap().y;
    assert!(y("d1") > y("d4") && y("d4") > y("d8"));
    assert_eq!(layout.seat_rotation, [0, 180]);
}

#[test]
fn every_start_move_reads_back_from_its_canonical_and_short_text() {
    let pos = SankakuPosition::start(SankakuRules::default());
    let moves = legal(&pos);
    for &m in &moves {
        let canonical = move_text::canonical(&pos, m);
        assert_eq!(move_text::parse(&pos, &moves, &canonical), Ok(m), "{canonical}");
        let short = move_text::short(&pos, &moves, m);
        assert_eq!(move_text::parse(&pos, &moves, &short), Ok(m), "{short}");
    }
    assert_eq!(move_text::canonical(&pos, mv("b3", "a3")), "Sb3-a3");
    assert_eq!(move_text::canonical(&pos, mv("d1", "d7")), "Ed1xd7");
    let err = move_text::parse(&pos, &moves, "Sb3-a9").unwrap_err();
    assert!(matches!(err, move_text::MoveTextError::Cell { column: 5, .. }), "{err:?}");
}

// ---------------------------------------------------------------------------------------------
// The reference generator
// ---------------------------------------------------------------------------------------------

mod reference {
    use super::*;

    /// A cell as (file, rank): file a = 0 … g = 6, rank 1 … 8 (§3.1).
    pub type Sq = (i32, i32);

    /// §3.1: the 7-cell ranks 3–6 use files a–g, the 5-cell ranks 2 and 7 files b–f, the
    /// 3-cell ranks 1 and 8 files c–e.
    pub fn on_board((f, r): Sq) -> bool {
        let files = match r {
            1 | 8 => 2..=4,
            2 | 7 => 1..=5,
            3..=6 => 0..=6,
            _ => return false,
        };
        files.contains(&f)
    }

    pub fn squares() -> Vec<Sq> {
        (1..=8).flat_map(|r| (0..=6).map(move |f| (f, r))).filter(|&sq| on_board(sq)).collect()
    }

    pub fn name((f, r): Sq) -> String {
        format!("{}{r}", (b'a' + f as u8) as char)
    }

    pub fn parse(name: &str) -> Sq {
        let b = name.as_bytes();
        ((b[0] - b'a') as i32, (b[1] - b'0') as i32)
    }

    /// §3.1: up (apex up) iff file + rank is even.
    pub fn is_up((f, r): Sq) -> bool {
        (f + r) % 2 == 0
    }

    /// §3.1: corners in (half-side, rank-line) units.
    fn corners(sq: Sq) -> [(i32, i32); 3] {
        let (f, r) = sq;
        if is_up(sq) {
            [(f, r - 1), (f + 2, r - 1), (f + 1, r)]
        } else {
            [(f, r), (f + 2, r), (f + 1, r - 1)]
        }
    }

    fn shared_corners(a: Sq, b: Sq) -> usize {
        corners(a).iter().filter(|p| corners(b).contains(p)).count()
    }

    /// Side neighbours share a whole side (two corners); adjacent cells share a corner.
    pub fn sides(sq: Sq) -> Vec<Sq> {
        squares().into_iter().filter(|&o| o != sq && shared_corners(sq, o) == 2).collect()
    }

    pub fn adjacent(sq: Sq) -> Vec<Sq> {
        squares().into_iter().filter(|&o| o != sq && shared_corners(sq, o) >= 1).collect()
    }

    /// Height of a triangle's centre in thirds of a rank: strips are ordered by it.
    fn height(sq: Sq) -> i32 {
        3 * sq.1 - if is_up(sq) { 2 } else { 1 }
    }

    /// §3.2: the three strips through a cell — its rank, the rising strip (up cells with
    /// f − r = k and down cells with f − r = k + 1) and the falling strip (up cells with
    /// f + r = k and down cells with f + r = k − 1) — each walked both ways from the cell,
    /// nearest first, stopping where the strip leaves the board (consecutive cells share a
    /// side). Six rays.
    pub fn rays(sq: Sq) -> Vec<Vec<Sq>> {
        let rising = |s: Sq| if is_up(s) { s.0 - s.1 } else { s.0 - s.1 - 1 };
        let falling = |s: Sq| if is_up(s) { s.0 + s.1 } else { s.0 + s.1 + 1 };
        let strips: [Vec<Sq>; 3] = [
            squares().into_iter().filter(|s| s.1 == sq.1).collect(),
            squares().into_iter().filter(|&s| rising(s) == rising(sq)).collect(),
            squares().into_iter().filter(|&s| falling(s) == falling(sq)).collect(),
        ];
        let mut rays = Vec::new();
        for (i, strip) in strips.into_iter().enumerate() {
            // The rank is ordered left to right; the slanted strips bottom to top.
            let key = |s: &Sq| if i == 0 { s.0 } else { height(*s) };
            let mut after: Vec<Sq> = strip.iter().copied().filter(|s| key(s) > key(&sq)).collect();
            let mut before: Vec<Sq> = strip.iter().copied().filter(|s| key(s) < key(&sq)).collect();
            after.sort_by_key(key);
            before.sort_by_key(|s| -key(s));
            for side in [after, before] {
                let mut ray = Vec::new();
                let mut cur = sq;
                for next in side {
                    if shared_corners(cur, next) != 2 {
                        break;
                    }
                    ray.push(next);
                    cur = next;
                }
                rays.push(ray);
            }
        }
        rays
    }

    /// (second cell, first cell) of each ray that has two cells.
    pub fn second_orthogonals(sq: Sq) -> Vec<(Sq, Sq)> {
        rays(sq).into_iter().filter(|ray| ray.len() >= 2).map(|ray| (ray[1], ray[0])).collect()
    }

    pub type Role = SankakuRole;

    #[derive(Clone, PartialEq, Eq, Debug)]
    pub struct RefMove {
        pub from: Sq,
        pub to: Sq,
        /// Every enemy piece removed (the destination's and any run down on the way).
        pub captured: BTreeSet<Sq>,
        /// Reached only by a Cavalry relay.
        pub relay_only: bool,
        pub run_downs: usize,
    }

    #[derive(Clone, PartialEq, Eq, Debug)]
    pub struct RefPos {
        pub board: BTreeMap<Sq, (Player, Role)>,
        pub to_move: Player,
        pub soldier_step_captures: bool,
        pub run_down_multiple: bool,
        pub winner: Option<Player>,
    }

    fn enemy_of(p: Player) -> Player {
        if p == Player::First {
            Player::Second
        } else {
            Player::First
        }
    }

    impl RefPos {
        /// A text equal for equal boards and sides to move (the super-ko position).
        pub fn key(&self) -> String {
            let mut text: String = self
                .board
                .iter()
                .map(|(&sq, &(p, r))| format!("{}{}{} ", if p == Player::First { 'B' } else { 'W' }, r.letter(), name(sq)))
                .collect();
            text.push(if self.to_move == Player::First { 'b' } else { 'w' });
            text
        }

        fn is(&self, sq: Sq, player: Player) -> bool {
            self.board.get(&sq).is_some_and(|&(p, _)| p == player)
        }

        fn role(&self, sq: Sq) -> Option<Role> {
            self.board.get(&sq).map(|&(_, r)| r)
        }

        /// Every move of the player to move, keyed by (origin, destination) names: §3.3 piece
        /// by piece. Two ways to one destination must capture the same pieces.
        pub fn legal_moves(&self) -> BTreeMap<(String, String), RefMove> {
            let me = self.to_move;
            let them = enemy_of(me);
            let mut found: Vec<RefMove> = Vec::new();
            if self.winner.is_some() {
                return BTreeMap::new();
            }
            let plain = |from: Sq, to: Sq| RefMove {
                from,
                to,
                captured: if self.is(to, them) { BTreeSet::from([to]) } else { BTreeSet::new() },
                relay_only: false,
                run_downs: 0,
            };
            let open = |sq: Sq| !self.is(sq, me);
            for (&from, &(owner, role)) in &self.board {
                if owner != me {
                    continue;
                }
                match role {
                    Role::Soldier => {
                        // Steps to a side neighbour (capturing by default), captures only on a
                        // second-orthogonal cell through an empty first cell; never a Chariot.
                        let prey = |sq: Sq| self.is(sq, them) && self.role(sq) != Some(Role::Chariot);
                        for to in sides(from) {
                            if !self.board.contains_key(&to) || (self.soldier_step_captures && prey(to)) {
                                found.push(plain(from, to));
                            }
                        }
                        for (to, via) in second_orthogonals(from) {
                            if prey(to) && !self.board.contains_key(&via) {
                                found.push(plain(from, to));
                            }
                        }
                    }
                    Role::Cavalry => {
                        for (to, _) in second_orthogonals(from) {
                            if open(to) {
                                found.push(plain(from, to));
                            } else {
                                // Onto a friend: exactly one more leap, not back to the start.
                                for (next, _) in second_orthogonals(to) {
                                    if next != from && open(next) {
                                        found.push(RefMove { relay_only: true, ..plain(from, next) });
                                    }
                                }
                            }
                        }
                    }
                    Role::Chariot => {
                        for ray in rays(from) {
                            let mut captured = BTreeSet::new();
                            let mut run_downs = 0;
                            for &to in &ray {
                                match self.board.get(&to) {
                                    None => found.push(RefMove { captured: captured.clone(), run_downs, ..plain(from, to) }),
                                    Some(&(p, _)) if p == me => break,
                                    Some(&(_, r)) => {
                                        let mut with = captured.clone();
                                        with.insert(to);
                                        found.push(RefMove { captured: with.clone(), run_downs, ..plain(from, to) });
                                        let may_run_down = run_downs == 0 || self.run_down_multiple;
                                        if r == Role::Soldier && may_run_down {
                                            captured = with;
                                            run_downs += 1;
                                            continue;
                                        }
                                        break;
                                    }
                                }
                            }
                        }
                    }
                    Role::General => {
                        for to in adjacent(from) {
                            if open(to) {
                                found.push(plain(from, to));
                            }
                        }
                    }
                    Role::Emperor => {
                        for to in squares() {
                            if to == from || !open(to) {
                                continue;
                            }
                            if self.role(to) == Some(Role::Emperor) && self.defended(from, to) {
                                continue;
                            }
                            found.push(plain(from, to));
                        }
                    }
                }
            }
            let mut moves: BTreeMap<(String, String), RefMove> = BTreeMap::new();
            for m in found {
                let key = (name(m.from), name(m.to));
                match moves.get_mut(&key) {
                    Some(old) => {
                        assert_eq!(old.captured, m.captured, "two ways to {key:?} capture differently");
                        old.relay_only &= m.relay_only;
                    }
                    None => {
                        moves.insert(key, m);
                    }
                }
            }
            moves
        }

        /// §3.3 [DEF]: the enemy Emperor on `target` is defended if, after the mover's
        /// Emperor took it from `from`, some enemy piece could capture on `target`.
        fn defended(&self, from: Sq, target: Sq) -> bool {
            let mut after = self.clone();
            let emperor = after.board.remove(&from).unwrap();
            after.board.insert(target, emperor);
            after.to_move = enemy_of(self.to_move);
            after.legal_moves().values().any(|m| m.to == target)
        }

        /// The position after a move: captures removed, a capturing Soldier or Cavalry
        /// promoted to General, the turn passed; taking the Emperor wins.
        pub fn after(&self, m: &RefMove) -> RefPos {
            let mut next = self.clone();
            for sq in &m.captured {
                if next.board.remove(sq).is_some_and(|(_, r)| r == Role::Emperor) {
                    next.winner = Some(self.to_move);
                }
            }
            let (owner, mut role) = next.board.remove(&m.from).unwrap();
            if !m.captured.is_empty() && matches!(role, Role::Soldier | Role::Cavalry) {
                role = Role::General;
            }
            next.board.insert(m.to, (owner, role));
            next.to_move = enemy_of(self.to_move);
            next
        }
    }

    /// Whether the mover's Emperor may take the enemy Emperor.
    pub fn emperor_may_take(pos: &RefPos) -> bool {
        let target = pos.board.iter().find(|(_, &(p, r))| p != pos.to_move && r == Role::Emperor).map(|(&sq, _)| sq).unwrap();
        let emperor = pos.board.iter().find(|(_, &(p, r))| p == pos.to_move && r == Role::Emperor).map(|(&sq, _)| sq).unwrap();
        pos.legal_moves().contains_key(&(name(emperor), name(target)))
    }
}

use reference::RefPos;

fn other(p: Player) -> Player {
    if p == Player::First {
        Player::Second
    } else {
        Player::First
    }
}

fn ref_pos(pos: &SankakuPosition) -> RefPos {
    RefPos {
        board: pos
            .occupied()
            .map(|c| {
                let p = pos.piece_at(c).unwrap();
                (reference::parse(&TRI44.name(c)), (p.player, p.role))
            })
            .collect(),
        to_move: pos.to_move(),
        soldier_step_captures: pos.rules().soldier_step_captures,
        run_down_multiple: pos.rules().chariot_run_down_multiple,
        winner: match pos.outcome() {
            Some(Outcome::Win { winner, .. }) => Some(winner),
            _ => None,
        },
    }
}

fn move_names(moves: &[Move]) -> BTreeSet<(String, String)> {
    moves
        .iter()
        .map(|&m| match m {
            Move::Normal { from, to, promote: false } => (TRI44.name(from), TRI44.name(to)),
            other => panic!("not a Sankaku move: {other:?}"),
        })
        .collect()
}

fn library_move(key: &(String, String)) -> Move {
    mv(&key.0, &key.1)
}

/// xorshift64*: a small deterministic generator for the random positions.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn the_reference_board_matches_rules_3_1_and_3_2() {
    use reference::*;
    assert_eq!(squares().len(), 44);
    let d4 = parse("d4");
    let rays: Vec<Vec<String>> = rays(d4).iter().map(|ray| ray.iter().map(|&s| name(s)).collect()).collect();
    for expected in ["e4 f4 g4", "c4 b4 a4", "d5 e5 e6 f6 f7", "c4 c3 b3 b2", "d5 c5 c6 b6 b7", "e4 e3 f3 f2"] {
        let expected: Vec<String> = expected.split(' ').map(String::from).collect();
        assert!(rays.contains(&expected), "{expected:?} not among {rays:?}");
    }
    let counts: Vec<usize> = squares().into_iter().map(|s| adjacent(s).len()).collect();
    assert_eq!((counts.iter().min(), counts.iter().max()), (Some(&5), Some(&12)));
    assert!(squares().into_iter().all(|s| sides(s).len() <= 3));
}

/// Coverage of the rarer rules over all cross-checked positions.
#[derive(Default, Debug)]
struct Seen {
    positions: usize,
    moves: usize,
    relays: usize,
    relay_captures: usize,
    run_downs: usize,
    run_down_then_capture: usize,
    multiple_run_downs: usize,
    promotions: usize,
    emperor_refusals: usize,
    soldier_chariot_refusals: usize,
}

/// Compares the fast generator with the reference on one position, and every move's result.
fn cross_check(pos: &SankakuPosition, seen: &mut Seen) {
    let r = ref_pos(pos);
    let reference = r.legal_moves();
    let moves = legal(pos);
    let fast = move_names(&moves);
    assert_eq!(fast.len(), moves.len(), "the fast generator lists a move twice in {pos:?}");
    let expected: BTreeSet<(String, String)> = reference.keys().cloned().collect();
    if fast != expected {
        let missing: Vec<_> = expected.difference(&fast).collect();
        let extra: Vec<_> = fast.difference(&expected).collect();
        panic!("{pos:?}\nmissing {missing:?}\nextra {extra:?}");
    }
    let mut captures = MoveList::new();
    pos.legal_captures(&mut captures);
    let expected_captures: Vec<Move> = moves.iter().copied().filter(|&m| pos.is_capture(m)).collect();
    assert_eq!(captures.as_slice(), expected_captures.as_slice(), "the captures, in the list's order, in {pos:?}");
    seen.positions += 1;
    seen.moves += moves.len();
    for (key, m) in &reference {
        let lib = library_move(key);
        assert_eq!(pos.is_capture(lib), !m.captured.is_empty(), "{key:?} in {pos:?}");
        let mut after = pos.clone();
        let key_after = pos.key_after(lib);
        after.play_unchecked(lib);
        assert_eq!(after.repetition_key(), key_after, "{key:?} in {pos:?}");
        let expected = r.after(m);
        assert_eq!(ref_pos(&after), expected, "after {key:?} in {pos:?}");
        assert_eq!(after.repetition_key(), after.recomputed_key());
        if let Some(winner) = expected.winner {
            let outcome = Outcome::Win { winner, reason: WinReason::EmperorCaptured };
            assert_eq!(after.outcome(), Some(outcome));
        }
        seen.relays += m.relay_only as usize;
        seen.relay_captures += (m.relay_only && !m.captured.is_empty()) as usize;
        seen.run_downs += (m.run_downs > 0) as usize;
        seen.run_down_then_capture += (m.run_downs > 0 && m.captured.len() > m.run_downs) as usize;
        seen.multiple_run_downs += (m.run_downs > 1) as usize;
        let role = r.board[&m.from].1;
        seen.promotions += (!m.captured.is_empty() && matches!(role, SankakuRole::Soldier | SankakuRole::Cavalry)) as usize;
    }
    // The Emperor refused a defended Emperor.
    let emperor = r.board.iter().find(|(_, &(p, role))| p == r.to_move && role == SankakuRole::Emperor);
    let target = r.board.iter().find(|(_, &(p, role))| p != r.to_move && role == SankakuRole::Emperor);
    if let (Some((&e, _)), Some((&t, _))) = (emperor, target) {
        seen.emperor_refusals += !reference.contains_key(&(reference::name(e), reference::name(t))) as usize;
    }
    // A Soldier next to, or a clear leap from, an enemy Chariot.
    for (&sq, &(p, role)) in &r.board {
        if p == r.to_move && role == SankakuRole::Soldier {
            let chariot = |s: &reference::Sq| r.board.get(s) == Some(&(other(p), SankakuRole::Chariot));
            let near = reference::sides(sq).iter().any(chariot)
                || reference::second_orthogonals(sq).iter().any(|(t, via)| chariot(t) && !r.board.contains_key(via));
            seen.soldier_chariot_refusals += near as usize;
        }
    }
}

/// A move chosen to make interesting positions: mostly captures other than of the Emperor,
/// the Emperor's capture seldom, so that games last.
fn biased_move(pos: &SankakuPosition, moves: &[Move], rng: &mut Rng) -> Move {
    let takes_emperor = |m: &Move| matches!(m, Move::Normal { to, .. } if pos.emperor(other(pos.to_move())) == Some(*to));
    let captures: Vec<Move> = moves.iter().copied().filter(|m| pos.is_capture(*m) && !takes_emperor(m)).collect();
    if !captures.is_empty() && rng.below(3) == 0 {
        return captures[rng.below(captures.len())];
    }
    let quiet: Vec<Move> = moves.iter().copied().filter(|m| !takes_emperor(m)).collect();
    if quiet.is_empty() || rng.below(50) == 0 {
        return moves[rng.below(moves.len())];
    }
    quiet[rng.below(quiet.len())]
}

/// A random legal setup: each army keeps its Emperor and a random part of the rest, some
/// pieces already Generals, all on random cells.
fn random_setup(rng: &mut Rng) -> SankakuSetup {
    let mut free: Vec<Cell> = TRI44.cells().collect();
    let mut pieces = Vec::new();
    for player in [Player::First, Player::Second] {
        let mut roles = vec![SankakuRole::Emperor];
        let mut promotable = 0;
        for (role, most) in [(SankakuRole::Chariot, 2), (SankakuRole::Cavalry, 4), (SankakuRole::Soldier, 5)] {
            let n = rng.below(most + 1);
            if role != SankakuRole::Chariot {
                promotable += most - n;
            }
            roles.resize(roles.len() + n, role);
        }
        // Generals: the army's own and promoted pieces, as many as the missing ones allow.
        let generals = rng.below(3).min(1 + promotable);
        roles.resize(roles.len() + generals, SankakuRole::General);
        for role in roles {
            let c = free.swap_remove(rng.below(free.len()));
            pieces.push((c, SankakuPiece { player, role }));
        }
    }
    SankakuSetup { pieces, to_move: if rng.below(2) == 0 { Player::First } else { Player::Second } }
}

const OPTION_SETS: [&[&str]; 4] = [
    &[],
    &["soldier_step_captures=off"],
    &["chariot_run_down_multiple=true"],
    &["soldier_step_captures=off", "chariot_run_down_multiple=true"],
];

#[test]
fn fast_generator_equals_reference_on_thousands_of_positions() {
    let mut seen = Seen::default();
    let mut rng = Rng(0x5a4b_a4b5_1234_5678);
    for (i, options) in OPTION_SETS.iter().enumerate() {
        let rules = rules_with(options);
        // Games from the start.
        for _ in 0..[60, 15, 15, 10][i] {
            let mut pos = SankakuPosition::start(rules);
            for _ in 0..80 {
                cross_check(&pos, &mut seen);
                if pos.outcome().is_some() {
                    break;
                }
                let moves = legal(&pos);
                let m = biased_move(&pos, &moves, &mut rng);
                pos.play_unchecked(m);
            }
        }
        // Random setups, and a few moves from each.
        for _ in 0..[500, 150, 300, 100][i] {
            let Ok(mut pos) = SankakuPosition::from_setup(random_setup(&mut rng), rules) else { panic!("a valid setup") };
            for _ in 0..4 {
                cross_check(&pos, &mut seen);
                if pos.outcome().is_some() {
                    break;
                }
                let moves = legal(&pos);
                let m = biased_move(&pos, &moves, &mut rng);
                pos.play_unchecked(m);
            }
        }
    }
    println!("{seen:?}");
    assert!(seen.positions > 5000, "{seen:?}");
    assert!(seen.relays > 1000 && seen.relay_captures > 50, "{seen:?}");
    assert!(seen.run_downs > 500 && seen.run_down_then_capture > 100 && seen.multiple_run_downs > 50, "{seen:?}");
    assert!(seen.promotions > 1000 && seen.emperor_refusals > 500 && seen.soldier_chariot_refusals > 200, "{seen:?}");
}

/// The half-turn with colours swapped maps positions to positions and moves to moves.
#[test]
fn a_half_turn_with_colours_swapped_commutes_with_move_generation() {
    let mut rng = Rng(99);
    let turn = |name: String| {
        let (f, r) = reference::parse(&name);
        reference::name((6 - f, 9 - r))
    };
    for round in 0..600 {
        let rules = rules_with(OPTION_SETS[round % 4]);
        let pos = SankakuPosition::from_setup(random_setup(&mut rng), rules).unwrap();
        let turned_setup = SankakuSetup {
            pieces: pos
                .occupied()
                .map(|c| {
                    let p = pos.piece_at(c).unwrap();
                    (cell(&turn(TRI44.name(c))), SankakuPiece { player: other(p.player), ..p })
                })
                .collect(),
            to_move: other(pos.to_move()),
        };
        let turned = SankakuPosition::from_setup(turned_setup, rules).unwrap();
        let expected: BTreeSet<(String, String)> =
            move_names(&legal(&pos)).into_iter().map(|(a, b)| (turn(a), turn(b))).collect();
        assert_eq!(move_names(&legal(&turned)), expected, "{pos:?}");
    }
}

#[test]
fn the_running_key_equals_the_recomputed_key_and_tells_positions_apart() {
    let mut rng = Rng(4242);
    let mut keys: BTreeMap<u64, String> = BTreeMap::new();
    for _ in 0..20 {
        let mut game = SankakuGame::new(SankakuPosition::start(SankakuRules::default()));
        for _ in 0..150 {
            let pos = game.position().clone();
            assert_eq!(pos.repetition_key(), pos.recomputed_key());
            let text = ref_pos(&pos).key();
            assert_eq!(keys.entry(pos.repetition_key()).or_insert_with(|| text.clone()), &text);
            if pos.outcome().is_some() {
                break;
            }
            let mut moves = MoveList::new();
            game.legal_moves(&mut moves);
            game.play_unchecked(biased_move(&pos, &moves, &mut rng));
        }
    }
    assert!(keys.len() > 1000);
}
