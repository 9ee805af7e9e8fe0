//! The board as lines of terminal text: each rank on one line, each cell a slot of four
//! characters placed by its centre in the layout, so hexagons interleave by half cells and
//! triangles sit side by side; and how the cursor steps from cell to cell.

use polyshogi::layout::{BoardLayout, CellLayout, CellShape};
use polyshogi::Cell;

/// Characters per cell on a line.
pub const SLOT: usize = 4;

/// How far apart (in layout units) two centres may lie in height and still share a row: hex
/// rows are 1.5 apart, a triangle rank's two kinds of centre a third of 1.73.
const ROW_TOLERANCE: f64 = 0.75;

/// One cell where the text board puts it.
#[derive(Clone, Debug)]
pub struct SlotCell {
    pub cell: Cell,
    pub shape: CellShape,
    /// Characters from the start of the board's cells to the start of this cell's slot.
    pub column: usize,
}

/// A rank, left to right, with the names of its end cells for the labels at either side.
#[derive(Clone, Debug)]
pub struct Row {
    pub cells: Vec<SlotCell>,
    pub first_name: String,
    pub last_name: String,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Direction {
    Up,
    Down,
    Left,
    Right,
}

/// The text board of one game, built once from its layout.
#[derive(Clone, Debug)]
pub struct TextBoard {
    pub rows: Vec<Row>,
    /// Characters from the first slot's start to the last slot's end.
    pub width: usize,
    /// Cells with a meaning of their own (the Pleasure Garden).
    pub marked: Vec<Cell>,
}

impl TextBoard {
    /// The board turned so that the seat `bottom` (its index in seat order) sits at the
    /// bottom, as the browser client turns it. Rows are the cells whose turned centres share a
    /// height (within half a hex row: the two triangles of a rank differ by a third of a row);
    /// within a row cells go by x. One step of the finest x spacing on the board is as many
    /// characters as keep neighbours in a row one slot apart: half a slot on hex boards, a
    /// whole slot on the triangle board.
    pub fn new(layout: &BoardLayout, bottom: usize) -> TextBoard {
        let degrees = -layout.seat_rotation.get(bottom).copied().unwrap_or(0);
        let (sin, cos) = f64::from(degrees).to_radians().sin_cos();
        // A triangle turned by an odd number of sixths of a turn points the other way.
        let flips = (f64::from(degrees) / 60.0).round() as i64 % 2 != 0;
        let shape = |shape: CellShape| match shape {
            CellShape::TriangleUp if flips => CellShape::TriangleDown,
            CellShape::TriangleDown if flips => CellShape::TriangleUp,
            other => other,
        };
        // Clockwise on a screen whose y grows downward.
        let mut turned: Vec<(f64, f64, &CellLayout)> =
            layout.cells.iter().map(|c| (c.x * cos - c.y * sin, c.x * sin + c.y * cos, c)).collect();
        turned.sort_by(|a, b| a.1.total_cmp(&b.1));
        let mut rows: Vec<Vec<(f64, f64, &CellLayout)>> = Vec::new();
        for cell in turned {
            match rows.last_mut() {
                Some(row) if cell.1 - row[0].1 < ROW_TOLERANCE => row.push(cell),
                _ => rows.push(vec![cell]),
            }
        }
        for row in &mut rows {
            row.sort_by(|a, b| a.0.total_cmp(&b.0));
        }
        let smallest_gap = |xs: &mut dyn Iterator<Item = f64>| {
            let mut xs: Vec<f64> = xs.collect();
            xs.sort_by(f64::total_cmp);
            xs.windows(2).map(|w| w[1] - w[0]).filter(|&d| d > 1e-6).fold(f64::INFINITY, f64::min)
        };
        let unit = smallest_gap(&mut rows.iter().flatten().map(|c| c.0));
        let in_row = rows.iter().map(|row| smallest_gap(&mut row.iter().map(|c| c.0))).fold(f64::INFINITY, f64::min);
        let chars_per_unit = if unit.is_finite() && in_row.is_finite() { SLOT as f64 * unit / in_row } else { SLOT as f64 };
        let left = rows.iter().flatten().map(|c| c.0).fold(f64::INFINITY, f64::min);
        let rows: Vec<Row> = rows
            .into_iter()
            .map(|cells| Row {
                first_name: cells.first().map(|c| c.2.name.clone()).unwrap_or_default(),
                last_name: cells.last().map(|c| c.2.name.clone()).unwrap_or_default(),
                cells: cells
                    .iter()
                    .map(|&(x, _, c)| SlotCell {
                        cell: c.cell,
                        shape: shape(c.shape),
                        column: ((x - left) / unit * chars_per_unit).round() as usize,
                    })
                    .collect(),
            })
            .collect();
        let width = rows.iter().flat_map(|r| r.cells.last()).map(|c| c.column + SLOT).max().unwrap_or(0);
        TextBoard { rows, width, marked: layout.marked.clone() }
    }

