//! Sannin shogi compulsory alliances (RULES.md §1.13, §1.14 and the §5 defaults), each rule on a
//! hand-built position and a short move sequence, with the exact events `play` must report.
//!
//! Expectations come from the spec's [DEF] detector procedure (§1.13 steps 1–5), worked out by
//! hand for each position (attack lines and defenders are spelled out in the comments); they are
//! not read back from the library.
//!
//! Orientation reminders for reading the positions (RULES.md §1.1–1.2, notation (Δcolumn, Δrank)):
//! the six orthogonal lines through a cell are its rank (Δc = ±1), its column (Δr = ±1) and the
//! (±1, ±1) line; a promoted rook ranges along all six, a lance along its owner's 11 and 1
//! o'clock (First: (+1,+1) and (+1,0); Middle: (0,−1) and (−1,−1); Last: (−1,0) and (0,+1)).
//! Values: K > R = B > G = S = N = L > P, promotion ignored.

use polyshogi::geometry::{HexNaming, HEX127};
use polyshogi::notation::describe::event_text;
use polyshogi::notation::move_text;
use polyshogi::outcome::{AllianceCause, AllianceFormation, WinReason};
use polyshogi::replay::replay;
use polyshogi::rules::{Alliance, Rules};
use polyshogi::variant::sannin::{IllegalMove, SanninGame, SanninPosition, SanninRules, SanninSetup, Threats};
use polyshogi::{ByPlayer, Cell, CellSet, Event, Events, Move, MoveList, Outcome, Piece, Player, PlayerSet, Role};

const F: Player = Player::First;
const M: Player = Player::Second;
const L: Player = Player::Third;

// ---------------------------------------------------------------------------------------------
// Helpers (the position builders follow tests/sannin_rules.rs)

fn cell(name: &str) -> Cell {
    HexNaming::Sannin.parse(&HEX127, name).unwrap_or_else(|e| panic!("{e}"))
}

