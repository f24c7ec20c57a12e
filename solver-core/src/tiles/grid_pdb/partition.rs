//! Which cells' tiles go together: a partition of a target's tiles into patterns, named by the
//! target cells the tiles belong in, so one set of tables serves every target with the same
//! blank cell (the tiles are renamed per target).

use std::fmt;

use crate::tiles::grid::Grid;

/// The most bytes a whole set of tables may take (4 GiB).
pub const MAX_SET_BYTES: u64 = 1 << 32;

/// The table budget of [`Partition::default_for`]: 1 GiB, enough for four 6-tile tables on 5×5.
pub const DEFAULT_BUDGET: u64 = 1 << 30;

/// Korf & Felner's 6-6-6-6 partition of the 24-puzzle (2002, their figure of the four patterns),
/// moved to the blank-last goal by the half-turn that maps their goal onto it: a 2×3 block in
/// the top-left corner, a 3×2 block on the right, a 3×2 block on the left and the rest around the
/// bottom-right corner. It is not its own mirror image, so the reflected lookup adds to it.
const KORF_FELNER_24: [[u8; 6]; 4] = [
    [0, 1, 2, 5, 6, 7],
    [3, 4, 8, 9, 13, 14],
    [10, 11, 15, 16, 20, 21],
    [12, 17, 18, 19, 22, 23],
];

/// Clausecker's best single 6-6-6-6 partition of the 24-puzzle (Clausecker & Reinefeld 2019,
/// `clausecker/24puzzle`, `catalogues/best-single.cat`: the partition of their catalogue with
/// the fewest nodes alone), moved to the blank-last goal by the same half-turn. On Korf &
/// Felner's 20 easiest instances it takes from 0.5 to 3.8 times the nodes of theirs, instance by
/// instance: a rival to race ([`Partition::rivals_for`]) rather than a better default.
const CLAUSECKER_BEST_24: [[u8; 6]; 4] = [
    [13, 14, 18, 19, 22, 23],
    [12, 15, 16, 17, 20, 21],
    [0, 1, 5, 6, 10, 11],
    [2, 3, 4, 7, 8, 9],
];

/// Partition 5 of Clausecker & Reinefeld's small catalogue (2019, `clausecker/24puzzle`,
/// `catalogues/small-compound.cat`: a 2×3 block in the top-left corner, the right column below
/// the top row, a 2×3 block in the middle, the bottom-left 2×3 block), moved to the blank-last
/// goal by the same half-turn. Weak alone on most of Korf & Felner's instances (0.57 times the
/// nodes of the others on #37), it is the best partner of theirs read for the same side on #31
/// (both for the mirror image: 0.87 times the nodes of the best pair of the others at bound 93,
/// a throwaway per-bound counter, README).
const SMALL_CATALOGUE_5_24: [[u8; 6]; 4] = [
    [13, 14, 18, 19, 22, 23],
    [0, 5, 10, 15, 20, 21],
    [1, 6, 11, 12, 16, 17],
    [2, 3, 4, 7, 8, 9],
];

/// Partition 10 of Clausecker & Reinefeld's improved catalogue (2019, `clausecker/24puzzle`,
/// `catalogues/improved-compound.cat`: a 2×2 block with the right column above it, an L along
/// the left column and into the bottom row, and two bent blocks between them), moved to the
/// blank-last goal by the same half-turn. It shares no pattern with Korf & Felner's or the best
/// single, so it is crossed with both: the best single crossed with it, both mirrored, took
/// Korf & Felner's #4 in 3.26e9 nodes against 4.89e9 for the best pair of the other three sets
/// (`korf24 --race`, 2026-12-01; 0.78 of their nodes from bound 90 to 94, a throwaway per-bound
/// counter), and the 20 easiest in 36.19e9 nodes against 37.05e9 with partition 4 of the small
/// catalogue in its place (README).
const IMPROVED_CATALOGUE_10_24: [[u8; 6]; 4] = [
    [9, 14, 18, 19, 22, 23],
    [0, 5, 10, 15, 20, 21],
    [1, 6, 11, 12, 16, 17],
    [2, 3, 4, 7, 8, 13],
];

