//! The enumeration behind [`super::MovePruning`]: the minimal forbidden strings of a shape, found
//! level by level from every cell of the blank. A string is forbidden when an earlier string in
//! (length, move order) from the same cell leaves the same arrangement; the arrangements are
//! compared by sorting their hashes against sorted lists of those seen before, and each string
//! finds its suffix (without its first move) by index, so no large hash table is probed at random.

use std::hash::BuildHasher;

use foldhash::fast::FixedState;

use super::{CHUNK, EDGE, MAX_LONGEST};
use crate::tiles::moves::Move;

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
pub(super) fn forbidden_strings(
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

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::tiles::grid::Grid;

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
            let grid = Grid::new(rows, cols).unwrap();
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
}
