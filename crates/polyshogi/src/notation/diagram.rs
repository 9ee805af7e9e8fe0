//! ASCII board diagrams for a terminal: rows of cells, each row shifted by half cells as the
//! board's geometry asks, with the first and last cell named at each end of the row.

use crate::rules::{PieceText, Rules};

/// Each board row, top first: (indent in half cells, cells left to right).
pub type Rows = Vec<(usize, Vec<crate::geometry::Cell>)>;

/// A piece as two or three characters: owner letter in lower case, `+` if promoted, letter.
fn piece_token<P: Rules>(pos: &P, piece: PieceText) -> String {
    let owner = pos.seat_name(piece.player).chars().next().unwrap_or('?').to_ascii_lowercase();
    format!("{owner}{}{}", if piece.promoted { "+" } else { "" }, piece.letter)
}

/// The board as text, empty cells shown as `.`.
pub fn diagram<P: Rules>(pos: &P, rows: &Rows) -> String {
    diagram_with(pos, rows, |_| ".".to_string())
}

/// The board as text, empty cells shown as `empty` says.
pub fn diagram_with<P: Rules>(pos: &P, rows: &Rows, empty: impl Fn(crate::geometry::Cell) -> String) -> String {
    const CELL: usize = 4;
    let mut text = String::new();
    for (indent, cells) in rows {
        let (Some(&first), Some(&last)) = (cells.first(), cells.last()) else { continue };
        let mut line = format!("{:>4} {}", pos.cell_name(first), " ".repeat(indent * CELL / 2));
        for &cell in cells {
            let token = pos.piece_text(cell).map_or_else(|| empty(cell), |p| piece_token(pos, p));
            line.push_str(&format!("{token:^width$}", width = CELL));
        }
        line.push_str(&" ".repeat(indent * CELL / 2));
        line.push_str(&format!(" {}", pos.cell_name(last)));
        text.push_str(line.trim_end());
        text.push('\n');
    }
    text
}
