//! Hex Shogi 91 (two players, RULES.md §2.1–2.6): frozen perft counts, the rules on
//! hand-built positions, a half-turn symmetry check, and the fast generator against the slow
//! reference generator of `hex_reference` on thousands of random positions.

mod hex_reference;

use std::collections::BTreeSet;

use hex_reference::{compare, parse_sq, sq, RefPos, Refusals, Rng};
use polyshogi::geometry::{Cell, HexNaming, HEX91};
use polyshogi::notation::move_text;
use polyshogi::outcome::{DrawReason, Event, Outcome, WinReason};
use polyshogi::perft::perft;
use polyshogi::rules::{RepetitionRule, Rules};
use polyshogi::variant::hexshogi::{HexShogiGame, HexShogiPosition, HexShogiRules, HexShogiSetup, HexVariant, PositionError};
use polyshogi::{ByPlayer, Hand, Move, MoveList, Piece, Player, PlayerSet, Role, Variant};

const BLACK: Player = Player::First;
const WHITE: Player = Player::Second;

fn cell(name: &str) -> Cell {
    HexNaming::HexShogi91.parse(&HEX91, name).unwrap_or_else(|e| panic!("{e}"))
}

fn name(cell: Cell) -> String {
    HexNaming::HexShogi91.name(&HEX91, cell)
}

/// Pieces from text like `K3j +P5e`: optional `+`, the role letter, the cell.
fn pieces(player: Player, text: &str) -> Vec<(Cell, Piece)> {
    text.split_whitespace()
        .map(|token| {
            let promoted = token.starts_with('+');
            let token = token.trim_start_matches('+');
            let role = Role::from_letter(token.chars().next().unwrap()).unwrap();
            (cell(&token[1..]), Piece { player, role, promoted })
        })
        .collect()
}

/// A hand from text like `G P P`.
fn hand(text: &str) -> Hand {
    let mut hand = Hand::EMPTY;
    for letter in text.split_whitespace() {
        hand.add(Role::from_letter(letter.chars().next().unwrap()).unwrap());
    }
    hand
}

fn setup(to_move: Player, black: &str, white: &str, black_hand: &str, white_hand: &str) -> HexShogiSetup {
    let mut all = pieces(BLACK, black);
    all.extend(pieces(WHITE, white));
    HexShogiSetup {
        pieces: all,
        hands: ByPlayer([hand(black_hand), hand(white_hand), Hand::EMPTY]),
        to_move,
        plies: 0,
        plies_without_capture: 0,
        passes_in_a_row: 0,
        timed_out: PlayerSet::EMPTY,
    }
}

fn position(to_move: Player, black: &str, white: &str, black_hand: &str, white_hand: &str) -> HexShogiPosition {
    let rules = HexShogiRules::hexshogi91();
    HexShogiPosition::from_setup(setup(to_move, black, white, black_hand, white_hand), rules).unwrap_or_else(|e| panic!("{e}"))
}

fn legal(pos: &HexShogiPosition) -> MoveList {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    moves
}

/// The cells the piece on `from` may move to, sorted by name, each once.
fn targets(pos: &HexShogiPosition, from: &str) -> Vec<String> {
    let from = cell(from);
    let set: BTreeSet<String> = legal(pos)
        .iter()
        .filter_map(|m| match *m {
            Move::Normal { from: f, to, .. } if f == from => Some(name(to)),
            _ => None,
        })
        .collect();
    set.into_iter().collect()
}

fn sorted(text: &str) -> Vec<String> {
    let set: BTreeSet<String> = text.split_whitespace().map(str::to_string).collect();
    set.into_iter().collect()
}

/// The versions of the move from `from` to `to`: which promote flags exist.
fn versions(pos: &HexShogiPosition, from: &str, to: &str) -> Vec<bool> {
    let (from, to) = (cell(from), cell(to));
    let mut v: Vec<bool> = legal(pos)
        .iter()
        .filter_map(|m| match *m {
            Move::Normal { from: f, to: t, promote } if f == from && t == to => Some(promote),
            _ => None,
        })
        .collect();
    v.sort();
    v
}

fn drops(pos: &HexShogiPosition, role: Role) -> BTreeSet<String> {
    legal(pos)
        .iter()
        .filter_map(|m| match *m {
            Move::Drop { role: r, to } if r == role => Some(name(to)),
            _ => None,
        })
        .collect()
}

fn game_after(options: &str, moves: &str) -> HexShogiGame {
    let mut rules = HexShogiRules::hexshogi91();
    for option in options.split(';').map(str::trim).filter(|o| !o.is_empty()) {
        rules.set(option).unwrap();
    }
    let mut game = HexShogiGame::new(HexShogiPosition::start(rules));
    let mut legal = MoveList::new();
    for text in move_text::split_move_list(moves) {
        game.legal_moves(&mut legal);
        let m = move_text::parse(game.position(), &legal, &text).unwrap_or_else(|e| panic!("{e}"));
        game.play_unchecked(m);
    }
    game
}

// ---------------------------------------------------------------------------------------------
// Perft
// ---------------------------------------------------------------------------------------------

