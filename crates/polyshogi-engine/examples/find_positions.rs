//! Scratch: finds small test positions (mates in 1 and 2) by random placement.

use polyshogi::cellset::CellSet;
use polyshogi::geometry::{Cell, Hour};
use polyshogi::mv::{Move, MoveList};
use polyshogi::outcome::Outcome;
use polyshogi::piece::{Hand, Piece, Role};
use polyshogi::player::{ByPlayer, Player, PlayerSet};
use polyshogi::variant::hexshogi::{HexShogiPosition, HexShogiRules, HexShogiSetup};
use polyshogi::variant::sannin::{SanninPosition, SanninRules, SanninSetup};
use polyshogi::Rules;
use polyshogi_engine::choose::SplitMix;

fn wins_now<P: Rules>(pos: &P, m: Move) -> bool {
    let me = pos.to_move();
    let mut n = pos.clone();
    n.play_unchecked(m);
    matches!(n.outcome(), Some(Outcome::Win { winner, reason }) if winner == me && reason != polyshogi::outcome::WinReason::Garden)
}

fn mates_in_1<P: Rules>(pos: &P) -> Vec<Move> {
    let mut l = MoveList::new();
    pos.legal_moves(&mut l);
    l.iter().copied().filter(|&m| wins_now(pos, m)).collect()
}

/// First moves that force a win in 2 own moves (opponent replies in between).
fn mates_in_2<P: Rules>(pos: &P) -> Vec<Move> {
    let me = pos.to_move();
    let mut l = MoveList::new();
    pos.legal_moves(&mut l);
    let mut out = Vec::new();
    for &m in l.iter() {
        let mut n = pos.clone();
        n.play_unchecked(m);
        if n.outcome().is_some() {
            continue;
        }
        let mut r = MoveList::new();
        n.legal_moves(&mut r);
        if r.is_empty() {
            continue;
        }
        let ok = r.iter().all(|&reply| {
            let mut a = n.clone();
            a.play_unchecked(reply);
            match a.outcome() {
                Some(Outcome::Win { winner, reason }) => winner == me && reason != polyshogi::outcome::WinReason::Garden,
                Some(_) => false,
                None => a.to_move() == me && !mates_in_1(&a).is_empty(),
            }
        });
        if ok {
            out.push(m);
        }
    }
    out
}

fn near(grid_step: impl Fn(Cell, Hour) -> Option<Cell>, c: Cell, radius: usize) -> CellSet {
    let mut set = CellSet::from_cell(c);
    for _ in 0..radius {
        let mut next = set;
        for x in set {
            for h in Hour::ALL {
                if let Some(y) = grid_step(x, h) {
                    next.insert(y);
                }
            }
        }
        set = next;
    }
    set
}

fn pick(rng: &mut SplitMix, set: CellSet) -> Option<Cell> {
    let v: Vec<Cell> = set.collect();
    if v.is_empty() {
        None
    } else {
        Some(v[rng.below(v.len())])
    }
}

fn describe<P: Rules>(pos: &P, hands: &[(Player, Hand)]) -> String {
    let mut s = String::new();
    for c in 0..127u8 {
        let Some(cell) = Cell::new(c) else { continue };
        if let Some(p) = pos.piece_text(cell) {
            let seat = pos.seat_name(p.player).chars().next().unwrap();
            s.push_str(&format!("{seat}{}{}{} ", if p.promoted { "+" } else { "" }, p.letter, pos.cell_name(cell)));
        }
    }
    for (p, h) in hands {
        if !h.is_empty() {
            s.push_str(&format!("hand {}:{:?} ", pos.seat_name(*p), h));
        }
    }
    s
}

