//! Random boards of each shape through the size-generic optimal search: how far optimal reaches.
//!
//! ```text
//! cargo run --release -p solver-core --example shapes -- [--count N] [--budget NODES] [ROWSxCOLS ...]
//! ```
//!
//! For each shape: `N` uniformly random solvable boards (seeded, reproducible) solved to the
//! standard goal under a node budget, with the shape's move pruning; prints how many finished,
//! the median and largest optimal length, and the median and largest node counts and times of
//! those that finished.

use std::sync::Arc;
use std::time::Instant;

use solver_core::tiles::fsm::{self, PruningTables};
use solver_core::tiles::grid::Grid;
use solver_core::tiles::grid_board::GridBoard;
use solver_core::tiles::grid_ida::{GridSearch, Slice};
use solver_core::{Move, Stop};

fn random_board(grid: Grid, state: &mut u64) -> GridBoard {
    let goal = GridBoard::goal(grid);
    loop {
        let mut cells: Vec<u8> = (0..grid.cells() as u8).collect();
        for i in (1..cells.len()).rev() {
            *state ^= *state << 13;
            *state ^= *state >> 7;
            *state ^= *state << 17;
            cells.swap(i, (*state % (i as u64 + 1)) as usize);
        }
        let board = GridBoard::new(grid, &cells).expect("a permutation");
        if board.can_reach(&goal) {
            return board;
        }
    }
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(0.0)
}

fn main() {
    let mut count = 20;
    let mut budget = 200_000_000u64;
    let mut shapes = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--count" => count = args.next().and_then(|n| n.parse().ok()).expect("--count N"),
            "--budget" => {
                budget = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("--budget N");
            }
            shape => {
                let (r, c) = shape.split_once('x').expect("shapes as ROWSxCOLS");
                shapes.push(Grid::new(r.parse().unwrap(), c.parse().unwrap()).expect("2..=8"));
            }
        }
    }
    if shapes.is_empty() {
        shapes = ["2x3", "2x4", "3x3", "2x5", "3x4", "2x6", "3x5"]
            .iter()
            .map(|s| {
                let (r, c) = s.split_once('x').unwrap();
                Grid::new(r.parse().unwrap(), c.parse().unwrap()).unwrap()
            })
            .collect();
    }
    let tables = PruningTables::new();
    for grid in shapes {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let goal = GridBoard::goal(grid);
        let pruning = tables.get(grid, Move::ALL, fsm::longest_for(grid));
        let (mut lengths, mut nodes, mut times) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..count {
            let start = random_board(grid, &mut state);
            let mut search = GridSearch::new(&start, &goal)
                .expect("reachable")
                .with_pruning(Arc::clone(&pruning));
            let t = Instant::now();
            if let Ok(Slice::Found(moves)) =
                search.run(&Stop::never().with_node_budget(budget), None)
            {
                assert_eq!(start.replay(&moves).unwrap(), goal);
                lengths.push(moves.len() as f64);
                nodes.push(search.stats().nodes as f64);
                times.push(t.elapsed().as_secs_f64() * 1e3);
            }
        }
        let max = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
        println!(
            "{grid}: {}/{count} within {budget} nodes; length median {} max {}; nodes median {:.0} max {:.0}; ms median {:.1} max {:.1}",
            lengths.len(),
            median(&mut lengths.clone()),
            max(&lengths),
            median(&mut nodes.clone()),
            max(&nodes),
            median(&mut times.clone()),
            max(&times)
        );
    }
}
