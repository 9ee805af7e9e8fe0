//! Boards as data: cells, clock directions and per-cell tables, built once.
//! Nothing outside this module does coordinate arithmetic.

mod hex;
mod hour;
mod kept_reaches;
mod names;
mod tri;

pub use crate::cell::Cell;
pub use hex::{HexGrid, HEX127, HEX91};
pub use hour::Hour;
pub use kept_reaches::KeptReaches;
pub use names::{HexNaming, ParseCellError};
pub use tri::{SecondOrthogonal, TriDirection, TriGrid, TRI44, TRI_CELLS};