fn main() {
    let which = std::env::args().nth(1).unwrap_or_default();
    let mut rng = SplitMix::new(std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(7));
    let roles = [(Role::Gold, false), (Role::Silver, false), (Role::Rook, false), (Role::Bishop, false), (Role::Rook, true), (Role::Bishop, true), (Role::Pawn, false), (Role::Lance, false)];
    match which.as_str() {
        "hex1" | "hex2" => {
            let start = HexShogiPosition::start(HexShogiRules::hexshogi91());
            let grid = start.tables().grid;
            let edge: CellSet = grid.cells().filter(|&c| Hour::ALL.iter().filter(|&&h| grid.step(c, h).is_some()).count() < 12).collect();
            for attempt in 0..200000 {
                let wk = pick(&mut rng, edge).unwrap();
                let bk = pick(&mut rng, grid.all() - near(|c, h| grid.step(c, h), wk, 3)).unwrap();
                let mut pieces = vec![(wk, Piece { player: Player::Second, role: Role::King, promoted: false }), (bk, Piece { player: Player::First, role: Role::King, promoted: false })];
                let mut used = CellSet::from_cell(wk).with(bk);
                let zone = near(|c, h| grid.step(c, h), wk, 2) - used;
                for _ in 0..(1 + rng.below(3)) {
                    let (role, promoted) = roles[rng.below(roles.len())];
                    if let Some(c) = pick(&mut rng, zone - used) {
                        used.insert(c);
                        pieces.push((c, Piece { player: Player::First, role, promoted }));
                    }
                }
                for _ in 0..rng.below(3) {
                    let (role, promoted) = roles[rng.below(roles.len())];
                    if let Some(c) = pick(&mut rng, zone - used) {
                        used.insert(c);
                        pieces.push((c, Piece { player: Player::Second, role, promoted }));
                    }
                }
                let mut hands: ByPlayer<Hand> = ByPlayer::default();
                if rng.below(2) == 0 {
                    hands[Player::First].add(Role::Gold);
                }
                let setup = HexShogiSetup { pieces, hands, to_move: Player::First, plies: 0, plies_without_capture: 0, passes_in_a_row: 0 };
                let Ok(pos) = HexShogiPosition::from_setup(setup, HexShogiRules::hexshogi91()) else { continue };
                if pos.outcome().is_some() || pos.in_check(Player::First) {
                    continue;
                }
                let m1 = mates_in_1(&pos);
                if which == "hex1" {
                    if m1.len() == 1 {
                        println!("attempt {attempt}: {} mate {:?}", describe(&pos, &[(Player::First, hands[Player::First])]), polyshogi::notation::move_text::canonical(&pos, m1[0]));
                        return;
                    }
                } else if m1.is_empty() {
                    let m2 = mates_in_2(&pos);
                    if !m2.is_empty() && m2.len() <= 2 {
                        let t: Vec<String> = m2.iter().map(|&m| polyshogi::notation::move_text::canonical(&pos, m)).collect();
                        println!("attempt {attempt}: {} mate2 {:?}", describe(&pos, &[(Player::First, hands[Player::First])]), t);
                        return;
                    }
                }
            }
        }
        "san1" | "san2" | "garden" => {
            let start = SanninPosition::start(SanninRules::default());
            let grid = start.tables().grid;
            let edge: CellSet = grid.cells().filter(|&c| Hour::ALL.iter().filter(|&&h| grid.step(c, h).is_some()).count() < 12).collect();
            for attempt in 0..200000 {
                let mk = pick(&mut rng, edge).unwrap();
                let mut used = CellSet::from_cell(mk);
                let fk = if which == "garden" { grid.step(grid.centre(), Hour::new(9)).unwrap() } else { pick(&mut rng, grid.all() - near(|c, h| grid.step(c, h), mk, 3)).unwrap() };
                if used.contains(fk) { continue; }
                used.insert(fk);
                let mut pieces = vec![(mk, Piece { player: Player::Second, role: Role::King, promoted: false }), (fk, Piece { player: Player::First, role: Role::King, promoted: false })];
                let mut eliminated = PlayerSet::of(&[Player::Third]);
                if which == "garden" {
                    eliminated = PlayerSet::EMPTY;
                    // Middle's rook on column 7 guards the Garden; Last's king far away.
                    let rook = grid.step(grid.step(grid.step(grid.step(grid.centre(), Hour::new(5)).unwrap(), Hour::new(5)).unwrap(), Hour::new(5)).unwrap(), Hour::new(5)).unwrap();
                    if used.contains(rook) { continue; }
                    used.insert(rook);
                    pieces.push((rook, Piece { player: Player::Second, role: Role::Rook, promoted: false }));
                    let lk = start.king(Player::Third).unwrap();
                    if used.contains(lk) { continue; }
                    used.insert(lk);
                    pieces.push((lk, Piece { player: Player::Third, role: Role::King, promoted: false }));
                }
                let zone = near(|c, h| grid.step(c, h), mk, 2) - used;
                for _ in 0..(1 + rng.below(3)) {
                    let (role, promoted) = roles[rng.below(roles.len())];
                    if let Some(c) = pick(&mut rng, zone - used) {
                        used.insert(c);
                        pieces.push((c, Piece { player: Player::First, role, promoted }));
                    }
                }
                for _ in 0..rng.below(3) {
                    let (role, promoted) = roles[rng.below(roles.len())];
                    if let Some(c) = pick(&mut rng, zone - used) {
                        used.insert(c);
                        pieces.push((c, Piece { player: Player::Second, role, promoted }));
                    }
                }
                let mut hands: ByPlayer<Hand> = ByPlayer::default();
                if rng.below(2) == 0 {
                    hands[Player::First].add(Role::Gold);
                }
                let setup = SanninSetup {
                    pieces, hands, to_move: Player::First, eliminated, allies: PlayerSet::EMPTY, former_allies: PlayerSet::EMPTY,
                    may_castle: ByPlayer([false; 3]), illumination_ready: ByPlayer([true; 3]), plies: 0,
                };
                let rules = SanninRules::default();
                let Ok(pos) = SanninPosition::from_setup(setup, rules) else { continue };
                if pos.outcome().is_some() || Player::ALL.iter().any(|&p| pos.in_check(p)) {
                    continue;
                }
                let m1 = mates_in_1(&pos);
                let text = pos.to_text();
                if which == "san1" {
                    if m1.len() == 1 {
                        println!("attempt {attempt}: {} mate {:?}\n{text}", describe(&pos, &[(Player::First, hands[Player::First])]), polyshogi::notation::move_text::canonical(&pos, m1[0]));
                        return;
                    }
                } else if which == "san2" {
                    if m1.is_empty() {
                        let m2 = mates_in_2(&pos);
                        if !m2.is_empty() && m2.len() <= 2 {
                            let t: Vec<String> = m2.iter().map(|&m| polyshogi::notation::move_text::canonical(&pos, m)).collect();
                            println!("attempt {attempt}: {} mate2 {:?}\n{text}", describe(&pos, &[(Player::First, hands[Player::First])]), t);
                            return;
                        }
                    }
                } else {
                    // Garden: First cannot enter now; some First move mates Middle, and then
                    // First (moving again) can enter the Garden.
                    if !m1.is_empty() {
                        continue;
                    }
                    let mut l = MoveList::new();
                    pos.legal_moves(&mut l);
                    for &m in l.iter() {
                        let mut n = pos.clone();
                        let ev = n.play_unchecked(m);
                        let mated = ev.iter().any(|e| matches!(e, polyshogi::Event::Checkmated { player: Player::Second, .. }));
                        if mated && n.to_move() == Player::First && !mates_in_1(&n).is_empty() {
                            println!("attempt {attempt}: {} mates then garden via {}\n{text}", describe(&pos, &[(Player::First, hands[Player::First])]), polyshogi::notation::move_text::canonical(&pos, m));
                            return;
                        }
                    }
                }
            }
        }
        _ => println!("hex1 hex2 san1 san2 garden"),
    }
}
