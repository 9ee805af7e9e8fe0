//! What a board looks like, for drawing it: each cell's shape and centre, the cells to mark,
//! and how far each seat's pieces are turned. Front ends draw from this and know no geometry.

use crate::geometry::Cell;

/// The outline of a cell.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CellShape {
    /// A hexagon with a corner up, circumradius 1.
    Hexagon,
    /// A triangle with its apex up or down, side 2.
    TriangleUp,
    TriangleDown,
}

#[derive(Clone, PartialEq, Debug)]
pub struct CellLayout {
    pub cell: Cell,
    pub name: String,
    pub shape: CellShape,
    /// Centre on screen; y grows downward.
    pub x: f64,
    pub y: f64,
}

#[derive(Clone, PartialEq, Debug)]
pub struct BoardLayout {
    pub cells: Vec<CellLayout>,
    /// Cells with a meaning of their own (the Pleasure Garden).
    pub marked: Vec<Cell>,
    /// Clockwise turn in degrees of each seat's pieces, in seat order: a piece points toward
    /// its owner's forward direction.
    pub seat_rotation: Vec<i32>,
}
