//! Legal move generation for both Hex Shogi 91 games, from precomputed tables and without
//! allocating. Two players: legality from pins and check evasion. Three players: there is no
//! check, so every move a piece can make is legal; held kings are dropped first, and a player
//! with nothing to do passes.

use super::position::HexShogiPosition;
use crate::cellset::CellSet;
use crate::geometry::Cell;
use crate::mv::{HourSet, Move, MoveCount, MoveFinder, MoveList, MoveSink};
use crate::piece::{Piece, Role};
use crate::piece_store::code_of;
use crate::player::Player;

/// Which of the legal moves a generation lists: all of them, those that end on another
/// player's piece, or those that end on an empty cell (drops and a forced pass included).
/// Constants rather than an enum, so that they can be a generator's const parameter.
pub(super) const ALL: u8 = 0;
pub(super) const CAPTURES: u8 = 1;
pub(super) const QUIETS: u8 = 2;

/// What the two-player generator knows about the mover's king before generating.
pub(super) struct KingSafety {
    pub(super) checkers: CellSet,
    /// Where a non-king move or a drop must end: anywhere when not in check; on the checking
    /// piece or between it and the king under one check; nowhere under two.
    evasion: CellSet,
    pub(super) pinned: CellSet,
}

impl HexShogiPosition {
    /// Every legal action of the player to move (none once the game is over).
    pub fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        self.generate::<ALL>(out);
    }

    /// The legal actions that take a piece: those of `legal_moves` that end on another
    /// player's piece, in the same order. The engine's quiescence search looks at no others,
    /// so it saves generating the quiet moves and the drops.
    pub fn legal_captures(&self, out: &mut MoveList) {
        out.clear();
        self.generate::<CAPTURES>(out);
    }

    /// Pushes the legal actions that take nothing into `out`: those of `legal_moves` that
    /// `legal_captures` leaves out, in the same order. The engine searches them once a node's
    /// captures are used up, so it need not list the captures twice, and it scores them as
    /// they come, in a sink of its own.
    pub fn push_quiet_moves(&self, out: &mut impl MoveSink) {
        self.generate::<QUIETS>(out);
    }

    /// Whether `m` is one of the actions `legal_moves` lists, told for two players without
    /// listing them: only the king's safety and the one piece or drop are looked at. The
    /// engine asks it of its table's move, which a collision of keys may have brought from
    /// another position, before searching that move ahead of listing the others.
    pub fn is_legal_move(&self, m: Move) -> bool {
        if self.outcome.is_some() {
            return false;
        }
        if self.is_three_player() {
            let mut finder = MoveFinder::new(m);
            self.generate_three::<ALL>(&mut finder);
            return finder.found;
        }
        let mover = self.to_move;
        let Some(king) = self.king_of(mover) else { return false };
        let own = self.store.pieces_of(mover);
        let mut finder = MoveFinder::new(m);
        match m {
            Move::Normal { from, to, promote } if from == king => {
                return !promote && self.safe_king_steps(king, CellSet::from_cell(to) - own).contains(to);
            }
            // Under two checks no cell is an evasion: only the king moves.
            Move::Normal { from, to, .. } if own.contains(from) && !own.contains(to) => {
                let safety = self.king_safety(king);
                let code = self.store.code(from) as usize;
                let mut targets = self.reach(code, from) & CellSet::from_cell(to) & safety.evasion;
                if safety.pinned.contains(from) {
                    targets &= self.tables.grid.pin_line(king, from, self.store.occupied());
                }
                self.push_board_moves(from, code, targets, &mut finder);
            }
            Move::Drop { to, .. } => {
                let empty = self.tables.grid.all() - self.store.occupied();
                self.push_drops(mover, CellSet::from_cell(to) & empty & self.king_safety(king).evasion, &mut finder);
            }
            _ => {}
        }
        finder.found
    }

    /// How many legal actions `legal_moves` would list, without listing them.
    pub fn legal_move_count(&self) -> usize {
        let mut count = MoveCount::default();
        self.generate::<ALL>(&mut count);
        count.0
    }

    /// Pushes the legal actions of the player to move that `LIST` names (`ALL`, `CAPTURES`
    /// or `QUIETS`) into `out`; none once the game is over. The choice is a constant so that
    /// the full generator, perft's, tests nothing for it.
    pub(super) fn generate<const LIST: u8>(&self, out: &mut impl MoveSink) {
        if self.outcome.is_some() {
            return;
        }
        if self.is_three_player() {
            self.generate_three::<LIST>(out);
        } else {
            self.generate_two::<LIST>(out);
        }
    }

    /// Whether the player to move has a legal move (three players always have one: at worst
    /// the forced pass).
    pub(super) fn has_legal_move(&self) -> bool {
        if self.is_three_player() {
            return true;
        }
        let mover = self.to_move;
        let Some(king) = self.king_of(mover) else { return false };
        let own = self.store.pieces_of(mover);
        // Usually a piece standing on none of the king's lines (so pinned by nothing) can
        // move, which proves it at once when the king is not in check. Pawns are tried first:
        // they stand in front, where a step is most often free.
        if !self.mover_in_check {
            let unpinnable = own.without(king) - self.tables.grid.lines(king);
            for from in (unpinnable & self.pawns).into_iter().chain(unpinnable - self.pawns) {
                if !(self.reach(self.store.code(from) as usize, from) - own).is_empty() {
                    return true;
                }
            }
        }
        // In check, or with every such piece hemmed in, a king step that no enemy attacks once
        // the king has left (the generator's own test) proves it: most checked kings have one,
        // and listing every evasion would cost a whole generation.
        let enemy = self.opponent(mover);
        let enemies = self.store.pieces_of(enemy);
        let occupied = self.store.occupied().without(king);
        let steps = self.tables.step_targets[self.store.code(king) as usize][king.usize()] - own;
        if steps.into_iter().any(|to| !self.attacked_by(to, enemy, enemies.without(to), occupied)) {
            return true;
        }
        let mut moves = MoveList::new();
        self.generate_two::<ALL>(&mut moves);
        !moves.is_empty()
    }

    /// Two players: the cells of `open` (where none of the mover's pieces stands) that the
    /// mover's king on `king` may step to: a step away, and attacked by no enemy piece once the
    /// king has left its cell, so that a ranging checker sees through that cell.
    #[inline]
    fn safe_king_steps(&self, king: Cell, open: CellSet) -> CellSet {
        let enemy = self.opponent(self.to_move);
        let enemies = self.store.pieces_of(enemy);
        let occupied = self.store.occupied().without(king);
        let steps = self.tables.step_targets[self.store.code(king) as usize][king.usize()] & open;
        steps.into_iter().filter(|&to| !self.attacked_by(to, enemy, enemies.without(to), occupied)).collect()
    }

    /// The cells a piece of cell code `code` on `from` attacks: its steps and leaps, and along
    /// each of its ranges the empty cells and the first occupied one.
    #[inline]
    pub(super) fn reach(&self, code: usize, from: Cell) -> CellSet {
        let tables = self.tables;
        tables.grid.piece_reach(from, tables.step_targets[code][from.usize()], tables.range_hours[code], self.store.occupied())
    }

    /// `reach(code, from) & allowed`; for `captures`, where `allowed` holds only enemy
    /// pieces, without following ranges that can meet none.
    #[inline]
    fn targets(&self, code: usize, from: Cell, allowed: CellSet, captures: bool) -> CellSet {
        if captures {
            let tables = self.tables;
            let steps = tables.step_targets[code][from.usize()];
            tables.grid.piece_reach_within(from, steps, tables.range_hours[code], self.store.occupied(), allowed)
        } else {
            self.reach(code, from) & allowed
        }
    }

    /// The cells `player`'s pieces attack, read from the cell codes without decoding a piece.
    pub fn attack_map(&self, player: Player) -> CellSet {
        self.attack_map_and_value(player, &[0; 16]).0
    }

    /// `attack_map` and the sum of `kind_values` (by `Piece::kind`) over the player's pieces
    /// on the board, in one pass: the evaluation's attack map and material.
    pub fn attack_map_and_value(&self, player: Player, kind_values: &[i32; 16]) -> (CellSet, i32) {
        self.store.attacks_and_value(player, kind_values, |code, from| self.reach(code, from))
    }

    /// `attack_map_and_value` in two parts, for an evaluation that keeps the first: see
    /// `PieceStore::step_map_and_value` and `ranging_pieces`.
    pub fn step_map_and_value(&self, player: Player, kind_values: &[i32; 16]) -> (CellSet, i32) {
        self.store.step_map_and_value(player, kind_values, &self.tables.step_targets)
    }

    /// The second part: `player`'s ranging pieces, each with the hours it ranges along, whose
    /// `reach_along` complete the attack map.
    pub fn ranging_pieces(&self, player: Player) -> impl Iterator<Item = (Cell, HourSet)> + '_ {
        self.store.ranging_pieces(player, self.rangers, &self.tables.range_hours)
    }

    /// The cells a piece on `from` reaches along `hours` as the board stands.
    #[inline]
    pub fn reach_along(&self, from: Cell, hours: HourSet) -> CellSet {
        self.tables.grid.ranges(from, hours, self.store.occupied())
    }

    /// The hash of `player`'s pieces on the board: equal wherever he has the same pieces on
    /// the same cells.
    pub fn board_key(&self, player: Player) -> u64 {
        self.store.board_key(player)
    }

    fn generate_two<const LIST: u8>(&self, out: &mut impl MoveSink) {
        let mover = self.to_move;
        let Some(king) = self.king_of(mover) else { return };
        let safety = self.king_safety(king);
        let own = self.store.pieces_of(mover);
        let enemy = self.opponent(mover);
        let enemies = self.store.pieces_of(enemy);
        // Where moves may end: not on an own piece; for captures on an enemy one, for quiet
        // moves on an empty cell.
        let open = match LIST {
            CAPTURES => enemies,
            QUIETS => !self.store.occupied(),
            _ => !own,
        };
        let captures = LIST == CAPTURES;
        let double_check = safety.checkers.count() > 1;
        if !double_check {
            let allowed = open & safety.evasion;
            // Usually nothing is pinned, and then no piece needs the test. Both loops take the
            // pieces in the same order, so the moves come out in the same order either way.
            let pinned = safety.pinned;
            // Listing captures, most pieces have none: they push nothing.
            if pinned.is_empty() {
                for from in own.without(king) {
                    let code = self.store.code(from) as usize;
                    let targets = self.targets(code, from, allowed, captures);
                    if !(captures && targets.is_empty()) {
                        self.push_board_moves(from, code, targets, out);
                    }
                }
            } else {
                for from in own.without(king) {
                    let code = self.store.code(from) as usize;
                    let mut targets = self.targets(code, from, allowed, captures);
                    if pinned.contains(from) {
                        targets &= self.tables.grid.pin_line(king, from, self.store.occupied());
                    }
                    if !(captures && targets.is_empty()) {
                        self.push_board_moves(from, code, targets, out);
                    }
                }
            }
        }

        for to in self.safe_king_steps(king, open) {
            out.push(Move::Normal { from: king, to, promote: false });
        }

        // A drop never exposes the dropper's king; in check it must block.
        if !captures && !double_check {
            self.push_drops(mover, (self.tables.grid.all() - self.store.occupied()) & safety.evasion, out);
        }
    }

    fn generate_three<const LIST: u8>(&self, out: &mut impl MoveSink) {
        let mover = self.to_move;
        let captures = LIST == CAPTURES;
        if self.timed_out.contains(mover) {
            if !captures {
                out.push(Move::Pass);
            }
            return;
        }
        let pushed_before = out.count();
        let own = self.store.pieces_of(mover);
        let open = match LIST {
            CAPTURES => self.store.occupied() - own,
            QUIETS => !self.store.occupied(),
            _ => !own,
        };
        for from in own {
            let code = self.store.code(from) as usize;
            let targets = self.targets(code, from, open, captures);
            if !(captures && targets.is_empty()) {
                self.push_board_moves(from, code, targets, out);
            }
        }
        if captures {
            return;
        }
        self.push_drops(mover, self.tables.grid.all() - self.store.occupied(), out);
        // §2.7: a player with no legal move must pass (a player without pieces always does,
        // and so does one who ran out of time, above). Listing the quiet moves, none may
        // still leave a capture.
        if out.count() == pushed_before && (LIST == ALL || self.legal_capture_count() == 0) {
            out.push(Move::Pass);
        }
    }

    /// How many legal actions `legal_captures` would list, without listing them.
    fn legal_capture_count(&self) -> usize {
        let mut count = MoveCount::default();
        self.generate::<CAPTURES>(&mut count);
        count.0
    }

    /// Pushes the moves of the piece on `from` to each of `targets`, promoted and/or not as
    /// §2.4 allows: optional promotion on a move from or into the zone, compulsory where the
    /// unpromoted piece could never move again.
    #[inline]
    pub(super) fn push_board_moves(&self, from: Cell, code: usize, targets: CellSet, out: &mut impl MoveSink) {
        let (promoted, plain) = self.tables.promotion_split(code, from, targets);
        out.push_targets(from, promoted, true);
        out.push_targets(from, plain, false);
    }

    /// Pushes the drops of `mover` onto the cells of `empty` the drop rules allow (§2.5, §2.7).
    pub(super) fn push_drops(&self, mover: Player, empty: CellSet, out: &mut impl MoveSink) {
        let hand = &self.store.hand(mover);
        if hand.is_empty() {
            return;
        }
        // Three players: a held king goes back on any empty cell, before any other drop.
        if hand.count(Role::King) > 0 {
            out.push_drops(Role::King, empty);
            return;
        }
        let dead = &self.tables.dead_cells[mover];
        for role in Role::DROPPABLE {
            if hand.count(role) == 0 {
                continue;
            }
            let mut targets = empty - dead[role.index()];
            if role == Role::Pawn {
                targets = targets - self.pawn_drop_bans(mover);
            }
            out.push_drops(role, targets);
        }
    }

    /// Cells where `mover` may not drop a pawn: those his own unpromoted pawns attack, and
    /// those from which the pawn would attack another player's king (the options of §5 #21).
    fn pawn_drop_bans(&self, mover: Player) -> CellSet {
        let tables = self.tables;
        let mut banned = CellSet::EMPTY;
        if self.rules.pawn_drop_no_pawn_support {
            let code = code_of(Piece { player: mover, role: Role::Pawn, promoted: false }) as usize;
            for pawn in self.pawns & self.store.pieces_of(mover) {
                banned |= tables.step_targets[code][pawn.usize()];
            }
        }
        if self.rules.pawn_drop_may_not_attack_king {
            for king in self.kings - self.store.pieces_of(mover) {
                banned |= tables.pawn_sources[mover][king.usize()];
            }
        }
        banned
    }

    /// The checkers of the player to move, whose king stands on `king`, and his pinned pieces.
    /// Knights and pieces one step away check by themselves (looked for only when the king is
    /// known to be in check); along each ray that holds an enemy ranging piece, the first piece
    /// met checks if it is one ranging back, and a piece of the mover's is pinned if the next
    /// piece met is.
    pub(super) fn king_safety(&self, king: Cell) -> KingSafety {
        let tables = self.tables;
        let grid = tables.grid;
        let enemy = self.opponent(self.to_move);
        let enemies = self.store.pieces_of(enemy);
        let mut checkers = CellSet::EMPTY;
        if self.mover_in_check {
            checkers = tables.knight_sources[enemy][king.usize()] & enemies & self.knights;
            for near in grid.next_door(king) & enemies {
                if self.attacks_next_door(near, king) {
                    checkers.insert(near);
                }
            }
        }
        let mut pinned = CellSet::EMPTY;
        let far = grid.lines(king) & enemies & self.rangers;
        if !far.is_empty() {
            // The rays that hold one: usually one or two of the twelve.
            let mut hours = HourSet::EMPTY;
            for ranger in far {
                hours.insert(grid.hour_towards(king, ranger).expect("a piece on one of the king's lines"));
            }
            for hour in hours.iter() {
                let Some(first) = grid.first_on_ray(king, hour, self.store.occupied()) else { continue };
                let back = hour.opposite();
                if enemies.contains(first) {
                    if far.contains(first) && tables.range_hours[self.store.code(first) as usize].contains(back) {
                        checkers.insert(first);
                    }
                    continue;
                }
                if self.ranges_onto(first, hour, far, self.store.occupied()).is_some() {
                    pinned.insert(first);
                }
            }
        }
        let evasion = match checkers.count() {
            0 => grid.all(),
            1 => {
                let checker = checkers.first().expect("one checker");
                checkers | grid.between(king, checker).unwrap_or(CellSet::EMPTY)
            }
            _ => CellSet::EMPTY,
        };
        KingSafety { checkers, evasion, pinned }
    }
}
