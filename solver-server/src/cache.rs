//! The cache of solved states, shared by every stream.
//!
//! Only answers that cost a search are cached: 15-puzzle paths (with every suffix of each path)
//! and Solitaire answers. A 3×3 answer is read from the distance table in about 0.3 µs, no more
//! than a cache look-up, so 3×3 cases never touch the cache (and count no hits or misses).
//!
//! A [`DashMap`] keyed by puzzle kind, start, target (and move limit for Solitaire). Its size is
//! bounded: an insert into a full cache first evicts an arbitrary entry (the first one found,
//! which is cheap and needs no bookkeeping on the hit path), so the map never holds more than
//! `capacity` entries. A slot is reserved in an atomic counter *before* the map is touched, so
//! concurrent inserts cannot overshoot the bound either.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use dashmap::DashMap;
use dashmap::mapref::entry::Entry;
use solver_core::{Board4, Move};

use crate::config::Kind;
use crate::engine::{Position, Step};
use crate::metrics::Metrics;

/// What a cached answer is about: only kinds whose answers cost a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum CacheKey {
    /// A 4×4 start and target.
    Fifteen(Board4, Board4),
    /// A Solitaire start, end and move limit.
    Solitaire(Position, Position, u32),
}

impl CacheKey {
    fn kind(&self) -> Kind {
        match self {
            CacheKey::Fifteen(..) => Kind::Fifteen,
            CacheKey::Solitaire(..) => Kind::Solitaire,
        }
    }
}

/// A cached answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Answer {
    /// Sliding-tile moves, as letters.
    Moves(Arc<str>),
    /// Solitaire steps.
    Steps(Arc<[Step]>),
    /// The Solitaire end is not reachable within the key's limit.
    Unreachable,
}

/// The bounded, shared cache of solved states.
#[derive(Debug)]
pub(crate) struct Cache {
    map: DashMap<CacheKey, Answer>,
    /// Entries plus reserved slots; never above `capacity`.
    len: AtomicUsize,
    capacity: usize,
    metrics: Arc<Metrics>,
}

impl Cache {
    /// An empty cache of at most `capacity` entries; 0 turns caching off.
    pub(crate) fn new(capacity: usize, metrics: Arc<Metrics>) -> Self {
        Self {
            map: DashMap::new(),
            len: AtomicUsize::new(0),
            capacity,
            metrics,
        }
    }

    /// Whether the cache is on.
    pub(crate) fn enabled(&self) -> bool {
        self.capacity > 0
    }

