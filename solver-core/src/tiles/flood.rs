//! Flood fills over a board's cells as `u64` masks (one bit per cell, at most 64): where the
//! blank goes without moving the tiles on the other cells. The pattern database builds use it
//! to spread the blank at no cost, and the zero-aware lookups to find the blank's region.

use super::grid::Grid;

/// One shape's masks for growing a set of cells by a step in every direction.
#[derive(Debug, Clone)]
pub(crate) struct Flood {
    cols: u32,
    all: u64,
    not_first_col: u64,
    not_last_col: u64,
}

impl Flood {
    pub(crate) fn new(grid: Grid) -> Self {
        let (n, cols) = (grid.cells(), grid.cols());
        let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let col = |c: usize| (0..grid.rows()).fold(0u64, |m, r| m | 1 << (r * cols + c));
        Self {
            cols: cols as u32,
            all,
            not_first_col: all & !col(0),
            not_last_col: all & !col(cols - 1),
        }
    }

    /// Every cell of the board.
    #[inline]
    pub(crate) fn all(&self) -> u64 {
        self.all
    }

    /// All cells of `free` the blank reaches from `from` through `free` cells.
    #[inline]
    pub(crate) fn fill(&self, from: u64, free: u64) -> u64 {
        let mut reach = from & free;
        loop {
            let grown = (reach
                | (reach << self.cols)
                | (reach >> self.cols)
                | ((reach << 1) & self.not_first_col)
                | ((reach >> 1) & self.not_last_col))
                & free;
            if grown == reach {
                return reach;
            }
            reach = grown;
        }
    }
}
