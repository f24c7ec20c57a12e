//! The sliding-tile family: boards of every shape from 2×2 to 8×8, and the tables they share.
//!
//! Which method answers a board is the core's choice
//! ([`Solver`](solver_core::tiles::solver::Solver)): the server only lays the cases out for its
//! scheduler (instant cases batched, every other one a search job, or a bounded search when a
//! ratio is asked, [`solve`]), and [`begin`] gets what the solver lacks from
//! [`Tables`](tables::Tables), the one owner of every table the family uses. [`searches`] runs
//! the optimal searches of `Hint`, `Scramble` and `Verify` through the same solver; [`case`] and
//! [`wire`] read the family's part of a request and write its responses; [`warm_up`] is its
//! policy for getting tables ready before SERVING.

mod begin;
pub(crate) mod case;
mod grids;
mod hint;
mod progress;
mod provision;
mod remembered;
mod scramble;
pub(crate) mod searches;
pub(crate) mod solve;
pub(crate) mod tables;
mod verify;
pub(crate) mod warm_up;
pub(crate) mod wire;

use std::sync::Arc;

pub(crate) use case::SlidingCase;
pub(crate) use hint::hint;
pub(crate) use scramble::scramble;
pub(crate) use solve::Sliding;
pub(crate) use verify::verify;
pub use warm_up::tables_shape;

use crate::config::Kind;
use crate::service::puzzle::Stats;

/// The reason given for an unsolvable sliding case (v1 and v2).
pub(crate) const UNSOLVABLE: &str = "the start and the target have different permutation \
                                     parities (counting the blank's row and column), and no move \
                                     changes that parity";

/// The answer to a sliding-tile case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SlidingAnswer {
    /// Moves that reach the target.
    Solved {
        /// The move letters: optimal and lexicographically smallest when `lower_bound` equals
        /// their length.
        moves: Arc<str>,
        /// A proven lower bound on the optimal length.
        lower_bound: u32,
        /// Taken from the cache.
        cached: bool,
        /// The work it cost.
        stats: Stats,
        /// The kind of its shape.
        kind: Kind,
    },
    /// The start cannot reach the target (parity); nothing was searched.
    Unsolvable,
}
