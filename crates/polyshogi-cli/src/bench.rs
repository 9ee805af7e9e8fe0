//! `polyshogi bench`: Sannin perft speed on one core over a fixed list of positions. The total
//! node count is the bench signature: it changes only when move generation changes.

use std::time::Instant;

use polyshogi::mv::MoveList;
use polyshogi::notation::move_text;
use polyshogi::perft::perft;
use polyshogi::variant::sannin::{Compulsory, SanninGame, SanninPosition, SanninRules};

/// Positions as (name, rule options, moves from the start): the start, the 1932 sample
/// game's opening, a middle game with full hands and promoted bishops, and a pre-game
/// alliance game in which First's promoted king has illuminated.
const POSITIONS: [(&str, &str, &str); 4] = [
    ("start", "", ""),
    ("1932 game after 6 rounds", "", "P3c-4d,P10k-10j,P11g-10g,S-2d,S-9l,S-10e,S-2e,P7k-6j,P8d-7d,P-4e,R-7g+,Bx12l,G-3d,Sx12l,P-9g,P4d-5e,+R-7l,R-10g"),
    ("middle game with hands", "", "B2gx10k,G11m-11l,B7bx3f+,P*2e,B12lx10k,P*11h,G1ex3f,P5k-4j,S8b-8c,B*7e,B*2g,K10d-11f,B7ex10k+,P4jx3i,N9e-10g,B*7e,P*8f,P12h-12i,+B10kx2g,P8fx7e,N10g-12h,B*7i,B*2d,G11e-10d,B7ix10f,P3ix3h,K11fx10f,P*6a,P*9j,P11g-10g,L1gx7m,B2dx12i+,B*11f,P3c-4c,P*4b,L7ax6a,L*12l,+B12ix11h,K10f-9f,L7mx8m,P*4e,P*9l,S*4i,P3hx3g,P9lx9m+,+B2gx3g,P*4d,G*1g,P*2f,P7k-7j,+P9mx8m,K1dx1g,K10mx12l,L*8j,G*6j,L*10j,L8jx8k,P3bx4b,+B11h-9g,K9fx9g,P*4h,P4dx4c,P*7a,+B3gx7c,P*9l,B*8e,P*6c,P4ex3d+,P13i-12i,+B7cx6a"),
    ("alliance, promoted king", "alliance=ML", "B2gx10k+,N9kx10k,B7bx3f,P*7d,B*11j,P*10j,S1b-2d,B11jx3f,P8dx7d,N3ex3f,B*1b,P*8i,P3c-4c,B1bx2d,P10jx10k,B*2c,S*12j,N*5j,B2c-4g,P6kx5j,N9e-11f,+K1d!2d,N*2f,G9c-9d,B*13l,P7k-7j,S8b-7b,R2bx11k,N2fx3f,P10f-9f,P*5g,N*11j,G9d-9e,P4c-5d,N3fx5g,G9e-10f,R11kx12l,P*5c,P5a-5b,B*8d"),
];

pub fn run(depth: u32) {
    let mut total_nodes = 0u64;
    let mut total_seconds = 0f64;
    for (index, (name, options, moves)) in POSITIONS.iter().enumerate() {
        // Compulsory alliances off: the positions must not depend on the alliance detector.
        let mut rules = SanninRules { compulsory: Compulsory::Off, ..SanninRules::default() };
        for option in options.split(';').filter(|o| !o.is_empty()) {
            rules.set(option).expect("bench rule options are valid");
        }
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
