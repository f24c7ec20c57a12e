//! Iterative-deepening A* on the 15-puzzle, in lexicographic move order.
//!
//! Each iteration is a depth-first search that tries the blank's moves in a fixed order and
//! prunes nodes whose `g + h` exceeds the bound; the next bound is the smallest `g + h` that was
//! pruned. With an admissible `h`, the first iteration that finds the goal has the optimal length
//! as its bound, no node on an optimal path is pruned in it, and depth-first search in move order
//! meets the optimal paths in lexicographic order: the first one found is the smallest.

use super::board::Move;
use crate::stop::{POLL_INTERVAL, SearchStats, Stop, Stopped};

/// A heuristic updated incrementally as tiles move.
pub(crate) trait Heuristic {
    /// Whatever the heuristic keeps per node (copied down the recursion).
    type State: Copy;
    /// The state for a whole board (`cells[i]` = tile at cell `i`, 0 = blank).
    fn start(&self, cells: &[u8; 16]) -> Self::State;
    /// The state after `tile` moved from cell `from` to cell `to`.
    fn moved(&self, state: &Self::State, tile: u8, from: u8, to: u8) -> Self::State;
    /// The lower bound on the moves left. Zero exactly at the goal.
    fn value(&self, state: &Self::State) -> u32;
}

/// Neighbour of each cell in each move's direction, `u8::MAX` off the board.
const NEIGHBOURS: [[u8; 4]; 16] = {
    let mut table = [[u8::MAX; 4]; 16];
    let mut cell = 0;
    while cell < 16 {
        let mut m = 0;
        while m < 4 {
            if let Some(to) = Move::ALL[m].target(cell, 4) {
                table[cell][m] = to as u8;
            }
            m += 1;
        }
        cell += 1;
    }
    table
};

/// Finds the optimal path from `cells` to the heuristic's goal that comes first in `order`
/// (`order` lists the moves from the smallest). Returns the moves and the work done.
pub(crate) fn search<H: Heuristic>(
    heuristic: &H,
    cells: [u8; 16],
    order: [Move; 4],
    stop: &Stop,
) -> Result<(Vec<Move>, SearchStats), Stopped> {
    let blank = cells
        .iter()
        .position(|&t| t == 0)
        .expect("a board has a blank") as u8;
    let state = heuristic.start(&cells);
    let mut search = Search {
        heuristic,
        cells,
        order,
        stop,
        path: Vec::with_capacity(96),
        stats: SearchStats::default(),
        next_bound: u32::MAX,
    };
    let mut bound = heuristic.value(&state);
    loop {
        search.stats.iterations += 1;
        search.next_bound = u32::MAX;
        match search.dfs(state, blank, 0, bound, None) {
            Flow::Found => return Ok((search.path, search.stats)),
            Flow::Stopped(reason) => {
                return Err(Stopped {
                    reason,
                    stats: search.stats,
                });
            }
            Flow::Continue => {}
        }
        // Every state of the 15-puzzle is within 80 moves of every other in its class.
        assert!(
            search.next_bound != u32::MAX,
            "IDA* exhausted a connected space without reaching the goal"
        );
        bound = search.next_bound;
    }
}

enum Flow {
    Found,
    Continue,
    Stopped(crate::StopReason),
}

struct Search<'a, H: Heuristic> {
    heuristic: &'a H,
    cells: [u8; 16],
    order: [Move; 4],
    stop: &'a Stop,
    path: Vec<Move>,
    stats: SearchStats,
    next_bound: u32,
}

impl<H: Heuristic> Search<'_, H> {
    fn dfs(
        &mut self,
        state: H::State,
        blank: u8,
        g: u32,
        bound: u32,
        came_by: Option<Move>,
    ) -> Flow {
        let h = self.heuristic.value(&state);
        let f = g + h;
        if f > bound {
            self.next_bound = self.next_bound.min(f);
            return Flow::Continue;
        }
        if h == 0 {
            return Flow::Found;
        }
        self.stats.nodes += 1;
        if self.stats.nodes % POLL_INTERVAL == 0 {
            if let Some(reason) = self.stop.check(self.stats.nodes) {
                return Flow::Stopped(reason);
            }
        }
        let back = came_by.map(Move::reverse);
        for mv in self.order {
            if Some(mv) == back {
                continue;
            }
            let to = NEIGHBOURS[blank as usize][mv.index()];
            if to == u8::MAX {
                continue;
            }
            let tile = self.cells[to as usize];
            let child = self.heuristic.moved(&state, tile, to, blank);
            self.cells[blank as usize] = tile;
            self.cells[to as usize] = 0;
            self.path.push(mv);
            match self.dfs(child, to, g + 1, bound, Some(mv)) {
                Flow::Continue => {}
                done => return done,
            }
            self.path.pop();
            self.cells[to as usize] = tile;
            self.cells[blank as usize] = 0;
        }
        Flow::Continue
    }
}

/// Manhattan distance to an arbitrary target: the heuristic for targets the pattern databases
/// were not built for. Weak, but admissible and exact about the goal.
#[derive(Debug)]
pub(crate) struct Manhattan {
    /// `distance[tile][cell]`: moves of `tile` from `cell` to its target cell.
    distance: [[u8; 16]; 16],
}

impl Manhattan {
    /// For the target whose tile at cell `i` is `target[i]`.
    pub(crate) fn new(target: &[u8; 16]) -> Self {
        let mut distance = [[0u8; 16]; 16];
        for (home, &tile) in target.iter().enumerate() {
            if tile == 0 {
                continue;
            }
            for cell in 0..16 {
                distance[tile as usize][cell] =
                    ((home / 4).abs_diff(cell / 4) + (home % 4).abs_diff(cell % 4)) as u8;
            }
        }
        Self { distance }
    }
}

impl Heuristic for Manhattan {
    type State = u32;

    fn start(&self, cells: &[u8; 16]) -> u32 {
        cells
            .iter()
            .enumerate()
            .map(|(c, &t)| u32::from(self.distance[t as usize][c]))
            .sum()
    }

    fn moved(&self, state: &u32, tile: u8, from: u8, to: u8) -> u32 {
        let row = &self.distance[tile as usize];
        state + u32::from(row[to as usize]) - u32::from(row[from as usize])
    }

    fn value(&self, state: &u32) -> u32 {
        *state
    }
}
