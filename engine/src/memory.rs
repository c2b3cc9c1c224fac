//! Large tables on huge pages where the system offers them.
//!
//! A transposition table is read at random over a hundred megabytes or more: on 4 KiB
//! pages nearly every probe also misses the processor's address cache (TLB) and waits on
//! a page walk, prefetched or not. Linux backs a range with 2 MiB pages when asked
//! (`madvise(MADV_HUGEPAGE)`, transparent huge pages in their default `madvise` mode), so
//! the tables are allocated, advised, and only then filled.

/// A vector of `n` copies of `value`, backed by huge pages where the system gives them
/// (elsewhere, or when it declines, an ordinary vector).
pub(crate) fn table<T: Clone>(n: usize, value: T) -> Vec<T> {
    let mut v: Vec<T> = Vec::with_capacity(n);
    advise_huge_pages(v.as_mut_ptr().cast(), n * std::mem::size_of::<T>());
    v.resize(n, value);
    v
}

/// Asks the kernel to back the whole 4 KiB pages of `len` bytes at `start` with huge
/// pages. Advice only: nothing happens where it is not supported.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn advise_huge_pages(start: *mut u8, len: usize) {
    const PAGE: usize = 4096;
    let addr = start as usize;
    let begin = addr.next_multiple_of(PAGE);
    let end = addr.saturating_add(len) & !(PAGE - 1);
    if end <= begin {
        return;
    }
    // SAFETY: the range lies inside the vector's own allocation (its capacity, whole pages
    // only), and `madvise` with `MADV_HUGEPAGE` changes how the kernel backs those pages,
    // never their contents or the mapping. A refusal (huge pages off) returns an error,
    // which changes nothing either, so it is ignored.
    unsafe {
        libc::madvise(begin as *mut libc::c_void, end - begin, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: *mut u8, _len: usize) {}

#[cfg(test)]
mod tests {
    #[test]
    fn a_table_holds_n_copies_whatever_its_size() {
        for n in [0, 1, 3, 100_000] {
            let t = super::table(n, [7u64, 9]);
            assert_eq!(t.len(), n);
            assert!(t.iter().all(|e| *e == [7, 9]));
        }
        // Large enough for whole 2 MiB pages.
        let t = super::table(1 << 20, 5u32);
        assert_eq!((t.len(), t[0], t[(1 << 20) - 1]), (1 << 20, 5, 5));
    }
}
