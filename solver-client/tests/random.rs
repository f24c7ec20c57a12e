//! Random inputs drawn with the workspace's one seeded generator
//! ([`solver_test_support::rng::Lcg`]): permutations and draws without repetition, for the tests
//! here, the crate's unit tests and the `judge_input` example. The same seed draws the same
//! inputs on every run, so a failure reproduces.

pub(crate) use solver_test_support::rng::Lcg;

/// What the tests draw besides numbers.
pub(crate) trait Draws {
    /// `0..n` in a random order.
    fn shuffled(&mut self, n: usize) -> Vec<usize>;

    /// `count` distinct numbers in `0..n`, in a random order.
    fn distinct(&mut self, count: usize, n: usize) -> Vec<usize>;
}

impl Draws for Lcg {
    fn shuffled(&mut self, n: usize) -> Vec<usize> {
        let mut items: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            items.swap(i, self.below(i + 1));
        }
        items
    }

    fn distinct(&mut self, count: usize, n: usize) -> Vec<usize> {
        let mut items = self.shuffled(n);
        items.truncate(count);
        items
    }
}
