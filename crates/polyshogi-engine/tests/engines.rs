//! The engines' behaviour: mates in one and two found in each checkmate variant, the king
//! collection in Three Player Hex Shogi 91, the Emperor capture in Sankaku, Sannin's turn rule
//! (the mating player moves again), tied allies, searches stopped by the clock or the stop flag
//! returning legal moves, and incremental Zobrist keys equal to recomputed ones.
//! Behaviour only: no test asserts speed.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use polyshogi::mv::{Move, MoveList};
use polyshogi::notation::move_text;
use polyshogi::outcome::{Outcome, WinReason};
use polyshogi::piece::{Hand, Piece, Role};
use polyshogi::player::{ByPlayer, Player};
use polyshogi::variant::hexshogi::{HexShogiPosition, HexShogiRules, HexShogiSetup};
use polyshogi::variant::sankaku::{SankakuPiece, SankakuPosition, SankakuRole, SankakuRules, SankakuSetup};
use polyshogi::variant::sannin::{SanninPosition, SanninRules};
use polyshogi::{Game, PlayerSet, Rules};
use polyshogi_engine::eval::WIN_BOUND;
use polyshogi_engine::{Clock, Engine, EngineKind, EngineOptions, Evaluate, Limits, Weights};

const SEARCHERS: [EngineKind; 5] =
    [EngineKind::AlphaBeta, EngineKind::Paranoid, EngineKind::Brs, EngineKind::MaxN, EngineKind::Mcts];

fn think<P: Evaluate>(kind: EngineKind, pos: &P, limits: Limits) -> polyshogi_engine::SearchResult {
    let game = Game::new(pos.clone());
    let stop = AtomicBool::new(false);
    Engine::with_hash(kind, 4).think(&game, &limits, &stop, &mut |_| {})
}

fn depth(d: u32) -> Limits {
    Limits { depth: Some(d), ..Limits::default() }
}

fn legal<P: Rules>(pos: &P) -> Vec<Move> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    list.to_vec()
}

fn text<P: Rules>(pos: &P, m: Option<Move>) -> String {
    m.map_or("none".to_string(), |m| move_text::canonical(pos, m))
}

/// Whether `m` wins the game for the player to move, by a checkmate (or the rule given).
fn wins<P: Rules>(pos: &P, m: Move, reason: WinReason) -> bool {
    let mover = pos.to_move();
    let mut next = pos.clone();
    next.play_unchecked(m);
    next.outcome() == Some(Outcome::Win { winner: mover, reason })
}

fn sannin(text: &str) -> SanninPosition {
    SanninPosition::from_text(text, SanninRules::default()).expect("a valid test position")
}

/// Pieces as `<seat><+?><role><cell>` tokens (seat B, W or G), on the Hex Shogi 91 board.
fn hex(tokens: &str, black_hand: &[Role], rules: HexShogiRules) -> HexShogiPosition {
    let probe = HexShogiPosition::start(rules);
    let mut pieces = Vec::new();
    for token in tokens.split_whitespace() {
        let player = match &token[..1] {
            "B" => Player::First,
            "W" => Player::Second,
            _ => Player::Third,
        };
        let (promoted, rest) = match token[1..].strip_prefix('+') {
            Some(rest) => (true, rest),
            None => (false, &token[1..]),
        };
        let role = Role::from_letter(rest.chars().next().unwrap()).unwrap();
        let cell = probe.parse_cell(&rest[1..]).unwrap();
        pieces.push((cell, Piece { player, role, promoted }));
    }
    let mut hands: ByPlayer<Hand> = ByPlayer::default();
    for &role in black_hand {
        hands[Player::First].add(role);
    }
    let setup = HexShogiSetup {
        pieces,
        hands,
        to_move: Player::First,
        plies: 0,
        plies_without_capture: 0,
        passes_in_a_row: 0,
        timed_out: PlayerSet::EMPTY,
    };
    HexShogiPosition::from_setup(setup, rules).expect("a valid test position")
}

