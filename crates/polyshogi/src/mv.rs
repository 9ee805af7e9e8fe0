//! Moves: the `Move` enum that names every special case, its packed `u32` form for search
//! tables, and `MoveList`, a fixed-capacity list that move generation fills without allocating.

use arrayvec::ArrayVec;

use crate::cellset::CellSet;
use crate::geometry::{Cell, Hour};
use crate::piece::Role;
use crate::splitmix::SplitMix;

/// A set of clock hours, one bit per hour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct HourSet(u16);

impl HourSet {
    pub const EMPTY: HourSet = HourSet(0);

    pub const fn bits(self) -> u16 {
        self.0
    }

    pub const fn from_bits(bits: u16) -> HourSet {
        HourSet(bits & 0x0fff)
    }

    #[inline]
    pub fn insert(&mut self, hour: Hour) {
        self.0 |= 1 << hour.index();
    }

    #[inline]
    pub const fn contains(self, hour: Hour) -> bool {
        self.0 & (1 << hour.index()) != 0
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Every hour of the set turned half round.
    #[inline]
    pub const fn opposite(self) -> HourSet {
        HourSet(((self.0 << 6) | (self.0 >> 6)) & 0x0fff)
    }

    /// The hours of the set, in clock order.
    #[inline]
    pub fn iter(self) -> impl Iterator<Item = Hour> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let hour = Hour::new(bits.trailing_zeros() as u8);
            bits &= bits - 1;
            Some(hour)
        })
    }
}

/// One action of a player.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// A piece moves (castling included: a king's jump is a normal move from its cell).
    Normal { from: Cell, to: Cell, promote: bool },
    /// A piece from the hand is put on an empty cell, unpromoted.
    Drop { role: Role, to: Cell },
    /// A promoted king, instead of moving, removes the first piece on each ray in `rays`
    /// (Sannin shogi's illumination). The rays are screen hours from `from`.
    Illuminate { from: Cell, rays: HourSet },
    /// A forced pass.
    Pass,
}

// Packed layout, low bits first:
//   bits 0..2   kind: 0 normal, 1 drop, 2 illuminate, 3 pass
//   bits 2..9   destination cell (normal, drop) or origin (illuminate)
//   bits 9..16  origin cell (normal)
//   bit  16     promote (normal); bits 16..19 role (drop); bits 16..28 rays (illuminate)
//   bit  31     set on a normal move, so that no move packs to zero
const KIND_NORMAL: u32 = 0;
const KIND_DROP: u32 = 1;
const KIND_ILLUMINATE: u32 = 2;
const KIND_PASS: u32 = 3;

impl Move {
    /// The move as one `u32` (see the layout above); never zero, so zero can mean "no move".
    pub fn pack(self) -> u32 {
        match self {
            Move::Normal { from, to, promote } => {
                KIND_NORMAL | (to.index() as u32) << 2 | (from.index() as u32) << 9 | (promote as u32) << 16 | 1 << 31
            }
            Move::Drop { role, to } => KIND_DROP | (to.index() as u32) << 2 | (role as u32) << 16,
            Move::Illuminate { from, rays } => KIND_ILLUMINATE | (from.index() as u32) << 2 | (rays.bits() as u32) << 16,
            Move::Pass => KIND_PASS,
        }
    }

    /// The move a packed value stands for, or `None` for a value `pack` never makes.
    pub fn unpack(packed: u32) -> Option<Move> {
        let cell = |shift: u32| Cell::new(((packed >> shift) & 0x7f) as u8);
        match packed & 3 {
            KIND_NORMAL if packed >> 31 == 1 => {
                Some(Move::Normal { from: cell(9)?, to: cell(2)?, promote: (packed >> 16) & 1 == 1 })
            }
            KIND_DROP => Some(Move::Drop { role: Role::from_index(((packed >> 16) & 7) as usize)?, to: cell(2)? }),
            KIND_ILLUMINATE => Some(Move::Illuminate { from: cell(2)?, rays: HourSet::from_bits((packed >> 16) as u16) }),
            KIND_PASS => Some(Move::Pass),
            _ => None,
        }
    }
}

/// Room for every legal move of any position: at most 4095 illumination subsets, 7 roles
/// dropped on at most 126 cells, and the board moves.
pub const MAX_MOVES: usize = 6144;

pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// Where move generation puts the legal moves it finds: a `MoveList`, or a `MoveCount` when
/// only their number is wanted (perft's bulk counting). Both go through the same generator,
/// so the count cannot disagree with the list on what is legal.
pub trait MoveSink {
    fn push(&mut self, m: Move);
    /// The board moves from `from` to every cell of `targets`, promoting or not.
    fn push_targets(&mut self, from: Cell, targets: CellSet, promote: bool);
    /// The drops of `role` on every cell of `targets`.
    fn push_drops(&mut self, role: Role, targets: CellSet);
    /// The board moves from `from` to the cells of `plain` without promotion and to those of
    /// `promoted` with it; a list holds them cell by cell, the promotion first.
    fn push_split(&mut self, from: Cell, plain: CellSet, promoted: CellSet);
    /// How many moves came in.
    fn count(&self) -> usize;
}

impl MoveSink for MoveList {
    #[inline]
    fn push(&mut self, m: Move) {
        ArrayVec::push(self, m);
    }

    #[inline]
    fn push_targets(&mut self, from: Cell, targets: CellSet, promote: bool) {
        for to in targets {
            ArrayVec::push(self, Move::Normal { from, to, promote });
        }
    }

    #[inline]
    fn push_drops(&mut self, role: Role, targets: CellSet) {
        for to in targets {
            ArrayVec::push(self, Move::Drop { role, to });
        }
    }

    #[inline]
    fn push_split(&mut self, from: Cell, plain: CellSet, promoted: CellSet) {
        for to in plain | promoted {
            if promoted.contains(to) {
                ArrayVec::push(self, Move::Normal { from, to, promote: true });
            }
            if plain.contains(to) {
                ArrayVec::push(self, Move::Normal { from, to, promote: false });
            }
        }
    }

    fn count(&self) -> usize {
        self.len()
    }
}

/// Whether a generator finds one given move, without listing the others.
pub struct MoveFinder {
    wanted: Move,
    pub found: bool,
    count: usize,
}

impl MoveFinder {
    pub fn new(wanted: Move) -> MoveFinder {
        MoveFinder { wanted, found: false, count: 0 }
    }
}

impl MoveSink for MoveFinder {
    fn push(&mut self, m: Move) {
        self.found |= m == self.wanted;
        self.count += 1;
    }

    fn push_targets(&mut self, from: Cell, targets: CellSet, promote: bool) {
        self.found |=
            matches!(self.wanted, Move::Normal { from: f, to, promote: p } if f == from && p == promote && targets.contains(to));
        self.count += targets.count() as usize;
    }

    fn push_drops(&mut self, role: Role, targets: CellSet) {
        self.found |= matches!(self.wanted, Move::Drop { role: r, to } if r == role && targets.contains(to));
        self.count += targets.count() as usize;
    }

    fn push_split(&mut self, from: Cell, plain: CellSet, promoted: CellSet) {
        self.push_targets(from, plain, false);
        self.push_targets(from, promoted, true);
    }

    fn count(&self) -> usize {
        self.count
    }
}

/// Counts the moves a generator finds without listing them.
#[derive(Clone, Copy, Default, Debug)]
pub struct MoveCount(pub usize);

impl MoveSink for MoveCount {
    #[inline]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }

    #[inline]
    fn push_targets(&mut self, _: Cell, targets: CellSet, _: bool) {
        self.0 += targets.count() as usize;
    }

    #[inline]
    fn push_drops(&mut self, _: Role, targets: CellSet) {
        self.0 += targets.count() as usize;
    }

    #[inline]
    fn push_split(&mut self, _: Cell, plain: CellSet, promoted: CellSet) {
        self.0 += (plain.count() + promoted.count()) as usize;
    }

    fn count(&self) -> usize {
        self.0
    }
}

/// Keeps one of the moves a generator finds, chosen uniformly at random, without listing them:
/// reservoir sampling a set at a time. After `n` moves each is the one kept with chance
/// `1/n`: a new set of `k` replaces the choice with chance `k/(n+k)`, by one of its own moves
/// chosen uniformly.
pub struct MoveSampler<'r> {
    rng: &'r mut SplitMix,
    seen: usize,
    chosen: Option<Move>,
}

