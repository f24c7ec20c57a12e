//! What every family's load cases share: the seeded generator they are drawn with, and a case
//! as sent with what its reply is checked against (each family makes its own cases: its
//! `load.rs`).

use crate::family::Query;

/// A small, fast, seedable generator (SplitMix64): load needs no cryptographic randomness.
#[derive(Debug, Clone)]
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        // The modulo bias is far below anything a load run can notice.
        (self.next_u64() % n as u64) as usize
    }

    /// `items` in a uniformly random order.
    pub(crate) fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// One case as sent, with what its reply is checked against.
#[derive(Debug, Clone)]
pub(crate) struct LoadCase {
    /// The question, as any client case.
    pub(crate) query: Query,
    /// The optimal length, when known (the hard boards).
    pub(crate) exact: Option<usize>,
    /// An answer must exist and be at most this long (the walk that made the case); `None`: a
    /// case that may have no answer (a random Solitaire end).
    pub(crate) at_most: Option<usize>,
}
