//! The moves that some thread of a parallel search is searching right now (simplified ABDADA,
//! after Kerrigan). A thread that meets a move another thread has under way puts it off to the
//! end of its node, so that the threads spread over the siblings instead of all searching the
//! same subtree at once; by the time it comes back, the table holds the other thread's result.

use std::sync::atomic::{AtomicU64, Ordering};

use polyshogi::mv::Move;
use polyshogi::splitmix::mix;

/// Slots (a power of two): the moves under way at once are at most a few per ply per thread.
const SLOTS: usize = 4096;

/// A direct-mapped set of (node, move) keys. Two keys that share a slot only cost a move put
/// off or searched twice, never a wrong result, so no lock is needed.
pub struct InProgress {
    slots: Box<[AtomicU64]>,
}

impl Default for InProgress {
    fn default() -> Self {
        InProgress { slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect() }
    }
}

impl InProgress {
    /// The key of move `m` at the node whose table key is `node` (never 0, the empty slot).
    #[inline]
    pub fn key(node: u64, m: Move) -> u64 {
        mix(node ^ u64::from(m.pack()).rotate_left(32)) | 1
    }

    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[(key >> 32) as usize & (SLOTS - 1)]
    }

    /// Whether another thread is searching the move of `key`.
    #[inline]
    pub fn contains(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key
    }

    /// Marks the move of `key` as under way.
    #[inline]
    pub fn start(&self, key: u64) {
        self.slot(key).store(key, Ordering::Relaxed);
    }

    /// Clears the mark of `key`, unless another move has taken its slot since.
    #[inline]
    pub fn finish(&self, key: u64) {
        let _ = self.slot(key).compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use polyshogi::geometry::Cell;

    #[test]
    fn a_move_is_in_progress_from_its_start_to_its_finish_only() {
        let set = InProgress::default();
        let m = Move::Normal { from: Cell::new(3).unwrap(), to: Cell::new(9).unwrap(), promote: false };
        let other = Move::Normal { from: Cell::new(9).unwrap(), to: Cell::new(3).unwrap(), promote: false };
        let key = InProgress::key(42, m);
        assert!(!set.contains(key));
        set.start(key);
        assert!(set.contains(key));
        assert!(!set.contains(InProgress::key(42, other)), "another move of the node");
        assert!(!set.contains(InProgress::key(43, m)), "the same move at another node");
        set.finish(key);
        assert!(!set.contains(key));
    }
}
