//! Boards as data: cells, clock directions and per-cell tables, built once.
//! Nothing outside this module does coordinate arithmetic.

mod cell;
mod hex;
mod hour;
mod names;

pub use cell::Cell;
pub use hex::{HexGrid, HEX91, HEX127};
pub use hour::Hour;
pub use names::{HexNaming, ParseCellError};
