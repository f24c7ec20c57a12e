//! The sets of databases the 15-puzzle uses, by name: the standard goal's partitions and the
//! 6-6-3 regions of the other goals, what each holds and what it costs to build and keep.

use crate::tiles::board::Board4;
use crate::tiles::pdb::placements;

/// A split of the 15 tiles into disjoint patterns, one database each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Partition {
    /// 6-6-3: the left two columns of the top three rows, the right two columns of the top
    /// three rows, and the bottom row (11.5 MB; builds in seconds).
    P663,
    /// 7-8: the top two rows, and the bottom two rows (577 MB; builds in minutes, meant to be
    /// built once and stored).
    P78,
}

impl Partition {
    /// The tiles of each pattern.
    #[must_use]
    pub fn patterns(self) -> &'static [&'static [u8]] {
        match self {
            Partition::P663 => &[&[1, 2, 5, 6, 9, 10], &[3, 4, 7, 8, 11, 12], &[13, 14, 15]],
            Partition::P78 => &[&[1, 2, 3, 4, 5, 6, 7, 8], &[9, 10, 11, 12, 13, 14, 15]],
        }
    }

    /// The name answers report as their method: `"pdb-663"` or `"pdb-78"`.
    #[must_use]
    pub fn method(self) -> &'static str {
        match self {
            Partition::P663 => "pdb-663",
            Partition::P78 => "pdb-78",
        }
    }
}

/// One set of databases the 15-puzzle searches may use, built, stored and loaded as a whole.
///
/// The standard goal (blank bottom-right) has two partitions; targets whose blank turns onto
/// cell 10, 13 or 14 have a 6-6-3-style set of their own (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DatabaseSet {
    /// A partition for the standard goal.
    Standard(Partition),
    /// The 6-6-3 regions for the goal with the blank on this cell (10, 13 or 14).
    Home(u8),
}

impl DatabaseSet {
    /// Every set, smallest first: what a data directory may hold.
    pub const ALL: [DatabaseSet; 5] = [
        DatabaseSet::Standard(Partition::P663),
        DatabaseSet::Home(10),
        DatabaseSet::Home(13),
        DatabaseSet::Home(14),
        DatabaseSet::Standard(Partition::P78),
    ];

    /// The set's name in file names and logs: `pdb-663`, `pdb-78`, `pdb-663-blank10`.
    #[must_use]
    pub fn name(self) -> String {
        match self {
            DatabaseSet::Standard(partition) => partition.method().to_owned(),
            DatabaseSet::Home(cell) => format!("pdb-663-blank{cell}"),
        }
    }

    /// The goal the set is built for.
    #[must_use]
    pub fn goal(self) -> Board4 {
        match self {
            DatabaseSet::Standard(_) => Board4::goal(),
            DatabaseSet::Home(cell) => Board4::canonical(cell as usize),
        }
    }

    /// The tiles of each of the set's databases.
    #[must_use]
    pub fn patterns(self) -> Vec<Vec<u8>> {
        match self {
            DatabaseSet::Standard(partition) => {
                partition.patterns().iter().map(|t| t.to_vec()).collect()
            }
            DatabaseSet::Home(_) => region_patterns(&self.goal()),
        }
    }

    /// The placements (table bytes) of each of the set's databases, in build order: the
    /// weights of [`Progress::fraction`](crate::Progress::fraction).
    #[must_use]
    pub fn database_sizes(self) -> Vec<u64> {
        self.patterns()
            .iter()
            .map(|tiles| placements(tiles.len()) as u64)
            .collect()
    }

    /// The bytes the set's tables take in memory and on disk.
    #[must_use]
    pub fn table_bytes(self) -> u64 {
        self.database_sizes().iter().sum()
    }

    /// The memory a build needs at its peak, roughly: while a database is built, the tables
    /// built before it, its own table, and a word of two masks of blank cells per placement (two
    /// bytes for 8 tiles, four for fewer tiles, which leave more than 8 cells free).
    ///
    /// ```
    /// use solver_core::fifteen::{DatabaseSet, Partition};
    /// // The 8-tile database first: its table and a two-byte word of masks per placement.
    /// assert_eq!(DatabaseSet::Standard(Partition::P78).build_bytes(), 3 * 518_918_400);
    /// ```
    #[must_use]
    pub fn build_bytes(self) -> u64 {
        let mut done = 0;
        let mut peak = 0;
        for (tiles, size) in self.patterns().iter().zip(self.database_sizes()) {
            // The table's byte and the word of the reached and seed masks.
            let word = if tiles.len() >= 8 { 2 } else { 4 };
            peak = peak.max(done + size * (1 + word));
            done += size;
        }
        peak
    }
}

impl std::fmt::Display for DatabaseSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

/// Goal cells grouped into the 6-6-3 regions: the left and the right two columns of the top
/// three rows, and the bottom row.
pub(super) const REGIONS: [&[usize]; 3] = [
    &[0, 1, 4, 5, 8, 9],
    &[2, 3, 6, 7, 10, 11],
    &[12, 13, 14, 15],
];

/// The tiles of `goal` in each region (the blank's region has one tile fewer).
pub(super) fn region_patterns(goal: &Board4) -> Vec<Vec<u8>> {
    REGIONS
        .iter()
        .map(|cells| {
            cells
                .iter()
                .map(|&c| goal.cells()[c])
                .filter(|&t| t != 0)
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standard_goal_regions_are_6_6_3() {
        let patterns = region_patterns(&Board4::goal());
        assert_eq!(patterns, Partition::P663.patterns().to_vec());
        assert_eq!(
            region_patterns(&Board4::canonical(10))
                .iter()
                .map(Vec::len)
                .collect::<Vec<_>>(),
            [6, 5, 4]
        );
    }
}