#[test]
fn published_start_perft_and_the_game_behind_the_rules_trait() {
    let mut game = HexShogiGame::new(HexShogiPosition::start(HexShogiRules::hexshogi91()));
    let counts: Vec<u64> = (1..=3).map(|d| perft(&mut game, d)).collect();
    assert_eq!(counts, [45, 2024, 92922]);
    let pos = game.position();
    assert_eq!(pos.variant(), Variant::HexShogi91);
    assert_eq!(Rules::variant(pos), Variant::HexShogi91);
    assert_eq!(pos.seats(), [BLACK, WHITE]);
    assert_eq!((pos.seat_name(BLACK), pos.seat_name(WHITE)), ("Black", "White"));
    assert_eq!(pos.repetition_rule(), RepetitionRule::ThreefoldDraw);
    assert_eq!(pos.to_move(), BLACK);
    assert_eq!(pos.king_of(BLACK), Some(cell("4j")));
    assert_eq!(pos.king_of(WHITE), Some(cell("8b")));
}

/// The reference generator's perft, for a few shallow cross-checks of the frozen counts.
fn reference_perft(pos: &RefPos, depth: u32) -> u64 {
    let moves = pos.legal_moves(&mut Refusals::default());
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| {
            let mut next = pos.clone();
            match next.play(m) {
                Some(_) => 0,
                None => reference_perft(&next, depth - 1),
            }
        })
        .sum()
}

#[test]
fn reference_perft_agrees_on_the_start_and_a_middle_game_with_hands() {
    let start = RefPos::from_library(&HexShogiPosition::start(HexShogiRules::hexshogi91()));
    assert_eq!(reference_perft(&start, 2), 2024);
    let data = include_str!("data/hexshogi91.perft");
    let line = data.lines().find(|l| l.contains("P-10g") && l.ends_with("| 2 | 18599")).expect("the line");
    let moves = line.split(" | ").nth(1).unwrap();
    let game = game_after("", moves);
    assert!(game.position().hand(BLACK).total() > 0);
    assert_eq!(reference_perft(&RefPos::from_library(game.position()), 2), 18599);
}

// ---------------------------------------------------------------------------------------------
// Pieces (§2.3)
// ---------------------------------------------------------------------------------------------

/// Kings out of every line through the centre: 3j and 9b are on no ray of 6f.
fn alone_on_the_centre(piece: &str) -> HexShogiPosition {
    position(BLACK, &format!("K3j {piece}6f"), "K9b", "", "")
}

#[test]
fn centre_cell_moves_match_rules_2_3() {
    let cases = [
        ("P", "6e 7e"),
        ("N", "5d 7c 8c 9d"),
        ("S", "4g 5e 5h 6e 7d 7e 7g 8e"),
        ("G", "5e 5f 5g 6e 6g 7d 7e 7f 8e"),
        ("B", "2h 4d 4g 4j 5e 5h 7d 7g 8b 8e 8h 10d"),
    ];
    for (letter, expected) in cases {
        assert_eq!(targets(&alone_on_the_centre(letter), "6f"), sorted(expected), "{letter}");
    }
    // The king steps to all twelve neighbours and diagonal cells; the rook ranges 5 cells
    // along each of the six orthogonals.
    let king = position(BLACK, "K6f", "K9b", "", "");
    assert_eq!(targets(&king, "6f").len(), 12);
    let rook = targets(&alone_on_the_centre("R"), "6f");
    assert_eq!(rook.len(), 30);
    for end in ["6a", "1f", "11f", "1k", "11a", "6k"] {
        assert!(rook.contains(&end.to_string()), "{end}");
    }
    // Promoted rook and bishop add the steps of the other kind.
    let dragon = targets(&alone_on_the_centre("+R"), "6f");
    assert_eq!(dragon.len(), 36);
    let horse = targets(&alone_on_the_centre("+B"), "6f");
    assert_eq!(horse.len(), 18);
    // Tokin and promoted silver, knight and lance move as a gold.
    for letter in ["+P", "+S", "+N", "+L"] {
        assert_eq!(targets(&alone_on_the_centre(letter), "6f"), sorted(cases[3].1), "{letter}");
    }
}

#[test]
fn white_pieces_move_in_the_opposite_frame() {
    let pos = position(WHITE, "K3j", "K9b P6f N8c", "", "");
    assert_eq!(targets(&pos, "6f"), sorted("5g 6g"));
    // White's knight leaps are Black's turned half round, (1,2), (−1,3), (−2,3), (−3,2):
    // 5e 6f 7f 9e, of which 6f holds White's own pawn.
    assert_eq!(targets(&pos, "8c"), sorted("5e 7f 9e"));
}

#[test]
fn knight_leaps_over_a_ring_of_pieces() {
    // Every cell one step (orthogonal or diagonal) from 6f is occupied, friend and foe.
    let ring_black = "G6e G7e P5e S7d";
    let ring_white = "P5f P7f P5g P6g P8e P4g P7g P5h";
    let pos = position(BLACK, &format!("K3j N6f {ring_black}"), &format!("K9b {ring_white}"), "", "");
    assert_eq!(targets(&pos, "6f"), sorted("5d 7c 8c 9d"));
    // A friendly piece on a landing cell stops that leap only.
    let pos = position(BLACK, &format!("K3j N6f {ring_black} G5d"), &format!("K9b {ring_white} P9d"), "", "");
    assert_eq!(targets(&pos, "6f"), sorted("7c 8c 9d"));
}

