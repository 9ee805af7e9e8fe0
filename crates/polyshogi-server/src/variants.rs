//! What the lobby shows before a game exists: the playable variants with their seats and rule
//! options (defaults and choices), each board's layout for drawing, and the bot levels.

use polyshogi::layout::CellShape;
use polyshogi::variant::{AnyGame, Variant};
use polyshogi_engine::EngineKind;

use crate::wire;

/// The bot levels the engine offers, by name.
pub fn levels() -> Vec<&'static str> {
    EngineKind::ALL.iter().map(|k| k.name()).collect()
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

/// Each rule option with its default and its choices (none for free text such as a number).
fn rule_options(variant: Variant) -> Vec<wire::RuleOption> {
    variant
        .rule_options()
        .into_iter()
        .map(|option| wire::RuleOption {
            key: option.key.to_string(),
            default: option.default,
            values: option.choices.map(|choices| choices.iter().map(|c| c.to_string()).collect()),
        })
        .collect()
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
    })
}