/// Partition 4 of Clausecker & Reinefeld's small catalogue (2019, `clausecker/24puzzle`,
/// `catalogues/small-compound.cat`: an L along the left column and top row, the top-right block,
/// and two 2×3 blocks below), moved to the blank-last goal by the same half-turn. Weak on most
/// of Korf & Felner's instances, it is the best partner of theirs on #1 (both for the mirror
/// image: 4.52e8 nodes against 1.07e9 for the best view of the four sets before it, `korf24
/// --race`, 2026-12-02).
const SMALL_CATALOGUE_4_24: [[u8; 6]; 4] = [
    [4, 9, 14, 18, 19, 23],
    [15, 16, 17, 20, 21, 22],
    [2, 3, 7, 8, 12, 13],
    [0, 1, 5, 6, 10, 11],
];

/// Partition 12 of Clausecker & Reinefeld's improved catalogue (2019, `clausecker/24puzzle`,
/// `catalogues/improved-compound.cat`), moved to the blank-last goal by the same half-turn,
/// where it is the top-right 2×3 block, a bent block in the top-left, an L in the bottom-left,
/// and a 2×2 block on the right above two cells of the bottom row. With Korf & Felner's, both for the board, it took #26 in 5.47e9 nodes against
/// 5.81e9 for the best view of the four sets before it (`korf24 --race`, 2026-12-02).
const IMPROVED_CATALOGUE_12_24: [[u8; 6]; 4] = [
    [13, 14, 18, 19, 22, 23],
    [10, 15, 16, 17, 20, 21],
    [0, 1, 5, 6, 11, 12],
    [2, 3, 4, 7, 8, 9],
];

/// Why cells do not make a partition.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PartitionError {
    /// The blank's cell is not on the board.
    #[error("blank cell {cell} is not on a {grid} board")]
    BlankOutside {
        /// The cell asked for.
        cell: usize,
        /// The board's shape.
        grid: Grid,
    },
    /// A pattern names a cell not on the board.
    #[error("cell {cell} is not on a {grid} board")]
    CellOutside {
        /// The cell named.
        cell: usize,
        /// The board's shape.
        grid: Grid,
    },
    /// A pattern names the blank's cell, which holds no tile.
    #[error("cell {cell} is the blank's: it holds no tile")]
    BlankInPattern {
        /// The blank's cell.
        cell: usize,
    },
    /// Two patterns (or one twice) name the same cell: the tables would not add up.
    #[error("cell {cell} is in more than one pattern")]
    Repeated {
        /// The cell named twice.
        cell: usize,
    },
    /// A cell's tile is in no pattern: the sum would miss it, and 0 would not mean solved.
    #[error("cell {cell} is in no pattern: a partition covers every tile")]
    Uncovered {
        /// The cell left out.
        cell: usize,
    },
    /// A pattern without tiles.
    #[error("pattern {pattern} is empty")]
    Empty {
        /// Its index.
        pattern: usize,
    },
    /// The tables would take more than [`MAX_SET_BYTES`].
    #[error("the tables would take {bytes} bytes, over the limit of {MAX_SET_BYTES}")]
    TooLarge {
        /// Bytes the tables would take.
        bytes: u128,
    },
}

/// A partition of the tiles of every target whose blank is on [`blank`](Self::blank): each
/// pattern is a list of target cells (ascending), and the pattern's tiles are the tiles the target
/// puts there, in that order (the slots of the pattern's table).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Partition {
    grid: Grid,
    blank: u8,
    patterns: Vec<Vec<u8>>,
}

/// Bytes of one table: one per sparse index `cell₀ + n·cell₁ + n²·cell₂ + …` (`n` cells).
fn table_bytes(cells: usize, tiles: usize) -> u128 {
    (cells as u128).saturating_pow(tiles as u32)
}

