//! A solution for any board of any shape, fast and far from optimal: the way people solve them.
//!
//! Rows are fixed from the top, one tile at a time, the last two tiles of a row together; when
//! two rows are left, columns are fixed from the left, both tiles of a column together; the
//! last 2×2 block is then turned into place. Each step is a breadth-first search over only the
//! cells of the tiles it places and of the blank, inside the cells not yet fixed (at most
//! 64³ states), so every step is a shortest way to place its tiles without disturbing the fixed
//! ones, and no step can fail: a region at least two cells wide and tall can bring any two tiles
//! anywhere, and the last block is solvable because the whole board's invariant matches.
//!
//! Towards an arbitrary target the search goes through a hub: start → hub and target → hub,
//! the second reversed. The hub is the standard goal (or, for the other parity class, the
//! standard goal with two tiles of the last block swapped); moves that undo each other where the
//! two halves meet are cancelled.

use std::collections::VecDeque;

use super::board::Move;
use super::grid::Grid;
use super::grid_board::GridBoard;

/// A path from `start` to `target` (which must be reachable from it, see
/// [`GridBoard::can_reach`]).
#[must_use]
pub fn solve(start: &GridBoard, target: &GridBoard) -> Vec<Move> {
    let mut building = Constructive::new(start, target);
    loop {
        if let Some(moves) = building.step() {
            return moves;
        }
    }
}

/// The constructive method one group of tiles at a time, so that a caller sharing a CPU can
/// stop between groups (a group's search takes at most a few milliseconds on 8×8).
#[derive(Debug, Clone)]
pub struct Constructive {
    /// The start's half (towards the hub), then the target's.
    halves: [Placer; 2],
    /// The groups of cells each half places, in order (the last one brings the blank home).
    groups: Vec<Vec<usize>>,
    /// The next group to place: `0..groups.len()` for the start's half, then the target's.
    next: usize,
    hub: Vec<u8>,
}

impl Constructive {
    /// The method from `start` to `target` (which must be reachable from it), nothing placed
    /// yet.
    #[must_use]
    pub fn new(start: &GridBoard, target: &GridBoard) -> Self {
        let grid = start.grid();
        let mut hub = grid.goal();
        if grid.parity(&hub) != grid.parity(start.cells()) {
            let corner = (grid.rows() - 2) * grid.cols() + grid.cols() - 2;
            hub.swap(corner, corner + 1);
        }
        Self {
            halves: [
                Placer::new(grid, start.cells()),
                Placer::new(grid, target.cells()),
            ],
            groups: groups(grid),
            next: 0,
            hub,
        }
    }

    /// Places the next group; the whole path once the last group of the target's half is
    /// placed.
    pub fn step(&mut self) -> Option<Vec<Move>> {
        let count = self.groups.len();
        let (half, group) = (self.next / count, self.next % count);
        self.halves[half].place(&self.groups[group], &self.hub, group + 1 == count);
        self.next += 1;
        if self.next < 2 * count {
            return None;
        }
        let mut moves = std::mem::take(&mut self.halves[0].moves);
        for mv in self.halves[1].moves.iter().rev() {
            let undone = mv.reverse();
            if moves.last() == Some(&undone.reverse()) {
                moves.pop();
            } else {
                moves.push(undone);
            }
        }
        Some(moves)
    }
}

/// The groups of cells placed one after another: rows from the top (the last two tiles of a row
/// together), then columns from the left (both tiles together), then the last block (three
/// cells; its step also brings the blank to the last cell).
fn groups(grid: Grid) -> Vec<Vec<usize>> {
    let (rows, cols) = (grid.rows(), grid.cols());
    let at = |r: usize, c: usize| r * cols + c;
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for r in 0..rows - 2 {
        groups.extend((0..cols - 2).map(|c| vec![at(r, c)]));
        groups.push(vec![at(r, cols - 2), at(r, cols - 1)]);
    }
    for c in 0..cols - 2 {
        groups.push(vec![at(rows - 2, c), at(rows - 1, c)]);
    }
    groups.push(vec![
        at(rows - 2, cols - 2),
        at(rows - 2, cols - 1),
        at(rows - 1, cols - 2),
    ]);
    groups
}

/// The board being solved and the cells already fixed.
#[derive(Debug, Clone)]
struct Placer {
    grid: Grid,
    cells: Vec<u8>,
    fixed: Vec<bool>,
    moves: Vec<Move>,
}

