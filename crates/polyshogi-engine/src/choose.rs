//! Choosing a move. Two simple engines for now: `random` plays any legal move, `greedy`
//! looks one ply ahead for a win or the most valuable capture.

use polyshogi::mv::{Move, MoveList};
use polyshogi::outcome::Outcome;
use polyshogi::{Game, Rules};

/// The engines a player can pick.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum EngineKind {
    Random,
    Greedy,
}

impl EngineKind {
    pub const ALL: [EngineKind; 2] = [EngineKind::Random, EngineKind::Greedy];

    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Random => "random",
            EngineKind::Greedy => "greedy",
        }
    }

    pub fn from_name(name: &str) -> Option<EngineKind> {
        EngineKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// How long or how deep to think. The simple engines decide at once and only honour `seed`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime_ms: Option<u64>,
    /// Seeds the random choices, so a game can be reproduced.
    pub seed: u64,
}

/// The chosen move and what the search saw.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SearchResult {
    pub best: Option<Move>,
    pub depth: u32,
    pub nodes: u64,
    /// The score of each seat, in centipawns, from that seat's point of view.
    pub scores: Vec<i32>,
}

/// A small deterministic generator (SplitMix64): engines must be reproducible from a seed.
pub struct SplitMix(u64);

impl SplitMix {
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// The rough value of a piece by its letter, for the greedy engine. Kings and Emperors are
/// worth most: in the games where they can be taken, taking one wins or nearly does.
fn letter_value(letter: char, promoted: bool) -> i32 {
    let base = match letter {
        'K' | 'E' => 10_000,
        'R' | 'C' => 900,
        'B' => 800,
        'G' | 'H' => 500,
        'S' => 400,
        'N' | 'L' => 300,
        'P' => 100,
        _ => 0,
    };
    base + if promoted { 150 } else { 0 }
}

impl EngineKind {
    pub fn choose<P: Rules>(self, game: &Game<P>, limits: &Limits) -> SearchResult {
        let mut moves = MoveList::new();
        game.legal_moves(&mut moves);
        let seats = game.position().seats().len();
        let mut rng = SplitMix::new(limits.seed ^ game.moves().len() as u64);
        if moves.is_empty() {
            return SearchResult { best: None, depth: 0, nodes: 0, scores: vec![0; seats] };
        }
        match self {
            EngineKind::Random => {
                let best = moves[rng.below(moves.len())];
                SearchResult { best: Some(best), depth: 0, nodes: 1, scores: vec![0; seats] }
            }
            EngineKind::Greedy => greedy(game, &moves, &mut rng, seats),
        }
    }
}

/// One ply: a move that wins at once, else the most valuable capture, ties broken at random.
fn greedy<P: Rules>(game: &Game<P>, moves: &[Move], rng: &mut SplitMix, seats: usize) -> SearchResult {
    let position = game.position();
    let mover = position.to_move();
    let mut best: Option<(i32, u64, Move)> = None;
    for &m in moves {
        let mut next = position.clone();
        next.play_unchecked(m);
        let gain = match next.outcome() {
            Some(Outcome::Win { winner, .. }) if winner == mover => 1_000_000,
            Some(Outcome::Win { .. }) => -1_000_000,
            _ => capture_value(position, m),
        };
        let tie_break = rng.next_u64();
        if best.is_none_or(|(score, tie, _)| (gain, tie_break) > (score, tie)) {
            best = Some((gain, tie_break, m));
        }
    }
    let (score, _, m) = best.expect("moves is not empty");
    let mut scores = vec![0; seats];
    scores[mover.index()] = score;
    SearchResult { best: Some(m), depth: 1, nodes: moves.len() as u64, scores }
}

/// The value of the pieces a move takes off the board (an illumination may take several).
fn capture_value<P: Rules>(before: &P, m: Move) -> i32 {
    let mut value = 0;
    let touched = match m {
        Move::Normal { to, .. } => vec![to],
        Move::Illuminate { from, rays } => before.illumination_targets(from, rays).collect(),
        _ => Vec::new(),
    };
    for cell in touched {
        if let Some(piece) = before.piece_text(cell) {
            if piece.player != before.to_move() {
                value += letter_value(piece.letter, piece.promoted);
            }
        }
    }
    // A promotion is worth a little too.
    if let Move::Normal { promote: true, .. } = m {
        value += 50;
    }
    value
}
