//! Hexagonal boards of radius 5 (91 cells) and 6 (127 cells), pointy-top cells in axial
//! coordinates, with per-cell step and ray tables for the twelve clock directions.

use std::sync::LazyLock;

use super::{Cell, Hour};
use crate::cellset::CellSet;
use crate::mv::HourSet;

/// Axial (Δq, Δr) of one step in each screen hour (RULES.md §1.2). Orthogonals reach the
/// neighbouring cell; diagonals reach the cell two away, between two neighbours.
const HOUR_VECTORS: [(i8, i8); 12] =
    [(1, -2), (1, -1), (2, -1), (1, 0), (1, 1), (0, 1), (-1, 2), (-1, 1), (-2, 1), (-1, 0), (-1, -1), (0, -1)];

/// The hours whose rays run toward higher cell indices (`HexGrid::ray_grows`), as hour bits.
const GROWING_HOURS: u16 = {
    let mut bits = 0;
    let mut hour = 0;
    while hour < 12 {
        if HexGrid::ray_grows(Hour::new(hour)) {
            bits |= 1 << hour;
        }
        hour += 1;
    }
    bits
};

/// The 127-cell board of Sannin shogi.
pub static HEX127: LazyLock<HexGrid> = LazyLock::new(|| HexGrid::new(6));
/// The 91-cell board of the Hex Shogi 91 games.
pub static HEX91: LazyLock<HexGrid> = LazyLock::new(|| HexGrid::new(5));

/// A regular hexagon of hexagonal cells. Cells are numbered row by row from the top row, left
/// to right, so the index grows monotonically along every ray: that lets the nearest piece on
/// a ray be found with one bit scan.
pub struct HexGrid {
    radius: i8,
    axial: Vec<(i8, i8)>,
    lookup: Vec<Option<Cell>>,
    steps: Vec<[Option<Cell>; 12]>,
    rays: Vec<[CellSet; 12]>,
    /// Every cell on one of a cell's twelve rays.
    lines: Vec<CellSet>,
    /// The first cell of each of a cell's twelve rays.
    next_door: Vec<CellSet>,
    /// The hour of the ray from one cell that holds another, by `from × len + to`
    /// (`NO_RAY` when none does).
    hours_towards: Vec<u8>,
    all: CellSet,
}

/// `HexGrid::hours_towards`'s entry for two cells that share no ray.
const NO_RAY: u8 = u8::MAX;

impl HexGrid {
    fn new(radius: i8) -> HexGrid {
        let width = (2 * radius + 1) as usize;
        let mut axial = Vec::new();
        let mut lookup = vec![None; width * width];
        for r in -radius..=radius {
            for q in -radius..=radius {
                if (q + r).abs() <= radius {
                    let cell = Cell::new_unchecked(axial.len() as u8);
                    lookup[(r + radius) as usize * width + (q + radius) as usize] = Some(cell);
                    axial.push((q, r));
                }
            }
        }
        let mut grid = HexGrid {
            radius,
            axial,
            lookup,
            steps: Vec::new(),
            rays: Vec::new(),
            lines: Vec::new(),
            next_door: Vec::new(),
            hours_towards: Vec::new(),
            all: CellSet::EMPTY,
        };
        grid.all = grid.cells().collect();
        grid.steps = grid
            .cells()
            .map(|cell| {
                Hour::ALL.map(|hour| {
                    let (q, r) = grid.axial(cell);
                    let (dq, dr) = HOUR_VECTORS[hour.index()];
                    grid.at(q + dq, r + dr)
                })
            })
            .collect();
        grid.rays = grid
            .cells()
            .map(|cell| {
                Hour::ALL.map(|hour| {
                    let mut ray = CellSet::EMPTY;
                    let mut cur = cell;
                    while let Some(next) = grid.step(cur, hour) {
                        ray.insert(next);
                        cur = next;
                    }
                    ray
                })
            })
            .collect();
        grid.lines = grid.cells().map(|cell| Hour::ALL.iter().fold(CellSet::EMPTY, |set, &h| set | grid.ray(cell, h))).collect();
        grid.next_door = grid.cells().map(|cell| Hour::ALL.iter().filter_map(|&h| grid.step(cell, h)).collect()).collect();
        let len = grid.len();
        let mut hours_towards = vec![NO_RAY; len * len];
        for from in grid.cells() {
            for hour in Hour::ALL {
                for to in grid.ray(from, hour) {
                    hours_towards[from.usize() * len + to.usize()] = hour.index() as u8;
                }
            }
        }
        grid.hours_towards = hours_towards;
        grid
    }

