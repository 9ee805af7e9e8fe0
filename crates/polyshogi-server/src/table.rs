//! The rules side of a live game, without I/O: the game itself and the draw offers on the
//! table (who is still in and who has answered an alliance, the rules know); applies one seat's
//! action at a time or refuses it, changing nothing.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use polyshogi::mv::MoveList;
use polyshogi::notation::describe::{event_text, outcome_text};
use polyshogi::notation::{move_text, play_text};
use polyshogi::outcome::Event;
use polyshogi::piece::Role;
use polyshogi::player::{ByPlayer, Player, PlayerSet};
use polyshogi::rules::{Alliance, PositionView};
use polyshogi::variant::{AnyGame, NewGameError, Variant};
use polyshogi::{with_game, Cell, Departure, Game, Rules};

use crate::wire;

/// What a seat asks for.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Action {
    /// A move in canonical or short text.
    Move(String),
    /// An answer to a proposed alliance.
    Answer(bool),
    Resign,
    /// The seat's clock ran out (the server's action, never a client's).
    Flag,
    OfferDraw,
    /// Turns down the draw offered by the others.
    DeclineDraw,
    /// Asks to take back one's last move (and every move after it).
    RequestTakeback,
    /// Answers another player's takeback request.
    AnswerTakeback(bool),
}

/// Why an action was refused, in words for the player.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Refusal(pub String);

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn refuse<T>(message: impl Into<String>) -> Result<T, Refusal> {
    Err(Refusal(message.into()))
}

/// One thing that happened, for the move list and the record.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LogEntry {
    pub seat: Player,
    pub kind: EntryKind,
    /// What it set off, in words.
    pub events: Vec<String>,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub enum EntryKind {
    Move {
        canonical: String,
        short: String,
    },
    /// The answer that settled a proposed alliance.
    Decision {
        accept: bool,
    },
    Resign,
    Flag,
    /// A draw by agreement; `seat` is the player whose offer completed it.
    Draw,
    /// `seat` turned the draw offers down.
    DrawDeclined,
    /// The game went back to its first `to_plies` moves; the log forgets what came after.
    Takeback {
        to_plies: usize,
    },
    /// `seat` turned a takeback request down.
    TakebackDeclined,
}

/// A player's request to take back his last move, waiting for the others' consent.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TakebackRequest {
    pub by: Player,
    /// The number of moves that stay: those before the requester's last move.
    pub to_plies: usize,
    /// The players who have agreed so far.
    accepted: PlayerSet,
}

/// An action that was applied: what to store and what to log.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Applied {
    /// The stored form: the canonical move text, `accept`/`refuse`, or empty.
    pub detail: String,
    pub entries: Vec<LogEntry>,
}

/// A game in play and the state around it that the rules do not keep.
#[derive(Clone, Debug)]
pub struct Table {
    game: AnyGame,
    draw_offers: PlayerSet,
    takeback: Option<TakebackRequest>,
    placings: Option<ByPlayer<u8>>,
    /// The cells of the board, in layout order.
    cells: Arc<Vec<Cell>>,
}

impl Table {
    pub fn new(variant: Variant, rules: &[String]) -> Result<Table, NewGameError> {
        let game = AnyGame::new(variant, rules)?;
        let cells = Arc::new(game.layout().cells.into_iter().map(|c| c.cell).collect());
        Ok(Table { game, draw_offers: PlayerSet::EMPTY, takeback: None, placings: None, cells })
    }

    /// The table of a game played elsewhere (a study position): no offers on it, and the
    /// places its end gave, if it ended.
    pub fn from_game(game: AnyGame, placings: Option<ByPlayer<u8>>) -> Table {
        let cells = Arc::new(game.layout().cells.into_iter().map(|c| c.cell).collect());
        Table { game, draw_offers: PlayerSet::EMPTY, takeback: None, placings, cells }
    }

    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    pub fn seats(&self) -> Vec<Player> {
        self.game.position().seats().to_vec()
    }