/// Pieces as `<seat><role><cell>` tokens (seat B or W), Black to move.
fn sankaku(tokens: &str) -> SankakuPosition {
    let probe = SankakuPosition::start(SankakuRules::default());
    let pieces = tokens
        .split_whitespace()
        .map(|t| {
            let player = if t.starts_with('B') { Player::First } else { Player::Second };
            let role = SankakuRole::from_letter(t[1..].chars().next().unwrap()).unwrap();
            (probe.parse_cell(&t[2..]).unwrap(), SankakuPiece { player, role })
        })
        .collect();
    SankakuPosition::from_setup(SankakuSetup { pieces, to_move: Player::First }, SankakuRules::default())
        .expect("a valid test position")
}

// Sannin with Last already out, First to move: G*10l mates Middle's king in the corner.
const SANNIN_MATE_IN_1: &str =
    "sannin 7/8/9/10/11/10fK1/13/12/11/10/3fGmB4/8/2mK4 F F:G/M:-/L:- castle=-;ready=FML;allies=-;former=-;out=L@0;ply=0";
// Same material idea, mate in two: only S6l-7k+ forces it.
const SANNIN_MATE_IN_2: &str =
    "sannin 7/8/9/10/11/12/13/12/2fK8/10/2mB6/7fS/4mK2 F F:G/M:-/L:- castle=-;ready=FML;allies=-;former=-;out=L@0;ply=0";
// Three players. First's king stands next to the Garden, which Middle's rook guards; G*6l mates
// Middle, whose pieces (the rook too) leave the board, and First, the mating player, moves
// again: into the Garden. Under normal rotation Last would move in between.
const SANNIN_MATE_THEN_GARDEN: &str =
    "sannin 7/8/9/lK9/11/12/5fK7/12/11/10/5mSmR2/6mK1/5fR1 F F:G/M:-/L:- castle=-;ready=FML;allies=-;former=-;out=-;ply=0";

#[test]
fn sannin_mate_in_one_is_found_by_every_search() {
    let pos = sannin(SANNIN_MATE_IN_1);
    for kind in SEARCHERS {
        let result = think(kind, &pos, Limits { depth: Some(2), nodes: Some(200_000), ..Limits::default() });
        let best = result.best.expect("a move");
        assert!(wins(&pos, best, WinReason::LastStanding), "{}: {}", kind.name(), text(&pos, Some(best)));
        assert_eq!(text(&pos, Some(best)), "G*10l");
    }
}

#[test]
fn sannin_mate_in_two_is_found() {
    let pos = sannin(SANNIN_MATE_IN_2);
    for kind in [EngineKind::AlphaBeta, EngineKind::Paranoid, EngineKind::Brs, EngineKind::MaxN] {
        let result = think(kind, &pos, depth(3));
        assert_eq!(text(&pos, result.best), "S6l-7k+", "{}", kind.name());
        assert!(result.scores[0] > WIN_BOUND, "{}: {:?}", kind.name(), result.scores);
        // Whatever Middle answers, First mates at once.
        let mut after = pos.clone();
        after.play_unchecked(result.best.unwrap());
        for reply in legal(&after) {
            let mut next = after.clone();
            next.play_unchecked(reply);
            let mate = think(kind, &next, depth(1)).best.expect("a move");
            assert!(wins(&next, mate, WinReason::LastStanding), "{} after {}", kind.name(), text(&after, Some(reply)));
        }
    }
}

#[test]
fn the_mating_player_moves_again_and_the_searches_know_it() {
    let pos = sannin(SANNIN_MATE_THEN_GARDEN);
    // Not a win in one: the Garden is guarded.
    assert!(legal(&pos).iter().all(|&m| !wins(&pos, m, WinReason::Garden)));
    for kind in [EngineKind::Paranoid, EngineKind::Brs, EngineKind::MaxN, EngineKind::AlphaBeta] {
        let result = think(kind, &pos, depth(2));
        assert_eq!(text(&pos, result.best), "G*6l", "{}", kind.name());
        assert!(result.scores[0] > WIN_BOUND, "{}: {:?}", kind.name(), result.scores);
    }
    let mut after = pos.clone();
    after.play_unchecked(legal(&pos).into_iter().find(|&m| text(&pos, Some(m)) == "G*6l").unwrap());
    assert!(!after.active_players().contains(Player::Second));
    assert_eq!(after.to_move(), Player::First);
    let result = think(EngineKind::Mcts, &after, Limits { nodes: Some(5_000), ..Limits::default() });
    assert!(wins(&after, result.best.unwrap(), WinReason::Garden));
}

