//! `polyshogi bench`: Sannin perft speed on one core over a fixed list of positions. The total
//! node count is the bench signature: it changes only when move generation changes.

use std::time::Instant;

use polyshogi::mv::MoveList;
use polyshogi::notation::move_text;
use polyshogi::perft::perft;
use polyshogi::variant::sannin::{Compulsory, SanninGame, SanninPosition, SanninRules};

/// Positions as move lists from the start: the start itself, the 1932 sample game's opening,
/// and middle games with pieces in hand, promoted pieces and a promoted king.
const POSITIONS: [(&str, &str); 2] = [
    ("start", ""),
    ("1932 game after 6 rounds", "P3c-4d,P10k-10j,P11g-10g,S-2d,S-9l,S-10e,S-2e,P7k-6j,P8d-7d,P-4e,R-7g+,Bx12l,G-3d,Sx12l,P-9g,P4d-5e,+R-7l,R-10g"),
];

pub fn run(depth: u32) {
    let mut rules = SanninRules::default();
    rules.compulsory = Compulsory::Off;
    let mut total_nodes = 0u64;
    let mut total_seconds = 0f64;
    for (index, (name, moves)) in POSITIONS.iter().enumerate() {
        let mut game = SanninGame::new(SanninPosition::start(rules));
        let mut legal = MoveList::new();
        for text in move_text::split_move_list(moves) {
            game.legal_moves(&mut legal);
            let m = move_text::parse(game.position(), &legal, &text).expect("bench positions are legal");
            game.play_unchecked(m);
        }
        let position_depth = if index == 0 { depth } else { depth.saturating_sub(1).max(1) };
        let started = Instant::now();
        let nodes = perft(&mut game, position_depth);
        let seconds = started.elapsed().as_secs_f64();
        println!("{name:<28} depth {position_depth}  {nodes:>12} nodes  {:>8.3} s  {:>7.2} Mnps", seconds, nodes as f64 / seconds / 1e6);
        total_nodes += nodes;
        total_seconds += seconds;
    }
    println!("signature {total_nodes}");
    println!("total {total_nodes} nodes in {total_seconds:.3} s: {:.2} Mnps", total_nodes as f64 / total_seconds / 1e6);
}