    pub fn seat_name(&self, seat: Player) -> &'static str {
        self.game.position().seat_name(seat)
    }

    pub fn seat_by_name(&self, name: &str) -> Option<Player> {
        self.seats().into_iter().find(|&s| self.seat_name(s) == name)
    }

    pub fn is_over(&self) -> bool {
        self.game.position().outcome().is_some()
    }

    /// Whether `seat` still plays: the game goes on and the rules count him in.
    pub fn is_in(&self, seat: Player) -> bool {
        self.active(seat) && !self.is_over()
    }

    /// The seat to move, unless the game is over.
    pub fn to_move(&self) -> Option<Player> {
        let position = self.game.position();
        position.outcome().is_none().then(|| position.to_move())
    }

    /// Whether the game waits for allies to answer a proposed alliance.
    pub fn decision_pending(&self) -> bool {
        let position = self.game.position();
        position.outcome().is_none() && position.decision_pending()
    }

    /// The seat whose clock runs: the seat to move, unless the game waits for a decision or
    /// the seat to move is out of the game (the server passes for him at once).
    pub fn clock_runner(&self) -> Option<Player> {
        if self.decision_pending() {
            return None;
        }
        self.to_move().filter(|&seat| self.active(seat))
    }

    /// The seat to move when he is out of the game and his only action is a pass (Three
    /// Player Hex Shogi 91: without pieces, or out of time), which the server plays for him.
    pub fn forced_pass(&self) -> Option<Player> {
        self.to_move().filter(|&seat| !self.active(seat) && !self.decision_pending())
    }

    /// The allies of a proposed alliance who have not accepted it yet.
    pub fn pending_answers(&self) -> PlayerSet {
        if !self.decision_pending() {
            return PlayerSet::EMPTY;
        }
        self.game.position().awaiting_answer()
    }

    pub fn draw_offers(&self) -> PlayerSet {
        self.draw_offers
    }

    /// The takeback asked for, if any.
    pub fn takeback(&self) -> Option<TakebackRequest> {
        self.takeback
    }

    /// The players whose consent the takeback request still waits for: every other player in.
    pub fn takeback_waiting(&self) -> PlayerSet {
        let Some(request) = self.takeback else { return PlayerSet::EMPTY };
        let mut waiting = PlayerSet::EMPTY;
        for seat in self.seats() {
            if seat != request.by && self.active(seat) && !request.accepted.contains(seat) {
                waiting.insert(seat);
            }
        }
        waiting
    }

    /// The outcome in words, once the game is over.
    pub fn outcome_text(&self) -> Option<String> {
        let position = self.game.position();
        position.outcome().map(|o| outcome_text(position, o))
    }

    /// Applies `seat`'s action, or refuses it and changes nothing.
    pub fn apply(&mut self, seat: Player, action: &Action) -> Result<Applied, Refusal> {
        if !self.seats().contains(&seat) {
            return refuse("no such seat in this game");
        }
        if self.is_over() {
            return refuse("the game is over");
        }
        // A seat out of the game still makes its forced passes, and nothing else.
        if !self.active(seat) && !matches!(action, Action::Move(_)) {
            return refuse(format!("{} is no longer in the game", self.seat_name(seat)));
        }
        let applied = match action {
            Action::Move(text) => self.play(seat, text)?,
            Action::Answer(accept) => self.answer(seat, *accept)?,
            Action::Resign | Action::Flag => self.leave(seat, action == &Action::Flag)?,
            Action::OfferDraw => self.offer_draw(seat)?,
            Action::DeclineDraw => self.decline_draw(seat)?,
            Action::RequestTakeback => self.request_takeback(seat)?,
            Action::AnswerTakeback(accept) => self.answer_takeback(seat, *accept)?,
        };
        Ok(applied)
    }

    fn play(&mut self, seat: Player, text: &str) -> Result<Applied, Refusal> {
        if self.decision_pending() {
            return refuse("a proposed alliance must be answered first");
        }
        if self.to_move() != Some(seat) {
            let mover = self.to_move().map(|p| self.seat_name(p)).unwrap_or("nobody");
            return refuse(format!("it is not your turn: {mover} is to move"));
        }
        let text = text.trim();
        if text.is_empty() {
            return refuse("the move is empty");
        }
        let (canonical, short, events) = with_game!(&mut self.game, g => play_move_text(g, text))?;
        // Playing on declines the offers on the table, unless the mover offered himself.
        if !self.draw_offers.contains(seat) {
            self.draw_offers = PlayerSet::EMPTY;
        }
        let events = self.absorb(events);
        Ok(Applied {
            detail: canonical.clone(),
            entries: vec![LogEntry { seat, kind: EntryKind::Move { canonical, short }, events }],
        })
    }

    fn answer(&mut self, seat: Player, accept: bool) -> Result<Applied, Refusal> {
        let detail = if accept { "accept" } else { "refuse" }.to_string();
        let settled = self.game.answer_as(seat, accept).map_err(|e| Refusal(e.to_string()))?;
        let Some(events) = settled else { return Ok(Applied { detail, entries: Vec::new() }) };
        let events = describe(self.game.position(), &events);
        let events = self.absorb(events);
        Ok(Applied { detail, entries: vec![LogEntry { seat, kind: EntryKind::Decision { accept }, events }] })
    }

    fn leave(&mut self, seat: Player, flag: bool) -> Result<Applied, Refusal> {
        let departure = if flag { Departure::TimeOut(seat) } else { Departure::Resigned(seat) };
        let events = self.game.depart(departure).map_err(|e| Refusal(format!("you cannot resign now: {e}")))?;
        let events = describe(self.game.position(), &events);
        let events = self.absorb(events);
        let kind = if flag { EntryKind::Flag } else { EntryKind::Resign };
        Ok(Applied { detail: String::new(), entries: vec![LogEntry { seat, kind, events }] })
    }

    fn offer_draw(&mut self, seat: Player) -> Result<Applied, Refusal> {
        let allowed = self.game.position().draw_by_agreement_allowed();
        if !allowed {
            return refuse("a draw by agreement is not allowed in this game");
        }
        if self.draw_offers.contains(seat) {
            return refuse("you have already offered a draw");
        }
        self.draw_offers.insert(seat);
        let everyone = self.seats().into_iter().filter(|&s| self.active(s)).all(|s| self.draw_offers.contains(s));
        if !everyone {
            return Ok(Applied { detail: String::new(), entries: Vec::new() });
        }
        let events = self.game.depart(Departure::AgreedDraw).map_err(|e| Refusal(format!("no draw: {e}")))?;
        let events = describe(self.game.position(), &events);
        self.draw_offers = PlayerSet::EMPTY;
        let events = self.absorb(events);
        Ok(Applied { detail: String::new(), entries: vec![LogEntry { seat, kind: EntryKind::Draw, events }] })
    }

    fn decline_draw(&mut self, seat: Player) -> Result<Applied, Refusal> {
        if self.draw_offers.is_empty() {
            return refuse("there is no draw offer to decline");
        }
        if self.draw_offers.contains(seat) {
            return refuse("you have offered the draw yourself");
        }
        self.draw_offers = PlayerSet::EMPTY;
        let events = vec![format!("{} declines the draw", self.seat_name(seat))];
        Ok(Applied { detail: String::new(), entries: vec![LogEntry { seat, kind: EntryKind::DrawDeclined, events }] })
    }

    fn request_takeback(&mut self, seat: Player) -> Result<Applied, Refusal> {
        if self.decision_pending() {
            return refuse("a proposed alliance must be answered first");
        }
        if self.takeback.is_some() {
            return refuse("a takeback has already been asked for");
        }
        let plies = self.game.plies();
        let Some(last) = (1..=plies).rev().find(|&ply| self.game.mover_of(ply) == Some(seat)) else {
            return refuse("you have no move to take back");
        };
        if !self.game.can_rewind_to(last - 1) {
            return refuse("a takeback cannot undo a resignation or a time-out");
        }
        self.takeback = Some(TakebackRequest { by: seat, to_plies: last - 1, accepted: PlayerSet::EMPTY });
        Ok(Applied { detail: String::new(), entries: Vec::new() })
    }

    fn answer_takeback(&mut self, seat: Player, accept: bool) -> Result<Applied, Refusal> {
        let detail = if accept { "accept" } else { "refuse" }.to_string();
        let Some(mut request) = self.takeback else { return refuse("there is no takeback to answer") };
        if request.by == seat {
            return refuse("you asked for the takeback yourself");
        }
        if request.accepted.contains(seat) {
            return refuse("you have already accepted the takeback");
        }
        if !accept {
            self.takeback = None;
            let events = vec![format!("{} declines the takeback", self.seat_name(seat))];
            return Ok(Applied { detail, entries: vec![LogEntry { seat, kind: EntryKind::TakebackDeclined, events }] });
        }
        request.accepted.insert(seat);
        self.takeback = Some(request);
        if !self.takeback_waiting().is_empty() {
            return Ok(Applied { detail, entries: Vec::new() });
        }
        let taken = self.game.plies() - request.to_plies;
        self.game.rewind_to(request.to_plies).map_err(|e| Refusal(format!("no takeback: {e}")))?;
        self.takeback = None;
        self.draw_offers = PlayerSet::EMPTY;
        let moves = if taken == 1 { "a move".to_string() } else { format!("{taken} moves") };
        let events = vec![format!("{} takes back {moves}", self.seat_name(request.by))];
        let kind = EntryKind::Takeback { to_plies: request.to_plies };
        Ok(Applied { detail, entries: vec![LogEntry { seat: request.by, kind, events }] })
    }

    /// After a change of the game: drops a takeback request (it asked about another position)
    /// and the draw offers of players who left, notes how the game ended, and returns the
    /// events in words.
    fn absorb(&mut self, events: Vec<(String, Option<Event>)>) -> Vec<String> {
        self.takeback = None;
        let players_in = self.game.position().players_in();
        for seat in self.draw_offers.iter() {
            if !players_in.contains(seat) {
                self.draw_offers.remove(seat);
            }
        }
        for (_, event) in &events {
            if let Some(Event::GameOver { placings, .. }) = event {
                self.placings = Some(*placings);
                self.draw_offers = PlayerSet::EMPTY;
            }
        }
        events.into_iter().map(|(text, _)| text).collect()
    }

    /// The rules' part of the game state of docs/API.md: to_move, board, hands, position,
    /// legal_moves, alliances, draw offers and outcome.
    pub fn view(&self) -> wire::TableView {
        let (drawn, legal_moves) = with_game!(&self.game, g => (position_view(g.position(), &self.cells), legal_move_texts(g)));
        let position = self.game.position();
        let alliance = |alliance: Option<Alliance>| match alliance {
            Some(a) if !self.is_over() => {
                Some(wire::AllianceView { allies: names_of(self, a.allies), against: self.seat_name(a.against).to_string() })
            }
            _ => None,
        };
        let outcome = self.outcome_text().map(|text| wire::OutcomeView {
            text,
            placings: match self.placings {
                Some(placings) => self.seats().into_iter().map(|s| (self.seat_name(s).to_string(), placings[s])).collect(),
                None => BTreeMap::new(),
            },
            aborted: false,
        });
        wire::TableView {
            drawn,
            position: self.game.position_text(),
            legal_moves,
            alliance: alliance(position.alliance()),
            pending_alliance: alliance(position.pending_alliance()),
            draw_offered_by: names_of(self, self.draw_offers),
            takeback: self.takeback.map(|request| wire::TakebackView {
                by: self.seat_name(request.by).to_string(),
                to_ply: request.to_plies,
                waiting_for: names_of(self, self.takeback_waiting()),
            }),
            outcome,
        }
    }

    /// The position after `plies` moves (and what followed them) as the client draws it;
    /// `None` past the last move.
    pub fn position_after(&self, plies: usize) -> Option<wire::PositionAt> {
        let drawn = with_game!(&self.game, g => g.position_after(plies).map(|pos| position_view(&pos, &self.cells)))?;
        Some(wire::PositionAt { ply: plies, drawn })
    }

    /// Each seat's place once the game is over, in seat order.
    pub fn placings(&self) -> Option<Vec<u8>> {
        self.placings.map(|placings| self.seats().into_iter().map(|s| placings[s]).collect())
    }

    /// Whether the rules count `seat` in the game (it may be over).
    pub fn active(&self, seat: Player) -> bool {
        self.game.position().players_in().contains(seat)
    }
}

