//! Choosing a move: the engines a player can pick (`EngineKind`), the limits of one search,
//! and the two simple engines — `random` plays any legal move, `greedy` looks one ply ahead
//! for a win or the most valuable capture. The searching engines live in `engine` and `search`
//! (`engine` also gives `EngineKind::choose`, a one-off choice by any kind).

use polyshogi::mv::{Move, MoveList};
use polyshogi::outcome::Outcome;
use polyshogi::splitmix::SplitMix;
use polyshogi::variant::Variant;
use polyshogi::{Game, Rules};

use crate::time::Clock;

/// The engines a player can pick.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum EngineKind {
    Random,
    Greedy,
    /// Iterative-deepening PVS alpha-beta (two players; with three it searches paranoid).
    AlphaBeta,
    /// Paranoid alpha-beta: the other seats play together against the root seat.
    Paranoid,
    /// Best-Reply Search (BRS+).
    Brs,
    /// Max^n: a value per seat, each seat maximising its own.
    MaxN,
    /// Monte Carlo tree search (UCT) with a value per seat.
    Mcts,
}

impl EngineKind {
    pub const ALL: [EngineKind; 7] = [
        EngineKind::Random,
        EngineKind::Greedy,
        EngineKind::AlphaBeta,
        EngineKind::Paranoid,
        EngineKind::Brs,
        EngineKind::MaxN,
        EngineKind::Mcts,
    ];

    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Random => "random",
            EngineKind::Greedy => "greedy",
            EngineKind::AlphaBeta => "alphabeta",
            EngineKind::Paranoid => "paranoid",
            EngineKind::Brs => "brs",
            EngineKind::MaxN => "maxn",
            EngineKind::Mcts => "mcts",
        }
    }

    pub fn from_name(name: &str) -> Option<EngineKind> {
        EngineKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Whether the engine searches (and so honours depth, nodes and time).
    pub fn searches(self) -> bool {
        !matches!(self, EngineKind::Random | EngineKind::Greedy)
    }

    /// The strongest engine for a game, as measured in docs/STRENGTH.md.
    pub fn best_for(variant: Variant) -> EngineKind {
        match variant {
            Variant::HexShogi91 | Variant::Sankaku => EngineKind::AlphaBeta,
            Variant::Sannin => EngineKind::Paranoid,
            Variant::Tphs91 => EngineKind::Brs,
        }
    }
}

/// How long or how deep to think. The simple engines decide at once and only honour `seed`.
/// A searching engine given no limit at all (and not `infinite`) searches to a small default
/// depth (`Engine::DEFAULT_DEPTH`, or `DEFAULT_ITERATIONS` for MCTS).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    /// Positions visited (MCTS counts the positions of its descents and leaf searches too).
    pub nodes: Option<u64>,
    pub movetime_ms: Option<u64>,
    /// The game clock of the player to move.
    pub clock: Option<Clock>,
    /// Search until stopped (the stop flag), with no limit of its own.
    pub infinite: bool,
    /// Seeds the random choices, so a game can be reproduced.
    pub seed: u64,
}

impl Limits {
    /// True when nothing limits the search.
    pub fn is_unlimited(&self) -> bool {
        self.depth.is_none() && self.nodes.is_none() && self.movetime_ms.is_none() && self.clock.is_none()
    }
}

/// The chosen move and what the search saw.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SearchResult {
    pub best: Option<Move>,
    /// The last depth searched in full (MCTS: the length of its principal variation).
    pub depth: u32,
    pub nodes: u64,
    /// The score of each seat, in centipawns, from that seat's point of view.
    pub scores: Vec<i32>,
    /// The expected continuation, starting with `best`.
    pub pv: Vec<Move>,
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
    /// The random and greedy engines.
    pub(crate) fn choose_simple<P: Rules>(self, game: &Game<P>, limits: &Limits) -> SearchResult {
        let mut moves = MoveList::new();
        game.legal_moves(&mut moves);
        let seats = game.position().seats().len();
        let mut rng = SplitMix::new(limits.seed ^ game.moves().len() as u64);
        if moves.is_empty() {
            return SearchResult { best: None, depth: 0, nodes: 0, scores: vec![0; seats], pv: Vec::new() };
        }
        match self {
            EngineKind::Random => {
                let best = moves[rng.below(moves.len())];
                SearchResult { best: Some(best), depth: 0, nodes: 1, scores: vec![0; seats], pv: vec![best] }
            }
            _ => greedy(game, &moves, &mut rng, seats),
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
    SearchResult { best: Some(m), depth: 1, nodes: moves.len() as u64, scores, pv: vec![m] }
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
