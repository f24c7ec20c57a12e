//! Move pruning by a finite-state machine of forbidden move sequences (Taylor & Korf, "Pruning
//! duplicate nodes in depth-first search", AAAI 1993), for boards of any shape.
//!
//! Depth-first search on a sliding puzzle reaches the same board along many paths. Some
//! sequences of blank moves can always be replaced by a shorter one (a move and its reverse: 2
//! moves by 0; the blank circling a 2×2 block seven times a quarter: 7 moves by 5) or by one of
//! the same length that comes first in the search's move order (six quarter turns one way or the
//! other round a 2×2 block). A path that contains such a sequence is never the answer: replacing
//! the sequence gives a path to the same board that is shorter, or as long and lexicographically
//! smaller. So the search may skip every path that contains one, and the smallest optimal answer
//! survives, whatever the target.
//!
//! The sequences are found once per shape, by a breadth-first enumeration of move strings from
//! every cell of the blank: a string is forbidden when an earlier string in (length, move order)
//! from the same cell leaves the board the same way (found by sorting the arrangements'
//! hashes, see `forbidden_strings`). The permutation a string makes does not
//! depend on the tiles, so one enumeration with distinct labels covers every board. Only minimal
//! strings (no forbidden proper substring) are kept, and an Aho–Corasick automaton over them
//! follows the search down the tree: one table lookup per move replaces the reverse-move and the
//! edge checks.
//!
//! Moves are named by the cell the blank leaves and its direction, because whether a string is
//! forbidden depends on the cells it crosses (the same directions elsewhere may run off the
//! board and have no replacement).

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use std::hash::BuildHasher;

use foldhash::fast::FixedState;

use super::grid::Grid;
use super::moves::Move;

/// The transition to [`BLOCKED`] means: the move is off the board or completes a forbidden
/// sequence.
pub const BLOCKED: u32 = u32::MAX;

/// No neighbour: the board ends there.
const EDGE: u8 = Grid::EDGE;

/// The longest forbidden strings looked for by default. Measured on Korf's 100 (`korf100
/// --move-pruning N`, one core): against pruning only reverse moves (N = 2), 12 moves cut the
/// nodes by 39 % and the time from 3.6 s to 2.3 s with 6-6-3, and by 23 % (0.30 s to 0.27 s) with
/// 7-8, for a 50 ms build and a 240 kB table. 14 moves save 2–6 % more nodes but no time, and
/// take a table 3.5 times as large.
pub const DEFAULT_LONGEST: usize = 12;
/// Longer searches for forbidden strings grow about fourfold per two moves (5×5: 2 s for 14
/// moves, 12 s for 16).
pub const MAX_LONGEST: usize = 16;

/// The longest forbidden strings for searches on `grid`: [`DEFAULT_LONGEST`] up to 24 cells, 14
/// on 5×5, shorter beyond, where every cell has more room around it and the enumeration grows
/// faster (release build, one core, the same hour: 12 moves take 72 ms on 4×4, 0.33 s on 5×5,
/// 0.51 s on 5×6, 0.79 s on 6×6 and 3.1 s on 8×8; 10 moves 94 ms on 6×6; 8 moves 43 ms on 8×8).
/// On 5×5 the 24-puzzle's searches run long enough to repay a longer build: with the 6-6-6-6
/// databases and zero-aware bits (`korf24 --optimal --move-pruning N`), 14 moves against 12 cut
/// the nodes by 9–11 % and the time by about 10 % (Korf & Felner's #37, #30 and #44 on two
/// threads: 1.27e9 against 1.42e9 nodes, 39.8 and 38.4 s against 44.8 and 42.2 s, interleaved
/// runs), for a build of about 2 s (4.2 MB, 260,322 states). 16 moves cut the nodes by a further
/// 8 % (#25, #32, #44 on two threads: 4.17e8 against 4.53e8) but the larger table (19.7 MB)
/// slows each node, for about 4 % less time (14.9 and 16.3 s against 15.8 and 16.8 s,
/// interleaved), which does not repay a 12 s build before a server reports SERVING.
#[must_use]
pub fn longest_for(grid: Grid) -> usize {
    match grid.cells() {
        ..=24 => DEFAULT_LONGEST,
        25 => 14,
        26..=36 => 10,
        _ => 8,
    }
}