#[test]
fn allies_share_one_value() {
    let mut rules = SanninRules::default();
    rules.set("alliance=ML").unwrap();
    let pos = SanninPosition::start(rules);
    let values = pos.evaluate(&Weights::default());
    assert_eq!(values[1], values[2]);
    assert_eq!(values[0], -values[1]);
    // Every search plays a legal move for an allied seat.
    let mut game = Game::new(pos);
    let m = legal(game.position())[0];
    game.play(m).unwrap();
    for kind in SEARCHERS {
        let result = Engine::with_hash(kind, 4).think(
            &game,
            &Limits { nodes: Some(3_000), ..Limits::default() },
            &AtomicBool::new(false),
            &mut |_| {},
        );
        assert!(legal(game.position()).contains(&result.best.unwrap()), "{}", kind.name());
    }
}

#[test]
fn hexshogi91_mate_in_one_and_two() {
    let rules = HexShogiRules::hexshogi91();
    let one = hex("WK5b B+B7c BG3e BK3j", &[Role::Gold], rules);
    for kind in [EngineKind::AlphaBeta, EngineKind::MaxN, EngineKind::Mcts] {
        let result = think(kind, &one, Limits { depth: Some(2), nodes: Some(200_000), ..Limits::default() });
        assert_eq!(text(&one, result.best), "G*6b", "{}", kind.name());
        assert!(wins(&one, result.best.unwrap(), WinReason::Checkmate));
    }
    let two = hex("WK11a WB9a BG11c WS9c BP10d BK4h", &[Role::Gold], rules);
    for kind in [EngineKind::AlphaBeta, EngineKind::MaxN] {
        let result = think(kind, &two, depth(3));
        let best = text(&two, result.best);
        assert!(best == "G11c-10c" || best == "P10d-10c+", "{}: {best}", kind.name());
        assert!(result.scores[0] > WIN_BOUND, "{}: {:?}", kind.name(), result.scores);
        let mut after = two.clone();
        after.play_unchecked(result.best.unwrap());
        for reply in legal(&after) {
            let mut next = after.clone();
            next.play_unchecked(reply);
            let mate = think(kind, &next, depth(1)).best.expect("a move");
            assert!(wins(&next, mate, WinReason::Checkmate), "{} after {}", kind.name(), text(&after, Some(reply)));
        }
    }
}

#[test]
fn tphs91_engines_collect_the_third_king() {
    // Black holds White's king in hand and its own on the board; its gold can take Gray's
    // king (the third) or its rook Gray's rook.
    let rules = HexShogiRules::tphs91();
    let pos = hex("BK4j BG6d BR2g GK6c GR2f GP5d GS4c WR10b WP9e", &[Role::King], rules);
    assert_eq!(pos.kings_held(Player::First), 2);
    for kind in
        [EngineKind::AlphaBeta, EngineKind::Paranoid, EngineKind::Brs, EngineKind::MaxN, EngineKind::Mcts, EngineKind::Greedy]
    {
        let result = think(kind, &pos, Limits { depth: Some(2), nodes: Some(100_000), ..Limits::default() });
        assert_eq!(text(&pos, result.best), "G6dx6c", "{}", kind.name());
        assert!(wins(&pos, result.best.unwrap(), WinReason::KingsCollected));
    }
}

#[test]
fn tphs91_searches_value_a_captured_king() {
    // Black can take White's king (its second) or a gold; the searches take the king.
    let rules = HexShogiRules::tphs91();
    let pos = hex("BK4j BG6d BS3e WK6c WG3d WP9e GK6a GR2f GP1h", &[], rules);
    for kind in [EngineKind::Paranoid, EngineKind::Brs, EngineKind::MaxN] {
        let result = think(kind, &pos, depth(2));
        assert_eq!(text(&pos, result.best), "G6dx6c", "{}", kind.name());
    }
}

