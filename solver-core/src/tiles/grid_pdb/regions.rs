//! The blank's regions: the connected parts of the cells a pattern's tiles leave free. A
//! zero-aware entry (Clausecker & Reinefeld, "Zero-aware pattern databases with 1-bit
//! compression for sliding tile puzzles", SoCS 2019) depends on the region the blank is in,
//! since it moves through its region for free but must move pattern tiles to leave it.
//!
//! Each table keeps one byte per placement: the least cost over all the blank's cells in the
//! low [`VALUE_BITS`] bits and, in the top two, half of what the *big* region (the one holding
//! more than half the free cells, where a search's blank almost always is) adds to it, capped
//! at 3. Both readings are admissible: the least cost is at most any region's, and the big
//! region's cost is at least the least plus the stored part of its excess.

use crate::tiles::flood::Flood;
use crate::tiles::grid::Grid;

/// Bits of an entry that hold the least cost; the rest hold the big region's excess.
pub(super) const VALUE_BITS: u32 = 6;

/// The largest least cost an entry holds; larger costs are stored as this (admissible).
const MAX_VALUE: u8 = (1 << VALUE_BITS) - 1;

/// The entry of a placement whose least cost over the blank's cells is `least`, and whose big
/// region costs `big` (`None` without a big region, or when it was not reached).
pub(super) fn pack(least: u8, big: Option<u8>) -> u8 {
    let excess = big.map_or(0, |big| big.saturating_sub(least) / 2).min(3);
    least.min(MAX_VALUE) | excess << VALUE_BITS
}

/// The least cost an entry holds, wherever the blank is.
#[inline]
pub(super) fn least(entry: u8) -> u8 {
    entry & MAX_VALUE
}

/// The blank's regions on one shape's cells.
#[derive(Debug, Clone)]
pub(super) struct Regions {
    flood: Flood,
}

impl Regions {
    pub(super) fn new(grid: Grid) -> Self {
        Self {
            flood: Flood::new(grid),
        }
    }

    /// The region holding more than half of `free`, or 0 when there is none.
    pub(super) fn big(&self, free: u64) -> u64 {
        let mut left = free;
        while left != 0 {
            let region = self.flood.fill(left & left.wrapping_neg(), free);
            if region.count_ones() * 2 > free.count_ones() {
                return region;
            }
            left &= !region;
        }
        0
    }

    /// The cost `entry` gives with the blank on `blank` and the pattern's tiles on the cells
    /// `occupied` gives: those cells and a flood fill only when the big region adds something
    /// (about one read in fifty, kept out of the searches' hot loop).
    #[inline(always)]
    pub(super) fn value(&self, entry: u8, blank: u32, occupied: impl FnOnce() -> u64) -> u8 {
        let least = least(entry);
        if entry == least {
            least
        } else {
            self.value_in_region(entry, blank, occupied())
        }
    }

    #[cold]
    #[inline(never)]
    fn value_in_region(&self, entry: u8, blank: u32, occupied: u64) -> u8 {
        let least = least(entry);
        let free = self.flood.all() & !occupied;
        let region = self.flood.fill(1 << blank, free);
        if region.count_ones() * 2 > free.count_ones() {
            least + 2 * (entry >> VALUE_BITS)
        } else {
            least
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_keep_the_least_cost_and_the_big_regions_excess() {
        assert_eq!(pack(7, None), 7);
        assert_eq!(pack(7, Some(7)), 7);
        assert_eq!(pack(7, Some(11)), 7 | 2 << VALUE_BITS);
        assert_eq!(pack(7, Some(40)), 7 | 3 << VALUE_BITS);
        assert_eq!(pack(70, Some(80)), 63 | 3 << VALUE_BITS);
        assert_eq!(least(pack(12, Some(16))), 12);
        // 3×3: the tiles on 1 and 3 wall the corner 0 off from the other six free cells.
        let regions = Regions::new(Grid::new(3, 3).unwrap());
        let occupied = 1 << 1 | 1 << 3;
        assert_eq!(regions.big(0x1ff & !occupied), 0x1ff & !occupied & !1);
        let entry = pack(5, Some(9));
        assert_eq!(regions.value(entry, 8, || occupied), 9);
        assert_eq!(regions.value(entry, 0, || occupied), 5);
        assert_eq!(regions.value(5, 8, || occupied), 5);
    }
}
