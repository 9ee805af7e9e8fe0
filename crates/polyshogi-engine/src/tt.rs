//! The transposition table: a fixed-size table of search results keyed by the position's
//! Zobrist key (the rules library keeps it up to date move by move), two entries per bucket.

use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicU64, Ordering};

use polyshogi::mv::Move;

use crate::eval::WIN_BOUND;

/// What a stored score says about the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    Exact,
    /// The true value is at least the score (a cut-off).
    Lower,
    /// The true value is at most the score (no move reached alpha).
    Upper,
}

/// One entry in two words that every search thread reads and writes without a lock (Lazy
/// SMP): `check` holds the key XOR the data, so an entry torn by two threads storing at once
/// fails the key test and reads as empty.
#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

/// The fields of an entry's data word, low bits first: `Move::pack` (32 bits, 0 for none),
/// the score (16), the depth (8), and the flags (8): the bound in bits 0..2 (0 = empty) and
/// the age in bits 2..8.
#[derive(Clone, Copy, Default)]
struct Data {
    mv: u32,
    score: i16,
    depth: i8,
    flags: u8,
}

impl Data {
    fn pack(self) -> u64 {
        self.mv as u64 | (self.score as u16 as u64) << 32 | (self.depth as u8 as u64) << 48 | (self.flags as u64) << 56
    }

    fn unpack(word: u64) -> Data {
        Data { mv: word as u32, score: (word >> 32) as u16 as i16, depth: (word >> 48) as u8 as i8, flags: (word >> 56) as u8 }
    }
}

impl Entry {
    /// The key and data as stored (relaxed loads: a torn pair only fails the key test).
    #[inline]
    fn read(&self) -> (u64, Data) {
        let data = self.data.load(Ordering::Relaxed);
        (self.check.load(Ordering::Relaxed) ^ data, Data::unpack(data))
    }

    #[inline]
    fn write(&self, key: u64, data: Data) {
        let word = data.pack();
        self.data.store(word, Ordering::Relaxed);
        self.check.store(key ^ word, Ordering::Relaxed);
    }
}

/// A probe's answer.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    pub mv: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

/// Two entries, aligned so that a bucket never straddles two cache lines: a probe then costs
/// one memory access at most (the allocator's 16-byte alignment split every other bucket).
#[derive(Default)]
#[repr(align(32))]
struct Bucket {
    entries: [Entry; 2],
}