#[test]
fn sankaku_engines_take_an_undefended_emperor() {
    // White's Emperor on d6 has no defender; a General on a4 is the other bait.
    let pos = sankaku("BEd1 BSc3 BGd2 BHc2 WEd6 WGa4 WSg3");
    let take = legal(&pos).into_iter().find(|&m| wins(&pos, m, WinReason::EmperorCaptured));
    assert!(take.is_some(), "the test position offers the Emperor");
    for kind in [EngineKind::AlphaBeta, EngineKind::MaxN, EngineKind::Mcts, EngineKind::Greedy] {
        let result = think(kind, &pos, Limits { depth: Some(2), nodes: Some(100_000), ..Limits::default() });
        assert!(wins(&pos, result.best.unwrap(), WinReason::EmperorCaptured), "{}: {}", kind.name(), text(&pos, result.best));
    }
}

#[test]
fn sankaku_search_keeps_its_emperor_defended() {
    // From the start, no searched move may hand White an Emperor capture.
    let pos = SankakuPosition::start(SankakuRules::default());
    let result = think(EngineKind::AlphaBeta, &pos, depth(3));
    let mut after = pos.clone();
    after.play_unchecked(result.best.unwrap());
    assert!(legal(&after).iter().all(|&m| !wins(&after, m, WinReason::EmperorCaptured)));
}

/// Every variant's start, and a position some random plies in.
fn for_each_variant(mut f: impl FnMut(&str, &dyn Fn(EngineKind, Limits, &AtomicBool) -> (Option<Move>, Vec<Move>))) {
    fn run<P: Evaluate>(pos: P, kind: EngineKind, limits: Limits, stop: &AtomicBool) -> (Option<Move>, Vec<Move>) {
        let game = Game::new(pos);
        let mut moves = MoveList::new();
        game.legal_moves(&mut moves);
        let result = Engine::with_hash(kind, 4).think(&game, &limits, stop, &mut |_| {});
        (result.best, moves.to_vec())
    }
    f("sannin", &|k, l, s| run(SanninPosition::start(SanninRules::default()), k, l, s));
    f("hexshogi91", &|k, l, s| run(HexShogiPosition::start(HexShogiRules::hexshogi91()), k, l, s));
    f("tphs91", &|k, l, s| run(HexShogiPosition::start(HexShogiRules::tphs91()), k, l, s));
    f("sankaku", &|k, l, s| run(SankakuPosition::start(SankakuRules::default()), k, l, s));
}

#[test]
fn a_search_stopped_by_the_clock_returns_a_legal_move() {
    for_each_variant(|variant, run| {
        for kind in SEARCHERS {
            // Almost no time on the clock.
            let clock = Clock { time_left_ms: 30, increment_ms: 0, moves_to_go: None };
            let (best, legal) = run(kind, Limits { clock: Some(clock), ..Limits::default() }, &AtomicBool::new(false));
            assert!(legal.contains(&best.expect("a move")), "{variant} {}", kind.name());
            // The stop flag raised before the search starts.
            let (best, legal) = run(kind, Limits { infinite: true, ..Limits::default() }, &AtomicBool::new(true));
            assert!(legal.contains(&best.expect("a move")), "{variant} {} (stopped)", kind.name());
        }
    });
}

#[test]
fn mcts_reads_a_depth_only_limit_as_no_limit() {
    // MCTS has no depth; a `go depth` must not let its tree grow to the memory bound.
    let game = Game::new(SanninPosition::start(SanninRules::default()));
    let run = |limits: Limits| Engine::new(EngineKind::Mcts).think(&game, &limits, &AtomicBool::new(false), &mut |_| {});
    let unlimited = run(Limits::default());
    let depth_only = run(depth(2));
    assert_eq!(depth_only.nodes, unlimited.nodes);
    assert_eq!(depth_only.best, unlimited.best);
}