impl Placer {
    fn new(grid: Grid, cells: &[u8]) -> Self {
        Self {
            grid,
            cells: cells.to_vec(),
            fixed: vec![false; grid.cells()],
            moves: Vec::new(),
        }
    }

    /// Brings the tiles `hub` has at `targets` there (and, when `blank_home`, the blank to the
    /// last cell) by a shortest sequence of moves inside the free cells, then fixes `targets`.
    fn place(&mut self, targets: &[usize], hub: &[u8], blank_home: bool) {
        let free: Vec<usize> = (0..self.grid.cells()).filter(|&c| !self.fixed[c]).collect();
        let mut slot = vec![usize::MAX; self.grid.cells()];
        for (i, &c) in free.iter().enumerate() {
            slot[c] = i;
        }
        let n = free.len();
        let tracked = targets.len();
        let blank = self.cells.iter().position(|&t| t == 0).expect("a blank");
        // State: the free-cell slots of the tracked tiles, then of the blank.
        let mut start = vec![0usize; tracked + 1];
        for (k, &target) in targets.iter().enumerate() {
            let tile = hub[target];
            start[k] = slot[self
                .cells
                .iter()
                .position(|&t| t == tile)
                .expect("every tile")];
        }
        start[tracked] = slot[blank];
        let goal: Vec<usize> = targets.iter().map(|&c| slot[c]).collect();
        let encode = |s: &[usize]| s.iter().fold(0usize, |acc, &p| acc * n + p);
        let states = n.pow(tracked as u32 + 1);
        let mut parent: Vec<(u32, u8)> = vec![(u32::MAX, 0); states];
        let first = encode(&start);
        parent[first] = (first as u32, 0);
        let mut queue = VecDeque::from([start]);
        let end = loop {
            let state = queue.pop_front().expect("every group can be placed");
            let done = state[..tracked] == goal[..]
                && (!blank_home || free[state[tracked]] == self.grid.cells() - 1);
            if done {
                break encode(&state);
            }
            let here = encode(&state);
            for (m, &mv) in Move::ALL.iter().enumerate() {
                let Some(to) = self.grid.neighbour(free[state[tracked]], mv) else {
                    continue;
                };
                if self.fixed[to] {
                    continue;
                }
                let mut next = state.clone();
                for p in next.iter_mut().take(tracked) {
                    if *p == slot[to] {
                        *p = state[tracked];
                    }
                }
                next[tracked] = slot[to];
                let code = encode(&next);
                if parent[code].0 == u32::MAX {
                    parent[code] = (here as u32, m as u8);
                    queue.push_back(next);
                }
            }
        };
        let mut path = Vec::new();
        let mut code = end;
        while code != first {
            let (prev, m) = parent[code];
            path.push(Move::ALL[m as usize]);
            code = prev as usize;
        }
        path.reverse();
        let mut blank = blank;
        for &mv in &path {
            let to = self
                .grid
                .neighbour(blank, mv)
                .expect("a move inside the board");
            self.cells.swap(blank, to);
            blank = to;
        }
        self.moves.extend(path);
        for &c in targets {
            self.fixed[c] = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shuffled(grid: Grid, seed: u64) -> GridBoard {
        let mut cells: Vec<u8> = (0..grid.cells() as u8).collect();
        let mut state = seed | 1;
        for i in (1..cells.len()).rev() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            cells.swap(i, (state % (i as u64 + 1)) as usize);
        }
        GridBoard::new(grid, &cells).unwrap()
    }

    #[test]
    fn every_shape_reaches_any_reachable_target() {
        for rows in 2..=8 {
            for cols in 2..=8 {
                let grid = Grid::new(rows, cols).unwrap();
                for seed in 0..6u64 {
                    let start = shuffled(grid, seed * 2 + 1);
                    let target = shuffled(grid, seed * 2 + 2);
                    let target = if start.can_reach(&target) {
                        target
                    } else {
                        // The other class: swap two tiles (not the blank).
                        let mut cells = target.cells().to_vec();
                        let (a, b) = if cells[0] == 0 || cells[1] == 0 {
                            (2, 3)
                        } else {
                            (0, 1)
                        };
                        cells.swap(a, b);
                        GridBoard::new(grid, &cells).unwrap()
                    };
                    assert!(start.can_reach(&target));
                    let moves = solve(&start, &target);
                    assert_eq!(
                        start.replay(&moves).unwrap(),
                        target,
                        "{rows}x{cols} seed {seed}"
                    );
                }
            }
        }
    }
}
