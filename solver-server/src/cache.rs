//! The cache of solved states, shared by every stream.
//!
//! Only answers that cost a search are cached, and each puzzle kind decides which: it encodes its
//! own keys ([`CacheKey::new`]) and stores and reads back answers of its own type. (A 3×3 answer
//! is read from the distance table in about 0.3 µs, no more than a cache look-up, so 3×3 cases
//! never touch the cache and count no hits or misses; 15-puzzle paths are cached with every
//! suffix.)
//!
//! # Store and bound
//!
//! A [`DashMap`] holds the answers, keyed by puzzle kind and the kind's encoding of the case. Beside it, an array of `capacity` *slots* (allocated in chunks of [`CHUNK`] as the
//! cache fills) records which key each slot holds. Every entry owns one slot: an insert first
//! takes a free slot (a never-used one, or one it frees by evicting its entry) and keeps that
//! slot locked while it puts its entry in the map; an eviction removes an entry while holding its
//! slot's lock. So the map never holds more entries than there are slots, `capacity`, even under
//! concurrent inserts. Locks are taken in one order only (a slot, then a map shard), and a thread
//! holds at most one slot, so they cannot deadlock.
//!
//! # Eviction: CLOCK (second chance)
//!
//! Each slot has a *referenced* bit, cleared when an entry moves in and set by every hit. A
//! shared hand walks the slots round and round; an insert into a full cache moves it on: a
//! referenced slot loses its bit and is passed over, the first unreferenced one is evicted and
//! its slot reused. An entry hit since the hand last passed survives another round, one that was
//! not is the victim: an approximation of LRU that keeps hot entries (such as the short suffixes
//! of 15-puzzle paths that many cases share) and lets one-off answers go first.
//!
//! Costs: a hit is a map read plus one relaxed atomic load of the bit (and a relaxed store only
//! when the bit was clear, so a hot entry's hits write no shared memory). An eviction is O(1)
//! amortised: each step of the hand either evicts or clears a bit that a hit set, so the steps
//! over the cache's lifetime are at most its inserts plus its hits. (A single insert may pass
//! every slot once when every entry was hit since the last round; it never scans the map.)
//!
//! Why CLOCK rather than the alternatives: *sampled LRU* also needs random access to entries,
//! which a `DashMap` does not offer (it would need the same slot array), plus a time stamp per
//! entry and several map reads per eviction; *S3-FIFO* resists scans better but needs three
//! queues and a ghost set; `quick_cache` and `moka` (which do those well) are not in the offline
//! registry this workspace builds from. CLOCK needs one bit per entry, no extra work on a hit
//! beyond reading that bit, and a slot array that also makes the exact bound simple.
//!
//! Memory: a slot is 40 bytes on 64-bit targets (its key, a lock and the bit), on top of the map
//! entry (key, answer, slot index), the key's case bytes (one allocation, shared by the slot and
//! the map) and the answer's own allocation.

use std::any::Any;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError, TryLockError};

use dashmap::DashMap;
use dashmap::mapref::entry::Entry;

use crate::config::Kind;
use crate::metrics::Metrics;

/// Slots are allocated this many at a time, as the cache fills.
const CHUNK: usize = 1024;

/// What a cached answer is about: the kind it is counted under and that kind's own encoding of
/// the case (start, target and whatever else decides the answer), shared by the map and the
/// slot that owns the entry. Only kinds whose answers cost a search make keys.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct CacheKey {
    kind: Kind,
    case: Arc<[u8]>,
}

impl CacheKey {
    /// The key of a case of `kind`, encoded by that kind as `case`.
    pub(crate) fn new(kind: Kind, case: impl IntoIterator<Item = u8>) -> Self {
        Self {
            kind,
            case: case.into_iter().collect(),
        }
    }
}

/// A cached answer: what its kind stored, which only that kind reads back (by its type).
pub(crate) type Cached = Arc<dyn Any + Send + Sync>;

/// A map entry: the answer and the slot the entry owns.
#[derive(Debug)]
struct Stored {
    answer: Cached,
    slot: usize,
}

