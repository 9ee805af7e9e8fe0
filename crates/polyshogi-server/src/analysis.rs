//! Live analysis of study positions over a WebSocket (`GET /api/analysis/ws`): the variant's
//! strongest engine searches on a thread of its own, reporting every finished iteration with
//! its best lines (MultiPV) and a value for every seat, until stopped, replaced by another
//! position, or out of time.
//!
//! Analysis shares the machine with live games, so it is rationed: `Analysers` hands out at
//! most `Limits::analysers` slots server-wide and `Limits::address_analyses` per client address.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use polyshogi::mv::{Move, MoveList};
use polyshogi::notation::move_text;
use polyshogi::{with_game, Game, Rules};
use polyshogi_engine::search::child;
use polyshogi_engine::time::Budget;
use polyshogi_engine::{Engine, EngineKind, EngineOptions, Evaluate, Info, Limits, SEARCH_STACK};
use tokio::sync::mpsc;
use tokio::time::{interval_at, Instant as TokioInstant};
use tracing::warn;

use crate::app::AppState;
use crate::client::ClientAddress;
use crate::study::{self, shaped};
use crate::wire::{AnalysisLine, AnalysisMessage, AnalysisReport, AnalysisRequest};
use crate::ws::PING_EVERY;
use crate::{json, json_body::MAX_BODY_BYTES};

/// Lines an analysis may show, and the default.
const MAX_LINES: usize = 5;
const DEFAULT_LINES: usize = 3;
/// The engine's table: analysis goes deep on one position.
const HASH_MB: usize = 32;

/// The analysis slots: how many run, server-wide and per client address.
#[derive(Default)]
pub struct Analysers {
    running: Mutex<(usize, HashMap<IpAddr, usize>)>,
}

/// A slot taken: given back when the search thread ends.
struct Slot {
    app: AppState,
    address: IpAddr,
}

impl Analysers {
    fn take(app: &AppState, address: IpAddr) -> Result<Slot, &'static str> {
        let mut running = app.analysers.running.lock().expect("not poisoned");
        let (total, by_address) = &mut *running;
        let mine = by_address.get(&address).copied().unwrap_or(0);
        if app.limits.address_analyses.is_some_and(|most| mine >= most) {
            return Err("one analysis at a time: stop the other one first");
        }
        if *total >= app.limits.analysers {
            return Err("every analyser is busy: try again in a moment");
        }
        *total += 1;
        *by_address.entry(address).or_default() += 1;
        Ok(Slot { app: app.clone(), address })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut running = self.app.analysers.running.lock().expect("not poisoned");
        let (total, by_address) = &mut *running;
        *total -= 1;
        if let Some(count) = by_address.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                by_address.remove(&self.address);
            }
        }
    }
}

/// `GET /api/analysis/ws`.
pub async fn upgrade(ws: WebSocketUpgrade, State(app): State<AppState>, ClientAddress(address): ClientAddress) -> Response {
    // A study position may hold a game's every move.
    ws.max_frame_size(MAX_BODY_BYTES).max_message_size(MAX_BODY_BYTES).on_upgrade(move |socket| connection(socket, app, address))
}

/// A search running for this connection.
struct Running {
    stop: Arc<AtomicBool>,
    /// Its reports; closed when the search thread ends.
    reports: mpsc::Receiver<AnalysisMessage>,
}

impl Running {
    /// Stops the search and waits for its thread to end (and give its slot back); what it
    /// still had to say is dropped.
    async fn end(mut self) {
        self.stop.store(true, Ordering::Relaxed);
        while self.reports.recv().await.is_some() {}
    }
}

