//! The breadth-first build of one table, from its goal outwards, in layers.
//!
//! Each entry holds the distance mod 3 in 2 bits (3 = not reached yet), 32 entries per word. Two
//! bitsets hold the boards of this layer and of the next, so each board is expanded exactly once.
//! The threads share the words of a layer's bitset in chunks; an entry is set with one atomic
//! `and` that turns 3 into the new layer's value: every thread that finds it unreached in the same
//! layer writes the same value, so a race between them is harmless, and the one whose `and` saw 3
//! counts the board and marks it in the next layer.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use crate::pace::{Pace, Progress};

use super::codec::{Codec, NONE, State, block};

/// Words of the current layer's bitset a thread takes at a time: up to 4096 boards, well under a
/// millisecond of work between checkpoints.
const CHUNK: usize = 64;

/// A finished build: the packed entries and the largest distance.
pub(crate) struct Built {
    pub(crate) words: Vec<u64>,
    pub(crate) radius: u32,
}

/// Builds the table of the boards of `codec`'s class with `N` cells, distances to `goal`.
pub(crate) fn build<const N: usize>(
    codec: &Codec,
    goal: State,
    threads: usize,
    pace: &dyn Pace,
) -> Built {
    let size = N * block(N);
    let table: Vec<AtomicU64> = (0..size.div_ceil(32))
        .map(|_| AtomicU64::new(u64::MAX))
        .collect();
    let mut layer: Vec<AtomicU64> = (0..size.div_ceil(64)).map(|_| AtomicU64::new(0)).collect();
    let mut next: Vec<AtomicU64> = (0..size.div_ceil(64)).map(|_| AtomicU64::new(0)).collect();
    let root = codec.rank::<N>(goal);
    table[root / 32].fetch_and(!(3 << (2 * (root % 32))), Ordering::Relaxed);
    layer[root / 64].store(1 << (root % 64), Ordering::Relaxed);
    let mut reached = 1u64;
    let mut depth = 0u32;
    loop {
        let value = u64::from((depth + 1) % 3);
        let cursor = AtomicUsize::new(0);
        let fresh = AtomicU64::new(0);
        let work = || {
            let mut turn = pace.enter();
            let mut found = 0u64;
            loop {
                turn.checkpoint();
                let begin = cursor.fetch_add(CHUNK, Ordering::Relaxed);
                if begin >= layer.len() {
                    break;
                }
                for (w, slot) in layer.iter().enumerate().skip(begin).take(CHUNK) {
                    let mut bits = slot.load(Ordering::Relaxed);
                    if bits == 0 {
                        continue;
                    }
                    slot.store(0, Ordering::Relaxed);
                    while bits != 0 {
                        let rank = w * 64 + bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        let state = codec.unrank::<N>(rank);
                        for &to in &codec.neighbours[state.blank] {
                            if to == NONE {
                                continue;
                            }
                            let (_, r) = codec.rank_after::<N>(state, rank, usize::from(to));
                            let shift = 2 * (r % 32);
                            let word = &table[r / 32];
                            if (word.load(Ordering::Relaxed) >> shift) & 3 != 3 {
                                continue;
                            }
                            let old = word.fetch_and(!((3 ^ value) << shift), Ordering::Relaxed);
                            if (old >> shift) & 3 == 3 {
                                found += 1;
                                next[r / 64].fetch_or(1 << (r % 64), Ordering::Relaxed);
                            }
                        }
                    }
                }
            }
            fresh.fetch_add(found, Ordering::Relaxed);
        };
        std::thread::scope(|scope| {
            for _ in 1..threads.max(1) {
                scope.spawn(work);
            }
            work();
        });
        let found = fresh.into_inner();
        reached += found;
        pace.layer_done(Progress {
            database: 0,
            databases: 1,
            layers: depth + 1,
            reached,
            placements: size as u64,
        });
        if found == 0 {
            break;
        }
        std::mem::swap(&mut layer, &mut next);
        depth += 1;
    }
    debug_assert_eq!(reached, size as u64, "every board of the class is reached");
    drop((layer, next));
    Built {
        words: table.into_iter().map(AtomicU64::into_inner).collect(),
        radius: depth,
    }
}
