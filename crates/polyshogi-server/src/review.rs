//! Game reviews: every position of a finished game evaluated by the variant's strongest engine,
//! in the background and one game at a time for the whole server (`POST /api/games/{id}/review`),
//! its progress shown while it runs and the whole review stored once done
//! (`GET /api/games/{id}/review`), so that it is never computed twice.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use polyshogi::mv::MoveList;
use polyshogi::notation::move_text;
use polyshogi::notation::play_text::{play_token, Played};
use polyshogi::{with_game, Game};
use polyshogi_engine::eval::terminal_values;
use polyshogi_engine::{Engine, EngineKind, EngineOptions, Evaluate, Limits, SEARCH_STACK};
use tokio::sync::{mpsc, oneshot};
use tracing::{error, info};

use crate::app::{error_response, find_room, AppState};
use crate::room::now_ms;
use crate::store::Store;
use crate::study;
use crate::wire::{Review, ReviewPly};

/// Reviews waiting at most; past it, `503`.
const QUEUE: usize = 20;
/// Scores are held within this many centipawns when losses are counted: a won position does
/// not turn every later move into a blunder.
const SCORE_CAP: i32 = 2_000;
/// What a move's loss must reach to be marked, largest first.
const MARKS: [(i32, &str); 3] = [(700, "blunder"), (300, "mistake"), (100, "inaccuracy")];

/// The reviews asked for and not yet stored, and the queue of games to review.
pub struct Reviews {
    store: Arc<dyn Store>,
    /// Positions searched per ply.
    nodes: u64,
    pending: Mutex<HashMap<String, Review>>,
    queue: mpsc::Sender<(String, String)>,
}

impl Reviews {
    /// The reviews, and the task that works through their queue.
    pub fn start(store: Arc<dyn Store>, nodes: u64) -> Arc<Reviews> {
        let (queue, mut waiting) = mpsc::channel::<(String, String)>(QUEUE);
        let reviews = Arc::new(Reviews { store, nodes, pending: Mutex::new(HashMap::new()), queue });
        let worker = Arc::clone(&reviews);
        tokio::spawn(async move {
            while let Some((game_id, record)) = waiting.recv().await {
                worker.review(game_id, record).await;
            }
        });
        reviews
    }

    /// Reviews one game: searched on a thread of its own, its progress kept in `pending`,
    /// then stored and forgotten here.
    async fn review(self: &Arc<Reviews>, game_id: String, record: String) {
        self.update(&game_id, |review| review.status = "running".into());
        let (done, finished) = oneshot::channel();
        let reviews = Arc::clone(self);
        let id = game_id.clone();
        let spawned = std::thread::Builder::new().name("review".into()).stack_size(SEARCH_STACK).spawn(move || {
            let nodes = reviews.nodes;
            let plies = evaluate_record(&record, nodes, &mut |ply| {
                reviews.update(&id, |review| {
                    review.plies.push(ply);
                    review.done = review.plies.len();
                })
            });
            let _ = done.send(plies);
        });
        let plies = match spawned {
            Ok(_) => finished.await.ok().flatten(),
            Err(e) => {
                error!(game = %game_id, "could not start a review thread: {e}");
                None
            }
        };
        let Some(plies) = plies else {
            error!(game = %game_id, "the review failed: the game's record does not replay");
            self.pending.lock().expect("not poisoned").remove(&game_id);
            return;
        };
        let review = Review { status: "done".into(), done: plies.len(), total: plies.len(), plies };
        let text = serde_json::to_string(&review).expect("a review is JSON");
        // Stored, storage answers from now on; else the review stays here.
        match self.store.save_review(&game_id, now_ms(), &text).await {
            Ok(()) => {
                info!(game = %game_id, "reviewed");
                self.pending.lock().expect("not poisoned").remove(&game_id);
            }
            Err(e) => {
                error!(game = %game_id, "could not store the review (it is shown until the server stops): {e}");
                self.pending.lock().expect("not poisoned").insert(game_id, review);
            }
        }
    }

    fn update(&self, game_id: &str, change: impl FnOnce(&mut Review)) {
        if let Some(review) = self.pending.lock().expect("not poisoned").get_mut(game_id) {
            change(review);
        }
    }

    /// The review of a game as it stands: running or waiting here, or stored.
    async fn find(&self, game_id: &str) -> Result<Option<Review>, String> {
        if let Some(review) = self.pending.lock().expect("not poisoned").get(game_id) {
            return Ok(Some(review.clone()));
        }
        match self.store.review(game_id).await {
            Ok(Some(text)) => serde_json::from_str(&text).map(Some).map_err(|e| format!("a stored review is unreadable: {e}")),
            Ok(None) => Ok(None),
            Err(e) => Err(e.to_string()),
        }
    }
}

/// `GET /api/games/{id}/review`.
pub async fn get_review(State(app): State<AppState>, Path(id): Path<String>) -> Response {
    match app.reviews.find(&id).await {
        Ok(Some(review)) => Json(review).into_response(),
        Ok(None) => error_response(StatusCode::NOT_FOUND, format!("nobody asked for a review of game `{id}`")),
        Err(e) => {
            error!(game = %id, "could not read the review: {e}");
            error_response(StatusCode::INTERNAL_SERVER_ERROR, "the review cannot be read")
        }
    }
}

