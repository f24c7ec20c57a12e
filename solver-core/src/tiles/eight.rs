//! The 8-puzzle to any target: optimal and lexicographically smallest, by table look-up.
//!
//! Any two boards with the blank in the same cell differ only by the names of their tiles. So the
//! tiles of the start are renamed until it is the *canonical* board for its blank cell
//! ([`Board::canonical`]), the same renaming is applied to the target, and the question becomes:
//! how does the canonical board reach the renamed target? A breadth-first tree rooted at each of
//! the nine canonical boards answers that for every reachable board at once (9!/2 = 181,440
//! boards per tree). The tree stores, in 2 bits per board, the last move of the path to it, so an
//! answer is a walk back to the root: at most 31 steps.
//!
//! Why the walk gives the lexicographically smallest optimal path: BFS visits each layer in the
//! lexicographic order of the paths that reach its boards, when children are generated in move
//! order `d, l, r, u` (by induction on the depth: a board is first reached from its smallest
//! parent by its smallest move). The first visit therefore records the smallest optimal path.

use std::sync::OnceLock;

use super::board::{Board, Board3, Move};
use super::neighbours::{NO_NEIGHBOUR, neighbour_table};
use super::rank::{pack9, rank9_class};

/// Boards in one parity class: 9!/2.
const STATES: usize = 181_440;
/// Bits 0..36 of a packed state hold the cells; bits 36..40 the blank's cell.
const CELLS_MASK: u64 = (1 << 36) - 1;
const BLANK_SHIFT: u32 = 36;

/// One BFS tree: the move that last reached each board, 2 bits per board, indexed by rank.
#[derive(Debug)]
struct Tree {
    root: u64,
    last_move: Vec<u8>,
}

/// The nine trees, one per blank cell: a value its owner keeps (the server holds one for the
/// process), each tree built on first use or all at once by [`warm_up`](Self::warm_up).
#[derive(Debug, Default)]
pub struct Tables {
    trees: [OnceLock<Tree>; 9],
}

impl Tables {
    /// Tables with no tree built yet: each is built (milliseconds) when an answer first
    /// needs it.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Tables with all nine trees built, spread over the available cores.
    #[must_use]
    pub fn build() -> Self {
        let tables = Self::new();
        tables.warm_up();
        tables
    }

    /// Builds every tree not built yet, spread over the available cores, so later answers cost
    /// only their walk (under 100 ms in all).
    pub fn warm_up(&self) {
        on_all_cores(|blank| {
            self.tree(blank);
        });
    }

    /// Whether every tree is built.
    #[must_use]
    pub fn is_ready(&self) -> bool {
        self.trees.iter().all(|t| t.get().is_some())
    }

    fn tree(&self, blank: usize) -> &Tree {
        self.trees[blank].get_or_init(|| Tree::build(blank))
    }

    /// The optimal move sequence from `start` to `target` that is lexicographically smallest
    /// among the optimal ones, or `None` when `target` cannot be reached (different parity).
    ///
    /// ```
    /// use solver_core::{Board3, eight::Tables, format_moves};
    /// let tables = Tables::new();
    /// let start: Board3 = "12X453786".parse().unwrap();
    /// let target: Board3 = "12345678X".parse().unwrap();
    /// assert_eq!(format_moves(&tables.solve(&start, &target).unwrap()), "dd");
    /// ```
    #[must_use]
    pub fn solve(&self, start: &Board3, target: &Board3) -> Option<Vec<Move>> {
        answer(start, target, |blank| self.tree(blank))
    }
}

/// Runs `job` for every blank cell 0..9, spread over the available cores.
fn on_all_cores(job: impl Fn(usize) + Sync) {
    let workers = std::thread::available_parallelism()
        .map_or(1, std::num::NonZero::get)
        .min(9);
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let blank = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if blank >= 9 {
                        break;
                    }
                    job(blank);
                }
            });
        }
    });
}

/// One set of tables for the crate's unit tests, built once per test binary.
#[cfg(test)]
pub(crate) fn test_tables() -> &'static Tables {
    static TABLES: std::sync::LazyLock<Tables> = std::sync::LazyLock::new(Tables::build);
    &TABLES
}

fn answer<'t>(
    start: &Board3,
    target: &Board3,
    tree: impl FnOnce(usize) -> &'t Tree,
) -> Option<Vec<Move>> {
    if !start.can_reach(target) {
        return None;
    }
    let blank = start.blank();
    let canonical = Board3::canonical(blank);
    let mut rename = [0u8; 16];
    for (&from, &to) in start.cells().iter().zip(canonical.cells()) {
        rename[from as usize] = to;
    }
    let renamed = target.relabel(&rename);
    Some(tree(blank).walk_back(&renamed))
}

/// The packed state of a board: its cells and its blank's cell.
fn pack(board: &Board3) -> u64 {
    pack9(board.cells()) | ((board.blank() as u64) << BLANK_SHIFT)
}

/// The state's index in its tree.
#[inline]
fn rank(state: u64) -> usize {
    rank9_class(state & CELLS_MASK, (state >> BLANK_SHIFT) as usize) as usize
}

