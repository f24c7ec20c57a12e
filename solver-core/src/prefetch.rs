//! A hint to the memory: the hot loops of the searches read tables far larger than the caches,
//! and asking for a node's children's entries before they are read lets the misses overlap.

/// Asks the memory for the cache line holding `at` (a hint: any address may be given, nothing
/// is read, nothing changes).
#[inline(always)]
#[expect(unsafe_code, reason = "a prefetch reads nothing and never faults")]
pub(crate) fn prefetch<T>(at: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint that reads no memory, so any address is sound; SSE is part
    // of every x86-64 target.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(at.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = at;
}
