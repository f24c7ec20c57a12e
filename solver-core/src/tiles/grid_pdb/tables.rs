//! A set's tables in one allocation: a lookup's read is then one bounds check on one slice
//! (each table's start is folded into the lookup's indices), not a table picked from a list and
//! checked again. Measured with `valgrind --tool=cachegrind` on Korf & Felner's #38 (one thread,
//! 18.4 M nodes): the search's instructions a node went from 321 to 296 with it.
//!
//! Several sets can be **views** of one allocation ([`Tables::select`]): the sets that race on a
//! board, and their combinations, share the bytes rather than each holding a copy.

use std::ops::Range;
use std::sync::Arc;

/// Some tables of one allocation (all of them, unless [selected](Self::select)).
pub(super) struct Tables {
    bytes: Arc<[u8]>,
    /// Where each of this set's tables lies among `bytes`.
    spans: Vec<Range<usize>>,
}

impl Tables {
    /// Zeroed tables of `sizes` bytes, one after another (on huge pages where the system grants
    /// them).
    pub(super) fn zeroed(sizes: &[u64]) -> Self {
        let mut spans = Vec::with_capacity(sizes.len());
        let mut end = 0;
        for &size in sizes {
            spans.push(end..end + size as usize);
            end += size as usize;
        }
        Self {
            bytes: crate::pages::zeroed_shared(end),
            spans,
        }
    }

    /// One allocation holding a copy of the tables of every set in `sets`, in order.
    pub(super) fn concat(sets: &[&Tables]) -> Self {
        let sizes: Vec<u64> = sets
            .iter()
            .flat_map(|set| (0..set.count()).map(|t| set.table(t).len() as u64))
            .collect();
        let mut all = Self::zeroed(&sizes);
        let mut t = 0;
        for set in sets {
            for i in 0..set.count() {
                all.table_mut(t).copy_from_slice(set.table(i));
                t += 1;
            }
        }
        all
    }

    /// The tables `chosen` (indices into this set's, in that order), sharing this set's bytes.
    ///
    /// # Panics
    /// When an index is out of range.
    pub(super) fn select(&self, chosen: impl IntoIterator<Item = usize>) -> Self {
        Self {
            bytes: Arc::clone(&self.bytes),
            spans: chosen.into_iter().map(|t| self.spans[t].clone()).collect(),
        }
    }

    /// How many tables there are.
    pub(super) fn count(&self) -> usize {
        self.spans.len()
    }

    /// Table `t`.
    pub(super) fn table(&self, t: usize) -> &[u8] {
        &self.bytes[self.spans[t].clone()]
    }

    /// Table `t`, to be written: only before the bytes are shared.
    ///
    /// # Panics
    /// When another set shares the bytes.
    pub(super) fn table_mut(&mut self, t: usize) -> &mut [u8] {
        let span = self.spans[t].clone();
        let bytes =
            Arc::get_mut(&mut self.bytes).expect("tables are written before they are shared");
        &mut bytes[span]
    }

    /// Where table `t` starts among [`all`](Self::all)'s bytes.
    pub(super) fn start(&self, t: usize) -> usize {
        self.spans[t].start
    }

    /// The bytes of the whole allocation (this set's tables and any others sharing it), which
    /// [`start`](Self::start) indexes.
    #[inline]
    pub(super) fn all(&self) -> &[u8] {
        &self.bytes
    }

    /// Bytes in this set's tables.
    pub(super) fn len(&self) -> usize {
        self.spans.iter().map(ExactSizeIterator::len).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_sit_one_after_another() {
        let mut first = Tables::zeroed(&[3, 5]);
        first.table_mut(0).copy_from_slice(&[1, 2, 3]);
        first.table_mut(1).copy_from_slice(&[4, 5, 6, 7, 8]);
        assert_eq!(first.count(), 2);
        assert_eq!((first.start(1), first.len()), (3, 8));
        assert_eq!(first.all(), &[1, 2, 3, 4, 5, 6, 7, 8]);
        let mut second = Tables::zeroed(&[2]);
        second.table_mut(0).copy_from_slice(&[9, 10]);
        let both = Tables::concat(&[&first, &second]);
        assert_eq!(both.count(), 3);
        assert_eq!(both.table(1), &[4, 5, 6, 7, 8]);
        assert_eq!(both.table(2), &[9, 10]);
        assert_eq!(both.start(2), 8);
    }

    #[test]
    fn a_selection_shares_the_bytes_and_is_read_only() {
        let mut all = Tables::zeroed(&[3, 5, 2]);
        all.table_mut(2).copy_from_slice(&[9, 10]);
        let mut view = all.select([2, 0]);
        assert_eq!((view.count(), view.len()), (2, 5));
        assert_eq!(view.table(0), &[9, 10]);
        assert_eq!((view.start(0), view.start(1)), (8, 0));
        assert_eq!(view.all().as_ptr(), all.all().as_ptr());
        let written = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            view.table_mut(0)[0] = 1;
        }));
        assert!(written.is_err(), "shared tables are never written");
    }
}
