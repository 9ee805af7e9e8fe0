//! The Sankaku position: board by cell, by player and by role, the side to move and the
//! running repetition key, built from an unchecked `SankakuSetup` by a validating constructor.

use std::fmt;

use super::key::{piece_key, WHITE_TO_MOVE};
use super::rules::SankakuRules;
use super::tables::{code_of, piece_of, start_pieces, Code, SankakuPiece, SankakuRole, ARMY};
use super::{opponent, player_name};
use crate::cellset::CellSet;
use crate::geometry::{Cell, TriGrid, TRI44, TRI_CELLS};
use crate::outcome::Outcome;
use crate::player::{ByPlayer, Player};

/// Everything a Sankaku position holds, unchecked: what parsers and tests build.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SankakuSetup {
    pub pieces: Vec<(Cell, SankakuPiece)>,
    pub to_move: Player,
}

impl SankakuSetup {
    /// The start array of §3.4, Black to move.
    pub fn start() -> SankakuSetup {
        SankakuSetup { pieces: start_pieces(), to_move: Player::First }
    }
}

/// Why a setup is not a playable position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PositionError {
    /// Sankaku is played by Black (`First`) and White (`Second`) only.
    NotASeat(Player),
    OffBoard(Cell),
    TwoPiecesOnOneCell(Cell),
    EmperorCount {
        player: Player,
        emperors: usize,
    },
    /// More Chariots, Cavalry or Soldiers than an army has.
    TooManyPieces {
        player: Player,
        role: SankakuRole,
        count: usize,
    },
    /// More Generals than the army's own plus its promoted Soldiers and Cavalry.
    TooManyGenerals {
        player: Player,
        count: usize,
        most: usize,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::NotASeat(p) => write!(f, "Sankaku has no player {} (only Black and White)", p.index() + 1),
            PositionError::OffBoard(c) => write!(f, "cell index {} is not on the 44-cell board", c.index()),
            PositionError::TwoPiecesOnOneCell(c) => write!(f, "two pieces on {}", TRI44.name(*c)),
            PositionError::EmperorCount { player, emperors } => {
                write!(f, "{} has {emperors} Emperors on the board (needs exactly 1)", player_name(*player))
            }
            PositionError::TooManyPieces { player, role, count } => {
                write!(f, "{} has {count} of role {role} (an army has {})", player_name(*player), ARMY[role.index()])
            }
            PositionError::TooManyGenerals { player, count, most } => write!(
                f,
                "{} has {count} Generals, but only {most} can exist beside its Soldiers and Cavalry (promotions replace them)",
                player_name(*player)
            ),
        }
    }
}

impl std::error::Error for PositionError {}

/// A legal, playable Sankaku position.
#[derive(Clone)]
pub struct SankakuPosition {
    pub(super) grid: &'static TriGrid,
    pub(super) rules: SankakuRules,
    pub(super) board: [Code; TRI_CELLS],
    pub(super) by_player: ByPlayer<CellSet>,
    pub(super) by_role: [CellSet; 5],
    pub(super) occupied: CellSet,
    /// `None` once captured (the game is then over).
    pub(super) emperors: ByPlayer<Option<Cell>>,
    pub(super) to_move: Player,
    pub(super) plies: u32,
    pub(super) outcome: Option<Outcome>,
    /// Zobrist hash of board and side to move, kept up to date by every change.
    pub(super) key: u64,
}

impl SankakuPosition {
    /// The start position under `rules`.
    pub fn start(rules: SankakuRules) -> SankakuPosition {
        SankakuPosition::from_setup(SankakuSetup::start(), rules).expect("the start array is a valid position")
    }

    /// Validates a setup.
    pub fn from_setup(setup: SankakuSetup, rules: SankakuRules) -> Result<SankakuPosition, PositionError> {
        SankakuPosition::validate(setup, rules, false)
    }