/// Moves the blank of a packed state to cell `to` (a neighbour of its cell).
#[inline]
fn slide(state: u64, to: usize) -> u64 {
    let blank = (state >> BLANK_SHIFT) as usize;
    let tile = (state >> (4 * to)) & 0xF;
    let cells = (state & CELLS_MASK & !(0xF << (4 * to))) | (tile << (4 * blank));
    cells | ((to as u64) << BLANK_SHIFT)
}

/// Boards per blank cell in a class: the rank step of a horizontal move.
const HALF_FACT8: usize = 20_160;

/// `1 +` the index of the move that undoes move `m`: how a queued entry that came by it is
/// marked.
const REVERSE_PLUS_ONE: [usize; 4] = {
    let mut t = [0; 4];
    let mut m = 0;
    while m < 4 {
        t[m] = Move::ALL[m].reverse().index() + 1;
        m += 1;
    }
    t
};
/// Neighbour of each cell in each move's direction, `NONE` off the board.
const NONE: u8 = NO_NEIGHBOUR;
const NEIGHBOURS: [[u8; 4]; 16] = neighbour_table(3);

impl Tree {
    fn build(blank: usize) -> Self {
        // A queued entry: the packed state (bits 0..40), 1 + the move that reached it (bits
        // 40..43; 0 for the root), so that its reverse, which leads straight back, is skipped,
        // and its rank (bits 43..61), from which a horizontal move's rank follows at once: it
        // leaves the tiles' sequence alone and only moves the blank by one cell.
        const CAME_SHIFT: u32 = 40;
        const RANK_SHIFT: u32 = 43;
        let root = pack(&Board::canonical(blank));
        let mut last_move = vec![0u8; STATES / 4];
        let mut visited = vec![0u64; STATES.div_ceil(64)];
        let mut queue: Vec<u64> = Vec::with_capacity(STATES);
        let root_rank = rank(root);
        visited[root_rank / 64] |= 1 << (root_rank % 64);
        queue.push(root | ((root_rank as u64) << RANK_SHIFT));
        let mut head = 0;
        while let Some(&entry) = queue.get(head) {
            head += 1;
            let state = entry & ((1 << CAME_SHIFT) - 1);
            let came_by = ((entry >> CAME_SHIFT) & 7) as usize;
            let own_rank = (entry >> RANK_SHIFT) as usize;
            let blank = (state >> BLANK_SHIFT) as usize;
            for (m, &to) in NEIGHBOURS[blank].iter().enumerate() {
                if to == NONE || came_by == REVERSE_PLUS_ONE[m] {
                    continue;
                }
                let next = slide(state, to as usize);
                let r = match Move::ALL[m] {
                    Move::Left => own_rank - HALF_FACT8,
                    Move::Right => own_rank + HALF_FACT8,
                    Move::Up | Move::Down => rank(next),
                };
                let bit = 1u64 << (r % 64);
                if visited[r / 64] & bit == 0 {
                    visited[r / 64] |= bit;
                    last_move[r / 4] |= (m as u8) << (2 * (r % 4));
                    queue
                        .push(next | (((m + 1) as u64) << CAME_SHIFT) | ((r as u64) << RANK_SHIFT));
                }
            }
        }
        debug_assert_eq!(queue.len(), STATES);
        Self { root, last_move }
    }

    /// The path from the root to `board` (which must be in the root's parity class).
    fn walk_back(&self, board: &Board3) -> Vec<Move> {
        let mut state = pack(board);
        let mut moves = Vec::with_capacity(31);
        while state != self.root {
            let r = rank(state);
            let mv = Move::ALL[usize::from((self.last_move[r / 4] >> (2 * (r % 4))) & 3)];
            moves.push(mv);
            let blank = (state >> BLANK_SHIFT) as usize;
            let back = mv
                .reverse()
                .target(blank, 3)
                .expect("tree moves stay on the board");
            state = slide(state, back);
            debug_assert!(moves.len() <= 31, "the 8-puzzle's diameter is 31");
        }
        moves.reverse();
        moves
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format_moves;

    #[test]
    fn samples() {
        let solve_str = |s: &str, t: &str| {
            let (s, t): (Board3, Board3) = (s.parse().unwrap(), t.parse().unwrap());
            test_tables().solve(&s, &t).map(|m| format_moves(&m))
        };
        assert_eq!(solve_str("12X453786", "12345678X").as_deref(), Some("dd"));
        assert_eq!(
            solve_str("564178X23", "7568X4123").as_deref(),
            Some("urrulldr")
        );
        assert_eq!(solve_str("12345678X", "12345678X").as_deref(), Some(""));
        assert_eq!(solve_str("21345678X", "12345678X"), None);
        let poj = solve_str("2 3 4 1 5 x 7 6 8", "12345678X").unwrap();
        assert_eq!(poj.len(), 19);
    }

    #[test]
    fn the_two_hardest_boards_need_31_moves() {
        for hard in ["8 6 7 2 5 4 3 x 1", "6 4 7 8 5 x 3 2 1"] {
            let start: Board3 = hard.parse().unwrap();
            let moves = test_tables().solve(&start, &Board3::goal()).unwrap();
            assert_eq!(moves.len(), 31, "{hard}");
            assert_eq!(start.replay(&moves).unwrap(), Board3::goal());
        }
    }
}
