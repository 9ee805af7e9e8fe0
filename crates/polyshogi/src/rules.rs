//! The one trait every game implements, so that perft, move text, records, engines and the
//! server handle positions, moves and outcomes without knowing which game it is.

use std::fmt;

use crate::catalog::Variant;
use crate::cellset::CellSet;
use crate::geometry::{Cell, ParseCellError};
use crate::key_history::KeyHistory;
use crate::mv::{HourSet, Move, MoveList};
use crate::outcome::{Event, Events, Outcome};
use crate::piece::Role;
use crate::player::{Player, PlayerSet};
use crate::splitmix::SplitMix;

/// How the history of a game restricts moves or ends it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum RepetitionRule {
    /// In a recurring position the player to move may not repeat a move he played from it
    /// (Sannin: the initiator of the cycle must vary).
    InitiatorMustVary,
    /// No move may recreate a position that has already occurred.
    Superko,
    /// The third occurrence of a position draws the game.
    ThreefoldDraw,
    Off,
}

/// How a piece is written: its letter, whether promoted, and its owner.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct PieceText {
    pub player: Player,
    pub letter: char,
    pub promoted: bool,
}

/// Two players allied against the third (Sannin).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Alliance {
    pub allies: PlayerSet,
    pub against: Player,
}

/// Why a move (or an answer to a pending decision) was refused.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum IllegalMove {
    GameOver,
    NotLegal,
    /// An alliance proposal waits for its answer before anyone moves.
    AllianceProposalPending,
    /// There is no alliance proposal to answer.
    NoAllianceProposal,
    /// The player answering is not one of those the pending decision asks.
    NotYourDecision,
    /// The player has already accepted the pending decision.
    AlreadyAccepted,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::GameOver => write!(f, "the game is over"),
            IllegalMove::NotLegal => write!(f, "the move is not legal in this position"),
            IllegalMove::AllianceProposalPending => {
                write!(f, "an alliance proposal must be accepted or refused first")
            }
            IllegalMove::NoAllianceProposal => write!(f, "there is no proposed alliance to answer"),
            IllegalMove::NotYourDecision => write!(f, "the proposed alliance is not yours to answer"),
            IllegalMove::AlreadyAccepted => write!(f, "you have already accepted the proposed alliance"),
        }
    }
}

impl std::error::Error for IllegalMove {}

/// Whether the legal move `m` leads back to the present position or to one whose key is in
/// `earlier` (what super-ko forbids).
pub fn recurs<P: Rules>(position: &P, m: Move, earlier: &KeyHistory) -> bool {
    let key = position.key_after(m);
    key == position.repetition_key() || earlier.contains(key)
}

/// A playable position of some game.
pub trait Rules: Clone + fmt::Debug {
    fn variant(&self) -> Variant;

