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
//! from the same cell leaves the board the same way (see `fsm/strings.rs`). The permutation a
//! string makes does not depend on the tiles, so one enumeration with distinct labels covers
//! every board. Only minimal strings (no forbidden proper substring) are kept, and an
//! Aho–Corasick automaton over them follows the search down the tree: one table lookup per move
//! replaces the reverse-move and the edge checks.
//!
//! Moves are named by the cell the blank leaves and its direction, because whether a string is
//! forbidden depends on the cells it crosses (the same directions elsewhere may run off the
//! board and have no replacement).

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::grid::Grid;
use super::moves::Move;

mod strings;

use strings::forbidden_strings;

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
    /// `rows[state * 4 + move]` (moves in [`Move::ALL`] order): the state after the move shifted
    /// up [`ALLOWED_BITS`] bits, with the moves *that* state allows in the low bits (see
    /// [`MovePruning::step`]), or [`BLOCKED`].
    rows: Vec<u32>,
}

/// Bits of a row's entry that hold the moves its state allows.
const ALLOWED_BITS: u32 = 4;

/// The mask of those bits.
const ALLOWED: u32 = (1 << ALLOWED_BITS) - 1;

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
        assert!(
            next.len() / 4 < (BLOCKED >> ALLOWED_BITS) as usize,
            "{} states do not fit a row's entry",
            next.len() / 4
        );
        let allowed = |state: u32| {
            let at = state as usize * 4;
            next[at..at + 4]
                .iter()
                .enumerate()
                .fold(0, |mask, (i, &child)| {
                    mask | u32::from(child != BLOCKED) << i
                })
        };
        let rows = next
            .iter()
            .map(|&child| {
                if child == BLOCKED {
                    BLOCKED
                } else {
                    child << ALLOWED_BITS | allowed(child)
                }
            })
            .collect();
        Self { grid, order, rows }
    }

    /// How many states the automaton has (each a row of four `u32`s).
    #[must_use]
    pub fn states(&self) -> usize {
        self.rows.len() / 4
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
        let entry = self.rows[state as usize * 4 + mv.index()];
        if entry == BLOCKED {
            BLOCKED
        } else {
            entry >> ALLOWED_BITS
        }
    }

    /// The moves `state` allows, as bits of their indices in [`Move::ALL`].
    #[inline]
    pub(crate) fn allowed(&self, state: u32) -> u8 {
        let at = state as usize * 4;
        self.rows[at..at + 4]
            .iter()
            .enumerate()
            .fold(0, |mask, (i, &entry)| {
                mask | u8::from(entry != BLOCKED) << i
            })
    }

    /// The move of index `mv` (in [`Move::ALL`]) from `state`, which must allow it: the state
    /// it leads to and the moves that one allows (bits of their indices). The search reads its
    /// child's allowed moves from the parent's row, already in the cache, rather than from the
    /// child's own row: a node asks the memory for one row (its own, read when a child of it
    /// passes) instead of its four children's. One thread 4.6 % faster on Korf & Felner's #25
    /// and #32, two threads with the raced sets about 9 % (README).
    #[inline]
    pub(crate) fn step(&self, state: u32, mv: usize) -> (u32, u8) {
        let entry = self.rows[state as usize * 4 + mv];
        debug_assert_ne!(entry, BLOCKED, "a move the state allows");
        (entry >> ALLOWED_BITS, (entry & ALLOWED) as u8)
    }

    /// Asks the memory for `state`'s row, read when a child of a node in that state passes.
    #[inline]
    pub(crate) fn prefetch(&self, state: u32) {
        crate::prefetch::prefetch(self.rows.as_ptr().wrapping_add(state as usize * 4));
    }
}

/// Steps of a build between two checkpoints.
const CHUNK: usize = 256;

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

    /// A move's entry carries the state it leads to and the moves that state allows, as that
    /// state's own row gives them, for every state and move of a 5×5 and a 3×4 automaton.
    #[test]
    fn a_step_gives_the_next_state_and_what_it_allows() {
        for (grid, longest) in [
            (Grid::new(5, 5).unwrap(), 10),
            (Grid::new(3, 4).unwrap(), 12),
        ] {
            let pruning = MovePruning::build(grid, Move::ALL, longest);
            for state in 0..pruning.states() as u32 {
                let allowed = pruning.allowed(state);
                for mv in Move::ALL {
                    let next = pruning.next(state, mv);
                    assert_eq!(allowed >> mv.index() & 1 == 1, next != BLOCKED);
                    if next != BLOCKED {
                        assert_eq!(
                            pruning.step(state, mv.index()),
                            (next, pruning.allowed(next)),
                            "{grid}, state {state}, {mv:?}"
                        );
                    }
                }
            }
        }
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
        assert_eq!(yielding.rows, whole.rows);
        // Each state of the automaton was one step of its breadth-first pass.
        assert!(checkpoints >= whole.states() / CHUNK, "{checkpoints}");
        assert!(checkpoints > 10, "{checkpoints}");
    }
}
