//! Optimal solutions on boards of any shape: IDA* with Manhattan distance (plus
//! linear conflicts), in lexicographic move order, run in slices.
//!
//! Each iteration is a depth-first search that tries the blank's moves in `d < l < r < u` order
//! and prunes nodes whose `g + h` exceeds the bound; the next bound is the smallest pruned
//! `g + h`. With an admissible `h`, the first iteration that reaches the target has the optimal
//! length as its bound, prunes no node on an optimal path, and meets the optimal paths in
//! lexicographic order, so the first found is the smallest. Only the move that undoes the last
//! one is skipped (never part of a shortest path).
//!
//! The depth-first search keeps its whole state (board, path, the next move to try at each
//! depth) in the value, with no recursion, so [`GridSearch::run`] can return at any node and the
//! next call goes on from there: the scheduler can preempt it every few milliseconds. Every
//! completed iteration proves the optimum is at least the next bound, so a stopped search still
//! reports a proven lower bound ([`GridSearch::bound`]).

use std::time::Instant;

use super::board::Move;
use super::distance::Distance;
use super::grid::Grid;
use super::grid_board::GridBoard;
use crate::stop::{SearchStats, Stop, Stopped};

/// What one slice of a search ended with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Slice {
    /// The optimal, lexicographically smallest move sequence.
    Found(Vec<Move>),
    /// The slice's time ran out; call [`GridSearch::run`] again.
    Suspended,
}

/// A resumable optimal search from one board to a target of the same shape.
#[derive(Debug, Clone)]
pub struct GridSearch {
    distance: Distance,
    grid: Grid,
    cells: Vec<u8>,
    blank: usize,
    /// Heuristic parts kept up to date move by move.
    manhattan: u32,
    row_conflicts: Vec<u32>,
    col_conflicts: Vec<u32>,
    conflicts: u32,
    /// The moves from the start to the current node.
    path: Vec<Move>,
    /// For each depth on the path (and the current node), the index of the next move to try.
    next: Vec<u8>,
    bound: u32,
    next_bound: u32,
    stats: SearchStats,
    found: bool,
}

impl GridSearch {
    /// A search from `start` to `target` (nothing runs yet), or `None` when `target` is of
    /// another shape or cannot be reached (see [`GridBoard::can_reach`]).
    #[must_use]
    pub fn new(start: &GridBoard, target: &GridBoard) -> Option<Self> {
        if !start.can_reach(target) {
            return None;
        }
        let grid = start.grid();
        let distance = Distance::new(grid, target.cells());
        let cells = start.cells().to_vec();
        let row_conflicts: Vec<u32> = (0..grid.rows())
            .map(|r| distance.row_conflicts(&cells, r))
            .collect();
        let col_conflicts: Vec<u32> = (0..grid.cols())
            .map(|c| distance.col_conflicts(&cells, c))
            .collect();
        let conflicts = row_conflicts.iter().sum::<u32>() + col_conflicts.iter().sum::<u32>();
        let manhattan = distance.manhattan_sum(&cells);
        let bound = manhattan + conflicts;
        Some(Self {
            blank: start.blank(),
            distance,
            grid,
            cells,
            manhattan,
            row_conflicts,
            col_conflicts,
            conflicts,
            path: Vec::new(),
            next: vec![0],
            bound,
            next_bound: u32::MAX,
            stats: SearchStats {
                nodes: 0,
                iterations: 1,
            },
            found: bound == 0,
        })
    }

    /// A lower bound on the optimal length, proven by the iterations done (the heuristic's value
    /// before any); the optimal length itself once found.
    #[must_use]
    pub fn bound(&self) -> u32 {
        self.bound
    }

    /// The work done so far.
    #[must_use]
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    fn heuristic(&self) -> u32 {
        self.manhattan + self.conflicts
    }

    /// Moves the blank to `to`, updating the heuristic's parts.
    fn slide(&mut self, to: usize) {
        let (from, tile) = (self.blank, self.cells[to]);
        let cols = self.grid.cols();
        self.manhattan = self.manhattan + self.distance.manhattan(tile, from)
            - self.distance.manhattan(tile, to);
        self.cells[from] = tile;
        self.cells[to] = 0;
        self.blank = to;
        // A vertical move changes the tile's row (its column's order is unchanged), a horizontal
        // one its column: only those two lines' conflicts can change.
        if from % cols == to % cols {
            for row in [from / cols, to / cols] {
                let new = self.distance.row_conflicts(&self.cells, row);
                self.conflicts = self.conflicts + new - self.row_conflicts[row];
                self.row_conflicts[row] = new;
            }
        } else {
            for col in [from % cols, to % cols] {
                let new = self.distance.col_conflicts(&self.cells, col);
                self.conflicts = self.conflicts + new - self.col_conflicts[col];
                self.col_conflicts[col] = new;
            }
        }
    }

