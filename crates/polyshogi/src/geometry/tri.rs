//! The 44-triangle board of Sankaku Shogi (RULES.md §3.1–3.2): cells with their orientation,
//! side neighbours, the six orthogonal rays, second-orthogonal cells, adjacency and names.

use std::sync::LazyLock;

use arrayvec::ArrayVec;

use super::{Cell, ParseCellError};
use crate::cellset::CellSet;

/// The Sankaku board.
pub static TRI44: LazyLock<TriGrid> = LazyLock::new(TriGrid::new);

/// Number of cells of the board.
pub const TRI_CELLS: usize = 44;

/// Files a–g (index 0–6) each rank spans, rank 1 first: 3+5+7+7+7+7+5+3 cells (§3.1).
const RANK_FILES: [(i8, i8); 8] = [(2, 4), (1, 5), (0, 6), (0, 6), (0, 6), (0, 6), (1, 5), (2, 4)];

/// One of the six orthogonal ray directions (§3.2), counter-clockwise from east; opposite
/// directions are three apart. A ray follows one strip of triangles, so it zig-zags.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum TriDirection {
    E = 0,
    /// Up-right along the rising strip.
    NE = 1,
    /// Up-left along the falling strip.
    NW = 2,
    W = 3,
    /// Down-left along the rising strip.
    SW = 4,
    /// Down-right along the falling strip.
    SE = 5,
}

impl TriDirection {
    pub const ALL: [TriDirection; 6] =
        [TriDirection::E, TriDirection::NE, TriDirection::NW, TriDirection::W, TriDirection::SW, TriDirection::SE];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub const fn opposite(self) -> TriDirection {
        TriDirection::ALL[(self as usize + 3) % 6]
    }
}

/// The (Δfile, Δrank) of one step along each direction, from an up cell and from a down cell:
/// the step table of §3.2. The rank strip (E/W) crosses left and right sides; the rising
/// (NE/SW) and falling (NW/SE) strips alternate a left or right side with the horizontal one.
const STEPS: [[(i8, i8); 2]; 6] = [
    [(1, 0), (1, 0)],   // E
    [(1, 0), (0, 1)],   // NE
    [(-1, 0), (0, 1)],  // NW
    [(-1, 0), (-1, 0)], // W
    [(0, -1), (-1, 0)], // SW
    [(0, -1), (1, 0)],  // SE
];

/// The (Δfile, Δrank) of the up to 12 cells sharing a corner with an up cell and with a down
/// cell (§3.2, "adjacent"): five around each of the three corners, less the three counted
/// twice (the side neighbours).
const ADJACENT: [[(i8, i8); 12]; 2] = [
    [(1, 0), (-1, 0), (2, 0), (-2, 0), (0, 1), (0, -1), (1, -1), (-1, -1), (1, 1), (-1, 1), (2, -1), (-2, -1)],
    [(1, 0), (-1, 0), (2, 0), (-2, 0), (0, 1), (0, -1), (1, -1), (-1, -1), (1, 1), (-1, 1), (2, 1), (-2, 1)],
];

/// A cell two steps away along a ray, and the first cell of that ray, which a Soldier's
/// capture passes through.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct SecondOrthogonal {
    pub target: Cell,
    pub via: Cell,
}

/// The 44-triangle board. Cells are numbered rank by rank from rank 1, file a to g. Rays
/// zig-zag between ranks, so no numbering makes every ray monotonic: rays are kept as ordered
/// cell lists, with their cell sets beside them for quick emptiness tests.
pub struct TriGrid {
    file_rank: [(i8, i8); TRI_CELLS],
    /// By file index, then rank − 1.
    lookup: [[Option<Cell>; 8]; 7],
    all: CellSet,
    up: CellSet,
    sides: [CellSet; TRI_CELLS],
    /// (start, length) of each ray in `ray_cells`.
    ray_spans: [[(u16, u8); 6]; TRI_CELLS],
    ray_cells: Vec<Cell>,
    ray_sets: [[CellSet; 6]; TRI_CELLS],
    seconds: Vec<ArrayVec<SecondOrthogonal, 6>>,
    second_sets: [CellSet; TRI_CELLS],
    adjacent: [CellSet; TRI_CELLS],
    /// Cells strictly between two cells of one ray, indexed `from * 44 + to`; empty otherwise.
    between: Vec<CellSet>,
    /// The cells of the rays from `from` past `to`, indexed `from * 44 + to`; empty otherwise.
    beyond: Vec<CellSet>,
    /// By cell, the union of its six rays.
    lines: [CellSet; TRI_CELLS],
    half_turn: [Cell; TRI_CELLS],
}

