//! Additive pattern databases for the 15-puzzle, built with the blank tracked.
//!
//! A pattern database stores, for every placement of a set of *pattern tiles*, the fewest moves
//! **of pattern tiles** needed to bring them home. Tiles outside the pattern are indistinct, so
//! the blank may wander through their cells for free, but it cannot pass a pattern tile without
//! moving it (cost 1). Databases over disjoint tile sets therefore add up to an admissible
//! heuristic (Korf & Felner, "Disjoint pattern database heuristics", 2002).
//!
//! Tracking the blank matters: letting pattern tiles jump into any free cell is also admissible
//! but far weaker (about 7× more nodes on 6-6-3, per the project's measurements).
//!
//! The build is a breadth-first search over (placement, blank cell) by layers of pattern-tile
//! moves. Per placement it keeps a 16-bit mask of the blank cells reached so far and one of the
//! current layer; a layer is first closed under free blank moves (a flood fill of the mask
//! through the cells the pattern leaves free), then every pattern tile next to a newly reached
//! blank cell is moved into it, which seeds the next layer. The stored value of a placement is
//! the first layer that reaches it, i.e. the minimum over blank cells.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU16, AtomicU64, AtomicUsize, Ordering};

use super::board::Board4;
use crate::pace::{Pace, Progress};

/// Cells of the board.
const CELLS: usize = 16;
/// Blank moves between bit-cells: the columns a shift must not wrap across.
const NOT_COL0: u16 = 0xEEEE;
const NOT_COL3: u16 = 0x7777;

/// A pattern database: one byte per placement of its tiles, indexed by [`rank`].
#[derive(Debug)]
pub(crate) struct Pdb {
    /// The pattern's tiles, in slot order.
    tiles: Vec<u8>,
    /// Distance of every placement, by rank.
    table: Table,
}

/// A table's bytes. (Backing them with transparent huge pages was measured: searches gained
/// about 15 %, but loading the 7-8 tables could stall for over a second on memory compaction,
/// so plain heap memory it is.)
#[derive(Debug)]
struct Table(Vec<u8>);

impl Table {
    /// A table of `len` bytes filled by `fill`.
    fn filled<E>(len: usize, fill: impl FnOnce(&mut [u8]) -> Result<(), E>) -> Result<Self, E> {
        let mut bytes = vec![0u8; len];
        fill(&mut bytes)?;
        Ok(Self(bytes))
    }
}

/// Number of placements of `k` distinct tiles on 16 cells: 16!/(16-k)!.
pub(crate) const fn placements(k: usize) -> usize {
    let mut n = 1;
    let mut i = 0;
    while i < k {
        n *= CELLS - i;
        i += 1;
    }
    n
}

/// Perfect rank of the cells of `k` distinct tiles (slot order), in `0..placements(k)`: the
/// mixed-radix number whose digit `i` counts the free cells below `cells[i]`.
#[inline]
pub(crate) fn rank(cells: &[u8]) -> usize {
    let mut seen = 0u32;
    let mut r = 0usize;
    for (i, &c) in cells.iter().enumerate() {
        let below = (seen & ((1u32 << c) - 1)).count_ones() as usize;
        r = r * (CELLS - i) + (c as usize - below);
        seen |= 1 << c;
    }
    r
}

/// Inverse of [`rank`]: the cells of `K` tiles.
#[inline]
fn unrank<const K: usize>(mut r: usize, cells: &mut [u8; K]) {
    let mut digits = [0usize; K];
    for i in (0..K).rev() {
        let radix = CELLS - i;
        digits[i] = r % radix;
        r /= radix;
    }
    let mut free: u32 = 0xFFFF;
    for (cell, digit) in cells.iter_mut().zip(digits) {
        // The digit-th free cell, counting from 0.
        let mut f = free;
        for _ in 0..digit {
            f &= f - 1;
        }
        let c = f.trailing_zeros();
        *cell = c as u8;
        free &= !(1 << c);
    }
}

/// All cells the blank reaches from `from` through `free` cells.
#[inline]
fn flood(from: u16, free: u16) -> u16 {
    let mut reach = from & free;
    loop {
        let grown = (reach
            | (reach << 4)
            | (reach >> 4)
            | ((reach << 1) & NOT_COL0)
            | ((reach >> 1) & NOT_COL3))
            & free;
        if grown == reach {
            return reach;
        }
        reach = grown;
    }
}

/// Orthogonal neighbours of each cell as a bit mask.
const NEIGHBOURS: [u16; CELLS] = {
    let mut table = [0u16; CELLS];
    let mut c = 0;
    while c < CELLS {
        let bit = 1u16 << c;
        table[c] = (bit << 4) | (bit >> 4) | ((bit << 1) & NOT_COL0) | ((bit >> 1) & NOT_COL3);
        c += 1;
    }
    table
};

/// Per-placement masks of blank cells, shared by the build threads. A mask names the blank's
/// cells by their index among the cells the placement leaves free (software `pext`/`pdep`), so
/// the 8-tile database, whose placements leave 8 free cells, needs one byte per mask.
trait Masks: Sync + Sized {
    fn zeroed(len: usize) -> Vec<Self>;
    fn get(&self) -> u16;
    fn or(&self, bits: u16);
    fn set(&self, bits: u16);
}