    /// Searches until the answer is found (`Ok(Found)`), `stop` fires (`Err`), or the first poll
    /// after `slice_end` (`Ok(Suspended)`: call again to go on).
    ///
    /// # Errors
    /// [`Stopped`] when `stop` fires; the search can still be resumed with a new `stop`.
    pub fn run(&mut self, stop: &Stop, slice_end: Option<Instant>) -> Result<Slice, Stopped> {
        let mut poll = stop.next_poll(self.stats.nodes);
        loop {
            if self.found {
                return Ok(Slice::Found(self.path.clone()));
            }
            let depth = self.path.len();
            let index = self.next[depth];
            if index as usize == Move::ALL.len() {
                // Every move from this node tried: back up, or end the iteration at the root.
                if depth == 0 {
                    assert!(
                        self.next_bound != u32::MAX,
                        "IDA* exhausted a connected space without reaching the target"
                    );
                    self.bound = self.next_bound;
                    self.next_bound = u32::MAX;
                    self.next[0] = 0;
                    self.stats.iterations += 1;
                    continue;
                }
                let last = self.path.pop().expect("depth > 0");
                self.next.pop();
                let back = self
                    .grid
                    .neighbour(self.blank, last.reverse())
                    .expect("undoing a move stays on the board");
                self.slide(back);
                continue;
            }
            self.next[depth] += 1;
            let mv = Move::ALL[index as usize];
            if self.path.last().is_some_and(|&last| last == mv.reverse()) {
                continue;
            }
            let Some(to) = self.grid.neighbour(self.blank, mv) else {
                continue;
            };
            let from = self.blank;
            self.slide(to);
            self.stats.nodes += 1;
            let f = depth as u32 + 1 + self.heuristic();
            if f > self.bound {
                self.next_bound = self.next_bound.min(f);
                self.slide(from);
            } else {
                self.path.push(mv);
                self.next.push(0);
                if self.heuristic() == 0 {
                    self.found = true;
                    return Ok(Slice::Found(self.path.clone()));
                }
            }
            if self.stats.nodes >= poll {
                if let Some(reason) = stop.check(self.stats.nodes) {
                    return Err(Stopped {
                        reason,
                        stats: self.stats,
                    });
                }
                poll = stop.next_poll(self.stats.nodes);
                if slice_end.is_some_and(|end| Instant::now() >= end) {
                    return Ok(Slice::Suspended);
                }
            }
        }
    }
}

/// Solves `start` → `target` optimally in one go.
///
/// # Errors
/// [`Stopped`] when `stop` fires first.
///
/// # Panics
/// When `target` cannot be reached from `start`: check [`GridBoard::can_reach`] first.
pub fn solve(start: &GridBoard, target: &GridBoard, stop: &Stop) -> Result<Vec<Move>, Stopped> {
    let mut search = GridSearch::new(start, target).expect("the target is reachable");
    match search.run(stop, None)? {
        Slice::Found(moves) => Ok(moves),
        Slice::Suspended => unreachable!("a search without a slice end is never suspended"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiles::board::format_moves;

    #[test]
    fn a_short_board_is_solved_and_replays() {
        let grid = Grid::new(3, 4).unwrap();
        let goal = GridBoard::goal(grid);
        let start = goal
            .replay(&crate::tiles::board::parse_moves("uullddrurd").unwrap())
            .unwrap();
        let moves = solve(&start, &goal, &Stop::never()).unwrap();
        assert_eq!(start.replay(&moves).unwrap(), goal);
        assert!(moves.len() <= 10);
        assert_eq!(solve(&goal, &goal, &Stop::never()).unwrap(), vec![]);
        let _ = format_moves(&moves);
    }

    #[test]
    fn unreachable_targets_are_refused() {
        let grid = Grid::new(2, 2).unwrap();
        let swapped = GridBoard::new(grid, &[2u8, 1, 3, 0]).unwrap();
        assert!(GridSearch::new(&swapped, &GridBoard::goal(grid)).is_none());
    }

    #[test]
    fn slices_and_stops_give_the_one_go_answer() {
        let grid = Grid::new(3, 4).unwrap();
        let start = GridBoard::new(grid, &[5u8, 1, 3, 4, 9, 2, 7, 8, 0, 6, 10, 11]).unwrap();
        let goal = GridBoard::goal(grid);
        let whole = solve(&start, &goal, &Stop::never()).unwrap();
        let mut search = GridSearch::new(&start, &goal).unwrap();
        let mut rounds = 0;
        let answer = loop {
            rounds += 1;
            // A node budget that fires every few polls, then a fresh one: resumable.
            let stop = Stop::never().with_node_budget(search.stats().nodes + 3_000);
            match search.run(&stop, Some(Instant::now())) {
                Ok(Slice::Found(moves)) => break moves,
                Ok(Slice::Suspended) | Err(_) => {}
            }
        };
        assert_eq!(answer, whole);
        assert!(rounds > 1 || whole.len() < 10);
    }
}