async fn connection(mut socket: WebSocket, app: AppState, address: IpAddr) {
    let mut running: Option<Running> = None;
    let mut ping = interval_at(TokioInstant::now() + PING_EVERY, PING_EVERY);
    loop {
        let report = async {
            match running.as_mut() {
                Some(search) => search.reports.recv().await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            incoming = socket.recv() => {
                let text = match incoming {
                    None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break,
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Binary(_))) => {
                        if send(&mut socket, &error("messages are JSON text, not binary")).await.is_err() {
                            break;
                        }
                        continue;
                    }
                    Some(Ok(_)) => continue,
                };
                if !app.rate_limits.allow_message(address, None) {
                    if send(&mut socket, &error("slow down")).await.is_err() {
                        break;
                    }
                    continue;
                }
                let reply = match read_request(text.as_str()) {
                    Err(message) => Some(error(&message)),
                    Ok(Request::Stop) => match running.take() {
                        Some(search) => {
                            search.end().await;
                            Some(AnalysisMessage::AnalysisEnd { reason: "stopped".into() })
                        }
                        None => None,
                    },
                    Ok(Request::Analyse(analysis)) => {
                        // The board moved on: the old search ends first, giving its slot back.
                        if let Some(search) = running.take() {
                            search.end().await;
                        }
                        match Analysers::take(&app, address) {
                            Ok(slot) => {
                                running = Some(start(analysis, slot));
                                None
                            }
                            Err(message) => Some(error(message)),
                        }
                    }
                };
                if let Some(reply) = reply {
                    if send(&mut socket, &reply).await.is_err() {
                        break;
                    }
                }
            }
            report = report => {
                let message = match report {
                    Some(message) => message,
                    // The thread ended without a word (it panicked): say so once.
                    None => AnalysisMessage::AnalysisEnd { reason: "finished".into() },
                };
                if matches!(message, AnalysisMessage::AnalysisEnd { .. }) {
                    running = None;
                }
                if send(&mut socket, &message).await.is_err() {
                    break;
                }
            }
            _ = ping.tick() => {
                if socket.send(Message::Ping(Default::default())).await.is_err() {
                    break;
                }
            }
        }
    }
    if let Some(search) = running.take() {
        search.end().await;
    }
}

async fn send(socket: &mut WebSocket, message: &AnalysisMessage) -> Result<(), axum::Error> {
    // The wire types have only text keys, so writing them cannot fail.
    socket.send(Message::Text(serde_json::to_string(message).expect("a message is JSON").into())).await
}

fn error(message: &str) -> AnalysisMessage {
    AnalysisMessage::Error { message: message.to_string() }
}

enum Request {
    Analyse(Box<Analysis>),
    Stop,
}

/// A position to analyse, checked.
struct Analysis {
    studied: study::Studied,
    lines: usize,
}

fn read_request(text: &str) -> Result<Request, String> {
    let value = json::parse(text.as_bytes()).map_err(|e| format!("not JSON: {e}"))?;
    match shaped::<AnalysisRequest>(&value)? {
        AnalysisRequest::Stop => Ok(Request::Stop),
        AnalysisRequest::Analyse { position, lines } => {
            let lines = lines.unwrap_or(DEFAULT_LINES);
            if !(1..=MAX_LINES).contains(&lines) {
                return Err(format!("lines: 1 to {MAX_LINES}, not {lines}"));
            }
            Ok(Request::Analyse(Box::new(Analysis { studied: study::play(&position, None)?, lines })))
        }
    }
}

/// Starts the search on a thread of its own; it holds `slot` until it ends.
fn start(analysis: Box<Analysis>, slot: Slot) -> Running {
    let stop = Arc::new(AtomicBool::new(false));
    let (sender, reports) = mpsc::channel(16);
    let flag = Arc::clone(&stop);
    let time_cap = slot.app.limits.analysis_time;
    let spawned = std::thread::Builder::new().name("analysis".into()).stack_size(SEARCH_STACK).spawn(move || {
        let Analysis { studied, lines } = *analysis;
        let started = Instant::now();
        let limits = Limits { movetime_ms: Some(time_cap.as_millis() as u64), ..Limits::default() };
        // The search stops a little before the cap (the engine keeps a margin to answer in
        // time): once past that moment, it was the cap that ended it.
        let stopped_by_time = Budget::new(limits.movetime_ms, None).hard.unwrap_or(time_cap);
        with_game!(&studied.game, g => search(g, lines, &limits, &flag, &sender));
        let reason = if flag.load(Ordering::Relaxed) {
            "stopped"
        } else if started.elapsed() >= stopped_by_time {
            "time"
        } else {
            "finished"
        };
        // The slot is free before the client hears of the end, and may ask again at once.
        drop(slot);
        let _ = sender.blocking_send(AnalysisMessage::AnalysisEnd { reason: reason.into() });
    });
    if let Err(e) = spawned {
        // The closure (and with it the sender and the slot) is dropped: the connection hears
        // the search ended.
        warn!("could not start an analysis thread: {e}");
    }
    Running { stop, reports }
}