impl TriGrid {
    fn new() -> TriGrid {
        let mut file_rank = [(0, 0); TRI_CELLS];
        let mut lookup = [[None; 8]; 7];
        let mut count = 0;
        for (rank_index, &(first, last)) in RANK_FILES.iter().enumerate() {
            for file in first..=last {
                let cell = Cell::new_unchecked(count as u8);
                file_rank[count] = (file, rank_index as i8 + 1);
                lookup[file as usize][rank_index] = Some(cell);
                count += 1;
            }
        }
        assert_eq!(count, TRI_CELLS);
        let mut grid = TriGrid {
            file_rank,
            lookup,
            all: CellSet::EMPTY,
            up: CellSet::EMPTY,
            sides: [CellSet::EMPTY; TRI_CELLS],
            ray_spans: [[(0, 0); 6]; TRI_CELLS],
            ray_cells: Vec::new(),
            ray_sets: [[CellSet::EMPTY; 6]; TRI_CELLS],
            seconds: Vec::new(),
            second_sets: [CellSet::EMPTY; TRI_CELLS],
            adjacent: [CellSet::EMPTY; TRI_CELLS],
            between: vec![CellSet::EMPTY; TRI_CELLS * TRI_CELLS],
            beyond: vec![CellSet::EMPTY; TRI_CELLS * TRI_CELLS],
            lines: [CellSet::EMPTY; TRI_CELLS],
            half_turn: [Cell::new_unchecked(0); TRI_CELLS],
        };
        grid.all = grid.cells().collect();
        grid.up = grid.cells().filter(|&c| grid.orientation_index(c) == 0).collect();
        for cell in grid.cells() {
            let i = cell.usize();
            for dir in TriDirection::ALL {
                let start = grid.ray_cells.len();
                let mut cur = cell;
                while let Some(next) = grid.step(cur, dir) {
                    grid.ray_cells.push(next);
                    grid.ray_sets[i][dir.index()].insert(next);
                    cur = next;
                }
                grid.ray_spans[i][dir.index()] = (start as u16, (grid.ray_cells.len() - start) as u8);
                let ray = &grid.ray_cells[start..];
                for (k, &to) in ray.iter().enumerate() {
                    grid.between[i * TRI_CELLS + to.usize()] = ray[..k].iter().copied().collect();
                    // A side neighbour starts two rays: it hides both.
                    grid.beyond[i * TRI_CELLS + to.usize()] |= ray[k + 1..].iter().copied().collect::<CellSet>();
                }
                grid.lines[i] |= grid.ray_sets[i][dir.index()];
                if let [_, target, ..] = *ray {
                    grid.second_sets[i].insert(target);
                }
            }
            // A side neighbour is the first cell of two rays; list each once.
            grid.sides[i] = TriDirection::ALL.iter().filter_map(|&d| grid.step(cell, d)).collect();
            let (f, r) = grid.file_rank[i];
            grid.adjacent[i] =
                ADJACENT[grid.orientation_index(cell)].iter().filter_map(|&(df, dr)| grid.at(f + df, r + dr)).collect();
            grid.half_turn[i] = grid.at(6 - f, 9 - r).expect("the board is symmetric under a half-turn");
        }
        grid.seconds = grid
            .cells()
            .map(|cell| {
                TriDirection::ALL
                    .iter()
                    .filter_map(|&d| match *grid.ray(cell, d) {
                        [via, target, ..] => Some(SecondOrthogonal { target, via }),
                        _ => None,
                    })
                    .collect()
            })
            .collect();
        grid
    }

