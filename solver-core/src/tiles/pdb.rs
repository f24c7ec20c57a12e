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
//!
//! What keeps it lean (the 7-8 set: 1.53 GB peak and 210 s on 2 cores, from 2.04 GB and 297 s,
//! with byte-identical tables): a pattern-tile move flips the parity class of a placement, so a
//! layer's seeds and the next layer's lie in different placements and share one word with the
//! reached mask; a placement's moves are all read before any is marked, so their cache misses
//! overlap; and a flag per chunk of placements lets sparse layers skip chunks without seeds.

use std::sync::atomic::{
    AtomicBool, AtomicU8, AtomicU16, AtomicU32, AtomicU64, AtomicUsize, Ordering,
};

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

/// Per-placement state shared by the build threads: the blank cells reached so far and the
/// seeds of the layer being built, one mask each, packed in one atomic word so that a tile move
/// reads and marks its target with one cache miss. A mask names the blank's cells by their index
/// among the cells the placement leaves free (software `pext`/`pdep`), so the 8-tile database,
/// whose placements leave 8 free cells, needs two bytes per placement.
trait State: Sync + Sized {
    fn zeroed(len: usize) -> Vec<Self>;
    /// The reached mask and the seeds.
    fn load(&self) -> (u16, u16);
    /// Adds `bits` to the seeds.
    fn seed(&self, bits: u16);
    /// Sets the reached mask and clears the seeds.
    fn settle(&self, reached: u16);
}

macro_rules! impl_state {
    ($atomic:ty, $int:ty, $half:expr) => {
        impl State for $atomic {
            fn zeroed(len: usize) -> Vec<Self> {
                // Built directly as atomics (reinterpreting zeroed integers would need unsafe);
                // the allocator still hands out zero pages.
                (0..len).map(|_| <$atomic>::new(0)).collect()
            }
            #[inline]
            fn load(&self) -> (u16, u16) {
                let word = self.load(Ordering::Relaxed);
                let low = (1 << $half) - 1;
                ((word & low) as u16, (word >> $half) as u16)
            }
            #[inline]
            fn seed(&self, bits: u16) {
                self.fetch_or(<$int>::from(bits) << $half, Ordering::Relaxed);
            }
            #[inline]
            fn settle(&self, reached: u16) {
                self.store(<$int>::from(reached), Ordering::Relaxed);
            }
        }
    };
}
impl_state!(AtomicU16, u16, 8);
impl_state!(AtomicU32, u32, 16);

/// Cells whose row and column sum to an odd number. A pattern-tile move changes the parity of
/// the placement's count of such cells, so each layer of the build lies in one parity class and
/// the seeds of the next layer, in the other, can share the word of the current one.
const ODD_CELLS: u16 = 0x5A5A;

/// The parity class of a placement occupying `occupied`.
#[inline]
fn class(occupied: u16) -> u32 {
    (occupied & ODD_CELLS).count_ones() & 1
}

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