/// The automaton. State `c` for `c` in `0..cells` is "no history, blank on cell `c`" (the root
/// of a search); every state knows the blank's cell.
#[derive(Debug)]
pub struct MovePruning {
    /// The shape it prunes moves on.
    grid: Grid,
    /// The search's move order, smallest first.
    order: [Move; 4],
    /// `next[state * 4 + move]` (moves in [`Move::ALL`] order): the state after the move, or
    /// [`BLOCKED`].
    next: Vec<u32>,
}

/// Built automata by shape, move order and longest string, for a solver to own and share
/// between its searches: each is built on first use (about 50 ms for the 15-puzzle's default)
/// and kept as long as its owner.
#[derive(Debug, Default)]
pub struct PruningTables {
    built: Mutex<Built>,
}

/// What identifies an automaton: the shape, the move order and the longest string.
type Key = (Grid, [Move; 4], usize);

/// The automata built so far.
type Built = HashMap<Key, Arc<MovePruning>>;

impl PruningTables {
    /// No automaton built yet.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The automaton for `grid`, `order` and `longest`, built now if it is missing.
    pub fn get(&self, grid: Grid, order: [Move; 4], longest: usize) -> Arc<MovePruning> {
        self.get_yielding(grid, order, longest, &mut || {})
    }

    /// [`get`](Self::get), a build calling `checkpoint` as
    /// [`MovePruning::build_yielding`] does.
    pub fn get_yielding(
        &self,
        grid: Grid,
        order: [Move; 4],
        longest: usize,
        checkpoint: &mut dyn FnMut(),
    ) -> Arc<MovePruning> {
        let key = (grid, order, longest.min(MAX_LONGEST));
        if let Some(built) = self.lock().get(&key) {
            return Arc::clone(built);
        }
        // Built outside the lock, so searches on other shapes or orders need not wait for this
        // one; two racing builds give the same automaton and the first one stored is kept.
        let built = Arc::new(MovePruning::build_yielding(
            grid, order, longest, checkpoint,
        ));
        Arc::clone(self.lock().entry(key).or_insert(built))
    }

    /// Whether [`get`](Self::get) would answer without building.
    #[must_use]
    pub fn is_built(&self, grid: Grid, order: [Move; 4], longest: usize) -> bool {
        self.lock()
            .contains_key(&(grid, order, longest.min(MAX_LONGEST)))
    }

    fn lock(&self) -> MutexGuard<'_, Built> {
        self.built.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Where the labels are after a string of moves, exactly and in a few bytes whatever the board's
/// size: the blank's cell and the tiles off their own cell (`cell << 8 | label`, sorted, zero
/// past `len`). Labels start as the cell indices; a string of `n` moves displaces at most `n`
/// tiles.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Arrangement {
    blank: u8,
    len: u8,
    displaced: [u16; MAX_LONGEST],
}

impl Arrangement {
    /// Nothing moved, the blank on `cell`.
    fn untouched(cell: u8) -> Self {
        Self {
            blank: cell,
            len: 0,
            displaced: [0; MAX_LONGEST],
        }
    }

    /// The arrangement after the blank moves to `to`: the tile there moves to the blank's cell.
    fn slide(mut self, to: u8) -> Self {
        let from = self.blank;
        let len = usize::from(self.len);
        let label = match self.displaced[..len]
            .iter()
            .position(|&entry| (entry >> 8) as u8 == to)
        {
            Some(i) => {
                let label = self.displaced[i] as u8;
                self.displaced.copy_within(i + 1..len, i);
                self.displaced[len - 1] = 0;
                self.len -= 1;
                label
            }
            None => to,
        };
        if label != from {
            let len = usize::from(self.len);
            let entry = u16::from(from) << 8 | u16::from(label);
            let at = self.displaced[..len].partition_point(|&e| e < entry);
            self.displaced.copy_within(at..len, at + 1);
            self.displaced[at] = entry;
            self.len += 1;
        }
        self.blank = to;
        self
    }
}

/// A move string during the enumeration: the blank's start cell, its moves packed two bits each
/// as ranks in the search order (first move most significant, so numeric order is the search's
/// order within a length), the arrangement it leaves, and where the same string without its
/// first move is in the previous level (for one move: the empty string from the cell it leads
/// to, which is that cell's index in level 0).
#[derive(Debug, Clone, Copy)]
struct Walk {
    start: u8,
    code: u64,
    arrangement: Arrangement,
    suffix: u32,
}

/// A string of the next level before it is known to be allowed: its parent in the current level
/// and its last move's rank, where its suffix (without the first move) is in the current level,
/// and its code and arrangement.
#[derive(Debug, Clone, Copy)]
struct Candidate {
    parent: u32,
    rank: u8,
    suffix: u32,
    code: u64,
    arrangement: Arrangement,
}