impl Partition {
    /// A partition of the tiles of targets with the blank on `blank`: `patterns` lists each
    /// pattern's target cells (any order; kept ascending).
    ///
    /// ```
    /// use solver_core::tiles::{grid::Grid, grid_pdb::Partition};
    /// let grid = Grid::new(2, 3).unwrap();
    /// assert!(Partition::new(grid, 5, vec![vec![0, 1, 3], vec![2, 4]]).is_ok());
    /// assert!(Partition::new(grid, 5, vec![vec![0, 1, 3], vec![2]]).is_err());
    /// ```
    ///
    /// # Errors
    /// [`PartitionError`] naming the first problem.
    pub fn new(grid: Grid, blank: usize, patterns: Vec<Vec<u8>>) -> Result<Self, PartitionError> {
        let cells = grid.cells();
        if blank >= cells {
            return Err(PartitionError::BlankOutside { cell: blank, grid });
        }
        let mut seen = vec![false; cells];
        let mut bytes = 0u128;
        let mut sorted = Vec::with_capacity(patterns.len());
        for (pattern, mut group) in patterns.into_iter().enumerate() {
            if group.is_empty() {
                return Err(PartitionError::Empty { pattern });
            }
            for &cell in &group {
                let cell = cell as usize;
                if cell >= cells {
                    return Err(PartitionError::CellOutside { cell, grid });
                }
                if cell == blank {
                    return Err(PartitionError::BlankInPattern { cell });
                }
                if std::mem::replace(&mut seen[cell], true) {
                    return Err(PartitionError::Repeated { cell });
                }
            }
            bytes += table_bytes(cells, group.len());
            group.sort_unstable();
            sorted.push(group);
        }
        if let Some(cell) = (0..cells).find(|&c| c != blank && !seen[c]) {
            return Err(PartitionError::Uncovered { cell });
        }
        if bytes > u128::from(MAX_SET_BYTES) {
            return Err(PartitionError::TooLarge { bytes });
        }
        Ok(Self {
            grid,
            blank: blank as u8,
            patterns: sorted,
        })
    }

    /// The partition used when none is given: Korf & Felner's 6-6-6-6 on 5×5 with the blank
    /// last, otherwise [`automatic`](Self::automatic) within [`DEFAULT_BUDGET`].
    ///
    /// # Panics
    /// When `blank` is not a cell of `grid`.
    #[must_use]
    pub fn default_for(grid: Grid, blank: usize) -> Self {
        if grid.rows() == 5 && grid.cols() == 5 && blank == 24 {
            let patterns = KORF_FELNER_24.iter().map(|p| p.to_vec()).collect();
            return Self::new(grid, blank, patterns).expect("a valid partition");
        }
        Self::automatic(grid, blank, DEFAULT_BUDGET)
    }

    /// The partitions whose sets may race [`default_for`](Self::default_for)'s on each board
    /// (`grid_ida/race.rs`), the most useful first: on 5×5 with the blank last, Clausecker's best
    /// single 6-6-6-6, partition 5 of the small catalogue, partition 10 of the improved one,
    /// partition 4 of the small one and partition 12 of the improved one; none elsewhere. A
    /// server's default budget (6144 MiB) holds all five beside the default set (`solver-store`'s
    /// `rivals_within`).
    ///
    /// # Panics
    /// When `blank` is not a cell of `grid`.
    #[must_use]
    pub fn rivals_for(grid: Grid, blank: usize) -> Vec<Self> {
        assert!(
            blank < grid.cells(),
            "blank cell {blank} is not on a {grid} board"
        );
        if grid.rows() == 5 && grid.cols() == 5 && blank == 24 {
            return [
                CLAUSECKER_BEST_24,
                SMALL_CATALOGUE_5_24,
                IMPROVED_CATALOGUE_10_24,
                SMALL_CATALOGUE_4_24,
                IMPROVED_CATALOGUE_12_24,
            ]
            .iter()
            .map(|patterns| {
                let patterns = patterns.iter().map(|p| p.to_vec()).collect();
                Self::new(grid, blank, patterns).expect("a valid partition")
            })
            .collect();
        }
        Vec::new()
    }

