//! The layered breadth-first build of an additive pattern database, shared by the 15-puzzle's
//! tables ([`pdb`](super::pdb): dense ranked index, masks packed into the free cells) and those
//! of any shape ([`grid_pdb`](super::grid_pdb): sparse index, masks by cell).
//!
//! The search runs over (placement of the pattern's tiles, blank cell) by layers of
//! pattern-tile moves. Tiles outside the pattern are indistinct, so the blank moves through
//! their cells for free, but it cannot pass a pattern tile without moving it (cost 1). A
//! placement's entry is the first layer that reaches it, i.e. the least cost over the blank's
//! cells (Korf & Felner, "Disjoint pattern database heuristics", 2002).
//!
//! Per index the build keeps two masks of blank cells, reached so far and seeded for the layer
//! being built. A layer closes each seeded placement's blank cells under free moves (a flood
//! fill through the cells the pattern leaves free), then moves every pattern tile next to a
//! newly reached blank cell into it, seeding the next layer with the cell the tile left.
//!
//! What keeps it lean: a pattern-tile move flips the parity class of a placement (the count of
//! its tiles on cells whose row and column sum to an odd number), so a layer's seeds and the
//! next layer's lie in different placements and one pair of masks per index, side by side in
//! one word where they fit, serves both; a placement's moves are all read before any is marked,
//! so their cache misses overlap; and a flag per chunk of indices lets sparse layers (most are)
//! skip the chunks without seeds. Chunks are handed to the threads from a shared cursor; a
//! placement is processed by one thread per layer, the others only add seeds to it (an atomic
//! or) and read its reached mask (a stale read only adds a redundant seed), so the tables do
//! not depend on the number of threads.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU16, AtomicU32, AtomicU64, AtomicUsize};

use super::flood::Flood;
use super::grid::Grid;
use crate::pace::{Pace, Progress};

/// The most tiles a pattern has: a placement is decoded into this many cells.
pub(crate) const MAX_TILES: usize = 8;
/// An entry no layer has reached yet.
pub(crate) const UNSEEN: u8 = u8::MAX;

/// What tells the two kinds of database apart: how placements are indexed, and how a
/// placement's masks of blank cells are stored in its [`State`].
pub(crate) trait Space: Sync {
    /// Indices handed to a build thread at a time.
    const CHUNK: usize;

    /// Tiles in the pattern (at most [`MAX_TILES`]).
    fn tiles(&self) -> usize;

    /// Indices in the table; a sparse scheme has some naming no placement, never reached.
    fn len(&self) -> usize;

    /// The index of the placement whose slot cells are `cells`.
    fn index(&self, cells: &[u8]) -> usize;

    /// The slot cells of the placement at `index`, into the first [`tiles`](Self::tiles) of
    /// `cells`.
    fn decode(&self, index: usize, cells: &mut [u8; MAX_TILES]);

    /// The index of the placement `cells` (found at `index`) with its tile of `slot` moved to
    /// cell `to`. `cells` is left as it was.
    #[inline]
    fn moved(&self, _index: usize, cells: &mut [u8; MAX_TILES], slot: usize, to: u8) -> usize {
        let from = std::mem::replace(&mut cells[slot], to);
        let moved = self.index(&cells[..self.tiles()]);
        cells[slot] = from;
        moved
    }

    /// The blank cells `mask` of a placement leaving the cells `free` free, as stored.
    fn pack(&self, mask: u64, free: u64) -> u64;

    /// Inverse of [`pack`](Self::pack).
    fn unpack(&self, stored: u64, free: u64) -> u64;

    /// `pack(1 << cell, free)`, for a cell of `free`.
    fn pack_cell(&self, cell: u8, free: u64) -> u64;
}