    /// The number of entries (exact only when no insert runs concurrently).
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }

    /// Entries plus slots reserved by inserts in progress: at every instant at least the number
    /// of entries, and never above the capacity.
    #[cfg(test)]
    fn slots(&self) -> usize {
        self.len.load(Ordering::Acquire)
    }

    /// Looks `key` up, counting a hit or a miss.
    pub(crate) fn get(&self, key: &CacheKey) -> Option<Answer> {
        if !self.enabled() {
            return None;
        }
        let found = self.map.get(key).map(|entry| entry.value().clone());
        let metrics = self.metrics.kind(key.kind());
        if found.is_some() {
            metrics.cache_hits.inc();
        } else {
            metrics.cache_misses.inc();
        }
        found
    }

    /// Stores `answer` under `key` (keeping an existing entry), evicting to stay in bounds.
    pub(crate) fn insert(&self, key: CacheKey, answer: Answer) {
        if !self.enabled() || self.map.contains_key(&key) {
            return;
        }
        self.reserve_slot();
        // No other shard lock is held here, so eviction above cannot deadlock with this one.
        match self.map.entry(key) {
            Entry::Vacant(vacant) => {
                vacant.insert(answer);
            }
            Entry::Occupied(_) => {
                self.len.fetch_sub(1, Ordering::AcqRel);
            }
        }
        self.metrics
            .cache_entries
            .set(i64::try_from(self.len.load(Ordering::Relaxed)).unwrap_or(i64::MAX));
    }

    /// Caches every suffix of an optimal, lexicographically smallest 4×4 path: the board after
    /// `k` moves reaches `target` optimally by `moves[k..]` (a shorter or smaller way from there
    /// would shorten or shrink the whole path).
    pub(crate) fn insert_path(&self, start: Board4, target: Board4, moves: &[Move]) {
        if !self.enabled() {
            return;
        }
        let letters = solver_core::format_moves(moves);
        let mut board = start;
        for k in 0..=moves.len() {
            self.insert(
                CacheKey::Fifteen(board, target),
                Answer::Moves(Arc::from(&letters[k..])),
            );
            if let Some(&mv) = moves.get(k) {
                match board.apply(mv) {
                    Some(next) => board = next,
                    None => return,
                }
            }
        }
    }

    /// Takes one slot of the bound, evicting entries until one is free.
    fn reserve_slot(&self) {
        loop {
            let len = self.len.load(Ordering::Acquire);
            if len < self.capacity {
                if self
                    .len
                    .compare_exchange_weak(len, len + 1, Ordering::AcqRel, Ordering::Acquire)
                    .is_ok()
                {
                    return;
                }
                continue;
            }
            self.evict_one();
        }
    }

    /// Removes one arbitrary entry, if there is one.
    fn evict_one(&self) {
        let victim = self.map.iter().next().map(|entry| *entry.key());
        match victim {
            Some(key) => {
                if self.map.remove(&key).is_some() {
                    self.len.fetch_sub(1, Ordering::AcqRel);
                }
            }
            // Every slot is reserved by inserts in progress: let them finish.
            None => std::thread::yield_now(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Square;
    use solver_core::parse_moves;

    fn cache(capacity: usize) -> Cache {
        Cache::new(capacity, Arc::new(Metrics::new()))
    }

    /// The `n`th permutation of the 16 cells (factorial number system): distinct keys.
    fn board(mut n: u64) -> Board4 {
        let mut pool: Vec<u64> = (0..16).collect();
        let mut cells = Vec::with_capacity(16);
        for left in (1..=16u64).rev() {
            let i = usize::try_from(n % left).unwrap();
            n /= left;
            cells.push(pool.remove(i));
        }
        Board4::from_cells(&cells).unwrap()
    }

    fn key(n: u64) -> CacheKey {
        CacheKey::Fifteen(board(n), Board4::goal())
    }

    #[test]
    fn hit_after_insert_and_counters() {
        let cache = cache(10);
        let key = key(7);
        assert_eq!(cache.get(&key), None);
        cache.insert(key, Answer::Moves(Arc::from("")));
        assert_eq!(cache.get(&key), Some(Answer::Moves(Arc::from(""))));
        let sq = |r, c| Square::new(r, c).unwrap();
        let position = Position::new(&[sq(4, 4), sq(4, 5), sq(5, 4), sq(6, 5)]).unwrap();
        let solitaire = CacheKey::Solitaire(position, position, 6);
        cache.insert(solitaire, Answer::Unreachable);
        assert_eq!(cache.get(&solitaire), Some(Answer::Unreachable));
        let text = cache.metrics.render();
        assert!(
            text.contains(r#"solver_cache_hits_total{kind="fifteen"} 1"#),
            "{text}"
        );
        assert!(text.contains(r#"solver_cache_misses_total{kind="fifteen"} 1"#));
        assert!(text.contains(r#"solver_cache_hits_total{kind="solitaire"} 1"#));
        assert!(text.contains(r#"solver_cache_misses_total{kind="solitaire"} 0"#));
        assert!(text.contains("solver_cache_entries 2"));
    }

    /// 3×3 answers come from a table and have no key: the cache never sees them, and their
    /// hit and miss counters stay at zero however the cache is used.
    #[test]
    fn eight_puzzle_answers_are_never_cached_or_counted() {
        let cache = cache(10);
        for n in 0..20 {
            cache.get(&key(n));
            cache.insert(key(n), Answer::Unreachable);
            cache.get(&key(n));
        }
        let text = cache.metrics.render();
        assert!(
            text.contains(r#"solver_cache_hits_total{kind="eight"} 0"#),
            "{text}"
        );
        assert!(text.contains(r#"solver_cache_misses_total{kind="eight"} 0"#));
    }

    #[test]
    fn never_grows_past_its_bound() {
        let cache = cache(5);
        for n in 0..50 {
            cache.insert(key(n), Answer::Unreachable);
            assert!(cache.len() <= 5);
        }
        assert_eq!(cache.len(), 5);
    }

    #[test]
    fn bound_holds_under_concurrent_inserts() {
        let cache = cache(64);
        std::thread::scope(|scope| {
            for t in 0..4u64 {
                let cache = &cache;
                scope.spawn(move || {
                    for n in 0..2000 {
                        cache.insert(key(t * 1_000_000 + n), Answer::Unreachable);
                        // `DashMap::len` reads the shards one by one, so under concurrent
                        // inserts only the slot counter, which bounds the entries, is exact.
                        assert!(cache.slots() <= 64);
                    }
                });
            }
        });
        assert_eq!(cache.len(), 64);
        assert_eq!(cache.slots(), 64);
    }

    #[test]
    fn disabled_cache_stores_nothing() {
        let cache = cache(0);
        let key = key(1);
        cache.insert(key, Answer::Unreachable);
        assert_eq!(cache.get(&key), None);
        assert_eq!(cache.len(), 0);
    }

    #[test]
    fn path_suffixes_are_cached() {
        let cache = cache(100);
        let goal = Board4::goal();
        let start = goal.replay(&parse_moves("ulul").unwrap()).unwrap();
        let moves = parse_moves("rdrd").unwrap();
        assert_eq!(start.replay(&moves).unwrap(), goal);
        cache.insert_path(start, goal, &moves);
        assert_eq!(cache.len(), 5);
        let after_two = start.replay(&moves[..2]).unwrap();
        assert_eq!(
            cache.get(&CacheKey::Fifteen(after_two, goal)),
            Some(Answer::Moves(Arc::from("rd")))
        );
        assert_eq!(
            cache.get(&CacheKey::Fifteen(goal, goal)),
            Some(Answer::Moves(Arc::from("")))
        );
    }

    /// CPU time of the calling thread so far, in nanoseconds (0 where `/proc` does not tell).
    fn thread_cpu_ns() -> u64 {
        std::fs::read_to_string("/proc/thread-self/schedstat")
            .ok()
            .and_then(|stat| stat.split_whitespace().next()?.parse().ok())
            .unwrap_or(0)
    }

    /// What each operation costs on a full cache whose keys miss, get inserted (evicting) and
    /// come back: a micro-benchmark, not a test (it prints figures and asserts nothing about
    /// time). `Cache` is private to the crate, so it lives here rather than under `benches/`:
    ///
    /// ```sh
    /// cargo test --release -p solver-server --lib cache::tests::cost_per_op_on_a_full_cache \
    ///     -- --ignored --nocapture
    /// ```
    ///
    /// A cache of 5,000 entries (keys drawn from 20,000, so three in four miss) and one of 100,000
    /// (keys from 200,000: half miss) is filled, then one and two threads each run windows of
    /// look-ups of keys drawn uniformly, inserting every miss as a search would: evicted keys keep
    /// coming back. Printed per window: the mean cost of one look-up-or-insert (wall time, and
    /// the workers' own CPU time, which other load on the machine disturbs less) and the hit
    /// rate; the cost should stay flat from the first window to the last.
    #[test]
    #[ignore = "a benchmark: run it by name with --ignored --nocapture"]
    fn cost_per_op_on_a_full_cache() {
        const WINDOWS: usize = 10;
        const OPS: usize = 200_000;
        for (capacity, key_count) in [(5_000, 20_000_u64), (100_000, 200_000)] {
            let keys: Arc<[CacheKey]> = (0..key_count).map(key).collect();
            for threads in [1, 2] {
                let cache = cache(capacity);
                for key in keys.iter().take(capacity) {
                    cache.insert(*key, Answer::Unreachable);
                }
                println!("{threads} thread(s), {capacity} entries, keys from {key_count}:");
                for window in 0..WINDOWS {
                    let started = std::time::Instant::now();
                    let (hits, cpu): (usize, u64) = std::thread::scope(|scope| {
                        let workers: Vec<_> = (0..threads)
                            .map(|t| {
                                let (cache, keys) = (&cache, &keys);
                                scope.spawn(move || {
                                    let mut state = 0x9e37_79b9_7f4a_7c15_u64
                                        ^ ((window * threads + t + 1) as u64)
                                            .wrapping_mul(0xff51_afd7_ed55_8ccd);
                                    let mut hits = 0;
                                    let cpu = thread_cpu_ns();
                                    for _ in 0..OPS {
                                        state ^= state << 13;
                                        state ^= state >> 7;
                                        state ^= state << 17;
                                        let key = keys[(state % key_count) as usize];
                                        if cache.get(&key).is_some() {
                                            hits += 1;
                                        } else {
                                            cache.insert(key, Answer::Unreachable);
                                        }
                                    }
                                    (hits, thread_cpu_ns() - cpu)
                                })
                            })
                            .collect();
                        workers
                            .into_iter()
                            .map(|w| w.join().unwrap())
                            .fold((0, 0), |(h, c), (hits, cpu)| (h + hits, c + cpu))
                    });
                    let elapsed = started.elapsed();
                    let ops = (OPS * threads) as f64;
                    println!(
                        "  window {window}: {:7.1} ns wall per op per thread, {:7.1} ns CPU per op, \
                         {:5.1} % hits, {} entries",
                        elapsed.as_secs_f64() * 1e9 * threads as f64 / ops,
                        cpu as f64 / ops,
                        hits as f64 * 100.0 / ops,
                        cache.len()
                    );
                }
            }
        }
    }
}