    /// The largest patterns (at most 8 tiles) whose tables fit `budget` bytes, as compact as
    /// a simple rule makes them: cells taken in a snake along the board's longer side (row by
    /// row on a tall or square board, column by column on a wide one), each pattern a run of it.
    /// A budget too small for single tiles still gets single-tile patterns.
    ///
    /// # Panics
    /// When `blank` is not a cell of `grid`.
    #[must_use]
    pub fn automatic(grid: Grid, blank: usize, budget: u64) -> Self {
        let cells = grid.cells();
        assert!(blank < cells, "blank cell {blank} is not on a {grid} board");
        let tiles = cells - 1;
        let size = (1..=tiles.min(8))
            .rev()
            .find(|&k| {
                let bytes = (tiles / k) as u128 * table_bytes(cells, k)
                    + if !tiles.is_multiple_of(k) {
                        table_bytes(cells, tiles % k)
                    } else {
                        0
                    };
                bytes <= u128::from(budget.min(MAX_SET_BYTES))
            })
            .unwrap_or(1);
        let (rows, cols) = (grid.rows(), grid.cols());
        let mut order = Vec::with_capacity(cells);
        if cols > rows {
            for col in 0..cols {
                for i in 0..rows {
                    let row = if col % 2 == 0 { i } else { rows - 1 - i };
                    order.push(row * cols + col);
                }
            }
        } else {
            for row in 0..rows {
                for i in 0..cols {
                    let col = if row % 2 == 0 { i } else { cols - 1 - i };
                    order.push(row * cols + col);
                }
            }
        }
        let cells: Vec<u8> = order
            .into_iter()
            .filter(|&c| c != blank)
            .map(|c| c as u8)
            .collect();
        let patterns = cells.chunks(size).map(<[u8]>::to_vec).collect();
        Self::new(grid, blank, patterns).expect("a valid partition")
    }

    /// The board's shape.
    #[must_use]
    pub fn grid(&self) -> Grid {
        self.grid
    }

    /// The target's blank cell these tables are for.
    #[must_use]
    pub fn blank(&self) -> usize {
        usize::from(self.blank)
    }

    /// Each pattern's target cells, ascending (its tables' slot order).
    #[must_use]
    pub fn patterns(&self) -> &[Vec<u8>] {
        &self.patterns
    }

    /// How many patterns (the same target cells) this partition and `other` have in common.
    #[must_use]
    pub fn shared_patterns(&self, other: &Self) -> usize {
        self.patterns
            .iter()
            .filter(|pattern| other.patterns.contains(pattern))
            .count()
    }

    /// Bytes of each pattern's table, in pattern order: `cells^tiles`.
    #[must_use]
    pub fn table_sizes(&self) -> Vec<u64> {
        self.patterns
            .iter()
            .map(|p| table_bytes(self.grid.cells(), p.len()) as u64)
            .collect()
    }

    /// Bytes of all the tables: what a built or loaded set holds in memory (5×5 6-6-6-6:
    /// 4 × 25⁶ = 976,562,500).
    #[must_use]
    pub fn table_bytes(&self) -> u64 {
        self.table_sizes().iter().sum()
    }

    /// The most bytes a build of the set holds at once: the tables built so far and the one in
    /// progress with its two masks of blank cells per index (4 bytes each up to 32 cells, 8
    /// beyond) and the layer of its big region (a byte). 5×5 6-6-6-6: about 3.2 GB.
    #[must_use]
    pub fn build_bytes(&self) -> u64 {
        let mask = if self.grid.cells() <= 32 { 9 } else { 17 };
        let largest = self.table_sizes().into_iter().max().unwrap_or(0);
        self.table_bytes() + mask * largest
    }

    /// Whether the reflected lookup applies: a square board with the blank on the main diagonal,
    /// where transposing a board (and renaming each tile to the one whose target cell mirrors
    /// its own) maps every target with that blank onto itself and keeps every distance.
    #[must_use]
    pub fn reflects(&self) -> bool {
        let cols = self.grid.cols();
        self.grid.rows() == cols && self.blank() / cols == self.blank() % cols
    }

    /// The pattern sizes joined by dashes, e.g. `6-6-6-6`.
    pub(crate) fn sizes_name(&self) -> String {
        self.patterns
            .iter()
            .map(|p| p.len().to_string())
            .collect::<Vec<_>>()
            .join("-")
    }
}

impl fmt::Display for Partition {
    /// E.g. `5x5 blank 24, 6-6-6-6`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} blank {}, {}",
            self.grid,
            self.blank,
            self.sizes_name()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rivals_are_other_partitions_of_the_same_tiles() {
        let grid = Grid::new(5, 5).unwrap();
        let rivals = Partition::rivals_for(grid, 24);
        assert_eq!(rivals.len(), 5);
        for (i, rival) in rivals.iter().enumerate() {
            assert!(!rivals[..i].contains(rival));
            assert_ne!(*rival, Partition::default_for(grid, 24));
            assert_eq!(rival.table_bytes(), 976_562_500);
        }
        assert!(Partition::rivals_for(grid, 0).is_empty());
        assert!(Partition::rivals_for(Grid::new(4, 5).unwrap(), 19).is_empty());
    }