/// Searches `game`, sending a report each time an iteration's lines are all in.
fn search<P: Evaluate>(game: &Game<P>, lines: usize, limits: &Limits, stop: &AtomicBool, sender: &mpsc::Sender<AnalysisMessage>) {
    let pos = game.position();
    if pos.outcome().is_some() || pos.decision_pending() {
        return;
    }
    let mut legal = MoveList::new();
    game.legal_moves(&mut legal);
    // Each iteration reports as many lines as there are moves to show.
    let expected = lines.min(legal.len());
    let kind = EngineKind::best_for(pos.variant());
    let mut engine = Engine::with_options(kind, EngineOptions { hash_mb: HASH_MB, multipv: lines, ..EngineOptions::default() });
    let mut iteration: Vec<AnalysisLine> = Vec::with_capacity(expected);
    let mut on_info = |info: &Info| {
        if info.multipv == 1 {
            iteration.clear();
        }
        iteration.push(line_of(pos, info));
        if iteration.len() == expected {
            let report = AnalysisReport {
                depth: info.depth,
                seldepth: info.seldepth,
                nodes: info.nodes,
                nps: info.nodes * 1000 / info.time_ms.max(1),
                time_ms: info.time_ms,
                lines: std::mem::take(&mut iteration),
            };
            // The connection is gone: nobody listens any more.
            if sender.blocking_send(AnalysisMessage::Analysis(Box::new(report))).is_err() {
                stop.store(true, Ordering::Relaxed);
            }
        }
    };
    engine.think(game, limits, stop, &mut on_info);
}

/// One line of a report: each seat's value and the moves, canonical and short, each read in
/// the position before it.
fn line_of<P: Rules>(pos: &P, info: &Info) -> AnalysisLine {
    let scores = pos.seats().iter().zip(&info.scores).map(|(&seat, &score)| (pos.seat_name(seat).to_string(), score)).collect();
    let (moves, short) = pv_texts(pos, &info.pv);
    AnalysisLine { scores, moves, short }
}

/// A line's moves in canonical and short text, up to the end of the game.
pub fn pv_texts<P: Rules>(pos: &P, pv: &[Move]) -> (Vec<String>, Vec<String>) {
    let mut at = pos.clone();
    let mut legal = MoveList::new();
    let (mut canonical, mut short) = (Vec::with_capacity(pv.len()), Vec::with_capacity(pv.len()));
    for &m in pv {
        if at.outcome().is_some() {
            break;
        }
        legal.clear();
        at.legal_moves(&mut legal);
        canonical.push(move_text::canonical(&at, m));
        short.push(move_text::short(&at, &legal, m));
        at = child(&at, m);
    }
    (canonical, short)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_checked_before_anything_runs() {
        let refused = |text: &str| match read_request(text) {
            Err(message) => message,
            Ok(_) => panic!("{text} was taken"),
        };
        assert!(refused("{").starts_with("not JSON"));
        assert!(refused(r#"{"type":"analyse","variant":"chess"}"#).starts_with("variant:"));
        assert_eq!(refused(r#"{"type":"analyse","variant":"sannin","lines":6}"#), "lines: 1 to 5, not 6");
        assert_eq!(
            refused(r#"{"type":"analyse","variant":"sannin","moves":["P3c-4d","P3c-4d"]}"#),
            "move 2: `P3c-4d` is not legal: you have no P on 3c"
        );
        assert!(refused(r#"{"type":"dance"}"#).contains("unknown variant `dance`"), "{}", refused(r#"{"type":"dance"}"#));
        assert!(matches!(read_request(r#"{"type":"stop"}"#), Ok(Request::Stop)));
        let Ok(Request::Analyse(analysis)) = read_request(r#"{"type":"analyse","variant":"sankaku","moves":["Sc3-c4"]}"#) else {
            panic!("a good request")
        };
        assert_eq!((analysis.lines, analysis.studied.moves.len()), (3, 1));
    }
}