    /// 0 for an up cell (apex up), 1 for a down cell: up iff file + rank is even (§3.1).
    fn orientation_index(&self, cell: Cell) -> usize {
        let (f, r) = self.file_rank[cell.usize()];
        ((f + r) % 2) as usize
    }

    fn at(&self, file: i8, rank: i8) -> Option<Cell> {
        if !(0..7).contains(&file) || !(1..=8).contains(&rank) {
            return None;
        }
        self.lookup[file as usize][rank as usize - 1]
    }

    /// The next cell along a ray (§3.2 step table), if the board has it.
    fn step(&self, cell: Cell, dir: TriDirection) -> Option<Cell> {
        let (f, r) = self.file_rank[cell.usize()];
        let (df, dr) = STEPS[dir.index()][self.orientation_index(cell)];
        self.at(f + df, r + dr)
    }

    pub fn len(&self) -> usize {
        TRI_CELLS
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    pub fn all(&self) -> CellSet {
        self.all
    }

    pub fn cells(&self) -> impl Iterator<Item = Cell> {
        (0..TRI_CELLS as u8).map(Cell::new_unchecked)
    }

    /// The cell with this index, if the board has it.
    pub fn cell(&self, index: usize) -> Option<Cell> {
        (index < TRI_CELLS).then(|| Cell::new_unchecked(index as u8))
    }

    /// The cells whose apex points up (`^` in the source diagram).
    pub fn up_cells(&self) -> CellSet {
        self.up
    }

    #[inline]
    pub fn is_up(&self, cell: Cell) -> bool {
        self.up.contains(cell)
    }

    /// The centre of a cell on screen, for triangles of side 2 (a file is half a side): x
    /// grows to the right and y downward, rank 1 at the bottom, the board centre at (0, 0).
    /// The centre of a triangle lies a third of its height from its base.
    pub fn pixel_centre(&self, cell: Cell) -> (f64, f64) {
        let (f, r) = self.file_rank[cell.usize()];
        let base_up = if self.is_up(cell) { 1.0 / 3.0 } else { 2.0 / 3.0 };
        let height_above_bottom = f64::from(r - 1) + base_up;
        (f64::from(f) - 3.0, 3f64.sqrt() * (4.0 - height_above_bottom))
    }

    /// The cells sharing a whole side with `cell` (at most 3).
    #[inline]
    pub fn sides(&self, cell: Cell) -> CellSet {
        self.sides[cell.usize()]
    }

    /// The cells along a ray, nearest first.
    #[inline]
    pub fn ray(&self, cell: Cell, dir: TriDirection) -> &[Cell] {
        let (start, len) = self.ray_spans[cell.usize()][dir.index()];
        &self.ray_cells[start as usize..start as usize + len as usize]
    }

    /// The cells along a ray, as a set.
    #[inline]
    pub fn ray_set(&self, cell: Cell, dir: TriDirection) -> CellSet {
        self.ray_sets[cell.usize()][dir.index()]
    }

    /// The second cell of each ray with the first cell it passes (at most 6, all of the same
    /// orientation as `cell`).
    #[inline]
    pub fn second_orthogonals(&self, cell: Cell) -> &[SecondOrthogonal] {
        &self.seconds[cell.usize()]
    }

    /// The second-orthogonal cells as a set. The relation is symmetric: each ray walked back
    /// from its second cell passes the same first cell.
    #[inline]
    pub fn second_orthogonal_set(&self, cell: Cell) -> CellSet {
        self.second_sets[cell.usize()]
    }

    /// The cells sharing at least one corner with `cell` (5 to 12 on this board).
    #[inline]
    pub fn adjacent(&self, cell: Cell) -> CellSet {
        self.adjacent[cell.usize()]
    }

    /// The cells strictly between two cells of one ray; empty when no ray joins them or
    /// they are neighbours on it.
    #[inline]
    pub fn between(&self, from: Cell, to: Cell) -> CellSet {
        self.between[from.usize() * TRI_CELLS + to.usize()]
    }

    /// The cells of the rays from `from` through `to` that lie past `to` (two rays when `to` is
    /// a side neighbour, one otherwise): what a piece on `to` hides from `from`. Empty when no
    /// ray joins them.
    #[inline]
    pub fn beyond(&self, from: Cell, to: Cell) -> CellSet {
        self.beyond[from.usize() * TRI_CELLS + to.usize()]
    }

    /// Every cell on one of the six rays from `cell`.
    #[inline]
    pub fn lines(&self, cell: Cell) -> CellSet {
        self.lines[cell.usize()]
    }

    /// The cell a half-turn of the board puts in place of `cell`: (f, r) → (6 − f, 9 − r).
    /// It swaps up and down cells and maps rays to the opposite rays.
    #[inline]
    pub fn half_turn(&self, cell: Cell) -> Cell {
        self.half_turn[cell.usize()]
    }

    /// The cell's name: file letter and rank digit, like `d1`.
    pub fn name(&self, cell: Cell) -> String {
        let (f, r) = self.file_rank[cell.usize()];
        format!("{}{r}", (b'a' + f as u8) as char)
    }

    /// The cell a name stands for.
    pub fn parse(&self, text: &str) -> Result<Cell, ParseCellError> {
        match *text.as_bytes() {
            [letter @ b'a'..=b'z', digit @ b'0'..=b'9'] => {
                self.at((letter - b'a') as i8, (digit - b'0') as i8).ok_or_else(|| ParseCellError::OffBoard(text.to_string()))
            }
            _ => Err(ParseCellError::Malformed(text.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(name: &str) -> Cell {
        TRI44.parse(name).unwrap()
    }

    fn names(cells: impl IntoIterator<Item = Cell>) -> Vec<String> {
        cells.into_iter().map(|c| TRI44.name(c)).collect()
    }

    fn sorted(set: CellSet) -> Vec<String> {
        let mut v = names(set);
        v.sort();
        v
    }

    #[test]
    fn ranks_hold_3_5_7_7_7_7_5_3_cells_with_the_diagram_orientations() {
        let grid = &*TRI44;
        let per_rank: Vec<usize> = (1..=8).map(|r| grid.cells().filter(|&c| grid.file_rank[c.usize()].1 == r).count()).collect();
        assert_eq!(per_rank, [3, 5, 7, 7, 7, 7, 5, 3]);
        assert_eq!(grid.all().count(), 44);
        // The source diagram, rank 8 first (§3.1).
        let diagram = [
            "c8^ d8v e8^",
            "b7^ c7v d7^ e7v f7^",
            "a6^ b6v c6^ d6v e6^ f6v g6^",
            "a5v b5^ c5v d5^ e5v f5^ g5v",
            "a4^ b4v c4^ d4v e4^ f4v g4^",
            "a3v b3^ c3v d3^ e3v f3^ g3v",
            "b2v c2^ d2v e2^ f2v",
            "c1v d1^ e1v",
        ];
        let mut seen = 0;
        for token in diagram.iter().flat_map(|row| row.split_whitespace()) {
            let c = cell(&token[..2]);
            assert_eq!(grid.is_up(c), token.ends_with('^'), "{token}");
            seen += 1;
        }
        assert_eq!(seen, 44);
        assert_eq!(grid.up_cells().count(), 22);
    }

    #[test]
    fn names_round_trip_and_bad_names_are_refused() {
        for c in TRI44.cells() {
            assert_eq!(TRI44.parse(&TRI44.name(c)), Ok(c));
        }
        for off in ["a1", "b1", "f1", "a2", "g7", "h4", "a9", "d0"] {
            assert_eq!(TRI44.parse(off), Err(ParseCellError::OffBoard(off.into())), "{off}");
        }
        for bad in ["d", "1d", "D1", "d1x", "d10", "", "dd"] {
            assert_eq!(TRI44.parse(bad), Err(ParseCellError::Malformed(bad.into())), "{bad}");
        }
    }

    #[test]
    fn the_example_rays_from_d4_are_those_of_rules_3_2() {
        let d4 = cell("d4");
        let ray = |dir| names(TRI44.ray(d4, dir).iter().copied());
        assert_eq!(ray(TriDirection::E), ["e4", "f4", "g4"]);
        assert_eq!(ray(TriDirection::W), ["c4", "b4", "a4"]);
        assert_eq!(ray(TriDirection::NE), ["d5", "e5", "e6", "f6", "f7"]);
        assert_eq!(ray(TriDirection::SW), ["c4", "c3", "b3", "b2"]);
        assert_eq!(ray(TriDirection::NW), ["d5", "c5", "c6", "b6", "b7"]);
        assert_eq!(ray(TriDirection::SE), ["e4", "e3", "f3", "f2"]);
        for dir in TriDirection::ALL {
            assert_eq!(TRI44.ray_set(d4, dir), TRI44.ray(d4, dir).iter().copied().collect());
        }
    }

    #[test]
    fn side_neighbours_and_adjacent_cells_have_the_counts_of_rules_3_2() {
        let grid = &*TRI44;
        let mut adjacency_counts = Vec::new();
        for c in grid.cells() {
            let sides = grid.sides(c);
            assert!((1..=3).contains(&sides.count()), "{}", grid.name(c));
            // Side neighbours have the other orientation and are adjacent.
            assert!(sides.into_iter().all(|n| grid.is_up(n) != grid.is_up(c) && grid.sides(n).contains(c)));
            assert_eq!(sides - grid.adjacent(c), CellSet::EMPTY);
            assert!(grid.adjacent(c).into_iter().all(|n| grid.adjacent(n).contains(c)));
            adjacency_counts.push(grid.adjacent(c).count());
        }
        assert_eq!(adjacency_counts.iter().min(), Some(&5));
        assert_eq!(adjacency_counts.iter().max(), Some(&12));
        assert_eq!(grid.sides(cell("d4")).count(), 3);
        assert_eq!(sorted(grid.sides(cell("c1"))), ["c2", "d1"]);
        // The notch of §3.1: a5v and a4^ touch only at a point.
        assert!(!grid.sides(cell("a5")).contains(cell("a4")));
        assert!(grid.adjacent(cell("a5")).contains(cell("a4")));
    }

    /// Adjacency recomputed from the corner coordinates of §3.1: two cells are adjacent iff
    /// they share a corner.
    #[test]
    fn adjacency_is_exactly_corner_sharing() {
        let grid = &*TRI44;
        let corners = |c: Cell| -> [(i8, i8); 3] {
            let (f, r) = grid.file_rank[c.usize()];
            if grid.is_up(c) {
                [(f, r - 1), (f + 2, r - 1), (f + 1, r)]
            } else {
                [(f, r), (f + 2, r), (f + 1, r - 1)]
            }
        };
        for a in grid.cells() {
            let shared: CellSet = grid.cells().filter(|&b| b != a && corners(b).iter().any(|p| corners(a).contains(p))).collect();
            assert_eq!(grid.adjacent(a), shared, "{}", grid.name(a));
            let two_corners: CellSet =
                shared.into_iter().filter(|&b| corners(b).iter().filter(|p| corners(a).contains(p)).count() == 2).collect();
            assert_eq!(grid.sides(a), two_corners, "{}", grid.name(a));
        }
    }

    #[test]
    fn second_orthogonals_keep_orientation_and_match_the_delta_table() {
        let grid = &*TRI44;
        let up_table = [(2, 0, 1, 0), (-2, 0, -1, 0), (1, 1, 1, 0), (-1, 1, -1, 0), (1, -1, 0, -1), (-1, -1, 0, -1)];
        let down_table = [(2, 0, 1, 0), (-2, 0, -1, 0), (1, -1, 1, 0), (-1, -1, -1, 0), (1, 1, 0, 1), (-1, 1, 0, 1)];
        for c in grid.cells() {
            let (f, r) = grid.file_rank[c.usize()];
            let table = if grid.is_up(c) { up_table } else { down_table };
            let mut expected: Vec<(Cell, Cell)> =
                table.iter().filter_map(|&(tf, tr, vf, vr)| Some((grid.at(f + tf, r + tr)?, grid.at(f + vf, r + vr)?))).collect();
            let mut found: Vec<(Cell, Cell)> = grid.second_orthogonals(c).iter().map(|s| (s.target, s.via)).collect();
            expected.sort();
            found.sort();
            assert_eq!(found, expected, "{}", grid.name(c));
            for s in grid.second_orthogonals(c) {
                assert_eq!(grid.is_up(s.target), grid.is_up(c));
                assert!(grid.second_orthogonals(s.target).iter().any(|back| back.target == c && back.via == s.via));
                assert!(grid.second_orthogonal_set(c).contains(s.target));
            }
        }
    }

    #[test]
    fn the_half_turn_is_an_involution_that_flips_cells_and_reverses_rays() {
        let grid = &*TRI44;
        assert_eq!(grid.half_turn(cell("d1")), cell("d8"));
        assert_eq!(grid.half_turn(cell("b2")), cell("f7"));
        for c in grid.cells() {
            let t = grid.half_turn(c);
            assert_eq!(grid.half_turn(t), c);
            assert_ne!(grid.is_up(t), grid.is_up(c));
            let turned = |set: CellSet| set.map(|x| grid.half_turn(x)).collect::<CellSet>();
            assert_eq!(turned(grid.sides(c)), grid.sides(t));
            assert_eq!(turned(grid.adjacent(c)), grid.adjacent(t));
            assert_eq!(turned(grid.second_orthogonal_set(c)), grid.second_orthogonal_set(t));
            for dir in TriDirection::ALL {
                let ray: Vec<Cell> = grid.ray(c, dir).iter().map(|&x| grid.half_turn(x)).collect();
                assert_eq!(ray, grid.ray(t, dir.opposite()));
            }
        }
    }

    #[test]
    fn side_neighbours_are_one_side_apart_on_screen() {
        // The centres of two triangles sharing a side (side 2) are 2/√3 apart.
        for c in TRI44.cells() {
            let (x, y) = TRI44.pixel_centre(c);
            for n in TRI44.sides(c) {
                let (nx, ny) = TRI44.pixel_centre(n);
                assert!(((nx - x).hypot(ny - y) - 2.0 / 3f64.sqrt()).abs() < 1e-9);
            }
            let (tx, ty) = TRI44.pixel_centre(TRI44.half_turn(c));
            assert!((tx + x).abs() < 1e-9 && (ty + y).abs() < 1e-9);
        }
        assert!(TRI44.pixel_centre(cell("d1")).1 > TRI44.pixel_centre(cell("d8")).1);
    }

    #[test]
    fn between_lists_the_cells_a_ray_passes() {
        let d4 = cell("d4");
        assert_eq!(sorted(TRI44.between(d4, cell("f7"))), ["d5", "e5", "e6", "f6"]);
        assert_eq!(TRI44.between(d4, cell("d5")), CellSet::EMPTY);
        assert_eq!(TRI44.between(d4, cell("a6")), CellSet::EMPTY);
        assert_eq!(TRI44.between(cell("f7"), d4), TRI44.between(d4, cell("f7")));
    }

    /// A piece on `to` hides from `from` exactly the cells whose way from `from` passes it,
    /// and the lines are the cells with a ray from `from`.
    #[test]
    fn beyond_is_what_a_piece_hides_along_its_ray() {
        let d4 = cell("d4");
        assert!(TRI44.beyond(d4, cell("e6")).contains(cell("f7")));
        assert!(!TRI44.beyond(d4, cell("e6")).contains(cell("e5")));
        assert_eq!(TRI44.beyond(d4, cell("a6")), CellSet::EMPTY);
        for from in TRI44.cells() {
            let rays = TriDirection::ALL.iter().fold(CellSet::EMPTY, |set, &d| set | TRI44.ray_set(from, d));
            assert_eq!(TRI44.lines(from), rays);
            for to in TRI44.cells() {
                let hidden: CellSet = TRI44.cells().filter(|&x| TRI44.between(from, x).contains(to)).collect();
                assert_eq!(TRI44.beyond(from, to), hidden, "{} past {}", TRI44.name(from), TRI44.name(to));
            }
        }
    }
}
