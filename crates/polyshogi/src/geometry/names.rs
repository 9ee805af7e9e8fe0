//! Cell names on hexagonal boards: Sannin's column + rank (`7g`) and Hex Shogi 91's
//! file + rank (`6f`). Both are a number followed by a rank letter, top rank `a`.

use std::fmt;

use super::{Cell, HexGrid};

/// How a hexagonal board names its cells.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum HexNaming {
    /// Columns run top-left to bottom-right, numbered from 1 on the right (RULES.md §1.1).
    Sannin,
    /// Files run bottom-left to top-right, numbered from 1 on the right (RULES.md §2.1).
    HexShogi91,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ParseCellError {
    /// The text is not a number followed by one lowercase letter.
    Malformed(String),
    /// The text has the right shape but names no cell of this board.
    OffBoard(String),
}

impl fmt::Display for ParseCellError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseCellError::Malformed(text) => {
                write!(f, "`{text}` is not a cell name of this board")
            }
            ParseCellError::OffBoard(text) => write!(f, "`{text}` is not a cell of this board"),
        }
    }
}

impl std::error::Error for ParseCellError {}

impl HexNaming {
    /// The name of a cell, e.g. `7g`.
    pub fn name(self, grid: &HexGrid, cell: Cell) -> String {
        let (q, r) = grid.axial(cell);
        let radius = grid.radius();
        let number = match self {
            HexNaming::Sannin => radius + 1 - q,
            HexNaming::HexShogi91 => radius + 1 - q - r,
        };
        let rank = (b'a' + (r + radius) as u8) as char;
        format!("{number}{rank}")
    }

    /// The cell a name stands for.
    pub fn parse(self, grid: &HexGrid, text: &str) -> Result<Cell, ParseCellError> {
        let malformed = || ParseCellError::Malformed(text.to_string());
        let digits = text.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 || digits > 2 || text.len() != digits + 1 {
            return Err(malformed());
        }
        let number: i8 = text[..digits].parse().map_err(|_| malformed())?;
        let letter = text.as_bytes()[digits];
        if !letter.is_ascii_lowercase() {
            return Err(malformed());
        }
        let radius = grid.radius();
        let r = (letter - b'a') as i8 - radius;
        let q = match self {
            HexNaming::Sannin => radius + 1 - number,
            HexNaming::HexShogi91 => radius + 1 - number - r,
        };
        grid.at(q, r).ok_or_else(|| ParseCellError::OffBoard(text.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{HEX127, HEX91};

    #[test]
    fn sannin_corners_and_garden_have_their_source_names() {
        let grid = &*HEX127;
        assert_eq!(HexNaming::Sannin.name(grid, grid.centre()), "7g");
        // Corners listed in RULES.md §1.1.
        for name in ["1a", "7a", "1g", "13g", "7m", "13m"] {
            let cell = HexNaming::Sannin.parse(grid, name).unwrap();
            assert_eq!(HexNaming::Sannin.name(grid, cell), name);
        }
        assert_eq!(HexNaming::Sannin.parse(grid, "8a"), Err(ParseCellError::OffBoard("8a".into())));
        assert_eq!(HexNaming::Sannin.parse(grid, "1m"), Err(ParseCellError::OffBoard("1m".into())));
        assert!(matches!(HexNaming::Sannin.parse(grid, "g7"), Err(ParseCellError::Malformed(_))));
    }

    #[test]
    fn every_cell_name_round_trips_on_both_boards() {
        for (grid, naming) in [(&*HEX127, HexNaming::Sannin), (&*HEX91, HexNaming::HexShogi91)] {
            for cell in grid.cells() {
                assert_eq!(naming.parse(grid, &naming.name(grid, cell)), Ok(cell));
            }
        }
    }

    #[test]
    fn hex_shogi_91_centre_is_6f_and_rank_a_spans_files_6_to_11() {
        let grid = &*HEX91;
        assert_eq!(HexNaming::HexShogi91.name(grid, grid.centre()), "6f");
        for file in 6..=11 {
            assert!(HexNaming::HexShogi91.parse(grid, &format!("{file}a")).is_ok());
        }
        assert!(HexNaming::HexShogi91.parse(grid, "5a").is_err());
    }
}