/// No string there: a child index for a move that leaves the board or a string not allowed.
const NONE: u32 = u32::MAX;

/// The arrangements already reached from one start cell, as `(hash, length << 56 | code)` of the
/// first string reaching each, sorted: one list per parity of the length (strings of the other
/// parity leave the blank on the other colour of the board's chessboard pattern, so never the
/// same arrangement).
type Seen = [Vec<(u64, u64)>; 2];

impl MovePruning {
    /// The automaton for searches on `grid` that try moves in `order` (smallest first),
    /// forbidding the duplicate strings of up to `max_len` moves (at most [`MAX_LONGEST`]; 2
    /// forbids only a move's reverse, less only the board's edges).
    #[must_use]
    pub fn build(grid: Grid, order: [Move; 4], max_len: usize) -> Self {
        Self::build_yielding(grid, order, max_len, &mut || {})
    }

    /// [`build`](Self::build), calling `checkpoint` between chunks of work, where a paced build
    /// thread gives its CPU share back to others that wait: the 24-puzzle's automaton takes
    /// about 2 s in one go. Most chunks take well under a millisecond; the longest gaps come
    /// where a level's memory is freed (measured: 0.3 ms on 4×4 and 8×8, 23 ms on 5×5 with 14
    /// moves, against 150 ms before the enumeration sorted).
    pub fn build_yielding(
        grid: Grid,
        order: [Move; 4],
        max_len: usize,
        checkpoint: &mut dyn FnMut(),
    ) -> Self {
        let max_len = max_len.min(MAX_LONGEST);
        let neighbours = &grid.neighbour_table()[..grid.cells()];
        let strings = forbidden_strings(neighbours, order, max_len, checkpoint);
        let next = automaton(neighbours, &strings, checkpoint);
        Self { grid, order, next }
    }

    /// How many states the automaton has (each a row of four `u32`s).
    #[must_use]
    pub fn states(&self) -> usize {
        self.next.len() / 4
    }

    /// The shape the automaton was built for.
    #[must_use]
    pub fn grid(&self) -> Grid {
        self.grid
    }

    /// The move order the automaton was built for, smallest first.
    #[must_use]
    pub fn order(&self) -> [Move; 4] {
        self.order
    }

    /// The state of a search starting with the blank on `cell`.
    #[must_use]
    pub fn start(cell: usize) -> u32 {
        cell as u32
    }

    /// The state after `mv` from `state`, or [`BLOCKED`].
    #[inline]
    #[must_use]
    pub fn next(&self, state: u32, mv: Move) -> u32 {
        self.next[state as usize * 4 + mv.index()]
    }

    /// Asks the memory for `state`'s row, read when a search enters a node in that state.
    #[inline]
    pub(crate) fn prefetch(&self, state: u32) {
        crate::prefetch::prefetch(self.next.as_ptr().wrapping_add(state as usize * 4));
    }
}

/// Steps of a build between two checkpoints.
const CHUNK: usize = 256;

