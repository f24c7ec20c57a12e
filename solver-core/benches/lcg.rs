//! A small deterministic generator shared by the benchmarks, so every run measures the same
//! inputs.

/// A 64-bit linear congruential generator (Knuth's MMIX constants), high bits out.
pub(crate) struct Lcg(pub(crate) u64);

impl Lcg {
    /// The next 31 random bits.
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
}
