//! The bots' thinking thread: one worker per game keeps an engine per bot seat (its tables
//! carry over between moves) and answers each request on a channel, so the screen stays live
//! while a bot thinks and a stop flag can cut a search short.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;

use polyshogi::notation::move_text;
use polyshogi::player::{ByPlayer, Player};
use polyshogi::variant::AnyGame;
use polyshogi::with_game;
use polyshogi_engine::{Engine, EngineOptions, Level, Limits};

/// A position for a bot to answer, tagged with the app's action count at the time.
pub struct BotRequest {
    pub generation: u64,
    pub seat: Player,
    pub level: Level,
    pub game: AnyGame,
    pub limits: Limits,
}

/// The chosen move in canonical text (`None`: the engine found none or failed).
pub struct BotReply {
    pub generation: u64,
    pub seat: Player,
    pub text: Option<String>,
}

pub struct BotWorker {
    requests: Sender<BotRequest>,
    replies: Receiver<BotReply>,
    stop: Arc<AtomicBool>,
}

impl BotWorker {
    pub fn spawn() -> std::io::Result<BotWorker> {
        let (requests, inbox) = mpsc::channel::<BotRequest>();
        let (outbox, replies) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        // Deep searches recurse: the stack the match command gives its games.
        std::thread::Builder::new().name("bots".into()).stack_size(polyshogi_engine::SEARCH_STACK).spawn(move || {
            let mut engines: ByPlayer<Option<Engine>> = ByPlayer::new(|_| None);
            for request in inbox {
                flag.store(false, Ordering::Relaxed);
                let text = think(&mut engines[request.seat], &request, &flag);
                if outbox.send(BotReply { generation: request.generation, seat: request.seat, text }).is_err() {
                    break;
                }
            }
        })?;
        Ok(BotWorker { requests, replies, stop })
    }

    pub fn ask(&self, request: BotRequest) {
        // The worker only ends when this side is dropped.
        let _ = self.requests.send(request);
    }

    pub fn try_reply(&self) -> Option<BotReply> {
        self.replies.try_recv().ok()
    }

    /// Waits for the reply to the request asked last.
    pub fn wait_reply(&self) -> Option<BotReply> {
        self.replies.recv().ok()
    }

    /// Ends the current search early: it answers with the best move found so far.
    pub fn stop_thinking(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl Drop for BotWorker {
    fn drop(&mut self) {
        self.stop_thinking();
    }
}

fn think(engine: &mut Option<Engine>, request: &BotRequest, stop: &AtomicBool) -> Option<String> {
    let variant = request.game.variant();
    let engine = engine.get_or_insert_with(|| {
        let options = request.level.options(variant, EngineOptions::default());
        Engine::with_options(request.level.settings(variant).kind, options)
    });
    let limits = request.level.limits(variant, &request.limits);
    // A panicking engine must not take the screen down with it: the app plays any legal move.
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        with_game!(&request.game, g => {
            let result = engine.think(g, &limits, stop, &mut |_| {});
            result.best.map(|m| move_text::canonical(g.position(), m))
        })
    }))
    .ok()
    .flatten()
}
