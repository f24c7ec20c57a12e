//! The shape of a sliding-tile board of any size: `rows × cols` cells, each from 2 to 8.
//!
//! Everything that depends only on the shape lives here, once: which cell a move takes the blank
//! to, the standard goal layout, and the invariant that tells whether one board can reach another.

use std::fmt;

use super::moves::Move;

/// Why a shape is not a board this crate solves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "a {rows}×{cols} board is not supported: rows and columns must each be {}..={}",
    Grid::MIN,
    Grid::MAX
)]
pub struct GridError {
    /// Rows asked for.
    pub rows: usize,
    /// Columns asked for.
    pub cols: usize,
}

/// A validated board shape: `rows × cols`, each within [`Grid::MIN`]..=[`Grid::MAX`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Grid {
    rows: u8,
    cols: u8,
}

impl Grid {
    /// The fewest rows or columns: a 1-wide board cannot move its tiles past each other.
    pub const MIN: usize = 2;
    /// The most rows or columns (64 cells, tiles fit a byte and a cell set fits a `u64`).
    pub const MAX: usize = 8;
    /// The 8-puzzle's shape.
    pub const EIGHT: Self = Self { rows: 3, cols: 3 };
    /// The 15-puzzle's shape.
    pub const FIFTEEN: Self = Self { rows: 4, cols: 4 };

    /// A `rows × cols` shape.
    ///
    /// ```
    /// use solver_core::tiles::grid::Grid;
    /// assert_eq!(Grid::new(3, 4).unwrap().cells(), 12);
    /// assert!(Grid::new(1, 5).is_err());
    /// ```
    ///
    /// # Errors
    /// [`GridError`] when either side is outside `2..=8`.
    pub fn new(rows: usize, cols: usize) -> Result<Self, GridError> {
        let ok = |n: usize| (Self::MIN..=Self::MAX).contains(&n);
        if ok(rows) && ok(cols) {
            Ok(Self {
                rows: rows as u8,
                cols: cols as u8,
            })
        } else {
            Err(GridError { rows, cols })
        }
    }

    /// Number of rows.
    #[must_use]
    pub const fn rows(self) -> usize {
        self.rows as usize
    }

    /// Number of columns.
    #[must_use]
    pub const fn cols(self) -> usize {
        self.cols as usize
    }

    /// Number of cells (tiles plus the blank).
    #[must_use]
    pub const fn cells(self) -> usize {
        self.rows() * self.cols()
    }

    /// The blank's cell after `mv` from `cell`, or `None` if it would leave the board.
    #[must_use]
    pub const fn neighbour(self, cell: usize, mv: Move) -> Option<usize> {
        let (row, col) = (cell / self.cols(), cell % self.cols());
        match mv {
            Move::Down if row + 1 < self.rows() => Some(cell + self.cols()),
            Move::Left if col > 0 => Some(cell - 1),
            Move::Right if col + 1 < self.cols() => Some(cell + 1),
            Move::Up if row > 0 => Some(cell - self.cols()),
            _ => None,
        }
    }

    /// Marks a direction with no neighbour in [`neighbour_table`](Self::neighbour_table).
    pub const EDGE: u8 = u8::MAX;

    /// Each cell's neighbours in [`Move::ALL`] order, [`Grid::EDGE`] where the board ends
    /// (cells past [`cells`](Self::cells) have none): the table a search indexes instead of
    /// testing the board's edges at every node.
    #[must_use]
    pub fn neighbour_table(self) -> [[u8; 4]; 64] {
        let mut table = [[Self::EDGE; 4]; 64];
        for (cell, row) in table.iter_mut().enumerate().take(self.cells()) {
            for mv in Move::ALL {
                if let Some(to) = self.neighbour(cell, mv) {
                    row[mv.index()] = to as u8;
                }
            }
        }
        table
    }

    /// The largest optimal distance between two boards of this shape (its radius, in single-tile
    /// moves), where complete breadth-first searches have measured it; `None` for the shapes
    /// beyond them (5×5: between 114 and 205). Sources: the state-space figures collected in
    /// this project's notes (complete BFS of each parity class).
    #[must_use]
    pub fn known_radius(self) -> Option<u32> {
        let (short, long) = (self.rows().min(self.cols()), self.rows().max(self.cols()));
        match (short, long) {
            (2, 2) => Some(6),
            (2, 3) => Some(21),
            (2, 4) => Some(36),
            (3, 3) => Some(31),
            (2, 5) => Some(55),
            (3, 4) => Some(53),
            (2, 6) => Some(80),
            (2, 7) => Some(108),
            (3, 5) => Some(84),
            (4, 4) => Some(80),
            (2, 8) => Some(140),
            _ => None,
        }
    }

