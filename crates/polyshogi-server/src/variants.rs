//! What the lobby shows before a game exists: the playable variants with their seats and rule
//! options (defaults and choices), each board's layout for drawing, and the bot levels.

use polyshogi::layout::CellShape;
use polyshogi::variant::{AnyGame, Variant};
use polyshogi_engine::EngineKind;
use serde_json::{json, Value};

/// The bot levels the engine offers, by name.
pub fn levels() -> Vec<&'static str> {
    EngineKind::ALL.iter().map(|k| k.name()).collect()
}

/// `GET /api/variants`: every playable variant.
pub fn variants() -> Value {
    Value::Array(Variant::ALL.iter().map(|&v| variant_info(v)).collect())
}

fn variant_info(variant: Variant) -> Value {
    let seats: Vec<&str> = variant.seats().iter().map(|&p| variant.seat_name(p)).collect();
    json!({
        "name": variant.name(),
        "title": variant.title(),
        "seats": seats,
        "options": rule_options(variant),
        "note": variant.setup_note(),
    })
}

/// Each rule option with its default and its choices (null for free text such as a number).
fn rule_options(variant: Variant) -> Vec<Value> {
    variant
        .rule_options()
        .into_iter()
        .map(|option| json!({ "key": option.key, "default": option.default, "values": option.choices }))
        .collect()
}

/// `GET /api/variants/{name}/layout`: the board for drawing.
pub fn layout(variant: Variant) -> Option<Value> {
    let game = AnyGame::new(variant, &[] as &[&str]).ok()?;
    let layout = game.layout();
    let name_of = |cell| layout.cells.iter().find(|c| c.cell == cell).map(|c| c.name.clone());
    let cells: Vec<Value> = layout
        .cells
        .iter()
        .map(|c| {
            let shape = match c.shape {
                CellShape::Hexagon => "hexagon",
                CellShape::TriangleUp => "triangle_up",
                CellShape::TriangleDown => "triangle_down",
            };
            json!({ "name": c.name, "shape": shape, "x": c.x, "y": c.y })
        })
        .collect();
    let marked: Vec<String> = layout.marked.iter().filter_map(|&cell| name_of(cell)).collect();
    let pieces: serde_json::Map<String, Value> =
        variant.piece_names().iter().map(|p| (p.letter.to_string(), json!(p.name))).collect();
    Some(json!({
        "title": variant.title(),
        "cells": cells,
        "centre": "centroid",
        "marked": marked,
        "seat_rotation": layout.seat_rotation,
        "pieces": pieces,
    }))
}
