//! The repetition key: a 64-bit Zobrist hash of what makes two Sankaku positions the same for
//! super-ko (§3.5): the board and the side to move. It is kept up to date piece by piece.

use std::sync::LazyLock;

use super::tables::{Code, CODES};
use crate::geometry::TRI_CELLS;
use crate::zobrist;

/// Where Sankaku's features start, so that its keys share no values with another game's.
const BASE: u64 = 0x5a4b_0001;

static PIECE_KEYS: [[u64; TRI_CELLS]; CODES] = zobrist::piece_keys(BASE);

/// Added when White is to move.
pub(super) const WHITE_TO_MOVE: u64 = zobrist::feature(BASE + 0xffff);

#[inline]
pub(super) fn piece_key(code: Code, cell: usize) -> u64 {
    PIECE_KEYS[code as usize][cell]
}

/// Slots of the table of quiet steps (a power of two, over 1.5 times the steps).
const STEP_SLOTS: usize = 1 << 14;

/// A piece's step between two cells, filed under the change it makes to the key,
/// `piece_key(code, a) ^ piece_key(code, b)`: the change's high half, the piece and the two
/// cells, either way round. Code 0 marks an empty slot.
#[derive(Clone, Copy, Default)]
struct StepSlot {
    change_high: u32,
    code: Code,
    cells: [u8; 2],
}

/// Every step of every piece between two cells, by the change it makes to the key (open
/// addressing on its low bits).
static STEP_OF_CHANGE: LazyLock<Box<[StepSlot]>> = LazyLock::new(|| {
    let mut slots = vec![StepSlot::default(); STEP_SLOTS].into_boxed_slice();
    for code in 1..CODES as Code {
        for a in 0..TRI_CELLS {
            for b in a + 1..TRI_CELLS {
                let change = step_change(code, a, b);
                assert!(step_with_change_in(&slots, change).is_none(), "two steps change the key alike");
                let mut slot = change as usize % STEP_SLOTS;
                while slots[slot].code != 0 {
                    slot = (slot + 1) % STEP_SLOTS;
                }
                slots[slot] = StepSlot { change_high: (change >> 32) as u32, code, cells: [a as u8, b as u8] };
            }
        }
    }
    slots
});

#[inline]
fn step_change(code: Code, a: usize, b: usize) -> u64 {
    piece_key(code, a) ^ piece_key(code, b)
}

/// The piece and the two cells (either way round) between which a step changes the key by
/// `change`, if any: what turns "which quiet move would bring back this earlier position"
/// into one look-up.
#[inline]
pub(super) fn step_with_change(change: u64) -> Option<(Code, [usize; 2])> {
    step_with_change_in(&STEP_OF_CHANGE, change)
}

fn step_with_change_in(slots: &[StepSlot], change: u64) -> Option<(Code, [usize; 2])> {
    let mut slot = change as usize % STEP_SLOTS;
    loop {
        let StepSlot { change_high, code, cells } = slots[slot];
        if code == 0 {
            return None;
        }
        let [a, b] = cells.map(usize::from);
        // The high half sorts out nearly every other step sharing the slot; the full change
        // decides.
        if change_high == (change >> 32) as u32 && step_change(code, a, b) == change {
            return Some((code, [a, b]));
        }
        slot = (slot + 1) % STEP_SLOTS;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::splitmix::SplitMix;

    #[test]
    fn every_step_is_found_by_its_change_to_the_key_and_nothing_else_is() {
        for code in 1..CODES as Code {
            for a in 0..TRI_CELLS {
                for b in a + 1..TRI_CELLS {
                    assert_eq!(step_with_change(step_change(code, a, b)), Some((code, [a, b])));
                    assert_eq!(step_with_change(step_change(code, a, b) ^ WHITE_TO_MOVE), None);
                }
            }
        }
        let mut rng = SplitMix::new(7);
        for _ in 0..10_000 {
            assert_eq!(step_with_change(rng.next_u64()), None);
        }
    }
}