impl<'r> MoveSampler<'r> {
    pub fn new(rng: &'r mut SplitMix) -> MoveSampler<'r> {
        MoveSampler { rng, seen: 0, chosen: None }
    }

    /// The move kept, `None` when none came in.
    pub fn chosen(&self) -> Option<Move> {
        self.chosen
    }
}

impl KeepOne for MoveSampler<'_> {
    #[inline]
    fn offer(&mut self, k: usize) -> Option<usize> {
        if k == 0 {
            return None;
        }
        self.seen += k;
        let draw = self.rng.below_by_product(self.seen);
        (draw < k).then_some(draw)
    }

    #[inline]
    fn keep(&mut self, m: Move) {
        self.chosen = Some(m);
    }

    fn seen(&self) -> usize {
        self.seen
    }
}

/// Keeps the move at one rank of the order in which a generator pushes its moves, without
/// listing the others (a rejection sampler's draw turned into a move); none when fewer come in.
pub struct MoveAt {
    /// How many moves are still to pass before the one to keep.
    rank: usize,
    seen: usize,
    chosen: Option<Move>,
}

impl MoveAt {
    pub fn new(rank: usize) -> MoveAt {
        MoveAt { rank, seen: 0, chosen: None }
    }

    /// The move at the rank, `None` when fewer moves came in.
    pub fn chosen(&self) -> Option<Move> {
        self.chosen
    }
}

impl KeepOne for MoveAt {
    #[inline]
    fn offer(&mut self, k: usize) -> Option<usize> {
        self.seen += k;
        if self.chosen.is_some() {
            return None;
        }
        if self.rank < k {
            return Some(self.rank);
        }
        self.rank -= k;
        None
    }

    #[inline]
    fn keep(&mut self, m: Move) {
        self.chosen = Some(m);
    }

    fn seen(&self) -> usize {
        self.seen
    }
}

/// A sink that keeps at most one of the moves it is offered, choosing by rank within each set
/// so that no set is listed: the random sampler and the sink of a given rank.
trait KeepOne {
    /// Offers `k` more moves; the rank among them of the one to keep instead, if any.
    fn offer(&mut self, k: usize) -> Option<usize>;
    fn keep(&mut self, m: Move);
    /// How many moves came in.
    fn seen(&self) -> usize;
}

impl<T: KeepOne> MoveSink for T {
    #[inline]
    fn push(&mut self, m: Move) {
        if self.offer(1).is_some() {
            self.keep(m);
        }
    }

    #[inline]
    fn push_targets(&mut self, from: Cell, targets: CellSet, promote: bool) {
        if let Some(rank) = self.offer(targets.count() as usize) {
            let to = targets.into_iter().nth(rank).expect("the rank is below the count");
            self.keep(Move::Normal { from, to, promote });
        }
    }

    #[inline]
    fn push_drops(&mut self, role: Role, targets: CellSet) {
        if let Some(rank) = self.offer(targets.count() as usize) {
            let to = targets.into_iter().nth(rank).expect("the rank is below the count");
            self.keep(Move::Drop { role, to });
        }
    }

    #[inline]
    fn push_split(&mut self, from: Cell, plain: CellSet, promoted: CellSet) {
        let plain_count = plain.count() as usize;
        if let Some(rank) = self.offer(plain_count + promoted.count() as usize) {
            let (set, rank, promote) =
                if rank < plain_count { (plain, rank, false) } else { (promoted, rank - plain_count, true) };
            let to = set.into_iter().nth(rank).expect("the rank is below the count");
            self.keep(Move::Normal { from, to, promote });
        }
    }

    fn count(&self) -> usize {
        self.seen()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips_every_kind() {
        let a = Cell::new(3).unwrap();
        let b = Cell::new(126).unwrap();
        let mut rays = HourSet::EMPTY;
        rays.insert(Hour::new(0));
        rays.insert(Hour::new(11));
        for m in [
            Move::Normal { from: a, to: b, promote: true },
            Move::Normal { from: b, to: a, promote: false },
            Move::Drop { role: Role::Pawn, to: b },
            Move::Illuminate { from: a, rays },
            Move::Pass,
        ] {
            assert_ne!(m.pack(), 0);
            assert_eq!(Move::unpack(m.pack()), Some(m));
        }
    }
}
