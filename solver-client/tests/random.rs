//! The one seeded generator of the tests (xorshift64*), here, in the crate's unit tests and in the
//! `judge_input` example: the same seed draws the same inputs on every run, so a failure
//! reproduces.

/// A small deterministic generator; for tests and test data only.
pub(crate) struct Rng(u64);

impl Rng {
    /// A generator from `seed` (0 is replaced: xorshift never leaves the all-zero state).
    pub(crate) fn new(seed: u64) -> Self {
        Self(if seed == 0 {
            0x2545_f491_4f6c_dd1d
        } else {
            seed
        })
    }

    /// A number in `0..n`.
    pub(crate) fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }

    /// `0..n` in a random order.
    pub(crate) fn shuffled(&mut self, n: usize) -> Vec<usize> {
        let mut items: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            items.swap(i, self.below(i + 1));
        }
        items
    }

    /// `count` distinct numbers in `0..n`, in a random order.
    pub(crate) fn distinct(&mut self, count: usize, n: usize) -> Vec<usize> {
        let mut items = self.shuffled(n);
        items.truncate(count);
        items
    }
}
