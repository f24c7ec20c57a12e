//! The load tool's sliding cases: random 3×3 pairs, 15-puzzle boards a short walk from the goal,
//! the hard boards renamed afresh each time, and 4×5 and 5×5 walks. Every case carries what is
//! needed to judge its reply without solving it again: the known optimum of a hard board, or
//! the length of the walk that made an easy one.

use solver_core::tiles::grid::Grid;
use solver_core::tiles::grid_board::GridBoard;
use solver_core::tiles::slide::Slide;
use solver_core::{Board, Board4, Move};

use super::query::{MaxRatio, SlidingQuery};
use crate::family::Query;
use crate::load::cases::{LoadCase, Rng};
use crate::load::hard::Hard;

/// Easy 15-puzzle boards are this many random moves from the goal.
const EASY_WALK: std::ops::RangeInclusive<usize> = 10..=30;

/// The `shapes` class's boards: 4×5 and 5×5, the shapes with pattern databases beyond the
/// 15-puzzle, searched by the any-shape path.
const SHAPES: [(usize, usize); 2] = [(4, 5), (5, 5)];

/// `shapes` boards are this many random moves from the goal: beyond what a search without
/// databases does at once, yet never more than a bounded search takes milliseconds for.
const SHAPES_WALK: std::ops::RangeInclusive<usize> = 20..=60;

/// The quality `shapes` cases ask for: a bounded search, which never waits for the shape's
/// databases to be built (an optimal 5×5 case may wait minutes for them), so a run measures
/// the searches rather than one build.
const SHAPES_RATIO: f64 = 1.5;

/// A random 3×3 start and target of the same parity.
pub(crate) fn eight(rng: &mut Rng) -> LoadCase {
    let target = random_board::<3>(rng);
    let mut start = random_board::<3>(rng);
    if !start.can_reach(&target) {
        start = swap_two_tiles(&start);
    }
    LoadCase {
        query: Query::sliding(&start, &target),
        exact: None,
        // Every 8-puzzle board is within 31 moves of every other of its parity.
        at_most: Some(31),
    }
}

/// A 15-puzzle board a short random walk from the goal.
pub(crate) fn fifteen_easy(rng: &mut Rng) -> LoadCase {
    let steps = EASY_WALK.start() + rng.below(EASY_WALK.end() - EASY_WALK.start() + 1);
    LoadCase {
        query: Query::sliding(&walk(&Board4::goal(), steps, rng), &Board4::goal()),
        exact: None,
        at_most: Some(steps),
    }
}

/// A 4×5 or 5×5 board a random walk from the goal, asked with a ratio (see [`SHAPES_RATIO`]).
/// The walk is the check: whatever the answer's length, the optimum it claims to have proved
/// cannot exceed the walk's.
pub(crate) fn shapes(rng: &mut Rng) -> LoadCase {
    let (rows, cols) = SHAPES[rng.below(SHAPES.len())];
    let goal = GridBoard::goal(Grid::new(rows, cols).expect("a served shape"));
    let steps = SHAPES_WALK.start() + rng.below(SHAPES_WALK.end() - SHAPES_WALK.start() + 1);
    LoadCase {
        query: Query::Sliding(SlidingQuery {
            start: walk(&goal, steps, rng),
            target: goal,
            max_ratio: MaxRatio::new(SHAPES_RATIO).expect("a ratio above 1"),
        }),
        exact: None,
        at_most: Some(steps),
    }
}

/// The hard board `hard`, its tiles renamed afresh.
pub(crate) fn fifteen_hard(hard: &Hard, rng: &mut Rng) -> LoadCase {
    // A fresh renaming of the tiles for both boards: the same search (the server renames the
    // target back to the goal), but a key the cache has not seen.
    let mut names: Vec<u8> = (1..16).collect();
    rng.shuffle(&mut names);
    let rename = |board: &Board4| {
        let cells: Vec<u8> = board
            .cells()
            .iter()
            .map(|&t| if t == 0 { 0 } else { names[usize::from(t) - 1] })
            .collect();
        Board4::from_cells(&cells).expect("a renaming keeps a board valid")
    };
    LoadCase {
        query: Query::sliding(&rename(&hard.board), &rename(&Board4::goal())),
        exact: Some(hard.length),
        at_most: Some(hard.length),
    }
}

/// A uniformly random arrangement of the tiles and the blank.
fn random_board<const W: usize>(rng: &mut Rng) -> Board<W> {
    let mut cells: Vec<u8> = (0..(W * W) as u8).collect();
    rng.shuffle(&mut cells);
    Board::from_cells(&cells).expect("a permutation is a valid board")
}

/// The board with its first two tiles (not the blank) swapped: the other parity.
fn swap_two_tiles<const W: usize>(board: &Board<W>) -> Board<W> {
    let mut cells = board.cells().to_vec();
    let tiles: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] != 0).collect();
    cells.swap(tiles[0], tiles[1]);
    Board::from_cells(&cells).expect("a swap keeps a board valid")
}

/// `steps` random moves from `board`, never undoing the previous one.
fn walk<B: Slide>(board: &B, steps: usize, rng: &mut Rng) -> B {
    let mut board = board.clone();
    let mut last: Option<Move> = None;
    for _ in 0..steps {
        loop {
            let mv = Move::ALL[rng.below(4)];
            if last.is_some_and(|l| undoes(l, mv)) {
                continue;
            }
            if let Some(next) = board.slide(mv) {
                board = next;
                last = Some(mv);
                break;
            }
        }
    }
    board
}

fn undoes(a: Move, b: Move) -> bool {
    matches!(
        (a, b),
        (Move::Up, Move::Down)
            | (Move::Down, Move::Up)
            | (Move::Left, Move::Right)
            | (Move::Right, Move::Left)
    )
}