/// Layered BFS over (placement, blank cell) from the goal placement `goal` (home cell of each
/// slot) with the blank on `goal_blank`; see the module docs.
fn build_table<const K: usize, S: State>(
    goal: &[u8],
    goal_blank: u8,
    threads: usize,
    pace: &dyn Pace,
) -> Table {
    assert_eq!(goal.len(), K);
    let size = placements(K);
    let table: Vec<AtomicU8> = (0..size).map(|_| AtomicU8::new(u8::MAX)).collect();
    let state = S::zeroed(size);
    let goal_occupied = goal.iter().fold(0u16, |m, &c| m | (1 << c));
    let goal_rank = rank(goal);
    state[goal_rank].seed(gather(1 << goal_blank, !goal_occupied));
    // Per chunk of placements and class: whether it holds seeds. A sparse layer (most are)
    // then skips the chunks without, rather than reading every placement's word.
    let seeded_chunks: [Vec<AtomicBool>; 2] = std::array::from_fn(|_| {
        (0..size.div_ceil(CHUNK))
            .map(|_| AtomicBool::new(false))
            .collect()
    });
    seeded_chunks[class(goal_occupied) as usize][goal_rank / CHUNK].store(true, Ordering::Relaxed);
    let mut depth = 0u8;
    let reached_placements = AtomicU64::new(0);
    loop {
        // The seeds of this layer lie in this class; those in the other are the next layer's.
        let layer_class = class(goal_occupied) ^ u32::from(depth & 1);
        let (chunks, next_chunks) = (
            &seeded_chunks[layer_class as usize],
            &seeded_chunks[1 - layer_class as usize],
        );
        let any = AtomicBool::new(false);
        let cursor = AtomicUsize::new(0);
        let work = |_| {
            let mut cells = [0u8; K];
            let mut turn = pace.enter();
            let (mut newly_reached, mut seeded) = (0u64, false);
            loop {
                turn.checkpoint();
                let begin = cursor.fetch_add(CHUNK, Ordering::Relaxed);
                if begin >= size {
                    break;
                }
                if !chunks[begin / CHUNK].swap(false, Ordering::Relaxed) {
                    continue;
                }
                for idx in begin..(begin + CHUNK).min(size) {
                    let (known, seeds) = state[idx].load();
                    if seeds == 0 {
                        continue;
                    }
                    unrank(idx, &mut cells);
                    let occupied = cells.iter().fold(0u16, |m, &c| m | (1 << c));
                    if class(occupied) != layer_class {
                        continue;
                    }
                    let free = !occupied;
                    let reach = flood(scatter(seeds, free), free);
                    let known = scatter(known, free);
                    let fresh = reach & !known;
                    state[idx].settle(gather(reach | known, free));
                    if fresh == 0 {
                        continue;
                    }
                    if table[idx].load(Ordering::Relaxed) == u8::MAX {
                        table[idx].store(depth, Ordering::Relaxed);
                        newly_reached += 1;
                    }
                    // Move each pattern tile next to a fresh blank cell into it; the blank then
                    // sits where the tile was. All the moves' targets are read before any is
                    // marked: the reads, mostly cache misses, then overlap, where a mark (an
                    // atomic read-modify-write, a full barrier on x86) between them would keep
                    // each read waiting for the one before.
                    let mut moves = [(0usize, 0u16); 32];
                    let mut count = 0;
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
                            // `gather(1 << from, moved_free)`: the blank's index among the free
                            // cells is the count of free cells below it.
                            let index = (moved_free & ((1 << from) - 1)).count_ones();
                            moves[count] = (moved, 1 << index);
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
            reached_placements.fetch_add(newly_reached, Ordering::Relaxed);
            if seeded {
                any.store(true, Ordering::Relaxed);
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
        depth += 1;
    }
    // Free the masks first; the conversion then reuses the atomics' allocation in place.
    drop(state);
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

    /// The database of `tiles` for `goal` by a plain 0-1 breadth-first search over (placement,
    /// blank cell): a blank move into a free cell costs 0, one into a pattern tile's cell 1.
    fn oracle(tiles: &[u8], goal: &Board4) -> Vec<u8> {
        let positions = goal.positions();
        let home: Vec<u8> = tiles.iter().map(|&t| positions[t as usize]).collect();
        let mut best = vec![u8::MAX; placements(tiles.len())];
        let mut seen = std::collections::HashSet::new();
        let mut queue = std::collections::VecDeque::from([(home, goal.blank() as u8, 0u8)]);
        while let Some((cells, blank, cost)) = queue.pop_front() {
            if !seen.insert((cells.clone(), blank)) {
                continue;
            }
            let r = rank(&cells);
            best[r] = best[r].min(cost);
            for to in 0..16u8 {
                if NEIGHBOURS[blank as usize] & (1 << to) == 0 {
                    continue;
                }
                match cells.iter().position(|&c| c == to) {
                    None => queue.push_front((cells.clone(), to, cost)),
                    Some(slot) => {
                        let mut moved = cells.clone();
                        moved[slot] = blank;
                        queue.push_back((moved, to, cost + 1));
                    }
                }
            }
        }
        best
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