#[test]
fn an_infinite_search_ends_when_another_thread_raises_the_stop_flag() {
    let stop = Arc::new(AtomicBool::new(false));
    let raiser = {
        let stop = Arc::clone(&stop);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            stop.store(true, Ordering::Relaxed);
        })
    };
    let game = Game::new(SanninPosition::start(SanninRules::default()));
    let result = Engine::new(EngineKind::Brs).think(&game, &Limits { infinite: true, ..Limits::default() }, &stop, &mut |_| {});
    raiser.join().unwrap();
    assert!(legal(game.position()).contains(&result.best.unwrap()));
}

#[test]
fn every_engine_plays_a_legal_move_in_every_variant() {
    for_each_variant(|variant, run| {
        for kind in EngineKind::ALL {
            let (best, legal) = run(kind, Limits { nodes: Some(2_000), ..Limits::default() }, &AtomicBool::new(false));
            assert!(legal.contains(&best.expect("a move")), "{variant} {}", kind.name());
        }
    });
}

#[test]
fn info_reports_deepen_and_end_with_the_chosen_move() {
    let game = Game::new(HexShogiPosition::start(HexShogiRules::hexshogi91()));
    let mut depths = Vec::new();
    let mut last_pv = Vec::new();
    let result = Engine::new(EngineKind::AlphaBeta).think(&game, &depth(3), &AtomicBool::new(false), &mut |info| {
        depths.push(info.depth);
        last_pv = info.pv.clone();
    });
    assert_eq!(depths, vec![1, 2, 3]);
    assert_eq!(result.depth, 3);
    assert_eq!(last_pv.first().copied(), result.best);
    assert_eq!(result.pv, last_pv);
}

/// Plays a pseudo-random game (captures preferred, so that hands fill), calling `check` after
/// every move.
fn random_game<P: Rules>(start: P, plies: usize, seed: u64, mut check: impl FnMut(&P)) {
    let mut game = Game::new(start);
    let mut moves = MoveList::new();
    let mut s = seed;
    for _ in 0..plies {
        if game.position().outcome().is_some() {
            break;
        }
        if game.position().decision_pending() {
            game.answer_pending(true).unwrap();
            continue;
        }
        game.legal_moves(&mut moves);
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        let pos = game.position();
        let m = moves
            .iter()
            .copied()
            .find(|&m| pos.is_capture(m) && !s.is_multiple_of(3))
            .unwrap_or(moves[(s % moves.len() as u64) as usize]);
        game.play_unchecked(m);
        check(game.position());
    }
}

#[test]
fn incremental_zobrist_keys_equal_recomputed_keys() {
    for seed in [1u64, 2, 3] {
        random_game(SanninPosition::start(SanninRules::default()), 250, seed, |pos| {
            // A position rebuilt from its setup hashes everything from scratch.
            if let Ok(rebuilt) = SanninPosition::from_setup(pos.to_setup(), *pos.rules()) {
                assert_eq!(pos.repetition_key(), rebuilt.repetition_key());
            }
            assert_eq!(pos.search_key(), pos.repetition_key());
        });
        for rules in [HexShogiRules::hexshogi91(), HexShogiRules::tphs91()] {
            random_game(HexShogiPosition::start(rules), 250, seed, |pos| {
                assert_eq!(pos.material_key(), pos.recomputed_material_key());
                if pos.outcome().is_none() {
                    let rebuilt = HexShogiPosition::from_setup(pos.to_setup(), rules).unwrap();
                    assert_eq!(pos.repetition_key(), rebuilt.repetition_key());
                }
            });
        }
        random_game(SankakuPosition::start(SankakuRules::default()), 250, seed, |pos| {
            assert_eq!(pos.repetition_key(), pos.recomputed_key());
        });
    }
}