    /// Validates a setup; in a finished game (`finished`) an Emperor may have been captured.
    pub(super) fn validate(setup: SankakuSetup, rules: SankakuRules, finished: bool) -> Result<SankakuPosition, PositionError> {
        let mut pos = SankakuPosition {
            grid: &TRI44,
            rules,
            board: [0; TRI_CELLS],
            by_player: ByPlayer::default(),
            by_role: [CellSet::EMPTY; 5],
            occupied: CellSet::EMPTY,
            emperors: ByPlayer::default(),
            to_move: Player::First,
            plies: 0,
            outcome: None,
            key: 0,
        };
        if setup.to_move == Player::Third {
            return Err(PositionError::NotASeat(setup.to_move));
        }
        pos.set_to_move(setup.to_move);
        let mut counts = ByPlayer([[0usize; 5]; 3]);
        for &(cell, piece) in &setup.pieces {
            if cell.usize() >= TRI_CELLS {
                return Err(PositionError::OffBoard(cell));
            }
            if pos.occupied.contains(cell) {
                return Err(PositionError::TwoPiecesOnOneCell(cell));
            }
            if piece.player == Player::Third {
                return Err(PositionError::NotASeat(piece.player));
            }
            counts[piece.player][piece.role.index()] += 1;
            if piece.role == SankakuRole::Emperor {
                pos.emperors[piece.player] = Some(cell);
            }
            pos.put(cell, piece);
        }
        for player in [Player::First, Player::Second] {
            let count = |role: SankakuRole| counts[player][role.index()];
            let emperors = count(SankakuRole::Emperor);
            if emperors != 1 && !(finished && emperors == 0) {
                return Err(PositionError::EmperorCount { player, emperors });
            }
            for role in [SankakuRole::Chariot, SankakuRole::Cavalry, SankakuRole::Soldier] {
                if count(role) > ARMY[role.index()] as usize {
                    return Err(PositionError::TooManyPieces { player, role, count: count(role) });
                }
            }
            // Every General beyond the army's own is a Soldier or Cavalry that has captured.
            let most = ARMY[SankakuRole::General.index()] as usize
                + (ARMY[SankakuRole::Soldier.index()] as usize - count(SankakuRole::Soldier))
                + (ARMY[SankakuRole::Cavalry.index()] as usize - count(SankakuRole::Cavalry));
            if count(SankakuRole::General) > most {
                return Err(PositionError::TooManyGenerals { player, count: count(SankakuRole::General), most });
            }
        }
        Ok(pos)
    }

    /// The position as an unchecked setup (the inverse of `from_setup`).
    pub fn to_setup(&self) -> SankakuSetup {
        SankakuSetup { pieces: self.occupied.map(|c| (c, self.piece_at(c).expect("occupied"))).collect(), to_move: self.to_move }
    }

    pub fn rules(&self) -> &SankakuRules {
        &self.rules
    }

    pub fn grid(&self) -> &'static TriGrid {
        self.grid
    }

    pub fn to_move(&self) -> Player {
        self.to_move
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    pub fn plies(&self) -> u32 {
        self.plies
    }

    #[inline]
    pub fn piece_at(&self, cell: Cell) -> Option<SankakuPiece> {
        piece_of(self.board[cell.usize()])
    }

    pub fn occupied(&self) -> CellSet {
        self.occupied
    }

    pub fn pieces_of(&self, player: Player) -> CellSet {
        self.by_player[player]
    }

    /// The cells holding pieces of `role`, of both players.
    pub fn role_cells(&self, role: SankakuRole) -> CellSet {
        self.by_role[role.index()]
    }

    /// Where `player`'s Emperor stands (`None` once captured).
    pub fn emperor(&self, player: Player) -> Option<Cell> {
        self.emperors[player]
    }

    /// Equal for positions that are the same for the repetition rule: board and side to move.
    #[inline]
    pub fn repetition_key(&self) -> u64 {
        self.key
    }

    /// The key computed from scratch, to check the running one.
    pub fn recomputed_key(&self) -> u64 {
        let side = if self.to_move == Player::Second { WHITE_TO_MOVE } else { 0 };
        self.occupied.fold(side, |key, c| key ^ piece_key(self.board[c.usize()], c.usize()))
    }

    #[inline]
    pub(super) fn put(&mut self, cell: Cell, piece: SankakuPiece) {
        let code = code_of(piece);
        self.board[cell.usize()] = code;
        self.by_player[piece.player].insert(cell);
        self.by_role[piece.role.index()].insert(cell);
        self.occupied.insert(cell);
        self.key ^= piece_key(code, cell.usize());
    }

    #[inline]
    pub(super) fn clear(&mut self, cell: Cell) -> Option<SankakuPiece> {
        let code = self.board[cell.usize()];
        let piece = piece_of(code)?;
        self.board[cell.usize()] = 0;
        self.by_player[piece.player].remove(cell);
        self.by_role[piece.role.index()].remove(cell);
        self.occupied.remove(cell);
        self.key ^= piece_key(code, cell.usize());
        Some(piece)
    }

    #[inline]
    pub(super) fn set_to_move(&mut self, player: Player) {
        if self.to_move != player {
            self.key ^= WHITE_TO_MOVE;
        }
        self.to_move = player;
    }

    /// The opponent of the player to move.
    #[inline]
    pub(super) fn them(&self) -> Player {
        opponent(self.to_move)
    }
}

impl PartialEq for SankakuPosition {
    fn eq(&self, other: &Self) -> bool {
        self.rules == other.rules
            && self.board == other.board
            && self.to_move == other.to_move
            && self.plies == other.plies
            && self.outcome == other.outcome
    }
}

impl Eq for SankakuPosition {}

impl fmt::Debug for SankakuPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pieces: Vec<String> = self
            .occupied
            .map(|c| {
                let p = self.piece_at(c).expect("occupied");
                let side = if p.player == Player::First { 'B' } else { 'W' };
                format!("{side}{}{}", p.role.letter(), self.grid.name(c))
            })
            .collect();
        f.debug_struct("SankakuPosition")
            .field("to_move", &player_name(self.to_move))
            .field("pieces", &pieces.join(" "))
            .field("outcome", &self.outcome)
            .field("rules", &self.rules)
            .finish()
    }
}