/// Events in words, each with the event it describes.
fn describe<P: PositionView + ?Sized>(pos: &P, events: &[Event]) -> Vec<(String, Option<Event>)> {
    events.iter().map(|e| (event_text(pos, e), Some(*e))).collect()
}

/// Parses and plays a move: (canonical text, short text, events).
#[allow(clippy::type_complexity)]
fn play_move_text<P: Rules>(game: &mut Game<P>, text: &str) -> Result<(String, String, Vec<(String, Option<Event>)>), Refusal> {
    let mut legal = MoveList::new();
    game.legal_moves(&mut legal);
    let position = game.position().clone();
    let m = play_text::parse_in_game(game, &legal, text).map_err(|e| Refusal(e.to_string()))?;
    let canonical = move_text::canonical(&position, m);
    let short = move_text::short(&position, &legal, m);
    let events = game.play(m).map_err(|e| Refusal(e.to_string()))?;
    Ok((canonical, short, describe(game.position(), &events)))
}

fn names_of(table: &Table, set: PlayerSet) -> Vec<String> {
    set.iter().map(|p| table.seat_name(p).to_string()).collect()
}

/// The canonical text of every legal move; none once the game is over or while a proposed
/// alliance waits for its answers.
fn legal_move_texts<P: Rules>(game: &Game<P>) -> Vec<String> {
    let pos = game.position();
    let mut legal = MoveList::new();
    if pos.outcome().is_none() && !pos.decision_pending() {
        game.legal_moves(&mut legal);
    }
    legal.iter().map(|&m| move_text::canonical(pos, m)).collect()
}

