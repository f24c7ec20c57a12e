//! Huge pages for the large tables: the searches read pattern-database entries at random
//! across hundreds of megabytes, and with 4 KiB pages nearly every read also misses the TLB
//! and walks the page tables. On Linux with transparent huge pages in `madvise` mode (the
//! common default), 2 MiB pages must be asked for before the memory is first touched.
//!
//! Measured on the 5×5 6-6-6-6 set (977 MB): the 24-puzzle's IDA* 1.14× faster on one thread
//! and about 1.25× on two, with loading unchanged at 1–2 s. (The 15-puzzle's tables stay on
//! plain pages: see `tiles::pdb`.)

/// A zeroed table of `len` bytes, on huge pages where the system grants them (a hint: the
/// table is the same either way, only its reads are faster).
pub(crate) fn zeroed(len: usize) -> Box<[u8]> {
    // A large zeroed allocation is a fresh mapping not yet touched, so the advice comes in time.
    let table = vec![0u8; len].into_boxed_slice();
    advise_huge(&table);
    table
}

/// A zeroed table of `len` bytes that views share, on huge pages where the system grants them:
/// an `Arc<[u8]>` keeps the bytes' address and length in the owner, so a read goes through one
/// pointer as with a `Box<[u8]>` (an `Arc<Box<[u8]>>` would add a second).
#[expect(unsafe_code, reason = "zeroed bytes are initialised bytes")]
pub(crate) fn zeroed_shared(len: usize) -> std::sync::Arc<[u8]> {
    let table = std::sync::Arc::<[u8]>::new_zeroed_slice(len);
    // SAFETY: every bit pattern, all zeros included, is a valid `u8`.
    let table = unsafe { table.assume_init() };
    // A large zeroed allocation is a fresh mapping: only its header was written.
    advise_huge(&table);
    table
}

/// A table holding `bytes`, on huge pages where the system grants them.
pub(crate) fn collect(len: usize, bytes: impl IntoIterator<Item = u8>) -> Box<[u8]> {
    let mut table = zeroed(len);
    let mut filled = 0;
    for (slot, byte) in table.iter_mut().zip(bytes) {
        *slot = byte;
        filled += 1;
    }
    debug_assert_eq!(filled, len, "as many bytes as the table holds");
    table
}

#[cfg(target_os = "linux")]
#[expect(unsafe_code, reason = "madvise is a hint on memory the table owns")]
fn advise_huge(table: &[u8]) {
    const HUGE: usize = 2 << 20;
    let start = (table.as_ptr() as usize).next_multiple_of(HUGE);
    let end = (table.as_ptr() as usize + table.len()) / HUGE * HUGE;
    if start < end {
        // SAFETY: [start, end) lies inside `table`'s allocation, page-aligned; MADV_HUGEPAGE
        // changes how the kernel backs those pages, never their contents, and a refusal (no
        // huge pages on this system) is harmless, so the result is ignored.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge(_: &[u8]) {}

#[cfg(test)]
mod tests {
    #[test]
    fn tables_hold_what_they_are_given() {
        for len in [0, 1, 4096, (2 << 20) + 3, 5 << 20] {
            assert!(super::zeroed(len).iter().all(|&b| b == 0));
            let table = super::collect(len, (0..len).map(|i| (i % 251) as u8));
            assert_eq!(table.len(), len);
            assert!(table.iter().enumerate().all(|(i, &b)| b == (i % 251) as u8));
        }
    }
}
