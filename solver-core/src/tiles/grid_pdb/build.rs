//! Building one pattern's table: a breadth-first search over placements of its tiles, by layers.
//!
//! The blank is ignored: a pattern tile steps onto any adjacent cell no other pattern tile holds,
//! at cost 1 (Korf & Felner 2002 built their 24-puzzle tables this way). In a real solution a
//! pattern tile only ever moves into the blank's cell, which no pattern tile holds, so the
//! table's value is a lower bound on the moves of that pattern's tiles.
//!
//! One byte per sparse index `cell₀ + n·cell₁ + …` (`n` cells; indices naming one cell twice
//! stay unused). Layer `d + 1` is found by scanning the table for entries equal to `d` and
//! stepping each tile of each such placement; the scan is split into chunks handed to `threads`
//! threads. Several threads may write the same unseen entry in one layer, always with the same
//! value, so relaxed atomic bytes suffice.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, AtomicUsize, Ordering};

use crate::pace::{Pace, Progress};
use crate::tiles::grid::Grid;
use crate::tiles::moves::Move;

/// An entry no layer has reached yet.
const UNSEEN: u8 = u8::MAX;
/// Indices handed to a build thread at a time (a fraction of a millisecond of scanning).
const CHUNK: usize = 1 << 15;

/// Each cell's neighbours in [`Move::ALL`] order, `u8::MAX` where the board ends.
pub(crate) fn neighbour_table(grid: Grid) -> [[u8; 4]; 64] {
    let mut table = [[u8::MAX; 4]; 64];
    for (cell, row) in table.iter_mut().enumerate().take(grid.cells()) {
        for mv in Move::ALL {
            if let Some(to) = grid.neighbour(cell, mv) {
                row[mv.index()] = to as u8;
            }
        }
    }
    table
}

/// Placements of `tiles` distinct tiles on `cells` cells: `cells!/(cells - tiles)!`.
fn placements(cells: usize, tiles: usize) -> u64 {
    (0..tiles).map(|i| (cells - i) as u64).product()
}

/// The table of the pattern whose tiles belong on `home` (slot order), reported to `pace` as
/// database `database` of `databases`.
pub(super) fn build_table(
    grid: Grid,
    home: &[u8],
    threads: usize,
    pace: &dyn Pace,
    (database, databases): (usize, usize),
) -> Box<[u8]> {
    let n = grid.cells();
    let k = home.len();
    let size = n.pow(k as u32);
    let weights: Vec<usize> = (0..k).map(|i| n.pow(i as u32)).collect();
    let neighbours = neighbour_table(grid);
    let table: Vec<AtomicU8> = (0..size).map(|_| AtomicU8::new(UNSEEN)).collect();
    let goal: usize = home
        .iter()
        .zip(&weights)
        .map(|(&c, &w)| c as usize * w)
        .sum();
    table[goal].store(0, Ordering::Relaxed);
    let total = placements(n, k);
    let mut reached = 0u64;
    let mut depth = 0u8;
    loop {
        let cursor = AtomicUsize::new(0);
        let grew = AtomicBool::new(false);
        let layer = AtomicU64::new(0);
        let work = || {
            let mut turn = pace.enter();
            let mut cells = [0u8; 8];
            let mut found = 0u64;
            loop {
                turn.checkpoint();
                let begin = cursor.fetch_add(CHUNK, Ordering::Relaxed);
                if begin >= size {
                    break;
                }
                for (offset, entry) in table[begin..(begin + CHUNK).min(size)].iter().enumerate() {
                    if entry.load(Ordering::Relaxed) != depth {
                        continue;
                    }
                    found += 1;
                    let index = begin + offset;
                    let mut rest = index;
                    let mut occupied = 0u64;
                    for cell in &mut cells[..k] {
                        *cell = (rest % n) as u8;
                        rest /= n;
                        occupied |= 1 << *cell;
                    }
                    for (slot, &cell) in cells[..k].iter().enumerate() {
                        let base = index - cell as usize * weights[slot];
                        for &to in &neighbours[cell as usize] {
                            if to == u8::MAX || occupied & (1 << to) != 0 {
                                continue;
                            }
                            let next = &table[base + to as usize * weights[slot]];
                            if next.load(Ordering::Relaxed) == UNSEEN {
                                next.store(depth + 1, Ordering::Relaxed);
                                grew.store(true, Ordering::Relaxed);
                            }
                        }
                    }
                }
            }
            layer.fetch_add(found, Ordering::Relaxed);
        };
        std::thread::scope(|scope| {
            for _ in 1..threads.max(1) {
                scope.spawn(work);
            }
            work();
        });
        reached += layer.load(Ordering::Relaxed);
        pace.layer_done(Progress {
            database,
            databases,
            layers: u32::from(depth) + 1,
            reached,
            placements: total,
        });
        if !grew.load(Ordering::Relaxed) {
            break;
        }
        assert!(depth < UNSEEN - 2, "a pattern deeper than a byte holds");
        depth += 1;
    }
    table
        .into_iter()
        .map(AtomicU8::into_inner)
        .collect::<Vec<u8>>()
        .into_boxed_slice()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_tile_costs_its_manhattan_distance() {
        let grid = Grid::new(3, 4).unwrap();
        let table = build_table(grid, &[5], 2, &crate::Unpaced, (0, 1));
        for cell in 0..12usize {
            let md = (cell / 4).abs_diff(1) + (cell % 4).abs_diff(1);
            assert_eq!(usize::from(table[cell]), md, "cell {cell}");
        }
    }

    #[test]
    fn two_tiles_swapped_in_a_corridor_go_round_each_other() {
        // 2×3, tiles home on cells 0 and 1: swapped, one must step aside (down) and back.
        let grid = Grid::new(2, 3).unwrap();
        let table = build_table(grid, &[0, 1], 1, &crate::Unpaced, (0, 1));
        let index = |a: usize, b: usize| a + 6 * b;
        assert_eq!(table[index(0, 1)], 0);
        assert_eq!(table[index(1, 0)], 4);
        // Every placement of two distinct cells is reached, no index naming one cell twice.
        let reached = table.iter().filter(|&&v| v != UNSEEN).count();
        assert_eq!(reached as u64, placements(6, 2));
        assert!((0..6).all(|c| table[index(c, c)] == UNSEEN));
    }
}