    /// The row and the index in it of `cell`.
    fn locate(&self, cell: Cell) -> Option<(usize, usize)> {
        self.rows.iter().enumerate().find_map(|(r, row)| row.cells.iter().position(|c| c.cell == cell).map(|i| (r, i)))
    }

    /// The cell in the middle of the middle row, where the cursor starts.
    pub fn centre(&self) -> Cell {
        let row = &self.rows[self.rows.len() / 2];
        row.cells[row.cells.len() / 2].cell
    }

    /// The cell one step from `from`: along its rank, or to the nearest cell of the rank above
    /// or below. On a tie up goes right and down goes left, so that up then down comes back.
    pub fn step(&self, from: Cell, direction: Direction) -> Cell {
        let Some((r, i)) = self.locate(from) else { return self.centre() };
        let row = &self.rows[r].cells;
        let target_row = match direction {
            Direction::Left => return row[i.saturating_sub(1)].cell,
            Direction::Right => return row[(i + 1).min(row.len() - 1)].cell,
            Direction::Up if r > 0 => r - 1,
            Direction::Down if r + 1 < self.rows.len() => r + 1,
            _ => return from,
        };
        let column = row[i].column as i64;
        let candidates = &self.rows[target_row].cells;
        let distance = |c: &SlotCell| (c.column as i64 - column).abs();
        let best = candidates.iter().map(distance).min().expect("a rank has cells");
        let mut nearest = candidates.iter().filter(|c| distance(c) == best);
        let chosen = if direction == Direction::Up { nearest.next_back() } else { nearest.next() };
        chosen.expect("a nearest cell").cell
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use polyshogi::variant::{AnyGame, Variant};

    fn board(variant: Variant) -> TextBoard {
        TextBoard::new(&AnyGame::new(variant, &[] as &[&str]).unwrap().layout(), 0)
    }

    #[test]
    fn every_cell_has_one_slot_and_slots_never_overlap() {
        for (variant, bottom) in Variant::ALL.into_iter().flat_map(|v| (0..v.seats().len()).map(move |s| (v, s))) {
            let board = TextBoard::new(&AnyGame::new(variant, &[] as &[&str]).unwrap().layout(), bottom);
            let cells: usize = board.rows.iter().map(|r| r.cells.len()).sum();
            let layout = AnyGame::new(variant, &[] as &[&str]).unwrap().layout();
            assert_eq!(cells, layout.cells.len(), "{variant:?}");
            for row in &board.rows {
                for pair in row.cells.windows(2) {
                    assert_eq!(pair[1].column - pair[0].column, SLOT, "{variant:?}: neighbours in a row sit one slot apart");
                }
            }
            assert_eq!(
                board.rows.len(),
                if variant == Variant::Sankaku {
                    8
                } else if variant == Variant::Sannin {
                    13
                } else {
                    11
                }
            );
        }
        // Hex rows interleave by half a slot.
        let hex = board(Variant::HexShogi91);
        assert_eq!(hex.rows[0].cells[0].column.abs_diff(hex.rows[1].cells[0].column), SLOT / 2);
    }

    #[test]
    fn triangles_turned_for_the_second_seat_point_the_other_way() {
        let layout = AnyGame::new(Variant::Sankaku, &[] as &[&str]).unwrap().layout();
        let shapes = |bottom| {
            let board = TextBoard::new(&layout, bottom);
            let mut shapes: Vec<(Cell, CellShape)> =
                board.rows.iter().flat_map(|r| &r.cells).map(|c| (c.cell, c.shape)).collect();
            shapes.sort_by_key(|(cell, _)| cell.usize());
            shapes
        };
        for ((cell, black), (_, white)) in shapes(0).into_iter().zip(shapes(1)) {
            assert_ne!(black, white, "{cell:?}");
        }
    }

    #[test]
    fn the_cursor_comes_back_up_and_down_and_stops_at_the_edges() {
        for variant in Variant::ALL {
            let board = board(variant);
            let start = board.centre();
            let up = board.step(start, Direction::Up);
            assert_ne!(up, start);
            assert_eq!(board.step(up, Direction::Down), start, "{variant:?}");
            let first = board.rows[0].cells[0].cell;
            assert_eq!(board.step(first, Direction::Up), first);
            assert_eq!(board.step(first, Direction::Left), first);
        }
    }
}
