//! The one place puzzle kinds are registered for `Solve` and `SolveStream`: a request's part
//! goes to its kind's [`V2Puzzle`](crate::service::any::V2Puzzle), and an answer of any kind
//! becomes a `SolveResponse`. The wire helpers (`convert::v2`) name no kind.

use std::time::Duration;

use solver_proto::v2 as pb;
use solver_proto::v2::{solve_request, solve_response};

use crate::config::Kind;
use crate::convert::v2::{Common, Shape, shape};
use crate::errors::Failure;
use crate::service::Shared;
use crate::service::any::{self, AnyAnswer, AnyCase};
use crate::service::grid::Sliding;
use crate::service::sliding::{Eight, Fifteen};
use crate::service::solitaire::Solitaire;

/// Reads a `SolveRequest`: its id, the kind it is counted under (a request whose kind cannot be
/// told is counted as a 3×3 one), and its case. The one place kinds are registered for `Solve`
/// and `SolveStream`: each arm hands a part of the request to its kind's
/// [`V2Puzzle`](crate::service::any::V2Puzzle).
pub(super) fn solve_case(
    request: pb::SolveRequest,
    shared: &Shared,
) -> (String, Kind, Result<Box<dyn AnyCase>, Failure>) {
    let common = Common::read(&request);
    let (kind, case) = match &request.puzzle {
        Some(solve_request::Puzzle::Sliding(part)) => match shape(part.rows, part.cols) {
            Ok(Shape::Eight) => any::read::<Eight>(part, common, shared),
            Ok(Shape::Fifteen) => any::read::<Fifteen>(part, common, shared),
            Ok(Shape::Other(_)) => any::read::<Sliding>(part, common, shared),
            Err(failure) => (
                Kind::Eight,
                common.and_then(|_| Err(failure.within("sliding"))),
            ),
        },
        Some(solve_request::Puzzle::Solitaire(part)) => {
            any::read::<Solitaire>(part, common, shared)
        }
        None => (
            Kind::Eight,
            common.and_then(|_| {
                Err(Failure::invalid(
                    "puzzle",
                    "no puzzle is set: set exactly one of `sliding` and `solitaire`",
                ))
            }),
        ),
    };
    (request.id, kind, case)
}

/// The response to a case answered `elapsed` after it was read. A failure is the in-band
/// `error` (`SolveStream`; a unary call ends with [`Failure::status`] instead).
pub(super) fn solve_response(
    id: String,
    result: Result<Box<dyn AnyAnswer>, Failure>,
    elapsed: Duration,
) -> pb::SolveResponse {
    let response = match result {
        Ok(answer) => answer.response(elapsed),
        Err(failure) => pb::SolveResponse {
            outcome: Some(solve_response::Outcome::Error(failure.rpc_status())),
            ..pb::SolveResponse::default()
        },
    };
    pb::SolveResponse { id, ..response }
}
