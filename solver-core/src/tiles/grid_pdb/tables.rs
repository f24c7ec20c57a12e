//! A set's tables in one allocation: a lookup's read is then one bounds check on one slice
//! (each table's start is folded into the lookup's indices), not a table picked from a list and
//! checked again. Measured with `valgrind --tool=cachegrind` on Korf & Felner's #38 (one thread,
//! 18.4 M nodes): the search's instructions a node went from 321 to 296 with it.

/// Every table of a set, one after another.
pub(super) struct Tables {
    bytes: Box<[u8]>,
    /// Where each table starts, and where the last one ends.
    starts: Vec<usize>,
}

impl Tables {
    /// Zeroed tables of `sizes` bytes (on huge pages where the system grants them).
    pub(super) fn zeroed(sizes: &[u64]) -> Self {
        let mut starts = vec![0];
        for &size in sizes {
            starts.push(starts[starts.len() - 1] + size as usize);
        }
        Self {
            bytes: crate::pages::zeroed(starts[starts.len() - 1]),
            starts,
        }
    }

    /// One set holding the tables of every set in `sets`, in order.
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

    /// How many tables there are.
    pub(super) fn count(&self) -> usize {
        self.starts.len() - 1
    }

    /// Table `t`.
    pub(super) fn table(&self, t: usize) -> &[u8] {
        &self.bytes[self.starts[t]..self.starts[t + 1]]
    }

    pub(super) fn table_mut(&mut self, t: usize) -> &mut [u8] {
        &mut self.bytes[self.starts[t]..self.starts[t + 1]]
    }

    /// Where table `t` starts among [`all`](Self::all)'s bytes.
    pub(super) fn start(&self, t: usize) -> usize {
        self.starts[t]
    }

    /// Every table's bytes, one after another.
    #[inline]
    pub(super) fn all(&self) -> &[u8] {
        &self.bytes
    }

    /// Bytes in all.
    pub(super) fn len(&self) -> usize {
        self.bytes.len()
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
}