/// The minimal forbidden strings, as (start cell, moves), in (length, start cell, move order).
///
/// Level by level, each allowed string of the last level is extended by each move. A new string
/// whose suffix (without its first move) is not allowed holds a shorter forbidden string and is
/// dropped; otherwise it is allowed when no string before it in (length, move order) from the
/// same cell left the same arrangement, and is a minimal forbidden string when one did. The
/// suffixes are followed by index (each string knows its suffix's place in the level before),
/// and the arrangements are compared by sorting their hashes, cell by cell, against sorted lists
/// of those seen before: no large hash table is probed at random, which on the 24-puzzle's
/// board made the build 3 to 7 times faster (5×5: 2.1 s against 8.8 s for 14 moves, 11.9 s
/// against 63.5 s for 16; 8×8, 12 moves: 3.1 s against 20.9 s; the same hour, one core).
fn forbidden_strings(
    neighbours: &[[u8; 4]],
    order: [Move; 4],
    max_len: usize,
    checkpoint: &mut dyn FnMut(),
) -> Vec<(u8, Vec<Move>)> {
    let rank_to_move = order.map(Move::index);
    let cells = neighbours.len();
    let hasher = FixedState::with_seed(0x5eed);
    // Level 0: the empty string from each cell.
    let mut level: Vec<Walk> = (0..cells as u8)
        .map(|cell| Walk {
            start: cell,
            code: 0,
            arrangement: Arrangement::untouched(cell),
            suffix: NONE,
        })
        .collect();
    let mut seen: Vec<Seen> = level
        .iter()
        .map(|walk| [vec![(hasher.hash_one(walk.arrangement), 0)], Vec::new()])
        .collect();
    // For each string of the level before `level`, where its children are in `level`.
    let mut children_before: Vec<[u32; 4]> = Vec::new();
    let mut forbidden = Vec::new();
    let mut candidates = Vec::new();
    for len in 1..=max_len {
        // Room for every string a level can hold (three moves on from each string: the reverse
        // is always forbidden), reserved up front and filled in chunks, so that no single step
        // copies or clears a large vector; pages never written are never touched.
        let mut next_level = Vec::with_capacity(level.len() * 3);
        let mut children = Vec::with_capacity(level.len());
        while children.len() < level.len() {
            checkpoint();
            let chunk = (level.len() - children.len()).min(SORT_CHUNK);
            children.extend(std::iter::repeat_n([NONE; 4], chunk));
        }
        let mut first = 0;
        while first < level.len() {
            let start = level[first].start;
            let end = first + level[first..].partition_point(|w| w.start == start);
            candidates.clear();
            for (i, walk) in level.iter().enumerate().take(end).skip(first) {
                if i.is_multiple_of(CHUNK) {
                    checkpoint();
                }
                for (rank, &m) in rank_to_move.iter().enumerate() {
                    let to = neighbours[usize::from(walk.arrangement.blank)][m];
                    if to == EDGE {
                        continue;
                    }
                    // The string without its first move must itself be allowed, or this one
                    // holds a shorter forbidden string and adds nothing.
                    let suffix = if len == 1 {
                        u32::from(to)
                    } else {
                        children_before[walk.suffix as usize][rank]
                    };
                    if suffix == NONE {
                        continue;
                    }
                    candidates.push(Candidate {
                        parent: i as u32,
                        rank: rank as u8,
                        suffix,
                        code: (walk.code << 2) | rank as u64,
                        arrangement: walk.arrangement.slide(to),
                    });
                }
            }
            let cell_seen = &mut seen[usize::from(start)][len % 2];
            let allowed = first_reaching(&candidates, cell_seen, &hasher, checkpoint, |packed| {
                replay(neighbours, &rank_to_move, start, packed)
            });
            let mut added = Vec::new();
            // The last level's allowed strings are not extended: only its forbidden ones count.
            let last = len == max_len;
            for (i, candidate) in candidates.iter().enumerate() {
                if i.is_multiple_of(SORT_CHUNK) {
                    checkpoint();
                }
                if allowed[i / 64] >> (i % 64) & 1 == 1 {
                    if last {
                        continue;
                    }
                    let hash = hasher.hash_one(candidate.arrangement);
                    children[candidate.parent as usize][usize::from(candidate.rank)] =
                        next_level.len() as u32;
                    added.push((hash, (len as u64) << 56 | candidate.code));
                    next_level.push(Walk {
                        start,
                        code: candidate.code,
                        arrangement: candidate.arrangement,
                        suffix: candidate.suffix,
                    });
                } else {
                    let moves = (0..len)
                        .map(|i| {
                            let rank = (candidate.code >> (2 * (len - 1 - i))) & 3;
                            Move::ALL[rank_to_move[rank as usize]]
                        })
                        .collect();
                    forbidden.push((start, moves));
                }
            }
            if !last {
                sort_yielding(&mut added, |a| a.0, checkpoint);
                *cell_seen = merge_yielding(std::mem::take(cell_seen), added, checkpoint);
            }
            first = end;
        }
        level = next_level;
        children_before = children;
    }
    forbidden
}

/// Elements hashed, sorted or merged between two checkpoints.
const SORT_CHUNK: usize = 1 << 12;