/// Per-index masks shared by the build threads: the blank cells reached so far and the seeds of
/// the layer being built, in a [`Space`]'s stored form. Its width bounds the masks' bits.
pub(crate) trait State: Sync + Sized {
    /// `len` states with both masks empty.
    fn zeroed(len: usize) -> Vec<Self>;
    /// The reached mask and the seeds.
    fn load(&self) -> (u64, u64);
    /// Adds `bits` to the seeds.
    fn seed(&self, bits: u64);
    /// Sets the reached mask and clears the seeds.
    fn settle(&self, reached: u64);
}

/// Both masks in one word, `half` bits each: a move reads and marks its target with one cache
/// miss.
macro_rules! impl_state {
    ($atomic:ty, $int:ty, $half:expr) => {
        impl State for $atomic {
            fn zeroed(len: usize) -> Vec<Self> {
                // Built directly as atomics (reinterpreting zeroed integers would need unsafe);
                // the allocator still hands out zero pages.
                (0..len).map(|_| <$atomic>::new(0)).collect()
            }
            #[inline]
            fn load(&self) -> (u64, u64) {
                let word = u64::from(self.load(Relaxed));
                (word & ((1 << $half) - 1), word >> $half)
            }
            #[inline]
            fn seed(&self, bits: u64) {
                self.fetch_or((bits << $half) as $int, Relaxed);
            }
            #[inline]
            fn settle(&self, reached: u64) {
                self.store(reached as $int, Relaxed);
            }
        }
    };
}
impl_state!(AtomicU16, u16, 8);
impl_state!(AtomicU32, u32, 16);
impl_state!(AtomicU64, u64, 32);

/// Masks of up to 64 bits: a word each, side by side.
#[derive(Debug)]
pub(crate) struct Wide {
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
        (self.reached.load(Relaxed), self.seeds.load(Relaxed))
    }
    #[inline]
    fn seed(&self, bits: u64) {
        self.seeds.fetch_or(bits, Relaxed);
    }
    #[inline]
    fn settle(&self, reached: u64) {
        self.reached.store(reached, Relaxed);
        self.seeds.store(0, Relaxed);
    }
}

/// Cell sets of a board as `u64` masks: the blank's moves and the parity classes.
struct Shape {
    flood: Flood,
    all: u64,
    odd_cells: u64,
    /// Orthogonal neighbours of each cell.
    around: [u64; 64],
}

impl Shape {
    fn new(grid: Grid) -> Self {
        let (n, cols) = (grid.cells(), grid.cols());
        let flood = Flood::new(grid);
        let mut around = [0u64; 64];
        for (mask, row) in around.iter_mut().zip(&grid.neighbour_table()) {
            *mask = row
                .iter()
                .filter(|&&c| c != Grid::EDGE)
                .fold(0, |m, &c| m | 1 << c);
        }
        Self {
            all: flood.all(),
            flood,
            odd_cells: (0..n)
                .filter(|c| (c / cols + c % cols) % 2 == 1)
                .fold(0u64, |m, c| m | 1 << c),
            around,
        }
    }

    /// All cells the blank reaches from `from` through `free` cells.
    #[inline]
    fn flood(&self, from: u64, free: u64) -> u64 {
        self.flood.fill(from, free)
    }

    /// The parity class of a placement occupying `occupied`.
    #[inline]
    fn class(&self, occupied: u64) -> u32 {
        (occupied & self.odd_cells).count_ones() & 1
    }
}

/// Placements of `tiles` distinct tiles on `cells` cells: `cells!/(cells - tiles)!`.
pub(crate) fn placements(cells: usize, tiles: usize) -> u64 {
    (0..tiles).map(|i| (cells - i) as u64).product()
}

/// What one table build is given: the board, the home cells of the pattern's tiles (slot
/// order), the target's blank cell, the threads to build on, and the pace, which hears each
/// finished layer as database `stage.0` of `stage.1`.
#[derive(Clone, Copy)]
pub(crate) struct Job<'a> {
    pub(crate) grid: Grid,
    pub(crate) home: &'a [u8],
    pub(crate) blank: u8,
    pub(crate) threads: usize,
    pub(crate) pace: &'a dyn Pace,
    pub(crate) stage: (usize, usize),
}