fn cells(names: &[&str]) -> CellSet {
    names.iter().map(|n| cell(n)).collect()
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

/// A setup from `(player, piece, cell)` triples, e.g. `("M", "+R", "7g")`. Castling rights are
/// off unless a test turns them on; promoted kings may illuminate; hands are empty.
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

/// The default rules (so `compulsory=auto`) plus `options`.
fn rules(options: &[&str]) -> SanninRules {
    let mut rules = SanninRules::default();
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

/// Every legal move as canonical text, sorted.
fn legal(pos: &SanninPosition) -> Vec<String> {
    let mut texts: Vec<String> = legal_list(pos).iter().map(|&m| move_text::canonical(pos, m)).collect();
    texts.sort();
    texts
}

fn is_legal(pos: &SanninPosition, text: &str) -> bool {
    legal(pos).iter().any(|t| t == text)
}

/// The legal move whose canonical text is `text`.
fn mv(pos: &SanninPosition, text: &str) -> Move {
    legal_list(pos)
        .iter()
        .copied()
        .find(|&m| move_text::canonical(pos, m) == text)
        .unwrap_or_else(|| panic!("{text} is not legal here; legal: {:?}", legal(pos)))
}

/// Plays the legal move whose canonical text is `text` exactly.
fn play(pos: &mut SanninPosition, text: &str) -> Events {
    let m = mv(pos, text);
    pos.play(m).expect("a listed move plays")
}

fn game_play(game: &mut SanninGame, text: &str) -> Events {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    let m = moves
        .iter()
        .copied()
        .find(|&m| move_text::canonical(game.position(), m) == text)
        .unwrap_or_else(|| panic!("{text} is not legal in the game; legal: {:?}", legal(game.position())));
    game.play(m).expect("a listed move plays")
}

fn no_events() -> Vec<Event> {
    Vec::new()
}

fn alliance_events(events: &Events) -> Vec<Event> {
    events
        .iter()
        .copied()
        .filter(|e| {
            matches!(
                e,
                Event::AllianceFormed(_)
                    | Event::AllianceProposed(_)
                    | Event::AllianceRefused(_)
                    | Event::AllianceDissolved { .. }
            )
        })
        .collect()
}

/// A discovered attack by `allies[0]`'s move, opening the line of `allies[1]`'s piece
/// `attacker` (its cell and piece text) onto `target`.
fn discovered(allies: [Player; 2], against: Player, target: &str, attacker: (&str, &str), move_: Move) -> AllianceFormation {
    AllianceFormation {
        allies: PlayerSet::of(&allies),
        against,
        cause: AllianceCause::DiscoveredAttack { line: cell(attacker.0), piece: piece(allies[1], attacker.1) },
        targets: cells(&[target]),
        move_,
    }
}

fn dual(allies: [Player; 2], against: Player, targets: &[&str], earlier: Move, move_: Move) -> AllianceFormation {
    AllianceFormation {
        allies: PlayerSet::of(&allies),
        against,
        cause: AllianceCause::DualAttack { earlier_move: earlier },
        targets: cells(targets),
        move_,
    }
}

/// The game-over event with each seat's place, in seat order First, Middle, Last.
fn game_over(outcome: Outcome, placings: [u8; 3]) -> Event {
    Event::GameOver { outcome, placings: ByPlayer(placings) }
}

fn no_castling(pos: &SanninPosition) -> bool {
    Player::ALL.iter().all(|&p| !pos.may_castle(p))
}

// ---------------------------------------------------------------------------------------------
// §1.13 discovered attack: Y's move clears a line so that W's ranging piece threatens Z

/// First's +R on 12i looks east along rank i (11i, 10i, …); Middle's pawn on 10i blocks it.
/// The pawn is defended by Middle's gold on 10j (Middle's 11 o'clock step), and a +R (3) on a
/// defended pawn (1) is no threat, so nothing threatens Middle before or after its move. Beyond
/// the pawn: 9i 8i 7i empty, then `target` on 6i. Kings: First 1d, Middle 10m, Last 13g, all
/// off every line involved. P10i-10h (Middle's 11 o'clock) leaves rank i.
fn discovered_setup(target: (&str, &str, &str)) -> SanninSetup {
    let mut pieces =
        vec![("F", "K", "1d"), ("F", "+R", "12i"), ("M", "K", "10m"), ("M", "P", "10i"), ("M", "G", "10j"), ("L", "K", "13g")];
    pieces.push(target);
    setup(&pieces, M)
}

#[test]
fn discovered_attack_on_an_undefended_piece_forms_an_alliance() {
    // Last's gold on 6i has no defender: once 10i is cleared First's +R attacks it.
    let mut pos = position(discovered_setup(("L", "G", "6i")), &[]);
    let m = mv(&pos, "P10i-10h");
    let events = pos.play(m).unwrap();
    let formation = discovered([M, F], L, "6i", ("12i", "+R"), m);
    assert_eq!(events.as_slice(), &[Event::AllianceFormed(formation)]);
    assert_eq!(pos.allies(), PlayerSet::of(&[F, M]));
    assert_eq!(Rules::alliance(&pos), Some(Alliance { allies: PlayerSet::of(&[F, M]), against: L }));
    assert_eq!(Rules::pending_alliance(&pos), None);
    assert_eq!(pos.to_move(), L);
}

#[test]
fn discovered_check_forms_an_alliance() {
    // Last's king itself stands on 6i: the cleared line gives check, the first kind of threat.
    // (discovered_setup puts Last's king on 13g too; keep only the one on 6i.)
    let mut s = discovered_setup(("L", "K", "6i"));
    s.pieces.retain(|&(c, _)| c != cell("13g"));
    let mut pos = position(s, &[]);
    let m = mv(&pos, "P10i-10h");
    let events = pos.play(m).unwrap();
    assert_eq!(events.as_slice(), &[Event::AllianceFormed(discovered([M, F], L, "6i", ("12i", "+R"), m))]);
    assert!(pos.in_check(L), "First's +R checks Last along rank i");
    assert_eq!(pos.piece_at(cell("6i")), Some(piece(L, "+K")), "the lone king is promoted at once");
    assert_eq!(pos.to_move(), L);
    assert_eq!(pos.outcome(), None);
}

#[test]
fn discovered_attack_by_a_cheaper_piece_on_a_defended_dearer_piece_forms_an_alliance() {
    // First's lance on 3i ranges along First's 1 o'clock (+1,0), west along rank i: 4i, then
    // Middle's pawn on 5i (defended by Middle's gold 5j; lance 2 > pawn 1: no threat), then
    // 6i 7i 8i empty and Last's rook on 9i, defended by Last's gold on 10i (Last's 11 o'clock
    // step is (−1,0)). Lance (2) < rook (3): a threat although the rook is defended. The rook
    // looks back along rank i at the lance, which First's gold on 2h defends (First's 11
    // o'clock step (+1,+1)): rook (3) on a defended lance (2) is no threat, so this is the only
    // candidate (undefended, the lance would make it a mutual attack: see step 6 below).
    let pieces = [
        ("F", "K", "1d"),
        ("F", "L", "3i"),
        ("F", "G", "2h"),
        ("M", "K", "10m"),
        ("M", "P", "5i"),
        ("M", "G", "5j"),
        ("L", "K", "13g"),
        ("L", "R", "9i"),
        ("L", "G", "10i"),
    ];
    let mut pos = position(setup(&pieces, M), &[]);
    let m = mv(&pos, "P5i-5h");
    let events = pos.play(m).unwrap();
    assert_eq!(events.as_slice(), &[Event::AllianceFormed(discovered([M, F], L, "9i", ("3i", "L"), m))]);
}

// ---------------------------------------------------------------------------------------------
// §1.13 dual attack: consecutive movers threaten different pieces of the third

/// Last's golds on 7f and 12k, neither defended (Last's gold steps: (−1,0) (0,+1) (+1,+1)
/// (−1,−1) (−1,+1) (+1,−1)); Last's king on 13m. First's +R on 6a will step to 7a and look down
/// column 7 at 7f; Middle's +R on 9j will step to 9k and look west along rank k at 12k. Neither
/// +R threatens anything before its move.
fn dual_pieces() -> Vec<(&'static str, &'static str, &'static str)> {
    vec![
        ("F", "K", "1g"),
        ("F", "+R", "6a"),
        ("M", "K", "7m"),
        ("M", "+R", "9j"),
        ("L", "K", "13m"),
        ("L", "G", "7f"),
        ("L", "G", "12k"),
    ]
}

#[test]
fn dual_attack_that_cannot_be_parried_forms_an_alliance() {
    let mut pos = position(setup(&dual_pieces(), F), &[]);
    let first = mv(&pos, "+R6a-7a");
    assert_eq!(pos.play(first).unwrap().as_slice(), no_events().as_slice(), "one threat is no alliance");
    assert_eq!(pos.last_action().unwrap().new_threats[L].targets, cells(&["7f"]));
    let second = mv(&pos, "+R9j-9k");
    let events = pos.play(second).unwrap();
    // Whatever Last does, one gold stays en prise: the two are six columns apart, and the king on
    // 13m can reach neither.
    let formation = dual([F, M], L, &["7f", "12k"], first, second);
    assert_eq!(events.as_slice(), &[Event::AllianceFormed(formation)]);
    assert_eq!(pos.allies(), PlayerSet::of(&[F, M]));
    assert_eq!(pos.piece_at(cell("13m")), Some(piece(L, "+K")));
}

// ---------------------------------------------------------------------------------------------
// §1.13 exceptions: no alliance

#[test]
fn defending_move_that_discovers_an_attack_forms_no_alliance() {
    // As the undefended-gold case, but Middle's pawn on 10i has no defender: First's +R (3)
    // attacks an undefended pawn, a threat against Middle. P10i-10h takes the pawn out of it
    // and only thereby opens rank i onto Last's gold: a direct defence (step 4).
    let mut s = discovered_setup(("L", "G", "6i"));
    s.pieces.retain(|&(c, _)| c != cell("10j"));
    let mut pos = position(s, &[]);
    let events = play(&mut pos, "P10i-10h");
    assert_eq!(events.as_slice(), no_events().as_slice());
    assert!(pos.last_action().unwrap().defensive);
    assert_eq!(pos.allies(), PlayerSet::EMPTY);
    assert_eq!(pos.piece_at(cell("13g")), Some(piece(L, "K")), "no lone king, no promotion");
}

#[test]
fn answering_a_check_that_discovers_an_attack_forms_no_alliance() {
    // Middle's king on 9h is checked by Last's silver on 10h (Last's 11 o'clock step (−1,0)).
    // Middle's pawn 10i takes it (Middle's 11 o'clock step) and so opens rank i from First's
    // +R on 12i onto Last's undefended gold 6i: the move answered a check (step 4).
    let pieces = [
        ("F", "K", "1d"),
        ("F", "+R", "12i"),
        ("M", "K", "9h"),
        ("M", "P", "10i"),
        ("M", "G", "10j"),
        ("L", "K", "13g"),
        ("L", "S", "10h"),
        ("L", "G", "6i"),
    ];
    let mut pos = position(setup(&pieces, M), &[]);
    assert!(pos.in_check(M));
    let events = play(&mut pos, "P10ix10h");
    assert_eq!(events.as_slice(), no_events().as_slice());
    assert!(pos.last_action().unwrap().defensive);
    assert_eq!(pos.allies(), PlayerSet::EMPTY);
}

#[test]
fn discovered_attack_on_a_defended_piece_of_equal_value_forms_no_alliance() {
    // Rank i cleared onto Last's rook on 7i, defended by Last's gold 7h (Last's 1 o'clock
    // step (0,+1)): +R (3) against a defended rook (3) is an even trade, not a material loss.
    let mut s = discovered_setup(("L", "R", "7i"));
    s.pieces.push((cell("7h"), piece(L, "G")));
    let mut pos = position(s, &[]);
    assert_eq!(play(&mut pos, "P10i-10h").as_slice(), no_events().as_slice());
    assert_eq!(pos.allies(), PlayerSet::EMPTY);
    // Control: without its defender the same rook is threatened, and the alliance forms.
    let mut pos = position(discovered_setup(("L", "R", "7i")), &[]);
    let m = mv(&pos, "P10i-10h");
    assert_eq!(pos.play(m).unwrap().as_slice(), &[Event::AllianceFormed(discovered([M, F], L, "7i", ("12i", "+R"), m))]);
}

#[test]
fn discovered_attack_by_a_stronger_piece_on_a_defended_piece_forms_no_alliance() {
    // Rank i cleared onto Last's gold on 7i, defended by Last's gold 7h: +R (3) > gold (2).
    let mut s = discovered_setup(("L", "G", "7i"));
    s.pieces.push((cell("7h"), piece(L, "G")));
    let mut pos = position(s, &[]);
    assert_eq!(play(&mut pos, "P10i-10h").as_slice(), no_events().as_slice());
    assert_eq!(pos.allies(), PlayerSet::EMPTY);
    // Control: undefended, the same gold is threatened.
    let mut pos = position(discovered_setup(("L", "G", "7i")), &[]);
    let m = mv(&pos, "P10i-10h");
    assert_eq!(pos.play(m).unwrap().as_slice(), &[Event::AllianceFormed(discovered([M, F], L, "7i", ("12i", "+R"), m))]);
}

#[test]
fn dual_attack_that_one_reply_parries_forms_no_alliance() {
    // First's +R 6a-7a attacks Last's gold 7f down column 7; Middle's +R 12h-12g attacks Last's
    // gold 9g along rank g. Last's king on 8e steps to 8f, the cell between the golds, and
    // defends both: a +R (3) against a defended gold (2) is no threat. (Gold 9g-8g, defending
    // 7f and defended by it, parries both too.)
    let pieces = [
        ("F", "K", "1g"),
        ("F", "+R", "6a"),
        ("M", "K", "7m"),
        ("M", "+R", "12h"),
        ("L", "K", "8e"),
        ("L", "G", "7f"),
        ("L", "G", "9g"),
    ];
    let mut pos = position(setup(&pieces, F), &[]);
    assert_eq!(play(&mut pos, "+R6a-7a").as_slice(), no_events().as_slice());
    assert_eq!(pos.last_action().unwrap().new_threats[L].targets, cells(&["7f"]));
    assert_eq!(play(&mut pos, "+R12h-12g").as_slice(), no_events().as_slice());
    assert_eq!(pos.last_action().unwrap().new_threats[L].targets, cells(&["9g"]));
    assert_eq!(pos.allies(), PlayerSet::EMPTY);
    assert!(is_legal(&pos, "K8e-8f"), "the parry is there");
}

#[test]
fn dual_attack_on_one_and_the_same_piece_forms_no_alliance() {
    // First's +R 6a-7a attacks Last's gold 7f down column 7, then Middle's +R 12g-12f attacks
    // the same gold along rank f: two threats, one target.
    let pieces = [("F", "K", "1d"), ("F", "+R", "6a"), ("M", "K", "7m"), ("M", "+R", "12g"), ("L", "K", "13m"), ("L", "G", "7f")];
    let mut pos = position(setup(&pieces, F), &[]);
    assert_eq!(play(&mut pos, "+R6a-7a").as_slice(), no_events().as_slice());
    assert_eq!(pos.last_action().unwrap().new_threats[L].targets, cells(&["7f"]));
    assert_eq!(play(&mut pos, "+R12g-12f").as_slice(), no_events().as_slice());
    assert_eq!(pos.last_action().unwrap().new_threats[L].targets, cells(&["7f"]));
    assert_eq!(pos.allies(), PlayerSet::EMPTY);
}

#[test]
fn two_threats_by_the_same_player_form_no_alliance() {
    // First threatens gold 7f, Middle and Last make quiet pawn moves (Last's pawn 13h-12h
    // defends neither gold), then First threatens gold 12k as well: both threats are First's,
    // so no alliance can come of them.
    let mut pieces = dual_pieces();
    pieces.retain(|&(_, _, c)| c != "9j");
    pieces.push(("F", "+R", "9j"));
    pieces.push(("M", "P", "7k"));
    pieces.push(("L", "P", "13h"));
    let mut pos = position(setup(&pieces, F), &[]);
    for text in ["+R6a-7a", "P7k-7j", "P13h-12h", "+R9j-9k"] {
        let events = play(&mut pos, text);
        assert_eq!(events.as_slice(), no_events().as_slice(), "{text}");
    }
    assert_eq!(pos.last_action().unwrap().new_threats[L].targets, cells(&["12k"]));
    assert_eq!(pos.allies(), PlayerSet::EMPTY);
}

#[test]
fn a_fork_by_one_player_forms_no_alliance() {
    // Last's golds on 7f and 12k lie on one (+1,+1) line (8g 9h 10i 11j between). First's +R
    // drops down column 10 from 10d to 10i and attacks both, one each way; Middle's next move
    // makes no threat of its own. A double attack by one player is no coordination.
    let pieces = [
        ("F", "K", "1g"),
        ("F", "+R", "10d"),
        ("M", "K", "7m"),
        ("M", "P", "7k"),
        ("L", "K", "13m"),
        ("L", "G", "7f"),
        ("L", "G", "12k"),
    ];
    let mut pos = position(setup(&pieces, F), &[]);
    assert_eq!(play(&mut pos, "+R10d-10i").as_slice(), no_events().as_slice());
    assert_eq!(pos.last_action().unwrap().new_threats[L].targets, cells(&["7f", "12k"]));
    assert_eq!(play(&mut pos, "P7k-7j").as_slice(), no_events().as_slice());
    assert_eq!(pos.allies(), PlayerSet::EMPTY);
}

#[test]
fn dual_attack_needs_consecutive_turns() {
    // First threatens 7f; a full round of quiet moves follows; Middle then threatens 12k. The
    // previous ply (First's quiet move) made no threat, so step 3 does not apply.
    let mut pieces = dual_pieces();
    pieces.push(("M", "P", "7k"));
    pieces.push(("L", "P", "13h"));
    pieces.push(("F", "P", "3c"));
    let mut pos = position(setup(&pieces, F), &[]);
    for text in ["+R6a-7a", "P7k-7j", "P13h-12h", "P3c-4d", "+R9j-9k"] {
        let events = play(&mut pos, text);
        assert_eq!(events.as_slice(), no_events().as_slice(), "{text}");
    }
    assert_eq!(pos.last_action().unwrap().new_threats[L].targets, cells(&["12k"]));
    assert_eq!(pos.allies(), PlayerSet::EMPTY);
}

#[test]
fn dual_attack_whose_first_move_was_a_defence_forms_no_alliance() {
    // As the unparried dual attack, but Last's pawn on 7a attacks First's +R on 6a (Last's
    // 11 o'clock step (−1,0)): pawn (1) < +R (3) is a threat, and First's +R6ax7a both removes
    // it and attacks the gold on 7f. Middle's threat on 12k then pairs with a defensive move.
    let mut pieces = dual_pieces();
    pieces.push(("L", "P", "7a"));
    let mut pos = position(setup(&pieces, F), &[]);
    assert_eq!(play(&mut pos, "+R6ax7a").as_slice(), no_events().as_slice());
    let first = pos.last_action().unwrap();
    assert!(first.defensive);
    assert_eq!(first.new_threats[L].targets, cells(&["7f"]));
    assert_eq!(play(&mut pos, "+R9j-9k").as_slice(), no_events().as_slice());
    assert_eq!(pos.allies(), PlayerSet::EMPTY);
}

#[test]
fn dual_attack_whose_second_move_was_a_defence_forms_no_alliance() {
    // Last's pawn on 10j attacks Middle's +R on 9j (Last's 11 o'clock step (−1,0)); +R9j-9k
    // escapes and attacks the gold on 12k. Step 4 discards the candidate.
    let mut pieces = dual_pieces();
    pieces.push(("L", "P", "10j"));
    let mut pos = position(setup(&pieces, F), &[]);
    assert_eq!(play(&mut pos, "+R6a-7a").as_slice(), no_events().as_slice());
    assert_eq!(play(&mut pos, "+R9j-9k").as_slice(), no_events().as_slice());
    let second = pos.last_action().unwrap();
    assert!(second.defensive);
    assert_eq!(second.new_threats[L].targets, cells(&["12k"]));
    assert_eq!(pos.allies(), PlayerSet::EMPTY);
}

// ---------------------------------------------------------------------------------------------
// §1.13 / §5 #15: the `compulsory` option

#[test]
fn compulsory_off_forms_nothing_from_a_discovered_attack() {
    let mut pos = position(discovered_setup(("L", "G", "6i")), &["compulsory=off"]);
    assert_eq!(play(&mut pos, "P10i-10h").as_slice(), no_events().as_slice());
    assert_eq!(pos.allies(), PlayerSet::EMPTY);
    assert_eq!(pos.pending_alliance(), None);
    assert_eq!(pos.piece_at(cell("13g")), Some(piece(L, "K")));
    assert_eq!(pos.to_move(), L);
}

/// The undefended-gold discovered attack with every castling right still alive.
fn confirm_position() -> SanninPosition {
    let mut s = discovered_setup(("L", "G", "6i"));
    s.may_castle = ByPlayer([true; 3]);
    let pos = position(s, &["compulsory=confirm"]);
    assert!(Player::ALL.iter().all(|&p| pos.may_castle(p)), "no king is in check: all may castle");
    pos
}

#[test]
fn compulsory_confirm_proposes_and_blocks_play_until_answered() {
    let mut pos = confirm_position();
    assert_eq!(pos.answer_alliance(true), Err(IllegalMove::NoAllianceProposal));
    let m = mv(&pos, "P10i-10h");
    let formation = discovered([M, F], L, "6i", ("12i", "+R"), m);
    assert_eq!(pos.play(m).unwrap().as_slice(), &[Event::AllianceProposed(formation)]);
    assert_eq!(pos.pending_alliance(), Some(formation));
    assert_eq!(pos.allies(), PlayerSet::EMPTY, "nothing is formed before the answer");
    assert_eq!(Rules::pending_alliance(&pos), Some(Alliance { allies: PlayerSet::of(&[F, M]), against: L }));
    assert_eq!(Rules::alliance(&pos), None);
    // Nobody moves while the proposal waits: no legal moves, and `play` refuses any move.
    assert_eq!(legal_list(&pos).len(), 0);
    let king_step = Move::Normal { from: cell("13g"), to: cell("13h"), promote: false };
    assert_eq!(pos.play(king_step), Err(IllegalMove::AllianceProposalPending));
    let pawn_step = Move::Normal { from: cell("10h"), to: cell("10g"), promote: false };
    assert_eq!(pos.play(pawn_step), Err(IllegalMove::AllianceProposalPending));
    // The position string keeps the proposal whole, the line piece of the attack included.
    let text = pos.to_text();
    assert!(text.contains(";proposal=FM:L:discovered:6i:12i:"), "{text}");
    assert_eq!(SanninPosition::from_text(&text, *pos.rules()), Ok(pos.clone()));
    let elsewhere = text.replace(":6i:12i:", ":6i:11i:");
    let err = SanninPosition::from_text(&elsewhere, *pos.rules()).unwrap_err();
    assert!(err.message.contains("no attacking piece on 11i"), "{err}");
}

#[test]
fn compulsory_confirm_accepted_forms_the_alliance_and_the_game_goes_on() {
    let mut pos = confirm_position();
    let m = mv(&pos, "P10i-10h");
    pos.play(m).unwrap();
    let formation = discovered([M, F], L, "6i", ("12i", "+R"), m);
    assert_eq!(pos.answer_alliance(true).unwrap().as_slice(), &[Event::AllianceFormed(formation)]);
    assert_eq!(pos.pending_alliance(), None);
    assert_eq!(pos.allies(), PlayerSet::of(&[F, M]));
    assert_eq!(pos.piece_at(cell("13g")), Some(piece(L, "+K")));
    assert!(no_castling(&pos));
    assert_eq!(pos.to_move(), L);
    assert!(is_legal(&pos, "+K13g-13h"), "the game goes on with the lone player's promoted king");
    assert_eq!(pos.answer_alliance(true), Err(IllegalMove::NoAllianceProposal), "answered once only");
    assert_eq!(play(&mut pos, "+K13g-13h").as_slice(), no_events().as_slice());
}

#[test]
fn compulsory_confirm_waits_for_both_allies_and_one_refusal_settles_it() {
    let mut game = SanninGame::new(confirm_position());
    let m = mv(game.position(), "P10i-10h");
    game.play(m).unwrap();
    let formation = discovered([M, F], L, "6i", ("12i", "+R"), m);
    assert_eq!(Rules::awaiting_answer(game.position()), PlayerSet::of(&[F, M]));
    assert_eq!(game.answer_as(L, true), Err(IllegalMove::NotYourDecision), "the lone player is not asked");
    // One ally's acceptance settles nothing and is not yet a decision of the game.
    assert_eq!(game.answer_as(M, true), Ok(None));
    assert_eq!(game.answer_as(M, true), Err(IllegalMove::AlreadyAccepted));
    assert_eq!(Rules::awaiting_answer(game.position()), PlayerSet::of(&[F]));
    assert!(game.decisions().is_empty());
    assert_eq!(game.position().allies(), PlayerSet::EMPTY);
    // The other's acceptance forms the alliance and is recorded once.
    let events = game.answer_as(F, true).unwrap().expect("both accepted");
    assert_eq!(events.as_slice(), &[Event::AllianceFormed(formation)]);
    assert_eq!(game.decisions(), [(1, true)]);
    assert_eq!(Rules::awaiting_answer(game.position()), PlayerSet::EMPTY);

    // A refusal after one acceptance settles it at once: no alliance.
    let mut game = SanninGame::new(confirm_position());
    game.play(m).unwrap();
    game.answer_as(F, true).unwrap();
    let events = game.answer_as(M, false).unwrap().expect("one refusal settles it");
    assert_eq!(events.as_slice(), &[Event::AllianceRefused(formation)]);
    assert_eq!(game.decisions(), [(1, false)]);
    assert_eq!(game.position().allies(), PlayerSet::EMPTY);
}

#[test]
fn compulsory_confirm_refused_leaves_no_alliance_and_castling_untouched() {
    let mut pos = confirm_position();
    let m = mv(&pos, "P10i-10h");
    pos.play(m).unwrap();
    let formation = discovered([M, F], L, "6i", ("12i", "+R"), m);
    assert_eq!(pos.answer_alliance(false).unwrap().as_slice(), &[Event::AllianceRefused(formation)]);
    assert_eq!(pos.pending_alliance(), None);
    assert_eq!(pos.allies(), PlayerSet::EMPTY);
    assert_eq!(pos.former_allies(), PlayerSet::EMPTY);
    assert!(Player::ALL.iter().all(|&p| pos.may_castle(p)), "castling rights untouched");
    assert_eq!(pos.piece_at(cell("13g")), Some(piece(L, "K")), "no lone king, no promotion");
    assert_eq!(pos.to_move(), L);
    // Last's unmoved king may still castle, to any free and safe cell of Last's territory
    // (e.g. 9d; 12h, which First's +R attacks up column 12, is not safe).
    assert!(is_legal(&pos, "K13g-9d"), "{:?}", legal(&pos));
    assert!(!is_legal(&pos, "K13g-12h"));
}

#[test]
fn compulsory_confirm_blocks_a_game_too() {
    let mut game = SanninGame::new(confirm_position());
    let events = game_play(&mut game, "P10i-10h");
    assert!(matches!(events.as_slice(), [Event::AllianceProposed(_)]), "{events:?}");
    let king_step = Move::Normal { from: cell("13g"), to: cell("13h"), promote: false };
    assert_eq!(game.play(king_step), Err(IllegalMove::AllianceProposalPending));
    assert!(matches!(game.answer_alliance(true).unwrap().as_slice(), [Event::AllianceFormed(_)]));
    assert_eq!(game.position().allies(), PlayerSet::of(&[F, M]));
}

// ---------------------------------------------------------------------------------------------
// §1.13 effects on formation

/// The undefended-gold discovered attack of `discovered_setup`, dressed for the effects:
///
/// * every king may still castle;
/// * Middle's king on 8h, next to the Garden 7g (and off every line of the tactic);
/// * Last's pawn on 12g shields rank g from Last's king (which will range once promoted);
/// * Middle's gold on 10j is the first piece on the diagonal 12h 11i 10j from Last's king (its
///   12 o'clock) and no piece of First or Middle attacks it: the one piece the new +K may
///   illuminate (every other ray of 13g is empty or starts with Last's own pawn);
/// * First's pawn on 7j (First's 11 o'clock (+1,+1) is 8k, inside Middle's territory) and
///   Middle's pawn on 8k: an ally's piece First may take, with a promotion it may no longer make.
///
/// First's +R on 12i will, once rank i is open, reach 9i and 8i, from where it would check
/// Middle's king (9i along (−1,−1), 8i along column 8).
fn effects_setup() -> SanninSetup {
    let pieces = [
        ("F", "K", "1d"),
        ("F", "+R", "12i"),
        ("F", "P", "7j"),
        ("M", "K", "8h"),
        ("M", "P", "10i"),
        ("M", "G", "10j"),
        ("M", "P", "8k"),
        ("L", "K", "13g"),
        ("L", "G", "6i"),
        ("L", "P", "12g"),
    ];
    let mut s = setup(&pieces, M);
    s.may_castle = ByPlayer([true; 3]);
    s
}

/// Middle's king on 8h has moves, and all of them are steps to a neighbouring cell: no castling.
fn assert_only_king_steps(pos: &SanninPosition) {
    let moves = king_moves(pos);
    let steps = ["K8h-7g", "K8h-7h", "K8h-8g", "K8h-8i", "K8h-9h", "K8h-9i"];
    assert!(!moves.is_empty() && moves.iter().all(|t| steps.contains(&t.as_str())), "{moves:?}");
}

/// The king moves of `pos`'s player to move, as canonical text.
fn king_moves(pos: &SanninPosition) -> Vec<String> {
    let king = pos.king(pos.to_move()).unwrap();
    let mut v: Vec<String> = legal_list(pos)
        .iter()
        .filter(|m| matches!(m, Move::Normal { from, .. } if *from == king))
        .map(|&m| move_text::canonical(pos, m))
        .collect();
    v.sort();
    v
}

#[test]
fn without_an_alliance_the_effects_position_is_ordinary() {
    // The control for the effects test: the same moves under compulsory=off.
    let mut pos = position(effects_setup(), &["compulsory=off"]);
    assert!(is_legal(&pos, "K8h-7g"));
    let mut garden = pos.clone();
    let win = Outcome::Win { winner: M, reason: WinReason::Garden };
    assert_eq!(play(&mut garden, "K8h-7g").as_slice(), &[game_over(win, [2, 1, 2])], "the Garden wins");
    assert!(king_moves(&pos).len() > 6, "Middle's unmoved king may castle: {:?}", king_moves(&pos));
    play(&mut pos, "P10i-10h");
    assert!(Player::ALL.iter().all(|&p| pos.may_castle(p)));
    play(&mut pos, "G6i-5h");
    assert_eq!(pos.to_move(), F);
    assert!(is_legal(&pos, "P7jx8k+"), "First promotes entering Middle's territory");
    assert!(is_legal(&pos, "+R12i-8i"), "and may check Middle");
    assert!(is_legal(&pos, "+R12i-9i"));
}

#[test]
fn formation_cancels_castling_promotes_the_lone_king_and_binds_the_allies() {
    let mut pos = position(effects_setup(), &[]);
    let m = mv(&pos, "P10i-10h");
    assert_eq!(pos.play(m).unwrap().as_slice(), &[Event::AllianceFormed(discovered([M, F], L, "6i", ("12i", "+R"), m))]);

    // Every unused castling right is gone, and the lone king is promoted at once.
    assert!(no_castling(&pos));
    assert_eq!(pos.piece_at(cell("13g")), Some(piece(L, "+K")));
    assert!(pos.illumination_ready(L));

    // Last, on its very next turn, may illuminate with the king promoted on Middle's turn.
    assert_eq!(pos.to_move(), L);
    let illuminations: Vec<String> = legal(&pos).into_iter().filter(|t| t.contains('!')).collect();
    assert_eq!(illuminations, ["+K13g!10j"]);
    assert_eq!(play(&mut pos, "+K13g!10j").as_slice(), no_events().as_slice());
    assert_eq!(pos.piece_at(cell("10j")), None);
    assert_eq!(pos.hand(L).count(Role::Gold), 1);

    // First, allied: no promotion entering Middle's territory; no move that checks Middle's
    // king; but Middle's pawn may be taken.
    assert_eq!(pos.to_move(), F);
    assert!(is_legal(&pos, "P7jx8k"));
    assert!(!is_legal(&pos, "P7jx8k+"), "allies cannot promote");
    assert!(!is_legal(&pos, "+R12i-8i") && !is_legal(&pos, "+R12i-9i"), "allies may not check each other");
    assert!(is_legal(&pos, "+R12i-7i"), "the same +R may go past the checking cells");
    for m in legal_list(&pos) {
        let mut after = pos.clone();
        after.play_unchecked(m);
        assert!(!after.in_check(M), "{} checks the ally", move_text::canonical(&pos, m));
    }
    assert_eq!(play(&mut pos, "P7jx8k").as_slice(), no_events().as_slice());
    assert_eq!(pos.piece_at(cell("8k")), Some(piece(F, "P")), "taken, and not promoted");
    assert_eq!(pos.hand(F).count(Role::Pawn), 1, "an ally's piece goes to the captor's hand");

    // Middle, allied: its king may step into the Garden, but wins nothing there; it may not
    // castle although it never moved.
    assert_eq!(pos.to_move(), M);
    assert_only_king_steps(&pos);
    assert_eq!(play(&mut pos, "K8h-7g").as_slice(), no_events().as_slice());
    assert_eq!(pos.outcome(), None);
    assert!(no_castling(&pos), "never restored");
}

// ---------------------------------------------------------------------------------------------
// §1.13 [DEF]: forming an alliance while checking the new ally is illegal

/// The undefended-gold discovered attack with First's king on 10g: P10i-10h (Middle's 11
/// o'clock) would put Middle's pawn on 10h, attacking 10g — check to First — while it opens
/// rank i for First's +R against Last's gold: an alliance with a player it checks.
/// P10i-9h (Middle's 1 o'clock) opens the same line without the check.
fn checking_formation_setup() -> SanninSetup {
    let mut s = discovered_setup(("L", "G", "6i"));
    s.pieces.retain(|&(c, _)| c != cell("1d"));
    s.pieces.push((cell("10g"), piece(F, "K")));
    s
}

#[test]
fn a_move_forming_an_alliance_with_a_player_it_checks_is_illegal() {
    for options in [&[][..], &["compulsory=confirm"][..]] {
        let pos = position(checking_formation_setup(), options);
        assert!(!is_legal(&pos, "P10i-10h"), "{options:?}: {:?}", legal(&pos));
        assert!(is_legal(&pos, "P10i-9h"), "{options:?}");
        let check_and_form = Move::Normal { from: cell("10i"), to: cell("10h"), promote: false };
        assert_eq!(pos.clone().play(check_and_form), Err(IllegalMove::NotLegal));
    }
    // The alliance-forming move without the check is legal and forms it.
    let mut pos = position(checking_formation_setup(), &[]);
    let m = mv(&pos, "P10i-9h");
    assert_eq!(pos.play(m).unwrap().as_slice(), &[Event::AllianceFormed(discovered([M, F], L, "6i", ("12i", "+R"), m))]);
}

#[test]
fn the_same_checking_move_is_legal_without_compulsory_alliances() {
    let mut pos = position(checking_formation_setup(), &["compulsory=off"]);
    assert!(is_legal(&pos, "P10i-10h"));
    assert_eq!(play(&mut pos, "P10i-10h").as_slice(), no_events().as_slice());
    assert!(pos.in_check(F));
}

#[test]
fn the_capture_list_leaves_out_a_capture_forming_an_alliance_with_a_player_it_checks() {
    // As above, but P10i-10h takes a pawn of Last's (the engine's quiescence search lists
    // captures alone, and the rule must hold there too).
    let mut s = checking_formation_setup();
    s.pieces.push((cell("10h"), piece(L, "P")));
    let take = Move::Normal { from: cell("10i"), to: cell("10h"), promote: false };
    let captures = |pos: &SanninPosition| {
        let mut list = MoveList::new();
        pos.legal_captures(&mut list);
        list
    };
    let pos = position(s.clone(), &[]);
    assert!(!is_legal(&pos, "P10ix10h"), "{:?}", legal(&pos));
    assert!(!captures(&pos).contains(&take), "{:?}", captures(&pos));
    let pos = position(s, &["compulsory=off"]);
    assert!(is_legal(&pos, "P10ix10h"));
    assert!(captures(&pos).contains(&take));
}

// ---------------------------------------------------------------------------------------------
// §1.13 dissolution

/// Middle's P10f-10e opens rank f for First's +R on 12f against Last's undefended gold on 6f
/// (Middle's pawn defended by its gold 10g, Middle's 11 o'clock step). Last's king is walled in
/// on 13m by its own pawns on 12l 12m 12k 11l (the first cells of five of its rays; pawns of
/// Last step only to (−1,0) and (0,+1), never onto column 13), leaving only column 13 open.
/// +R12f-13g, guarded by First's pawn 12g (First's 1 o'clock (+1,0)), then mates the +K: it
/// can only run up its column. First's pawn on 12g has one move left, to 13h on First's far
/// gap edge, which needs a (forced) promotion. Middle's king waits on 8h beside the Garden.
fn dissolution_setup() -> SanninSetup {
    let pieces = [
        ("F", "K", "1d"),
        ("F", "+R", "12f"),
        ("F", "P", "12g"),
        ("M", "K", "8h"),
        ("M", "P", "10f"),
        ("M", "G", "10g"),
        ("L", "K", "13m"),
        ("L", "P", "12l"),
        ("L", "P", "12m"),
        ("L", "P", "12k"),
        ("L", "P", "11l"),
        ("L", "G", "6f"),
    ];
    let mut s = setup(&pieces, M);
    s.may_castle = ByPlayer([true; 3]);
    s
}

/// Plays the alliance, Last's reply and First's mate; returns the mate's events.
fn form_and_mate_the_lone_player(pos: &mut SanninPosition) -> Events {
    let m = mv(pos, "P10f-10e");
    assert_eq!(pos.play(m).unwrap().as_slice(), &[Event::AllianceFormed(discovered([M, F], L, "6f", ("12f", "+R"), m))]);
    assert_eq!(play(pos, "G6f-5e").as_slice(), no_events().as_slice());
    // While allied, First's pawn cannot make the promotion its last step needs.
    assert!(!legal(pos).iter().any(|t| t.starts_with("P12g-13h")), "{:?}", legal(pos));
    play(pos, "+R12f-13g")
}

#[test]
fn mating_the_lone_player_dissolves_the_alliance_and_the_two_play_on() {
    let mut pos = position(dissolution_setup(), &[]);
    let events = form_and_mate_the_lone_player(&mut pos);
    assert_eq!(
        events.as_slice(),
        &[Event::Checkmated { player: L, by: F }, Event::AllianceDissolved { allies: PlayerSet::of(&[F, M]) }]
    );
    assert_eq!(pos.outcome(), None, "the two play on");
    assert_eq!(pos.active_players(), PlayerSet::of(&[F, M]));
    assert_eq!(pos.allies(), PlayerSet::EMPTY);
    assert_eq!(pos.former_allies(), PlayerSet::of(&[F, M]));
    assert!(no_castling(&pos), "castling does not come back");
    // The mating player moves again (§1.10), and promotion is back.
    assert_eq!(pos.to_move(), F);
    assert!(is_legal(&pos, "P12g-13h+"), "{:?}", legal(&pos));
    assert_eq!(play(&mut pos, "P12g-13h+").as_slice(), no_events().as_slice());
    // Middle's king: steps only (no castling), and the Garden wins again.
    assert_eq!(pos.to_move(), M);
    assert_only_king_steps(&pos);
    let win = Outcome::Win { winner: M, reason: WinReason::Garden };
    assert_eq!(play(&mut pos, "K8h-7g").as_slice(), &[game_over(win, [2, 1, 3])]);
}

#[test]
fn promotion_and_garden_stay_lost_after_dissolution_under_the_options() {
    let options = ["promotion_returns_after_dissolution=false", "garden_returns_after_dissolution=false"];
    let mut pos = position(dissolution_setup(), &options);
    let events = form_and_mate_the_lone_player(&mut pos);
    assert_eq!(
        events.as_slice(),
        &[Event::Checkmated { player: L, by: F }, Event::AllianceDissolved { allies: PlayerSet::of(&[F, M]) }]
    );
    assert_eq!(pos.to_move(), F);
    assert!(!legal(&pos).iter().any(|t| t.starts_with("P12g-13h")), "{:?}", legal(&pos));
    play(&mut pos, "K1d-1e");
    assert_eq!(play(&mut pos, "K8h-7g").as_slice(), no_events().as_slice(), "no Garden win");
    assert_eq!(pos.outcome(), None);
}

#[test]
fn no_new_alliance_after_one_dissolved() {
    // After the dissolution only two players are left; and even a (hand-built) three-player
    // position that records a former alliance never forms a new one: the discovered attack that
    // forms an alliance in `discovered_attack_on_an_undefended_piece_forms_an_alliance` does
    // nothing here.
    let mut pos = position(dissolution_setup(), &[]);
    form_and_mate_the_lone_player(&mut pos);
    for text in ["P12g-13h+", "K8h-8i", "+R13g-12f"] {
        let events = play(&mut pos, text);
        assert_eq!(alliance_events(&events), no_events(), "{text}");
        assert_eq!(pos.allies(), PlayerSet::EMPTY);
    }

    let mut s = discovered_setup(("L", "G", "6i"));
    s.former_allies = PlayerSet::of(&[F, M]);
    let mut pos = position(s, &[]);
    assert_eq!(play(&mut pos, "P10i-10h").as_slice(), no_events().as_slice());
    assert_eq!(pos.allies(), PlayerSet::EMPTY);
}

// ---------------------------------------------------------------------------------------------
// §1.14 whole games with an alliance

#[test]
fn scripted_game_the_lone_player_wins_by_mating_an_ally() {
    // First's king is boxed in on 1a by its pawns 2a and 2b; its only step, 1b, is on column 1.
    // First and Middle make a dual attack on Last's golds 7f and 12k (see the dual tests). Last's
    // king, promoted at once, now ranges along rank m (12m … 8m empty) onto Middle's king on 7m:
    // check. Last's +K illuminates Middle's unguarded +R on 9k along its (−2,−1) diagonal
    // (11l, 9k); First makes a quiet move; Middle steps out of check; Last's +R runs along rank c
    // to 1c and
    // checks First up column 1: nothing of First can take it or step between, so First is mated
    // and both allies lose. (Last's +R on 5c stays off both golds' lines: a +R on 5d would
    // defend 7f along (+1,+1), and then First's +R would threaten nothing.)
    let pieces = [
        ("F", "K", "1a"),
        ("F", "P", "2a"),
        ("F", "P", "2b"),
        ("F", "+R", "6a"),
        ("M", "K", "7m"),
        ("M", "+R", "9j"),
        ("L", "K", "13m"),
        ("L", "G", "7f"),
        ("L", "G", "12k"),
        ("L", "+R", "5c"),
    ];
    let mut game = SanninGame::new(position(setup(&pieces, F), &[]));
    assert_eq!(game_play(&mut game, "+R6a-7a").as_slice(), no_events().as_slice());
    let first = game.moves()[0];
    let events = game_play(&mut game, "+R9j-9k");
    let second = game.moves()[1];
    assert_eq!(events.as_slice(), &[Event::AllianceFormed(dual([F, M], L, &["7f", "12k"], first, second))]);
    assert!(game.position().in_check(M), "the new +K on 13m sees 7m");
    assert_eq!(game_play(&mut game, "+K13m!9k").as_slice(), no_events().as_slice());
    assert_eq!(game.position().hand(L).count(Role::Rook), 1);
    assert_eq!(game_play(&mut game, "+R7a-7b").as_slice(), no_events().as_slice());
    assert_eq!(game_play(&mut game, "K7m-7l").as_slice(), no_events().as_slice());
    let events = game_play(&mut game, "+R5c-1c");
    let win = Outcome::Win { winner: L, reason: WinReason::AllyMated };
    assert_eq!(events.as_slice(), &[Event::Checkmated { player: F, by: L }, game_over(win, [2, 2, 1])]);
    assert_eq!(game.position().outcome(), Some(win));
    assert_eq!(game.position().placings(), Some(ByPlayer([2, 2, 1])));
}

#[test]
fn scripted_game_the_lone_player_falls_and_the_former_allies_fight_it_out() {
    // The dissolution position plus, for the second mate, Middle's king walled in on 7m by its
    // pawn 6l and knight 8m (neither can reach column 7), First's +R on 3h and First's pawn on
    // 6g (which guards 7h, First's 11 o'clock (+1,+1)).
    let mut s = dissolution_setup();
    s.pieces.retain(|&(c, _)| c != cell("8h"));
    s.may_castle = ByPlayer([false; 3]);
    for (p, pc, c) in [("M", "K", "7m"), ("M", "P", "6l"), ("M", "N", "8m"), ("F", "+R", "3h"), ("F", "P", "6g")] {
        s.pieces.push((cell(c), piece(player(p), pc)));
    }
    let mut game = SanninGame::new(position(s, &[]));
    let events = game_play(&mut game, "P10f-10e");
    let m = game.moves()[0];
    assert_eq!(events.as_slice(), &[Event::AllianceFormed(discovered([M, F], L, "6f", ("12f", "+R"), m))]);
    assert_eq!(game_play(&mut game, "G6f-5e").as_slice(), no_events().as_slice());
    assert_eq!(
        game_play(&mut game, "+R12f-13g").as_slice(),
        &[Event::Checkmated { player: L, by: F }, Event::AllianceDissolved { allies: PlayerSet::of(&[F, M]) }]
    );
    assert_eq!(game.position().to_move(), F, "the mating player moves again");
    assert_eq!(game_play(&mut game, "P12g-13h+").as_slice(), no_events().as_slice());
    assert_eq!(game_play(&mut game, "P10e-10d").as_slice(), no_events().as_slice());
    // +R3h-7h checks down column 7 (7i 7j 7k 7l); the king's only free step, 7l, is on it.
    let events = game_play(&mut game, "+R3h-7h");
    let win = Outcome::Win { winner: F, reason: WinReason::LastStanding };
    assert_eq!(events.as_slice(), &[Event::Checkmated { player: M, by: F }, game_over(win, [1, 2, 3])]);
    assert_eq!(game.position().placings(), Some(ByPlayer([1, 2, 3])));
}

// ---------------------------------------------------------------------------------------------
// Records: an alliance in a replayed game

/// From the start position: First's G1c-2c leaves its silver on 1b without a defender (the gold
/// guarded it by First's 3 o'clock step (0,−1)); Middle's P6k-6j opens its rook's 1 o'clock
/// line (−1,−1) from 7l through 6k 5j 4i onto First's undefended pawn 3h; Last's B7bx3f then
/// attacks the silver on 1b along the diagonal (−1,−2): 3f, 2d, 1b. First
/// can take the bishop, but no reply saves both 3h and 1b: Middle and Last ally against First.
const ALLIANCE_RECORD: &str = r#"[Variant "sannin"]
[Event "A dual attack three moves in"]
[Result "*"]

1. G1c-2c P6k-6j Bx3f {alliance Middle+Last}
2. Nx3f
*
"#;

#[test]
fn a_replayed_record_reports_the_alliance() {
    let replayed = replay(ALLIANCE_RECORD).expect("the record reads");
    assert_eq!(replayed.bad_move, None);
    let canonical: Vec<&str> = replayed.played.iter().map(|p| p.canonical.as_str()).collect();
    assert_eq!(canonical, ["G1c-2c", "P6k-6j", "B7bx3f", "N3ex3f"]);
    let played = &replayed.played;
    assert_eq!(played[0].events.as_slice(), no_events().as_slice());
    assert_eq!(played[1].events.as_slice(), no_events().as_slice());
    let formation = dual([M, L], F, &["3h", "1b"], played[1].mv, played[2].mv);
    assert_eq!(played[2].events.as_slice(), &[Event::AllianceFormed(formation)]);
    assert_eq!(played[3].events.as_slice(), no_events().as_slice());
    // The record's moves, played again on a typed game, leave the alliance standing.
    let mut game = SanninGame::new(SanninPosition::start(rules(&[])));
    for p in played {
        game.play(p.mv).expect("a replayed move plays again");
    }
    let end = game.position();
    assert_eq!(end.allies(), PlayerSet::of(&[M, L]));
    assert_eq!(end.piece_at(cell("1d")), Some(piece(F, "+K")));
    assert!(no_castling(end));
}

// ---------------------------------------------------------------------------------------------
// More of the detector: diagonals, followed targets, standing threats, symmetry

#[test]
fn discovered_attack_along_a_diagonal_forms_an_alliance() {
    // First's bishop on 2g ranges along (+2,+1), landing on 4h 6i 8j 10k. Middle's pawn on 6i
    // (defended by Middle's gold 6j) is the blocker; Last's undefended gold waits on 10k.
    let pieces = [
        ("F", "K", "1d"),
        ("F", "B", "2g"),
        ("M", "K", "10m"),
        ("M", "P", "6i"),
        ("M", "G", "6j"),
        ("L", "K", "13g"),
        ("L", "G", "10k"),
    ];
    let mut pos = position(setup(&pieces, M), &[]);
    let m = mv(&pos, "P6i-6h");
    assert_eq!(pos.play(m).unwrap().as_slice(), &[Event::AllianceFormed(discovered([M, F], L, "10k", ("2g", "B"), m))]);
}

#[test]
fn moving_a_piece_the_diagonal_passes_between_discovers_nothing() {
    // The same bishop line, but Middle's pawn stands on 5h, one of the two cells the step
    // 4h→6i passes between: it never blocked the bishop, so its move opens no line (the gold on
    // 10k was attacked all along).
    let pieces = [
        ("F", "K", "1d"),
        ("F", "B", "2g"),
        ("M", "K", "10m"),
        ("M", "P", "5h"),
        ("M", "G", "5i"),
        ("L", "K", "13g"),
        ("L", "G", "10k"),
    ];
    let mut pos = position(setup(&pieces, M), &[]);
    assert_eq!(play(&mut pos, "P5h-5g").as_slice(), no_events().as_slice());
    assert_eq!(pos.allies(), PlayerSet::EMPTY);
}

#[test]
fn promotion_is_ignored_in_piece_values() {
    // Rank i cleared onto Last's promoted pawn on 7i, defended by Last's gold 7h: it moves like
    // a gold but is worth a pawn, so a +R attacking it while defended is no threat.
    let mut s = discovered_setup(("L", "+P", "7i"));
    s.pieces.push((cell("7h"), piece(L, "G")));
    let mut pos = position(s, &[]);
    assert_eq!(play(&mut pos, "P10i-10h").as_slice(), no_events().as_slice());
    // And First's lance (2) against Last's defended promoted bishop (a bishop, 3) is a threat.
    let pieces = [
        ("F", "K", "1d"),
        ("F", "L", "3i"),
        ("M", "K", "10m"),
        ("M", "P", "5i"),
        ("M", "G", "5j"),
        ("L", "K", "13g"),
        ("L", "+B", "9i"),
        ("L", "G", "10i"),
    ];
    let mut pos = position(setup(&pieces, M), &[]);
    let m = mv(&pos, "P5i-5h");
    assert_eq!(pos.play(m).unwrap().as_slice(), &[Event::AllianceFormed(discovered([M, F], L, "9i", ("3i", "L"), m))]);
}

#[test]
fn dual_attack_parried_by_taking_the_second_attacker_with_the_first_target_forms_no_alliance() {
    // First's +R 6a-7a attacks Last's gold 7f down column 7; Middle's P8f-8e attacks Last's
    // undefended silver 8d (Middle's 11 o'clock). Last's gold takes the pawn on 8e (its
    // (+1,−1) diagonal step): off column 7 and rid of the silver's attacker in one reply.
    let pieces = [
        ("F", "K", "1g"),
        ("F", "+R", "6a"),
        ("M", "K", "7m"),
        ("M", "P", "8f"),
        ("L", "K", "13m"),
        ("L", "G", "7f"),
        ("L", "S", "8d"),
    ];
    let mut pos = position(setup(&pieces, F), &[]);
    assert_eq!(play(&mut pos, "+R6a-7a").as_slice(), no_events().as_slice());
    assert_eq!(pos.last_action().unwrap().new_threats[L].targets, cells(&["7f"]));
    assert_eq!(play(&mut pos, "P8f-8e").as_slice(), no_events().as_slice());
    assert_eq!(pos.last_action().unwrap().new_threats[L].targets, cells(&["8d"]));
    assert_eq!(pos.allies(), PlayerSet::EMPTY);
    assert!(is_legal(&pos, "G7fx8e"));
}

#[test]
fn dual_attack_needs_the_first_threat_still_standing() {
    // First's +R 6a-7a attacks gold 7f down column 7. Middle's +R 12i-7d (along (−1,−1)) then
    // stands on column 7 between them, blocking First's threat, and itself attacks 7f and the
    // gold on 9d: only Middle's threats are left, and a fork by one player is no alliance.
    let pieces = [
        ("F", "K", "1g"),
        ("F", "+R", "6a"),
        ("M", "K", "7m"),
        ("M", "+R", "12i"),
        ("L", "K", "13m"),
        ("L", "G", "7f"),
        ("L", "G", "9d"),
    ];
    let mut pos = position(setup(&pieces, F), &[]);
    assert_eq!(play(&mut pos, "+R6a-7a").as_slice(), no_events().as_slice());
    assert_eq!(play(&mut pos, "+R12i-7d").as_slice(), no_events().as_slice());
    assert_eq!(pos.last_action().unwrap().new_threats[L].targets, cells(&["7f", "9d"]));
    assert_eq!(pos.allies(), PlayerSet::EMPTY);
}

/// Turns a cell 120° clockwise, the rotation that takes Middle's frame to Last's, Last's to
/// First's and First's to Middle's (RULES.md §1.2): axial (q, r) → (s, q) with s = −q − r,
/// q = 7 − column, r = rank − 7.
fn rotated_cell(name: &str) -> String {
    let (digits, letter) = name.split_at(name.len() - 1);
    let (c, rank) = (digits.parse::<i32>().unwrap(), (letter.as_bytes()[0] - b'a' + 1) as i32);
    let (q, r) = (7 - c, rank - 7);
    let (q2, r2) = (-q - r, q);
    format!("{}{}", 7 - q2, (b'a' + (r2 + 7 - 1) as u8) as char)
}

fn rotated_player(p: Player) -> Player {
    p.next3()
}

/// The setup turned 120° clockwise with every seat moved on one (First→Middle→Last→First).
fn rotated(s: &SanninSetup) -> SanninSetup {
    let name = |c: Cell| HexNaming::Sannin.name(&HEX127, c);
    let mut r = s.clone();
    r.pieces =
        s.pieces.iter().map(|&(c, p)| (cell(&rotated_cell(&name(c))), Piece { player: rotated_player(p.player), ..p })).collect();
    r.to_move = rotated_player(s.to_move);
    r
}

fn normal_move(from: &str, to: &str) -> Move {
    Move::Normal { from: cell(from), to: cell(to), promote: false }
}

#[test]
fn the_detector_treats_the_three_seats_alike() {
    assert_eq!(rotated_cell("7g"), "7g");
    assert_eq!(rotated_cell("10m"), "10d", "Middle's king cell goes to Last's");
    assert_eq!(rotated_cell("10d"), "1d", "Last's king cell goes to First's");
    assert_eq!(rotated_cell("1d"), "10m", "First's king cell goes to Middle's");

    // The undefended-gold discovered attack, turned once and twice.
    let mut s = discovered_setup(("L", "G", "6i"));
    let [mut from, mut to, mut target, mut line] = ["10i", "10h", "6i", "12i"].map(String::from);
    let (mut mover, mut attacker, mut victim) = (M, F, L);
    for _ in 0..2 {
        s = rotated(&s);
        [from, to, target, line] = [&from, &to, &target, &line].map(|c| rotated_cell(c));
        (mover, attacker, victim) = (rotated_player(mover), rotated_player(attacker), rotated_player(victim));
        let mut pos = position(s.clone(), &[]);
        let m = normal_move(&from, &to);
        let events = pos.play(m).unwrap_or_else(|e| panic!("{from}-{to}: {e}; legal {:?}", legal(&pos)));
        let formation = discovered([mover, attacker], victim, &target, (&line, "+R"), m);
        assert_eq!(events.as_slice(), &[Event::AllianceFormed(formation)], "{mover:?} moving");
    }

    // The unparried dual attack, turned once and twice.
    let mut s = setup(&dual_pieces(), F);
    let mut moves = [("6a", "7a"), ("9j", "9k")].map(|(a, b)| (a.to_string(), b.to_string()));
    let mut targets = ["7f".to_string(), "12k".to_string()];
    let (mut first, mut second, mut victim) = (F, M, L);
    for _ in 0..2 {
        s = rotated(&s);
        for m in &mut moves {
            *m = (rotated_cell(&m.0), rotated_cell(&m.1));
        }
        for t in &mut targets {
            *t = rotated_cell(t);
        }
        (first, second, victim) = (rotated_player(first), rotated_player(second), rotated_player(victim));
        let mut pos = position(s.clone(), &[]);
        let m1 = normal_move(&moves[0].0, &moves[0].1);
        assert_eq!(pos.play(m1).unwrap().as_slice(), no_events().as_slice());
        let m2 = normal_move(&moves[1].0, &moves[1].1);
        let formation = dual([first, second], victim, &[targets[0].as_str(), targets[1].as_str()], m1, m2);
        assert_eq!(pos.play(m2).unwrap().as_slice(), &[Event::AllianceFormed(formation)], "{first:?} then {second:?}");
    }
}

/// A pass leaves the board as it was, so it makes no new threat, though the threats noted at its
/// node (the ones it was chosen from) hold the previous action's: Middle's pawn step stalemates
/// Last and opens Middle's rook onto First's undefended gold, and Last, under `stalemate=pass`,
/// can only pass.
#[test]
fn a_forced_pass_makes_no_new_threat() {
    let pieces = [
        ("F", "K", "1g"),
        ("F", "G", "7c"),
        ("L", "K", "7a"),
        ("M", "S", "8c"),
        ("M", "P", "6c"),
        ("M", "R", "4c"),
        ("M", "K", "10m"),
    ];
    let mut pos = position(setup(&pieces, M), &["stalemate=pass"]);
    play(&mut pos, "P6c-6b");
    assert_eq!(pos.last_action().unwrap().new_threats[F].targets, cells(&["7c"]));
    assert_eq!(legal(&pos), ["pass"]);
    play(&mut pos, "pass");
    let last = pos.last_action().unwrap();
    assert_eq!((last.mover, last.mv), (L, Move::Pass));
    assert_eq!(last.new_threats, ByPlayer::new(|_| Threats::default()), "a pass found the previous action's threats");
}

/// A king's step into the Garden ends the game and leaves the previous action as the detector
/// last knew it, its threats those on the board that action left: Middle's rook checks Last's
/// king, which steps out of the check into the Garden.
#[test]
fn a_win_in_the_garden_keeps_the_previous_actions_threats() {
    let pieces = [("F", "K", "1g"), ("M", "K", "10m"), ("M", "R", "5a"), ("L", "K", "7h")];
    let mut pos = position(setup(&pieces, M), &[]);
    play(&mut pos, "R5a-10k");
    let checked = pos.last_action().unwrap();
    assert_eq!(checked.new_threats[L].targets, cells(&["7h"]));
    let events = play(&mut pos, "K7h-7g");
    assert_eq!(pos.outcome(), Some(Outcome::Win { winner: L, reason: WinReason::Garden }), "{events:?}");
    assert_eq!(pos.last_action(), Some(checked));
}

// ---------------------------------------------------------------------------------------------
// More of the illegal-formation rule

#[test]
fn a_dual_attack_that_checks_the_new_ally_is_illegal() {
    // The unparried dual attack with First's king on 1c: +R9j-9k would look along (−1,−1)
    // (8j 7i 6h 5g 4f 3e 2d) at 1c — check to First — while completing the dual attack with
    // First. +R9j-10k completes it along rank k (11k, 12k) without the check.
    let mut pieces = dual_pieces();
    pieces.retain(|&(_, _, c)| c != "1g");
    pieces.push(("F", "K", "1c"));
    let mut pos = position(setup(&pieces, F), &[]);
    let first = mv(&pos, "+R6a-7a");
    assert_eq!(pos.play(first).unwrap().as_slice(), no_events().as_slice());
    assert!(!is_legal(&pos, "+R9j-9k"), "{:?}", legal(&pos));
    let second = mv(&pos, "+R9j-10k");
    let formation = dual([F, M], L, &["7f", "12k"], first, second);
    assert_eq!(pos.play(second).unwrap().as_slice(), &[Event::AllianceFormed(formation)]);

    let mut pos = position(setup(&pieces, F), &["compulsory=off"]);
    play(&mut pos, "+R6a-7a");
    assert!(is_legal(&pos, "+R9j-9k"));
}

/// First's silver on 13i, attacked by Middle's +R on 13k (two cells up column 13) and
/// undefended, steps aside to 12i: a defence, which is why the check it uncovers — Middle's +R
/// on Last's king 13g — forms no alliance. Now Middle is to move with Last in check from
/// Middle's own +R. P6j-5i (Middle's 1 o'clock) then opens column 6 for Last's +R on 6l onto
/// First's undefended gold on 6g (Middle's pawn was defended by its gold 5j): a discovered
/// attack allying Middle with Last, whom Middle's +R still checks. Neither 6j nor 5i lies on a
/// line from First's or Last's king.
fn preexisting_check_setup() -> SanninSetup {
    let pieces = [
        ("F", "K", "1d"),
        ("F", "G", "6g"),
        ("F", "S", "13i"),
        ("M", "K", "10m"),
        ("M", "+R", "13k"),
        ("M", "P", "6j"),
        ("M", "G", "5j"),
        ("L", "K", "13g"),
        ("L", "+R", "6l"),
    ];
    setup(&pieces, F)
}

#[test]
fn a_move_forming_an_alliance_while_the_new_ally_stays_in_its_check_is_illegal() {
    // §1.13 [DEF]: "a move that would form an alliance while LEAVING one new ally in check from
    // the other is illegal" — the check need not be given by the move itself.
    let mut pos = position(preexisting_check_setup(), &[]);
    assert_eq!(play(&mut pos, "S13i-12i").as_slice(), no_events().as_slice());
    assert!(pos.last_action().unwrap().defensive);
    assert!(pos.in_check(L), "Middle's +R checks Last up column 13");
    assert_eq!(pos.to_move(), M);
    assert!(is_legal(&pos, "P6j-6i"), "the pawn may still advance up its column");
    if is_legal(&pos, "P6j-5i") {
        let mut after = pos.clone();
        let events = play(&mut after, "P6j-5i");
        panic!(
            "P6j-5i is legal, yet it allies Middle with Last while Middle's +R checks Last: \
             events {events:?}, allies {:?}, Last in check {}",
            after.allies(),
            after.in_check(L)
        );
    }
}

#[test]
fn the_same_move_with_the_new_ally_in_check_is_legal_without_compulsory_alliances() {
    let mut pos = position(preexisting_check_setup(), &["compulsory=off"]);
    play(&mut pos, "S13i-12i");
    assert!(is_legal(&pos, "P6j-5i"));
}

// ---------------------------------------------------------------------------------------------
// More effects of an alliance

#[test]
fn the_lone_player_keeps_the_garden_win() {
    // After the undefended-gold discovered attack, Last's new +K on 13g ranges along rank g
    // (12g … 8g empty) into the Garden, which no piece of First or Middle attacks.
    let mut pos = position(discovered_setup(("L", "G", "6i")), &[]);
    play(&mut pos, "P10i-10h");
    assert_eq!(pos.allies(), PlayerSet::of(&[F, M]));
    let win = Outcome::Win { winner: L, reason: WinReason::Garden };
    assert_eq!(play(&mut pos, "+K13g-7g").as_slice(), &[game_over(win, [2, 2, 1])]);
}

#[test]
fn an_ally_who_exposes_the_other_to_mate_loses_with_it() {
    // First (king boxed in on 1a by its pawns 2a, 2b) and Middle are allied; Middle's gold on 1c
    // shields First's king from Last's +R on 1d. Exposing an ally is legal by default (§5 #14),
    // and G1c-2e (Middle's 6 o'clock diagonal step) leaves First mated at once: both allies
    // lose. (G1c-2c would attack 1a from 2c along Middle's 12 o'clock diagonal: a check on the
    // ally, so not legal.)
    let pieces = [
        ("F", "K", "1a"),
        ("F", "P", "2a"),
        ("F", "P", "2b"),
        ("M", "K", "10l"),
        ("M", "G", "1c"),
        ("L", "+K", "13m"),
        ("L", "+R", "1d"),
    ];
    let mut s = setup(&pieces, M);
    s.allies = PlayerSet::of(&[F, M]);
    let mut pos = position(s.clone(), &[]);
    assert!(Player::ALL.iter().all(|&p| !pos.in_check(p)));
    let win = Outcome::Win { winner: L, reason: WinReason::AllyMated };
    assert_eq!(play(&mut pos, "G1c-2e").as_slice(), &[Event::Checkmated { player: F, by: M }, game_over(win, [2, 2, 1])]);
    let pos = position(s, &["forbid_exposing_ally=true"]);
    assert!(!is_legal(&pos, "G1c-2c"));
    assert!(!is_legal(&pos, "G1c-2e"), "unless the option forbids exposing an ally");
}

#[test]
fn a_discovered_mate_is_a_mate_and_forms_no_alliance() {
    // §1.13 step 5. Last's king on 13m, walled in by its own pawns (12l 12m 12k 11l), is on
    // column 13 below First's +R on 13g, which First's pawn 12g guards; Middle's pawn on 13i
    // (defended by its gold 12i, Middle's 9 o'clock step) blocks the column. P13i-12h (Middle's
    // 1 o'clock) discovers the check, and the king has no legal action: the mate is decided
    // first, Last is out, and with two players left no alliance forms — so no castling right
    // is cancelled and nothing dissolves. The mover plays on against First.
    let pieces = [
        ("F", "K", "1d"),
        ("F", "+R", "13g"),
        ("F", "P", "12g"),
        ("M", "K", "10m"),
        ("M", "P", "13i"),
        ("M", "G", "12i"),
        ("L", "K", "13m"),
        ("L", "P", "12l"),
        ("L", "P", "12m"),
        ("L", "P", "12k"),
        ("L", "P", "11l"),
    ];
    let mut s = setup(&pieces, M);
    s.may_castle = ByPlayer([true; 3]);
    let mut pos = position(s, &[]);
    let m = mv(&pos, "P13i-12h");
    assert_eq!(pos.play(m).unwrap().as_slice(), &[Event::Checkmated { player: L, by: M }]);
    assert_eq!(pos.outcome(), None);
    assert_eq!(pos.active_players(), PlayerSet::of(&[F, M]));
    assert_eq!(pos.allies(), PlayerSet::EMPTY);
    assert_eq!(pos.former_allies(), PlayerSet::EMPTY);
    assert!(pos.may_castle(F) && pos.may_castle(M), "no alliance formed, so castling survives");
    assert_eq!(pos.to_move(), M, "the mating player moves again");
    // 12h lies in Last's former territory: Middle, never allied, promotes there.
    assert!(is_legal(&pos, "P12h-11g+") && is_legal(&pos, "P12hx12g+"), "{:?}", legal(&pos));
}

// ---------------------------------------------------------------------------------------------
// §1.13 steps 2, 5 and 6: only new threats are discovered, mate first, several candidates

#[test]
fn a_discovered_line_onto_an_already_threatened_piece_forms_no_alliance() {
    // Step 2 counts threats per piece. First's silver on 5i already attacks Last's undefended
    // gold on 6i (First's 1 o'clock step (+1,0)), so when P10i-10h opens rank i for First's +R
    // the gold is attacked twice but threatened once, as before: no new threat, no alliance.
    let mut s = discovered_setup(("L", "G", "6i"));
    s.pieces.push((cell("5i"), piece(F, "S")));
    let mut pos = position(s, &[]);
    assert_eq!(play(&mut pos, "P10i-10h").as_slice(), no_events().as_slice());
    assert_eq!(pos.allies(), PlayerSet::EMPTY);
    assert_eq!(pos.last_action().unwrap().new_threats[L].targets, CellSet::EMPTY);
    // Control: the same line onto the same gold without the silver forms the alliance.
    let mut pos = position(discovered_setup(("L", "G", "6i")), &[]);
    let m = mv(&pos, "P10i-10h");
    assert_eq!(pos.play(m).unwrap().as_slice(), &[Event::AllianceFormed(discovered([M, F], L, "6i", ("12i", "+R"), m))]);
}

/// Step 5 with a dual attack. First's +R 6a-7a attacks Last's undefended gold on 7f down column
/// 7. Middle then drops a lance on 13j: it looks up column 13 (Middle's 11 o'clock (0,−1))
/// through 13i and 13h at Last's king on 13g — a second threat on a different piece, and a
/// check. The king's steps are 12g and 12f (its own pawns, guarded by nothing of the others'
/// and so no escape) and 13h (on the lance's column); nothing of Last's can reach 13h or 13i or
/// take the lance, and Last holds nothing in hand: mate. Promoted, the same king would jump
/// diagonally to 11f or 12h, which nobody attacks.
fn lance_drop_mate_setup() -> SanninSetup {
    let pieces = [
        ("F", "K", "1g"),
        ("F", "+R", "6a"),
        ("M", "K", "7m"),
        ("L", "K", "13g"),
        ("L", "P", "12g"),
        ("L", "P", "12f"),
        ("L", "G", "7f"),
    ];
    let mut s = setup(&pieces, F);
    s.hands[M].add(Role::Lance);
    s
}

#[test]
fn a_lance_drop_that_mates_and_completes_a_dual_attack_forms_no_alliance() {
    let mut pos = position(lance_drop_mate_setup(), &[]);
    assert_eq!(play(&mut pos, "+R6a-7a").as_slice(), no_events().as_slice());
    assert_eq!(pos.last_action().unwrap().new_threats[L].targets, cells(&["7f"]));
    let events = play(&mut pos, "L*13j");
    assert_eq!(events.as_slice(), &[Event::Checkmated { player: L, by: M }]);
    assert_eq!(pos.active_players(), PlayerSet::of(&[F, M]));
    assert_eq!(pos.allies(), PlayerSet::EMPTY);
    assert_eq!(pos.former_allies(), PlayerSet::EMPTY);
    assert_eq!(pos.to_move(), M, "the mating player moves again");

    // Why the order matters: had the alliance formed first, Last's king would have been
    // promoted and would escape the check the drop gave.
    let mut s = lance_drop_mate_setup();
    s.pieces.retain(|&(c, _)| c != cell("6a"));
    s.pieces.push((cell("7a"), piece(F, "+R")));
    s.pieces.push((cell("13j"), piece(M, "L")));
    s.hands[M] = Default::default();
    s.to_move = L;
    for (king, escapes) in [("K", false), ("+K", true)] {
        let mut promoted = s.clone();
        promoted.pieces.retain(|&(c, _)| c != cell("13g"));
        promoted.pieces.push((cell("13g"), piece(L, king)));
        let pos = position(promoted, &["compulsory=off"]);
        assert!(pos.in_check(L));
        assert_eq!(!legal(&pos).is_empty(), escapes, "{king}: {:?}", legal(&pos));
    }
}

#[test]
fn a_move_that_mates_the_player_it_would_ally_with_is_legal() {
    // The rule against forming an alliance while checking the new ally is judged after step 5.
    // Middle's +R 5c-1c opens column 5 for First's +R on 5a onto Last's undefended gold on 5f
    // (an alliance of Middle and First) and checks First's king on 1a up column 1. The king's
    // other cells, 2a and 2b, hold its own pawns, and nothing of First's reaches 1b or 1c: mate.
    // A mate is no alliance, so the move is legal, and First is out. (Middle's +R was defended
    // on 5c by its gold on 6d, so First's +R did not threaten it: the move is no defence.)
    let pieces = [
        ("F", "K", "1a"),
        ("F", "P", "2a"),
        ("F", "P", "2b"),
        ("F", "+R", "5a"),
        ("M", "K", "10m"),
        ("M", "+R", "5c"),
        ("M", "G", "6d"),
        ("L", "K", "13g"),
        ("L", "G", "5f"),
    ];
    let mut pos = position(setup(&pieces, M), &[]);
    assert!(is_legal(&pos, "+R5c-1c"), "{:?}", legal(&pos));
    assert_eq!(play(&mut pos, "+R5c-1c").as_slice(), &[Event::Checkmated { player: F, by: M }]);
    assert_eq!(pos.active_players(), PlayerSet::of(&[M, L]));
    assert_eq!(pos.allies(), PlayerSet::EMPTY);
    assert_eq!(pos.to_move(), M);
    // Control: one step short, on 2c, the +R neither checks nor mates, and the same opened line
    // forms the alliance of Middle and First.
    let mut pos = position(setup(&pieces, M), &[]);
    let m = mv(&pos, "+R5c-2c");
    assert_eq!(pos.play(m).unwrap().as_slice(), &[Event::AllianceFormed(discovered([M, F], L, "5f", ("5a", "+R"), m))]);
}

/// A mutual discovered attack. Middle's pawn on 10i (defended by its gold on 10j) stands between
/// First's +R on 12i and Last's +R on 6i, both undefended. P10i-10h opens rank i, and each +R
/// now threatens the other: a candidate alliance of Middle and First against Last, and one of
/// Middle and Last against First. Neither is a check. Kings: First 1a, Middle 13m, Last 13g,
/// off every line of both rooks.
fn mutual_discovery_setup() -> SanninSetup {
    let pieces = [
        ("F", "K", "1a"),
        ("F", "+R", "12i"),
        ("M", "K", "13m"),
        ("M", "P", "10i"),
        ("M", "G", "10j"),
        ("L", "K", "13g"),
        ("L", "+R", "6i"),
    ];
    setup(&pieces, M)
}

#[test]
fn a_mutual_discovered_attack_allies_the_mover_with_the_next_player() {
    // Step 6: neither threat is a check, so the mover allies with the player who moves after
    // him (Last, after Middle), against the player who moved before him. Turned by 120° and
    // 240°, the mover is Last and then First, and the rule picks by turn order, not by seat.
    let mut s = mutual_discovery_setup();
    let [mut from, mut to, mut first_rook, mut last_rook] = ["10i", "10h", "12i", "6i"].map(String::from);
    let (mut mover, mut before, mut after) = (M, F, L);
    for turn in 0..3 {
        if turn > 0 {
            s = rotated(&s);
            [from, to, first_rook, last_rook] = [&from, &to, &first_rook, &last_rook].map(|c| rotated_cell(c));
            (mover, before, after) = (rotated_player(mover), rotated_player(before), rotated_player(after));
        }
        let mut pos = position(s.clone(), &[]);
        let m = normal_move(&from, &to);
        let events = pos.play(m).unwrap_or_else(|e| panic!("{from}-{to}: {e}; legal {:?}", legal(&pos)));
        // The rook of the player after the mover attacks the rook of the player before him.
        let formation = discovered([mover, after], before, &first_rook, (&last_rook, "+R"), m);
        assert_eq!(events.as_slice(), &[Event::AllianceFormed(formation)], "{mover:?} moving");
        assert_eq!(pos.piece_at(pos.king(before).unwrap()).map(|p| p.promoted), Some(true));
    }
}

#[test]
fn of_several_candidates_a_check_wins() {
    // Step 6: P10i-10h opens two lines through 10i. Along rank i First's +R on 12i now checks
    // Last's king on 6i (Middle and First against Last); along the (−1,−1) line Last's +R on 13l
    // now attacks First's undefended gold on 7f through 11j 10i 9h 8g (Middle and Last against
    // First). Last moves after Middle, but the check wins. Last is not mated (6h is free).
    let pieces = [
        ("F", "K", "1a"),
        ("F", "+R", "12i"),
        ("F", "G", "7f"),
        ("M", "K", "7m"),
        ("M", "P", "10i"),
        ("M", "G", "10j"),
        ("L", "K", "6i"),
        ("L", "+R", "13l"),
    ];
    let mut pos = position(setup(&pieces, M), &[]);
    let m = mv(&pos, "P10i-10h");
    assert_eq!(pos.play(m).unwrap().as_slice(), &[Event::AllianceFormed(discovered([M, F], L, "6i", ("12i", "+R"), m))]);
    assert_eq!(pos.piece_at(cell("6i")), Some(piece(L, "+K")));
    // Control: with Last's king away from rank i (on 13g) the only candidate left is the
    // attack on First's gold, and Middle allies with Last.
    let mut s = setup(&pieces, M);
    s.pieces.retain(|&(c, _)| c != cell("6i"));
    s.pieces.push((cell("13g"), piece(L, "K")));
    let mut pos = position(s, &[]);
    let m = mv(&pos, "P10i-10h");
    assert_eq!(pos.play(m).unwrap().as_slice(), &[Event::AllianceFormed(discovered([M, L], F, "7f", ("13l", "+R"), m))]);
}

// ---------------------------------------------------------------------------------------------
// Events in words

#[test]
fn alliance_events_name_the_cause() {
    let mut pos = position(discovered_setup(("L", "G", "6i")), &[]);
    let events = play(&mut pos, "P10i-10h");
    assert_eq!(
        event_text(&pos, &events[0]),
        "alliance First+Middle against Last (discovered attack on 6i by First's promoted rook from 12i)"
    );
    let mut pos = position(setup(&dual_pieces(), F), &[]);
    play(&mut pos, "+R6a-7a");
    let events = play(&mut pos, "+R9j-9k");
    assert_eq!(event_text(&pos, &events[0]), "alliance First+Middle against Last (dual attack: 7f and 12k)");
}

// ---------------------------------------------------------------------------------------------
// The examples of docs/variants/sannin.md, "Alliances", as the guide states them

/// A setup from the guide's wording, one army a string: `"K 1d, S 7b, +R 12i"`.
fn guide_setup(first: &str, middle: &str, last: &str, to_move: Player) -> SanninSetup {
    let mut pieces = Vec::new();
    for (owner, army) in [("F", first), ("M", middle), ("L", last)] {
        for item in army.split(", ") {
            let (piece, cell) = item.split_once(' ').unwrap_or_else(|| panic!("bad item {item}"));
            pieces.push((owner, piece, cell));
        }
    }
    setup(&pieces, to_move)
}

fn formed_alliance(events: &Events) -> Option<(PlayerSet, Player)> {
    events.iter().find_map(|e| match e {
        Event::AllianceFormed(f) => Some((f.allies, f.against)),
        _ => None,
    })
}

#[test]
fn the_guides_compulsory_alliance_examples_hold() {
    let first_example = |extra_first: &str, extra_middle: &str, last: &str| {
        let first = format!("K 1d, S 7b{extra_first}");
        let middle = format!("K 10m, R 7l{extra_middle}");
        position(guide_setup(&first, &middle, last, L), &[])
    };
    let middle_and_last = Some((PlayerSet::of(&[M, L]), F));

    // Discovered attack.
    let mut pos = first_example("", "", "K 10d, G 8e, P 7e");
    let events = play(&mut pos, "P7e-6e");
    assert_eq!(formed_alliance(&events), middle_and_last);
    assert_eq!(
        event_text(&pos, &events[0]),
        "alliance Middle+Last against First (discovered attack on 7b by Middle's rook from 7l)"
    );
    // The defence exception.
    let mut pos = first_example("", "", "K 10d, P 7e");
    assert_eq!(formed_alliance(&play(&mut pos, "P7e-6e")), None);
    // Material loss and the value scale.
    let mut pos = first_example(", G 6a", "", "K 10d, G 8e, P 7e");
    assert_eq!(formed_alliance(&play(&mut pos, "P7e-6e")), None);
    let value_scale = |lance_guard: &str| {
        let middle = format!("K 10m, L 7l{lance_guard}");
        position(guide_setup("K 1d, R 7b, G 6a", &middle, "K 10d, G 8e, P 7e", L), &[])
    };
    let mut pos = value_scale(", G 8m");
    assert_eq!(formed_alliance(&play(&mut pos, "P7e-6e")), middle_and_last);
    let mut pos = value_scale("");
    assert_eq!(
        formed_alliance(&play(&mut pos, "P7e-6e")),
        Some((PlayerSet::of(&[F, L]), M)),
        "unguarded, the lance is threatened too"
    );
    // Dual attack.
    let mut pos = position(guide_setup("K 1d, L 1a, P 3h", "K 10m, R 7l, P 6k, P 7k", "K 10d, L 7a, P 5a", M), &[]);
    assert_eq!(formed_alliance(&play(&mut pos, "P6k-6j")), None);
    let events = play(&mut pos, "P5a-5b");
    assert_eq!(formed_alliance(&events), middle_and_last);
    assert_eq!(event_text(&pos, &events[0]), "alliance Middle+Last against First (dual attack: 1a and 3h)");
    // Only new threats count.
    let mut pos = first_example("", ", P 8c", "K 10d, G 8e, P 7e");
    assert_eq!(formed_alliance(&play(&mut pos, "P7e-6e")), None);
    // Mate first.
    let mut s = guide_setup("K 1g, R 6a", "K 7m", "K 13g, G 7f, P 12f, P 12g", F);
    s.hands[M].add(Role::Lance);
    let mut pos = position(s, &[]);
    play(&mut pos, "R6a-7a");
    assert_eq!(play(&mut pos, "L*13j").as_slice(), &[Event::Checkmated { player: L, by: M }]);
    assert_eq!(pos.to_move(), M);
    // Several candidates: the next player, then a check.
    let mut pos = position(guide_setup("K 1a, +R 12i", "K 13m, P 10i, G 10j", "K 13g, +R 6i", M), &[]);
    assert_eq!(formed_alliance(&play(&mut pos, "P10i-10h")), middle_and_last);
    let mut pos = position(guide_setup("K 1a, +R 12i, G 7f", "K 7m, P 10i, G 10j", "K 6i, +R 13l", M), &[]);
    assert_eq!(formed_alliance(&play(&mut pos, "P10i-10h")), Some((PlayerSet::of(&[F, M]), L)));

    // What happens when an alliance forms: First may illuminate at once.
    let mut pos = first_example("", "", "K 10d, G 8e, P 7e, P 4d");
    play(&mut pos, "P7e-6e");
    assert!(is_legal(&pos, "+K1d!4d"), "{:?}", legal(&pos));
}

#[test]
fn the_guides_examples_of_an_alliance_ending_hold() {
    // An ally is mated: both allies lose.
    let mut s = guide_setup("K 1a, R 12g, S 11l", "K 13m", "K 10d", F);
    s.allies = PlayerSet::of(&[M, L]);
    let mut pos = position(s, &[]);
    let win = Outcome::Win { winner: F, reason: WinReason::AllyMated };
    assert_eq!(play(&mut pos, "R12g-13h").as_slice(), &[Event::Checkmated { player: M, by: F }, game_over(win, [1, 2, 2])]);
    // The lone player is mated: the alliance dissolves.
    let mut s = guide_setup("K 1a", "K 10m, G 3c, P 2c", "K 10d", M);
    s.allies = PlayerSet::of(&[M, L]);
    let mut pos = position(s, &[]);
    assert_eq!(
        play(&mut pos, "G3c-2b").as_slice(),
        &[Event::Checkmated { player: F, by: M }, Event::AllianceDissolved { allies: PlayerSet::of(&[M, L]) }]
    );
    assert_eq!(pos.to_move(), M);
    assert!(is_legal(&pos, "P2c-1b+"));
}

/// `may_give_check`, which a search asks before it makes a late quiet move, follows the
/// alliance a move may form: the discovered attack of `discovered_setup` allies Middle and
/// First, and Last's king, promoted in place, ranges along all twelve rays. Wherever Last's
/// king stands so that its promotion checks First, a check the move itself does not give, the
/// move is said to check.
#[test]
fn a_check_by_the_promoted_lone_king_is_foreseen() {
    let mut foreseen = 0;
    for king in HEX127.cells() {
        let mut s = discovered_setup(("L", "G", "6i"));
        s.pieces.retain(|&(c, _)| c != cell("13g"));
        if s.pieces.iter().any(|&(c, _)| c == king) {
            continue;
        }
        s.pieces.push((king, piece(L, "K")));
        let Ok(pos) = SanninPosition::from_setup(s, rules(&[])) else { continue };
        let Some(&m) = legal_list(&pos).iter().find(|&&m| move_text::canonical(&pos, m) == "P10i-10h") else { continue };
        let mut after = pos.clone();
        let mut unallied = SanninPosition::from_setup(pos.to_setup(), rules(&["compulsory=off"])).unwrap();
        after.play(m).unwrap();
        unallied.play(m).unwrap();
        if after.allies().is_empty() || !after.in_check(F) || unallied.in_check(F) {
            continue;
        }
        assert!(pos.may_give_check(m), "Last's king on {}", pos.cell_name(king));
        foreseen += 1;
    }
    assert!(foreseen > 0, "no cell where the promoted king checks First");
}

/// While an alliance can form, two kings on one line with nothing between count as a check for
/// every move that leaves them so, a drop included: an alliance the move may form promotes the
/// lone king in place, and it would attack the other. Middle, holding a silver, is told that
/// each drop off the line between First's and Last's kings may check; with Last's king off
/// First's lines, a drop far from every king is told not to.
#[test]
fn kings_facing_each_other_make_every_drop_a_possible_check() {
    let first_king = cell("1d");
    let position_with_last_king_on = |king: Cell| {
        let mut s = setup(&[("F", "K", "1d"), ("M", "K", "10m")], M);
        s.pieces.push((king, piece(L, "K")));
        s.hands[M].add(Role::Silver);
        SanninPosition::from_setup(s, rules(&[])).ok()
    };
    let drops = |pos: &SanninPosition| -> Vec<(Move, Cell)> {
        legal_list(pos).iter().filter_map(|&m| if let Move::Drop { to, .. } = m { Some((m, to)) } else { None }).collect()
    };
    let (facing, between) = HEX127
        .cells()
        .filter_map(|king| HEX127.between(first_king, king).filter(|between| between.count() >= 2).map(|between| (king, between)))
        .find_map(|(king, between)| position_with_last_king_on(king).map(|pos| (pos, between)))
        .expect("a cell on a line of First's king for Last's");
    let off_the_line: Vec<_> = drops(&facing).into_iter().filter(|&(_, to)| !between.contains(to)).collect();
    assert!(!off_the_line.is_empty());
    for (m, to) in off_the_line {
        assert!(facing.may_give_check(m), "the drop on {} leaves the kings facing", facing.cell_name(to));
    }

    let apart = HEX127
        .cells()
        .filter(|&king| !HEX127.lines(first_king).contains(king) && !HEX127.lines(cell("10m")).contains(king))
        .find_map(position_with_last_king_on)
        .expect("a cell off the lines of the other kings for Last's");
    assert!(drops(&apart).iter().any(|&(m, _)| !apart.may_give_check(m)), "every drop said to check with the kings apart");
}