/// For each of one cell's `candidates` (in move order), whether it is the first to reach its
/// arrangement (not in `seen`, and no earlier candidate reaches it), as bits. `replay` gives
/// the arrangement of a string in `seen`. The arrangements are sorted with their hashes, so the
/// comparisons read memory in order.
fn first_reaching(
    candidates: &[Candidate],
    seen: &[(u64, u64)],
    hasher: &FixedState,
    checkpoint: &mut dyn FnMut(),
    replay: impl Fn(u64) -> Arrangement,
) -> Vec<u64> {
    let mut keys: Vec<(u64, u32, Arrangement)> = Vec::with_capacity(candidates.len());
    for (i, c) in candidates.iter().enumerate() {
        if i.is_multiple_of(SORT_CHUNK) {
            checkpoint();
        }
        keys.push((hasher.hash_one(c.arrangement), i as u32, c.arrangement));
    }
    sort_yielding(&mut keys, |k| k.0, checkpoint);
    let mut first = vec![0u64; candidates.len().div_ceil(64)];
    let mut at = 0; // in `seen`, sorted by hash as `keys` is
    let mut group = 0;
    while group < keys.len() {
        if group.is_multiple_of(SORT_CHUNK) {
            checkpoint();
        }
        let hash = keys[group].0;
        let mut end = group + 1;
        while end < keys.len() && keys[end].0 == hash {
            end += 1;
        }
        while at < seen.len() && seen[at].0 < hash {
            at += 1;
        }
        let earlier: Vec<Arrangement> = seen[at..]
            .iter()
            .take_while(|s| s.0 == hash)
            .map(|s| replay(s.1))
            .collect();
        // Within the group (almost always one candidate) the keys are in move order.
        for k in group..end {
            let (_, i, arrangement) = &keys[k];
            if !earlier.contains(arrangement) && !keys[group..k].iter().any(|e| e.2 == *arrangement)
            {
                first[*i as usize / 64] |= 1 << (i % 64);
            }
        }
        group = end;
    }
    first
}

/// The arrangement the string `packed` (`length << 56 | code`) leaves from `start`.
fn replay(
    neighbours: &[[u8; 4]],
    rank_to_move: &[usize; 4],
    start: u8,
    packed: u64,
) -> Arrangement {
    let len = (packed >> 56) as usize;
    (0..len).fold(Arrangement::untouched(start), |arrangement, i| {
        let rank = (packed >> (2 * (len - 1 - i))) & 3;
        let m = rank_to_move[rank as usize];
        arrangement.slide(neighbours[usize::from(arrangement.blank)][m])
    })
}

/// Sorts `keys` (each led by the uniform hash `hash` gives), calling `checkpoint` between pieces
/// of work: partitioned by the hashes' top bits into buckets of a few thousand, each then sorted
/// alone.
fn sort_yielding<T: Ord + Copy + Default>(
    keys: &mut Vec<T>,
    hash: impl Fn(&T) -> u64,
    checkpoint: &mut dyn FnMut(),
) {
    if keys.len() <= SORT_CHUNK {
        keys.sort_unstable();
        return;
    }
    let bits = (keys.len() / SORT_CHUNK)
        .next_power_of_two()
        .trailing_zeros()
        + 1;
    let bucket = |key: &T| (hash(key) >> (64 - bits)) as usize;
    let mut counts = vec![0usize; 1 << bits];
    for (i, key) in keys.iter().enumerate() {
        if i.is_multiple_of(SORT_CHUNK) {
            checkpoint();
        }
        counts[bucket(key)] += 1;
    }
    let mut offsets: Vec<usize> = counts
        .iter()
        .scan(0, |sum, &count| {
            let offset = *sum;
            *sum += count;
            Some(offset)
        })
        .collect();
    let mut sorted = vec![T::default(); keys.len()];
    for (i, key) in keys.iter().enumerate() {
        if i.is_multiple_of(SORT_CHUNK) {
            checkpoint();
        }
        let slot = &mut offsets[bucket(key)];
        sorted[*slot] = *key;
        *slot += 1;
    }
    let mut from = 0;
    for count in counts {
        checkpoint();
        sorted[from..from + count].sort_unstable();
        from += count;
    }
    *keys = sorted;
}

/// The sorted union of two sorted lists, calling `checkpoint` every few thousand elements.
fn merge_yielding(
    a: Vec<(u64, u64)>,
    b: Vec<(u64, u64)>,
    checkpoint: &mut dyn FnMut(),
) -> Vec<(u64, u64)> {
    let mut merged = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if merged.len().is_multiple_of(SORT_CHUNK) {
            checkpoint();
        }
        if j == b.len() || (i < a.len() && a[i] <= b[j]) {
            merged.push(a[i]);
            i += 1;
        } else {
            merged.push(b[j]);
            j += 1;
        }
    }
    merged
}