// ---------------------------------------------------------------------------------------------
// Promotion (§2.4)
// ---------------------------------------------------------------------------------------------

#[test]
fn zone_of_four_ranks_gives_optional_promotion() {
    // 6e -> 6d enters rank d, the first rank of the zone; a silver leaving it (8c -> 7e) may
    // promote too.
    let pos = position(BLACK, "K3j P6e S8c R2e", "K11b", "", "");
    assert_eq!(versions(&pos, "6e", "6d"), [false, true]);
    assert_eq!(versions(&pos, "8c", "7e"), [false, true]);
    assert_eq!(versions(&pos, "2e", "3e"), [false]);
    assert_eq!(versions(&pos, "2e", "3d"), [false, true]);
    // King and gold never promote.
    let pos = position(BLACK, "K6c G7c", "K11b", "", "");
    assert_eq!(versions(&pos, "6c", "6b"), [false]);
    assert_eq!(versions(&pos, "7c", "7b"), [false]);
}

#[test]
fn pawn_lance_and_knight_must_promote_where_they_could_never_move() {
    let pos = position(BLACK, "K3j P7b L10d N6d N9e S5b", "K11f", "", "");
    assert_eq!(versions(&pos, "7b", "7a"), [true]);
    assert_eq!(versions(&pos, "7b", "8a"), [true]);
    assert_eq!(versions(&pos, "10d", "10a"), [true]);
    assert_eq!(versions(&pos, "10d", "10b"), [false, true]);
    assert_eq!(versions(&pos, "10d", "11c"), [false, true]);
    // The knight: into rank b or a it must promote, into rank c it may.
    assert_eq!(versions(&pos, "6d", "9b"), [true]);
    assert_eq!(versions(&pos, "6d", "8a"), [true]);
    assert_eq!(versions(&pos, "9e", "11b"), [true]);
    assert_eq!(versions(&pos, "9e", "8c"), [false, true]);
    // A silver may stay unpromoted on the last rank.
    assert_eq!(versions(&pos, "5b", "6a"), [false, true]);
    // White's last ranks are j and k.
    let pos = position(WHITE, "K3f", "K9b P4j L1h N6g", "", "");
    assert_eq!(versions(&pos, "4j", "4k"), [true]);
    assert_eq!(versions(&pos, "1h", "1j"), [false, true]);
    assert_eq!(versions(&pos, "1h", "1k"), [true]);
    assert_eq!(versions(&pos, "6g", "7i"), [false, true]);
    assert_eq!(versions(&pos, "6g", "5j"), [true]);
}

#[test]
fn captured_promoted_pieces_return_to_hand_unpromoted() {
    let mut pos = position(BLACK, "K3j R6f", "K9b +B6c +P6e", "", "");
    pos.play(Move::Normal { from: cell("6f"), to: cell("6e"), promote: false }).unwrap();
    assert_eq!(pos.hand(BLACK).count(Role::Pawn), 1);
    assert!(pos.piece_at(cell("6e")).is_some_and(|p| !p.promoted && p.role == Role::Rook));
}

// ---------------------------------------------------------------------------------------------
// Drops (§2.5)
// ---------------------------------------------------------------------------------------------

#[test]
fn drops_go_anywhere_empty_except_where_the_piece_could_never_move() {
    let pos = position(BLACK, "K3j", "K9b", "P L N S", "");
    let empty_outside = |ranks: &str| -> BTreeSet<String> {
        HEX91
            .cells()
            .filter(|&c| pos.piece_at(c).is_none())
            .map(name)
            .filter(|n| !ranks.contains(n.chars().last().unwrap()))
            .collect()
    };
    assert_eq!(drops(&pos, Role::Lance), empty_outside("a"));
    assert_eq!(drops(&pos, Role::Knight), empty_outside("ab"));
    assert_eq!(drops(&pos, Role::Silver), empty_outside(""));
    assert_eq!(empty_outside("").len(), 89);
    // The pawn also may not land where it would attack White's king on 9b: 8c and 9c.
    let mut pawn = empty_outside("a");
    pawn.remove("8c");
    pawn.remove("9c");
    assert_eq!(drops(&pos, Role::Pawn), pawn);
}

#[test]
fn pawn_may_not_be_dropped_where_an_own_unpromoted_pawn_attacks() {
    // Black's pawn on 6f attacks 6e and 7e; the tokin on 2f and White's pawn on 9h ban nothing.
    let pos = position(BLACK, "K3j P6f +P2f", "K9b P9h", "P", "");
    let pawn = drops(&pos, Role::Pawn);
    assert!(!pawn.contains("6e") && !pawn.contains("7e"));
    assert!(pawn.contains("2e") && pawn.contains("3e") && pawn.contains("8i"));
    // Other pieces may be dropped there.
    assert!(drops(&pos, Role::Gold).is_empty());
    let pos = position(BLACK, "K3j P6f", "K9b", "P G", "");
    assert!(drops(&pos, Role::Gold).contains("6e"));
    // The option turns the ban off.
    let mut rules = HexShogiRules::hexshogi91();
    rules.set("pawn_drop_no_pawn_support=false").unwrap();
    let pos = HexShogiPosition::from_setup(setup(BLACK, "K3j P6f", "K9b", "P", ""), rules).unwrap();
    assert!(drops(&pos, Role::Pawn).contains("6e"));
}

