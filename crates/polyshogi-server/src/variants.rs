//! What the lobby shows before a game exists: the playable variants with their seats and rule
//! options (defaults and choices), each board's layout for drawing, and the bot levels.

use std::collections::BTreeMap;

use polyshogi::layout::CellShape;
use polyshogi::piece_moves::piece_moves;
use polyshogi::variant::option_texts::option_text;
use polyshogi::variant::{AnyGame, Variant};
use polyshogi_engine::Level;

use crate::wire;

/// `GET /api/levels`: the playing levels a bot seat may have, weakest first. Each plays the
/// best engine of the game (`EngineKind::best_for`), so a two-player game never gets a
/// three-player search.
pub fn levels() -> Vec<wire::LevelInfo> {
    Level::ALL
        .iter()
        .map(|&level| wire::LevelInfo {
            name: level.name().to_string(),
            label: level.label().to_string(),
            strength: level.strength().to_string(),
            default: level == Level::DEFAULT,
        })
        .collect()
}

/// The level names, for error messages.
pub fn level_names() -> Vec<&'static str> {
    Level::ALL.iter().map(|l| l.name()).collect()
}

/// `GET /api/variants`: every playable variant.
pub fn variants() -> Vec<wire::VariantInfo> {
    Variant::ALL.iter().map(|&v| variant_info(v)).collect()
}

fn variant_info(variant: Variant) -> wire::VariantInfo {
    wire::VariantInfo {
        name: variant.name().to_string(),
        title: variant.title().to_string(),
        seats: variant.seats().iter().map(|&p| variant.seat_name(p).to_string()).collect(),
        options: rule_options(variant),
        note: variant.setup_note().map(str::to_string),
    }
}

/// Each rule option with its default, its choices (none for a number) and its words.
fn rule_options(variant: Variant) -> Vec<wire::RuleOption> {
    variant
        .rule_options()
        .into_iter()
        .map(|option| {
            // Every option has its words: option_texts' test holds the rules crate to it.
            let (label, explanation, source) = match option_text(variant, option.key) {
                Some(words) => (words.label, words.explanation, words.source),
                None => (option.key, "", ""),
            };
            wire::RuleOption {
                key: option.key.to_string(),
                default: option.default,
                values: option.choices.map(|choices| choices.iter().map(|c| c.to_string()).collect()),
                label: label.to_string(),
                explanation: explanation.to_string(),
                source: source.to_string(),
            }
        })
        .collect()
}

/// `GET /api/variants/{name}/pieces`: each piece kind's moves from the middle of the board.
pub fn pieces(variant: Variant) -> Option<Vec<wire::PieceMoves>> {
    let game = AnyGame::new(variant, &[] as &[&str]).ok()?;
    let layout = game.layout();
    let name_of = |cell| layout.cells.iter().find(|c| c.cell == cell).map_or_else(String::new, |c| c.name.clone());
    let piece_name = |letter| variant.piece_names().iter().find(|p| p.letter == letter).map_or("piece", |p| p.name);
    Some(
        piece_moves(variant)
            .into_iter()
            .map(|p| wire::PieceMoves {
                letter: p.letter,
                promoted: p.promoted,
                name: if p.promoted { format!("promoted {}", piece_name(p.letter)) } else { piece_name(p.letter).to_string() },
                from: name_of(p.from),
                reach: p.reach.into_iter().map(name_of).collect(),
            })
            .collect(),
    )
}

/// `GET /api/variants/{name}/rules`: the game's guide for players (docs/variants/), as
/// Markdown, built into the server so that the rules pages need nothing outside it.
pub fn rules_text(variant: Variant) -> &'static str {
    match variant {
        Variant::Sannin => include_str!("../../../docs/variants/sannin.md"),
        Variant::HexShogi91 => include_str!("../../../docs/variants/hexshogi91.md"),
        Variant::Tphs91 => include_str!("../../../docs/variants/tphs91.md"),
        Variant::Sankaku => include_str!("../../../docs/variants/sankaku.md"),
    }
}

/// `GET /api/variants/{name}/layout`: the board for drawing.
pub fn layout(variant: Variant) -> Option<wire::Layout> {
    let game = AnyGame::new(variant, &[] as &[&str]).ok()?;
    let layout = game.layout();
    let name_of = |cell| layout.cells.iter().find(|c| c.cell == cell).map(|c| c.name.clone());
    let cells = layout
        .cells
        .iter()
        .map(|c| wire::LayoutCell {
            name: c.name.clone(),
            shape: match c.shape {
                CellShape::Hexagon => wire::CellShape::Hexagon,
                CellShape::TriangleUp => wire::CellShape::TriangleUp,
                CellShape::TriangleDown => wire::CellShape::TriangleDown,
            },
            x: c.x,
            y: c.y,
        })
        .collect();
    Some(wire::Layout {
        title: variant.title().to_string(),
        cells,
        centre: wire::Centre::Centroid,
        marked: layout.marked.iter().filter_map(|&cell| name_of(cell)).collect(),
        seat_rotation: layout.seat_rotation.clone(),
        pieces: variant.piece_names().iter().map(|p| (p.letter, p.name.to_string())).collect(),
        kanji: kanji(variant),
    })
}

/// Each piece's kanji, and its promoted kanji where the rules let it promote in this variant
/// (Sannin's king does, Hex Shogi 91's does not, though both have the shogi family's pieces).
pub fn kanji(variant: Variant) -> BTreeMap<String, String> {
    let promotes: Vec<char> = piece_moves(variant).iter().filter(|p| p.promoted).map(|p| p.letter).collect();
    let mut glyphs = BTreeMap::new();
    for piece in variant.piece_names() {
        glyphs.insert(piece.letter.to_string(), piece.kanji.to_string());
        if let Some(promoted) = piece.promoted_kanji.filter(|_| promotes.contains(&piece.letter)) {
            glyphs.insert(format!("+{}", piece.letter), promoted.to_string());
        }
    }
    glyphs
}
