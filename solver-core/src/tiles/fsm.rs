//! Move pruning by a finite-state machine of forbidden move sequences (Taylor & Korf, "Pruning
//! duplicate nodes in depth-first search", AAAI 1993).
//!
//! Depth-first search on the 15-puzzle reaches the same board along many paths. Some sequences of
//! blank moves can always be replaced by a shorter one (a move and its reverse: 2 moves by 0; the
//! blank circling a 2×2 block seven times a quarter: 7 moves by 5) or by one of the same length
//! that comes first in the search's move order (six quarter turns one way or the other round a
//! 2×2 block). A path that contains such a sequence is never the answer: replacing the sequence
//! gives a path to the same board that is shorter, or as long and lexicographically smaller.
//! So the search may skip every path that contains one, and the smallest optimal answer survives.
//!
//! The sequences are found once, by a breadth-first enumeration of move strings from every cell
//! of the blank: a string is forbidden when an earlier string in (length, move order) from the
//! same cell leaves the board the same way. The permutation a string makes does not depend on
//! the tiles, so one enumeration with distinct labels covers every board. Only minimal strings
//! (no forbidden proper substring) are kept, and an Aho–Corasick automaton over them follows the
//! search down the tree: one table lookup per move replaces the reverse-move and the edge checks.
//!
//! Moves are named by the cell the blank leaves and its direction, because whether a string is
//! forbidden depends on the cells it crosses (the same directions elsewhere may run off the
//! board and have no replacement).

use std::collections::{HashMap, VecDeque};

use foldhash::{HashSet, HashSetExt};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::board::Move;
use super::neighbours::{NO_NEIGHBOUR, neighbour_table};

/// The transition to [`BLOCKED`] means: the move is off the board or completes a forbidden
/// sequence.
pub(crate) const BLOCKED: u32 = u32::MAX;

const NEIGHBOURS: [[u8; 4]; 16] = neighbour_table(4);

/// The longest forbidden strings looked for by default. Measured on Korf's 100 (`korf100
/// --move-pruning N`, one core): against pruning only reverse moves (N = 2), 12 moves cut the
/// nodes by 39 % and the time from 3.6 s to 2.3 s with 6-6-3, and by 23 % (0.30 s to 0.27 s) with
/// 7-8, for a 50 ms build and a 240 kB table. 14 moves save 2–6 % more nodes but no time, and
/// take 0.27 s to build and a table 3.5 times as large.
pub(crate) const DEFAULT_LONGEST: usize = 12;
/// Longer searches for forbidden strings grow fourfold per two moves: 16 already takes seconds.
pub(crate) const MAX_LONGEST: usize = 16;

/// The automaton. State `c` for `c` in `0..16` is "no history, blank on cell `c`" (the root of
/// a search); every state knows the blank's cell.
#[derive(Debug)]
pub(crate) struct MovePruning {
    /// The search's move order, smallest first.
    order: [Move; 4],
    /// `next[state * 4 + move]` (moves in [`Move::ALL`] order): the state after the move, or
    /// [`BLOCKED`].
    next: Vec<u32>,
}

/// Built automata by move order and longest string, for a solver to own and share between its
/// searches: each is built on first use (about 50 ms for the default) and kept as long as its
/// owner.
#[derive(Debug, Default)]
pub(crate) struct PruningTables {
    built: Mutex<Built>,
}

/// The automata built so far, by move order and longest string.
type Built = HashMap<([Move; 4], usize), Arc<MovePruning>>;

impl PruningTables {
    /// The automaton for `order` and `longest`, built now if it is missing.
    pub(crate) fn get(&self, order: [Move; 4], longest: usize) -> Arc<MovePruning> {
        if let Some(built) = self.lock().get(&(order, longest)) {
            return Arc::clone(built);
        }
        // Built outside the lock, so searches with other orders need not wait for this one; two
        // racing builds give the same automaton and the first one stored is kept.
        let built = Arc::new(MovePruning::build(order, longest));
        Arc::clone(self.lock().entry((order, longest)).or_insert(built))
    }

    /// Whether [`get`](Self::get) would answer without building.
    pub(crate) fn is_built(&self, order: [Move; 4], longest: usize) -> bool {
        self.lock().contains_key(&(order, longest))
    }