#[test]
fn pawn_drop_that_gives_check_is_refused_but_other_checking_drops_are_not() {
    let pos = position(BLACK, "K3j", "K9b", "P L G", "");
    assert!(!drops(&pos, Role::Pawn).contains("9c"));
    assert!(drops(&pos, Role::Lance).contains("9e"));
    assert!(drops(&pos, Role::Gold).contains("9c"));
    let mut rules = HexShogiRules::hexshogi91();
    rules.set("pawn_drop_may_not_attack_king=false").unwrap();
    let pos = HexShogiPosition::from_setup(setup(BLACK, "K3j", "K9b", "P", ""), rules).unwrap();
    assert!(drops(&pos, Role::Pawn).contains("9c"));
}

// ---------------------------------------------------------------------------------------------
// Check, mate, stalemate, draws (§2.6)
// ---------------------------------------------------------------------------------------------

/// White's king on 11a, boxed in by its own knights (which cannot reach 10b); Black's silver
/// on 8c guards 10b.
fn boxed_white_king(black_hand: &str) -> HexShogiSetup {
    setup(BLACK, "K3j S8c", "K11a N10a N9b N10c N11b", black_hand, "")
}

#[test]
fn gold_drop_checkmates_and_ends_the_game() {
    let mut game = HexShogiGame::new(HexShogiPosition::from_setup(boxed_white_king("G"), HexShogiRules::hexshogi91()).unwrap());
    let events = game.play(Move::Drop { role: Role::Gold, to: cell("10b") }).unwrap();
    let outcome = Outcome::Win { winner: BLACK, reason: WinReason::Checkmate };
    assert_eq!(game.position().outcome(), Some(outcome));
    assert!(game.position().in_check(WHITE));
    assert_eq!(events.last(), Some(&Event::GameOver { outcome, placings: ByPlayer([1, 2, 0]) }));
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    assert!(moves.is_empty());
    assert_eq!(game.play(Move::Pass), Err(polyshogi::rules::IllegalMove::GameOver));
}

#[test]
fn pawn_drop_mate_is_refused_and_allowed_only_by_the_option() {
    let pos = HexShogiPosition::from_setup(boxed_white_king("P"), HexShogiRules::hexshogi91()).unwrap();
    assert!(!drops(&pos, Role::Pawn).contains("10b"));
    let mut rules = HexShogiRules::hexshogi91();
    rules.set("pawn_drop_may_not_attack_king=false").unwrap();
    let mut pos = HexShogiPosition::from_setup(boxed_white_king("P"), rules).unwrap();
    pos.play(Move::Drop { role: Role::Pawn, to: cell("10b") }).unwrap();
    assert_eq!(pos.outcome(), Some(Outcome::Win { winner: BLACK, reason: WinReason::Checkmate }));
}

#[test]
fn a_pinned_piece_moves_only_along_its_line_and_a_check_must_be_answered() {
    // File 4 is one orthogonal line: White's rook on 4d pins Black's gold on 4g to the king.
    let pos = position(BLACK, "K4j G4g", "K9b R4d", "", "");
    assert!(!pos.in_check(BLACK));
    assert_eq!(targets(&pos, "4g"), sorted("4f 4h"));
    // Without the gold the rook checks: a silver in hand may only be dropped in between, and
    // the gold on 1h (which reaches no cell of the line) has no move at all.
    let pos = position(BLACK, "K4j G1h", "K9b R4d", "S", "");
    assert!(pos.in_check(BLACK));
    assert_eq!(drops(&pos, Role::Silver), sorted("4e 4f 4g 4h 4i").into_iter().collect());
    assert!(targets(&pos, "1h").is_empty());
    let king = targets(&pos, "4j");
    assert!(!king.is_empty() && !king.contains(&"4i".to_string()));
    let mut refusals = Refusals::default();
    assert_eq!(compare(&pos, &mut refusals), None);
    assert!(refusals.self_check > 0);
}

#[test]
fn in_double_check_only_the_king_moves() {
    // White's rook on 4d checks along file 4 and the knight on 7h leaps onto 4j.
    let pos = position(BLACK, "K4j G6i", "K9b R4d N7h", "S", "");
    let moves = legal(&pos);
    assert!(!moves.is_empty());
    assert!(moves.iter().all(|m| matches!(m, Move::Normal { from, .. } if *from == cell("4j"))));
    // With the rook gone the gold may take the knight.
    let pos = position(BLACK, "K4j G6i", "K9b N7h", "S", "");
    assert_eq!(versions(&pos, "6i", "7h"), [false]);
}