    /// The seats of this game in turn order (two or three).
    fn seats(&self) -> &'static [Player] {
        self.variant().seats()
    }

    /// The name of a seat in this game (First/Middle/Last, Black/White/Gray).
    fn seat_name(&self, player: Player) -> &'static str {
        self.variant().seat_name(player)
    }

    fn to_move(&self) -> Player;
    fn outcome(&self) -> Option<Outcome>;
    /// The legal actions of the player to move, ignoring the history (see `Game`).
    fn legal_moves(&self, out: &mut MoveList);
    /// Plays a legal move and reports what it set off.
    #[inline]
    fn play_unchecked(&mut self, m: Move) -> Events {
        let mut events = Events::new();
        self.play_into(m, &mut events);
        events
    }
    /// Plays a legal move, pushing what it set off onto `events`. The events (400 bytes) are
    /// built where `play_unchecked`'s caller keeps them, not returned and copied on every move;
    /// an implementation kept out of line lets the wrapper's list be filled in place.
    fn play_into(&mut self, m: Move, events: &mut Events);

    /// How many actions `legal_moves` lists (perft's bulk counting); a game whose generator
    /// can count without listing does so.
    fn legal_move_count(&self) -> usize {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        moves.len()
    }

    /// A legal action chosen uniformly at random among those `legal_moves` lists, `None` when
    /// there is none (random playouts); a game whose generator can choose without listing
    /// does so.
    fn random_legal_move(&self, rng: &mut SplitMix) -> Option<Move> {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        rng.pick(&moves)
    }

    /// Super-ko's count: (every legal action, those leading to a position whose repetition key
    /// is neither the present one nor in `earlier`).
    fn fresh_move_count(&self, earlier: &KeyHistory) -> (usize, usize) {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        let fresh = moves.iter().filter(|&&m| !recurs(self, m, earlier)).count();
        (moves.len(), fresh)
    }

    /// Plays `m` if it is legal for the player to move, ignoring the history (`Game::play`
    /// applies the repetition rule); the position is unchanged otherwise.
    fn play(&mut self, m: Move) -> Result<Events, IllegalMove> {
        self.ready_to_move()?;
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        if !moves.contains(&m) {
            return Err(IllegalMove::NotLegal);
        }
        Ok(self.play_unchecked(m))
    }

    /// Whether anyone may move now: not once the game is over, nor while a decision waits.
    fn ready_to_move(&self) -> Result<(), IllegalMove> {
        if self.outcome().is_some() {
            return Err(IllegalMove::GameOver);
        }
        if self.decision_pending() {
            return Err(IllegalMove::AllianceProposalPending);
        }
        Ok(())
    }

    /// Equal for positions that the repetition rule treats as the same.
    fn repetition_key(&self) -> u64;
    fn repetition_rule(&self) -> RepetitionRule;
    /// The repetition key after the legal move `m` (a game may compute it without playing).
    fn key_after(&self, m: Move) -> u64 {
        let mut next = self.clone();
        next.play_unchecked(m);
        next.repetition_key()
    }
    /// Ends the game drawn by repetition (for `RepetitionRule::ThreefoldDraw`).
    fn draw_by_repetition(&mut self) -> Events;

    /// Whether the game waits for a decision that is not a move (a proposed alliance).
    fn decision_pending(&self) -> bool {
        false
    }
    /// The seats still in the game: not mated, stalemated or resigned (Sannin), not left
    /// without pieces (Three Player Hex Shogi 91).
    fn players_in(&self) -> PlayerSet {
        PlayerSet::of(self.seats())
    }
    /// The alliance in force, if any (Sannin).
    fn alliance(&self) -> Option<Alliance> {
        None
    }
    /// The two allied seats, or none.
    fn allies(&self) -> PlayerSet {
        self.alliance().map_or(PlayerSet::EMPTY, |a| a.allies)
    }
    /// The alliance that waits for its allies' answer, if any (Sannin, `compulsory=confirm`).
    fn pending_alliance(&self) -> Option<Alliance> {
        None
    }
    /// Whether `player`'s king is attacked, in the games that know check.
    fn in_check(&self, _player: Player) -> bool {
        false
    }
    /// Answers the pending decision for everyone it asks (perft and engines accept).
    fn answer_pending(&mut self, _accept: bool) -> Result<Events, IllegalMove> {
        Err(IllegalMove::NoAllianceProposal)
    }
    /// The seats the pending decision still waits for.
    fn awaiting_answer(&self) -> PlayerSet {
        PlayerSet::EMPTY
    }
    /// `player`'s own answer to the pending decision: what it set off once the decision is
    /// settled (everyone asked accepted, or one refused), `None` while others must answer.
    fn answer_as(&mut self, _player: Player, _accept: bool) -> Result<Option<Events>, IllegalMove> {
        Err(IllegalMove::NoAllianceProposal)
    }

    /// `player` gives up: he leaves the game, which may end it.
    fn resign(&mut self, _player: Player) -> Result<Events, IllegalMove> {
        Err(IllegalMove::NotLegal)
    }

    /// `player`'s clock ran out. Unless a game rules otherwise, he leaves as if he resigned.
    fn time_out(&mut self, player: Player) -> Result<Events, IllegalMove> {
        self.resign(player).map(|events| resignation_as_time_out(events, player))
    }

    /// Whether the rules allow a draw by agreement now.
    fn draw_by_agreement_allowed(&self) -> bool {
        false
    }

    /// Ends the game drawn by agreement among the players still in it.
    fn agree_draw(&mut self) -> Result<Events, IllegalMove> {
        Err(IllegalMove::NotLegal)
    }

    /// What players must be told about the start array, where it is not the designer's own
    /// (Three Player Hex Shogi 91's reconstruction).
    fn setup_note(&self) -> Option<&'static str> {
        self.variant().setup_note()
    }

    /// The rule options that differ from the variant's defaults, as `key=value`.
    fn non_default_options(&self) -> Vec<String> {
        Vec::new()
    }

    fn cell_name(&self, cell: Cell) -> String;
    fn parse_cell(&self, text: &str) -> Result<Cell, ParseCellError>;
    fn piece_text(&self, cell: Cell) -> Option<PieceText>;
    /// Whether a legal board move captures: it ends on another player's piece, or (a Sankaku
    /// Chariot's run-down) removes one on its way. Move text writes `x` for it.
    fn is_capture(&self, m: Move) -> bool {
        matches!(m, Move::Normal { to, .. } if self.piece_text(to).is_some())
    }
    /// How many pieces of `role` `player` holds in hand (games without drops hold none).
    fn in_hand(&self, _player: Player, _role: Role) -> u8 {
        0
    }
    /// The cells an illumination removes (games without illumination have none).
    fn illumination_targets(&self, _from: Cell, _rays: HourSet) -> CellSet {
        CellSet::EMPTY
    }
}