/// One place in the bound, and the CLOCK state of the entry that owns it.
#[derive(Debug, Default)]
struct Slot {
    /// The key of the entry that owns the slot; `None` while free. Whoever changes the slot's
    /// entry (inserting or evicting) holds this lock throughout.
    key: Mutex<Option<CacheKey>>,
    /// Hit since the hand last passed.
    referenced: AtomicBool,
}

/// The bounded, shared cache of solved states.
#[derive(Debug)]
pub(crate) struct Cache {
    map: DashMap<CacheKey, Stored>,
    /// `capacity` slots in chunks of [`CHUNK`], each allocated when first used.
    chunks: Box<[OnceLock<Box<[Slot]>>]>,
    /// Slots handed out for the first time; once it reaches `capacity`, inserts evict.
    fresh: AtomicUsize,
    /// The CLOCK hand: the next slot to look at is `hand % capacity`.
    hand: AtomicUsize,
    /// Entries in the map: moves only under a slot lock, so never above `capacity`.
    entries: AtomicUsize,
    capacity: usize,
    metrics: Arc<Metrics>,
}

fn lock(key: &Mutex<Option<CacheKey>>) -> MutexGuard<'_, Option<CacheKey>> {
    // A slot's data is a plain key, valid whatever a panicking holder was doing.
    key.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Cache {
    /// An empty cache of at most `capacity` entries; 0 turns caching off.
    pub(crate) fn new(capacity: usize, metrics: Arc<Metrics>) -> Self {
        Self {
            map: DashMap::new(),
            chunks: (0..capacity.div_ceil(CHUNK))
                .map(|_| OnceLock::new())
                .collect(),
            fresh: AtomicUsize::new(0),
            hand: AtomicUsize::new(0),
            entries: AtomicUsize::new(0),
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

    /// The entry counter: at every instant at least the number of entries whose insert has
    /// finished, and never above the capacity.
    #[cfg(test)]
    fn slots(&self) -> usize {
        self.entries.load(Ordering::Acquire)
    }

    /// Slot `index` (below `capacity`), allocating its chunk on first use.
    fn slot(&self, index: usize) -> &Slot {
        let chunk = self.chunks[index / CHUNK].get_or_init(|| {
            let first = index / CHUNK * CHUNK;
            (first..self.capacity.min(first + CHUNK))
                .map(|_| Slot::default())
                .collect()
        });
        &chunk[index % CHUNK]
    }

    /// Looks `key` up, counting a hit or a miss, and marks a hit entry as referenced: the answer
    /// its kind stored as a `T`.
    pub(crate) fn get<T: Any + Send + Sync>(&self, key: &CacheKey) -> Option<Arc<T>> {
        if !self.enabled() {
            return None;
        }
        let found = self.map.get(key).map(|entry| {
            // Under the map's read lock: the entry cannot be evicted meanwhile, so the slot is
            // still its own.
            let referenced = &self.slot(entry.slot).referenced;
            if !referenced.load(Ordering::Relaxed) {
                referenced.store(true, Ordering::Relaxed);
            }
            entry.answer.clone()
        });
        let found = found.and_then(|answer| answer.downcast::<T>().ok());
        let metrics = self.metrics.kind(key.kind);
        if found.is_some() {
            metrics.cache_hits.inc();
        } else {
            metrics.cache_misses.inc();
        }
        found
    }

    /// Stores `answer` under `key` (keeping an existing entry), evicting to stay in bounds.
    pub(crate) fn insert<T: Any + Send + Sync>(&self, key: CacheKey, answer: T) {
        if !self.enabled() || self.map.contains_key(&key) {
            return;
        }
        let (index, mut owner) = self.take_slot();
        self.slot(index).referenced.store(false, Ordering::Relaxed);
        match self.map.entry(key) {
            Entry::Vacant(vacant) => {
                *owner = Some(vacant.key().clone());
                vacant.insert(Stored {
                    answer: Arc::new(answer),
                    slot: index,
                });
                self.entries.fetch_add(1, Ordering::AcqRel);
            }
            // Another insert of the same key won the race: the slot stays free, and the hand
            // takes it on its next round.
            Entry::Occupied(_) => {}
        }
        drop(owner);
        self.metrics
            .cache_entries
            .set(i64::try_from(self.entries.load(Ordering::Relaxed)).unwrap_or(i64::MAX));
    }

    /// A free slot, locked: a never-used one while there are some, then the CLOCK's victim's.
    fn take_slot(&self) -> (usize, MutexGuard<'_, Option<CacheKey>>) {
        loop {
            let fresh = self.fresh.load(Ordering::Relaxed);
            if fresh < self.capacity {
                if self
                    .fresh
                    .compare_exchange_weak(fresh, fresh + 1, Ordering::Relaxed, Ordering::Relaxed)
                    .is_ok()
                {
                    let owner = lock(&self.slot(fresh).key);
                    // The hand, which starts once every slot is handed out, may have reached
                    // this one first and filled it: then look for another.
                    if owner.is_none() {
                        return (fresh, owner);
                    }
                }
                continue;
            }
            if let Some(free) = self.advance_hand() {
                return free;
            }
        }
    }

    /// One step of the CLOCK hand: the slot under it, locked and emptied, unless its entry was
    /// hit since the last round (it loses its mark and is passed over).
    fn advance_hand(&self) -> Option<(usize, MutexGuard<'_, Option<CacheKey>>)> {
        let index = self.hand.fetch_add(1, Ordering::Relaxed) % self.capacity;
        let slot = self.slot(index);
        if slot.referenced.load(Ordering::Relaxed) {
            slot.referenced.store(false, Ordering::Relaxed);
            return None;
        }
        let mut owner = match slot.key.try_lock() {
            Ok(owner) => owner,
            Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
            // Another insert is filling or emptying this slot: pass it over, and let that
            // thread run if it was preempted.
            Err(TryLockError::WouldBlock) => {
                std::thread::yield_now();
                return None;
            }
        };
        if let Some(victim) = owner.take()
            && self.map.remove(&victim).is_some()
        {
            self.entries.fetch_sub(1, Ordering::AcqRel);
        }
        Some((index, owner))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cache(capacity: usize) -> Cache {
        Cache::new(capacity, Arc::new(Metrics::new()))
    }

    fn key(n: u64) -> CacheKey {
        CacheKey::new(Kind::Fifteen, n.to_le_bytes())
    }

    /// Every slot's key has an entry that names that slot, and every entry has one: the map
    /// holds exactly the keys of the occupied slots. Call it with no insert running.
    fn assert_consistent(cache: &Cache) {
        let mut occupied = 0;
        for index in 0..cache.fresh.load(Ordering::Relaxed).min(cache.capacity) {
            if let Some(key) = lock(&cache.slot(index).key).clone() {
                occupied += 1;
                let entry = cache.map.get(&key).expect("a slot's key has an entry");
                assert_eq!(entry.slot, index);
            }
        }
        assert_eq!(occupied, cache.map.len());
        assert_eq!(cache.slots(), cache.map.len());
        assert!(cache.map.len() <= cache.capacity);
    }

    #[test]
    fn hit_after_insert_and_counters() {
        let cache = cache(10);
        let key = key(7);
        assert_eq!(cache.get::<String>(&key), None);
        cache.insert(key.clone(), String::new());
        assert_eq!(cache.get::<String>(&key).as_deref(), Some(&String::new()));
        // The same case bytes under another kind are another key; an answer is read back only
        // as the type it was stored as.
        let other = CacheKey::new(Kind::Sliding, 7u64.to_le_bytes());
        cache.insert(other.clone(), 6u32);
        assert_eq!(cache.get::<u32>(&other).as_deref(), Some(&6));
        let text = cache.metrics.render();
        assert!(
            text.contains(r#"solver_cache_hits_total{kind="fifteen"} 1"#),
            "{text}"
        );
        assert!(text.contains(r#"solver_cache_misses_total{kind="fifteen"} 1"#));
        assert!(text.contains(r#"solver_cache_hits_total{kind="sliding"} 1"#));
        assert!(text.contains(r#"solver_cache_misses_total{kind="sliding"} 0"#));
        assert!(text.contains("solver_cache_entries 2"));
        assert_consistent(&cache);
    }

    /// 3×3 answers come from a table and have no key: the cache never sees them, and their
    /// hit and miss counters stay at zero however the cache is used.
    #[test]
    fn eight_puzzle_answers_are_never_cached_or_counted() {
        let cache = cache(10);
        for n in 0..20 {
            cache.get::<()>(&key(n));
            cache.insert(key(n), ());
            cache.get::<()>(&key(n));
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
            cache.insert(key(n), ());
            assert!(cache.len() <= 5);
        }
        assert_eq!(cache.len(), 5);
        assert_consistent(&cache);
    }

    #[test]
    fn bound_holds_under_concurrent_inserts() {
        let cache = cache(64);
        std::thread::scope(|scope| {
            for t in 0..4u64 {
                let cache = &cache;
                scope.spawn(move || {
                    for n in 0..2000 {
                        cache.insert(key(t * 1_000_000 + n), ());
                        // `DashMap::len` reads the shards one by one, so under concurrent
                        // inserts only the entry counter, which bounds the entries, is exact.
                        assert!(cache.slots() <= 64);
                    }
                });
            }
        });
        assert_eq!(cache.len(), 64);
        assert_eq!(cache.slots(), 64);
        assert_consistent(&cache);
    }

    /// Threads inserting the same keys and hitting them at once, into caches down to a single
    /// slot: no slot is lost or shared, and the bound holds.
    #[test]
    fn concurrent_hits_and_duplicate_inserts_stay_consistent() {
        for capacity in [1, 3, 100] {
            let cache = cache(capacity);
            std::thread::scope(|scope| {
                for t in 0..4u64 {
                    let cache = &cache;
                    scope.spawn(move || {
                        for n in 0..5000 {
                            let key = key((n * (t + 1)) % 300);
                            if cache.get::<()>(&key).is_none() {
                                cache.insert(key.clone(), ());
                            }
                            assert!(cache.slots() <= capacity);
                        }
                    });
                }
            });
            assert!(cache.len() <= capacity);
            assert_consistent(&cache);
        }
    }

    #[test]
    fn disabled_cache_stores_nothing() {
        let cache = cache(0);
        let key = key(1);
        cache.insert(key.clone(), ());
        assert_eq!(cache.get::<()>(&key), None);
        assert_eq!(cache.len(), 0);
    }

    /// A key hit between inserts keeps its place through a flood of one-off answers.
    #[test]
    fn a_hot_entry_survives_a_flood_of_inserts() {
        let cache = cache(64);
        let hot = key(0);
        cache.insert(hot.clone(), ());
        for n in 1..=10_000 {
            cache.insert(key(n), ());
            assert!(cache.get::<()>(&hot).is_some(), "evicted after {n} inserts");
        }
        assert_eq!(cache.len(), 64);
        assert_consistent(&cache);
    }

    /// With the cache full, the entries hit since the last round are kept and the others go.
    #[test]
    fn eviction_takes_the_entries_not_hit() {
        let cache = cache(100);
        for n in 0..100 {
            cache.insert(key(n), ());
        }
        for n in (0..100).step_by(2) {
            assert!(cache.get::<()>(&key(n)).is_some());
        }
        for n in 100..150 {
            cache.insert(key(n), ());
        }
        for n in 0..100 {
            assert_eq!(cache.get::<()>(&key(n)).is_some(), n % 2 == 0, "key {n}");
        }
        for n in 100..150 {
            assert!(cache.get::<()>(&key(n)).is_some(), "key {n}");
        }
        assert_consistent(&cache);
    }

    #[test]
    fn a_slot_is_40_bytes() {
        assert_eq!(std::mem::size_of::<Slot>(), 40);
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
                    cache.insert(key.clone(), ());
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
                                        let key = keys[(state % key_count) as usize].clone();
                                        if cache.get::<()>(&key).is_some() {
                                            hits += 1;
                                        } else {
                                            cache.insert(key.clone(), ());
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