/// The Aho–Corasick automaton of `patterns`, as a transition table.
fn automaton(
    neighbours: &[[u8; 4]],
    patterns: &[(u8, Vec<Move>)],
    checkpoint: &mut dyn FnMut(),
) -> Vec<u32> {
    let cells = neighbours.len();
    // The trie: one root per cell; `children[node][move]`, 0 = none (no node has a root as its
    // child). A pattern's last move leads to `BLOCKED` instead of a node: patterns are minimal,
    // so no pattern continues past another.
    let mut children: Vec<[u32; 4]> = vec![[0; 4]; cells];
    let mut cell_of: Vec<u8> = (0..cells as u8).collect();
    for (i, (start, moves)) in patterns.iter().enumerate() {
        if i.is_multiple_of(CHUNK) {
            checkpoint();
        }
        let mut node = u32::from(*start);
        for (i, &m) in moves.iter().enumerate() {
            let slot = &mut children[node as usize][m.index()];
            if i + 1 == moves.len() {
                *slot = BLOCKED;
                break;
            }
            if *slot == 0 {
                *slot = cell_of.len() as u32;
                let to = neighbours[usize::from(cell_of[node as usize])][m.index()];
                children.push([0; 4]);
                cell_of.push(to);
            }
            node = children[node as usize][m.index()];
        }
    }
    // Breadth-first over the trie, filling the missing transitions from the failure links.
    let mut next = vec![BLOCKED; children.len() * 4];
    let mut fail = vec![0u32; children.len()];
    let mut queue = VecDeque::new();
    for root in 0..cells {
        for m in Move::ALL {
            let to = neighbours[root][m.index()];
            if to == EDGE {
                continue;
            }
            let child = children[root][m.index()];
            next[root * 4 + m.index()] = match child {
                0 => u32::from(to),
                BLOCKED => BLOCKED,
                child => {
                    fail[child as usize] = u32::from(to);
                    queue.push_back(child);
                    child
                }
            };
        }
    }
    while let Some(node) = queue.pop_front() {
        if (node as usize).is_multiple_of(CHUNK) {
            checkpoint();
        }
        let cell = cell_of[node as usize];
        for m in Move::ALL {
            if neighbours[usize::from(cell)][m.index()] == EDGE {
                continue;
            }
            let via_fail = next[fail[node as usize] as usize * 4 + m.index()];
            let child = children[node as usize][m.index()];
            next[node as usize * 4 + m.index()] = match child {
                0 => via_fail,
                BLOCKED => BLOCKED,
                child => {
                    // A forbidden suffix blocks here too, though the trie goes on.
                    fail[child as usize] = via_fail;
                    queue.push_back(child);
                    if via_fail == BLOCKED { BLOCKED } else { child }
                }
            };
        }
    }
    next
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    fn grid(rows: usize, cols: usize) -> Grid {
        Grid::new(rows, cols).unwrap()
    }

    /// Every order of the four moves.
    fn orders() -> Vec<[Move; 4]> {
        let mut orders = Vec::new();
        for a in Move::ALL {
            for b in Move::ALL {
                for c in Move::ALL {
                    for d in Move::ALL {
                        let order = [a, b, c, d];
                        if (0..4).all(|i| !order[..i].contains(&order[i])) {
                            orders.push(order);
                        }
                    }
                }
            }
        }
        orders
    }

    /// Breadth-first search on `grid` from the blank on `cell`, trying moves in `order`, with
    /// whole boards as states (independent of the compact arrangements above): the first path
    /// to reach each board is its shortest path that comes first in `order`. Returns those
    /// paths by length, up to `depth`.
    fn first_paths(
        grid: Grid,
        cell: usize,
        order: [Move; 4],
        depth: usize,
    ) -> Vec<HashSet<Vec<Move>>> {
        let identity: Vec<u8> = (0..grid.cells() as u8).collect();
        let mut seen = HashSet::from([identity.clone()]);
        let mut level = vec![(identity, cell, Vec::new())];
        let mut by_length = vec![HashSet::from([Vec::new()])];
        for _ in 0..depth {
            let mut next = Vec::new();
            for (board, blank, path) in &level {
                for m in order {
                    let Some(to) = grid.neighbour(*blank, m) else {
                        continue;
                    };
                    let mut child = board.clone();
                    child.swap(*blank, to);
                    if seen.insert(child.clone()) {
                        let mut path = path.clone();
                        path.push(m);
                        next.push((child, to, path));
                    }
                }
            }
            by_length.push(next.iter().map(|(_, _, p)| p.clone()).collect());
            level = next;
        }
        by_length
    }

    /// The paths the automaton lets through from `cell`, by length, up to `depth`.
    fn allowed_paths(pruning: &MovePruning, cell: usize, depth: usize) -> Vec<HashSet<Vec<Move>>> {
        fn walk(
            p: &MovePruning,
            state: u32,
            path: &mut Vec<Move>,
            depth: usize,
            out: &mut Vec<HashSet<Vec<Move>>>,
        ) {
            out[path.len()].insert(path.clone());
            if path.len() == depth {
                return;
            }
            for m in Move::ALL {
                let next = p.next(state, m);
                if next != BLOCKED {
                    path.push(m);
                    walk(p, next, path, depth, out);
                    path.pop();
                }
            }
        }
        let mut out = vec![HashSet::new(); depth + 1];
        walk(
            pruning,
            MovePruning::start(cell),
            &mut Vec::new(),
            depth,
            &mut out,
        );
        out
    }

    /// Up to the longest forbidden strings, the automaton lets exactly one path through to each
    /// board: its shortest one that comes first in the move order. Checked for every order and
    /// every cell of the blank on the 15-puzzle, and for the search's order and its reverse on
    /// narrow, odd, oblong and wide boards.
    #[test]
    fn allowed_paths_are_the_first_shortest_ones() {
        let check = |grid: Grid, order: [Move; 4], longest: usize| {
            let pruning = MovePruning::build(grid, order, longest);
            assert_eq!((pruning.grid(), pruning.order()), (grid, order));
            for cell in 0..grid.cells() {
                assert_eq!(
                    allowed_paths(&pruning, cell, longest),
                    first_paths(grid, cell, order, longest),
                    "{grid}, order {order:?}, blank on {cell}"
                );
            }
        };
        for order in orders() {
            check(grid(4, 4), order, 9);
        }
        let mut reversed = Move::ALL;
        reversed.reverse();
        for (rows, cols, longest) in [(2, 2, 8), (2, 3, 10), (3, 3, 10), (2, 6, 9), (4, 3, 9)] {
            for order in [Move::ALL, reversed] {
                check(grid(rows, cols), order, longest);
            }
        }
        check(grid(5, 5), Move::ALL, 8);
        check(grid(3, 8), reversed, 8);
    }

    /// From the goal's blank cell, the boards at each distance are known (OEIS A089473: 1, 2,
    /// 4, 10, 24, 54, 107, 212, 446, 946, 1948, 3938, 7808); the default automaton lets exactly
    /// that many paths through.
    #[test]
    fn default_automaton_counts_the_boards_at_each_distance() {
        let pruning = MovePruning::build(grid(4, 4), Move::ALL, DEFAULT_LONGEST);
        let counts: Vec<usize> = allowed_paths(&pruning, 15, DEFAULT_LONGEST)
            .iter()
            .map(HashSet::len)
            .collect();
        assert_eq!(
            counts,
            [1, 2, 4, 10, 24, 54, 107, 212, 446, 946, 1948, 3938, 7808]
        );
    }

    /// Longer forbidden strings add states (what [`MovePruning::states`] reports as the
    /// automaton's size).
    #[test]
    fn longer_strings_take_more_states() {
        let sizes: Vec<usize> = [2, 6, 8, 10]
            .iter()
            .map(|&longest| MovePruning::build(grid(4, 4), Move::ALL, longest).states())
            .collect();
        assert!(sizes.windows(2).all(|w| w[0] < w[1]), "{sizes:?}");
    }

    /// Without forbidden strings nothing but the board's edges is blocked.
    #[test]
    fn no_pruning_blocks_only_the_edges() {
        for (rows, cols) in [(2, 2), (3, 5), (4, 4), (8, 8)] {
            let grid = grid(rows, cols);
            let pruning = MovePruning::build(grid, Move::ALL, 0);
            assert_eq!(pruning.states(), grid.cells(), "only the roots, on {grid}");
            for cell in 0..grid.cells() {
                for m in Move::ALL {
                    let blocked = pruning.next(MovePruning::start(cell), m) == BLOCKED;
                    assert_eq!(blocked, grid.neighbour(cell, m).is_none());
                }
            }
        }
    }

    /// The tables build each automaton once and tell which they hold.
    #[test]
    fn tables_build_once() {
        let tables = PruningTables::new();
        let g = grid(2, 3);
        assert!(!tables.is_built(g, Move::ALL, 6));
        let first = tables.get(g, Move::ALL, 6);
        assert!(tables.is_built(g, Move::ALL, 6));
        assert!(Arc::ptr_eq(&first, &tables.get(g, Move::ALL, 6)));
        assert!(!tables.is_built(grid(3, 2), Move::ALL, 6));
    }

    /// The strings the enumeration forbids, found again the plain way: every string's
    /// arrangement looked up in a hash set of all those seen from its cell.
    fn forbidden_by_hashing(grid: Grid, order: [Move; 4], max_len: usize) -> Vec<(u8, Vec<Move>)> {
        let neighbours = &grid.neighbour_table()[..grid.cells()];
        let mut level: Vec<(u8, Vec<Move>, Arrangement)> = (0..grid.cells() as u8)
            .map(|cell| (cell, Vec::new(), Arrangement::untouched(cell)))
            .collect();
        let mut seen: Vec<HashSet<Arrangement>> =
            level.iter().map(|(_, _, a)| HashSet::from([*a])).collect();
        let mut alive: HashSet<(u8, Vec<Move>)> =
            level.iter().map(|(c, m, _)| (*c, m.clone())).collect();
        let mut forbidden = Vec::new();
        for _ in 1..=max_len {
            let mut next = Vec::new();
            let mut next_alive = HashSet::new();
            for (start, moves, arrangement) in &level {
                for m in order {
                    let to = neighbours[usize::from(arrangement.blank)][m.index()];
                    if to == EDGE {
                        continue;
                    }
                    let mut string = moves.clone();
                    string.push(m);
                    if let Some(&first) = string.first() {
                        let second = neighbours[usize::from(*start)][first.index()];
                        if string.len() > 1 && !alive.contains(&(second, string[1..].to_vec())) {
                            continue;
                        }
                    }
                    let arrangement = arrangement.slide(to);
                    if seen[usize::from(*start)].insert(arrangement) {
                        next_alive.insert((*start, string.clone()));
                        next.push((*start, string, arrangement));
                    } else {
                        forbidden.push((*start, string));
                    }
                }
            }
            level = next;
            alive = next_alive;
        }
        forbidden
    }

    /// The sorting enumeration forbids exactly the strings the plain one does, in the same
    /// order, on several shapes and orders (the 24-puzzle's board among them).
    #[test]
    fn the_sorted_enumeration_matches_plain_hashing() {
        let mut reversed = Move::ALL;
        reversed.reverse();
        for (rows, cols, order, longest) in [
            (4, 4, Move::ALL, 10),
            (5, 5, Move::ALL, 9),
            (3, 5, reversed, 10),
            (2, 2, Move::ALL, 12),
        ] {
            let grid = grid(rows, cols);
            let neighbours = &grid.neighbour_table()[..grid.cells()];
            assert_eq!(
                forbidden_strings(neighbours, order, longest, &mut || {}),
                forbidden_by_hashing(grid, order, longest),
                "{grid}, order {order:?}, up to {longest} moves"
            );
        }
    }

    /// Sorting in buckets gives the order a plain sort does.
    #[test]
    fn a_yielding_sort_sorts() {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        for len in [0, 1, SORT_CHUNK, SORT_CHUNK + 1, 5 * SORT_CHUNK + 17] {
            let mut keys: Vec<(u64, u32, u8)> = (0..len as u32)
                .map(|i| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    // Some equal hashes too.
                    (if i % 7 == 0 { 42 } else { state }, i, i as u8)
                })
                .collect();
            let mut expected = keys.clone();
            expected.sort_unstable();
            let mut checkpoints = 0;
            sort_yielding(&mut keys, |k| k.0, &mut || checkpoints += 1);
            assert_eq!(keys, expected);
            assert!(
                checkpoints >= len.saturating_sub(1) / SORT_CHUNK,
                "{checkpoints}"
            );
        }
    }

    /// A paced build gives the CPU back often: a checkpoint at least every `CHUNK` steps, and
    /// the same automaton as the build in one go.
    #[test]
    fn a_yielding_build_checkpoints_often_and_builds_the_same_automaton() {
        let g = grid(4, 4);
        let mut checkpoints = 0;
        let yielding = MovePruning::build_yielding(g, Move::ALL, DEFAULT_LONGEST, &mut || {
            checkpoints += 1;
        });
        let whole = MovePruning::build(g, Move::ALL, DEFAULT_LONGEST);
        assert_eq!(yielding.next, whole.next);
        // Each state of the automaton was one step of its breadth-first pass.
        assert!(checkpoints >= whole.states() / CHUNK, "{checkpoints}");
        assert!(checkpoints > 10, "{checkpoints}");
    }
}