/// A position as the client draws it: to_move (none once the game is over), board, hands and
/// the seats in check.
fn position_view<P: Rules>(pos: &P, cells: &[Cell]) -> wire::DrawnPosition {
    let name = |p: Player| pos.seat_name(p).to_string();
    let board = cells
        .iter()
        .filter_map(|&cell| {
            pos.piece_text(cell).map(|piece| wire::BoardPiece {
                cell: pos.cell_name(cell),
                seat: name(piece.player),
                letter: piece.letter,
                promoted: piece.promoted,
            })
        })
        .collect();
    let hands = pos
        .seats()
        .iter()
        .map(|&seat| {
            // Every role: a Three Player Hex Shogi 91 player may hold a captured king.
            let hand = Role::ALL
                .iter()
                .filter_map(|&role| {
                    let count = pos.in_hand(seat, role);
                    (count > 0).then(|| (role.letter(), count))
                })
                .collect();
            (name(seat), hand)
        })
        .collect();
    let players_in = pos.players_in();
    let in_check =
        pos.seats().iter().filter(|&&seat| players_in.contains(seat) && pos.in_check(seat)).map(|&seat| name(seat)).collect();
    wire::DrawnPosition { to_move: pos.outcome().is_none().then(|| name(pos.to_move())), board, hands, in_check }
}

