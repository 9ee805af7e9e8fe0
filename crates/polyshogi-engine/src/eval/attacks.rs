//! Attack maps and king neighbourhoods on the hexagonal boards, for the Sannin and Hex Shogi
//! evaluations: the attacks come from the rules library's positions, the neighbourhoods from
//! its grids, never from coordinates.

use std::sync::LazyLock;

use polyshogi::cellset::CellSet;
use polyshogi::geometry::{Cell, HexGrid, Hour, HEX127, HEX91};
use polyshogi::player::{ByPlayer, Player, PlayerSet};

/// Every seat's attack map and the value of its pieces on the board, from a position's pass
/// over one player's pieces (`attack_map_and_value`).
pub fn attack_maps_and_values(
    seats: &[Player],
    mut attack_map_and_value: impl FnMut(Player) -> (CellSet, i32),
) -> (ByPlayer<CellSet>, ByPlayer<i32>) {
    let mut maps = ByPlayer([CellSet::EMPTY; 3]);
    let mut values = ByPlayer([0; 3]);
    for &p in seats {
        (maps[p], values[p]) = attack_map_and_value(p);
    }
    (maps, values)
}

/// Three players: the cells attacked by the seats still in (`active`) that move before `player`
/// moves again, from `mover` on in turn order. Only they can take one of its pieces before it
/// answers; an attack by the seat that moves after it can be met first.
pub fn attacked_before_turn_of(player: Player, mover: Player, active: PlayerSet, maps: &ByPlayer<CellSet>) -> CellSet {
    let mut attacked = CellSet::EMPTY;
    let mut seat = mover;
    while seat != player {
        if active.contains(seat) {
            attacked |= maps[seat];
        }
        seat = seat.next3();
    }
    attacked
}

/// Per-cell neighbourhoods of a hex board: the twelve cells one step away, the cells within
/// two king steps, and the number of orthogonal steps to the centre.
pub struct Neighbourhoods {
    pub near: Vec<CellSet>,
    pub within_two: Vec<CellSet>,
    pub centre_distance: Vec<u8>,
}

impl Neighbourhoods {
    fn new(grid: &'static HexGrid) -> Neighbourhoods {
        let orthogonal = |cell: Cell| -> CellSet {
            Hour::ALL.into_iter().filter(|h| h.is_orthogonal()).filter_map(|h| grid.step(cell, h)).collect()
        };
        let near: Vec<CellSet> =
            grid.cells().map(|cell| Hour::ALL.into_iter().filter_map(|h| grid.step(cell, h)).collect()).collect();
        let within_two = grid
            .cells()
            .map(|cell| {
                let mut set = near[cell.usize()];
                for n in orthogonal(cell) {
                    set |= orthogonal(n);
                }
                set.without(cell)
            })
            .collect();
        // Breadth-first over orthogonal steps from the centre.
        let mut centre_distance = vec![u8::MAX; grid.len()];
        let mut frontier = vec![grid.centre()];
        centre_distance[grid.centre().usize()] = 0;
        let mut d = 0;
        while !frontier.is_empty() {
            d += 1;
            let mut next = Vec::new();
            for cell in frontier {
                for n in orthogonal(cell) {
                    if centre_distance[n.usize()] == u8::MAX {
                        centre_distance[n.usize()] = d;
                        next.push(n);
                    }
                }
            }
            frontier = next;
        }
        Neighbourhoods { near, within_two, centre_distance }
    }

    pub fn get(grid: &'static HexGrid) -> &'static Neighbourhoods {
        static BIG: LazyLock<Neighbourhoods> = LazyLock::new(|| Neighbourhoods::new(&HEX127));
        static SMALL: LazyLock<Neighbourhoods> = LazyLock::new(|| Neighbourhoods::new(&HEX91));
        if grid.len() == HEX127.len() {
            &BIG
        } else {
            &SMALL
        }
    }
}

/// King safety shared by the hex games: defenders next to the king, other seats' pieces
/// within two steps, and attacked cells next to it.
pub struct KingSafetyWeights {
    pub defender: i32,
    pub attacker: i32,
    pub zone_attacked: i32,
}

pub fn king_safety(
    king: Cell,
    owner: Player,
    own: CellSet,
    others: CellSet,
    maps: &ByPlayer<CellSet>,
    hood: &Neighbourhoods,
    w: &KingSafetyWeights,
) -> i32 {
    let near = hood.near[king.usize()];
    let defenders = (near & own).count() as i32;
    let attackers = (hood.within_two[king.usize()] & others).count() as i32;
    let mut attacked = CellSet::EMPTY;
    for p in Player::ALL.into_iter().filter(|&p| p != owner) {
        attacked |= maps[p];
    }
    let zone = (near & attacked).count() as i32;
    defenders * w.defender - attackers * w.attacker - zone * w.zone_attacked
}

/// The empty cells next to `king`: where a piece from another seat's hand could be dropped
/// against it.
pub fn drop_room(king: Cell, occupied: CellSet, hood: &Neighbourhoods) -> i32 {
    (hood.near[king.usize()] - occupied).count() as i32
}

#[cfg(test)]
mod tests {
    use polyshogi::variant::hexshogi::{HexShogiPosition, HexShogiRules, HexVariant};
    use polyshogi::variant::sannin::{SanninPosition, SanninRules};
    use polyshogi::Rules;

    use super::*;
    use crate::test_games::along_a_capturing_game;

    /// Distinct values per piece kind, so that a piece counted under the wrong kind shows.
    const KIND_VALUES: [i32; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768];

    #[test]
    fn one_pass_gives_the_attack_map_and_the_value_of_the_pieces_on_the_board() {
        along_a_capturing_game(SanninPosition::start(SanninRules::default()), 1, 120, |pos| {
            for p in Player::ALL {
                let pieces = pos.pieces_of(p);
                let map = pieces.fold(CellSet::EMPTY, |map, cell| map | pos.attacks_from(cell));
                let value = pieces.map(|cell| KIND_VALUES[pos.piece_at(cell).unwrap().kind()]).sum();
                assert_eq!(pos.attack_map_and_value(p, &KIND_VALUES), (map, value));
            }
        });
        for (variant, seed) in [(HexVariant::HexShogi91, 2), (HexVariant::Tphs91, 3)] {
            along_a_capturing_game(HexShogiPosition::start(HexShogiRules::new(variant)), seed, 120, |pos| {
                for &p in pos.seats() {
                    let value = pos.pieces_of(p).map(|cell| KIND_VALUES[pos.piece_at(cell).unwrap().kind()]).sum();
                    assert_eq!(pos.attack_map_and_value(p, &KIND_VALUES).1, value);
                }
            });
        }
    }

    #[test]
    fn the_centre_is_zero_steps_away_and_corners_are_radius_steps_away() {
        let hood = Neighbourhoods::get(&HEX127);
        assert_eq!(hood.centre_distance[HEX127.centre().usize()], 0);
        assert_eq!(*hood.centre_distance.iter().max().unwrap(), 6);
        assert_eq!(hood.near[HEX127.centre().usize()].count(), 12);
        let small = Neighbourhoods::get(&HEX91);
        assert_eq!(*small.centre_distance.iter().max().unwrap(), 5);
    }
}
