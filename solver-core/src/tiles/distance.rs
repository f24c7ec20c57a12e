//! Manhattan distance plus linear conflicts, for any [`Grid`] shape and any target: the
//! admissible heuristic of the size-generic searches.
//!
//! A tile needs at least its Manhattan distance in moves. Two tiles in their goal row (or column)
//! but in reversed order cannot pass each other inside it, so one of them must leave the line and
//! come back: two more moves. Per line, the tiles that must leave are the line's tiles outside a
//! longest increasing run of goal positions (Korf & Taylor 1996; Hansson, Mayer & Yung 1992), and
//! lines are independent, so the sum stays admissible.

use super::grid::Grid;

/// Goal coordinates of every tile, for one target.
#[derive(Debug, Clone)]
pub(crate) struct Distance {
    grid: Grid,
    /// `goal_row[t]`, `goal_col[t]`: where tile `t` stands in the target.
    goal_row: Vec<u8>,
    goal_col: Vec<u8>,
}

impl Distance {
    /// The heuristic towards `target` (a validated board of `grid`).
    pub(crate) fn new(grid: Grid, target: &[u8]) -> Self {
        let mut goal_row = vec![0; grid.cells()];
        let mut goal_col = vec![0; grid.cells()];
        for (cell, &tile) in target.iter().enumerate() {
            goal_row[tile as usize] = (cell / grid.cols()) as u8;
            goal_col[tile as usize] = (cell % grid.cols()) as u8;
        }
        Self {
            grid,
            goal_row,
            goal_col,
        }
    }

    /// The board's shape.
    pub(crate) fn grid(&self) -> Grid {
        self.grid
    }

    /// Manhattan distance of `tile` standing at `cell`.
    pub(crate) fn manhattan(&self, tile: u8, cell: usize) -> u32 {
        let (row, col) = (cell / self.grid.cols(), cell % self.grid.cols());
        let t = tile as usize;
        (row.abs_diff(self.goal_row[t] as usize) + col.abs_diff(self.goal_col[t] as usize)) as u32
    }

    /// Sum of the tiles' Manhattan distances.
    pub(crate) fn manhattan_sum(&self, cells: &[u8]) -> u32 {
        cells
            .iter()
            .enumerate()
            .filter(|&(_, &t)| t != 0)
            .map(|(cell, &t)| self.manhattan(t, cell))
            .sum()
    }

    /// Linear-conflict moves of row `row`: twice the tiles of the row that belong in it but must
    /// leave it to let the others pass.
    pub(crate) fn row_conflicts(&self, cells: &[u8], row: usize) -> u32 {
        let cols = self.grid.cols();
        let order = (0..cols)
            .map(|col| cells[row * cols + col])
            .filter(|&t| t != 0 && self.goal_row[t as usize] as usize == row)
            .map(|t| self.goal_col[t as usize]);
        2 * outside_longest_run(order)
    }

    /// Linear-conflict moves of column `col`.
    pub(crate) fn col_conflicts(&self, cells: &[u8], col: usize) -> u32 {
        let cols = self.grid.cols();
        let order = (0..self.grid.rows())
            .map(|row| cells[row * cols + col])
            .filter(|&t| t != 0 && self.goal_col[t as usize] as usize == col)
            .map(|t| self.goal_row[t as usize]);
        2 * outside_longest_run(order)
    }

    /// The whole heuristic for a board.
    pub(crate) fn value(&self, cells: &[u8]) -> u32 {
        self.manhattan_sum(cells)
            + (0..self.grid.rows())
                .map(|r| self.row_conflicts(cells, r))
                .sum::<u32>()
            + (0..self.grid.cols())
                .map(|c| self.col_conflicts(cells, c))
                .sum::<u32>()
    }
}

/// How many of at most 8 values lie outside a longest strictly increasing subsequence.
fn outside_longest_run(values: impl Iterator<Item = u8>) -> u32 {
    let mut seen = [0u8; 8];
    let mut best = [0u8; 8];
    let mut n = 0;
    let mut longest = 0;
    for v in values {
        let run = 1
            + (0..n)
                .filter(|&i| seen[i] < v)
                .map(|i| best[i])
                .max()
                .unwrap_or(0);
        seen[n] = v;
        best[n] = run;
        longest = longest.max(run);
        n += 1;
    }
    (n - usize::from(longest)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reversed_pairs_in_their_line_cost_two_more_moves() {
        let grid = Grid::new(2, 3).unwrap();
        let distance = Distance::new(grid, &grid.goal());
        assert_eq!(distance.value(&grid.goal()), 0);
        // 2 and 1 swapped in their goal row: Manhattan 2, one conflict.
        assert_eq!(distance.value(&[2, 1, 3, 4, 5, 0]), 4);
        // 3 2 1: two tiles must leave the row.
        assert_eq!(distance.row_conflicts(&[3, 2, 1, 4, 5, 0], 0), 4);
    }

    #[test]
    fn longest_run() {
        assert_eq!(outside_longest_run([0, 1, 2].into_iter()), 0);
        assert_eq!(outside_longest_run([2, 0, 1].into_iter()), 1);
        assert_eq!(outside_longest_run([3, 2, 1, 0].into_iter()), 3);
        assert_eq!(outside_longest_run([].into_iter()), 0);
    }
}