#[cfg(test)]
mod tests {
    use super::*;
    use polyshogi::outcome::{Outcome, WinReason};
    use polyshogi::splitmix::SplitMix;
    use polyshogi::variant::hexshogi::{HexShogiPosition, HexShogiRules, HexShogiSetup, HexVariant};

    #[test]
    fn a_king_held_in_hand_is_listed_with_the_hand() {
        // Three Player Hex Shogi 91: kings are captured into hand (RULES §2.7).
        let mut setup = HexShogiSetup::start(HexVariant::Tphs91);
        let white_king = setup.pieces.iter().position(|(_, p)| p.player == Player::Second && p.role == Role::King).unwrap();
        setup.pieces.remove(white_king);
        setup.hands[Player::First].add(Role::King);
        let position = HexShogiPosition::from_setup(setup, HexShogiRules::tphs91()).unwrap();
        let cells: Vec<Cell> = position.layout().cells.iter().map(|c| c.cell).collect();
        let view = position_view(&position, &cells);
        assert_eq!(view.hands["Black"].get(&'K'), Some(&1), "{:?}", view.hands);
        assert!(view.hands["White"].is_empty(), "{:?}", view.hands);
    }

    /// Plays random legal moves under `compulsory=confirm` until an alliance is proposed.
    fn table_with_a_proposal() -> Table {
        for seed in 0..500 {
            let mut table = Table::new(Variant::Sannin, &["compulsory=confirm".to_string()]).unwrap();
            let mut rng = SplitMix::new(seed);
            for _ in 0..400 {
                if table.decision_pending() {
                    return table;
                }
                let Some(seat) = table.to_move() else { break };
                let legal = table.view().legal_moves;
                let choice = legal[rng.below(legal.len())].clone();
                table.apply(seat, &Action::Move(choice)).unwrap();
            }
        }
        panic!("no alliance was proposed in 500 random games");
    }

