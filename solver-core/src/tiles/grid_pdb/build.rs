//! Building one pattern's table: a breadth-first search over placements of its tiles and the
//! blank's cell, by layers of pattern-tile moves.
//!
//! Tiles outside the pattern are indistinct, so the blank wanders through their cells for free,
//! but it cannot pass a pattern tile without moving it (cost 1). The table keeps, per placement,
//! the least cost over the blank's cells: a lower bound on the moves of the pattern's tiles in any
//! real solution, and the sums over disjoint patterns stay admissible (Korf & Felner 2002 built
//! their 24-puzzle tables this way). Letting pattern tiles step onto any free cell, blank
//! ignored, is also admissible but far weaker: on Korf & Felner's 24-puzzle #38 it took IDA*
//! 4.8e9 nodes, about a hundred times more.
//!
//! One byte per sparse index `cell₀ + n·cell₁ + …` (`n` cells; indices naming one cell twice
//! stay unused). During the build, each index also has three masks of blank cells: reached so
//! far, seeded for this layer and for the next one (four or eight bytes each: 2.9 GB besides the
//! tables for a 6-tile pattern on 5×5, freed when the table is done). A layer closes each seeded
//! placement's blank cells under free moves (a flood fill through the cells the pattern leaves
//! free), then moves every pattern tile next to a newly reached blank cell into it, seeding the
//! next layer with the cell the tile left. The work is split into chunks of indices handed to
//! `threads` threads; a placement is processed by one thread per layer, other threads only add
//! seeds to it (atomic or) and read its reached mask (a stale read only adds a redundant seed).

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, AtomicU64, AtomicUsize, Ordering};

use crate::pace::{Pace, Progress};
use crate::tiles::grid::Grid;
use crate::tiles::moves::Move;

/// An entry no layer has reached yet.
const UNSEEN: u8 = u8::MAX;
/// Indices handed to a build thread at a time (a fraction of a millisecond of work).
const CHUNK: usize = 1 << 14;

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

/// Per-index masks of blank cells, shared by the build threads.
trait Masks: Sync + Sized {
    fn zeroed(len: usize) -> Vec<Self>;
    fn get(&self) -> u64;
    fn or(&self, bits: u64);
    fn set(&self, bits: u64);
}

macro_rules! impl_masks {
    ($atomic:ty, $int:ty) => {
        impl Masks for $atomic {
            fn zeroed(len: usize) -> Vec<Self> {
                (0..len).map(|_| <$atomic>::new(0)).collect()
            }
            #[inline]
            fn get(&self) -> u64 {
                u64::from(self.load(Ordering::Relaxed))
            }
            #[inline]
            fn or(&self, bits: u64) {
                self.fetch_or(bits as $int, Ordering::Relaxed);
            }
            #[inline]
            fn set(&self, bits: u64) {
                self.store(bits as $int, Ordering::Relaxed);
            }
        }
    };
}
impl_masks!(AtomicU32, u32);
impl_masks!(AtomicU64, u64);

/// Cell sets of a board as `u64` masks: the blank's free moves.
struct Board {
    cols: usize,
    all: u64,
    not_first_col: u64,
    not_last_col: u64,
}

impl Board {
    fn new(grid: Grid) -> Self {
        let (n, cols) = (grid.cells(), grid.cols());
        let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let col = |c: usize| (0..grid.rows()).fold(0u64, |m, r| m | 1 << (r * cols + c));
        Self {
            cols,
            all,
            not_first_col: all & !col(0),
            not_last_col: all & !col(cols - 1),
        }
    }

