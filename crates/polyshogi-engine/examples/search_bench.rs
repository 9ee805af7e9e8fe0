//! Search speed: nodes per second of every search in every game, from a few positions, on one
//! core. `cargo run --release -p polyshogi-engine --example search_bench [movetime_ms]`.
//! The numbers go to docs/BENCHMARKS.md; tests never assert speed.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use polyshogi::mv::MoveList;
use polyshogi::variant::hexshogi::{HexShogiPosition, HexShogiRules};
use polyshogi::variant::sankaku::{SankakuPosition, SankakuRules};
use polyshogi::variant::sannin::{SanninPosition, SanninRules};
use polyshogi::Game;
use polyshogi_engine::{Engine, EngineKind, Evaluate, Limits};

/// The start, and the position after `plies` plies of a fixed pseudo-random game (captures
/// preferred, so that hands fill up).
fn positions<P: Evaluate>(start: P, plies: usize) -> Vec<(String, Game<P>)> {
    let mut game = Game::new(start);
    let mut out = vec![("start".to_string(), game.clone())];
    let mut moves = MoveList::new();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..plies {
        game.legal_moves(&mut moves);
        if moves.is_empty() || game.position().outcome().is_some() {
            break;
        }
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let pos = game.position();
        let capture = moves.iter().copied().find(|&m| pos.is_capture(m) && seed % 2 == 0);
        let m = capture.unwrap_or(moves[(seed % moves.len() as u64) as usize]);
        game.play_unchecked(m);
    }
    if game.position().outcome().is_none() {
        out.push((format!("after {} plies", game.moves().len()), game));
    }
    out
}

fn bench<P: Evaluate>(name: &str, start: P, kinds: &[EngineKind], movetime: u64) {
    for (label, game) in positions(start, 40) {
        for &kind in kinds {
            let mut engine = Engine::new(kind);
            let stop = AtomicBool::new(false);
            let limits = Limits { movetime_ms: Some(movetime), ..Limits::default() };
            let t = Instant::now();
            let result = engine.think(&game, &limits, &stop, &mut |_| {});
            let secs = t.elapsed().as_secs_f64();
            println!(
                "{name:<11} {label:<17} {:<10} depth {:>2}  {:>9} nodes  {:>6.2} s  {:>8.0} nodes/s",
                kind.name(),
                result.depth,
                result.nodes,
                secs,
                result.nodes as f64 / secs
            );
        }
    }
}

fn main() {
    let movetime: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(2000);
    let only = std::env::args().nth(2);
    let wanted = |name: &str| only.as_deref().is_none_or(|o| o == name);
    let two = [EngineKind::AlphaBeta, EngineKind::MaxN, EngineKind::Mcts];
    let three = [EngineKind::Paranoid, EngineKind::Brs, EngineKind::MaxN, EngineKind::Mcts];
    if wanted("sannin") { bench("sannin", SanninPosition::start(SanninRules::default()), &three, movetime) }
    if wanted("tphs91") { bench("tphs91", HexShogiPosition::start(HexShogiRules::tphs91()), &three, movetime) }
    if wanted("hexshogi91") { bench("hexshogi91", HexShogiPosition::start(HexShogiRules::hexshogi91()), &two, movetime) }
    if wanted("sankaku") { bench("sankaku", SankakuPosition::start(SankakuRules::default()), &two, movetime) }
}