#[test]
fn stalemate_is_a_draw() {
    // Black's king on 6c covers all five cells around White's king in the corner 6a; after
    // any quiet Black move White has no legal move and is not in check.
    let mut pos = position(BLACK, "K6c P1h", "K6a", "", "");
    let events = pos.play(Move::Normal { from: cell("1h"), to: cell("1g"), promote: false }).unwrap();
    let outcome = Outcome::Draw { players: PlayerSet::of(&[BLACK, WHITE]), reason: DrawReason::Stalemate };
    assert_eq!(pos.outcome(), Some(outcome));
    assert!(!pos.in_check(WHITE));
    assert_eq!(events.last(), Some(&Event::GameOver { outcome, placings: ByPlayer([1, 1, 0]) }));
}

#[test]
fn third_occurrence_of_a_position_draws() {
    let mut game = game_after("", "");
    let shuffle = ["R6j-7j", "R10b-11b", "R7j-6j", "R11b-10b"];
    let mut legal = MoveList::new();
    for (i, text) in shuffle.iter().cycle().take(8).enumerate() {
        assert_eq!(game.position().outcome(), None, "ply {i}");
        game.legal_moves(&mut legal);
        let m = move_text::parse(game.position(), &legal, text).unwrap();
        game.play(m).unwrap();
    }
    let both = PlayerSet::of(&[BLACK, WHITE]);
    assert_eq!(game.position().outcome(), Some(Outcome::Draw { players: both, reason: DrawReason::Repetition }));
}

/// `Game` looks through the first keys of a game and counts the later ones in a map: a long
/// game must reach the draw exactly at the third occurrence all the same. Each block shuffles
/// the rooks out and back (every position of the block occurs twice) and then moves a pawn of
/// each side, so that no position comes back after it.
#[test]
fn third_occurrence_draws_in_a_long_game() {
    let mut game = game_after("", "");
    let shuffle = ["R6j-7j", "R10b-11b", "R7j-6j", "R11b-10b"];
    let play_text = |game: &mut HexShogiGame, text: &str| {
        let mut legal = MoveList::new();
        game.legal_moves(&mut legal);
        let m = move_text::parse(game.position(), &legal, text).unwrap_or_else(|e| panic!("{e}"));
        game.play(m).unwrap();
    };
    while game.moves().len() < 72 {
        for text in shuffle {
            play_text(&mut game, text);
        }
        for _ in 0..2 {
            let mut legal = MoveList::new();
            game.legal_moves(&mut legal);
            let pawn_step = legal.iter().copied().find(|&m| {
                let Move::Normal { from, to, promote: false } = m else { return false };
                let position = game.position();
                position.piece_at(from).is_some_and(|p| p.role == Role::Pawn) && position.piece_at(to).is_none()
            });
            game.play(pawn_step.expect("a pawn can still step")).unwrap();
        }
        assert_eq!(game.position().outcome(), None, "ply {}", game.moves().len());
    }
    let long = game.moves().len();
    for (i, text) in shuffle.iter().cycle().take(8).enumerate() {
        assert_eq!(game.position().outcome(), None, "ply {}", long + i);
        play_text(&mut game, text);
    }
    let both = PlayerSet::of(&[BLACK, WHITE]);
    assert_eq!(game.position().outcome(), Some(Outcome::Draw { players: both, reason: DrawReason::Repetition }));
}

#[test]
fn hundred_plies_without_a_capture_draw_but_a_capture_resets_the_count() {
    let quiet = HexShogiSetup { plies_without_capture: 99, ..setup(BLACK, "K3j R6f", "K9b P6b", "", "") };
    let mut pos = HexShogiPosition::from_setup(quiet.clone(), HexShogiRules::hexshogi91()).unwrap();
    pos.play(Move::Normal { from: cell("6f"), to: cell("6e"), promote: false }).unwrap();
    let both = PlayerSet::of(&[BLACK, WHITE]);
    assert_eq!(pos.outcome(), Some(Outcome::Draw { players: both, reason: DrawReason::NoCapture }));
    let mut pos = HexShogiPosition::from_setup(quiet.clone(), HexShogiRules::hexshogi91()).unwrap();
    pos.play(Move::Normal { from: cell("6f"), to: cell("6b"), promote: true }).unwrap();
    assert_eq!((pos.outcome(), pos.plies_without_capture()), (None, 0));
    // The limit is an option; 0 turns the rule off.
    let mut rules = HexShogiRules::hexshogi91();
    rules.set("no_capture_limit_plies=0").unwrap();
    let mut pos = HexShogiPosition::from_setup(quiet, rules).unwrap();
    pos.play(Move::Normal { from: cell("6f"), to: cell("6e"), promote: false }).unwrap();
    assert_eq!(pos.outcome(), None);
}

