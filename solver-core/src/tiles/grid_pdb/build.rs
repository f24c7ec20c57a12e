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
//! stay unused). During the build, each index also has two masks of blank cells: reached so far,
//! and seeded for the layer (one word for boards of at most 32 cells: 2 GB besides the tables
//! for a 6-tile pattern on 5×5, freed when the table is done). A pattern-tile move flips the
//! parity class of a placement, so a layer's seeds and the next layer's never share an index. A
//! layer closes each seeded placement's blank cells under free moves (a flood fill through the
//! cells the pattern leaves free), then moves every pattern tile next to a newly reached blank
//! cell into it, seeding the next layer with the cell the tile left. The work is split into
//! chunks of indices handed to `threads` threads (chunks holding no seeds are skipped); a
//! placement is processed by one thread per layer, other threads only add seeds to it (atomic
//! or) and read its reached mask (a stale read only adds a redundant seed).

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, AtomicUsize, Ordering};

use crate::pace::{Pace, Progress};
use crate::tiles::grid::Grid;

/// An entry no layer has reached yet.
const UNSEEN: u8 = u8::MAX;
/// Indices handed to a build thread at a time (a fraction of a millisecond of work).
const CHUNK: usize = 1 << 14;

/// Placements of `tiles` distinct tiles on `cells` cells: `cells!/(cells - tiles)!`.
fn placements(cells: usize, tiles: usize) -> u64 {
    (0..tiles).map(|i| (cells - i) as u64).product()
}

/// Per-index state shared by the build threads: the blank cells reached so far and the seeds of
/// the layer being built. A pattern-tile move flips the parity class of a placement (the count
/// of its tiles on cells whose row and column sum to an odd number), so a layer's seeds and the
/// next layer's lie in different placements and one pair of masks per index serves both; kept
/// side by side, a move reads and marks its target with one cache miss.
trait State: Sync + Sized {
    fn zeroed(len: usize) -> Vec<Self>;
    /// The reached mask and the seeds.
    fn load(&self) -> (u64, u64);
    /// Adds `bits` to the seeds.
    fn seed(&self, bits: u64);
    /// Sets the reached mask and clears the seeds.
    fn settle(&self, reached: u64);
}

/// Boards of at most 32 cells: both masks in one word.
impl State for AtomicU64 {
    fn zeroed(len: usize) -> Vec<Self> {
        (0..len).map(|_| AtomicU64::new(0)).collect()
    }
    #[inline]
    fn load(&self) -> (u64, u64) {
        let word = self.load(Ordering::Relaxed);
        (word & u64::from(u32::MAX), word >> 32)
    }
    #[inline]
    fn seed(&self, bits: u64) {
        self.fetch_or(bits << 32, Ordering::Relaxed);
    }
    #[inline]
    fn settle(&self, reached: u64) {
        self.store(reached, Ordering::Relaxed);
    }
}

/// Larger boards: a word each, side by side.
struct Wide {
    reached: AtomicU64,
    seeds: AtomicU64,
}

impl State for Wide {
    fn zeroed(len: usize) -> Vec<Self> {
        (0..len)
            .map(|_| Wide {
                reached: AtomicU64::new(0),
                seeds: AtomicU64::new(0),
            })
            .collect()
    }
    #[inline]
    fn load(&self) -> (u64, u64) {
        (
            self.reached.load(Ordering::Relaxed),
            self.seeds.load(Ordering::Relaxed),
        )
    }
    #[inline]
    fn seed(&self, bits: u64) {
        self.seeds.fetch_or(bits, Ordering::Relaxed);
    }
    #[inline]
    fn settle(&self, reached: u64) {
        self.reached.store(reached, Ordering::Relaxed);
        self.seeds.store(0, Ordering::Relaxed);
    }
}

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
        build_with::<AtomicU64>(grid, home, blank, threads, pace, stage)
    } else {
        build_with::<Wide>(grid, home, blank, threads, pace, stage)
    }
}