macro_rules! impl_masks {
    ($atomic:ty, $int:ty) => {
        impl Masks for $atomic {
            fn zeroed(len: usize) -> Vec<Self> {
                // `Vec<$int>` of zeros comes straight from zeroed pages; reinterpreting would need
                // unsafe, so build the atomics directly (the allocator still hands out zero pages).
                (0..len).map(|_| <$atomic>::new(0)).collect()
            }
            #[inline]
            fn get(&self) -> u16 {
                u16::from(self.load(Ordering::Relaxed))
            }
            #[inline]
            fn or(&self, bits: u16) {
                self.fetch_or(bits as $int, Ordering::Relaxed);
            }
            #[inline]
            fn set(&self, bits: u16) {
                self.store(bits as $int, Ordering::Relaxed);
            }
        }
    };
}
impl_masks!(AtomicU8, u8);
impl_masks!(AtomicU16, u16);

/// Gathers the bits of `x` at the set bits of `mask` into the low bits (BMI2 `pext`).
#[inline]
fn gather(x: u16, mut mask: u16) -> u16 {
    let (mut out, mut bit) = (0u16, 1u16);
    while mask != 0 {
        if x & mask & mask.wrapping_neg() != 0 {
            out |= bit;
        }
        bit <<= 1;
        mask &= mask - 1;
    }
    out
}

/// Scatters the low bits of `x` to the set bits of `mask` (BMI2 `pdep`).
#[inline]
fn scatter(x: u16, mut mask: u16) -> u16 {
    let (mut out, mut bit) = (0u16, 1u16);
    while mask != 0 {
        if x & bit != 0 {
            out |= mask & mask.wrapping_neg();
        }
        bit <<= 1;
        mask &= mask - 1;
    }
    out
}

/// Placements handed to a build thread at a time.
const CHUNK: usize = 1 << 12;

impl Pdb {
    /// Builds the database of `tiles` for the standard goal (tile `t` in cell `t - 1`, the
    /// blank in cell 15), on `threads` threads.
    #[cfg(test)]
    pub(crate) fn build(tiles: &[u8], threads: usize) -> Self {
        Self::build_for(tiles, &Board4::goal(), threads, &crate::Unpaced)
    }

    /// Builds the database of `tiles` for the goal board `goal`, on `threads` threads paced
    /// by `pace`.
    pub(crate) fn build_for(tiles: &[u8], goal: &Board4, threads: usize, pace: &dyn Pace) -> Self {
        let positions = goal.positions();
        let home: Vec<u8> = tiles.iter().map(|&t| positions[t as usize]).collect();
        let blank = goal.blank() as u8;
        let table = match tiles.len() {
            1 => build_table::<1, AtomicU16>(&home, blank, threads, pace),
            2 => build_table::<2, AtomicU16>(&home, blank, threads, pace),
            3 => build_table::<3, AtomicU16>(&home, blank, threads, pace),
            4 => build_table::<4, AtomicU16>(&home, blank, threads, pace),
            5 => build_table::<5, AtomicU16>(&home, blank, threads, pace),
            6 => build_table::<6, AtomicU16>(&home, blank, threads, pace),
            7 => build_table::<7, AtomicU16>(&home, blank, threads, pace),
            8 => build_table::<8, AtomicU8>(&home, blank, threads, pace),
            k => panic!("no pattern databases of {k} tiles"),
        };
        Self {
            tiles: tiles.to_vec(),
            table,
        }
    }

    /// A database of `tiles` whose table `fill` writes (e.g. reads from storage) in place.
    pub(crate) fn read_with<E>(
        tiles: &[u8],
        fill: impl FnOnce(&mut [u8]) -> Result<(), E>,
    ) -> Result<Self, E> {
        let table = Table::filled(placements(tiles.len()), fill)?;
        Ok(Self {
            tiles: tiles.to_vec(),
            table,
        })
    }

    /// The pattern's tiles in slot order.
    pub(crate) fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// The raw table, one byte per placement in rank order.
    pub(crate) fn table(&self) -> &[u8] {
        &self.table.0
    }

    /// The distance of the placement whose slot cells are `cells`.
    #[inline]
    pub(crate) fn get(&self, cells: &[u8]) -> u8 {
        self.table.0[rank(cells)]
    }
}

