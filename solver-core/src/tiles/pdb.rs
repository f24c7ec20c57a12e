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
//! The build is the layered search of [`layered`] over the dense index [`rank`], with each mask
//! of blank cells packed into the cells the placement leaves free (software `pext`/`pdep`), so
//! the 8-tile database, whose placements leave 8 free cells, needs two bytes of masks per
//! placement and the smaller ones four (the 7-8 set: 1.53 GB peak and 210 s on 2 cores).

use std::sync::atomic::{AtomicU16, AtomicU32};

use super::board::Board4;
use super::grid::Grid;
use super::layered::{self, MAX_TILES, Space};
use crate::pace::Pace;

/// Cells of the board.
const CELLS: usize = 16;

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

/// Inverse of [`rank`]: the cells of `K` tiles, into the first `K` of `cells`.
#[inline]
fn unrank<const K: usize>(mut r: usize, cells: &mut [u8]) {
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

/// Gathers the bits of `x` at the set bits of `mask` into the low bits (BMI2 `pext`).
#[inline]
fn gather(x: u64, mut mask: u64) -> u64 {
    let (mut out, mut bit) = (0u64, 1u64);
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
fn scatter(x: u64, mut mask: u64) -> u64 {
    let (mut out, mut bit) = (0u64, 1u64);
    while mask != 0 {
        if x & bit != 0 {
            out |= mask & mask.wrapping_neg();
        }
        bit <<= 1;
        mask &= mask - 1;
    }
    out
}

/// The dense index of `K`-tile placements on the 4×4 board, masks packed into the free cells.
struct Dense<const K: usize>;

impl<const K: usize> Space for Dense<K> {
    const CHUNK: usize = 1 << 12;

    #[inline]
    fn tiles(&self) -> usize {
        K
    }

    fn len(&self) -> usize {
        placements(K)
    }

    #[inline]
    fn index(&self, cells: &[u8]) -> usize {
        rank(cells)
    }

    #[inline]
    fn decode(&self, index: usize, cells: &mut [u8; MAX_TILES]) {
        unrank::<K>(index, cells);
    }

    #[inline]
    fn pack(&self, mask: u64, free: u64) -> u64 {
        gather(mask, free)
    }

    #[inline]
    fn unpack(&self, stored: u64, free: u64) -> u64 {
        scatter(stored, free)
    }

    #[inline]
    fn pack_cell(&self, cell: u8, free: u64) -> u64 {
        // The cell's index among the free cells is the count of free cells below it.
        1 << (free & ((1 << cell) - 1)).count_ones()
    }
}

/// The table of the `K` tiles whose home cells are `home`, on masks of type `W`.
fn build_table<const K: usize, W: layered::State>(
    home: &[u8],
    blank: u8,
    threads: usize,
    pace: &dyn Pace,
) -> Table {
    let job = layered::Job {
        grid: Grid::FIFTEEN,
        home,
        blank,
        threads,
        pace,
        stage: (0, 1),
    };
    Table(layered::build::<_, W>(&Dense::<K>, &job))
}

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
        // Up to 7 tiles leave 9 or more cells free: two 16-bit masks a word; 8 tiles leave 8.
        let table = match tiles.len() {
            1 => build_table::<1, AtomicU32>(&home, blank, threads, pace),
            2 => build_table::<2, AtomicU32>(&home, blank, threads, pace),
            3 => build_table::<3, AtomicU32>(&home, blank, threads, pace),
            4 => build_table::<4, AtomicU32>(&home, blank, threads, pace),
            5 => build_table::<5, AtomicU32>(&home, blank, threads, pace),
            6 => build_table::<6, AtomicU32>(&home, blank, threads, pace),
            7 => build_table::<7, AtomicU32>(&home, blank, threads, pace),
            8 => build_table::<8, AtomicU16>(&home, blank, threads, pace),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<const K: usize>() {
        let mut cells = [0u8; K];
        for r in 0..placements(K) {
            unrank::<K>(r, &mut cells);
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
        let mask = 0b1011_0010_0110_1001u64;
        for x in 0..(1u64 << mask.count_ones()) {
            assert_eq!(gather(scatter(x, mask), mask), x);
        }
        assert_eq!(gather(0b1000_0010, 0b1010_0010), 0b101);
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

    /// The database of `tiles` for `goal` by a plain 0-1 breadth-first search.
    fn oracle(tiles: &[u8], goal: &Board4) -> Vec<u8> {
        let positions = goal.positions();
        let home: Vec<u8> = tiles.iter().map(|&t| positions[t as usize]).collect();
        let len = placements(tiles.len());
        layered::plain_search(Grid::FIFTEEN, &home, goal.blank() as u8, len, rank)
    }

    /// Every entry equals the 0-1 BFS's, for patterns of one to three tiles and goals with the
    /// blank in a corner, an edge and the centre.
    #[test]
    fn databases_equal_a_plain_search() {
        for (tiles, blank) in [
            (&[1u8, 2, 5][..], 15),
            (&[6, 7, 11][..], 15),
            (&[15, 12][..], 0),
            (&[3, 9, 14][..], 13),
            (&[4][..], 10),
        ] {
            let goal = Board4::canonical(blank);
            let pdb = Pdb::build_for(tiles, &goal, 2, &crate::Unpaced);
            assert!(
                pdb.table() == oracle(tiles, &goal),
                "{tiles:?}, blank {blank}"
            );
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
