//! Study positions: any position of any game, given as a start and moves or as a record, for
//! the analysis board and the engine's analysis. Nothing is stored: each request replays its
//! moves (at most `MAX_STUDY_MOVES`), which costs well under a millisecond per hundred moves.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use polyshogi::mv::MoveList;
use polyshogi::notation::departure;
use polyshogi::notation::describe::event_text;
use polyshogi::notation::move_text;
use polyshogi::notation::play_text::{play_token, Played};
use polyshogi::notation::record::read_record;
use polyshogi::outcome::Event;
use polyshogi::player::ByPlayer;
use polyshogi::replay::record_rule_options;
use polyshogi::variant::{AnyGame, Variant};
use polyshogi::{with_game, Game, Rules};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::app::error_response;
use crate::json;
use crate::json_body::JsonBody;
use crate::rule_list::checked_rules;
use crate::table::Table;
use crate::wire::{self, MoveEntry, StudyMoves, StudyRecord};

/// The most moves a study position replays: a game's own move limit.
pub const MAX_STUDY_MOVES: usize = 3000;

/// A study position played out: the game at its end and the moves that led there.
pub struct Studied {
    pub game: AnyGame,
    pub rules: Vec<String>,
    /// The start as a position string.
    pub start: String,
    pub moves: Vec<MoveEntry>,
    /// The places, if the moves ended the game.
    placings: Option<ByPlayer<u8>>,
}

/// `POST /api/study/position`.
pub async fn study_position(JsonBody(body): JsonBody) -> Response {
    let studied = json::parse_body(&body).and_then(|value| request(&value)).and_then(|(moves, cut)| play(&moves, cut));
    match studied {
        Ok(studied) => Json(view(studied)).into_response(),
        Err(message) => error_response(StatusCode::BAD_REQUEST, message),
    }
}

/// A study request read from JSON: a record becomes its start and moves, and how many of its
/// moves to keep.
pub fn request(value: &Value) -> Result<(StudyMoves, Option<usize>), String> {
    if !value.is_object() {
        return Err("body: expected a JSON object".into());
    }
    if value.get("record").is_none() {
        return Ok((shaped::<StudyMoves>(value)?, None));
    }
    let StudyRecord { record, ply } = shaped(value)?;
    Ok((record_moves(&record)?, ply))
}

/// A record's variant, rules, start and move texts.
pub fn record_moves(record: &str) -> Result<StudyMoves, String> {
    let text = read_record(record).map_err(|e| format!("record: {e}"))?;
    let variant = text.tag("Variant").ok_or("record: no [Variant \"…\"] tag")?.to_string();
    Ok(StudyMoves {
        variant,
        rules: record_rule_options(&text),
        start: text.tag("Position").map(str::to_string),
        moves: text.moves.into_iter().map(|token| token.text).collect(),
    })
}

/// Reads a JSON value as `T`, naming the field that does not fit.
pub fn shaped<T: DeserializeOwned>(value: &Value) -> Result<T, String> {
    serde_path_to_error::deserialize(value).map_err(|e| match e.path().to_string().as_str() {
        "." => e.inner().to_string(),
        path => format!("{path}: {}", e.inner()),
    })
}

/// Plays a study position's moves from its start, keeping the first `cut` moves (and what
/// followed the last of them) when asked.
pub fn play(request: &StudyMoves, cut: Option<usize>) -> Result<Studied, String> {
    let (mut game, rules) = start_game(request)?;
    let start = game.position_text();
    let (moves, placings) = with_game!(&mut game, g => play_moves(g, &request.moves, cut))?;
    if let Some(cut) = cut.filter(|&cut| cut > moves.len()) {
        return Err(format!("ply {cut} is past the record's {} moves", moves.len()));
    }
    Ok(Studied { game, rules, start, moves, placings })
}

/// The game at a study position's start, and its rule options checked.
pub fn start_game(request: &StudyMoves) -> Result<(AnyGame, Vec<String>), String> {
    let variant: Variant = request.variant.parse().map_err(|e| format!("variant: {e}"))?;
    let rules = checked_rules(variant, &request.rules)?;
    if request.moves.len() > MAX_STUDY_MOVES {
        return Err(format!("moves: at most {MAX_STUDY_MOVES}, got {}", request.moves.len()));
    }
    let game = match &request.start {
        None => AnyGame::new(variant, &rules).map_err(|e| format!("rules: {e}"))?,
        Some(text) => {
            let game = AnyGame::from_position_text(text, &rules).map_err(|e| format!("start: {e}"))?;
            if game.variant() != variant {
                return Err(format!("start: the position is {}, the variant is {}", game.variant().name(), variant.name()));
            }
            game
        }
    };
    Ok((game, rules))
}

/// Whether a move text is an answer to a proposed alliance or a departure rather than a move.
pub fn is_interjection<P: Rules>(pos: &P, text: &str) -> bool {
    matches!(text, "accept" | "refuse") || departure::parse(pos, text).is_some()
}

/// Plays the move texts in order, stopping before the move after the first `cut`; the moves
/// as the game state lists them, and the places if the game ended.
fn play_moves<P: Rules>(
    game: &mut Game<P>,
    texts: &[String],
    cut: Option<usize>,
) -> Result<(Vec<MoveEntry>, Option<ByPlayer<u8>>), String> {
    let mut moves: Vec<MoveEntry> = Vec::new();
    let mut placings = None;
    let mut legal = MoveList::new();
    for (index, text) in texts.iter().enumerate() {
        let text = text.trim();
        if !is_interjection(game.position(), text) && cut == Some(moves.len()) {
            // The move after the cut: what came before it is the position asked for.
            break;
        }
        let before = game.position().clone();
        legal.clear();
        game.legal_moves(&mut legal);
        let played = play_token(game, text).map_err(|e| format!("move {}: {e}", index + 1))?;
        let events = match &played {
            Played::Move { events, .. } | Played::Interjection { events } => events.clone(),
        };
        let texts: Vec<String> = events.iter().map(|e| event_text(game.position(), e)).collect();
        for event in events.iter() {
            if let Event::GameOver { placings: places, .. } = event {
                placings = Some(*places);
            }
        }
        match played {
            Played::Move { player, mv, canonical, .. } => moves.push(MoveEntry {
                ply: moves.len() + 1,
                seat: before.seat_name(player).to_string(),
                canonical,
                short: move_text::short(&before, &legal, mv),
                events: texts,
            }),
            // Answers and departures are told among the events of the move before them.
            Played::Interjection { .. } => {
                if let Some(last) = moves.last_mut() {
                    last.events.extend(texts);
                }
            }
        }
    }
    Ok((moves, placings))
}

/// What the client shows of a study position.
pub fn view(studied: Studied) -> wire::StudyPosition {
    let Studied { game, rules, start, moves, placings } = studied;
    let variant = game.variant().name().to_string();
    let table = Table::from_game(game, placings).view();
    wire::StudyPosition {
        variant,
        rules,
        start,
        moves,
        drawn: table.drawn,
        position: table.position,
        legal_moves: table.legal_moves,
        alliance: table.alliance,
        pending_alliance: table.pending_alliance,
        outcome: table.outcome,
    }
}
