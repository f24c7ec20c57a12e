//! The client's cases on the wire: the `solver.v2` request for a query and the checked answer in
//! its response. What differs by family of puzzles is that family's [`crate::family::Family`].
//!
//! Replies are checked against their query before anything is printed: sliding-tile moves are
//! replayed and must reach the target, Solitaire steps are replayed and must reach the end within
//! the limit, and "unsolvable" must agree with the parity rule. A reply that fails a check is
//! that case's [`ReplyError`], never printed as an answer.

use solver_proto::v2 as pb;
use solver_proto::v2::solve_response::Outcome;

use crate::family::{Answer, Query};
use crate::reply::{ReplyError, service_error};

/// The `SolveRequest` for `query`, with `id` (the case's index) to match its response by.
pub(crate) fn request(id: usize, query: &Query) -> pb::SolveRequest {
    let (puzzle, quality) = query.request();
    pb::SolveRequest {
        id: id.to_string(),
        puzzle: Some(puzzle),
        quality,
        ..pb::SolveRequest::default()
    }
}

/// The checked answer to `query` in `response`, or why there is none.
pub(crate) fn answer(query: &Query, response: pb::SolveResponse) -> Result<Answer, ReplyError> {
    match response.outcome {
        None => Err(ReplyError::NoOutcome),
        Some(Outcome::Error(status)) => Err(service_error(&status)),
        Some(outcome) => query.answer(outcome),
    }
}
