//! Asking the processor to load a cache line before it is read: the search's tables are
//! probed at random places, and nearly every probe would otherwise wait on memory.

/// Starts loading the cache line that holds `item`. Only a hint: it reads nothing.
#[inline]
pub fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        let line: *const T = item;
        // SAFETY: a prefetch only hints the processor; it reads nothing and cannot fault.
        unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(line.cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}
