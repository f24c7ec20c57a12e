//! The cases of a run: validated queries read from the input, and the answers that come back.

use solver_core::Move;
use solver_core::solitaire::{Position, Step};
use solver_core::tiles::grid_board::GridBoard;

use crate::read_error::ReadError;

/// One validated question for the service, parsed once at the edge. What a kind of puzzle does
/// with its query (the request, the checks of the reply, the answer shown to a person) is its
/// module in [`crate::puzzle`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Query {
    /// A sliding board of any shape from 2×2 to 8×8 (the 8- and 15-puzzle included).
    Sliding(Sliding),
    /// Two Solitaire positions and the move limit.
    Solitaire(Pair),
}

impl Query {
    /// An optimal answer from `start` to `target` (of the same shape) on a sliding board.
    pub(crate) fn sliding(start: impl Into<GridBoard>, target: impl Into<GridBoard>) -> Self {
        Self::Sliding(Sliding {
            start: start.into(),
            target: target.into(),
            max_ratio: MaxRatio::OPTIMAL,
        })
    }
}

/// A sliding board, its target (same shape) and how good an answer must be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Sliding {
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

/// One Solitaire question: from `start`, reach `end` within `max_moves`?
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Pair {
    /// The start position.
    pub(crate) start: Position,
    /// The end position.
    pub(crate) end: Position,
    /// The move limit.
    pub(crate) max_moves: u32,
}

/// One case of the input, numbered as the judge numbers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Case {
    /// 1-based case number.
    pub(crate) number: usize,
    /// 1-based line where the case starts.
    pub(crate) line: usize,
    /// The query, or what is wrong with the case's text.
    pub(crate) query: Result<Query, ReadError>,
}

/// Everything read from one input.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Input {
    /// The cases in input order, good and bad.
    pub(crate) cases: Vec<Case>,
    /// Problems outside any case (a bad header, text after the last case), with their lines.
    pub(crate) problems: Vec<(usize, ReadError)>,
}

impl Input {
    /// Adds case number `cases.len() + 1`.
    pub(crate) fn push(&mut self, line: usize, query: Result<Query, ReadError>) {
        let number = self.cases.len() + 1;
        self.cases.push(Case {
            number,
            line,
            query,
        });
    }
}

/// The service's answer to one query, already checked against the query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Answer {
    /// A sliding-tile solution (replayed by the client: it reaches the target), optimal.
    Moves(Vec<Move>),
    /// A sliding-tile solution that reaches the target but may be longer than the optimum, which
    /// the service proved to be at least `lower_bound` (only asked for with `--max-ratio`).
    Bounded {
        /// The moves.
        moves: Vec<Move>,
        /// A proven lower bound on the optimal length, below `moves.len()`.
        lower_bound: u32,
    },
    /// The sliding-tile target cannot be reached.
    Unsolvable,
    /// A Solitaire end reachable in these moves (replayed by the client: they reach the end).
    Reachable(Vec<Step>),
    /// The Solitaire end is not reachable within the limit.
    Unreachable,
}