    pub fn radius(&self) -> i8 {
        self.radius
    }

    pub fn len(&self) -> usize {
        self.axial.len()
    }

    pub fn is_empty(&self) -> bool {
        self.axial.is_empty()
    }

    pub fn all(&self) -> CellSet {
        self.all
    }

    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.axial.len() as u8).map(Cell::new_unchecked)
    }

    /// The cell with this index, if the board has it.
    pub fn cell(&self, index: usize) -> Option<Cell> {
        (index < self.len()).then(|| Cell::new_unchecked(index as u8))
    }

    /// The centre cell (the Pleasure Garden in Sannin shogi).
    pub fn centre(&self) -> Cell {
        self.at(0, 0).expect("every hexagon has a centre")
    }

    pub(super) fn axial(&self, cell: Cell) -> (i8, i8) {
        self.axial[cell.usize()]
    }

    pub(super) fn at(&self, q: i8, r: i8) -> Option<Cell> {
        let radius = self.radius;
        if q.abs() > radius || r.abs() > radius || (q + r).abs() > radius {
            return None;
        }
        let width = (2 * radius + 1) as usize;
        self.lookup[(r + radius) as usize * width + (q + radius) as usize]
    }

    /// The cell one step away in `hour`: a neighbour for an orthogonal, the cell two away for
    /// a diagonal.
    #[inline]
    pub fn step(&self, cell: Cell, hour: Hour) -> Option<Cell> {
        self.steps[cell.usize()][hour.index()]
    }

    /// The cell reached by one leap made of the steps in `hours` added together, or `None`
    /// when it is off the board. A leap ignores every cell in between (they may even lie off
    /// the board): the Hex Shogi knight leaps by an orthogonal plus a diagonal step.
    pub fn leap(&self, cell: Cell, hours: &[Hour]) -> Option<Cell> {
        let (mut q, mut r) = self.axial(cell);
        for hour in hours {
            let (dq, dr) = HOUR_VECTORS[hour.index()];
            q += dq;
            r += dr;
        }
        self.at(q, r)
    }

    /// Every cell reached by repeating the step in `hour`, as far as the board goes.
    #[inline]
    pub fn ray(&self, cell: Cell, hour: Hour) -> CellSet {
        self.rays[cell.usize()][hour.index()]
    }

    /// Every cell on one of the twelve rays from `cell`: the cells that share a line with it.
    #[inline]
    pub fn lines(&self, cell: Cell) -> CellSet {
        self.lines[cell.usize()]
    }

    /// The first cell of each of the twelve rays from `cell`.
    #[inline]
    pub fn next_door(&self, cell: Cell) -> CellSet {
        self.next_door[cell.usize()]
    }

    /// Whether a piece on `near`, the first cell of one of `target`'s rays, attacks `target`
    /// when it steps or ranges along `near_hours`.
    #[inline]
    pub fn attacks_next_door(&self, near: Cell, target: Cell, near_hours: HourSet) -> bool {
        near_hours.contains(self.hour_towards(near, target).expect("a cell next door shares a ray"))
    }

    /// Whether a piece on `ranger`, one of `target`'s lines, ranging along `range_hours`,
    /// reaches `target` with nothing between as `occupied` says.
    #[inline]
    pub fn ranges_onto(&self, ranger: Cell, target: Cell, range_hours: HourSet, occupied: CellSet) -> bool {
        let hour = self.hour_towards(target, ranger).expect("a cell on one of the target's lines");
        range_hours.contains(hour.opposite()) && self.first_on_ray(target, hour, occupied) == Some(ranger)
    }

    /// True when cell indices grow along rays in `hour`.
    #[inline]
    pub const fn ray_grows(hour: Hour) -> bool {
        let (dq, dr) = HOUR_VECTORS[hour.index()];
        dr > 0 || (dr == 0 && dq > 0)
    }

    /// The first occupied cell along the ray, if any. Cells a diagonal passes between are not
    /// on the ray, so they never block.
    #[inline]
    pub fn first_on_ray(&self, cell: Cell, hour: Hour, occupied: CellSet) -> Option<Cell> {
        let blockers = self.ray(cell, hour) & occupied;
        if Self::ray_grows(hour) {
            blockers.first()
        } else {
            blockers.last()
        }
    }

    /// The cells a piece on `cell` attacks: `steps` (its steps and leaps), and along each hour
    /// of `hours` the empty cells and the first occupied one.
    #[inline(always)]
    pub fn piece_reach(&self, cell: Cell, steps: CellSet, hours: HourSet, occupied: CellSet) -> CellSet {
        // Most pieces never range: the test, made where the caller is, is cheaper than a call
        // that follows no rays.
        if hours.is_empty() {
            steps
        } else {
            steps | self.follow_ranges(cell, hours, occupied)
        }
    }

    /// `piece_reach(cell, steps, hours, occupied) & within`, without following the ranges
    /// when no cell of `within` lies on a line through `cell`: when listing captures only,
    /// most pieces have no enemy piece on any of their lines.
    #[inline]
    pub fn piece_reach_within(&self, cell: Cell, steps: CellSet, hours: HourSet, occupied: CellSet, within: CellSet) -> CellSet {
        if hours.is_empty() || (self.lines(cell) & within).is_empty() {
            steps & within
        } else {
            (steps | self.follow_ranges(cell, hours, occupied)) & within
        }
    }

    /// The ranging part of `piece_reach`, for at least one hour: `ranges` kept out of line.
    /// Few pieces range, and the walk inlined into the generators' loops over every piece
    /// makes them slower (docs/BENCHMARKS.md).
    #[inline(never)]
    fn follow_ranges(&self, cell: Cell, hours: HourSet, occupied: CellSet) -> CellSet {
        self.ranges(cell, hours, occupied)
    }

    /// The cells a piece on `cell` reaches along `hours`: the empty cells and the first
    /// occupied one of each ray. The rays are split by the way cell indices run: on a ray whose
    /// indices grow, the reach is a mask of the indices up to the nearest blocker (the lowest);
    /// on the others, of the indices from the nearest blocker (the highest) up. Both masks are
    /// bit arithmetic: taking the ray beyond the blocker from the table would wait on a second
    /// load that depends on the first. Inlined into the loops over ranging pieces alone (the
    /// evaluation's range maps), where the call costs more than it saves.
    #[inline(always)]
    pub fn ranges(&self, cell: Cell, hours: HourSet, occupied: CellSet) -> CellSet {
        let rays = &self.rays[cell.usize()];
        let mut reach = CellSet::EMPTY;
        let mut growing = hours.bits() & GROWING_HOURS;
        while growing != 0 {
            let ray = rays[growing.trailing_zeros() as usize];
            growing &= growing - 1;
            reach |= ray & (ray & occupied).up_to_first();
        }
        let mut shrinking = hours.bits() & !GROWING_HOURS;
        while shrinking != 0 {
            let ray = rays[shrinking.trailing_zeros() as usize];
            shrinking &= shrinking - 1;
            reach |= ray & (ray & occupied).from_last();
        }
        reach
    }

    /// The hour of the ray from `from` that holds `to`, or `None` when no ray joins them.
    #[inline]
    pub fn hour_towards(&self, from: Cell, to: Cell) -> Option<Hour> {
        let hour = self.hours_towards[from.usize() * self.len() + to.usize()];
        (hour != NO_RAY).then(|| Hour::new(hour))
    }

    /// Where a piece on `pinned`, pinned to `king` along the ray joining them, may go: the
    /// cells up to the first piece beyond it (the pinner), that one included. The generators
    /// ask it when a pinned piece moves, rather than listing the lines with the pins: few
    /// pieces are pinned, and the list would be copied with every king-safety answer.
    pub fn pin_line(&self, king: Cell, pinned: Cell, occupied: CellSet) -> CellSet {
        let hour = self.hour_towards(king, pinned).expect("a pinned piece is on one of the king's rays");
        let pinner = self.first_on_ray(pinned, hour, occupied).expect("a pinned piece has a pinner");
        self.ray(king, hour) - self.ray(pinner, hour)
    }

    /// The cells strictly between two cells on one ray, or `None` when no ray joins them.
    pub fn between(&self, from: Cell, to: Cell) -> Option<CellSet> {
        let hour = self.hour_towards(from, to)?;
        Some(self.ray(from, hour) - self.ray(to, hour).with(to))
    }

    /// The centre of a cell on screen, for cells of circumradius 1 with a corner up; x grows
    /// to the right and y downward, the board centre at (0, 0).
    pub fn pixel_centre(&self, cell: Cell) -> (f64, f64) {
        let (q, r) = self.axial(cell);
        let (q, r) = (f64::from(q), f64::from(r));
        (3f64.sqrt() * (q + r / 2.0), 1.5 * r)
    }

    /// The cell turned 120° counter-clockwise about the centre.
    pub fn rotated_ccw120(&self, cell: Cell) -> Cell {
        let (q, r) = self.axial(cell);
        self.at(r, -q - r).expect("rotation keeps a cell on the board")
    }

    /// The cell turned 120° clockwise about the centre.
    pub fn rotated_cw120(&self, cell: Cell) -> Cell {
        let (q, r) = self.axial(cell);
        self.at(-q - r, q).expect("rotation keeps a cell on the board")
    }

    /// The cells within `depth` rows of the board edge that lies in direction `outward` from
    /// the centre (`outward` is a diagonal hour: each edge of the board faces a corner
    /// direction of its cells).
    pub fn band(&self, outward: Hour, depth: i8) -> CellSet {
        assert!(!outward.is_orthogonal(), "board edges face diagonal hours");
        let (dq, dr) = HOUR_VECTORS[outward.index()];
        let ds = -dq - dr;
        self.cells()
            .filter(|&cell| {
                let (q, r) = self.axial(cell);
                let s = -q - r;
                // The component of size 2 names the axis that is constant along the edge.
                let toward_edge =
                    q * dq.signum() * (dq.abs() / 2) + r * dr.signum() * (dr.abs() / 2) + s * ds.signum() * (ds.abs() / 2);
                toward_edge > self.radius - depth
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_have_127_and_91_cells() {
        assert_eq!(HEX127.len(), 127);
        assert_eq!(HEX91.len(), 91);
        assert_eq!(HEX127.all().count(), 127);
    }

    /// Walked step by step: the hour from one cell towards another is the one whose steps
    /// reach it, and the cells between are those passed on the way.
    #[test]
    fn the_hour_towards_a_cell_is_the_one_whose_steps_reach_it() {
        for grid in [&*HEX127, &*HEX91] {
            for from in grid.cells() {
                let mut expected = vec![None; grid.len()];
                for hour in Hour::ALL {
                    let mut passed = CellSet::EMPTY;
                    let mut cur = from;
                    while let Some(next) = grid.step(cur, hour) {
                        expected[next.usize()] = Some((hour, passed));
                        passed.insert(next);
                        cur = next;
                    }
                }
                for to in grid.cells() {
                    let found = grid.hour_towards(from, to).map(|hour| (hour, grid.between(from, to).unwrap()));
                    assert_eq!(found, expected[to.usize()]);
                    assert_eq!(grid.between(from, to).is_some(), found.is_some());
                }
            }
        }
    }

    #[test]
    fn every_ray_is_monotonic_in_cell_index() {
        for grid in [&*HEX127, &*HEX91] {
            for cell in grid.cells() {
                for hour in Hour::ALL {
                    let mut cur = cell;
                    while let Some(next) = grid.step(cur, hour) {
                        assert_eq!(next > cur, HexGrid::ray_grows(hour));
                        cur = next;
                    }
                }
            }
        }
    }

    #[test]
    fn piece_reach_stops_on_the_first_occupied_cell_of_each_ray() {
        let mut rng = crate::splitmix::SplitMix::new(7);
        for grid in [&*HEX127, &*HEX91] {
            for _ in 0..200 {
                let occupied: CellSet = grid.cells().filter(|_| rng.below(3) == 0).collect();
                let hours = HourSet::from_bits(rng.next_u64() as u16);
                let steps: CellSet = grid.cells().filter(|_| rng.below(8) == 0).collect();
                for cell in grid.cells() {
                    let mut walked = CellSet::EMPTY;
                    for hour in Hour::ALL.into_iter().filter(|&h| hours.contains(h)) {
                        let mut cur = cell;
                        while let Some(next) = grid.step(cur, hour) {
                            walked.insert(next);
                            if occupied.contains(next) {
                                break;
                            }
                            cur = next;
                        }
                    }
                    assert_eq!(grid.piece_reach(cell, steps, hours, occupied), walked | steps, "{cell:?} {hours:?}");
                }
            }
        }
    }

    #[test]
    fn centre_cell_has_twelve_steps_and_corner_has_fewer() {
        let centre = HEX127.centre();
        assert!(Hour::ALL.iter().all(|&h| HEX127.step(centre, h).is_some()));
        let top_left = HEX127.cell(0).unwrap();
        let steps = Hour::ALL.iter().filter(|&&h| HEX127.step(top_left, h).is_some()).count();
        assert_eq!(steps, 5); // 3 neighbours and 2 diagonals from a corner cell
    }

    #[test]
    fn three_rotations_are_the_identity() {
        for cell in HEX127.cells() {
            let once = HEX127.rotated_ccw120(cell);
            assert_eq!(HEX127.rotated_cw120(once), cell);
            assert_eq!(HEX127.rotated_ccw120(HEX127.rotated_ccw120(once)), cell);
        }
    }

    #[test]
    fn a_leap_adds_its_steps_and_ignores_the_cells_between() {
        let centre = HEX91.centre();
        let [h0, h1, h10, h11] = [0, 1, 10, 11].map(Hour::new);
        // One step is the same as a one-step leap; two steps go through the middle cell.
        assert_eq!(HEX91.leap(centre, &[h1]), HEX91.step(centre, h1));
        let via = HEX91.step(centre, h11).and_then(|c| HEX91.step(c, h10));
        assert_eq!(HEX91.leap(centre, &[h11, h10]), via);
        assert_eq!(HEX91.leap(centre, &[h11, h0, h0, h0]), None);
        // Opposite steps cancel.
        assert_eq!(HEX91.leap(centre, &[h1, h1.opposite()]), Some(centre));
    }

    #[test]
    fn three_row_bands_have_24_cells_and_edges_7() {
        for hour in [0, 2, 4, 6, 8, 10].map(Hour::new) {
            assert_eq!(HEX127.band(hour, 3).count(), 24);
            assert_eq!(HEX127.band(hour, 1).count(), 7);
            assert_eq!(HEX91.band(hour, 3).count(), 21);
        }
    }
}
