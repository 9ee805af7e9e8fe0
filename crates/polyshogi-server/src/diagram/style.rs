//! What a diagram shares with the web client's board (web/js/board.js, web/css/style.css): the
//! seat colours, the cell shades, the piece's outline and glyph sizes; and writing SVG text.

use std::fmt;

/// A seat's colours: the piece's body, outline and glyph, the glyph of a promoted piece where
/// it differs, and the colour that marks the seat's move on the board.
pub struct SeatStyle {
    pub fill: &'static str,
    pub stroke: &'static str,
    pub text: &'static str,
    pub promoted: Option<&'static str>,
    pub trail: &'static str,
}

/// The colours of each seat by name, as board.js's `SEAT_STYLES`: the two-colour armies write
/// promoted pieces in red, as a traditional set does; the Sannin armies' glyphs keep their
/// seat's colour, which is what tells them apart.
const SEAT_STYLES: [(&str, SeatStyle); 6] = [
    ("First", SeatStyle { fill: "#fbeccb", stroke: "#b3261e", text: "#b3261e", promoted: None, trail: "#d0342c" }),
    ("Middle", SeatStyle { fill: "#fbeccb", stroke: "#1f4fa8", text: "#1f4fa8", promoted: None, trail: "#2f6fe0" }),
    ("Last", SeatStyle { fill: "#fbeccb", stroke: "#1b7a3a", text: "#1b7a3a", promoted: None, trail: "#23a04c" }),
    ("Black", SeatStyle { fill: "#2f2f2f", stroke: "#111", text: "#fff", promoted: Some("#ff8f85"), trail: "#3a3a3a" }),
    ("White", SeatStyle { fill: "#fffdf6", stroke: "#555", text: "#222", promoted: Some("#c0231b"), trail: "#ffffff" }),
    ("Gray", SeatStyle { fill: "#a3a8ad", stroke: "#4a4f55", text: "#111", promoted: Some("#8e0c0c"), trail: "#5d6670" }),
];

/// A seat's colours; a seat name the client does not know takes the Sannin colours by index.
pub fn seat_style(name: &str, index: usize) -> &'static SeatStyle {
    SEAT_STYLES.iter().find(|(seat, _)| *seat == name).map_or(&SEAT_STYLES[index % 3].1, |(_, style)| style)
}

/// The page's colours around the board.
pub const BACKGROUND: &str = "#fffdf8";
pub const INK: &str = "#222";
pub const MUTED: &str = "#6b6459";
/// The three shades of the cells, so that neighbours differ, and the Garden's.
pub const CELL_SHADES: [&str; 3] = ["#e9d3a4", "#dfc48e", "#f2e2bf"];
pub const CELL_LINE: &str = "#7a5a2e";
pub const GARDEN: &str = "#f7c948";
pub const GARDEN_LINE: &str = "#9a6b00";
pub const GARDEN_MARK: &str = "#b8860b";
pub const COORDINATE: &str = "#6d5634";
/// A move whose mover is unknown (a move text naming only empty cells).
pub const NEUTRAL_TRAIL: &str = "#8a4b08";

/// A shogi piece: a pentagon pointing up, toward its owner's forward direction, in a unit box.
pub const PIECE_OUTLINE: &str = "M0,-0.78 L0.52,-0.5 L0.64,0.66 L-0.64,0.66 L-0.52,-0.5 Z";

/// The font sizes the client writes a glyph in: a kanji fills the body's width; a glyph of two
/// characters (a letter with its `+`, or a two-kanji name) is smaller, to stay inside the piece.
/// Returns (size, baseline offset).
pub fn glyph_size(text: &str, kanji: bool) -> (f64, f64) {
    let size = match (text.chars().count() > 1, kanji) {
        (true, true) => 0.46,
        (true, false) => 0.62,
        (false, true) => 0.8,
        (false, false) => 0.78,
    };
    (size, if kanji { 0.06 } else { 0.1 })
}

/// The fonts, as the client's stylesheet names them: kanji in a brush-like serif (Mincho).
pub const STYLE_SHEET: &str = "text { font-family: system-ui, -apple-system, \"Segoe UI\", Roboto, \"Noto Sans\", sans-serif; } \
.kanji text, text.kanji { font-family: \"Noto Serif CJK JP\", \"Hiragino Mincho ProN\", \"Yu Mincho\", \"YuMincho\", \"IPAMincho\", \"Noto Sans CJK JP\", serif; font-weight: 900; }";

/// `colour` mixed into `base`, `percent` of it (as CSS `color-mix(in srgb, …)`, which the
/// client uses and not every SVG reader knows). Both are `#rgb` or `#rrggbb`.
pub fn mix(colour: &str, percent: u32, base: &str) -> String {
    let (a, b) = (rgb(colour), rgb(base));
    let channel = |i: usize| (f64::from(a[i]) * f64::from(percent) + f64::from(b[i]) * f64::from(100 - percent)) / 100.0;
    format!("#{:02x}{:02x}{:02x}", channel(0).round() as u8, channel(1).round() as u8, channel(2).round() as u8)
}

fn rgb(colour: &str) -> [u8; 3] {
    let hex = colour.trim_start_matches('#');
    let digit = |i: usize, width: usize| {
        let value = u8::from_str_radix(&hex[i * width..(i + 1) * width], 16).expect("the colours above are hex");
        if width == 1 {
            value * 17
        } else {
            value
        }
    };
    let width = if hex.len() == 3 { 1 } else { 2 };
    [digit(0, width), digit(1, width), digit(2, width)]
}

/// A coordinate written short: at most three decimals, no trailing zeros, no `-0`.
pub struct Num(pub f64);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rounded = (self.0 * 1000.0).round() / 1000.0;
        let text = format!("{:.3}", if rounded == 0.0 { 0.0 } else { rounded });
        f.write_str(text.trim_end_matches('0').trim_end_matches('.'))
    }
}

/// Text made safe for SVG content and attribute values.
pub struct Escaped<'a>(pub &'a str);

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            match c {
                '&' => f.write_str("&amp;")?,
                '<' => f.write_str("&lt;")?,
                '>' => f.write_str("&gt;")?,
                '"' => f.write_str("&quot;")?,
                '\'' => f.write_str("&apos;")?,
                // XML 1.0 allows no other control character, even escaped.
                c if c.is_control() && !matches!(c, '\t' | '\n' | '\r') => f.write_str("\u{fffd}")?,
                c => write!(f, "{c}")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_mix_as_css_color_mix_does() {
        assert_eq!(mix("#d0342c", 50, "#e9d3a4"), "#dd8468");
        assert_eq!(mix("#fff", 100, "#000"), "#ffffff");
        assert_eq!(mix("#fff", 0, "#123456"), "#123456");
    }

    #[test]
    fn numbers_are_short_and_text_is_escaped() {
        assert_eq!(Num(1.0).to_string(), "1");
        assert_eq!(Num(-0.0001).to_string(), "0");
        assert_eq!(Num(-1.73205).to_string(), "-1.732");
        assert_eq!(Escaped("<a & \"b\">'\u{1}").to_string(), "&lt;a &amp; &quot;b&quot;&gt;&apos;\u{fffd}");
    }

    #[test]
    fn an_unknown_seat_name_takes_a_colour_by_index() {
        assert_eq!(seat_style("White", 1).fill, "#fffdf6");
        assert_eq!(seat_style("Somebody", 4).stroke, seat_style("Middle", 1).stroke);
    }
}
