//! Beside the board: each seat's name in its colour, whether it is to move, in check or out of
//! the game, and the pieces in its hand with their counts, as the client's players panel.

use std::fmt::{self, Write};

use polyshogi::player::Player;

use super::board::seat_index;
use super::pieces::{piece_title, DrawnPiece, Glyphs, Placement};
use super::style::{self, seat_style, Escaped, Num};
use super::{DiagramOptions, DiagramPosition};

pub const PANEL_WIDTH: f64 = 8.2;
/// A seat's name line, and the gap after each seat.
const NAME_LINE: f64 = 1.0;
const SEAT_GAP: f64 = 0.7;
/// Pieces in hand: so many to a row, each a piece and its count.
const HAND_COLUMNS: usize = 4;
const HAND_ENTRY: f64 = 2.05;
const HAND_ROW: f64 = 1.2;
const HAND_PIECE_SCALE: f64 = 0.7;

/// The seats from the top of the panel down: those after `bottom` in turn order, then `bottom`
/// last, so that the panel reads like the board, the viewer's own side nearest the bottom.
pub fn seat_order(seats: &[Player], bottom: Player) -> Vec<Player> {
    let at = seats.iter().position(|&s| s == bottom).unwrap_or(0);
    (1..=seats.len()).map(|k| seats[(at + k) % seats.len()]).collect()
}

fn hand_rows(hand: &[(char, u8)]) -> usize {
    hand.len().div_ceil(HAND_COLUMNS).max(1)
}

pub fn height(position: &DiagramPosition) -> f64 {
    position.hands.iter().map(|(_, hand)| NAME_LINE + hand_rows(hand) as f64 * HAND_ROW + SEAT_GAP).sum::<f64>() - SEAT_GAP
}

/// Draws the panel with its top left corner at `at`.
pub fn write(out: &mut String, at: (f64, f64), position: &DiagramPosition, options: &DiagramOptions) -> fmt::Result {
    let variant = position.variant;
    let glyphs = Glyphs::new(variant, options.pieces);
    let (x, mut y) = at;
    out.push_str(r#"<g class="seats">"#);
    for seat in seat_order(variant.seats(), options.bottom) {
        let name = variant.seat_name(seat);
        let index = seat_index(variant.seats(), seat);
        let style = seat_style(name, index);
        let hand = position.hands.iter().find(|(s, _)| *s == seat).map_or(&[][..], |(_, hand)| hand.as_slice());
        write!(out, r#"<g class="seat" data-seat="{name}">"#)?;
        // A swatch of the seat's pieces, then its name in the colour that stands for it in text.
        write!(
            out,
            r#"<path d="{}" transform="translate({} {}) scale(0.45)" fill="{}" stroke="{}" stroke-width="0.1"/>"#,
            style::PIECE_OUTLINE,
            Num(x + 0.35),
            Num(y + 0.45),
            style.fill,
            style.stroke
        )?;
        write!(
            out,
            r#"<text x="{}" y="{}" font-size="0.62" font-weight="700" fill="{}">{name}<tspan font-weight="400" font-size="0.46" fill="{}">{}</tspan></text>"#,
            Num(x + 0.9),
            Num(y + 0.68),
            style.stroke,
            style::MUTED,
            Escaped(&seat_notes(position, seat))
        )?;
        let hand_top = y + NAME_LINE;
        if hand.is_empty() {
            write!(
                out,
                r#"<text class="empty-hand" x="{}" y="{}" font-size="0.45" font-style="italic" fill="{}">no pieces in hand</text>"#,
                Num(x + 0.1),
                Num(hand_top + 0.6),
                style::MUTED
            )?;
        }
        for (k, &(letter, count)) in hand.iter().enumerate() {
            let left = x + (k % HAND_COLUMNS) as f64 * HAND_ENTRY;
            let middle = hand_top + (k / HAND_COLUMNS) as f64 * HAND_ROW + HAND_ROW / 2.0;
            DrawnPiece {
                class: "hand-piece",
                attributes: format!(r#" data-seat="{name}" data-piece="{letter}" data-count="{count}""#),
                at: Placement { x: left + 0.5, y: middle, rotation: 0, scale: HAND_PIECE_SCALE },
                style,
                promoted: false,
                glyph: glyphs.of(letter, false),
                title: format!("{}, {count} in hand", piece_title(variant, name, letter, false)),
            }
            .write(out)?;
            write!(
                out,
                r#"<text class="count" x="{}" y="{}" font-size="0.5" fill="{}" dominant-baseline="central">×{count}</text>"#,
                Num(left + 1.02),
                Num(middle + 0.08),
                style::INK
            )?;
        }
        out.push_str("</g>");
        y = hand_top + hand_rows(hand) as f64 * HAND_ROW + SEAT_GAP;
    }
    out.push_str("</g>");
    Ok(())
}

/// What follows a seat's name: to move, in check, out of the game.
fn seat_notes(position: &DiagramPosition, seat: Player) -> String {
    let mut notes = Vec::new();
    if position.to_move == Some(seat) {
        notes.push("to move");
    }
    if position.in_check.contains(seat) {
        notes.push("in check");
    }
    if !position.players_in.contains(seat) {
        notes.push("out of the game");
    }
    notes.iter().map(|note| format!(" · {note}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bottom_seat_comes_last_and_the_others_in_turn_order() {
        let seats = [Player::First, Player::Second, Player::Third];
        assert_eq!(seat_order(&seats, Player::First), [Player::Second, Player::Third, Player::First]);
        assert_eq!(seat_order(&seats, Player::Second), [Player::Third, Player::First, Player::Second]);
        assert_eq!(seat_order(&seats[..2], Player::Second), [Player::First, Player::Second]);
    }
}
