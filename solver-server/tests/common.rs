//! What the end-to-end tests share: their configuration, cases and checks. The server starter,
//! the seeded generator and Korf's instances are those of the workspace's one test-support
//! crate, named here so the tests take everything from one place.

use std::collections::HashMap;

use solver_core::tiles::bfs;
use solver_core::tiles::grid::Grid;
use solver_core::tiles::grid_board::GridBoard;
use solver_core::{Board, Board3, Board4, format_moves};
use solver_proto::v2::{Quality, SlidingPuzzle, SolveRequest, solve_request};
use solver_server::Config;
use solver_server::pb::{self, sliding_reply};
pub(crate) use solver_test_support::korf::korf;
pub(crate) use solver_test_support::rng::{Lcg, walk};
pub(crate) use solver_test_support::server::{TestServer, warm_up};

/// The test configuration: no warm-up (tests that need tables get them on first use), and the
/// tests' own data directory, never the user's cache, where the 7-8 set is never built (minutes
/// and 1.5 GB; the 6-6-3 answers are the ones tests expect).
pub(crate) fn config() -> Config {
    let mut config = Config::default();
    config.tables.warm_up = Vec::new().into();
    config.tables.data_dir = Some(test_data_dir());
    config.tables.build_databases = false;
    // Small tables for the other shapes: built in a moment (3×4 and 2×6, 180 MB while built,
    // are left to Manhattan distance).
    config.tables.memory = 64;
    // The 5×5 automaton of 12 moves: built in about 0.3 s by each server that gets a 5×5 case,
    // where the default 14 takes about 2 s.
    config.tables.move_pruning = 12;
    config
}

/// The test configuration with `change` made to it.
pub(crate) fn config_with(change: impl FnOnce(&mut Config)) -> Config {
    let mut config = config();
    change(&mut config);
    config
}

/// The data directory every test shares, under the target directory: databases a test builds
/// are stored there (atomically) and loaded by later tests and runs, as in production.
pub(crate) fn test_data_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("data")
}

pub(crate) fn cells<const W: usize>(board: &Board<W>) -> Vec<u32> {
    board.cells().iter().map(|&c| u32::from(c)).collect()
}

pub(crate) fn sliding(id: u64, start: &[u32], target: &[u32]) -> pb::SlidingRequest {
    pb::SlidingRequest {
        id,
        start: start.to_vec(),
        target: target.to_vec(),
        node_budget: 0,
    }
}

/// The moves of a solved reply, checked: they replay from `start` to `target`.
pub(crate) fn checked_moves<const W: usize>(
    reply: &pb::SlidingReply,
    start: &Board<W>,
    target: &Board<W>,
) -> String {
    let Some(sliding_reply::Outcome::Solution(solution)) = &reply.outcome else {
        panic!("case {} not solved: {reply:?}", reply.id);
    };
    let moves = solver_core::parse_moves(&solution.moves).unwrap();
    assert_eq!(
        start.replay(&moves).unwrap(),
        *target,
        "case {}: {} does not reach the target",
        reply.id,
        solution.moves
    );
    assert_eq!(solution.length as usize, moves.len());
    solution.moves.clone()
}

/// The 3×3 goal.
pub(crate) fn goal3() -> Board3 {
    Board3::goal()
}

/// A 15-puzzle case that takes far longer than any test: one of the boards 80 moves (the
/// puzzle's diameter) from the goal, which the 6-6-3 databases the tests use need over half a
/// minute of both cores to solve. Solvable, so only a stop or a budget ends its search early.
pub(crate) fn endless() -> (Board4, Board4) {
    let start = Board4::from_cells(&[0u8, 12, 9, 13, 15, 11, 10, 14, 3, 7, 2, 5, 4, 8, 6, 1])
        .expect("a board");
    assert!(start.can_reach(&Board4::goal()));
    (start, Board4::goal())
}

/// The oracle: exact distances to `target` of every board that can reach it, by plain BFS
/// (3×3 only: 181,440 boards).
pub(crate) fn distances3(target: Board3) -> HashMap<Board3, u32> {
    bfs::distances(target, u32::MAX)
}

/// The lexicographically smallest optimal path from `start`, given the oracle's distances to the
/// target: at every step the first move (`d, l, r, u`) that gets one closer.
pub(crate) fn oracle_path(start: Board3, dist: &HashMap<Board3, u32>) -> String {
    format_moves(&bfs::smallest_path(start, dist).expect("the start can reach the target"))
}

/// A v2 `Solve` request `id` for the 3×3 board one move from the goal.
pub(crate) fn v2_eight(id: &str) -> SolveRequest {
    SolveRequest {
        id: id.to_owned(),
        puzzle: Some(solve_request::Puzzle::Sliding(SlidingPuzzle {
            rows: 3,
            cols: 3,
            start: vec![1, 2, 3, 4, 5, 6, 7, 0, 8],
            target: Vec::new(),
        })),
        ..SolveRequest::default()
    }
}

pub(crate) fn grid_request(start: &GridBoard, max_ratio: f64) -> SolveRequest {
    SolveRequest {
        id: String::new(),
        puzzle: Some(solve_request::Puzzle::Sliding(SlidingPuzzle {
            rows: start.grid().rows() as u32,
            cols: start.grid().cols() as u32,
            start: start.cells().iter().map(|&c| u32::from(c)).collect(),
            target: Vec::new(),
        })),
        quality: Some(Quality { max_ratio }),
        ..SolveRequest::default()
    }
}

/// A random board of `grid` that can reach the standard goal.
pub(crate) fn far_board(grid: Grid, rng: &mut Lcg) -> GridBoard {
    loop {
        let mut cells: Vec<u8> = (0..grid.cells() as u8).collect();
        for i in (1..cells.len()).rev() {
            cells.swap(i, rng.below(i + 1));
        }
        let board = GridBoard::new(grid, &cells).unwrap();
        if board.can_reach(&GridBoard::goal(grid)) {
            return board;
        }
    }
}
