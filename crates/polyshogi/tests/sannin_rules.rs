//! Sannin shogi rules, one test per rule of RULES.md §1 (with the §5 defaults), each on a
//! hand-built position and asserting concrete legal-move sets (canonical text) or play results.
//!
//! Expected sets come from the spec, not from the library: the piece-movement sweep uses a small
//! model of the §1.2 frame tables kept in this file; everything else is written out by hand.

use std::collections::BTreeSet;

use polyshogi::geometry::{HexNaming, HEX127};
use polyshogi::notation::{move_text, play_text};
use polyshogi::outcome::{DrawReason, WinReason};
use polyshogi::perft::perft;
use polyshogi::replay::replay;
use polyshogi::splitmix::SplitMix;
use polyshogi::variant::sannin::{Compulsory, SanninGame, SanninPosition, SanninRules, SanninSetup};
use polyshogi::{ByPlayer, Cell, Event, Events, Hand, Move, MoveList, Outcome, Piece, Player, PlayerSet, Role, Rules, Variant};

const F: Player = Player::First;
const M: Player = Player::Second;
const L: Player = Player::Third;

// ---------------------------------------------------------------------------------------------
// Helpers

fn cell(name: &str) -> Cell {
    HexNaming::Sannin.parse(&HEX127, name).unwrap_or_else(|e| panic!("{e}"))
}

fn player(letter: &str) -> Player {
    match letter {
        "F" => F,
        "M" => M,
        "L" => L,
        _ => panic!("no player {letter}"),
    }
}

fn piece(owner: Player, text: &str) -> Piece {
    let (promoted, letter) = match text.strip_prefix('+') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let role = Role::from_letter(letter.chars().next().unwrap()).unwrap();
    Piece { player: owner, role, promoted }
}

/// A setup from `(player, piece, cell)` triples, e.g. `("M", "+R", "7g")`. Castling rights
/// are off (most tests are not about castling, and a hand-built king has usually "moved");
/// every promoted king may illuminate; hands are empty.
fn setup(pieces: &[(&str, &str, &str)], to_move: Player) -> SanninSetup {
    SanninSetup {
        pieces: pieces.iter().map(|&(p, pc, c)| (cell(c), piece(player(p), pc))).collect(),
        hands: ByPlayer::default(),
        to_move,
        eliminated: PlayerSet::EMPTY,
        allies: PlayerSet::EMPTY,
        former_allies: PlayerSet::EMPTY,
        may_castle: ByPlayer([false; 3]),
        illumination_ready: ByPlayer([true; 3]),
        plies: 0,
    }
}

fn hand(roles: &[Role]) -> Hand {
    let mut hand = Hand::EMPTY;
    for &role in roles {
        hand.add(role);
    }
    hand
}

/// The default rules plus `options`. Compulsory alliances are switched off: a hand-built
/// tactic (a discovered check, two attacks in a row) must not form an alliance behind the
/// back of the rule under test.
fn rules(options: &[&str]) -> SanninRules {
    let mut rules = SanninRules::default();
    rules.set("compulsory=off").unwrap();
    for option in options {
        rules.set(option).unwrap_or_else(|e| panic!("{e}"));
    }
    rules
}

fn position(setup: SanninSetup, options: &[&str]) -> SanninPosition {
    SanninPosition::from_setup(setup, rules(options)).unwrap_or_else(|e| panic!("bad test position: {e}"))
}

fn legal_list(pos: &SanninPosition) -> MoveList {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    moves
}

/// Every legal move as canonical text, sorted; a move listed twice (e.g. a castling jump
/// that is also a step) fails the test.
fn legal(pos: &SanninPosition) -> Vec<String> {
    let texts: Vec<String> = legal_list(pos).iter().map(|&m| move_text::canonical(pos, m)).collect();
    let unique: BTreeSet<String> = texts.iter().cloned().collect();
    assert_eq!(unique.len(), texts.len(), "duplicate legal moves in {texts:?}");
    unique.into_iter().collect()
}

/// The canonical texts of the legal board moves starting on `from`.
fn moves_from(pos: &SanninPosition, from: &str) -> Vec<String> {
    let from = cell(from);
    let mut v: Vec<String> = legal_list(pos)
        .iter()
        .filter(|m| matches!(m, Move::Normal { from: f, .. } if *f == from))
        .map(|&m| move_text::canonical(pos, m))
        .collect();
    v.sort();
    v
}

/// The cells the piece on `from` may move to (promotion or not).
fn destinations(pos: &SanninPosition, from: &str) -> Vec<String> {
    let from = cell(from);
    let set: BTreeSet<String> = legal_list(pos)
        .iter()
        .filter_map(|m| match *m {
            Move::Normal { from: f, to, .. } if f == from => Some(HexNaming::Sannin.name(&HEX127, to)),
            _ => None,
        })
        .collect();
    set.into_iter().collect()
}

fn drops_of(pos: &SanninPosition, role: Role) -> BTreeSet<String> {
    legal_list(pos)
        .iter()
        .filter_map(|m| match *m {
            Move::Drop { role: r, to } if r == role => Some(HexNaming::Sannin.name(&HEX127, to)),
            _ => None,
        })
        .collect()
}

fn illuminations(pos: &SanninPosition) -> Vec<String> {
    let mut v: Vec<String> =
        legal_list(pos).iter().filter(|m| matches!(m, Move::Illuminate { .. })).map(|&m| move_text::canonical(pos, m)).collect();
    v.sort();
    v
}

fn strings(items: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = items.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn find_move(pos: &SanninPosition, legal: &[Move], text: &str) -> Option<Move> {
    legal.iter().copied().find(|&m| move_text::canonical(pos, m) == text)
}

/// Plays the legal move whose canonical text is `text` exactly.
fn play(pos: &mut SanninPosition, text: &str) -> Events {
    let moves = legal_list(pos);
    let m = find_move(pos, &moves, text).unwrap_or_else(|| panic!("{text} is not legal here; legal: {:?}", legal(pos)));
    pos.play(m).expect("a listed move plays")
}

fn game_legal(game: &SanninGame) -> Vec<String> {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    let mut v: Vec<String> = moves.iter().map(|&m| move_text::canonical(game.position(), m)).collect();
    v.sort();
    v
}

fn game_play(game: &mut SanninGame, text: &str) -> Events {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    let m = find_move(game.position(), &moves, text)
        .unwrap_or_else(|| panic!("{text} is not legal in the game; legal: {:?}", game_legal(game)));
    game.play(m).expect("a listed move plays")
}

fn no_events() -> Vec<Event> {
    Vec::new()
}

// ---------------------------------------------------------------------------------------------
// A model of the spec's geometry (§1.1) and frames (§1.2), independent of the library.

/// Player-relative hour (index 0 = 12 o'clock) → (Δcolumn, Δrank), copied from §1.2.
const FRAME_FIRST: [(i8, i8); 12] =
    [(2, 1), (1, 0), (1, -1), (0, -1), (-1, -2), (-1, -1), (-2, -1), (-1, 0), (-1, 1), (0, 1), (1, 2), (1, 1)];
const FRAME_MIDDLE: [(i8, i8); 12] =
    [(-1, -2), (-1, -1), (-2, -1), (-1, 0), (-1, 1), (0, 1), (1, 2), (1, 1), (2, 1), (1, 0), (1, -1), (0, -1)];
const FRAME_LAST: [(i8, i8); 12] =
    [(-1, 1), (0, 1), (1, 2), (1, 1), (2, 1), (1, 0), (1, -1), (0, -1), (-1, -2), (-1, -1), (-2, -1), (-1, 0)];

fn frame(p: Player) -> &'static [(i8, i8); 12] {
    match p {
        Player::First => &FRAME_FIRST,
        Player::Second => &FRAME_MIDDLE,
        Player::Third => &FRAME_LAST,
    }
}

fn spec_on_board(c: i8, r: i8) -> bool {
    (1..=13).contains(&c) && (1..=13).contains(&r) && (c - r).abs() <= 6
}

fn col_rank(name: &str) -> (i8, i8) {
    let (digits, letter) = name.split_at(name.len() - 1);
    (digits.parse().unwrap(), (letter.as_bytes()[0] - b'a' + 1) as i8)
}

fn spec_name(c: i8, r: i8) -> String {
    format!("{c}{}", (b'a' + r as u8 - 1) as char)
}

/// §1.1 territories.
fn spec_territory(p: Player, name: &str) -> bool {
    let (c, r) = col_rank(name);
    match p {
        Player::First => c <= 3,
        Player::Second => r >= 11,
        Player::Third => c - r >= 4,
    }
}

/// §1.8: both opposing territories.
fn spec_zone(p: Player, name: &str) -> bool {
    p.others3().iter().any(|&o| spec_territory(o, name))
}

/// Where a piece of `p` on `at` may go by §1.6 with `blocked` cells occupied by pieces it may
/// not take (kings, in the sweeps below): steps, and ranges that stop before a blocker.
fn spec_destinations(p: Player, at: &str, steps: &[u8], ranges: &[u8], blocked: &[&str]) -> Vec<String> {
    let (c0, r0) = col_rank(at);
    let blocked: Vec<(i8, i8)> = blocked.iter().map(|b| col_rank(b)).collect();
    let mut out = BTreeSet::new();
    for &h in steps {
        let (dc, dr) = frame(p)[h as usize % 12];
        let t = (c0 + dc, r0 + dr);
        if spec_on_board(t.0, t.1) && !blocked.contains(&t) {
            out.insert(spec_name(t.0, t.1));
        }
    }
    for &h in ranges {
        let (dc, dr) = frame(p)[h as usize % 12];
        let mut t = (c0 + dc, r0 + dr);
        while spec_on_board(t.0, t.1) && !blocked.contains(&t) {
            out.insert(spec_name(t.0, t.1));
            t = (t.0 + dc, t.1 + dr);
        }
    }
    out.into_iter().collect()
}

const CORNER_KINGS: [(&str, &str, &str); 3] = [("F", "K", "1g"), ("M", "K", "7m"), ("L", "K", "13g")];
const SWEEP_CELLS: [&str; 6] = ["7g", "5d", "10j", "3h", "12f", "6k"];

