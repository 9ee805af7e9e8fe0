//! What the lobby shows before a game exists: the playable variants with their seats and rule
//! options (defaults and choices), each board's layout for drawing, and the bot levels.

use polyshogi::layout::CellShape;
use polyshogi::variant::options::RuleOptionError;
use polyshogi::variant::{AnyGame, NewGameError, Variant};
use polyshogi::{with_game, Rules};
use polyshogi_engine::EngineKind;
use serde_json::{json, Value};

/// The bot levels the engine offers, by name.
pub fn levels() -> Vec<&'static str> {
    EngineKind::ALL.iter().map(|k| k.name()).collect()
}

/// `GET /api/variants`: every playable variant.
pub fn variants() -> Value {
    Value::Array(Variant::ALL.iter().filter_map(|&v| variant_info(v)).collect())
}

fn variant_info(variant: Variant) -> Option<Value> {
    let game = AnyGame::new(variant, &[] as &[&str]).ok()?;
    let seats: Vec<&str> = with_game!(&game, g => g.position().seats().iter().map(|&p| g.position().seat_name(p)).collect());
    Some(json!({
        "name": variant.name(),
        "seats": seats,
        "options": rule_options(variant, &game),
        "note": note(variant),
    }))
}

/// Each rule option with its default and its choices (null for free text such as a number).
///
/// The library has no list of options with their choices, so they are read from what it says
/// about bad ones: an unknown key lists the known keys, a bad value lists the choices.
fn rule_options(variant: Variant, game: &AnyGame) -> Vec<Value> {
    let keys = match AnyGame::new(variant, &["\u{1}=\u{1}"]) {
        Err(NewGameError::Rules(RuleOptionError::UnknownKey { known, .. })) => known,
        _ => Vec::new(),
    };
    let defaults = default_pairs(game);
    keys.iter()
        .map(|&key| {
            let values: Option<Vec<String>> = match AnyGame::new(variant, &[format!("{key}=\u{1}")]) {
                Err(NewGameError::Rules(RuleOptionError::BadValue { expected, .. })) if expected.contains('|') => {
                    Some(expected.split('|').map(String::from).collect())
                }
                _ => None,
            };
            let default = defaults
                .iter()
                .find_map(|pair| pair.split_once('=').filter(|(k, _)| *k == key).map(|(_, v)| v.to_string()))
                .or_else(|| {
                    // A choice is the default when choosing it changes nothing.
                    values
                        .as_ref()?
                        .iter()
                        .find(|v| {
                            AnyGame::new(variant, &[format!("{key}={v}")])
                                .map(|g| with_game!(&g, g => g.start().non_default_options().is_empty()))
                                .unwrap_or(false)
                        })
                        .cloned()
                })
                .unwrap_or_default();
            json!({ "key": key, "default": default, "values": values })
        })
        .collect()
}

/// Every option of a new game as `key=value` (its defaults), for the games that can tell them.
fn default_pairs(game: &AnyGame) -> Vec<String> {
    if let AnyGame::Sannin(g) = game {
        g.position().rules().to_pairs()
    } else if let AnyGame::HexShogi(g) = game {
        g.position().rules().to_pairs()
    } else if let AnyGame::Sankaku(g) = game {
        g.position().rules().to_pairs()
    } else {
        Vec::new()
    }
}

/// What players should know before they pick the variant.
fn note(variant: Variant) -> Value {
    match variant {
        Variant::Tphs91 => json!(polyshogi::variant::hexshogi::TPHS91_SETUP_NOTE),
        _ => Value::Null,
    }
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
    Some(json!({ "cells": cells, "marked": marked, "seat_rotation": layout.seat_rotation }))
}