/// The table of `space`'s pattern for `job`.
pub(crate) fn build<S: Space, W: State>(space: &S, job: &Job<'_>) -> Vec<u8> {
    build_with::<S, W, _>(space, job, |_, _, _, _| {})
}

/// [`build`], telling `fresh(index, fresh, free, depth)` the blank cells each layer reaches
/// first in each placement (whole regions of its free cells `free`).
pub(crate) fn build_with<S: Space, W: State, F: Fn(usize, u64, u64, u8) + Sync>(
    space: &S,
    job: &Job<'_>,
    on_fresh: F,
) -> Vec<u8> {
    let Job {
        grid,
        home,
        blank,
        threads,
        pace,
        stage: (database, databases),
    } = *job;
    let k = space.tiles();
    assert!(home.len() == k && k <= MAX_TILES, "a pattern of {k} tiles");
    let shape = Shape::new(grid);
    let size = space.len();
    let chunk_size = S::CHUNK;
    let table: Vec<AtomicU8> = (0..size).map(|_| AtomicU8::new(UNSEEN)).collect();
    let state = W::zeroed(size);
    let goal = space.index(home);
    let goal_occupied = home.iter().fold(0u64, |m, &c| m | 1 << c);
    let goal_class = shape.class(goal_occupied);
    state[goal].seed(space.pack(1 << blank, shape.all & !goal_occupied));
    // Per chunk of indices and class: whether it holds seeds.
    let seeded_chunks: [Vec<AtomicBool>; 2] = std::array::from_fn(|_| {
        (0..size.div_ceil(chunk_size))
            .map(|_| AtomicBool::new(false))
            .collect()
    });
    seeded_chunks[goal_class as usize][goal / chunk_size].store(true, Relaxed);
    let total = placements(grid.cells(), k);
    let mut done = 0u64;
    let mut depth = 0u8;
    loop {
        // The seeds of this layer lie in this class; those in the other are the next layer's.
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
            let mut cells = [0u8; MAX_TILES];
            let (mut newly, mut seeded) = (0u64, false);
            loop {
                turn.checkpoint();
                let begin = cursor.fetch_add(chunk_size, Relaxed);
                if begin >= size {
                    break;
                }
                if !chunks[begin / chunk_size].swap(false, Relaxed) {
                    continue;
                }
                for index in begin..(begin + chunk_size).min(size) {
                    let (known, seeds) = state[index].load();
                    if seeds == 0 {
                        continue;
                    }
                    space.decode(index, &mut cells);
                    let occupied = cells[..k].iter().fold(0u64, |m, &c| m | 1 << c);
                    if shape.class(occupied) != layer_class {
                        // Seeds of the next layer.
                        continue;
                    }
                    let free = shape.all & !occupied;
                    let reach = shape.flood(space.unpack(seeds, free), free);
                    let known = space.unpack(known, free);
                    let fresh = reach & !known;
                    state[index].settle(space.pack(known | reach, free));
                    if fresh == 0 {
                        continue;
                    }
                    on_fresh(index, fresh, free, depth);
                    if table[index].load(Relaxed) == UNSEEN {
                        table[index].store(depth, Relaxed);
                        newly += 1;
                    }
                    // Each pattern tile next to a fresh blank cell moves into it; the blank then
                    // stands where the tile was. All the moves' targets are read before any is
                    // marked: the reads, mostly cache misses, then overlap, where a mark (an
                    // atomic read-modify-write, a full barrier on x86) between them would keep
                    // each read waiting for the one before.
                    let mut moves = [(0usize, 0u64); 4 * MAX_TILES];
                    let mut count = 0;
                    for slot in 0..k {
                        let from = cells[slot];
                        let mut blanks = fresh & shape.around[usize::from(from)];
                        while blanks != 0 {
                            let to = blanks.trailing_zeros() as u8;
                            blanks &= blanks - 1;
                            let moved = space.moved(index, &mut cells, slot, to);
                            let moved_free = (free & !(1 << to)) | (1 << from);
                            moves[count] = (moved, space.pack_cell(from, moved_free));
                            count += 1;
                        }
                    }
                    let mut new = [false; 4 * MAX_TILES];
                    for ((moved, seed), new) in moves[..count].iter().zip(&mut new) {
                        let (reached, seeds) = state[*moved].load();
                        *new = (reached | seeds) & seed == 0;
                    }
                    for ((moved, seed), _) in moves[..count].iter().zip(new).filter(|m| m.1) {
                        state[*moved].seed(*seed);
                        let chunk = &next_chunks[*moved / chunk_size];
                        if !chunk.load(Relaxed) {
                            chunk.store(true, Relaxed);
                        }
                        seeded = true;
                    }
                }
            }
            found.fetch_add(newly, Relaxed);
            if seeded {
                grew.store(true, Relaxed);
            }
        };
        std::thread::scope(|scope| {
            for _ in 1..threads.max(1) {
                scope.spawn(work);
            }
            work();
        });
        done += found.load(Relaxed);
        pace.layer_done(Progress {
            database,
            databases,
            layers: u32::from(depth) + 1,
            reached: done,
            placements: total,
        });
        if !grew.load(Relaxed) {
            break;
        }
        assert!(depth < UNSEEN - 2, "a pattern deeper than a byte holds");
        depth += 1;
    }
    // Free the masks first; the conversion then reuses the atomics' allocation in place.
    drop(state);
    table.into_iter().map(AtomicU8::into_inner).collect()
}

