//! The board of a diagram, as web/js/board.js draws it: the layout's cells turned so that one
//! seat sits at the bottom, their shades, the Garden, the last move, a king in check, the pieces.

use std::fmt::{self, Write};

use polyshogi::layout::{BoardLayout, CellLayout, CellShape};
use polyshogi::player::Player;

use super::pieces::{piece_title, DrawnPiece, Glyphs, Placement};
use super::style::{self, mix, seat_style, Escaped, Num};
use super::{DiagramOptions, DiagramPosition};

const SQRT3: f64 = 1.732_050_807_568_877_2;
/// Room around the outermost cells.
const PAD: f64 = 0.25;

/// One cell as drawn: its corners, where its piece sits and how big, where its name goes.
struct DrawnCell<'a> {
    layout: &'a CellLayout,
    corners: Vec<(f64, f64)>,
    centre: (f64, f64),
    piece_scale: f64,
    label_y: f64,
    shade: usize,
}

/// The board turned for one seat, with its extent.
pub struct Board<'a> {
    cells: Vec<DrawnCell<'a>>,
    /// Clockwise degrees the drawing is turned.
    turn: i32,
    min: (f64, f64),
    max: (f64, f64),
}

impl<'a> Board<'a> {
    /// `layout` turned so that `bottom`'s army sits at the bottom, its glyphs upright: the
    /// seat's pieces point its forward way when turned by its `seat_rotation`, so turning the
    /// drawing back by that much points them up.
    pub fn new(layout: &'a BoardLayout, seat_index: usize) -> Board<'a> {
        let turn = (-layout.seat_rotation.get(seat_index).copied().unwrap_or(0)).rem_euclid(360);
        let origin = layout.cells.first().map_or((0.0, 0.0), |c| (c.x, c.y));
        let cells: Vec<DrawnCell> = layout.cells.iter().map(|cell| drawn_cell(cell, turn, origin)).collect();
        let corners = || cells.iter().flat_map(|c| c.corners.iter().copied());
        let min = corners().fold((f64::INFINITY, f64::INFINITY), |(x, y), (px, py)| (x.min(px), y.min(py)));
        let max = corners().fold((f64::NEG_INFINITY, f64::NEG_INFINITY), |(x, y), (px, py)| (x.max(px), y.max(py)));
        Board { cells, turn, min, max }
    }

    pub fn width(&self) -> f64 {
        self.max.0 - self.min.0 + 2.0 * PAD
    }

    pub fn height(&self) -> f64 {
        self.max.1 - self.min.1 + 2.0 * PAD
    }

    /// Draws the board with its top left corner at `at`: the cells, then the last move's
    /// outlines over them, then what stands on each cell.
    pub fn write(&self, out: &mut String, at: (f64, f64), position: &DiagramPosition, options: &DiagramOptions) -> fmt::Result {
        let layout = super::layout(position.variant);
        let glyphs = Glyphs::new(position.variant, options.pieces);
        let seats = position.variant.seats();
        let shift = (at.0 + PAD - self.min.0, at.1 + PAD - self.min.1);
        let points = |cell: &DrawnCell| {
            cell.corners.iter().map(|&(x, y)| format!("{},{}", Num(x + shift.0), Num(y + shift.1))).collect::<Vec<_>>().join(" ")
        };
        let trail = position.last_move.as_ref().map(|last| {
            let colour = match last.mover {
                Some(seat) => seat_style(position.variant.seat_name(seat), seat_index(seats, seat)).trail,
                None => style::NEUTRAL_TRAIL,
            };
            (last, colour)
        });
        let marked =
            |cell: &DrawnCell| trail.filter(|(last, _)| last.cells.contains(&cell.layout.cell)).map(|(_, colour)| colour);

        out.push_str(r#"<g class="board">"#);
        for cell in &self.cells {
            let garden = layout.marked.contains(&cell.layout.cell);
            let base = if garden { style::GARDEN } else { style::CELL_SHADES[cell.shade] };
            let (fill, line, width) = match marked(cell) {
                Some(colour) => (mix(colour, 50, base), colour, 0.06),
                None if garden => (base.to_string(), style::GARDEN_LINE, 0.09),
                None => (base.to_string(), style::CELL_LINE, 0.045),
            };
            write!(
                out,
                r#"<polygon class="cell" data-cell="{}" points="{}" fill="{fill}" stroke="{line}" stroke-width="{width}"/>"#,
                Escaped(&cell.layout.name),
                points(cell)
            )?;
        }
        // The last move's outlines, drawn over every cell so that no neighbour hides half of one.
        for cell in &self.cells {
            if let Some(colour) = marked(cell) {
                write!(
                    out,
                    r#"<polygon class="last-move" points="{}" fill="none" stroke="{colour}" stroke-width="0.12" stroke-linejoin="round"/>"#,
                    points(cell)
                )?;
            }
        }
        let pieces = &position.pieces;
        for cell in &self.cells {
            let (x, y) = (cell.centre.0 + shift.0, cell.centre.1 + shift.1);
            let Some((_, piece)) = pieces.iter().find(|(c, _)| *c == cell.layout.cell) else {
                if layout.marked.contains(&cell.layout.cell) {
                    write!(
                        out,
                        r#"<text class="garden-mark" x="{}" y="{}" font-size="0.9" fill="{}" opacity="0.55" text-anchor="middle" dominant-baseline="central">✿</text>"#,
                        Num(x),
                        Num(y),
                        style::GARDEN_MARK
                    )?;
                }
                if options.coordinates {
                    write!(
                        out,
                        r#"<text class="coordinate" x="{}" y="{}" font-size="0.34" fill="{}" opacity="0.75" text-anchor="middle" dominant-baseline="central">{}</text>"#,
                        Num(x),
                        Num(cell.label_y + shift.1),
                        style::COORDINATE,
                        Escaped(&cell.layout.name)
                    )?;
                }
                continue;
            };
            let index = seat_index(seats, piece.player);
            // A seat has one king: its glow says the seat is in check, promoted king or not.
            if piece.letter == 'K' && position.in_check.contains(piece.player) {
                write!(
                    out,
                    r#"<circle class="check" cx="{}" cy="{}" r="{}" fill="url(#diagram-check-glow)"/>"#,
                    Num(x),
                    Num(y),
                    Num(1.1 * cell.piece_scale)
                )?;
            }
            let seat = position.variant.seat_name(piece.player);
            DrawnPiece {
                class: "piece",
                attributes: format!(
                    r#" data-cell="{}" data-seat="{seat}" data-piece="{}{}""#,
                    Escaped(&cell.layout.name),
                    if piece.promoted { "+" } else { "" },
                    piece.letter
                ),
                // Each army's glyphs face its own side, as the board is turned.
                at: Placement {
                    x,
                    y,
                    rotation: (layout.seat_rotation.get(index).copied().unwrap_or(0) + self.turn).rem_euclid(360),
                    scale: cell.piece_scale,
                },
                style: seat_style(seat, index),
                promoted: piece.promoted,
                glyph: glyphs.of(piece.letter, piece.promoted),
                title: piece_title(position.variant, seat, piece.letter, piece.promoted),
            }
            .write(out)?;
        }
        out.push_str("</g>");
        Ok(())
    }
}

/// A seat's place in turn order, which indexes `seat_rotation` and the fallback colours.
pub fn seat_index(seats: &[Player], seat: Player) -> usize {
    seats.iter().position(|&s| s == seat).unwrap_or(0)
}

/// A layout cell turned `turn` degrees clockwise about the board's centre (y grows downward),
/// with its outline. Hexagons with a corner up stay so under turns of 60°; a half turn flips
/// triangles.
fn drawn_cell(cell: &CellLayout, turn: i32, origin: (f64, f64)) -> DrawnCell<'_> {
    let (sin, cos) = f64::from(turn).to_radians().sin_cos();
    let (x, y) = (cell.x * cos - cell.y * sin, cell.x * sin + cell.y * cos);
    let shape = match (cell.shape, turn) {
        (CellShape::TriangleUp, 180) => CellShape::TriangleDown,
        (CellShape::TriangleDown, 180) => CellShape::TriangleUp,
        (shape, _) => shape,
    };
    let shade = shade(cell, origin);
    match shape {
        CellShape::Hexagon => {
            let corners = (0..6)
                .map(|k| {
                    let (sin, cos) = f64::from(-90 + 60 * k).to_radians().sin_cos();
                    (x + cos, y + sin)
                })
                .collect();
            DrawnCell { layout: cell, corners, centre: (x, y), piece_scale: 0.86, label_y: y + 0.72, shade }
        }
        // (x, y) is the triangle's centroid: its apex is two thirds of its height away.
        CellShape::TriangleUp => {
            let (apex, base) = (2.0 * SQRT3 / 3.0, SQRT3 / 3.0);
            let corners = vec![(x, y - apex), (x + 1.0, y + base), (x - 1.0, y + base)];
            DrawnCell { layout: cell, corners, centre: (x, y), piece_scale: 0.46, label_y: y + 0.3, shade }
        }
        CellShape::TriangleDown => {
            let (apex, base) = (2.0 * SQRT3 / 3.0, SQRT3 / 3.0);
            let corners = vec![(x - 1.0, y - base), (x + 1.0, y - base), (x, y + apex)];
            DrawnCell { layout: cell, corners, centre: (x, y), piece_scale: 0.46, label_y: y - 0.42, shade }
        }
    }
}

/// A shade per cell so that neighbours differ: three for hexagons (by axial coordinates from
/// the first cell, as the client counts them), one per direction for triangles.
fn shade(cell: &CellLayout, origin: (f64, f64)) -> usize {
    match cell.shape {
        CellShape::TriangleUp => 0,
        CellShape::TriangleDown => 2,
        CellShape::Hexagon => {
            let r = ((cell.y - origin.1) / 1.5).round();
            let q = ((cell.x - origin.0) / SQRT3 - r / 2.0).round();
            (q - r).rem_euclid(3.0) as usize
        }
    }
}