/// Puts `piece` for each player on each sweep cell (kings in three corners) and compares the
/// library's destinations with the §1.6 move set in that player's frame.
fn sweep(piece_text: &str, steps: &[u8], ranges: &[u8], options: &[&str]) {
    for p in Player::ALL {
        for at in SWEEP_CELLS {
            let letter = ["F", "M", "L"][p.index()];
            let mut pieces = CORNER_KINGS.to_vec();
            pieces.push((letter, piece_text, at));
            let pos = position(setup(&pieces, p), options);
            let expected = spec_destinations(p, at, steps, ranges, &["1g", "7m", "13g"]);
            assert_eq!(destinations(&pos, at), expected, "{piece_text} of {p:?} on {at} ({options:?})");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// §1.6 piece movement, in each player's own frame

#[test]
fn king_steps_on_the_six_orthogonals_only() {
    let cases = [
        (F, "4f", vec![("L", "K", "13g"), ("M", "K", "7m"), ("F", "K", "4f")], ["3e", "3f", "4e", "4g", "5f", "5g"]),
        (M, "9j", vec![("F", "K", "1g"), ("L", "K", "13g"), ("M", "K", "9j")], ["10j", "10k", "8i", "8j", "9i", "9k"]),
        (L, "9e", vec![("F", "K", "1g"), ("M", "K", "7m"), ("L", "K", "9e")], ["10e", "10f", "8d", "8e", "9d", "9f"]),
    ];
    for (p, at, pieces, expected) in cases {
        let pos = position(setup(&pieces, p), &[]);
        assert_eq!(destinations(&pos, at), strings(&expected), "{p:?}");
    }
}

#[test]
fn promoted_king_ranges_in_all_twelve_directions() {
    // Cells next to another king are left out: a king may not step into check.
    let middle = position(setup(&[("F", "K", "1g"), ("L", "K", "13g"), ("M", "+K", "9j")], M), &[]);
    let expected = "10i 10j 10k 10l 11h 11j 11k 11l 12j 12m 13j 13l 1b 2c 3d 3g 4e 4j 5b 5f 5h 5j 6d 6g \
                    6j 7f 7h 7i 7j 7l 8h 8i 8j 8k 9c 9d 9e 9f 9g 9h 9i 9k 9l 9m";
    assert_eq!(destinations(&middle, "9j"), strings(&expected.split_whitespace().collect::<Vec<_>>()));
    let last = position(setup(&[("F", "K", "1g"), ("M", "K", "7m"), ("L", "+K", "9e")], L), &[]);
    let expected = "10d 10e 10f 10g 11e 11f 11g 11i 12h 12k 13g 13i 13m 1a 1e 2e 3b 3e 4e 4j 5a 5c 5e 5i \
                    6b 6e 6h 7a 7c 7d 7e 7g 8c 8d 8e 8f 9c 9d 9f 9g 9h 9i 9j 9k 9l 9m";
    assert_eq!(destinations(&last, "9e"), strings(&expected.split_whitespace().collect::<Vec<_>>()));
}

#[test]
fn pawn_moves_at_11_and_1_oclock() {
    let pos = position(setup(&[CORNER_KINGS[0], CORNER_KINGS[1], CORNER_KINGS[2], ("M", "P", "9j")], M), &[]);
    assert_eq!(moves_from(&pos, "9j"), strings(&["P9j-9i", "P9j-8i"]));
    let pos = position(setup(&[CORNER_KINGS[0], CORNER_KINGS[1], CORNER_KINGS[2], ("F", "P", "4f")], F), &[]);
    assert_eq!(moves_from(&pos, "4f"), strings(&["P4f-5g", "P4f-5f"]));
    let pos = position(setup(&[CORNER_KINGS[0], CORNER_KINGS[1], CORNER_KINGS[2], ("L", "P", "9e")], L), &[]);
    assert_eq!(moves_from(&pos, "9e"), strings(&["P9e-8e", "P9e-9f"]));
    sweep("P", &[11, 1], &[], &[]);
}

#[test]
fn promoted_pawn_moves_as_a_gold() {
    let pos = position(setup(&[CORNER_KINGS[0], CORNER_KINGS[1], CORNER_KINGS[2], ("M", "+P", "9j")], M), &[]);
    assert_eq!(moves_from(&pos, "9j"), strings(&["+P9j-9i", "+P9j-8i", "+P9j-8j", "+P9j-10j", "+P9j-8h", "+P9j-10l"]));
    sweep("+P", &[11, 1, 3, 9, 12, 6], &[], &[]);
}

#[test]
fn gold_steps_at_11_1_3_9_and_diagonally_at_12_and_6() {
    let pos = position(setup(&[CORNER_KINGS[0], CORNER_KINGS[1], CORNER_KINGS[2], ("F", "G", "4f")], F), &[]);
    assert_eq!(moves_from(&pos, "4f"), strings(&["G4f-5g", "G4f-5f", "G4f-4e", "G4f-4g", "G4f-6g", "G4f-2e"]));
    let pos = position(setup(&[CORNER_KINGS[0], CORNER_KINGS[1], CORNER_KINGS[2], ("L", "G", "9e")], L), &[]);
    assert_eq!(moves_from(&pos, "9e"), strings(&["G9e-8e", "G9e-9f", "G9e-10f", "G9e-8d", "G9e-8f", "G9e-10d"]));
    sweep("G", &[11, 1, 3, 9, 12, 6], &[], &[]);
}

#[test]
fn silver_steps_at_11_1_5_7_and_diagonally_at_10_and_2() {
    let pos = position(setup(&[CORNER_KINGS[0], CORNER_KINGS[1], CORNER_KINGS[2], ("M", "S", "9j")], M), &[]);
    assert_eq!(moves_from(&pos, "9j"), strings(&["S9j-9i", "S9j-8i", "S9j-9k", "S9j-10k", "S9j-10i", "S9j-7i"]));
    let pos = position(setup(&[CORNER_KINGS[0], CORNER_KINGS[1], CORNER_KINGS[2], ("F", "S", "4f")], F), &[]);
    assert_eq!(moves_from(&pos, "4f"), strings(&["S4f-5g", "S4f-5f", "S4f-3e", "S4f-3f", "S4f-5h", "S4f-5e"]));
    sweep("S", &[11, 1, 5, 7, 10, 2], &[], &[]);
}

#[test]
fn promoted_silver_adds_ranges_at_12_and_6() {
    let pos = position(setup(&[CORNER_KINGS[0], CORNER_KINGS[1], CORNER_KINGS[2], ("M", "+S", "9j")], M), &[]);
    let expected = ["10i", "10k", "10l", "5b", "6d", "7f", "7i", "8h", "8i", "9i", "9k"];
    assert_eq!(destinations(&pos, "9j"), strings(&expected));
    sweep("+S", &[11, 1, 5, 7, 10, 2], &[12, 6], &[]);
}

#[test]
fn knight_steps_at_3_9_2_4_8_10_and_never_leaps() {
    let pos = position(setup(&[CORNER_KINGS[0], CORNER_KINGS[1], CORNER_KINGS[2], ("L", "N", "9e")], L), &[]);
    assert_eq!(moves_from(&pos, "9e"), strings(&["N9e-10f", "N9e-8d", "N9e-10g", "N9e-11f", "N9e-8c", "N9e-7d"]));
    sweep("N", &[3, 9, 2, 4, 8, 10], &[], &[]);
}

#[test]
fn lance_ranges_at_11_and_1_and_promoted_lance_adds_5_and_7() {
    let pos = position(setup(&[CORNER_KINGS[0], CORNER_KINGS[1], CORNER_KINGS[2], ("M", "L", "9j")], M), &[]);
    let expected = ["1b", "2c", "3d", "4e", "5f", "6g", "7h", "8i", "9c", "9d", "9e", "9f", "9g", "9h", "9i"];
    assert_eq!(destinations(&pos, "9j"), strings(&expected));
    sweep("L", &[], &[11, 1], &[]);
    sweep("+L", &[], &[11, 1, 5, 7], &[]);
}

#[test]
fn rook_ranges_at_11_1_3_9_and_straight_back_at_6() {
    let pos = position(setup(&[CORNER_KINGS[0], CORNER_KINGS[1], CORNER_KINGS[2], ("M", "R", "9j")], M), &[]);
    let expected = "10j 10l 11j 12j 13j 1b 2c 3d 4e 4j 5f 5j 6g 6j 7h 7j 8i 8j 9c 9d 9e 9f 9g 9h 9i";
    assert_eq!(destinations(&pos, "9j"), strings(&expected.split_whitespace().collect::<Vec<_>>()));
    sweep("R", &[], &[11, 1, 3, 9, 6], &[]);
}

#[test]
fn promoted_rook_ranges_on_the_six_orthogonals_only() {
    let pos = position(setup(&[CORNER_KINGS[0], CORNER_KINGS[1], CORNER_KINGS[2], ("M", "+R", "9j")], M), &[]);
    let dests = destinations(&pos, "9j");
    assert!(!dests.contains(&"10l".to_string()), "the 6 o'clock diagonal is dropped: {dests:?}");
    assert!(dests.contains(&"12m".to_string()) && dests.contains(&"9m".to_string()));
    sweep("+R", &[], &[1, 3, 5, 7, 9, 11], &[]);
}

#[test]
fn promoted_rook_keeps_its_rear_diagonal_under_the_option() {
    let option = ["promoted_rook_keeps_rear_diagonal=true"];
    let pos = position(setup(&[CORNER_KINGS[0], CORNER_KINGS[1], CORNER_KINGS[2], ("M", "+R", "9j")], M), &option);
    assert!(destinations(&pos, "9j").contains(&"10l".to_string()));
    sweep("+R", &[], &[1, 3, 5, 7, 9, 11, 6], &option);
}

#[test]
fn bishop_ranges_on_the_six_diagonals_and_promoted_bishop_adds_orthogonal_steps() {
    let pos = position(setup(&[CORNER_KINGS[0], CORNER_KINGS[1], CORNER_KINGS[2], ("M", "B", "9j")], M), &[]);
    let expected = "10i 10l 11h 11k 12g 13l 1f 3g 5b 5h 6d 7f 7i 7l 8h 8k";
    assert_eq!(destinations(&pos, "9j"), strings(&expected.split_whitespace().collect::<Vec<_>>()));
    sweep("B", &[], &[12, 2, 4, 6, 8, 10], &[]);
    sweep("+B", &[1, 3, 5, 7, 9, 11], &[12, 2, 4, 6, 8, 10], &[]);
}

#[test]
fn diagonal_moves_are_not_blocked_by_the_cells_passed_between() {
    // 7i and 6i lie between 7j and 6h; 9j and 8j between 9k and 8i. Only landing cells count.
    let pieces = [
        CORNER_KINGS[0],
        CORNER_KINGS[1],
        CORNER_KINGS[2],
        ("M", "G", "7j"),
        ("M", "P", "7i"),
        ("M", "P", "6i"),
        ("M", "B", "9k"),
        ("L", "P", "9j"),
        ("M", "P", "8j"),
    ];
    let pos = position(setup(&pieces, M), &[]);
    assert_eq!(destinations(&pos, "7j"), strings(&["6h", "6j", "8l"]));
    let expected = "10j 10m 11i 11l 12h 13m 4a 5c 6e 7g 8i 8l";
    assert_eq!(destinations(&pos, "9k"), strings(&expected.split_whitespace().collect::<Vec<_>>()));
}

#[test]
fn ranges_stop_on_the_first_piece_taking_only_other_players_non_king_pieces() {
    // Middle's rook on 9j: own pawn on 9g, First's silver on 11j, Last's king on 6j.
    let pieces = [
        ("F", "K", "1g"),
        ("M", "K", "7m"),
        ("L", "K", "6j"),
        ("M", "R", "9j"),
        ("M", "P", "9g"),
        ("F", "S", "11j"),
        ("L", "G", "7h"),
    ];
    let pos = position(setup(&pieces, M), &[]);
    let expected = ["9i", "9h", "10j", "11j", "8j", "7j", "8i", "7h", "10l"];
    assert_eq!(destinations(&pos, "9j"), strings(&expected));
    assert!(moves_from(&pos, "9j").contains(&"R9jx11j".to_string()));
    assert!(moves_from(&pos, "9j").contains(&"R9jx7h".to_string()));
}

// ---------------------------------------------------------------------------------------------
// §1.8 promotion

#[test]
fn promotion_on_moves_that_start_or_end_in_an_enemy_territory() {
    let kings = [("F", "K", "1g"), ("M", "K", "7m"), ("L", "K", "13g")];
    // Middle silver: 3e and 2e are First's territory.
    let mut pieces = kings.to_vec();
    pieces.push(("M", "S", "4f"));
    let pos = position(setup(&pieces, M), &[]);
    assert_eq!(
        moves_from(&pos, "4f"),
        strings(&["S4f-4e", "S4f-3e", "S4f-3e+", "S4f-4g", "S4f-5g", "S4f-5e", "S4f-2e", "S4f-2e+"])
    );
    // Starting inside First's territory, every move may promote, even one that leaves it.
    let mut pieces = kings.to_vec();
    pieces.push(("M", "S", "3e"));
    let pos = position(setup(&pieces, M), &[]);
    let from_inside = moves_from(&pos, "3e");
    assert!(from_inside.contains(&"S3e-4f+".to_string()) && from_inside.contains(&"S3e-4d+".to_string()));
    assert_eq!(from_inside.len(), 12, "{from_inside:?}");
    // A player's own territory is no zone for him.
    let mut pieces = kings.to_vec();
    pieces.push(("M", "S", "9l"));
    let pos = position(setup(&pieces, M), &[]);
    assert!(moves_from(&pos, "9l").iter().all(|m| !m.ends_with('+')), "{:?}", moves_from(&pos, "9l"));
    // First's zone holds Middle's territory; Last's holds First's.
    let mut pieces = kings.to_vec();
    pieces.push(("F", "S", "9i"));
    let pos = position(setup(&pieces, F), &[]);
    assert!(moves_from(&pos, "9i").contains(&"S9i-10k+".to_string()), "{:?}", moves_from(&pos, "9i"));
    let mut pieces = kings.to_vec();
    pieces.push(("L", "S", "4e"));
    let pos = position(setup(&pieces, L), &[]);
    assert!(moves_from(&pos, "4e").contains(&"S4e-3e+".to_string()), "{:?}", moves_from(&pos, "4e"));
}

#[test]
fn promotion_by_moving_into_or_out_of_the_garden_but_not_over_it() {
    let pieces = [("F", "K", "1g"), ("M", "K", "7m"), ("L", "K", "13g"), ("M", "R", "7j")];
    let pos = position(setup(&pieces, M), &[]);
    let up_column_7: Vec<String> = moves_from(&pos, "7j").into_iter().filter(|m| m.starts_with("R7j-7")).collect();
    let expected = [
        "R7j-7i", "R7j-7h", "R7j-7g", "R7j-7g+", "R7j-7f", "R7j-7e", "R7j-7d", "R7j-7c", "R7j-7c+", "R7j-7b", "R7j-7b+",
        "R7j-7a", "R7j-7a+",
    ];
    assert_eq!(up_column_7, strings(&expected));
    let pieces = [("F", "K", "1g"), ("M", "K", "7m"), ("L", "K", "13g"), ("M", "R", "7g")];
    let pos = position(setup(&pieces, M), &[]);
    assert!(moves_from(&pos, "7g").contains(&"R7g-7f+".to_string()));
    assert!(moves_from(&pos, "7g").contains(&"R7g-8g+".to_string()));
}

#[test]
fn passing_a_territory_corner_without_starting_or_ending_in_it_gives_no_promotion() {
    // On this board every territory is a band along an edge, so a straight ray cannot enter
    // one and leave it again; the rule therefore says: a promotion needs a start or an end in
    // an enemy territory or the Garden, whatever the ray passes. Checked for every cell.
    let kings = [("F", "K", "1a"), ("M", "K", "7m"), ("L", "K", "13g")];
    let grid = &*HEX127;
    for p in Player::ALL {
        let letter = ["F", "M", "L"][p.index()];
        for role in ["R", "B", "S"] {
            for c in grid.cells() {
                let at = HexNaming::Sannin.name(grid, c);
                if ["1a", "7m", "13g"].contains(&at.as_str()) {
                    continue;
                }
                let mut pieces = kings.to_vec();
                pieces.push((letter, role, at.as_str()));
                let pos = position(setup(&pieces, p), &[]);
                for m in legal_list(&pos) {
                    let Move::Normal { from, to, promote } = m else { continue };
                    if from != c {
                        continue;
                    }
                    let to_name = HexNaming::Sannin.name(grid, to);
                    let qualifies = spec_zone(p, &at) || spec_zone(p, &to_name) || at == "7g" || to_name == "7g";
                    if promote {
                        assert!(qualifies, "{}: promotion offered outside the zones", move_text::canonical(&pos, m));
                    } else if qualifies {
                        let promoted = Move::Normal { from, to, promote: true };
                        assert!(legal_list(&pos).contains(&promoted), "{letter} {role}{at}-{to_name}: promotion missing");
                    }
                }
            }
        }
    }
}

#[test]
fn king_promotes_by_the_zone_rule_unless_king_zone_promotion_is_off() {
    let pieces = [("F", "K", "1a"), ("M", "K", "4f"), ("L", "K", "13g")];
    let pos = position(setup(&pieces, M), &[]);
    assert_eq!(
        moves_from(&pos, "4f"),
        strings(&["K4f-3f", "K4f-3f+", "K4f-3e", "K4f-3e+", "K4f-5f", "K4f-4e", "K4f-4g", "K4f-5g"])
    );
    let pos = position(setup(&pieces, M), &["king_zone_promotion=false"]);
    assert_eq!(moves_from(&pos, "4f"), strings(&["K4f-3f", "K4f-3e", "K4f-5f", "K4f-4e", "K4f-4g", "K4f-5g"]));
}

#[test]
fn king_never_promotes_through_the_garden() {
    let pos = position(setup(&[("F", "K", "1a"), ("M", "K", "7h"), ("L", "K", "13g")], M), &[]);
    assert!(moves_from(&pos, "7h").contains(&"K7h-7g".to_string()));
    assert!(!moves_from(&pos, "7h").contains(&"K7h-7g+".to_string()));
    let pos = position(setup(&[("F", "K", "1a"), ("M", "K", "7g"), ("L", "K", "13g")], M), &[]);
    assert_eq!(moves_from(&pos, "7g"), strings(&["K7g-6g", "K7g-8g", "K7g-6f", "K7g-7f", "K7g-7h", "K7g-8h"]));
}

#[test]
fn gold_and_knight_never_promote() {
    let pieces = [("F", "K", "1a"), ("M", "K", "7m"), ("L", "K", "13g"), ("M", "G", "4f"), ("M", "N", "4d")];
    let pos = position(setup(&pieces, M), &[]);
    let gold = moves_from(&pos, "4f");
    assert!(gold.contains(&"G4f-3e".to_string()) && gold.contains(&"G4f-3f".to_string()), "{gold:?}");
    let knight = moves_from(&pos, "4d");
    assert!(knight.contains(&"N4d-3d".to_string()) && knight.contains(&"N4d-2c".to_string()), "{knight:?}");
    assert!(gold.iter().chain(&knight).all(|m| !m.ends_with('+')), "{gold:?} {knight:?}");
}

#[test]
fn pawns_and_lances_must_promote_on_their_dead_cells_even_outside_the_zones() {
    let kings = [("F", "K", "1g"), ("M", "K", "10m"), ("L", "K", "13g")];
    let with = |extra: &[(&'static str, &'static str, &'static str)], to_move: Player, options: &[&str]| {
        let mut pieces = kings.to_vec();
        pieces.extend_from_slice(extra);
        position(setup(&pieces, to_move), options)
    };
    // Middle: rank a; 4a is in neither enemy territory.
    let pos = with(&[("M", "P", "4b")], M, &[]);
    assert_eq!(moves_from(&pos, "4b"), strings(&["P4b-4a+", "P4b-3a+"]));
    let pos = with(&[("M", "L", "4c")], M, &[]);
    assert_eq!(moves_from(&pos, "4c"), strings(&["L4c-4b", "L4c-4a+", "L4c-3b", "L4c-3b+", "L4c-2a+"]));
    // First: column 13; 13j is in neither enemy territory.
    let pos = with(&[("F", "P", "12i")], F, &[]);
    assert_eq!(moves_from(&pos, "12i"), strings(&["P12i-13j+", "P12i-13i+"]));
    // Last: 1g…7m; 4j is in neither enemy territory.
    let pos = with(&[("L", "P", "5j")], L, &[]);
    assert_eq!(moves_from(&pos, "5j"), strings(&["P5j-4j+", "P5j-5k+"]));
}

#[test]
fn dead_cell_rule_illegal_forbids_the_move_outside_the_zones() {
    let pieces = [("F", "K", "1g"), ("M", "K", "10m"), ("L", "K", "13g"), ("M", "P", "4b"), ("F", "P", "12i"), ("L", "P", "5j")];
    let pos = position(setup(&pieces, M), &["dead_cell_rule=illegal"]);
    assert_eq!(moves_from(&pos, "4b"), strings(&["P4b-3a+"]));
    let pos = position(setup(&pieces, F), &["dead_cell_rule=illegal"]);
    assert_eq!(moves_from(&pos, "12i"), strings(&["P12i-13i+"]));
    let pos = position(setup(&pieces, L), &["dead_cell_rule=illegal"]);
    assert_eq!(moves_from(&pos, "5j"), strings(&["P5j-5k+"]));
}

#[test]
fn dead_cell_rule_allow_stuck_keeps_promotion_optional() {
    let pieces = [("F", "K", "1g"), ("M", "K", "10m"), ("L", "K", "13g"), ("M", "P", "4b")];
    let pos = position(setup(&pieces, M), &["dead_cell_rule=allow_stuck"]);
    assert_eq!(moves_from(&pos, "4b"), strings(&["P4b-4a", "P4b-3a", "P4b-3a+"]));
}

// ---------------------------------------------------------------------------------------------
// §1.7 drops

#[test]
fn drops_go_to_any_empty_cell_unpromoted() {
    let mut s = setup(&[("F", "K", "1d"), ("M", "K", "10m"), ("L", "K", "10d")], M);
    s.hands[M] = hand(&[Role::Silver]);
    let mut pos = position(s, &[]);
    let drops = drops_of(&pos, Role::Silver);
    assert_eq!(drops.len(), 124, "every empty cell");
    assert!(drops.contains("7g") && drops.contains("4a") && drops.contains("1a"));
    // A drop inside an enemy territory is still unpromoted.
    let events = play(&mut pos, "S*2b");
    assert_eq!(events.as_slice(), no_events().as_slice());
    assert_eq!(pos.piece_at(cell("2b")), Some(Piece { player: M, role: Role::Silver, promoted: false }));
    assert_eq!(pos.hand(M).count(Role::Silver), 0);
}

#[test]
fn pawns_and_lances_may_not_be_dropped_on_the_far_gap_edge_but_knights_may() {
    let far_edges = [
        (F, ["13g", "13h", "13i", "13j", "13k", "13l", "13m"]),
        (M, ["1a", "2a", "3a", "4a", "5a", "6a", "7a"]),
        (L, ["1g", "2h", "3i", "4j", "5k", "6l", "7m"]),
    ];
    for (p, edge) in far_edges {
        let mut s = setup(&[("F", "K", "1d"), ("M", "K", "10m"), ("L", "K", "10d")], p);
        s.hands[p] = hand(&[Role::Pawn, Role::Lance, Role::Knight]);
        let pos = position(s, &[]);
        let (pawns, lances, knights) = (drops_of(&pos, Role::Pawn), drops_of(&pos, Role::Lance), drops_of(&pos, Role::Knight));
        assert_eq!(knights.len(), 124, "{p:?}");
        assert_eq!(pawns.len(), 117, "{p:?}");
        assert_eq!(lances.len(), 117, "{p:?}");
        for c in edge {
            assert!(!pawns.contains(c) && !lances.contains(c), "{p:?} may not drop a pawn or lance on {c}");
            assert!(knights.contains(c), "{p:?} may drop a knight on {c}");
        }
    }
}

/// First's king in the corner 1a; Middle's gold guards 1b, its rook on column 2 guards 2a and
/// 2b. A pawn on 1b or 2b would check the king with no way out.
fn pawn_drop_mate_setup() -> SanninSetup {
    let mut s = setup(&[("F", "K", "1a"), ("M", "G", "1c"), ("M", "R", "2e"), ("M", "K", "10m"), ("L", "K", "10d")], M);
    s.hands[M] = hand(&[Role::Pawn]);
    s
}

#[test]
fn pawn_drop_mate_is_illegal() {
    let pos = position(pawn_drop_mate_setup(), &[]);
    let pawns = drops_of(&pos, Role::Pawn);
    assert!(!pawns.contains("1b") && !pawns.contains("2b"), "mating pawn drops offered");
    assert!(pawns.contains("3b") && pawns.contains("2d"));
    // Without the rook the same drop checks but does not mate, and is legal.
    let mut s = pawn_drop_mate_setup();
    s.pieces.retain(|&(c, _)| c != cell("2e"));
    let pos = position(s, &[]);
    assert!(drops_of(&pos, Role::Pawn).contains("1b"));
}

#[test]
fn pawn_drop_mate_is_allowed_when_forbid_pawn_drop_mate_is_off() {
    let mut pos = position(pawn_drop_mate_setup(), &["forbid_pawn_drop_mate=false"]);
    let pawns = drops_of(&pos, Role::Pawn);
    assert!(pawns.contains("1b") && pawns.contains("2b"));
    let events = play(&mut pos, "P*1b");
    assert_eq!(events.as_slice(), &[Event::Checkmated { player: F, by: M }]);
}

#[test]
fn pawn_drop_that_only_guards_the_flight_of_a_king_checked_by_someone_else_is_legal_even_if_it_mates() {
    // Last's rook on 5a checks First's king on 1a along rank a; P*2c guards 1b and 2b.
    let mut s = setup(&[("F", "K", "1a"), ("L", "R", "5a"), ("M", "K", "10m"), ("L", "K", "10d")], M);
    s.hands[M] = hand(&[Role::Pawn]);
    let mut pos = position(s, &[]);
    assert!(drops_of(&pos, Role::Pawn).contains("2c"));
    let events = play(&mut pos, "P*2c");
    assert_eq!(events.as_slice(), &[Event::Checkmated { player: F, by: M }]);
}

// ---------------------------------------------------------------------------------------------
// §1.9 castling

#[test]
fn castling_jumps_to_any_free_cell_of_the_own_territory() {
    let territory = [
        (F, "1d", "1a 1b 1c 1e 1f 1g 2a 2b 2c 2d 2e 2f 2g 2h 3a 3b 3c 3d 3e 3f 3g 3h 3i"),
        (M, "10m", "10k 10l 11k 11l 11m 12k 12l 12m 13k 13l 13m 5k 6k 6l 7k 7l 7m 8k 8l 8m 9k 9l 9m"),
        (L, "10d", "10e 10f 11e 11f 11g 12f 12g 12h 13g 13h 13i 5a 6a 6b 7a 7b 7c 8b 8c 8d 9c 9d 9e"),
    ];
    for (p, king, cells) in territory {
        let mut s = setup(&[("F", "K", "1d"), ("M", "K", "10m"), ("L", "K", "10d")], p);
        s.may_castle[p] = true;
        let pos = position(s, &[]);
        assert_eq!(destinations(&pos, king), strings(&cells.split_whitespace().collect::<Vec<_>>()), "{p:?}");
    }
    let mut s = setup(&[("F", "K", "1d"), ("M", "K", "10m"), ("L", "K", "10d")], M);
    s.may_castle[M] = true;
    let pos = position(s, &[]);
    assert!(moves_from(&pos, "10m").contains(&"K10m-12k".to_string()));
}

#[test]
fn castling_may_capture_unless_castle_may_capture_is_off() {
    let pieces = [("F", "K", "1d"), ("M", "K", "10m"), ("L", "K", "10d"), ("F", "S", "12k"), ("L", "N", "6l")];
    let mut s = setup(&pieces, M);
    s.may_castle[M] = true;
    let pos = position(s.clone(), &[]);
    let king = moves_from(&pos, "10m");
    assert!(king.contains(&"K10mx12k".to_string()) && king.contains(&"K10mx6l".to_string()), "{king:?}");
    let pos = position(s, &["castle_may_capture=false"]);
    let king = moves_from(&pos, "10m");
    assert!(!king.contains(&"K10mx12k".to_string()) && !king.contains(&"K10mx6l".to_string()), "{king:?}");
    assert!(king.contains(&"K10m-8k".to_string()), "{king:?}");
}

#[test]
fn castling_may_not_land_in_check() {
    // Last's rook on 8f sweeps column 8 and, at its 3 o'clock, reaches 13k.
    let mut s = setup(&[("F", "K", "1d"), ("M", "K", "10m"), ("L", "K", "10d"), ("L", "R", "8f")], M);
    s.may_castle[M] = true;
    let pos = position(s, &[]);
    let expected = "10k 10l 11k 11l 11m 12k 12l 12m 13l 13m 5k 6k 6l 7k 7l 7m 9k 9l 9m";
    assert_eq!(destinations(&pos, "10m"), strings(&expected.split_whitespace().collect::<Vec<_>>()));
}

#[test]
fn castling_refused_while_in_check() {
    let mut s = setup(&[("F", "K", "1d"), ("F", "R", "9f"), ("M", "K", "10m"), ("L", "K", "10d")], F);
    s.may_castle[M] = true;
    let mut pos = position(s, &[]);
    play(&mut pos, "R9f-10f");
    assert!(pos.in_check(M));
    assert_eq!(moves_from(&pos, "10m"), strings(&["K10m-9m", "K10m-11m", "K10m-9l"]));
}

#[test]
fn castling_refused_while_in_check_in_a_hand_built_position() {
    // The setup claims the right although Last's rook checks the king; the rule still holds.
    let mut s = setup(&[("F", "K", "1d"), ("M", "K", "10m"), ("L", "K", "10d"), ("L", "R", "10f")], M);
    s.may_castle[M] = true;
    let Ok(pos) = SanninPosition::from_setup(s, rules(&[])) else { return };
    assert_eq!(moves_from(&pos, "10m"), strings(&["K10m-9m", "K10m-11m", "K10m-9l"]));
}

#[test]
fn castling_refused_after_the_king_was_ever_in_check() {
    // Checked by Last's rook, Middle blocks with his gold; two rounds later, no castling.
    let pieces = [("F", "K", "1d"), ("M", "K", "10m"), ("M", "G", "11l"), ("L", "K", "10d"), ("L", "R", "12f")];
    let mut s = setup(&pieces, L);
    s.may_castle[M] = true;
    let mut pos = position(s, &[]);
    play(&mut pos, "R12f-10f");
    play(&mut pos, "K1d-1e");
    play(&mut pos, "G11l-10l");
    play(&mut pos, "K10d-9c");
    play(&mut pos, "K1e-1d");
    assert!(!pos.may_castle(M));
    assert_eq!(moves_from(&pos, "10m"), strings(&["K10m-9m", "K10m-11m", "K10m-9l"]));

    // First's rook is uncovered by Last's gold moving away, and First withdraws it at once:
    // Middle never had to answer the check, yet it was one.
    let pieces = [("F", "K", "1a"), ("F", "R", "10f"), ("M", "K", "10m"), ("L", "K", "13k"), ("L", "G", "10h")];
    let mut s = setup(&pieces, L);
    s.may_castle[M] = true;
    let mut pos = position(s, &[]);
    play(&mut pos, "G10h-9h");
    assert!(!pos.may_castle(M));
    play(&mut pos, "R10f-8e");
    assert!(!pos.in_check(M));
    assert_eq!(moves_from(&pos, "10m"), strings(&["K10m-9m", "K10m-11m", "K10m-9l", "K10m-10l"]));
}

#[test]
fn castling_refused_after_the_king_moved() {
    let mut s = setup(&[("F", "K", "1d"), ("M", "K", "10m"), ("L", "K", "10d")], M);
    s.may_castle = ByPlayer([true; 3]);
    let mut pos = position(s, &[]);
    for text in ["K10m-10l", "K10d-9c", "K1d-1e", "K10l-10m", "K9c-10d", "K1e-1d"] {
        play(&mut pos, text);
    }
    assert!(!pos.may_castle(M));
    assert_eq!(moves_from(&pos, "10m"), strings(&["K10m-9m", "K10m-11m", "K10m-9l", "K10m-10l"]));
}

#[test]
fn castling_refused_once_an_alliance_exists() {
    let mut s = setup(&[("F", "+K", "1a"), ("M", "K", "10m"), ("L", "K", "10d")], M);
    s.may_castle = ByPlayer([true; 3]);
    s.allies = PlayerSet::of(&[M, L]);
    let pos = position(s, &[]);
    assert_eq!(moves_from(&pos, "10m"), strings(&["K10m-9m", "K10m-11m", "K10m-9l", "K10m-10l"]));

    let mut start = SanninSetup::start(&rules(&["alliance=ML"]));
    start.to_move = M;
    let pos = position(start, &["alliance=ML"]);
    assert!(Player::ALL.iter().all(|&p| !pos.may_castle(p)));
    assert_eq!(moves_from(&pos, "10m"), strings(&["K10m-9l", "K10m-10l"]));
}

// ---------------------------------------------------------------------------------------------
// §1.10 check and legality

#[test]
fn a_check_from_either_other_player_must_be_answered() {
    for checker in ["F", "L"] {
        let pieces = [("F", "K", "1a"), ("L", "K", "7a"), ("M", "K", "10m"), ("M", "S", "9j"), (checker, "R", "10f")];
        let pos = position(setup(&pieces, M), &[]);
        assert!(pos.in_check(M));
        assert_eq!(legal(&pos), strings(&["K10m-9m", "K10m-11m", "K10m-9l", "S9j-10k", "S9j-10i"]), "checker {checker}");
    }
}

#[test]
fn no_move_may_leave_the_own_king_attacked() {
    for pinner in ["F", "L"] {
        let pieces = [("F", "K", "1a"), ("L", "K", "7a"), ("M", "K", "10m"), ("M", "S", "10k"), (pinner, "R", "10f")];
        let pos = position(setup(&pieces, M), &[]);
        assert_eq!(moves_from(&pos, "10k"), strings(&["S10k-10j", "S10k-10l"]), "pinned by {pinner}");
    }
}

#[test]
fn kings_are_never_captured() {
    // Middle's rook on 4a attacks both other kings along rank a.
    let pieces = [("F", "K", "1a"), ("L", "K", "7a"), ("M", "K", "10m"), ("M", "R", "4a")];
    let pos = position(setup(&pieces, M), &[]);
    assert_eq!(destinations(&pos, "4a"), strings(&["2a", "3a", "5a", "6a", "5c", "6e", "7g", "8i", "9k"]));
    assert!(legal(&pos).iter().all(|m| !m.contains("x1a") && !m.contains("x7a")));
}

#[test]
fn allies_may_not_check_each_other_but_may_capture_each_others_pieces() {
    // Middle and Last allied. From 4a, 7e, 7k or 11e Middle's rook would attack Last's king.
    let pieces = [("F", "K", "1g"), ("L", "K", "7a"), ("L", "N", "2e"), ("M", "R", "4e"), ("M", "K", "10m")];
    let mut s = setup(&pieces, M);
    s.allies = PlayerSet::of(&[M, L]);
    let pos = position(s, &[]);
    let expected = "10e 1b 2c 2e 3d 3e 4b 4c 4d 5e 5g 6e 6i 8e 8m 9e";
    assert_eq!(destinations(&pos, "4e"), strings(&expected.split_whitespace().collect::<Vec<_>>()));
    assert!(moves_from(&pos, "4e").contains(&"R4ex2e".to_string()));

    // The same under a pre-game alliance: Middle's bishop may still take Last's pawn on 8d.
    let mut start = SanninSetup::start(&rules(&["alliance=ML"]));
    start.to_move = M;
    let pos = position(start, &["alliance=ML"]);
    assert!(moves_from(&pos, "12l").contains(&"B12lx8d".to_string()), "{:?}", moves_from(&pos, "12l"));
}

// ---------------------------------------------------------------------------------------------
// §1.11 illumination

/// First's +K on 8h. First piece on each ray: Middle pawn 6h (free), Last silver 8f (free),
/// Last +L 10j (free), Middle gold 8j (guarded by Middle's pawn 8k), Last knight 10f (guarded
/// by Middle's gold 11f: the other other player), Middle king 6d, First's own silver 6g.
fn illumination_setup() -> SanninSetup {
    setup(
        &[
            ("F", "+K", "8h"),
            ("F", "S", "6g"),
            ("M", "K", "6d"),
            ("M", "P", "6h"),
            ("M", "G", "8j"),
            ("M", "P", "8k"),
            ("M", "G", "11f"),
            ("L", "K", "13g"),
            ("L", "S", "8f"),
            ("L", "+L", "10j"),
            ("L", "N", "10f"),
        ],
        F,
    )
}

#[test]
fn illumination_offers_every_nonempty_subset_of_the_free_targets() {
    let pos = position(illumination_setup(), &[]);
    let expected = ["+K8h!6h", "+K8h!8f", "+K8h!10j", "+K8h!6h,8f", "+K8h!6h,10j", "+K8h!8f,10j", "+K8h!6h,8f,10j"];
    assert_eq!(illuminations(&pos), strings(&expected), "2^3 - 1 subsets");
}

#[test]
fn illumination_all_and_exactly_one_options() {
    let pos = position(illumination_setup(), &["illumination=all"]);
    assert_eq!(illuminations(&pos), strings(&["+K8h!6h,8f,10j"]));
    let pos = position(illumination_setup(), &["illumination=exactly_one"]);
    assert_eq!(illuminations(&pos), strings(&["+K8h!6h", "+K8h!8f", "+K8h!10j"]));
}

#[test]
fn illumination_needs_illumination_ready() {
    let mut s = illumination_setup();
    s.illumination_ready[F] = false;
    let pos = position(s, &[]);
    assert_eq!(illuminations(&pos), Vec::<String>::new());
    assert!(!moves_from(&pos, "8h").is_empty(), "the king still moves");
}

#[test]
fn illuminated_pieces_go_unpromoted_to_the_illuminators_hand() {
    let mut pos = position(illumination_setup(), &[]);
    let events = play(&mut pos, "+K8h!6h,8f,10j");
    assert_eq!(events.as_slice(), no_events().as_slice());
    for c in ["6h", "8f", "10j"] {
        assert_eq!(pos.piece_at(cell(c)), None, "{c}");
    }
    assert_eq!(pos.piece_at(cell("8h")), Some(piece(F, "+K")), "the king stays");
    let h = pos.hand(F);
    assert_eq!((h.count(Role::Pawn), h.count(Role::Silver), h.count(Role::Lance), h.total()), (1, 1, 1, 3));
    assert_eq!(pos.to_move(), M);
}

#[test]
fn a_king_that_promotes_by_moving_may_illuminate_only_from_its_next_turn() {
    // Middle's king promotes entering First's territory next to Last's undefended pawn.
    let pieces = [("F", "K", "5a"), ("M", "K", "4f"), ("L", "K", "13g"), ("L", "P", "1e"), ("F", "P", "9i")];
    let mut pos = position(setup(&pieces, M), &[]);
    play(&mut pos, "K4f-3e+");
    assert!(!pos.illumination_ready(M));
    play(&mut pos, "K13g-12f");
    play(&mut pos, "P9i-10j");
    assert!(pos.illumination_ready(M));
    assert!(illuminations(&pos).contains(&"+K3e!1e".to_string()), "{:?}", illuminations(&pos));
}

// ---------------------------------------------------------------------------------------------
// §1.10 checkmate, elimination and turn

/// Middle's G3c-2b mates First's king on 1a (the gold guarded by the pawn on 2c). First also
/// has a pawn on 5f and a gold and a pawn in hand, none of which can help against a contact check.
fn contact_mate_setup() -> SanninSetup {
    let mut s =
        setup(&[("F", "K", "1a"), ("F", "P", "5f"), ("M", "G", "3c"), ("M", "P", "2c"), ("M", "K", "10m"), ("L", "K", "10d")], M);
    s.hands[F] = hand(&[Role::Gold, Role::Pawn]);
    s
}

#[test]
fn checkmate_eliminates_the_mated_player_and_the_mating_player_moves_again() {
    let mut pos = position(contact_mate_setup(), &[]);
    let events = play(&mut pos, "G3c-2b");
    assert_eq!(events.as_slice(), &[Event::Checkmated { player: F, by: M }]);
    assert_eq!(pos.active_players(), PlayerSet::of(&[M, L]));
    assert_eq!(pos.pieces_of(F).count(), 0);
    assert_eq!(pos.piece_at(cell("5f")), None);
    assert!(pos.hand(F).is_empty());
    assert_eq!(pos.to_move(), M);
    assert_eq!(pos.outcome(), None);
}

#[test]
fn turn_after_mate_normal_rotation_passes_the_turn_on() {
    let mut pos = position(contact_mate_setup(), &["turn_after_mate=normal_rotation"]);
    let events = play(&mut pos, "G3c-2b");
    assert_eq!(events.as_slice(), &[Event::Checkmated { player: F, by: M }]);
    assert_eq!(pos.to_move(), L);
}

#[test]
fn a_move_that_mates_both_other_players_wins() {
    // R4e-4a checks 1a and 7a along rank a; the silvers on 2c and 8c guard the other flights.
    let pieces = [("F", "K", "1a"), ("L", "K", "7a"), ("M", "S", "2c"), ("M", "S", "8c"), ("M", "R", "4e"), ("M", "K", "10m")];
    let mut pos = position(setup(&pieces, M), &[]);
    let events = play(&mut pos, "R4e-4a");
    let win = Outcome::Win { winner: M, reason: WinReason::LastStanding };
    assert_eq!(events.len(), 3, "{events:?}");
    assert!(events.contains(&Event::Checkmated { player: F, by: M }));
    assert!(events.contains(&Event::Checkmated { player: L, by: M }));
    assert_eq!(events.last(), Some(&game_over(win, [2, 1, 2])));
    assert_eq!(pos.outcome(), Some(win));
}

#[test]
fn the_last_player_standing_wins() {
    let mut s = contact_mate_setup();
    s.pieces.retain(|&(_, p)| p.player != L);
    s.eliminated = PlayerSet::of(&[L]);
    let mut pos = position(s, &[]);
    let events = play(&mut pos, "G3c-2b");
    let win = Outcome::Win { winner: M, reason: WinReason::LastStanding };
    assert_eq!(events.as_slice(), &[Event::Checkmated { player: F, by: M }, game_over(win, [2, 1, 3])]);
    assert_eq!(pos.outcome(), Some(win));
    assert!(legal(&pos).is_empty());
}

/// The mate of `contact_mate_setup` as a threat: First to move, Middle's G3c-2b would mate him.
fn mate_threat_setup() -> SanninSetup {
    let mut s = contact_mate_setup();
    s.to_move = F;
    s
}

/// Whether some legal reply of Middle's, in the position after First's `first_move`, mates First.
fn middle_can_mate_first_after(setup: &SanninSetup, first_move: &str) -> bool {
    let mut pos = position(setup.clone(), &[]);
    play(&mut pos, first_move);
    let mut after = pos.to_setup();
    after.to_move = M;
    let replies = position(after.clone(), &[]);
    legal(&replies).iter().any(|reply| {
        let mut pos = position(after.clone(), &[]);
        play(&mut pos, reply).contains(&Event::Checkmated { player: F, by: M })
    })
}

#[test]
fn mate_threats_need_not_be_parried_by_default() {
    let s = mate_threat_setup();
    let pos = position(s.clone(), &[]);
    assert!(pos.mate_threatened(F));
    assert!(!pos.mate_threatened(M) && !pos.mate_threatened(L));
    assert!(legal(&pos).contains(&"P5f-6f".to_string()));
    assert!(middle_can_mate_first_after(&s, "P5f-6f"), "the pawn step leaves the mate on");
}

#[test]
fn must_parry_mate_threat_keeps_exactly_the_moves_after_which_no_mate_is_possible() {
    let s = mate_threat_setup();
    let every = legal(&position(s.clone(), &[]));
    let parrying = legal(&position(s.clone(), &["must_parry_mate_threat=true"]));
    assert!(!parrying.is_empty() && parrying.len() < every.len(), "{parrying:?}");
    // Each kept move stops every mate of Middle's (G*2a guards 2b, for one; a drop that checks
    // Middle's king leaves him no time); each dropped move leaves one.
    for m in &every {
        assert_eq!(parrying.contains(m), !middle_can_mate_first_after(&s, m), "{m}");
    }
    assert!(parrying.contains(&"G*2a".to_string()));
}

#[test]
fn must_parry_mate_threat_leaves_every_move_when_none_parries() {
    // Without his hand First has only two pawn steps, and neither stops G3c-2b.
    let mut s = mate_threat_setup();
    s.hands[F] = Hand::default();
    let pos = position(s.clone(), &["must_parry_mate_threat=true"]);
    assert!(pos.mate_threatened(F));
    assert_eq!(legal(&pos), strings(&["P5f-6f", "P5f-6g"]));
    assert_eq!(legal(&pos), legal(&position(s, &[])));
}

#[test]
fn must_parry_mate_threat_changes_nothing_without_a_threat() {
    let rules = rules(&["must_parry_mate_threat=true"]);
    let pos = SanninPosition::start(rules);
    assert!(!pos.mate_threatened(F));
    assert_eq!(legal(&pos), legal(&SanninPosition::start(SanninRules::default())));
}

// ---------------------------------------------------------------------------------------------
// §1.12 the Pleasure Garden

#[test]
fn garden_entry_wins_for_a_non_allied_king() {
    let mut pos = position(setup(&[("F", "K", "1a"), ("M", "K", "7h"), ("L", "K", "7a")], M), &[]);
    let win = Outcome::Win { winner: M, reason: WinReason::Garden };
    assert_eq!(play(&mut pos, "K7h-7g").as_slice(), &[game_over(win, [2, 1, 2])]);
    assert_eq!(pos.outcome(), Some(win));

    // A promoted king ranging in wins as well.
    let mut pos = position(setup(&[("F", "K", "1a"), ("M", "K", "10m"), ("L", "+K", "7c")], L), &[]);
    let win = Outcome::Win { winner: L, reason: WinReason::Garden };
    assert_eq!(play(&mut pos, "+K7c-7g").as_slice(), &[game_over(win, [2, 2, 1])]);
}

#[test]
fn garden_entry_gives_no_win_to_an_allied_king_but_does_to_the_lone_one() {
    let mut s = setup(&[("F", "K", "1a"), ("M", "K", "7h"), ("L", "K", "7a")], M);
    s.allies = PlayerSet::of(&[M, L]);
    let mut pos = position(s, &[]);
    assert_eq!(play(&mut pos, "K7h-7g").as_slice(), no_events().as_slice());
    assert_eq!(pos.outcome(), None);

    let mut s = setup(&[("F", "+K", "4d"), ("M", "K", "10m"), ("L", "K", "13i")], F);
    s.allies = PlayerSet::of(&[M, L]);
    let mut pos = position(s, &[]);
    let win = Outcome::Win { winner: F, reason: WinReason::Garden };
    assert_eq!(play(&mut pos, "+K4d-7g").as_slice(), &[game_over(win, [1, 2, 2])]);
}

// ---------------------------------------------------------------------------------------------
// §1.10 stalemate

/// After Middle's P6c-6b, Last's lone king on 7a has no move (6a: the pawn; 7b and 8b: the
/// silver on 8c) and is not in check.
fn stalemate_setup() -> SanninSetup {
    setup(&[("F", "K", "1g"), ("L", "K", "7a"), ("M", "S", "8c"), ("M", "P", "6c"), ("M", "K", "10m")], M)
}

#[test]
fn stalemated_player_is_eliminated_by_default() {
    let mut pos = position(stalemate_setup(), &[]);
    let events = play(&mut pos, "P6c-6b");
    assert_eq!(events.as_slice(), &[Event::Stalemated { player: L }]);
    assert_eq!(pos.active_players(), PlayerSet::of(&[F, M]));
    assert_eq!(pos.king(L), None);
    assert_eq!(pos.to_move(), F);
    assert_eq!(pos.outcome(), None);
}

#[test]
fn stalemate_pass_gives_the_player_a_pass() {
    let mut pos = position(stalemate_setup(), &["stalemate=pass"]);
    assert_eq!(play(&mut pos, "P6c-6b").as_slice(), no_events().as_slice());
    assert_eq!(pos.to_move(), L);
    assert_eq!(legal(&pos), strings(&["pass"]));
    play(&mut pos, "pass");
    assert_eq!(pos.to_move(), F);
    assert_eq!(pos.active_players().len(), 3);
}

#[test]
fn stalemate_draw_ends_the_game_drawn() {
    let mut pos = position(stalemate_setup(), &["stalemate=draw"]);
    let events = play(&mut pos, "P6c-6b");
    let draw = Outcome::Draw { players: PlayerSet::of(&[F, M, L]), reason: DrawReason::Stalemate };
    assert_eq!(events.as_slice(), &[game_over(draw, [1, 1, 1])]);
    assert_eq!(pos.outcome(), Some(draw));
}

// ---------------------------------------------------------------------------------------------
// §1.14 repetition

fn shuffle_game(options: &[&str]) -> SanninGame {
    SanninGame::new(position(setup(&[("F", "K", "1d"), ("M", "K", "10m"), ("L", "K", "10d")], F), options))
}

const SHUFFLE: [&str; 6] = ["K1d-1e", "K10m-10l", "K10d-10e", "K1e-1d", "K10l-10m", "K10e-10d"];

#[test]
fn repetition_the_initiator_must_vary() {
    let mut game = shuffle_game(&[]);
    for text in SHUFFLE {
        game_play(&mut game, text);
    }
    // The start recurs with First to move: he began the cycle with K1d-1e.
    assert_eq!(game.position().to_move(), F);
    assert!(!game_legal(&game).contains(&"K1d-1e".to_string()), "{:?}", game_legal(&game));
    assert!(legal(game.position()).contains(&"K1d-1e".to_string()), "the position alone allows it");
    assert!(game_legal(&game).contains(&"K1d-2d".to_string()));
    let m = find_move(game.position(), &legal_list(game.position()), "K1d-1e").unwrap();
    assert!(game.play(m).is_err());
    assert_eq!(
        play_text::play_token(&mut game.clone(), "K-1e").unwrap_err().to_string(),
        "`K-1e` is not legal: it repeats an earlier position (the player who began the repetition must vary)"
    );
    // Once First varies, Middle faces a new position and may play his old move again.
    game_play(&mut game, "K1d-2d");
    assert!(game_legal(&game).contains(&"K10m-10l".to_string()));
}

#[test]
fn repetition_superko_forbids_any_recurrence() {
    let mut game = shuffle_game(&["repetition=superko"]);
    for text in &SHUFFLE[..5] {
        game_play(&mut game, text);
    }
    // K10e-10d would bring back the start position.
    assert!(!game_legal(&game).contains(&"K10e-10d".to_string()));
    assert_eq!(
        play_text::play_token(&mut game.clone(), "K10e-10d").unwrap_err().to_string(),
        "`K10e-10d` is not legal: it repeats an earlier position (no position may come back)"
    );
    // A move the board itself forbids keeps its own reason.
    assert_eq!(
        play_text::play_token(&mut game.clone(), "K10e-7g").unwrap_err().to_string(),
        "`K10e-7g` is not legal: no K of yours can move to 7g now"
    );
    let mut game = shuffle_game(&[]);
    for text in &SHUFFLE[..5] {
        game_play(&mut game, text);
    }
    assert!(game_legal(&game).contains(&"K10e-10d".to_string()), "initiator_must_vary lets Last close it");
}

#[test]
fn repetition_off_allows_the_cycle() {
    let mut game = shuffle_game(&["repetition=off"]);
    for text in SHUFFLE.iter().chain(SHUFFLE.iter()) {
        game_play(&mut game, text);
    }
    assert!(game_legal(&game).contains(&"K1d-1e".to_string()));
}

// ---------------------------------------------------------------------------------------------
// §1.13 alliances

#[test]
fn pre_game_alliance_makes_first_the_lone_player_with_a_promoted_king() {
    let pos = SanninPosition::start(rules(&["alliance=ML"]));
    assert_eq!(pos.allies(), PlayerSet::of(&[M, L]));
    assert_eq!(pos.piece_at(cell("1d")), Some(piece(F, "+K")));
    assert_eq!(pos.piece_at(cell("10m")), Some(piece(M, "K")));
    assert_eq!(pos.piece_at(cell("10d")), Some(piece(L, "K")));
    assert!(Player::ALL.iter().all(|&p| !pos.may_castle(p)));
    assert_eq!(pos.to_move(), F);
}

#[test]
fn allies_cannot_promote_and_so_cannot_reach_their_dead_cells() {
    let pieces = [("F", "+K", "1g"), ("M", "K", "10m"), ("L", "K", "13i"), ("M", "S", "4f"), ("M", "P", "4b")];
    let mut s = setup(&pieces, M);
    s.allies = PlayerSet::of(&[M, L]);
    let pos = position(s.clone(), &[]);
    assert_eq!(moves_from(&pos, "4f"), strings(&["S4f-4e", "S4f-3e", "S4f-4g", "S4f-5g", "S4f-5e", "S4f-2e"]));
    assert_eq!(moves_from(&pos, "4b"), Vec::<String>::new(), "a forced promotion an ally may not make");
    let pos = position(s, &["dead_cell_rule=allow_stuck"]);
    assert_eq!(moves_from(&pos, "4b"), strings(&["P4b-4a", "P4b-3a"]));
}

#[test]
fn if_an_ally_is_mated_both_allies_lose() {
    // First's R12g-13h checks 13m down column 13; First's silver on 11l guards 12l and 12m.
    let pieces = [("F", "K", "1a"), ("F", "R", "12g"), ("F", "S", "11l"), ("M", "K", "13m"), ("L", "K", "10d")];
    let mut s = setup(&pieces, F);
    s.allies = PlayerSet::of(&[M, L]);
    let mut pos = position(s, &[]);
    let events = play(&mut pos, "R12g-13h");
    let win = Outcome::Win { winner: F, reason: WinReason::AllyMated };
    assert_eq!(events.as_slice(), &[Event::Checkmated { player: M, by: F }, game_over(win, [1, 2, 2])]);
    assert_eq!(pos.outcome(), Some(win));
}

/// The contact mate of First by Middle, with Middle and Last allied; Middle's king waits on
/// 7h beside the Garden and a silver on 9f can step into Last's territory.
fn dissolution_setup() -> SanninSetup {
    let mut s = contact_mate_setup();
    s.pieces.retain(|&(c, _)| c != cell("10m") && c != cell("10d"));
    for (p, pc, c) in [("M", "K", "7h"), ("M", "S", "9f"), ("L", "K", "13i")] {
        s.pieces.push((cell(c), piece(player(p), pc)));
    }
    s.allies = PlayerSet::of(&[M, L]);
    s
}

#[test]
fn mating_the_lone_player_dissolves_the_alliance_and_rights_return() {
    let mut pos = position(dissolution_setup(), &[]);
    assert!(!moves_from(&pos, "9f").contains(&"S9f-9e+".to_string()), "allied: no promotion");
    let events = play(&mut pos, "G3c-2b");
    assert_eq!(
        events.as_slice(),
        &[Event::Checkmated { player: F, by: M }, Event::AllianceDissolved { allies: PlayerSet::of(&[M, L]) }]
    );
    assert_eq!(pos.outcome(), None);
    assert_eq!(pos.allies(), PlayerSet::EMPTY);
    assert_eq!(pos.former_allies(), PlayerSet::of(&[M, L]));
    assert_eq!(pos.to_move(), M);
    assert!(moves_from(&pos, "9f").contains(&"S9f-9e+".to_string()), "promotion is back");
    let win = Outcome::Win { winner: M, reason: WinReason::Garden };
    assert_eq!(play(&mut pos, "K7h-7g").as_slice(), &[game_over(win, [3, 1, 2])], "the Garden is back");
}

#[test]
fn rights_stay_lost_after_dissolution_when_the_options_say_so() {
    let options = ["promotion_returns_after_dissolution=false", "garden_returns_after_dissolution=false"];
    let mut pos = position(dissolution_setup(), &options);
    play(&mut pos, "G3c-2b");
    assert_eq!(pos.allies(), PlayerSet::EMPTY);
    let silver = moves_from(&pos, "9f");
    assert!(silver.contains(&"S9f-9e".to_string()) && !silver.contains(&"S9f-9e+".to_string()), "{silver:?}");
    assert_eq!(play(&mut pos, "K7h-7g").as_slice(), no_events().as_slice());
    assert_eq!(pos.outcome(), None);
}

// ---------------------------------------------------------------------------------------------
// §1.4–1.5: the start position and the 1932 game

#[test]
fn start_position_has_48_moves_whoever_is_to_move() {
    for p in Player::ALL {
        let mut start = SanninSetup::start(&rules(&[]));
        start.to_move = p;
        let pos = position(start, &[]);
        assert_eq!(legal(&pos).len(), 48, "{p:?}");
        let mut game = SanninGame::new(pos);
        assert_eq!(perft(&mut game, 1), 48, "{p:?}");
    }
}

#[test]
fn the_1932_sample_game_replays_move_for_move() {
    let text = include_str!("../../../records/sannin-1932-sample.psn");
    let replayed = replay(text).expect("the record reads");
    assert_eq!(replayed.bad_move, None);
    let canonical: Vec<&str> = replayed.played.iter().map(|m| m.canonical.as_str()).collect();
    assert_eq!(
        canonical,
        [
            "P3c-4d", "P10k-10j", "P11g-10g", "S1b-2d", "S8m-9l", "S12f-10e", "S1f-2e", "P7k-6j", "P8d-7d", "P3d-4e", "R7l-7g+",
            "B7bx12l", "G1c-3d", "S12mx12l", "P10g-9g", "P4d-5e", "+R7g-7l", "R12g-10g",
        ]
    );
    assert!(replayed.played.iter().all(|m| m.events.is_empty()), "no mate, no elimination");
    let order: Vec<Player> = replayed.played.iter().map(|m| m.player).collect();
    assert_eq!(order, [F, M, L].repeat(6));
    let end = replayed.game.position();
    assert_eq!(end.variant(), Variant::Sannin);
    assert!(Player::ALL.iter().all(|&p| !end.in_check(p)), "no move gives check");
}

/// The game-over event with each seat's place, in seat order First, Middle, Last.
fn game_over(outcome: Outcome, placings: [u8; 3]) -> Event {
    Event::GameOver { outcome, placings: polyshogi::ByPlayer(placings) }
}

#[test]
fn a_game_rewinds_to_an_earlier_move_but_never_past_a_departure() {
    let mut game = SanninGame::new(SanninPosition::start(rules(&["compulsory=off"])));
    for text in ["P3c-4d", "P10k-10j", "P11g-10g", "S1b-2d"] {
        game_play(&mut game, text);
    }
    let after_two = game.position_after(2).expect("two moves were played");
    game.rewind_to(2).unwrap();
    assert_eq!((game.moves().len(), game.keys().len()), (2, 2));
    assert_eq!(game.position(), &after_two);
    // The game goes on from there, the repetition history included.
    assert!(game_legal(&game).contains(&"P11g-10g".to_string()));
    game_play(&mut game, "P11g-10g");
    assert_eq!(game.keys()[2], after_two.repetition_key());
    // A resignation after move 3 may not be undone by going back before it.
    game.depart(polyshogi::Departure::Resigned(Player::Third)).unwrap();
    assert_eq!(game.rewind_to(2), Err(polyshogi::rules::IllegalMove::NotLegal));
    assert_eq!(game.moves().len(), 3, "a refused rewind changes nothing");
    assert_eq!(game.rewind_to(9), Err(polyshogi::rules::IllegalMove::NotLegal));
}

/// The list `push_quiet_moves` makes, which it must agree to make here.
fn quiet_list(pos: &SanninPosition) -> MoveList {
    let mut moves = MoveList::new();
    assert!(pos.push_quiet_moves(&mut moves), "no quiet list in {}", pos.to_text());
    moves
}

/// Whether `m` takes a piece or wins at once: a capture, an illumination, or the king's step
/// into the Garden where it wins (§1.12).
fn takes_or_wins(pos: &SanninPosition, m: Move) -> bool {
    let mover = pos.to_move();
    let garden_right =
        !pos.allies().contains(mover) && (!pos.former_allies().contains(mover) || pos.rules().garden_returns_after_dissolution);
    match m {
        Move::Normal { from, to, .. } => {
            pos.piece_at(to).is_some() || (pos.king(mover) == Some(from) && to == pos.tables().garden && garden_right)
        }
        Move::Illuminate { .. } => true,
        Move::Drop { .. } | Move::Pass => false,
    }
}

/// `push_quiet_moves`, the list a search takes once a node's captures are used up: the legal
/// actions that take nothing and win nothing, in `legal_moves`' order. Random games without
/// compulsory alliances, with a pre-game alliance, and under the defaults, where it refuses
/// (and pushes nothing) while an alliance can form and lists once one has.
#[test]
fn quiet_moves_are_the_legal_moves_that_take_nothing() {
    let (mut compared, mut left_out, mut refused, mut after_an_alliance) = (0, 0, 0, 0);
    let option_sets: [&[&str]; 3] = [&[], &["alliance=ML"], &["compulsory=auto"]];
    along_biased_games(31, 30, &option_sets, |game_index, pos, moves| {
        let mut quiets = MoveList::new();
        let alliance_possible = pos.rules().compulsory != Compulsory::Off
            && pos.active_players().len() == 3
            && pos.allies().is_empty()
            && pos.former_allies().is_empty();
        if pos.push_quiet_moves(&mut quiets) {
            let expected: Vec<Move> = moves.iter().copied().filter(|&m| !takes_or_wins(pos, m)).collect();
            assert_eq!(quiets.as_slice(), expected.as_slice(), "in {}", pos.to_text());
            assert!(!alliance_possible, "listed while an alliance can form");
            compared += 1;
            left_out += moves.len() - expected.len();
            after_an_alliance += usize::from(game_index % 3 == 2);
        } else {
            assert!(quiets.is_empty() && alliance_possible, "refused in {}", pos.to_text());
            refused += 1;
        }
    });
    let report =
        format!("{compared} compared, {left_out} moves left out, {refused} refused, {after_an_alliance} after an alliance");
    assert!(compared >= 1000 && left_out >= 1000 && refused >= 200 && after_an_alliance >= 50, "{report}");
    println!("{report}");
}

/// Random games, captures and drops favoured (`biased_move`): game `i` under option set `i`
/// (in turn), for at most 50 + 4i plies. `visit` sees each position, with its legal actions
/// and the game's index, before its move.
fn along_biased_games(
    seed: u64,
    games: usize,
    option_sets: &[&[&str]],
    mut visit: impl FnMut(usize, &SanninPosition, &MoveList),
) {
    let mut rng = SplitMix::new(seed);
    for game_index in 0..games {
        let mut pos = SanninPosition::start(rules(option_sets[game_index % option_sets.len()]));
        for _ in 0..(50 + game_index * 4) {
            if pos.outcome().is_some() {
                break;
            }
            let moves = legal_list(&pos);
            visit(game_index, &pos, &moves);
            let m = biased_move(&pos, &moves, &mut rng);
            pos.play(m).expect("a listed move plays");
        }
    }
}

/// `is_legal_move`, which a search asks of its table's move before it lists the others, agrees
/// with `legal_moves` wherever it answers: for every listed action, and for every move of each
/// of the mover's pieces to every cell, with and without promotion, and every drop of each role
/// on every cell. Random games without compulsory alliances, with a pre-game alliance (where it
/// answers for the lone player only), under the defaults (where it answers once an alliance has
/// formed), with `stalemate=pass`, and with pawn drops that mate allowed.
#[test]
fn legality_told_without_the_list_agrees_with_it() {
    let (mut answered, mut legal_answered, mut unanswered) = (0, 0, 0);
    let option_sets: [&[&str]; 5] =
        [&[], &["alliance=ML"], &["compulsory=auto"], &["stalemate=pass"], &["forbid_pawn_drop_mate=false"]];
    along_biased_games(37, 25, &option_sets, |_, pos, moves| {
        for &m in moves.iter() {
            let text = move_text::canonical(pos, m);
            assert_ne!(pos.is_legal_move(m), Some(false), "{text} said illegal in {}", pos.to_text());
        }
        let mover = pos.to_move();
        let board_moves = pos
            .pieces_of(mover)
            .into_iter()
            .flat_map(|from| HEX127.cells().flat_map(move |to| [false, true].map(|promote| Move::Normal { from, to, promote })));
        let drops = Role::ALL.into_iter().flat_map(|role| HEX127.cells().map(move |to| Move::Drop { role, to }));
        for m in board_moves.chain(drops) {
            match pos.is_legal_move(m) {
                Some(legal) => {
                    assert_eq!(legal, moves.contains(&m), "{m:?} in {}", pos.to_text());
                    answered += 1;
                    legal_answered += usize::from(legal);
                }
                None => unanswered += 1,
            }
        }
    });
    let report = format!("{answered} answered ({legal_answered} legal), {unanswered} not");
    assert!(legal_answered >= 10_000 && unanswered >= 10_000, "{report}");
    println!("{report}");

    // A pawn drop that mates is told illegal, or left to the list; allowed, it is legal.
    let mating_drop = Move::Drop { role: Role::Pawn, to: cell("1b") };
    assert_ne!(position(pawn_drop_mate_setup(), &[]).is_legal_move(mating_drop), Some(true));
    let allowed = position(pawn_drop_mate_setup(), &["forbid_pawn_drop_mate=false"]);
    assert_eq!(allowed.is_legal_move(mating_drop), Some(true));
}

/// The king's step into the Garden is quiet only where it does not win; the pass, only where
/// it is the one legal action. Last's lone king of `stalemate_setup`, after P6c-6b, has only
/// the pass; with Middle's pawn gone and some piece of another player's on a cell where the
/// king may take it, out of check and with no other action, none.
#[test]
fn the_garden_step_and_the_pass_are_quiet_only_where_the_whole_list_says() {
    let garden_step = |pos: &SanninPosition| find_move(pos, &legal_list(pos), "K7h-7g").expect("the king may step in");
    let pos = position(setup(&[("F", "K", "1a"), ("M", "K", "7h"), ("L", "K", "7a")], M), &["compulsory=off"]);
    assert!(!quiet_list(&pos).contains(&garden_step(&pos)), "a winning step listed as quiet");
    let mut s = setup(&[("F", "K", "1a"), ("M", "K", "7h"), ("L", "K", "7a")], M);
    s.allies = PlayerSet::of(&[M, L]);
    let pos = position(s, &[]);
    assert!(quiet_list(&pos).contains(&garden_step(&pos)), "an allied king's step left out");

    let mut stalemated = stalemate_setup();
    stalemated.pieces.retain(|&(c, _)| c != cell("6c"));
    stalemated.pieces.push((cell("6b"), piece(M, "P")));
    stalemated.to_move = L;
    let pos = position(stalemated.clone(), &["stalemate=pass"]);
    assert_eq!(legal_list(&pos).as_slice(), &[Move::Pass]);
    assert_eq!(quiet_list(&pos).as_slice(), &[Move::Pass]);
    stalemated.pieces.retain(|&(c, _)| c != cell("6b"));
    let mut only_captures = 0;
    for (at, owner, role) in HEX127
        .cells()
        .flat_map(|at| [F, M].into_iter().flat_map(move |owner| ["P", "L", "N", "S", "G"].map(|role| (at, owner, role))))
    {
        if stalemated.pieces.iter().any(|&(c, _)| c == at) {
            continue;
        }
        let mut s = stalemated.clone();
        s.pieces.push((at, piece(owner, role)));
        let Ok(pos) = SanninPosition::from_setup(s, rules(&["stalemate=pass"])) else { continue };
        let legal = legal_list(&pos);
        if pos.in_check(L) || legal.is_empty() || !legal.iter().all(|&m| takes_or_wins(&pos, m)) {
            continue;
        }
        assert!(quiet_list(&pos).is_empty(), "a pass listed beside the capture of the piece on {}", pos.cell_name(at));
        only_captures += 1;
    }
    assert!(only_captures > 0, "no piece that leaves Last only its capture");
}

/// A random legal move, a capture or a drop more often than chance would pick one, so that
/// the games come to blows and checks.
fn biased_move(pos: &SanninPosition, moves: &[Move], rng: &mut SplitMix) -> Move {
    let captures: Vec<Move> =
        moves.iter().copied().filter(|&m| matches!(m, Move::Normal { to, .. } if pos.piece_at(to).is_some())).collect();
    let drops: Vec<Move> = moves.iter().copied().filter(|m| matches!(m, Move::Drop { .. })).collect();
    match rng.below(10) {
        0..=4 if !captures.is_empty() => rng.pick(&captures),
        5..=6 if !drops.is_empty() => rng.pick(&drops),
        _ => rng.pick(moves),
    }
    .expect("a position with a legal move")
}

/// `may_give_check`, which a search asks before it makes a late quiet move. Once no alliance
/// can form, it says of every legal move but the king's whether another player's king is
/// attacked after it (or mated by it), as playing the move says. While one can (under the
/// defaults), it never says false of a move that checks or mates, the alliance it may form
/// and its promoted king included, and still rules out most moves. For the king's moves (an
/// illumination or a pass too), at the last ply, and under `compulsory=confirm` while an
/// alliance can form, it says true, so that the search plays such moves and looks. Random
/// games under `compulsory=off`, with a pre-game alliance (allies' pieces attack each other's
/// kings too), and under the defaults.
#[test]
fn checks_are_told_without_making_the_move() {
    let mut rng = SplitMix::new(29);
    let (mut told, mut checks, mut ruled_out, mut allied_checks) = (0, 0, 0, 0);
    let (mut while_alliance_possible, mut checks_then, mut ruled_out_then) = (0, 0, 0);
    for game_index in 0..40 {
        let options: &[&str] = match game_index % 4 {
            2 => &["alliance=ML"],
            3 => &["compulsory=auto"],
            _ => &[],
        };
        let mut pos = SanninPosition::start(rules(options));
        for _ in 0..(40 + game_index * 3) {
            if pos.outcome().is_some() {
                break;
            }
            let moves = legal_list(&pos);
            let alliance_possible = pos.rules().compulsory != Compulsory::Off
                && pos.active_players().len() == 3
                && pos.allies().is_empty()
                && pos.former_allies().is_empty();
            for &m in moves.iter() {
                let may = pos.may_give_check(m);
                let text = move_text::canonical(&pos, m);
                let followed = match m {
                    Move::Normal { from, .. } => pos.king(pos.to_move()) != Some(from),
                    Move::Drop { .. } => true,
                    Move::Illuminate { .. } | Move::Pass => false,
                };
                if !followed || pos.plies() + 1 >= pos.rules().max_plies {
                    assert!(may, "{text} said not to check where the search must look");
                    continue;
                }
                let mut next = pos.clone();
                let events = next.play(m).expect("a listed move plays");
                let mated = events.iter().any(|e| matches!(e, Event::Checkmated { .. }));
                let gives_check = mated || pos.to_move().others3().into_iter().any(|p| next.in_check(p));
                if alliance_possible {
                    assert!(may || !gives_check, "{text} checks in {}", pos.to_text());
                    while_alliance_possible += 1;
                    checks_then += usize::from(gives_check);
                    ruled_out_then += usize::from(!may);
                    continue;
                }
                assert_eq!(may, gives_check, "{text} in {}", pos.to_text());
                told += 1;
                checks += usize::from(gives_check);
                ruled_out += usize::from(!may);
                allied_checks += usize::from(gives_check && !pos.allies().is_empty());
            }
            let m = biased_move(&pos, &moves, &mut rng);
            pos.play(m).expect("a listed move plays");
        }
    }
    let report = format!(
        "{told} moves told, {checks} checks ({allied_checks} with allies), {ruled_out} ruled out; \
         while an alliance could form {while_alliance_possible} moves, {checks_then} checks, {ruled_out_then} ruled out"
    );
    assert!(checks >= 200 && allied_checks >= 50 && checks_then >= 50, "{report}");
    assert!(ruled_out * 2 > told && ruled_out_then * 2 > while_alliance_possible, "{report}");
    println!("{report}");

    let confirm = SanninPosition::start(rules(&["compulsory=confirm"]));
    assert!(legal_list(&confirm).iter().all(|&m| confirm.may_give_check(m)), "an alliance awaiting its answer is not followed");
}
