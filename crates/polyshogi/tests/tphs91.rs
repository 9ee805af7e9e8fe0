//! Three Player Hex Shogi 91 (RULES.md §2.7–2.8): frozen perft counts from the reconstructed
//! start, 120° rotation symmetry, the rules on hand-built positions (no check, king
//! collection, the king-drop-first rule, forced passes, players without pieces, the draws and
//! how a draw is shared), and the fast generator against the slow reference generator of
//! `hex_reference` on thousands of random positions.

mod hex_reference;

use std::collections::BTreeSet;

use hex_reference::{compare, RefPos, Refusals, Rng};
use polyshogi::game::Departure;
use polyshogi::geometry::{Cell, HexNaming, HEX91};
use polyshogi::notation::move_text;
use polyshogi::outcome::{DrawReason, Event, Outcome, WinReason};
use polyshogi::perft::perft;
use polyshogi::rules::{IllegalMove, RepetitionRule, Rules};
use polyshogi::variant::hexshogi::{
    HexShogiGame, HexShogiPosition, HexShogiRules, HexShogiSetup, HexVariant, PositionError, TPHS91_SETUP_NOTE,
};
use polyshogi::{ByPlayer, Hand, Move, MoveList, Piece, Player, PlayerSet, Role, Variant};

const BLACK: Player = Player::First;
const WHITE: Player = Player::Second;
const GRAY: Player = Player::Third;

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

fn hand(text: &str) -> Hand {
    let mut hand = Hand::EMPTY;
    for letter in text.split_whitespace() {
        hand.add(Role::from_letter(letter.chars().next().unwrap()).unwrap());
    }
    hand
}

/// A setup from each player's pieces and hand, as text.
fn setup(to_move: Player, armies: [&str; 3], hands: [&str; 3]) -> HexShogiSetup {
    let mut all = Vec::new();
    for (player, text) in Player::ALL.into_iter().zip(armies) {
        all.extend(pieces(player, text));
    }
    HexShogiSetup {
        pieces: all,
        hands: ByPlayer(hands.map(hand)),
        to_move,
        plies: 0,
        plies_without_capture: 0,
        passes_in_a_row: 0,
        timed_out: PlayerSet::EMPTY,
    }
}

fn position_with(rules: HexShogiRules, s: HexShogiSetup) -> HexShogiPosition {
    HexShogiPosition::from_setup(s, rules).unwrap_or_else(|e| panic!("{e}"))
}

fn position(to_move: Player, armies: [&str; 3], hands: [&str; 3]) -> HexShogiPosition {
    position_with(HexShogiRules::tphs91(), setup(to_move, armies, hands))
}

fn legal(pos: &HexShogiPosition) -> MoveList {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    moves
}