#[test]
fn either_player_may_resign_or_agree_a_draw() {
    let mut pos = HexShogiPosition::start(HexShogiRules::hexshogi91());
    let events = pos.resign(BLACK).unwrap();
    let outcome = Outcome::Win { winner: WHITE, reason: WinReason::LastStanding };
    assert_eq!(
        events.as_slice(),
        [Event::Resigned { player: BLACK }, Event::GameOver { outcome, placings: ByPlayer([2, 1, 0]) }]
    );
    assert_eq!(pos.resign(WHITE), Err(polyshogi::rules::IllegalMove::GameOver));
    let mut pos = HexShogiPosition::start(HexShogiRules::hexshogi91());
    assert_eq!(pos.resign(Player::Third), Err(polyshogi::rules::IllegalMove::NotLegal));
    assert!(pos.draw_by_agreement_allowed());
    pos.agree_draw().unwrap();
    assert_eq!(pos.outcome(), Some(Outcome::Draw { players: PlayerSet::of(&[BLACK, WHITE]), reason: DrawReason::Agreement }));
    assert!(HexShogiPosition::start(HexShogiRules::hexshogi91()).non_default_options().is_empty());
}

#[test]
fn setups_that_cannot_be_played_are_refused_with_a_reason() {
    let rules = HexShogiRules::hexshogi91();
    let check = |s: HexShogiSetup| HexShogiPosition::from_setup(s, rules).unwrap_err();
    assert_eq!(check(setup(BLACK, "K3j", "", "", "")), PositionError::KingCount { player: WHITE, kings: 0 });
    assert_eq!(check(setup(BLACK, "K3j R9e", "K9b", "", "")), PositionError::OpponentInCheck(WHITE));
    assert_eq!(check(setup(BLACK, "K3j P6a", "K9b", "", "")), PositionError::DeadPiece(cell("6a")));
    assert_eq!(check(setup(BLACK, "K3j N6b", "K9b", "", "")), PositionError::DeadPiece(cell("6b")));
    assert_eq!(
        check(setup(BLACK, "K3j +G6b", "K9b", "", "")),
        PositionError::PromotedForbidden { cell: cell("6b"), role: Role::Gold }
    );
    assert_eq!(check(setup(BLACK, "K3j", "K9b", "K", "")), PositionError::KingInHand(BLACK));
    assert_eq!(check(setup(BLACK, "K3j", "K9b", "R R R", "")), PositionError::TooManyPieces { role: Role::Rook, count: 3 });
    let mut third = setup(BLACK, "K3j", "K9b", "", "");
    third.pieces.push((cell("6f"), Piece { player: Player::Third, role: Role::Gold, promoted: false }));
    assert_eq!(check(third), PositionError::NoSuchSeat(Player::Third));
    assert_eq!(check(setup(Player::Third, "K3j", "K9b", "", "")), PositionError::NoSuchSeat(Player::Third));
    // A valid setup round-trips.
    let s = setup(WHITE, "K3j +R6f", "K9b P7d", "P P", "G");
    assert_eq!(HexShogiPosition::from_setup(s.clone(), rules).unwrap().to_setup().pieces.len(), s.pieces.len());
}

// ---------------------------------------------------------------------------------------------
// Symmetry and the reference cross-check
// ---------------------------------------------------------------------------------------------

/// The half-turn about the centre, computed from names: (q, r) -> (−q, −r).
fn half_turn(c: Cell) -> Cell {
    let (q, r) = sq(c);
    hex_reference::cell((-q, -r))
}

fn swap(p: Player) -> Player {
    if p == BLACK {
        WHITE
    } else {
        BLACK
    }
}

fn turned_setup(s: &HexShogiSetup) -> HexShogiSetup {
    HexShogiSetup {
        pieces: s.pieces.iter().map(|&(c, p)| (half_turn(c), Piece { player: swap(p.player), ..p })).collect(),
        hands: ByPlayer([s.hands[WHITE], s.hands[BLACK], Hand::EMPTY]),
        to_move: swap(s.to_move),
        ..s.clone()
    }
}

fn turned_move(m: Move) -> Move {
    match m {
        Move::Normal { from, to, promote } => Move::Normal { from: half_turn(from), to: half_turn(to), promote },
        Move::Drop { role, to } => Move::Drop { role, to: half_turn(to) },
        other => other,
    }
}

#[test]
fn a_half_turn_with_the_seats_swapped_maps_legal_moves_onto_legal_moves() {
    let rules = HexShogiRules::hexshogi91();
    let mut rng = Rng::new(91);
    let mut checked = 0;
    for game_index in 0..20 {
        let mut pos = HexShogiPosition::start(rules);
        for _ in 0..(20 + game_index * 4) {
            let moves = legal(&pos);
            if moves.is_empty() {
                break;
            }
            let turned = HexShogiPosition::from_setup(turned_setup(&pos.to_setup()), rules).unwrap();
            let mine: BTreeSet<u32> = moves.iter().map(|&m| turned_move(m).pack()).collect();
            let theirs: BTreeSet<u32> = legal(&turned).iter().map(|m| m.pack()).collect();
            assert_eq!(mine, theirs);
            checked += 1;
            pos.play_unchecked(biased_move(&pos, &moves, &mut rng));
        }
    }
    assert!(checked > 500);
}

fn is_capture(pos: &HexShogiPosition, m: &Move) -> bool {
    matches!(*m, Move::Normal { to, .. } if pos.piece_at(to).is_some())
}