/// A two-thread search (Lazy SMP) of every alpha-beta search plays a legal move in every
/// variant, whether a node limit, the clock or the stop flag ends it, and the helper threads
/// end with it.
#[test]
fn two_threads_play_legal_moves_whatever_ends_the_search() {
    fn run<P: Evaluate>(pos: P, kind: EngineKind) {
        let game = Game::new(pos);
        let legal = legal(game.position());
        let options = EngineOptions { hash_mb: 4, threads: 2, ..EngineOptions::default() };
        let clock = Clock { time_left_ms: 30, increment_ms: 0, moves_to_go: None };
        for (limits, stop) in [
            (Limits { nodes: Some(5_000), ..Limits::default() }, false),
            (Limits { clock: Some(clock), ..Limits::default() }, false),
            (Limits { infinite: true, ..Limits::default() }, true),
        ] {
            let mut engine = Engine::with_options(kind, options);
            let result = engine.think(&game, &limits, &AtomicBool::new(stop), &mut |_| {});
            assert!(legal.contains(&result.best.expect("a move")), "{} {limits:?}", kind.name());
        }
    }
    for kind in [EngineKind::AlphaBeta, EngineKind::Paranoid, EngineKind::Brs] {
        run(SanninPosition::start(SanninRules::default()), kind);
        run(HexShogiPosition::start(HexShogiRules::hexshogi91()), kind);
        run(HexShogiPosition::start(HexShogiRules::tphs91()), kind);
        run(SankakuPosition::start(SankakuRules::default()), kind);
    }
}

/// Searches `start` to `plies` with `lean` weights and with `full` ones (the same, a pruning or
/// reduction off), and asserts that both reach it and the lean one in fewer nodes.
fn assert_searches_fewer_nodes<P: Evaluate>(start: P, kind: EngineKind, plies: u32, lean: Weights, full: Weights) {
    let game = Game::new(start);
    let search = |weights: Weights| {
        let options = EngineOptions { hash_mb: 4, weights, ..EngineOptions::default() };
        Engine::with_options(kind, options).think(&game, &depth(plies), &AtomicBool::new(false), &mut |_| {})
    };
    let (with, without) = (search(lean), search(full));
    assert_eq!((with.depth, without.depth), (plies, plies), "{}", kind.name());
    assert!(with.nodes < without.nodes, "{}: {} nodes lean, {} in full", kind.name(), with.nodes, without.nodes);
}

/// `assert_searches_fewer_nodes` to depth 4 with the weights the engines play with.
fn assert_prunes<P: Evaluate>(start: P, kind: EngineKind, full: Weights) {
    assert_searches_fewer_nodes(start, kind, 4, Weights::default(), full);
}

/// The shallow pruning (reverse futility and late move pruning, `Weights::pruning`), on in
/// Sannin and Hex Shogi 91, reaches the same depth from the start in fewer nodes than the full
/// search. The mates above are found with it on, as the engines play.
#[test]
fn searches_prune_near_the_leaves_in_sannin_and_hexshogi91() {
    let pruned = Weights::default();
    assert!(pruned.sannin.futility_margin > 0 && pruned.sannin.late_move_base > 0);
    assert!(pruned.hex.futility_margin > 0 && pruned.hex.late_move_base > 0);
    let mut full = pruned;
    full.sannin.futility_margin = 0;
    full.sannin.late_move_base = 0;
    full.hex.futility_margin = 0;
    full.hex.late_move_base = 0;
    for kind in [EngineKind::Paranoid, EngineKind::Brs] {
        assert_prunes(SanninPosition::start(SanninRules::default()), kind, full);
    }
    assert_prunes(HexShogiPosition::start(HexShogiRules::hexshogi91()), EngineKind::AlphaBeta, full);
}

/// Late move reductions that grow with depth and move number (`late_move_reduction`) reach a
/// depth in fewer nodes than the fixed schedule in the two-player games. (With three players
/// they need not: from Sannin's start BRS searched twice the nodes to depths 6 and 7.)
#[test]
fn growing_late_move_reductions_search_fewer_nodes_to_a_depth_with_two_players() {
    let fixed = Weights::default();
    let mut growing = fixed;
    growing.hex.late_move_reduction = 50;
    growing.sankaku.late_move_reduction = 50;
    for plies in [6, 7] {
        let (hexshogi91, sankaku) =
            (HexShogiPosition::start(HexShogiRules::hexshogi91()), SankakuPosition::start(SankakuRules::default()));
        assert_searches_fewer_nodes(hexshogi91, EngineKind::AlphaBeta, plies, growing, fixed);
        assert_searches_fewer_nodes(sankaku, EngineKind::AlphaBeta, plies, growing, fixed);
    }
}
