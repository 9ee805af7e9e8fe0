//! A piece as a diagram draws it, on the board or in a hand: the client's pentagon in its seat's
//! colours, wearing the piece's letter or, in the kanji set, the layout's kanji.

use std::collections::BTreeMap;
use std::fmt::{self, Write};
use std::str::FromStr;

use polyshogi::variant::Variant;

use super::style::{glyph_size, Escaped, Num, SeatStyle, PIECE_OUTLINE};
use crate::variants;

/// What is written on the pieces, as the client's "Pieces" choice (web/js/piece-set.js).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum PieceSet {
    /// The letters of move text (`P`, `+R`).
    #[default]
    Letters,
    /// A traditional set's kanji where the game has them.
    Kanji,
}

impl FromStr for PieceSet {
    type Err = String;

    fn from_str(text: &str) -> Result<PieceSet, String> {
        match text {
            "letters" => Ok(PieceSet::Letters),
            "kanji" => Ok(PieceSet::Kanji),
            _ => Err(format!("`{text}` is not a piece set (letters or kanji)")),
        }
    }
}

/// What one piece wears: its text, and whether that text is a kanji.
pub struct Glyph {
    pub text: String,
    pub kanji: bool,
}

/// The glyph of every piece of one game in one set.
pub struct Glyphs {
    /// `"R"` / `"+R"` → kanji, in the kanji set.
    kanji: BTreeMap<String, String>,
}

impl Glyphs {
    pub fn new(variant: Variant, set: PieceSet) -> Glyphs {
        Glyphs { kanji: if set == PieceSet::Kanji { variants::kanji(variant) } else { BTreeMap::new() } }
    }

    /// A promoted piece's kanji is a glyph of its own (龍, と), so it needs no `+`; a piece
    /// without a kanji keeps its letter.
    pub fn of(&self, letter: char, promoted: bool) -> Glyph {
        let key = if promoted { format!("+{letter}") } else { letter.to_string() };
        match self.kanji.get(&key) {
            Some(kanji) => Glyph { text: kanji.clone(), kanji: true },
            None => Glyph { text: key, kanji: false },
        }
    }
}

/// Where a piece is drawn: its centre, its clockwise turn in degrees and its size.
pub struct Placement {
    pub x: f64,
    pub y: f64,
    pub rotation: i32,
    pub scale: f64,
}

/// A piece to draw: a `<g>` of class `class` (with `kanji` added for a kanji), carrying
/// `attributes` (written as they are), holding its outline, its glyph and `title`, its name
/// for people.
pub struct DrawnPiece<'a> {
    pub class: &'static str,
    pub attributes: String,
    pub at: Placement,
    pub style: &'a SeatStyle,
    pub promoted: bool,
    pub glyph: Glyph,
    pub title: String,
}

impl DrawnPiece<'_> {
    pub fn write(&self, out: &mut String) -> fmt::Result {
        let DrawnPiece { class, attributes, at, style, promoted, glyph, title } = self;
        let kanji = if glyph.kanji { " kanji" } else { "" };
        write!(
            out,
            r#"<g class="{class}{kanji}"{attributes} transform="translate({} {}) rotate({}) scale({})">"#,
            Num(at.x),
            Num(at.y),
            at.rotation,
            Num(at.scale)
        )?;
        write!(out, r#"<path d="{PIECE_OUTLINE}" fill="{}" stroke="{}" stroke-width="0.07"/>"#, style.fill, style.stroke)?;
        let (size, baseline) = glyph_size(&glyph.text, glyph.kanji);
        let colour = style.promoted.filter(|_| *promoted).unwrap_or(style.text);
        write!(
            out,
            r#"<text y="{baseline}" font-size="{size}" font-weight="700" fill="{colour}" text-anchor="middle" dominant-baseline="central">{}</text>"#,
            Escaped(&glyph.text)
        )?;
        write!(out, "<title>{}</title></g>", Escaped(title))
    }
}

/// A piece's name for people: "First promoted rook".
pub fn piece_title(variant: Variant, seat: &str, letter: char, promoted: bool) -> String {
    let name = variant.piece_names().iter().find(|p| p.letter == letter).map_or("piece", |p| p.name);
    if promoted {
        format!("{seat} promoted {name}")
    } else {
        format!("{seat} {name}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kanji_replace_letters_where_the_game_has_them() {
        let letters = Glyphs::new(Variant::Sannin, PieceSet::Letters);
        assert_eq!(letters.of('R', true).text, "+R");
        let kanji = Glyphs::new(Variant::Sannin, PieceSet::Kanji);
        let dragon = kanji.of('R', true);
        assert!(dragon.kanji);
        assert_eq!(dragon.text, "龍");
        assert_eq!(kanji.of('P', false).text, "歩");
        assert_eq!("kanji".parse(), Ok(PieceSet::Kanji));
        assert!("runes".parse::<PieceSet>().unwrap_err().contains("letters or kanji"));
    }
}