/// The table [`build`] makes, of `len` entries indexed by `index`, by a plain 0-1
/// breadth-first search over (placement, blank cell): a blank move onto a free cell costs 0,
/// one onto a pattern tile's cell 1.
#[cfg(test)]
pub(crate) fn plain_search(
    grid: Grid,
    home: &[u8],
    blank: u8,
    len: usize,
    index: impl Fn(&[u8]) -> usize,
) -> Vec<u8> {
    let neighbours = grid.neighbour_table();
    let mut best = vec![UNSEEN; len];
    let mut seen = std::collections::HashSet::new();
    let mut queue = std::collections::VecDeque::from([(home.to_vec(), blank, 0u8)]);
    while let Some((cells, blank, cost)) = queue.pop_front() {
        if !seen.insert((cells.clone(), blank)) {
            continue;
        }
        let at = index(&cells);
        best[at] = best[at].min(cost);
        for &to in neighbours[usize::from(blank)]
            .iter()
            .filter(|&&c| c != Grid::EDGE)
        {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flood_stays_in_free_cells() {
        let shape = Shape::new(Grid::FIFTEEN);
        // A wall down column 1 keeps the blank in column 0.
        assert_eq!(shape.flood(1, !0x2222 & 0xFFFF), 0x1111);
        assert_eq!(shape.flood(1, 0xFFFF), 0xFFFF);
        // 3×5: no wrapping from the end of one row to the start of the next.
        let shape = Shape::new(Grid::new(3, 5).unwrap());
        assert_eq!(
            shape.flood(1 << 4, (0b11111 & !(1 << 3)) | (1 << 5)),
            1 << 4
        );
        // 8×8: every cell, the last row and column included.
        assert_eq!(
            Shape::new(Grid::new(8, 8).unwrap()).flood(1, u64::MAX),
            u64::MAX
        );
    }

    #[test]
    fn states_keep_their_two_masks_apart() {
        fn check<W: State>(bits: u32) {
            let top = u64::MAX >> (64 - bits);
            let states = W::zeroed(2);
            states[0].seed(1);
            states[0].seed(top);
            assert_eq!(states[0].load(), (0, top));
            states[0].settle(top ^ 1);
            assert_eq!(states[0].load(), (top ^ 1, 0));
            assert_eq!(states[1].load(), (0, 0));
        }
        check::<AtomicU16>(8);
        check::<AtomicU32>(16);
        check::<AtomicU64>(32);
        check::<Wide>(64);
    }
}
