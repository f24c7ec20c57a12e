//! A sliding question and the service's answer to it, once checked; and the server tables a
//! board's shape needs.

use solver_core::Move;
use solver_core::tiles::grid::Grid;
use solver_core::tiles::grid_board::GridBoard;

use crate::embedded::Tables;

/// A sliding board, its target (same shape) and how good an answer must be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SlidingQuery {
    /// The start board.
    pub(crate) start: GridBoard,
    /// The target (the standard goal for most judges and unless `--target`).
    pub(crate) target: GridBoard,
    /// The longest answer accepted, as a multiple of the optimum (1: optimal).
    pub(crate) max_ratio: MaxRatio,
}

/// `--max-ratio`: a finite number of at least 1, compared by value (so queries stay `Eq`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct MaxRatio(f64);

impl MaxRatio {
    /// An optimal answer.
    pub(crate) const OPTIMAL: Self = Self(1.0);

    /// `ratio`, if it is a finite number of at least 1.
    pub(crate) fn new(ratio: f64) -> Option<Self> {
        (ratio.is_finite() && ratio >= 1.0).then_some(Self(ratio))
    }

    /// The ratio.
    pub(crate) fn get(self) -> f64 {
        self.0
    }
}

impl PartialEq for MaxRatio {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

impl Eq for MaxRatio {}

/// The service's answer to a [`SlidingQuery`], already checked against it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SlidingAnswer {
    /// A solution (replayed by the client: it reaches the target), optimal.
    Moves(Vec<Move>),
    /// A solution that reaches the target but may be longer than the optimum, which the service
    /// proved to be at least `lower_bound` (only asked for with `--max-ratio`).
    Bounded {
        /// The moves.
        moves: Vec<Move>,
        /// A proven lower bound on the optimal length, below `moves.len()`.
        lower_bound: u32,
    },
    /// The target cannot be reached.
    Unsolvable,
}

impl SlidingAnswer {
    /// How many moves the answer takes; `None`: unsolvable.
    pub(crate) fn length(&self) -> Option<usize> {
        match self {
            SlidingAnswer::Moves(moves) | SlidingAnswer::Bounded { moves, .. } => Some(moves.len()),
            SlidingAnswer::Unsolvable => None,
        }
    }
}

/// The tables a server gets ready for boards of `grid`: the 8-puzzle's table, the 15-puzzle's
/// databases, or those of any other shape (built on its first case).
pub(crate) fn tables(grid: Grid) -> Tables {
    match grid {
        Grid::EIGHT => Tables::Eight,
        Grid::FIFTEEN => Tables::Fifteen,
        _ => Tables::OtherShape,
    }
}