    fn lock(&self) -> MutexGuard<'_, Built> {
        self.built.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A move string during the enumeration: the blank's start cell, its moves packed two bits each
/// as ranks in the search order (first move most significant, so numeric order is the search's
/// order within a length), where the blank is now, and the arrangement it leaves (cell `i`
/// holds the label in nibble `i`; labels start as the cell indices).
#[derive(Debug, Clone, Copy)]
struct Walk {
    start: u8,
    code: u64,
    blank: u8,
    arrangement: u64,
}

impl MovePruning {
    /// The automaton for searches that try moves in `order` (smallest first), forbidding the
    /// duplicate strings of up to `max_len` moves.
    pub(crate) fn build(order: [Move; 4], max_len: usize) -> Self {
        let max_len = max_len.min(MAX_LONGEST);
        let next = Self::automaton(&Self::forbidden_strings(order, max_len));
        Self { order, next }
    }

    /// The move order the automaton was built for, smallest first.
    pub(crate) fn order(&self) -> [Move; 4] {
        self.order
    }

    /// The state of a search starting with the blank on `cell`.
    pub(crate) fn start(cell: u8) -> u32 {
        u32::from(cell)
    }

    /// The state after `mv` from `state`, or [`BLOCKED`].
    #[inline]
    pub(crate) fn next(&self, state: u32, mv: Move) -> u32 {
        self.next[state as usize * 4 + mv.index()]
    }

    /// The minimal forbidden strings, as (start cell, moves).
    fn forbidden_strings(order: [Move; 4], max_len: usize) -> Vec<(u8, Vec<Move>)> {
        let mut rank_to_move = [0usize; 4];
        for (rank, m) in order.iter().enumerate() {
            rank_to_move[rank] = m.index();
        }
        let identity: u64 = (0..16).map(|c| (c as u64) << (4 * c)).sum();
        // Level 0: the empty string from each cell.
        let mut level: Vec<Walk> = (0..16u8)
            .map(|cell| Walk {
                start: cell,
                code: 0,
                blank: cell,
                arrangement: identity,
            })
            .collect();
        let mut seen: Vec<HashSet<u64>> = (0..16)
            .map(|_| {
                let mut set = HashSet::new();
                set.insert(identity);
                set
            })
            .collect();
        let mut alive: HashSet<(u8, u64)> = level.iter().map(|w| (w.start, w.code)).collect();
        let mut forbidden = Vec::new();
        for len in 1..=max_len {
            let mut next_level = Vec::new();
            let mut next_alive = HashSet::new();
            let suffix_mask = (1u64 << (2 * (len - 1))) - 1;
            for walk in &level {
                for (rank, &m) in rank_to_move.iter().enumerate() {
                    let to = NEIGHBOURS[walk.blank as usize][m];
                    if to == NO_NEIGHBOUR {
                        continue;
                    }
                    let code = (walk.code << 2) | rank as u64;
                    // The string without its first move must itself be allowed, or this one
                    // holds a shorter forbidden string and adds nothing.
                    if len > 1 {
                        let first = rank_to_move[(code >> (2 * (len - 1))) as usize];
                        let second_cell = NEIGHBOURS[walk.start as usize][first];
                        if !alive.contains(&(second_cell, code & suffix_mask)) {
                            continue;
                        }
                    }
                    let arrangement = swap_nibbles(walk.arrangement, walk.blank, to);
                    if seen[walk.start as usize].insert(arrangement) {
                        let child = Walk {
                            start: walk.start,
                            code,
                            blank: to,
                            arrangement,
                        };
                        next_alive.insert((child.start, child.code));
                        next_level.push(child);
                    } else {
                        let moves = (0..len)
                            .map(|i| {
                                let rank = (code >> (2 * (len - 1 - i))) & 3;
                                Move::ALL[rank_to_move[rank as usize]]
                            })
                            .collect();
                        forbidden.push((walk.start, moves));
                    }
                }
            }
            level = next_level;
            alive = next_alive;
        }
        forbidden
    }

