//! Boards of any shape: the size-generic IDA* against plain breadth-first search, and against
//! the 3×3 table, on random boards and random targets.

use crate::solvers;
use proptest::prelude::*;
use solver_core::tiles::bfs;
use solver_core::tiles::grid::Grid;
use solver_core::tiles::grid_board::GridBoard;
use solver_core::tiles::grid_ida;
use solver_core::{Board3, Move, Stop, format_moves};

/// A board of `grid` a random walk of `steps` moves away from `from`.
fn walk(from: &GridBoard, steps: &[u8]) -> GridBoard {
    steps.iter().fold(from.clone(), |board, &c| {
        board.apply(Move::ALL[c as usize % 4]).unwrap_or(board)
    })
}

/// A shape small enough for a full breadth-first search of its parity class.
fn small_grid() -> impl Strategy<Value = Grid> {
    prop_oneof![
        Just((2, 2)),
        Just((2, 3)),
        Just((3, 2)),
        Just((2, 4)),
        Just((4, 2)),
        Just((3, 3)),
    ]
    .prop_map(|(rows, cols)| Grid::new(rows, cols).unwrap())
}

/// Any board of `grid` (a shuffle: half of them unsolvable for a given target).
fn any_board(grid: Grid, seed: u64) -> GridBoard {
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any start, any target on shapes of up to 9 cells: unreachable exactly when breadth-first
    /// search does not reach it; otherwise the optimal length and the lexicographically
    /// smallest optimal path, which replays to the target.
    #[test]
    fn small_shapes_match_breadth_first_search(grid in small_grid(), a in any::<u64>(), b in any::<u64>()) {
        let target = any_board(grid, a);
        let start = any_board(grid, b);
        let dist = bfs::distances(target.clone(), u32::MAX);
        let expected = bfs::smallest_path(start.clone(), &dist);
        prop_assert_eq!(start.can_reach(&target), expected.is_some());
        if let Some(expected) = expected {
            let moves = grid_ida::solve(&start, &target, solvers::pruning(), &Stop::never()).unwrap();
            prop_assert_eq!(start.replay(&moves).unwrap(), target);
            prop_assert_eq!(format_moves(&moves), format_moves(&expected));
        }
    }

    /// Larger shapes (2×5, 5×2, 3×4, 4×3, 2×6), boards up to 18 random moves from a random
    /// target: the same answer as breadth-first search within that radius.
    #[test]
    fn larger_shapes_near_any_target_match_breadth_first_search(
        shape in prop_oneof![Just((2, 5)), Just((5, 2)), Just((3, 4)), Just((4, 3)), Just((2, 6))],
        seed in any::<u64>(),
        steps in prop::collection::vec(0u8..4, 0..18),
    ) {
        let grid = Grid::new(shape.0, shape.1).unwrap();
        let target = any_board(grid, seed);
        let start = walk(&target, &steps);
        let dist = bfs::distances(target.clone(), steps.len() as u32);
        let expected = bfs::smallest_path(start.clone(), &dist).expect("within the walk's length");
        let moves = grid_ida::solve(&start, &target, solvers::pruning(), &Stop::never()).unwrap();
        prop_assert_eq!(format_moves(&moves), format_moves(&expected));
    }

    /// The 3×3 shape through the generic search and through the 8-puzzle table: the same answer.
    #[test]
    fn three_by_three_agrees_with_the_table(a in any::<u64>(), b in any::<u64>()) {
        let grid = Grid::new(3, 3).unwrap();
        let start = any_board(grid, a);
        let target = any_board(grid, b);
        let fast_start = Board3::from_cells(start.cells()).unwrap();
        let fast_target = Board3::from_cells(target.cells()).unwrap();
        let fast = solvers::eight().solve(&fast_start, &fast_target);
        prop_assert_eq!(start.can_reach(&target), fast.is_some());
        if let Some(fast) = fast {
            let moves = grid_ida::solve(&start, &target, solvers::pruning(), &Stop::never()).unwrap();
            prop_assert_eq!(format_moves(&moves), format_moves(&fast));
        }
    }
}

/// Korf & Felner's 24-puzzles with their published optimal lengths: every bounded answer
/// replays to the goal, is no shorter than the optimum, and its proven lower bound is no larger.
#[test]
fn bounded_answers_respect_the_published_optima() {
    use solver_core::tiles::bounded;
    let grid = Grid::new(5, 5).unwrap();
    let goal = GridBoard::goal(grid);
    let data = solver_core::benchmarks::KORF24;
    for line in data.lines().filter(|l| !l.starts_with('#')).take(6) {
        let numbers: Vec<u32> = line
            .split_whitespace()
            .map(|n| n.parse().unwrap())
            .collect();
        let optimum = numbers[1] as usize;
        let start = GridBoard::new(grid, &numbers[2..]).unwrap();
        let answer = bounded::solve(&start, &goal, 3.0, &Stop::never()).unwrap();
        assert_eq!(start.replay(&answer.moves).unwrap(), goal);
        assert!(
            answer.moves.len() >= optimum,
            "shorter than the optimum: {line}"
        );
        assert!(
            answer.lower_bound as usize <= optimum,
            "bound above the optimum: {line}"
        );
        assert!(answer.ratio() >= answer.moves.len() as f64 / optimum as f64 - 1e-9);
    }
}