/// Captures and drops are preferred, so that hands fill and promoted pieces appear.
fn biased_move(pos: &HexShogiPosition, moves: &[Move], rng: &mut Rng) -> Move {
    let captures: Vec<Move> = moves.iter().copied().filter(|m| is_capture(pos, m)).collect();
    let drops: Vec<Move> = moves.iter().copied().filter(|m| matches!(m, Move::Drop { .. })).collect();
    let promotions: Vec<Move> = moves.iter().copied().filter(|m| matches!(m, Move::Normal { promote: true, .. })).collect();
    if !captures.is_empty() && rng.chance(50) {
        rng.pick(&captures)
    } else if !drops.is_empty() && rng.chance(40) {
        rng.pick(&drops)
    } else if !promotions.is_empty() && rng.chance(30) {
        rng.pick(&promotions)
    } else {
        rng.pick(moves)
    }
}

/// Kings and a few random pieces and hands: a sparse board makes checks, pins, mates and
/// stalemates common.
fn random_sparse_setup(rng: &mut Rng) -> Option<HexShogiSetup> {
    let cells: Vec<Cell> = HEX91.cells().collect();
    let mut taken = BTreeSet::new();
    let mut pieces = Vec::new();
    let mut counts = [0u8; 8];
    let army = [1u8, 1, 1, 2, 2, 2, 2, 9];
    for player in [BLACK, WHITE] {
        let c = rng.pick(&cells);
        taken.insert(c);
        pieces.push((c, Piece { player, role: Role::King, promoted: false }));
        counts[0] += 1;
    }
    let mut hands = ByPlayer([Hand::EMPTY; 3]);
    for _ in 0..rng.below(9) {
        let role = rng.pick(&Role::DROPPABLE);
        if counts[role.index()] >= 2 * army[role.index()] {
            continue;
        }
        counts[role.index()] += 1;
        let player = if rng.chance(50) { BLACK } else { WHITE };
        if rng.chance(25) {
            hands[player].add(role);
            continue;
        }
        let c = rng.pick(&cells);
        if !taken.insert(c) {
            continue;
        }
        let promoted = !matches!(role, Role::Gold) && rng.chance(30);
        pieces.push((c, Piece { player, role, promoted }));
    }
    let to_move = if rng.chance(50) { BLACK } else { WHITE };
    Some(HexShogiSetup {
        pieces,
        hands,
        to_move,
        plies: 0,
        plies_without_capture: rng.below(100) as u32,
        passes_in_a_row: 0,
        timed_out: PlayerSet::EMPTY,
    })
}

#[derive(Default)]
struct Coverage {
    positions: usize,
    in_check: usize,
    double_check: usize,
    with_hands: usize,
    promoted: usize,
    mates: usize,
    stalemates: usize,
    no_capture_draws: usize,
    forced_promotions: usize,
    refusals: Refusals,
}

fn check_one(pos: &HexShogiPosition, cov: &mut Coverage) {
    if let Some(diff) = compare(pos, &mut cov.refusals) {
        panic!("fast and reference generators differ:\n{diff}");
    }
    assert_eq!(pos.material_key(), pos.recomputed_material_key());
    cov.positions += 1;
    if pos.in_check(pos.to_move()) {
        cov.in_check += 1;
        let r = RefPos::from_library(pos);
        let king = r.pieces().into_iter().find(|(_, p)| p.player == pos.to_move() && p.role == Role::King).unwrap().0;
        let checkers = r.pieces().into_iter().filter(|&(s, p)| p.player != pos.to_move() && r.attacks(s, p, king)).count();
        if checkers > 1 {
            cov.double_check += 1;
        }
    }
    if !pos.hand(BLACK).is_empty() || !pos.hand(WHITE).is_empty() {
        cov.with_hands += 1;
    }
    if pos.occupied().any(|c| pos.piece_at(c).unwrap().promoted) {
        cov.promoted += 1;
    }
    let moves = legal(pos);
    let forced = moves.iter().any(|&m| match m {
        Move::Normal { from, to, promote: true } => !moves.contains(&Move::Normal { from, to, promote: false }),
        _ => false,
    });
    cov.forced_promotions += forced as usize;
}

/// Plays a random game from `pos`, checking every position and every outcome against the
/// reference.
fn playout(mut pos: HexShogiPosition, plies: usize, rng: &mut Rng, cov: &mut Coverage) {
    for _ in 0..plies {
        check_one(&pos, cov);
        if pos.outcome().is_some() {
            return;
        }
        let moves = legal(&pos);
        let m = biased_move(&pos, &moves, rng);
        let mut reference = RefPos::from_library(&pos);
        let expected = reference.play(&hex_reference::from_library(m));
        let text = move_text::canonical(&pos, m);
        pos.play_unchecked(m);
        assert_eq!(pos.outcome(), expected, "after {text} in {pos:?}");
        match pos.outcome() {
            Some(Outcome::Win { reason: WinReason::Checkmate, .. }) => cov.mates += 1,
            Some(Outcome::Draw { reason: DrawReason::Stalemate, .. }) => cov.stalemates += 1,
            Some(Outcome::Draw { reason: DrawReason::NoCapture, .. }) => cov.no_capture_draws += 1,
            _ => {}
        }
    }
}