fn texts(pos: &HexShogiPosition) -> Vec<String> {
    legal(pos).iter().map(|&m| move_text::canonical(pos, m)).collect()
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

fn board_move(from: &str, to: &str) -> Move {
    Move::Normal { from: cell(from), to: cell(to), promote: false }
}

fn game_after(options: &str, moves: &str) -> HexShogiGame {
    let mut rules = HexShogiRules::tphs91();
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
// Perft and symmetry
// ---------------------------------------------------------------------------------------------

#[test]
fn start_perft_matches_rules_2_8_whichever_player_moves_first() {
    let rules = HexShogiRules::tphs91();
    for first in Player::ALL {
        let s = HexShogiSetup { to_move: first, ..HexShogiSetup::start(HexVariant::Tphs91) };
        let mut game = HexShogiGame::new(position_with(rules, s));
        let counts: Vec<u64> = (1..=4).map(|d| perft(&mut game, d)).collect();
        assert_eq!(counts, [26, 677, 17732, 535214], "{first:?} first");
    }
}

/// White's frame is Black's turned 120° clockwise, Gray's White's: the whole position turns
/// with its seats moved on by one.
fn rotated_setup(s: &HexShogiSetup) -> HexShogiSetup {
    HexShogiSetup {
        pieces: s.pieces.iter().map(|&(c, p)| (HEX91.rotated_cw120(c), Piece { player: p.player.next3(), ..p })).collect(),
        hands: ByPlayer([s.hands[GRAY], s.hands[BLACK], s.hands[WHITE]]),
        to_move: s.to_move.next3(),
        ..s.clone()
    }
}

fn rotated_move(m: Move) -> Move {
    match m {
        Move::Normal { from, to, promote } => {
            Move::Normal { from: HEX91.rotated_cw120(from), to: HEX91.rotated_cw120(to), promote }
        }
        Move::Drop { role, to } => Move::Drop { role, to: HEX91.rotated_cw120(to) },
        other => other,
    }
}

fn packed(moves: &MoveList) -> BTreeSet<u32> {
    moves.iter().map(|m| m.pack()).collect()
}

#[test]
fn perft_after_each_first_move_is_the_same_for_every_seat() {
    let rules = HexShogiRules::tphs91();
    let start =
        |first: Player| position_with(rules, HexShogiSetup { to_move: first, ..HexShogiSetup::start(HexVariant::Tphs91) });
    let black_first = start(BLACK);
    let firsts = legal(&black_first);
    assert_eq!(firsts.len(), 26);
    for &m in &firsts {
        let mut by_black = black_first.clone();
        by_black.play(m).unwrap();
        let mut by_white = start(WHITE);
        by_white.play(rotated_move(m)).unwrap();
        let mut by_gray = start(GRAY);
        by_gray.play(rotated_move(rotated_move(m))).unwrap();
        // The positions are each other's rotations, and so are their legal moves.
        let turned = position_with(rules, rotated_setup(&by_black.to_setup()));
        assert_eq!(turned, by_white);
        let expected: BTreeSet<u32> = legal(&by_black).iter().map(|&m| rotated_move(m).pack()).collect();
        assert_eq!(expected, packed(&legal(&by_white)));
        let counts: Vec<u64> = [by_black, by_white, by_gray].into_iter().map(|p| perft(&mut HexShogiGame::new(p), 2)).collect();
        assert_eq!(counts[0], counts[1]);
        assert_eq!(counts[0], counts[2]);
    }
}

#[test]
fn rotating_random_positions_rotates_their_legal_moves() {
    let rules = HexShogiRules::tphs91();
    let mut rng = Rng::new(120);
    let mut checked = 0;
    for game_index in 0..15 {
        let mut pos = HexShogiPosition::start(rules);
        for _ in 0..(30 + game_index * 10) {
            if pos.outcome().is_some() {
                break;
            }
            let moves = legal(&pos);
            let turned = position_with(rules, rotated_setup(&pos.to_setup()));
            let expected: BTreeSet<u32> = moves.iter().map(|&m| rotated_move(m).pack()).collect();
            assert_eq!(expected, packed(&legal(&turned)));
            checked += 1;
            pos.play_unchecked(biased_move(&pos, &moves, &mut rng, None));
        }
    }
    assert!(checked > 600);
}

// ---------------------------------------------------------------------------------------------
// The game behind the trait, and the reconstructed setup
// ---------------------------------------------------------------------------------------------

#[test]
fn three_seats_named_black_white_gray_and_the_setup_says_it_is_reconstructed() {
    let pos = HexShogiPosition::start(HexShogiRules::tphs91());
    assert_eq!(Rules::variant(&pos), Variant::Tphs91);
    assert_eq!(pos.seats(), Player::ALL);
    let names: Vec<&str> = Player::ALL.iter().map(|&p| pos.seat_name(p)).collect();
    assert_eq!(names, ["Black", "White", "Gray"]);
    assert_eq!(pos.repetition_rule(), RepetitionRule::ThreefoldDraw);
    assert!(TPHS91_SETUP_NOTE.contains("RECONSTRUCTION"));
    // Kings of §2.8, and one army per seat of 18 pieces.
    for (player, king) in [(BLACK, "4j"), (WHITE, "10d"), (GRAY, "4d")] {
        assert_eq!(pos.king_of(player), Some(cell(king)));
        assert_eq!(pos.pieces_of(player).count(), 18);
    }
    // The only capture at the start is the bishop taking one pawn (§2.8).
    let captures: Vec<String> = texts(&pos).into_iter().filter(|t| t.contains('x')).collect();
    assert_eq!(captures, ["B2jx5d"]);
}

// ---------------------------------------------------------------------------------------------
// No check; kings are captured and collected
// ---------------------------------------------------------------------------------------------

#[test]
fn there_is_no_check_kings_walk_into_attack_and_are_captured_into_hand() {
    // White's rook on 6a attacks Black's king on 6f down file 6, which is not check.
    let mut pos = position(BLACK, ["K6f R8f", "K11f R6a", "K6k"], ["", "", ""]);
    assert!(!pos.in_check(BLACK));
    let moves = texts(&pos);
    // The king may stay attacked, or step to 6e, still on the rook's line.
    assert!(moves.contains(&"K6f-6e".to_string()), "{moves:?}");
    assert!(moves.len() > 20);
    // Black's rook takes White's king: it goes to Black's hand like any piece.
    assert!(moves.contains(&"R8fx11f".to_string()), "{moves:?}");
    pos.play(board_move("8f", "11f")).unwrap();
    assert_eq!(pos.hand(BLACK).count(Role::King), 1);
    assert_eq!(pos.kings_held(BLACK), 2);
    assert_eq!(pos.outcome(), None);
    // White keeps playing without a king.
    assert_eq!(pos.to_move(), WHITE);
    assert!(texts(&pos).iter().any(|t| t.starts_with("R6a")));
}

#[test]
fn holding_all_three_kings_wins() {
    // Black holds one king in hand and one on the board and takes White's, White's last piece.
    let mut pos = position(BLACK, ["K6f R8f", "K11f", "P2g G3k"], ["", "", "K"]);
    let mut game = HexShogiGame::new(position(BLACK, ["K6f R8f", "K11f", "P2g G3k"], ["K", "", ""]));
    let events = game.play(board_move("8f", "11f")).unwrap();
    let outcome = Outcome::Win { winner: BLACK, reason: WinReason::KingsCollected };
    assert_eq!(game.position().outcome(), Some(outcome));
    // White lost every piece with his king: he comes last, behind Gray.
    assert_eq!(events.last(), Some(&Event::GameOver { outcome, placings: ByPlayer([1, 3, 2]) }));
    // Taking a king while the others are spread does not win.
    pos.play(board_move("8f", "11f")).unwrap();
    assert_eq!(pos.outcome(), None);
    assert_eq!(pos.kings_held(BLACK), 2);
}

#[test]
fn a_held_king_must_be_dropped_before_any_other_piece_and_may_go_anywhere() {
    let pos = position(BLACK, ["K6f P7g", "K11f", "P2g"], ["K P G", "", ""]);
    let empty: BTreeSet<String> = HEX91.cells().filter(|&c| pos.piece_at(c).is_none()).map(name).collect();
    // Every empty cell, the last rank included; no pawn or gold drop while the king is held.
    assert_eq!(drops(&pos, Role::King), empty);
    assert!(drops(&pos, Role::Pawn).is_empty() && drops(&pos, Role::Gold).is_empty());
    // Board moves stay allowed.
    assert!(texts(&pos).contains(&"P7g-7f".to_string()));
    // Once it is dropped the others may follow.
    let mut pos = pos;
    pos.play(Move::Drop { role: Role::King, to: cell("6a") }).unwrap();
    pos.play(board_move("11f", "10f")).unwrap();
    pos.play(board_move("2g", "3g")).unwrap();
    assert!(drops(&pos, Role::Gold).len() > 70);
}

// ---------------------------------------------------------------------------------------------
// Drops and promotion in each frame
// ---------------------------------------------------------------------------------------------

#[test]
fn pawn_drop_rules_read_other_players_kings_and_own_unpromoted_pawns() {
    // White's pawns step toward 1 and 3 o'clock on the screen: from 6f to 5f and 5g.
    let pos = position(WHITE, ["K9a K6i", "K6k P6f", "P2g"], ["", "P", ""]);
    let pawn = drops(&pos, Role::Pawn);
    assert!(!pawn.contains("5f") && !pawn.contains("5g"), "own pawn support");
    // Black's kings on 9a and 6i may not be attacked by the dropped pawn (from 10a, 7i or
    // 7h); White's own king on 6k may (from 7j).
    for banned in ["10a", "7i", "7h"] {
        assert!(!pawn.contains(banned), "{banned}");
    }
    assert!(pawn.contains("7j"));
    // The last rank of White's frame is file 1: no pawn there.
    assert!(pawn.iter().all(|n| n.len() == 3 || !n.starts_with('1')));
    assert_eq!(pawn.len(), 91 - 5 - 6 - 2 - 3);
    let mut rules = HexShogiRules::tphs91();
    rules.set("pawn_drop_no_pawn_support=false").unwrap();
    rules.set("pawn_drop_may_not_attack_king=false").unwrap();
    let pos = position_with(rules, setup(WHITE, ["K9a K6i", "K6k P6f", "P2g"], ["", "P", ""]));
    let pawn = drops(&pos, Role::Pawn);
    for allowed in ["5f", "5g", "10a", "7i"] {
        assert!(pawn.contains(allowed), "{allowed}");
    }
}

#[test]
fn zones_are_the_three_far_ranks_of_each_frame() {
    // Gray faces 8 o'clock: his far ranks are q ≤ −3, the last one 11f 10g 9h 8i 7j 6k.
    let pos = position(GRAY, ["K6a", "K1k", "K11a P8h L8f S7e"], ["", "", ""]);
    let versions = |from: &str, to: &str| -> Vec<bool> {
        let mut v: Vec<bool> = legal(&pos)
            .iter()
            .filter_map(|m| match *m {
                Move::Normal { from: f, to: t, promote } if f == cell(from) && t == cell(to) => Some(promote),
                _ => None,
            })
            .collect();
        v.sort();
        v
    };
    // Gray's pawn steps toward screen 9 and 7 o'clock, here onto his last rank.
    assert_eq!(versions("8h", "9h"), [true]);
    assert_eq!(versions("8h", "8i"), [true]);
    assert_eq!(versions("8f", "9f"), [false, true]);
    assert_eq!(versions("8f", "10f"), [false, true]);
    assert_eq!(versions("8f", "11f"), [true]);
    assert_eq!(versions("7e", "8e"), [false]);
}

// ---------------------------------------------------------------------------------------------
// Passing, players without pieces, draws
// ---------------------------------------------------------------------------------------------

/// Black walled in at the top edge by his own pieces: two kings on 9a and 7a, golds on the
/// rest of rank a, pawns on all of rank b and knights on 8c and 6c. No piece has a move.
const BLACK_WALLED: &str = "G11a G10a K9a G8a K7a G6a P11b P10b P9b P8b P7b P6b P5b N8c N6c";

/// The same wall with one king, written in Black's frame, turned into `player`'s frame
/// (tokins for the golds, which would be too many).
fn walled_one_king(player: Player) -> Vec<(Cell, Piece)> {
    let mut wall = pieces(player, "+P11a +P10a K9a +P8a +P7a +P6a P11b P10b P9b P8b P7b P6b P5b N8c");
    for (c, _) in &mut wall {
        for _ in 0..player.index() {
            *c = HEX91.rotated_cw120(*c);
        }
    }
    wall
}

#[test]
fn a_player_without_a_legal_move_passes_and_only_then() {
    let pos = position(BLACK, [BLACK_WALLED, "K6k R4h", "P2g"], ["", "", ""]);
    assert_eq!(texts(&pos), ["pass"]);
    let mut game = HexShogiGame::new(pos);
    game.play(Move::Pass).unwrap();
    assert_eq!(game.position().passes_in_a_row(), 1);
    // White is not stuck: passing is not among his moves.
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    assert!(!moves.contains(&Move::Pass));
    assert_eq!(game.play(Move::Pass), Err(polyshogi::rules::IllegalMove::NotLegal));
    game.play(board_move("4h", "4g")).unwrap();
    assert_eq!(game.position().passes_in_a_row(), 0);
}

/// The quiet moves alone: the pass of a player with no move, and nothing for one whose only
/// moves take a piece (Black walled in, one of his wall's pieces turned White's).
#[test]
fn a_player_whose_only_moves_capture_has_no_quiet_move_not_even_a_pass() {
    let quiet_moves = |pos: &HexShogiPosition| {
        let mut moves = MoveList::new();
        pos.push_quiet_moves(&mut moves);
        moves
    };
    let walled = position(BLACK, [BLACK_WALLED, "K6k R4h", "P2g"], ["", "", ""]);
    assert_eq!(quiet_moves(&walled).as_slice(), [Move::Pass]);
    let mut only_captures = 0;
    for (c, piece) in pieces(BLACK, BLACK_WALLED).into_iter().filter(|(_, piece)| piece.role != Role::King) {
        let mut s = walled.to_setup();
        s.pieces.retain(|&(at, _)| at != c);
        s.pieces.push((c, Piece { player: WHITE, ..piece }));
        let pos = position_with(HexShogiRules::tphs91(), s);
        let moves = legal(&pos);
        // A player with no move has the pass, which is no capture.
        if moves.iter().all(|m| is_capture(&pos, m)) {
            assert_eq!(quiet_moves(&pos).as_slice(), [], "with a White piece on {}", name(c));
            only_captures += 1;
        }
    }
    assert!(only_captures > 0, "no wall piece turned White leaves Black only captures");
}

#[test]
fn a_player_who_lost_every_piece_passes_for_the_rest_of_the_game() {
    let mut game = HexShogiGame::new(position(BLACK, ["K6f K6k R8f", "P11f", "K6a P7b"], ["", "", ""]));
    game.play(board_move("8f", "11f")).unwrap();
    let pos = game.position();
    assert_eq!(pos.lost_players(), PlayerSet::of(&[WHITE]));
    assert_eq!(pos.outcome(), None);
    for _ in 0..3 {
        assert_eq!(game.position().to_move(), WHITE);
        assert_eq!(texts(game.position()), ["pass"]);
        game.play(Move::Pass).unwrap();
        // His passes are not "everyone passed": only players with pieces count.
        assert_eq!(game.position().passes_in_a_row(), 0);
        let mut moves = MoveList::new();
        game.legal_moves(&mut moves);
        let m = *moves.iter().find(|m| !matches!(m, Move::Pass)).unwrap();
        game.play(m).unwrap();
        game.legal_moves(&mut moves);
        let m = *moves.iter().find(|m| !matches!(m, Move::Pass)).unwrap();
        game.play(m).unwrap();
    }
}

#[test]
fn a_round_in_which_everyone_still_playing_must_pass_is_a_draw_without_the_loser() {
    let mut s = setup(BLACK, [BLACK_WALLED, "", ""], ["", "", ""]);
    s.pieces.extend(walled_one_king(WHITE));
    let mut game = HexShogiGame::new(position_with(HexShogiRules::tphs91(), s));
    assert_eq!(game.position().lost_players(), PlayerSet::of(&[GRAY]));
    assert_eq!(texts(game.position()), ["pass"]);
    game.play(Move::Pass).unwrap();
    assert_eq!(game.position().outcome(), None);
    let events = game.play(Move::Pass).unwrap();
    let outcome = Outcome::Draw { players: PlayerSet::of(&[BLACK, WHITE]), reason: DrawReason::AllPassed };
    assert_eq!(game.position().outcome(), Some(outcome));
    assert_eq!(events.last(), Some(&Event::GameOver { outcome, placings: ByPlayer([1, 1, 3]) }));
}

#[test]
fn no_capture_limit_is_150_plies_by_default_passes_included_and_an_option() {
    let quiet =
        |plies: u32| HexShogiSetup { plies_without_capture: plies, ..setup(BLACK, ["K6f K6k R1f", "", "K6a P7b"], ["", "", ""]) };
    // White has no pieces: his pass is a ply too, and he does not share the draw.
    let mut pos = position_with(HexShogiRules::tphs91(), quiet(148));
    pos.play(board_move("1f", "1g")).unwrap();
    assert_eq!(pos.outcome(), None);
    let events = pos.play(Move::Pass).unwrap();
    let outcome = Outcome::Draw { players: PlayerSet::of(&[BLACK, GRAY]), reason: DrawReason::NoCapture };
    assert_eq!(pos.outcome(), Some(outcome));
    assert_eq!(events.last(), Some(&Event::GameOver { outcome, placings: ByPlayer([1, 3, 1]) }));
    // A capture resets the count.
    let mut pos2 = position_with(
        HexShogiRules::tphs91(),
        HexShogiSetup { plies_without_capture: 149, ..setup(BLACK, ["K6f K6k R7b", "", "K6a P8b"], ["", "", ""]) },
    );
    pos2.play(board_move("7b", "8b")).unwrap();
    assert_eq!((pos2.outcome(), pos2.plies_without_capture()), (None, 0));
    // With the option at 50 plies.
    let mut rules = HexShogiRules::tphs91();
    rules.set("no_capture_limit_plies=50").unwrap();
    let mut pos = position_with(rules, quiet(49));
    pos.play(board_move("1f", "1g")).unwrap();
    assert!(matches!(pos.outcome(), Some(Outcome::Draw { reason: DrawReason::NoCapture, .. })));
}

#[test]
fn third_occurrence_of_a_position_draws_among_all_three() {
    let mut game = game_after("", "");
    let rook = |player: Player, from: &str, to: &str| {
        let (mut f, mut t) = (cell(from), cell(to));
        for _ in 0..player.index() {
            f = HEX91.rotated_cw120(f);
            t = HEX91.rotated_cw120(t);
        }
        Move::Normal { from: f, to: t, promote: false }
    };
    let round_out = [rook(BLACK, "6j", "7j"), rook(WHITE, "6j", "7j"), rook(GRAY, "6j", "7j")];
    let round_back = [rook(BLACK, "7j", "6j"), rook(WHITE, "7j", "6j"), rook(GRAY, "7j", "6j")];
    for m in round_out.iter().chain(&round_back).chain(&round_out).chain(&round_back) {
        assert_eq!(game.position().outcome(), None);
        game.play(*m).unwrap();
    }
    let all = PlayerSet::of(&Player::ALL);
    assert_eq!(game.position().outcome(), Some(Outcome::Draw { players: all, reason: DrawReason::Repetition }));
}

#[test]
fn resignation_only_once_someone_lost_everything_and_agreement_shared_by_those_with_pieces() {
    let mut pos = HexShogiPosition::start(HexShogiRules::tphs91());
    assert_eq!(pos.resign(WHITE), Err(polyshogi::rules::IllegalMove::NotLegal));
    assert!(pos.draw_by_agreement_allowed());
    // White has nothing left: Black or Gray may resign, and the other wins.
    let two_left = || position(BLACK, ["K6f K6k R8f", "", "K6a P7b"], ["", "", ""]);
    assert_eq!(two_left().resign(WHITE), Err(polyshogi::rules::IllegalMove::NotLegal));
    let mut pos = two_left();
    let events = pos.resign(GRAY).unwrap();
    let outcome = Outcome::Win { winner: BLACK, reason: WinReason::LastStanding };
    assert_eq!(pos.outcome(), Some(outcome));
    assert_eq!(events.as_slice(), [Event::Resigned { player: GRAY }, Event::GameOver { outcome, placings: ByPlayer([1, 3, 2]) }]);
    let mut pos = two_left();
    pos.agree_draw().unwrap();
    assert_eq!(pos.outcome(), Some(Outcome::Draw { players: PlayerSet::of(&[BLACK, GRAY]), reason: DrawReason::Agreement }));
    let mut rules = HexShogiRules::tphs91();
    rules.set("no_capture_limit_plies=100").unwrap();
    assert_eq!(HexShogiPosition::start(rules).non_default_options(), ["no_capture_limit_plies=100"]);
}

#[test]
fn a_time_out_with_three_in_loses_but_the_pieces_stay_and_the_player_only_passes() {
    let mut game = game_after("", "");
    let events = game.depart(Departure::TimeOut(BLACK)).unwrap();
    assert_eq!(events.as_slice(), [Event::TimedOut { player: BLACK }]);
    let pos = game.position();
    assert_eq!(pos.outcome(), None);
    assert_eq!((pos.players_in(), pos.lost_players()), (PlayerSet::of(&[WHITE, GRAY]), PlayerSet::of(&[BLACK])));
    // His army stays on the board, and Black, to move, may only pass.
    assert_eq!(pos.pieces_of(BLACK), HexShogiPosition::start(HexShogiRules::tphs91()).pieces_of(BLACK));
    assert_eq!(texts(pos), ["pass"]);
    // The position string keeps the time-out, and reads back equal.
    let text = pos.to_text();
    assert!(text.ends_with("ply=0;nocapture=0;passes=0;timedout=B"), "{text}");
    assert_eq!(&HexShogiPosition::from_text(&text, HexShogiRules::tphs91()).unwrap(), pos);
    // His passes neither count toward "everyone passed" nor break the run; he resigns no more.
    game.play(Move::Pass).unwrap();
    assert_eq!(game.position().passes_in_a_row(), 0);
    assert_eq!(game.depart(Departure::Resigned(BLACK)), Err(IllegalMove::NotLegal));
    // Another time-out leaves one player in: it loses at once, as a resignation would, and
    // Black, who lost first, comes last.
    let events = game.depart(Departure::TimeOut(WHITE)).unwrap();
    let outcome = Outcome::Win { winner: GRAY, reason: WinReason::LastStanding };
    assert_eq!(
        events.as_slice(),
        [Event::TimedOut { player: WHITE }, Event::GameOver { outcome, placings: ByPlayer([3, 2, 1]) }]
    );
}

#[test]
fn a_draw_after_a_time_out_is_shared_by_the_two_still_in() {
    let mut pos = HexShogiPosition::start(HexShogiRules::tphs91());
    pos.time_out(GRAY).unwrap();
    let events = pos.agree_draw().unwrap();
    let outcome = Outcome::Draw { players: PlayerSet::of(&[BLACK, WHITE]), reason: DrawReason::Agreement };
    assert_eq!(events.as_slice(), [Event::GameOver { outcome, placings: ByPlayer([1, 1, 3]) }]);
}

#[test]
fn the_last_player_in_wins_when_the_other_two_have_lost() {
    // White ran out of time holding Gray's king; Gray has nothing left. Black cannot collect
    // the third king, which White will never drop, yet he is the only one still in.
    let s = HexShogiSetup { timed_out: PlayerSet::of(&[WHITE]), ..setup(GRAY, ["K6f", "K6a", ""], ["", "K", ""]) };
    let pos = position_with(HexShogiRules::tphs91(), s);
    assert_eq!(pos.outcome(), Some(Outcome::Win { winner: BLACK, reason: WinReason::LastStanding }));
}

#[test]
fn setups_that_cannot_be_played_are_refused_with_a_reason() {
    let rules = HexShogiRules::tphs91();
    let check = |s: HexShogiSetup| HexShogiPosition::from_setup(s, rules).unwrap_err();
    assert_eq!(check(setup(BLACK, ["K6f", "K6a", ""], ["", "", ""])), PositionError::KingTotal { kings: 2 });
    assert_eq!(check(setup(BLACK, ["K6f K6a", "P3g", ""], ["K", "", ""])), PositionError::KingsAlreadyCollected(BLACK));
    assert_eq!(check(setup(BLACK, ["K6f L7a", "K1k", "K6k"], ["", "", ""])), PositionError::DeadPiece(cell("7a")));
    // White's last rank is file 1 (§2.7).
    assert_eq!(check(setup(BLACK, ["K6f", "K6a P1h", "K6k"], ["", "", ""])), PositionError::DeadPiece(cell("1h")));
    // Any seat may be to move, even one without pieces (he passes).
    let pos = position(WHITE, ["K6f K6k", "", "K6a"], ["", "", ""]);
    assert_eq!(texts(&pos), ["pass"]);
    // Only one player can have lost on time while the game goes on.
    let two_out = PlayerSet::of(&[BLACK, WHITE]);
    let s = HexShogiSetup { timed_out: two_out, ..setup(BLACK, ["K6f P7f", "K1f", "K6a"], ["", "", ""]) };
    assert_eq!(check(s), PositionError::TimedOut(WHITE));
    let s = HexShogiSetup { timed_out: PlayerSet::of(&[WHITE]), ..HexShogiSetup::start(HexVariant::HexShogi91) };
    assert_eq!(HexShogiPosition::from_setup(s, HexShogiRules::hexshogi91()).unwrap_err(), PositionError::TimedOut(WHITE));
}

// ---------------------------------------------------------------------------------------------
// The reference cross-check
// ---------------------------------------------------------------------------------------------

fn is_capture(pos: &HexShogiPosition, m: &Move) -> bool {
    matches!(*m, Move::Normal { to, .. } if pos.piece_at(to).is_some())
}

/// Captures (above all of `victim`'s pieces, to leave a player without pieces), king drops and
/// other drops, and promotions are preferred.
fn biased_move(pos: &HexShogiPosition, moves: &[Move], rng: &mut Rng, victim: Option<Player>) -> Move {
    let of_victim =
        |m: &Move| matches!(*m, Move::Normal { to, .. } if pos.piece_at(to).is_some_and(|p| Some(p.player) == victim));
    let hits: Vec<Move> = moves.iter().copied().filter(of_victim).collect();
    let captures: Vec<Move> = moves.iter().copied().filter(|m| is_capture(pos, m)).collect();
    let drops: Vec<Move> = moves.iter().copied().filter(|m| matches!(m, Move::Drop { .. })).collect();
    let promotions: Vec<Move> = moves.iter().copied().filter(|m| matches!(m, Move::Normal { promote: true, .. })).collect();
    if !hits.is_empty() && rng.chance(90) {
        rng.pick(&hits)
    } else if !captures.is_empty() && rng.chance(50) {
        rng.pick(&captures)
    } else if !drops.is_empty() && rng.chance(40) {
        rng.pick(&drops)
    } else if !promotions.is_empty() && rng.chance(30) {
        rng.pick(&promotions)
    } else {
        rng.pick(moves)
    }
}

/// Three kings dealt to random seats (on the board or in hand, never all to one), a few
/// random pieces and hands, sometimes a seat left without any piece.
fn random_sparse_setup(rng: &mut Rng) -> HexShogiSetup {
    let cells: Vec<Cell> = HEX91.cells().collect();
    let mut taken = BTreeSet::new();
    let mut pieces = Vec::new();
    let mut hands = ByPlayer([Hand::EMPTY; 3]);
    let empty_seat = if rng.chance(40) { Some(rng.pick(&Player::ALL)) } else { None };
    let seats: Vec<Player> = Player::ALL.into_iter().filter(|&p| Some(p) != empty_seat).collect();
    let mut kings = [0; 3];
    for _ in 0..3 {
        let mut owner = rng.pick(&seats);
        if kings[owner.index()] == 2 {
            owner = *seats.iter().find(|&&p| p != owner).unwrap();
        }
        kings[owner.index()] += 1;
        if rng.chance(30) {
            hands[owner].add(Role::King);
        } else {
            let c = rng.pick(&cells);
            if taken.insert(c) {
                pieces.push((c, Piece { player: owner, role: Role::King, promoted: false }));
            } else {
                hands[owner].add(Role::King);
            }
        }
    }
    for _ in 0..rng.below(12) {
        let role = rng.pick(&Role::DROPPABLE);
        let player = rng.pick(&seats);
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
    HexShogiSetup {
        pieces,
        hands,
        to_move: rng.pick(&Player::ALL),
        plies: 0,
        plies_without_capture: rng.below(150) as u32,
        passes_in_a_row: 0,
        timed_out: PlayerSet::EMPTY,
    }
}

#[derive(Default)]
struct Coverage {
    positions: usize,
    with_hands: usize,
    king_in_hand: usize,
    promoted: usize,
    two_kings_one_player: usize,
    lost_player: usize,
    forced_passes: usize,
    loser_passes: usize,
    kings_collected: usize,
    all_passed: usize,
    no_capture: usize,
    refusals: Refusals,
}

fn check_one(pos: &HexShogiPosition, cov: &mut Coverage) {
    if let Some(diff) = compare(pos, &mut cov.refusals) {
        panic!("fast and reference generators differ:\n{diff}");
    }
    assert_eq!(pos.material_key(), pos.recomputed_material_key());
    cov.positions += 1;
    if Player::ALL.iter().any(|&p| !pos.hand(p).is_empty()) {
        cov.with_hands += 1;
    }
    if Player::ALL.iter().any(|&p| pos.hand(p).count(Role::King) > 0) {
        cov.king_in_hand += 1;
    }
    if pos.occupied().any(|c| pos.piece_at(c).unwrap().promoted) {
        cov.promoted += 1;
    }
    if Player::ALL.iter().any(|&p| pos.kings_held(p) == 2) {
        cov.two_kings_one_player += 1;
    }
    if !pos.lost_players().is_empty() {
        cov.lost_player += 1;
    }
    if pos.outcome().is_none() && legal(pos).as_slice() == [Move::Pass] {
        if pos.lost_players().contains(pos.to_move()) {
            cov.loser_passes += 1;
        } else {
            cov.forced_passes += 1;
        }
    }
}

fn playout(mut pos: HexShogiPosition, plies: usize, rng: &mut Rng, victim: Option<Player>, cov: &mut Coverage) {
    for _ in 0..plies {
        check_one(&pos, cov);
        if pos.outcome().is_some() {
            return;
        }
        let moves = legal(&pos);
        let m = biased_move(&pos, &moves, rng, victim);
        let mut reference = RefPos::from_library(&pos);
        let expected = reference.play(&hex_reference::from_library(m));
        pos.play_unchecked(m);
        assert_eq!(pos.outcome(), expected, "after {m:?} in {pos:?}");
        match pos.outcome() {
            Some(Outcome::Win { reason: WinReason::KingsCollected, .. }) => cov.kings_collected += 1,
            Some(Outcome::Draw { reason: DrawReason::AllPassed, .. }) => cov.all_passed += 1,
            Some(Outcome::Draw { reason: DrawReason::NoCapture, .. }) => cov.no_capture += 1,
            _ => {}
        }
    }
}

#[test]
fn fast_generator_equals_reference_on_thousands_of_positions() {
    let rules = HexShogiRules::tphs91();
    let mut rng = Rng::new(3000);
    let mut cov = Coverage::default();
    for index in 0..36 {
        let victim = if index % 3 == 0 { None } else { Some(rng.pick(&Player::ALL)) };
        playout(HexShogiPosition::start(rules), 250, &mut rng, victim, &mut cov);
    }
    let mut sparse = 0;
    while sparse < 500 {
        let mut rules = HexShogiRules::tphs91();
        if rng.chance(20) {
            rules.set("pawn_drop_no_pawn_support=false").unwrap();
        }
        if rng.chance(20) {
            rules.set("pawn_drop_may_not_attack_king=false").unwrap();
        }
        let Ok(pos) = HexShogiPosition::from_setup(random_sparse_setup(&mut rng), rules) else { continue };
        sparse += 1;
        let victim = if rng.chance(50) { Some(rng.pick(&Player::ALL)) } else { None };
        playout(pos, 40, &mut rng, victim, &mut cov);
    }
    // The walled-in positions of the pass tests, for forced passes and the all-passed draw.
    let mut walled = setup(BLACK, [BLACK_WALLED, "", ""], ["", "", ""]);
    walled.pieces.extend(walled_one_king(WHITE));
    playout(position_with(rules, walled), 5, &mut rng, None, &mut cov);
    playout(position(BLACK, [BLACK_WALLED, "K6k R4h", "P2g"], ["", "", ""]), 30, &mut rng, None, &mut cov);

    let report = format!(
        "positions {} hands {} king in hand {} promoted {} two kings {} lost player {} forced passes {} loser passes {} \
         collected {} all passed {} no capture {} refusals {:?}",
        cov.positions,
        cov.with_hands,
        cov.king_in_hand,
        cov.promoted,
        cov.two_kings_one_player,
        cov.lost_player,
        cov.forced_passes,
        cov.loser_passes,
        cov.kings_collected,
        cov.all_passed,
        cov.no_capture,
        cov.refusals
    );
    assert!(cov.positions >= 5000, "{report}");
    assert!(cov.with_hands >= 2000 && cov.promoted >= 2000, "{report}");
    assert!(cov.king_in_hand >= 200 && cov.two_kings_one_player >= 500, "{report}");
    assert!(cov.lost_player >= 200 && cov.loser_passes >= 100, "{report}");
    assert!(cov.forced_passes >= 2 && cov.all_passed >= 1, "{report}");
    assert!(cov.kings_collected >= 20 && cov.no_capture >= 1, "{report}");
    assert!(cov.refusals.pawn_support >= 100 && cov.refusals.pawn_attacks_king >= 100, "{report}");
    assert!(cov.refusals.dead_cell >= 100 && cov.refusals.not_the_king_first >= 100, "{report}");
    println!("{report}");
}