/// Layered BFS over (placement, blank cell) from the goal placement `goal` (home cell of each
/// slot) with the blank on `goal_blank`; see the module docs.
fn build_table<const K: usize, M: Masks>(
    goal: &[u8],
    goal_blank: u8,
    threads: usize,
    pace: &dyn Pace,
) -> Table {
    assert_eq!(goal.len(), K);
    let size = placements(K);
    let table: Vec<AtomicU8> = (0..size).map(|_| AtomicU8::new(u8::MAX)).collect();
    let reached = M::zeroed(size);
    let mut layer = M::zeroed(size);
    let mut next = M::zeroed(size);
    let goal_rank = rank(goal);
    let goal_free = !goal.iter().fold(0u16, |m, &c| m | (1 << c));
    layer[goal_rank].set(gather(1 << goal_blank, goal_free));
    let mut depth = 0u8;
    let reached_placements = AtomicU64::new(0);
    loop {
        let any = AtomicBool::new(false);
        let cursor = AtomicUsize::new(0);
        let work = |_| {
            let mut cells = [0u8; K];
            let mut turn = pace.enter();
            let mut newly_reached = 0u64;
            loop {
                turn.checkpoint();
                let begin = cursor.fetch_add(CHUNK, Ordering::Relaxed);
                if begin >= size {
                    reached_placements.fetch_add(newly_reached, Ordering::Relaxed);
                    break;
                }
                for idx in begin..(begin + CHUNK).min(size) {
                    let seeds = layer[idx].get();
                    if seeds == 0 {
                        continue;
                    }
                    layer[idx].set(0);
                    unrank(idx, &mut cells);
                    let occupied = cells.iter().fold(0u16, |m, &c| m | (1 << c));
                    let free = !occupied;
                    let reach = flood(scatter(seeds, free), free);
                    let known = scatter(reached[idx].get(), free);
                    let fresh = reach & !known;
                    if fresh == 0 {
                        continue;
                    }
                    reached[idx].set(gather(reach | known, free));
                    if table[idx].load(Ordering::Relaxed) == u8::MAX {
                        table[idx].store(depth, Ordering::Relaxed);
                        newly_reached += 1;
                    }
                    // Move each pattern tile next to a fresh blank cell into it; the blank then
                    // sits where the tile was.
                    for slot in 0..K {
                        let from = cells[slot];
                        let mut blanks = fresh & NEIGHBOURS[from as usize];
                        while blanks != 0 {
                            let to = blanks.trailing_zeros() as u8;
                            blanks &= blanks - 1;
                            cells[slot] = to;
                            let moved = rank(&cells);
                            cells[slot] = from;
                            let moved_free = (free & !(1 << to)) | (1 << from);
                            let seed = gather(1 << from, moved_free);
                            if reached[moved].get() & seed == 0 {
                                next[moved].or(seed);
                                any.store(true, Ordering::Relaxed);
                            }
                        }
                    }
                }
            }
        };
        std::thread::scope(|scope| {
            for t in 1..threads.max(1) {
                scope.spawn(move || work(t));
            }
            work(0);
        });
        pace.layer_done(Progress {
            database: 0,
            databases: 1,
            layers: u32::from(depth) + 1,
            reached: reached_placements.load(Ordering::Relaxed),
            placements: size as u64,
        });
        if !any.load(Ordering::Relaxed) {
            break;
        }
        std::mem::swap(&mut layer, &mut next);
        depth += 1;
    }
    // Free the masks first; the conversion then reuses the atomics' allocation in place.
    drop((reached, layer, next));
    Table(table.into_iter().map(AtomicU8::into_inner).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<const K: usize>() {
        let mut cells = [0u8; K];
        for r in 0..placements(K) {
            unrank(r, &mut cells);
            assert_eq!(rank(&cells), r);
        }
    }

    #[test]
    fn rank_round_trips() {
        round_trip::<1>();
        round_trip::<2>();
        round_trip::<3>();
    }

    #[test]
    fn gather_and_scatter_are_inverse() {
        let mask = 0b1011_0010_0110_1001u16;
        for x in 0..(1u16 << mask.count_ones()) {
            assert_eq!(gather(scatter(x, mask), mask), x);
        }
        assert_eq!(gather(0b1000_0010, 0b1010_0010), 0b101);
    }

    #[test]
    fn flood_stays_in_free_cells() {
        // A wall down column 1 keeps the blank in column 0.
        let wall = 0x2222;
        assert_eq!(flood(1, !wall), 0x1111);
        assert_eq!(flood(1, 0xFFFF), 0xFFFF);
    }

    #[test]
    fn single_tile_database_is_manhattan_distance() {
        // One tile alone: the blank can always get around it, so its cost is its Manhattan
        // distance to home... except that reaching a cell needs the blank in front of it, which
        // is free. Tile 6 (home cell 5).
        let pdb = Pdb::build(&[6], 2);
        for cell in 0..16u8 {
            let md = (i32::from(cell / 4) - 1).abs() + (i32::from(cell % 4) - 1).abs();
            assert_eq!(i32::from(pdb.get(&[cell])), md, "cell {cell}");
        }
    }

    #[test]
    fn databases_follow_the_goal_they_are_built_for() {
        // With the blank home on cell 0, tile 1 lives in cell 1 and tile 15 in cell 15.
        let goal = Board4::canonical(0);
        let pdb = Pdb::build_for(&[1, 15], &goal, 2, &crate::Unpaced);
        assert_eq!(pdb.get(&[1, 15]), 0);
        assert_eq!(pdb.get(&[0, 15]), 1);
        assert_eq!(pdb.get(&[1, 14]), 1);
        // Swapping them: each walks its Manhattan distance (5) round the other.
        assert_eq!(pdb.get(&[15, 1]), 10);
    }
}