#[test]
fn fast_generator_equals_reference_on_thousands_of_positions() {
    let mut rng = Rng::new(2000);
    let mut cov = Coverage::default();
    for _ in 0..40 {
        playout(HexShogiPosition::start(HexShogiRules::hexshogi91()), 150, &mut rng, &mut cov);
    }
    let mut sparse = 0;
    while sparse < 400 {
        let Some(setup) = random_sparse_setup(&mut rng) else { continue };
        let mut rules = HexShogiRules::hexshogi91();
        if rng.chance(20) {
            rules.set("pawn_drop_no_pawn_support=false").unwrap();
        }
        if rng.chance(20) {
            rules.set("pawn_drop_may_not_attack_king=false").unwrap();
        }
        let Ok(pos) = HexShogiPosition::from_setup(setup, rules) else { continue };
        sparse += 1;
        playout(pos, 40, &mut rng, &mut cov);
    }
    let report = format!(
        "positions {} in_check {} double_check {} hands {} promoted {} mates {} stalemates {} no-capture {} forced promotions {} refusals {:?}",
        cov.positions, cov.in_check, cov.double_check, cov.with_hands, cov.promoted, cov.mates, cov.stalemates,
        cov.no_capture_draws, cov.forced_promotions, cov.refusals
    );
    assert!(cov.positions >= 5000, "{report}");
    assert!(cov.in_check >= 200 && cov.double_check >= 1, "{report}");
    assert!(cov.with_hands >= 2000 && cov.promoted >= 2000, "{report}");
    assert!(cov.mates >= 10 && cov.stalemates >= 1, "{report}");
    assert!(cov.forced_promotions >= 50, "{report}");
    assert!(cov.refusals.pawn_support >= 100 && cov.refusals.pawn_attacks_king >= 100, "{report}");
    assert!(cov.refusals.dead_cell >= 100 && cov.refusals.self_check >= 100, "{report}");
    println!("{report}");
}

/// `gives_check`, and `gives_check_knowing` from the position's check cells, which a search
/// asks before it makes a late quiet move, say of every legal move whether it checks, as making
/// the move and looking says, in random games from the start and on sparse boards, where
/// checks, discovered ones and knights' are common; and looking, which reads what the position
/// found when the turn came, agrees with the attack maps.
#[test]
fn checks_are_told_without_making_the_move() {
    let rules = HexShogiRules::hexshogi91();
    let mut rng = Rng::new(17);
    let mut positions = Vec::new();
    for game_index in 0..20 {
        let mut pos = HexShogiPosition::start(rules);
        for _ in 0..(40 + game_index * 4) {
            positions.push(pos.clone());
            let moves = legal(&pos);
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            pos.play_unchecked(biased_move(&pos, &moves, &mut rng));
        }
    }
    while positions.len() < 3000 {
        let Some(setup) = random_sparse_setup(&mut rng) else { continue };
        if let Ok(pos) = HexShogiPosition::from_setup(setup, rules) {
            positions.push(pos);
        }
    }
    let (mut moves_seen, mut checks, mut drop_checks) = (0, 0, 0);
    // A position works out once, when the turn comes, whether the player to move is in check:
    // the mover's attack map must say the same.
    let attacked_king = |pos: &HexShogiPosition, player: Player| {
        let other = if player == Player::First { Player::Second } else { Player::First };
        pos.attack_map(other).contains(pos.king_of(player).expect("two kings"))
    };
    for pos in positions.iter().filter(|pos| pos.outcome().is_none()) {
        assert_eq!(pos.in_check(pos.to_move()), attacked_king(pos, pos.to_move()), "{pos:?}");
        let check_cells = pos.check_cells();
        for m in legal(pos).iter().copied() {
            let mut next = pos.clone();
            next.play_unchecked(m);
            let opponent = if pos.to_move() == Player::First { Player::Second } else { Player::First };
            let gives_check = next.in_check(opponent);
            assert_eq!(gives_check, attacked_king(&next, opponent), "{} in {pos:?}", move_text::canonical(pos, m));
            assert_eq!(pos.gives_check(m), gives_check, "{} in {pos:?}", move_text::canonical(pos, m));
            assert_eq!(
                pos.gives_check_knowing(&check_cells, m),
                gives_check,
                "{} in {pos:?}, from the check cells",
                move_text::canonical(pos, m)
            );
            moves_seen += 1;
            checks += usize::from(gives_check);
            drop_checks += usize::from(gives_check && matches!(m, Move::Drop { .. }));
        }
    }
    let report = format!("{moves_seen} moves, {checks} checks, {drop_checks} by drops");
    assert!(checks >= 1000 && drop_checks >= 100, "{report}");
    println!("{report}");
}

#[test]
fn the_reference_reads_names_as_rules_2_1_says() {
    assert_eq!(parse_sq("6f"), (0, 0));
    assert_eq!(hex_reference::sq_name((0, 0)), "6f");
    assert_eq!(parse_sq("11a"), (0, -5));
    assert_eq!(parse_sq("1k"), (0, 5));
    assert_eq!(hex_reference::all_squares().count(), 91);
    assert_eq!(HexVariant::from_variant(Variant::HexShogi91), Some(HexVariant::HexShogi91));
}