fn build_with<S: State>(
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
    let neighbours = grid.neighbour_table();
    let mut around = [0u64; 64];
    for (mask, row) in around.iter_mut().zip(&neighbours) {
        *mask = row
            .iter()
            .filter(|&&c| c != u8::MAX)
            .fold(0, |m, &c| m | 1 << c);
    }
    let board = Board::new(grid);
    let odd_cells = (0..n)
        .filter(|c| (c / grid.cols() + c % grid.cols()) % 2 == 1)
        .fold(0u64, |m, c| m | 1 << c);
    let class = |occupied: u64| (occupied & odd_cells).count_ones() & 1;
    let table: Vec<AtomicU8> = (0..size).map(|_| AtomicU8::new(UNSEEN)).collect();
    let state = S::zeroed(size);
    let goal: usize = home
        .iter()
        .zip(&weights)
        .map(|(&c, &w)| c as usize * w)
        .sum();
    let goal_class = class(home.iter().fold(0u64, |m, &c| m | 1 << c));
    state[goal].seed(1 << blank);
    // Per chunk of indices and class: whether it holds seeds, so that sparse layers (most are)
    // skip the chunks without.
    let seeded_chunks: [Vec<AtomicBool>; 2] = std::array::from_fn(|_| {
        (0..size.div_ceil(CHUNK))
            .map(|_| AtomicBool::new(false))
            .collect()
    });
    seeded_chunks[goal_class as usize][goal / CHUNK].store(true, Ordering::Relaxed);
    let total = placements(n, k);
    let mut done = 0u64;
    let mut depth = 0u8;
    loop {
        let layer_class = goal_class ^ u32::from(depth & 1);
        let (chunks, next_chunks) = (
            &seeded_chunks[layer_class as usize],
            &seeded_chunks[1 - layer_class as usize],
        );
        let cursor = AtomicUsize::new(0);
        let grew = AtomicBool::new(false);
        let found = AtomicU64::new(0);
        let work = || {
            let mut turn = pace.enter();
            let mut cells = [0u8; 8];
            let (mut newly, mut seeded) = (0u64, false);
            loop {
                turn.checkpoint();
                let begin = cursor.fetch_add(CHUNK, Ordering::Relaxed);
                if begin >= size {
                    break;
                }
                if !chunks[begin / CHUNK].swap(false, Ordering::Relaxed) {
                    continue;
                }
                for index in begin..(begin + CHUNK).min(size) {
                    let (known, seeds) = state[index].load();
                    if seeds == 0 {
                        continue;
                    }
                    let mut rest = index;
                    let mut occupied = 0u64;
                    for cell in &mut cells[..k] {
                        *cell = (rest % n) as u8;
                        rest /= n;
                        occupied |= 1 << *cell;
                    }
                    if class(occupied) != layer_class {
                        // Seeds of the next layer.
                        continue;
                    }
                    let free = board.all & !occupied;
                    let reach = board.flood(seeds, free);
                    let fresh = reach & !known;
                    state[index].settle(known | reach);
                    if fresh == 0 {
                        continue;
                    }
                    if table[index].load(Ordering::Relaxed) == UNSEEN {
                        table[index].store(depth, Ordering::Relaxed);
                        newly += 1;
                    }
                    // Each pattern tile next to a fresh blank cell moves into it; the blank then
                    // stands where the tile was. All the moves' targets are read before any is
                    // marked, so their cache misses overlap (a mark, an atomic read-modify-write,
                    // is a full barrier on x86).
                    let mut moves = [(0usize, 0u64); 32];
                    let mut count = 0;
                    for (slot, &from) in cells[..k].iter().enumerate() {
                        let mut blanks = fresh & around[from as usize];
                        let base = index - from as usize * weights[slot];
                        while blanks != 0 {
                            let to = blanks.trailing_zeros() as usize;
                            blanks &= blanks - 1;
                            moves[count] = (base + to * weights[slot], 1u64 << from);
                            count += 1;
                        }
                    }
                    let mut new = [false; 32];
                    for ((moved, seed), new) in moves[..count].iter().zip(&mut new) {
                        let (reached, seeds) = state[*moved].load();
                        *new = (reached | seeds) & seed == 0;
                    }
                    for ((moved, seed), _) in moves[..count].iter().zip(new).filter(|m| m.1) {
                        state[*moved].seed(*seed);
                        let chunk = &next_chunks[*moved / CHUNK];
                        if !chunk.load(Ordering::Relaxed) {
                            chunk.store(true, Ordering::Relaxed);
                        }
                        seeded = true;
                    }
                }
            }
            found.fetch_add(newly, Ordering::Relaxed);
            if seeded {
                grew.store(true, Ordering::Relaxed);
            }
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
        depth += 1;
    }
    drop(state);
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