    /// All cells the blank reaches from `from` through `free` cells.
    #[inline]
    fn flood(&self, from: u64, free: u64) -> u64 {
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

/// The table of the pattern whose tiles belong on `home` (slot order) for targets with the
/// blank on `blank`, reported to `pace` as database `database` of `databases`.
pub(super) fn build_table(
    grid: Grid,
    home: &[u8],
    blank: u8,
    threads: usize,
    pace: &dyn Pace,
    stage: (usize, usize),
) -> Box<[u8]> {
    if grid.cells() <= 32 {
        build_with::<AtomicU32>(grid, home, blank, threads, pace, stage)
    } else {
        build_with::<AtomicU64>(grid, home, blank, threads, pace, stage)
    }
}

fn build_with<M: Masks>(
    grid: Grid,
    home: &[u8],
    blank: u8,
    threads: usize,
    pace: &dyn Pace,
    (database, databases): (usize, usize),
) -> Box<[u8]> {
    let n = grid.cells();
    let k = home.len();
    let size = n.pow(k as u32);
    let weights: Vec<usize> = (0..k).map(|i| n.pow(i as u32)).collect();
    let neighbours = neighbour_table(grid);
    let mut around = [0u64; 64];
    for (mask, row) in around.iter_mut().zip(&neighbours) {
        *mask = row
            .iter()
            .filter(|&&c| c != u8::MAX)
            .fold(0, |m, &c| m | 1 << c);
    }
    let board = Board::new(grid);
    let table: Vec<AtomicU8> = (0..size).map(|_| AtomicU8::new(UNSEEN)).collect();
    let reached = M::zeroed(size);
    let mut layer = M::zeroed(size);
    let mut next = M::zeroed(size);
    let goal: usize = home
        .iter()
        .zip(&weights)
        .map(|(&c, &w)| c as usize * w)
        .sum();
    layer[goal].set(1 << blank);
    let total = placements(n, k);
    let mut done = 0u64;
    let mut depth = 0u8;
    loop {
        let cursor = AtomicUsize::new(0);
        let grew = AtomicBool::new(false);
        let found = AtomicU64::new(0);
        let work = || {
            let mut turn = pace.enter();
            let mut cells = [0u8; 8];
            let mut newly = 0u64;
            loop {
                turn.checkpoint();
                let begin = cursor.fetch_add(CHUNK, Ordering::Relaxed);
                if begin >= size {
                    break;
                }
                for index in begin..(begin + CHUNK).min(size) {
                    let seeds = layer[index].get();
                    if seeds == 0 {
                        continue;
                    }
                    layer[index].set(0);
                    let mut rest = index;
                    let mut occupied = 0u64;
                    for cell in &mut cells[..k] {
                        *cell = (rest % n) as u8;
                        rest /= n;
                        occupied |= 1 << *cell;
                    }
                    let free = board.all & !occupied;
                    let known = reached[index].get();
                    let reach = board.flood(seeds, free);
                    let fresh = reach & !known;
                    if fresh == 0 {
                        continue;
                    }
                    reached[index].set(known | reach);
                    if table[index].load(Ordering::Relaxed) == UNSEEN {
                        table[index].store(depth, Ordering::Relaxed);
                        newly += 1;
                    }
                    // Each pattern tile next to a fresh blank cell moves into it; the blank then
                    // stands where the tile was.
                    for (slot, &from) in cells[..k].iter().enumerate() {
                        let mut blanks = fresh & around[from as usize];
                        let base = index - from as usize * weights[slot];
                        while blanks != 0 {
                            let to = blanks.trailing_zeros() as usize;
                            blanks &= blanks - 1;
                            let moved = base + to * weights[slot];
                            let seed = 1u64 << from;
                            if reached[moved].get() & seed == 0 {
                                next[moved].or(seed);
                                grew.store(true, Ordering::Relaxed);
                            }
                        }
                    }
                }
            }
            found.fetch_add(newly, Ordering::Relaxed);
        };
        std::thread::scope(|scope| {
            for _ in 1..threads.max(1) {
                scope.spawn(work);
            }
            work();
        });
        done += found.load(Ordering::Relaxed);
        pace.layer_done(Progress {
            database,
            databases,
            layers: u32::from(depth) + 1,
            reached: done,
            placements: total,
        });
        if !grew.load(Ordering::Relaxed) {
            break;
        }
        assert!(depth < UNSEEN - 2, "a pattern deeper than a byte holds");
        std::mem::swap(&mut layer, &mut next);
        depth += 1;
    }
    drop((reached, layer, next));
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
        let table = build_table(grid, &[5], 11, 2, &crate::Unpaced, (0, 1));
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
        let table = build_table(grid, &[0, 1], 5, 1, &crate::Unpaced, (0, 1));
        let index = |a: usize, b: usize| a + 6 * b;
        assert_eq!(table[index(0, 1)], 0);
        assert_eq!(table[index(1, 0)], 6);
        // Every placement of two distinct cells is reached, no index naming one cell twice.
        let reached = table.iter().filter(|&&v| v != UNSEEN).count();
        assert_eq!(reached as u64, placements(6, 2));
        assert!((0..6).all(|c| table[index(c, c)] == UNSEEN));
    }
}