    /// The 24-puzzle's raced sets are crossed where they share at most one pattern: Korf &
    /// Felner's with each of the others (none in common), the best single with partitions 10
    /// of the improved catalogue and 4 of the small one (none, one); not partition 5 of the small
    /// catalogue with the best single, partition 10 or partition 12 (two each), nor partition 12
    /// with the best single.
    #[test]
    fn partitions_sharing_two_patterns_are_not_crossed() {
        let grid = Grid::new(5, 5).unwrap();
        let sets: Vec<Partition> = std::iter::once(Partition::default_for(grid, 24))
            .chain(Partition::rivals_for(grid, 24))
            .collect();
        let shared: Vec<Vec<usize>> = sets
            .iter()
            .map(|a| sets.iter().map(|b| a.shared_patterns(b)).collect())
            .collect();
        assert_eq!(
            shared,
            [
                [4, 0, 0, 0, 0, 0],
                [0, 4, 2, 0, 1, 2],
                [0, 2, 4, 2, 0, 2],
                [0, 0, 2, 4, 0, 0],
                [0, 1, 0, 0, 4, 0],
                [0, 2, 2, 0, 0, 4]
            ]
        );
        assert_eq!(
            super::super::crossed_pairs(&sets),
            [
                (0, 1),
                (0, 2),
                (0, 3),
                (0, 4),
                (0, 5),
                (1, 3),
                (1, 4),
                (2, 4),
                (3, 4),
                (3, 5),
                (4, 5)
            ]
        );
    }

    #[test]
    fn defaults_cover_every_tile_within_the_budget() {
        for rows in 2..=8 {
            for cols in 2..=8 {
                let grid = Grid::new(rows, cols).unwrap();
                for blank in [0, grid.cells() - 1, grid.cells() / 2] {
                    let p = Partition::default_for(grid, blank);
                    assert!(p.table_bytes() <= DEFAULT_BUDGET, "{p}");
                    let covered: usize = p.patterns().iter().map(Vec::len).sum();
                    assert_eq!(covered, grid.cells() - 1);
                }
            }
        }
        let five = Partition::default_for(Grid::new(5, 5).unwrap(), 24);
        assert_eq!(five.sizes_name(), "6-6-6-6");
        assert_eq!(five.table_bytes(), 976_562_500);
        assert!(five.reflects());
        let wide = Partition::default_for(Grid::new(3, 5).unwrap(), 14);
        assert_eq!(wide.sizes_name(), "7-7");
        assert!(!wide.reflects());
    }

    #[test]
    fn bad_partitions_are_refused() {
        let grid = Grid::new(2, 3).unwrap();
        let bad = |blank, p: Vec<Vec<u8>>| Partition::new(grid, blank, p).unwrap_err();
        assert_eq!(
            bad(6, vec![]),
            PartitionError::BlankOutside { cell: 6, grid }
        );
        assert_eq!(
            bad(5, vec![vec![0, 1, 2, 3, 4, 9]]),
            PartitionError::CellOutside { cell: 9, grid }
        );
        assert_eq!(
            bad(5, vec![vec![0, 1, 2, 3, 4, 5]]),
            PartitionError::BlankInPattern { cell: 5 }
        );
        assert_eq!(
            bad(5, vec![vec![0, 1, 2], vec![2, 3, 4]]),
            PartitionError::Repeated { cell: 2 }
        );
        assert_eq!(
            bad(5, vec![vec![0, 1, 2], vec![]]),
            PartitionError::Empty { pattern: 1 }
        );
        assert_eq!(
            bad(0, vec![vec![1, 2], vec![4, 5]]),
            PartitionError::Uncovered { cell: 3 }
        );
        let big = Grid::new(8, 8).unwrap();
        let err = Partition::new(big, 63, vec![(0..63).collect()]).unwrap_err();
        assert!(err.to_string().contains("over the limit"), "{err}");
    }
}