/// Asks the kernel to back `memory` with 2 MiB pages where it can (Linux's transparent huge
/// pages, which many systems give only on request). A probe lands anywhere in the table, so
/// with 4 KiB pages nearly every one also misses the processor's cache of address
/// translations. Called before the memory is first written, so that it is faulted in large.
/// Advice only: refused or unsupported, the table works the same.
#[cfg(target_os = "linux")]
fn advise_huge_pages<T>(memory: &mut [MaybeUninit<T>]) {
    const HUGE_PAGE: usize = 2 * 1024 * 1024;
    let start = memory.as_mut_ptr() as usize;
    let end = start + std::mem::size_of_val(memory);
    let (first, last) = (start.next_multiple_of(HUGE_PAGE), end / HUGE_PAGE * HUGE_PAGE);
    if first < last {
        // SAFETY: the range lies inside the allocation `memory` borrows, and the advice
        // changes neither its contents nor who owns it.
        unsafe { libc::madvise(first as *mut libc::c_void, last - first, libc::MADV_HUGEPAGE) };
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages<T>(_memory: &mut [MaybeUninit<T>]) {}

/// Shared by the threads of one search through `&`; only clearing and aging take `&mut`.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    age: u8,
}

impl TranspositionTable {
    /// A table of about `megabytes` MiB (at least one bucket).
    pub fn new(megabytes: usize) -> TranspositionTable {
        let bucket = std::mem::size_of::<Bucket>();
        let count = (megabytes * 1024 * 1024 / bucket).max(1);
        let mut buckets = Vec::with_capacity(count);
        advise_huge_pages(buckets.spare_capacity_mut());
        buckets.resize_with(count, Bucket::default);
        TranspositionTable { buckets, age: 0 }
    }

    pub fn megabytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    pub fn clear(&mut self) {
        self.buckets.iter_mut().flat_map(|b| &mut b.entries).for_each(|e| *e = Entry::default());
        self.age = 0;
    }

    /// Marks a new search, so that older entries are replaced first.
    pub fn new_search(&mut self) {
        self.age = (self.age + 1) & 0x3f;
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.buckets.len() as u128) >> 64) as usize
    }

    /// Starts loading the bucket of `key` into the processor's cache, so that a probe made
    /// soon after does not wait on memory: a probe lands anywhere in the table, and nearly
    /// every one misses the cache.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        crate::prefetch::prefetch(&self.buckets[self.index(key)]);
    }

    /// The entry of `key`; mate scores are made relative to the root `ply` plies up.
    pub fn probe(&self, key: u64, ply: usize) -> Option<Hit> {
        let bucket = &self.buckets[self.index(key)].entries;
        let entry = bucket.iter().map(Entry::read).find(|(k, e)| *k == key && e.flags & 3 != 0).map(|(_, e)| e)?;
        let bound = match entry.flags & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Hit { mv: Move::unpack(entry.mv), score: from_tt(entry.score as i32, ply), depth: entry.depth as i32, bound })
    }

    /// Stores a result, keeping the deeper or newer of two entries per bucket.
    pub fn store(&self, key: u64, ply: usize, mv: Option<Move>, score: i32, depth: i32, bound: Bound) {
        let age = self.age;
        let bucket = &self.buckets[self.index(key)].entries;
        let stored = [bucket[0].read(), bucket[1].read()];
        let slot = if let Some(i) = stored.iter().position(|(k, _)| *k == key) {
            i
        } else {
            // Replace the entry of an older search first, else the shallower one.
            let value = |e: &Data| -> i32 {
                if e.flags >> 2 != age {
                    -1000
                } else {
                    e.depth as i32
                }
            };
            if value(&stored[0].1) <= value(&stored[1].1) {
                0
            } else {
                1
            }
        };
        let (old_key, old) = stored[slot];
        // Keep a known move when the new result has none.
        let mv = mv.map(Move::pack).unwrap_or(if old_key == key { old.mv } else { 0 });
        let bound = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let data = Data {
            mv,
            score: to_tt(score, ply).clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.clamp(-100, 100) as i8,
            flags: bound | age << 2,
        };
        bucket[slot].write(key, data);
    }
}

/// Win scores are stored relative to the node, not the root.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score + ply as i32
    } else if score < -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score - ply as i32
    } else if score < -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::WIN;
    use polyshogi::geometry::Cell;

    #[test]
    fn stored_entries_come_back_with_win_scores_relative_to_the_root() {
        let tt = TranspositionTable::new(1);
        let m = Move::Normal { from: Cell::new(3).unwrap(), to: Cell::new(9).unwrap(), promote: false };
        tt.store(42, 3, Some(m), WIN - 5, 4, Bound::Exact);
        let hit = tt.probe(42, 1).unwrap();
        assert_eq!(hit.mv, Some(m));
        assert_eq!(hit.score, WIN - 3);
        assert_eq!(hit.depth, 4);
        assert_eq!(hit.bound, Bound::Exact);
        assert!(tt.probe(43, 0).is_none());
        tt.store(42, 0, None, 10, 5, Bound::Lower);
        let hit = tt.probe(42, 0).unwrap();
        assert_eq!(hit.mv, Some(m), "the move survives a store without one");
        assert_eq!(hit.bound, Bound::Lower);
    }

    /// Two threads storing and probing the same buckets at once: a hit always carries the data
    /// stored with its own key, never half of another entry.
    #[test]
    fn entries_written_by_two_threads_at_once_never_mix() {
        let tt = TranspositionTable::new(0);
        let keys: Vec<u64> = (1..=64u64).map(polyshogi::splitmix::mix).collect();
        // The score and depth each key is stored with, so a mixed entry shows.
        let fields = |key: u64| ((key % 20_000) as i32, (key % 90) as i32);
        std::thread::scope(|scope| {
            for thread in 0..2 {
                let (tt, keys) = (&tt, &keys);
                scope.spawn(move || {
                    for round in 0..20_000 {
                        let key = keys[(round * 7 + thread * 13) % keys.len()];
                        let (score, depth) = fields(key);
                        tt.store(key, 0, None, score, depth, Bound::Lower);
                        let probed = keys[(round * 5 + thread) % keys.len()];
                        if let Some(hit) = tt.probe(probed, 0) {
                            assert_eq!((hit.score, hit.depth), fields(probed), "a hit with another key's data");
                        }
                    }
                });
            }
        });
        assert!(keys.iter().any(|&k| tt.probe(k, 0).is_some()), "nothing was stored");
    }
}
