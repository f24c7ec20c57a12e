//! Building one pattern's table: the layered search of [`layered`] over a sparse index, with
//! the blank's masks by cell.
//!
//! Letting pattern tiles step onto any free cell, blank ignored, would also be admissible but
//! far weaker: on Korf & Felner's 24-puzzle #38 it took IDA* 4.8e9 nodes, about a hundred times
//! more than tracking the blank as the layered search does.
//!
//! One byte per sparse index `cell₀ + n·cell₁ + …` (`n` cells; indices naming one cell twice
//! stay unused): a sum and a multiplication per move, no ranking. During the build each index
//! also has two masks of blank cells (one word for boards of at most 32 cells, two beyond: 2 GB
//! besides the tables for a 6-tile pattern on 5×5, freed when the table is done).

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicU8, AtomicU64};

use super::regions::{self, Regions};

use crate::tiles::grid::Grid;
use crate::tiles::layered::{self, Job, MAX_TILES, Space, UNSEEN, Wide};

/// The sparse index of `tiles`-tile placements on `cells` cells.
struct Sparse {
    cells: usize,
    tiles: usize,
    /// `cells^slot` per slot.
    weights: [usize; MAX_TILES],
}

impl Sparse {
    fn new(grid: Grid, tiles: usize) -> Self {
        let cells = grid.cells();
        let mut weights = [0; MAX_TILES];
        for (slot, weight) in weights.iter_mut().enumerate().take(tiles) {
            *weight = cells.pow(slot as u32);
        }
        Self {
            cells,
            tiles,
            weights,
        }
    }
}

impl Space for Sparse {
    /// A fraction of a millisecond of work.
    const CHUNK: usize = 1 << 14;

    #[inline]
    fn tiles(&self) -> usize {
        self.tiles
    }

    fn len(&self) -> usize {
        self.cells.pow(self.tiles as u32)
    }

    #[inline]
    fn index(&self, cells: &[u8]) -> usize {
        cells
            .iter()
            .zip(&self.weights)
            .map(|(&c, &w)| c as usize * w)
            .sum()
    }

    #[inline]
    fn decode(&self, mut index: usize, cells: &mut [u8; MAX_TILES]) {
        for cell in &mut cells[..self.tiles] {
            *cell = (index % self.cells) as u8;
            index /= self.cells;
        }
    }

    #[inline]
    fn moved(&self, index: usize, cells: &mut [u8; MAX_TILES], slot: usize, to: u8) -> usize {
        index - cells[slot] as usize * self.weights[slot] + to as usize * self.weights[slot]
    }

    #[inline]
    fn pack(&self, mask: u64, _free: u64) -> u64 {
        mask
    }

    #[inline]
    fn unpack(&self, stored: u64, _free: u64) -> u64 {
        stored
    }

    #[inline]
    fn pack_cell(&self, cell: u8, _free: u64) -> u64 {
        1 << cell
    }
}

/// The zero-aware table (see `regions`) of the pattern `job` builds.
pub(super) fn build_table(job: &Job<'_>) -> Box<[u8]> {
    let grid = job.grid;
    let space = Sparse::new(grid, job.home.len());
    // The layer each placement's big region is first reached in (see `regions`).
    let big: Vec<AtomicU8> = (0..space.len()).map(|_| AtomicU8::new(UNSEEN)).collect();
    let regions = Regions::new(grid);
    let on_fresh = |index: usize, fresh: u64, free: u64, depth: u8| {
        if fresh & regions.big(free) != 0 {
            big[index].store(depth, Relaxed);
        }
    };
    let table = if grid.cells() <= 32 {
        layered::build_with::<_, AtomicU64, _>(&space, job, on_fresh)
    } else {
        layered::build_with::<_, Wide, _>(&space, job, on_fresh)
    };
    let packed = table
        .iter()
        .zip(big)
        .map(|(&least, big)| match (least, big.into_inner()) {
            (UNSEEN, _) => UNSEEN,
            (least, UNSEEN) => regions::pack(least, None),
            (least, big) => regions::pack(least, Some(big)),
        });
    crate::pages::collect(table.len(), packed)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The unpaced job of one table alone.
    fn job(grid: Grid, home: &[u8], blank: u8, threads: usize) -> Job<'_> {
        Job {
            grid,
            home,
            blank,
            threads,
            pace: &crate::Unpaced,
            stage: (0, 1),
        }
    }
    use crate::tiles::layered::{UNSEEN, placements};

    #[test]
    fn one_tile_costs_its_manhattan_distance() {
        let grid = Grid::new(3, 4).unwrap();
        let table = build_table(&job(grid, &[5], 11, 2));
        for cell in 0..12usize {
            let md = (cell / 4).abs_diff(1) + (cell % 4).abs_diff(1);
            assert_eq!(usize::from(table[cell]), md, "cell {cell}");
        }
    }

    #[test]
    fn two_tiles_swapped_in_a_corridor_go_round_each_other() {
        // 2×3, tiles home on cells 0 and 1: swapped, one must step aside (down) and back, and
        // the blank it leaves walled in the corner must get out: 6 moves (4 ignoring the blank).
        let grid = Grid::new(2, 3).unwrap();
        let table = build_table(&job(grid, &[0, 1], 5, 1));
        let index = |a: usize, b: usize| a + 6 * b;
        assert_eq!(table[index(0, 1)], 0);
        assert_eq!(table[index(1, 0)], 6);
        // Every placement of two distinct cells is reached, no index naming one cell twice.
        let reached = table.iter().filter(|&&v| v != UNSEEN).count();
        assert_eq!(reached as u64, placements(6, 2));
        assert!((0..6).all(|c| table[index(c, c)] == UNSEEN));
    }

    /// Every entry equals a plain 0-1 search's, on shapes narrow and wide, square and not, with
    /// every state wide enough for the board's masks (the 15-puzzle's 8-tile database is the
    /// only other user of the two-byte state, and too large to test).
    #[test]
    fn tables_equal_a_plain_search_with_every_mask_width() {
        use std::sync::atomic::{AtomicU16, AtomicU32};

        for (rows, cols, home, blank) in [
            (2, 4, &[0u8, 1, 2][..], 7),
            (2, 4, &[5, 6, 3][..], 0),
            (3, 3, &[0, 4, 8][..], 2),
            (3, 5, &[14, 0, 7][..], 4),
            (4, 4, &[0, 5, 10][..], 15),
            (4, 2, &[6, 7, 1, 0][..], 3),
            (6, 6, &[0, 35][..], 14),
            (8, 8, &[63, 0][..], 27),
        ] {
            let grid = Grid::new(rows, cols).unwrap();
            let space = Sparse::new(grid, home.len());
            let expected =
                layered::plain_search(grid, home, blank, space.len(), |c| space.index(c));
            let n = grid.cells();
            let tables = [
                (n <= 8)
                    .then(|| layered::build::<_, AtomicU16>(&space, &job(grid, home, blank, 2))),
                (n <= 16)
                    .then(|| layered::build::<_, AtomicU32>(&space, &job(grid, home, blank, 2))),
                (n <= 32)
                    .then(|| layered::build::<_, AtomicU64>(&space, &job(grid, home, blank, 2))),
                Some(layered::build::<_, Wide>(
                    &space,
                    &job(grid, home, blank, 2),
                )),
            ];
            for (table, word) in tables.iter().zip(["u16", "u32", "u64", "two u64"]) {
                if let Some(table) = table {
                    assert!(
                        *table == expected,
                        "{grid}, {home:?}, blank {blank}, {word}"
                    );
                }
            }
        }
    }
}
