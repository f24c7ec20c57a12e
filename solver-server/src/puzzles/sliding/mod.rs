//! The sliding-tile family: boards of every shape from 2×2 to 8×8, and the tables they share.
//!
//! Which method answers a board is the core's choice
//! ([`Solver`](solver_core::tiles::solver::Solver)): the server only lays the cases out for its
//! scheduler (3×3 boards are instant look-ups, batched, [`square`]; 4×4 boards one search job per
//! case, [`square`]; every other shape too, or a bounded search when a ratio is asked, [`grid`]),
//! and [`begin`] gets what the solver lacks from [`Tables`](tables::Tables), the one owner of every
//! table the family uses. [`searches`] runs the optimal searches of `Hint`, `Scramble` and
//! `Verify` through the same solver; [`wire`] reads the family's part of a v2 request and writes
//! its responses; [`warm_up`] is its policy for getting tables ready before SERVING.

mod begin;
mod case;
pub(crate) mod grid;
mod grids;
mod hint;
mod progress;
mod provision;
mod remembered;
mod scramble;
pub(crate) mod searches;
pub(crate) mod square;
pub(crate) mod tables;
mod verify;
pub(crate) mod warm_up;
pub(crate) mod wire;

use std::sync::Arc;

use solver_proto::v2 as pb;

pub(crate) use case::{GridCase, SlidingCase, boards};
pub(crate) use hint::hint;
pub(crate) use scramble::scramble;
pub(crate) use square::{Eight, Fifteen};
pub(crate) use verify::verify;
pub use warm_up::tables_shape;

use crate::config::Kind;
use crate::convert::v2::Common;
use crate::errors::Failure;
use crate::service::Shared;
use crate::service::any::{self, AnyCase};
use crate::service::puzzle::Stats;
use wire::Shape;

/// The reason given for an unsolvable sliding case (v1 and v2).
pub(crate) const UNSOLVABLE: &str = "the start and the target have different permutation \
                                     parities (counting the blank's row and column), and no move \
                                     changes that parity";

/// The answer to a sliding-tile case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SlidingAnswer {
    /// The optimal, lexicographically smallest moves.
    Solved {
        /// The move letters.
        moves: Arc<str>,
        /// Taken from the cache.
        cached: bool,
        /// The work it cost.
        stats: Stats,
    },
    /// The start cannot reach the target (parity); nothing was searched.
    Unsolvable,
}

/// Reads the sliding part of a `SolveRequest`, by shape: the kind it is counted under (a shape
/// out of range is counted as a 3×3 one) and its case.
pub(crate) fn read(
    part: &pb::SlidingPuzzle,
    common: Result<Common, Failure>,
    shared: &Shared,
) -> (Kind, Result<Box<dyn AnyCase>, Failure>) {
    match wire::shape(part.rows, part.cols) {
        Ok(Shape::Eight) => any::read::<square::Eight>(part, common, shared),
        Ok(Shape::Fifteen) => any::read::<square::Fifteen>(part, common, shared),
        Ok(Shape::Other(_)) => any::read::<grid::AnyShape>(part, common, shared),
        Err(failure) => (
            Kind::Eight,
            common.and_then(|_| Err(failure.within("sliding"))),
        ),
    }
}
