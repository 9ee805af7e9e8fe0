//! Attack maps and king neighbourhoods on the hexagonal boards, for the Sannin and Hex Shogi
//! evaluations: the attacks come from the rules library's positions, the neighbourhoods from
//! its grids, never from coordinates.

use std::sync::LazyLock;

use polyshogi::cellset::CellSet;
use polyshogi::geometry::{Cell, HexGrid, Hour, HEX127, HEX91};
use polyshogi::player::{ByPlayer, Player};

/// Every seat's attack map, from a position's map of one player's attacks.
pub fn attack_maps(seats: &[Player], attack_map: impl Fn(Player) -> CellSet) -> ByPlayer<CellSet> {
    let mut maps = ByPlayer([CellSet::EMPTY; 3]);
    for &p in seats {
        maps[p] = attack_map(p);
    }
    maps
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

#[cfg(test)]
mod tests {
    use super::*;

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