    /// The Aho–Corasick automaton of `patterns`, as a transition table.
    fn automaton(patterns: &[(u8, Vec<Move>)]) -> Vec<u32> {
        // The trie: one root per cell; `children[node][move]`, 0 = none (no node has a root as
        // its child). A pattern's last move leads to `BLOCKED` instead of a node: patterns are
        // minimal, so no pattern continues past another.
        let mut children: Vec<[u32; 4]> = vec![[0; 4]; 16];
        let mut cell_of: Vec<u8> = (0..16).collect();
        for (start, moves) in patterns {
            let mut node = u32::from(*start);
            for (i, &m) in moves.iter().enumerate() {
                let slot = &mut children[node as usize][m.index()];
                if i + 1 == moves.len() {
                    *slot = BLOCKED;
                    break;
                }
                if *slot == 0 {
                    *slot = cell_of.len() as u32;
                    let to = NEIGHBOURS[cell_of[node as usize] as usize][m.index()];
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
        for root in 0..16u32 {
            for m in Move::ALL {
                let to = NEIGHBOURS[root as usize][m.index()];
                if to == NO_NEIGHBOUR {
                    continue;
                }
                let child = children[root as usize][m.index()];
                next[root as usize * 4 + m.index()] = match child {
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
            let cell = cell_of[node as usize];
            for m in Move::ALL {
                if NEIGHBOURS[cell as usize][m.index()] == NO_NEIGHBOUR {
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
}

/// Swaps nibbles `a` and `b` of `x`.
fn swap_nibbles(x: u64, a: u8, b: u8) -> u64 {
    let (na, nb) = ((x >> (4 * a)) & 15, (x >> (4 * b)) & 15);
    x ^ ((na ^ nb) << (4 * a)) ^ ((na ^ nb) << (4 * b))
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

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

    /// Breadth-first search from the blank on `cell`, trying moves in `order`: the first path
    /// to reach each arrangement is its shortest path that comes first in `order`. Returns
    /// those paths by length, up to `depth`.
    fn first_paths(cell: u8, order: [Move; 4], depth: usize) -> Vec<HashSet<Vec<Move>>> {
        let identity: u64 = (0..16).map(|c| (c as u64) << (4 * c)).sum();
        let mut seen = HashSet::from([identity]);
        let mut level = vec![(identity, cell, Vec::new())];
        let mut by_length = vec![HashSet::from([Vec::new()])];
        for _ in 0..depth {
            let mut next = Vec::new();
            for (arrangement, blank, path) in &level {
                for m in order {
                    let to = NEIGHBOURS[*blank as usize][m.index()];
                    if to == NO_NEIGHBOUR {
                        continue;
                    }
                    let child = swap_nibbles(*arrangement, *blank, to);
                    if seen.insert(child) {
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
    fn allowed_paths(pruning: &MovePruning, cell: u8, depth: usize) -> Vec<HashSet<Vec<Move>>> {
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
    /// every cell of the blank.
    #[test]
    fn allowed_paths_are_the_first_shortest_ones() {
        const LONGEST: usize = 9;
        for order in orders() {
            let pruning = MovePruning::build(order, LONGEST);
            assert_eq!(pruning.order(), order);
            for cell in 0..16 {
                assert_eq!(
                    allowed_paths(&pruning, cell, LONGEST),
                    first_paths(cell, order, LONGEST),
                    "order {order:?}, blank on {cell}"
                );
            }
        }
    }

    /// From the goal's blank cell, the boards at each distance are known (OEIS A089473: 1, 2,
    /// 4, 10, 24, 54, 107, 212, 446, 946, 1948, 3938, 7808); the default automaton lets exactly
    /// that many paths through.
    #[test]
    fn default_automaton_counts_the_boards_at_each_distance() {
        let pruning = MovePruning::build(Move::ALL, DEFAULT_LONGEST);
        let counts: Vec<usize> = allowed_paths(&pruning, 15, DEFAULT_LONGEST)
            .iter()
            .map(HashSet::len)
            .collect();
        assert_eq!(
            counts,
            [1, 2, 4, 10, 24, 54, 107, 212, 446, 946, 1948, 3938, 7808]
        );
    }

    /// Without forbidden strings nothing but the board's edges is blocked.
    #[test]
    fn no_pruning_blocks_only_the_edges() {
        let pruning = MovePruning::build(Move::ALL, 0);
        for cell in 0..16u8 {
            for m in Move::ALL {
                let blocked = pruning.next(MovePruning::start(cell), m) == BLOCKED;
                assert_eq!(blocked, m.target(cell as usize, 4).is_none());
            }
        }
    }
}