    /// The farthest distance a caller may ask a board of this shape to be from its goal: the
    /// radius where it is known, else `cells × (rows + cols)`, a loose multiple of the size
    /// above every published bound on the radius (the 24-puzzle's is at most 208, Karlemo &
    /// Östergård 2000; this gives 250), so that no request asks for unbounded work.
    #[must_use]
    pub fn max_distance(self) -> u32 {
        self.known_radius().unwrap_or_else(|| {
            let (rows, cols) = (self.rows() as u32, self.cols() as u32);
            rows * cols * (rows + cols)
        })
    }

    /// The standard goal: tiles `1..cells` in row-major order, the blank in the last cell.
    #[must_use]
    pub fn goal(self) -> Vec<u8> {
        let last = self.cells() as u8;
        (1..last).chain([0]).collect()
    }

    /// The invariant no move changes: the parity of the whole permutation (blank included) plus
    /// the parity of the blank's row and column. Every move swaps two cells (flipping the first)
    /// and moves the blank one step (flipping the second). On every shape of at least 2×2 the
    /// boards with equal invariant are exactly the ones that reach each other (for an odd width
    /// this is the classic inversion-count rule, for an even width inversions plus the blank's
    /// row). `cells` must be a permutation of `0..cells()`.
    #[must_use]
    pub fn parity(self, cells: &[u8]) -> bool {
        debug_assert_eq!(cells.len(), self.cells());
        // Pairs `a` before `b` with `a > b`, counted from the right: at most 64 values, so the
        // values seen so far are one word's bits.
        let (mut inversions, mut later) = (0u32, 0u64);
        for &a in cells.iter().rev() {
            inversions += (later & ((1u64 << a) - 1)).count_ones();
            later |= 1u64 << a;
        }
        let blank = cells.iter().position(|&t| t == 0).unwrap_or(0);
        (inversions as usize + blank / self.cols() + blank % self.cols()) % 2 == 1
    }
}

impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_outside_two_to_eight_are_refused() {
        for (rows, cols) in [(1, 3), (3, 1), (9, 2), (0, 0), (2, 9)] {
            assert_eq!(Grid::new(rows, cols), Err(GridError { rows, cols }));
        }
        assert!(Grid::new(2, 2).is_ok() && Grid::new(8, 8).is_ok());
    }

    #[test]
    fn known_radii_match_breadth_first_search_on_small_shapes() {
        for (rows, cols) in [(2, 2), (2, 3), (3, 2), (2, 4)] {
            let grid = Grid::new(rows, cols).unwrap();
            let goal = crate::tiles::grid_board::GridBoard::goal(grid);
            let dist = crate::tiles::bfs::distances(goal, u32::MAX);
            assert_eq!(
                dist.values().max().copied(),
                grid.known_radius(),
                "{rows}x{cols}"
            );
        }
    }

    #[test]
    fn neighbours_stay_on_the_board() {
        let grid = Grid::new(2, 3).unwrap();
        assert_eq!(grid.neighbour(0, Move::Up), None);
        assert_eq!(grid.neighbour(0, Move::Down), Some(3));
        assert_eq!(grid.neighbour(2, Move::Right), None);
        assert_eq!(grid.neighbour(5, Move::Left), Some(4));
    }

    #[test]
    fn parity_counts_every_inversion() {
        // Pair by pair, as the rule reads, on shuffles of every size up to 8×8.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for (rows, cols) in [(2, 2), (3, 3), (4, 4), (3, 7), (8, 8)] {
            let grid = Grid::new(rows, cols).unwrap();
            for _ in 0..50 {
                let mut cells = grid.goal();
                for i in (1..cells.len()).rev() {
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1);
                    cells.swap(i, (state >> 33) as usize % (i + 1));
                }
                let pairs = (0..cells.len())
                    .flat_map(|i| (i + 1..cells.len()).map(move |j| (i, j)))
                    .filter(|&(i, j)| cells[i] > cells[j])
                    .count();
                let blank = cells.iter().position(|&t| t == 0).unwrap();
                let odd = (pairs + blank / cols + blank % cols) % 2 == 1;
                assert_eq!(grid.parity(&cells), odd, "{cells:?}");
            }
        }
    }

    #[test]
    fn every_move_keeps_the_invariant() {
        let grid = Grid::new(3, 5).unwrap();
        let mut cells = grid.goal();
        let start = grid.parity(&cells);
        let mut blank = cells.len() - 1;
        for step in 0..200usize {
            let mv = Move::ALL[(step * 7 + step / 3) % 4];
            if let Some(to) = grid.neighbour(blank, mv) {
                cells.swap(blank, to);
                blank = to;
                assert_eq!(grid.parity(&cells), start);
            }
        }
        cells.swap(0, 1);
        if cells[0] != 0 && cells[1] != 0 {
            assert_ne!(grid.parity(&cells), start);
        }
    }
}