/// The events of `player`'s resignation, told as his time running out.
pub(crate) fn resignation_as_time_out(mut events: Events, player: Player) -> Events {
    for event in &mut events {
        if *event == (Event::Resigned { player }) {
            *event = Event::TimedOut { player };
        }
    }
    events
}

/// The questions any front end asks of a position whatever its game, as a trait object:
/// `AnyGame::position` answers them without naming the game. Every `Rules` position is one.
pub trait PositionView {
    fn variant(&self) -> Variant;
    fn seats(&self) -> &'static [Player];
    fn seat_name(&self, player: Player) -> &'static str;
    fn to_move(&self) -> Player;
    fn outcome(&self) -> Option<Outcome>;
    fn decision_pending(&self) -> bool;
    fn draw_by_agreement_allowed(&self) -> bool;
    fn players_in(&self) -> PlayerSet;
    fn alliance(&self) -> Option<Alliance>;
    fn pending_alliance(&self) -> Option<Alliance>;
    fn awaiting_answer(&self) -> PlayerSet;
    fn in_check(&self, player: Player) -> bool;
    fn cell_name(&self, cell: Cell) -> String;
    fn piece_text(&self, cell: Cell) -> Option<PieceText>;
}

impl<P: Rules> PositionView for P {
    fn variant(&self) -> Variant {
        Rules::variant(self)
    }
    fn seats(&self) -> &'static [Player] {
        Rules::seats(self)
    }
    fn seat_name(&self, player: Player) -> &'static str {
        Rules::seat_name(self, player)
    }
    fn to_move(&self) -> Player {
        Rules::to_move(self)
    }
    fn outcome(&self) -> Option<Outcome> {
        Rules::outcome(self)
    }
    fn decision_pending(&self) -> bool {
        Rules::decision_pending(self)
    }
    fn draw_by_agreement_allowed(&self) -> bool {
        Rules::draw_by_agreement_allowed(self)
    }
    fn players_in(&self) -> PlayerSet {
        Rules::players_in(self)
    }
    fn alliance(&self) -> Option<Alliance> {
        Rules::alliance(self)
    }
    fn pending_alliance(&self) -> Option<Alliance> {
        Rules::pending_alliance(self)
    }
    fn awaiting_answer(&self) -> PlayerSet {
        Rules::awaiting_answer(self)
    }
    fn in_check(&self, player: Player) -> bool {
        Rules::in_check(self, player)
    }
    fn cell_name(&self, cell: Cell) -> String {
        Rules::cell_name(self, cell)
    }
    fn piece_text(&self, cell: Cell) -> Option<PieceText> {
        Rules::piece_text(self, cell)
    }
}
