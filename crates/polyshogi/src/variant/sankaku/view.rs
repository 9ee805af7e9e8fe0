//! How front ends see a Sankaku position beyond the `Rules` trait: the board for drawing.

use super::position::SankakuPosition;
use crate::layout::{BoardLayout, CellLayout, CellShape};

impl SankakuPosition {
    /// The board for drawing: triangles with their apex up or down, Black's rank 1 at the
    /// bottom. Sankaku pieces have no forward direction (§3.3); White's are drawn turned
    /// round all the same, as shogi pieces show their owner.
    pub fn layout(&self) -> BoardLayout {
        let grid = self.grid;
        let cells = grid
            .cells()
            .map(|cell| {
                let (x, y) = grid.pixel_centre(cell);
                let shape = if grid.is_up(cell) { CellShape::TriangleUp } else { CellShape::TriangleDown };
                CellLayout { cell, name: grid.name(cell), shape, x, y }
            })
            .collect();
        BoardLayout { cells, marked: Vec::new(), seat_rotation: vec![0, 180] }
    }
}