/// `POST /api/games/{id}/review`: queues the review of a finished game, once.
pub async fn ask_review(State(app): State<AppState>, Path(id): Path<String>) -> Response {
    match app.reviews.find(&id).await {
        Ok(Some(review)) => {
            let status = if review.status == "done" { StatusCode::OK } else { StatusCode::ACCEPTED };
            return (status, Json(review)).into_response();
        }
        Ok(None) => {}
        Err(e) => {
            error!(game = %id, "could not read the review: {e}");
            return error_response(StatusCode::INTERNAL_SERVER_ERROR, "the review cannot be read");
        }
    }
    let room = match find_room(&app, &id).await {
        Ok(room) => room,
        Err(response) => return response,
    };
    let (Some(state), Some(record)) = (room.state().await, room.record().await) else {
        return error_response(StatusCode::SERVICE_UNAVAILABLE, "the game is not available");
    };
    if state.table.outcome.is_none() {
        return error_response(StatusCode::CONFLICT, "the game is not over: a review waits for its end");
    }
    let review = Review { status: "queued".into(), done: 0, total: state.moves.len() + 1, plies: Vec::new() };
    {
        let mut pending = app.reviews.pending.lock().expect("not poisoned");
        if let Some(asked) = pending.get(&id) {
            return (StatusCode::ACCEPTED, Json(asked.clone())).into_response();
        }
        if app.reviews.queue.try_send((id.clone(), record)).is_err() {
            return error_response(StatusCode::SERVICE_UNAVAILABLE, format!("{QUEUE} reviews already wait: try again later"));
        }
        pending.insert(id, review.clone());
    }
    (StatusCode::ACCEPTED, Json(review)).into_response()
}

/// Evaluates the start and the position after every move of a record, handing each ply to
/// `on_ply` as it is done; `None` if the record does not replay.
fn evaluate_record(record: &str, nodes: u64, on_ply: &mut dyn FnMut(ReviewPly)) -> Option<Vec<ReviewPly>> {
    let request = study::record_moves(record).ok()?;
    let (mut game, _) = study::start_game(&request).ok()?;
    with_game!(&mut game, g => evaluate_game(g, &request.moves, nodes, on_ply))
}

/// Plays the tokens on `game`, evaluating the start and the position after each move (with
/// whatever followed it before the next move), then fills in losses and marks.
fn evaluate_game<P: Evaluate>(
    game: &mut Game<P>,
    tokens: &[String],
    nodes: u64,
    on_ply: &mut dyn FnMut(ReviewPly),
) -> Option<Vec<ReviewPly>> {
    let kind = EngineKind::best_for(game.position().variant());
    let mut engine = Engine::with_options(kind, EngineOptions { hash_mb: 16, ..EngineOptions::default() });
    let limits = Limits { nodes: Some(nodes), ..Limits::default() };
    let mut plies: Vec<ReviewPly> = Vec::with_capacity(tokens.len() + 1);
    let mut movers = Vec::with_capacity(tokens.len());
    let mut tokens = tokens.iter().map(|t| t.trim()).peekable();
    loop {
        // Answers and departures after a move belong to the position it reached.
        while let Some(&text) = tokens.peek() {
            if !study::is_interjection(game.position(), text) {
                break;
            }
            play_token(game, text).ok()?;
            tokens.next();
        }
        let ply = evaluate_position(game, &mut engine, &limits, plies.len());
        on_ply(ply.clone());
        plies.push(ply);
        let Some(text) = tokens.next() else { break };
        let Played::Move { player, canonical, .. } = play_token(game, text).ok()? else { return None };
        movers.push((player, canonical));
    }
    // A position with one legal move is not searched: it is worth what its move leads to.
    for index in (0..plies.len().saturating_sub(1)).rev() {
        if plies[index].scores.is_empty() {
            plies[index].scores = plies[index + 1].scores.clone();
        }
    }
    let pos = game.position();
    for (index, (mover, played)) in movers.into_iter().enumerate() {
        let seat = pos.seat_name(mover);
        let value = |ply: &ReviewPly| ply.scores.get(seat).copied().unwrap_or(0).clamp(-SCORE_CAP, SCORE_CAP);
        // The engine's own choice loses nothing by its judgement: a value that falls anyway (the
        // next search sees deeper, or other seats' replies) is not the mover's fault.
        let loss = match plies[index].best.as_deref() == Some(played.as_str()) {
            true => 0,
            false => (value(&plies[index]) - value(&plies[index + 1])).max(0),
        };
        plies[index + 1].loss = Some(loss);
        plies[index + 1].mark = MARKS.iter().find(|(least, _)| loss >= *least).map(|(_, mark)| mark.to_string());
    }
    Some(plies)
}

/// The seats' values at the game's position and the engine's move there. A finished game is
/// valued by its result; a position with a single move is left unscored for the caller.
fn evaluate_position<P: Evaluate>(game: &Game<P>, engine: &mut Engine, limits: &Limits, ply: usize) -> ReviewPly {
    let pos = game.position();
    let seats = pos.seats();
    let named = |values: &[i32]| seats.iter().zip(values).map(|(&s, &v)| (pos.seat_name(s).to_string(), v)).collect();
    let mut review = ReviewPly { ply, scores: Default::default(), best: None, best_short: None, loss: None, mark: None };
    if let Some(outcome) = pos.outcome() {
        let values = terminal_values(outcome, seats, 0);
        let values: Vec<i32> = seats.iter().map(|s| values[s.index()].clamp(-SCORE_CAP, SCORE_CAP)).collect();
        review.scores = named(&values);
        return review;
    }
    let mut legal = MoveList::new();
    game.legal_moves(&mut legal);
    let result = engine.think(game, limits, &AtomicBool::new(false), &mut |_| {});
    if let Some(best) = result.best {
        review.best = Some(move_text::canonical(pos, best));
        review.best_short = Some(move_text::short(pos, &legal, best));
    }
    if legal.len() > 1 {
        review.scores = named(&result.scores);
    }
    review
}