    #[test]
    fn the_seat_whose_king_is_attacked_is_in_check_in_the_view_and_the_positions() {
        let mut table = Table::new(Variant::HexShogi91, &[]).unwrap();
        let [black, white] = [Player::First, Player::Second];
        assert!(table.view().drawn.in_check.is_empty());
        table.apply(black, &Action::Move("K4j-4i".into())).unwrap();
        // White's bishop leaves 6b and attacks Black's king on 4i.
        table.apply(white, &Action::Move("B6b-7c".into())).unwrap();
        assert_eq!(table.view().drawn.in_check, ["Black"]);
        assert_eq!(table.position_after(2).unwrap().drawn.in_check, ["Black"]);
        assert!(table.position_after(1).unwrap().drawn.in_check.is_empty());
    }

    #[test]
    fn a_proposed_alliance_waits_for_both_allies() {
        let mut table = table_with_a_proposal();
        let allies: Vec<Player> = table.pending_answers().iter().collect();
        assert_eq!(allies.len(), 2);
        let lone = table.seats().into_iter().find(|s| !allies.contains(s)).unwrap();
        assert!(table.view().pending_alliance.is_some());
        assert_eq!(table.clock_runner(), None, "no clock runs while the allies think");
        let mover = table.to_move().unwrap();
        let err = table.apply(mover, &Action::Move("pass".into())).unwrap_err();
        assert!(err.0.contains("answered first"), "{err}");
        let err = table.apply(lone, &Action::Answer(true)).unwrap_err();
        assert!(err.0.contains("not yours"), "{err}");

        let mut refused = table.clone();
        let applied = refused.apply(allies[1], &Action::Answer(false)).unwrap();
        assert_eq!(applied.entries[0].kind, EntryKind::Decision { accept: false });
        assert!(!refused.decision_pending());
        assert!(refused.view().alliance.is_none());

        let applied = table.apply(allies[0], &Action::Answer(true)).unwrap();
        assert!(applied.entries.is_empty(), "one ally's yes is not enough");
        assert!(table.decision_pending());
        assert!(table.apply(allies[0], &Action::Answer(true)).unwrap_err().0.contains("already accepted"));
        let applied = table.apply(allies[1], &Action::Answer(true)).unwrap();
        assert_eq!(applied.detail, "accept");
        assert_eq!(applied.entries[0].kind, EntryKind::Decision { accept: true });
        assert!(applied.entries[0].events.iter().any(|e| e.starts_with("alliance")), "{:?}", applied.entries);
        assert!(!table.decision_pending());
        assert_eq!(table.view().alliance.map(|a| a.against), Some(table.seat_name(lone).to_string()));
    }

    #[test]
    fn a_tphs91_time_out_with_three_in_leaves_the_seat_passing_and_the_game_going_on() {
        let mut table = Table::new(Variant::Tphs91, &[]).unwrap();
        let [black, white, _] = [Player::First, Player::Second, Player::Third];
        let applied = table.apply(black, &Action::Flag).unwrap();
        assert_eq!(applied.entries[0].events, ["Black's time ran out"]);
        assert!(!table.is_over());
        assert!(!table.active(black) && table.active(white));
        // Black is to move but out: no clock runs for him, the server passes for him, and
        // he can do nothing else.
        assert_eq!((table.clock_runner(), table.forced_pass()), (None, Some(black)));
        let err = table.apply(black, &Action::Resign).unwrap_err();
        assert!(err.0.contains("no longer in the game"), "{err}");
        table.apply(black, &Action::Move("pass".into())).unwrap();
        assert_eq!((table.clock_runner(), table.forced_pass()), (Some(white), None));
        // With two left, the next time-out ends the game.
        let applied = table.apply(white, &Action::Flag).unwrap();
        assert_eq!(applied.entries[0].events[0], "White's time ran out");
        let gray_wins = Outcome::Win { winner: Player::Third, reason: WinReason::LastStanding };
        assert_eq!(table.game().position().outcome(), Some(gray_wins));
    }
}
