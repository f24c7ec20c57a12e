//! The puzzle families, and the one place they are registered.
//!
//! A family is one module: its validated cases and answers, its [`Puzzle`] impls, the state and
//! tables it keeps between cases ([`Families`](families::Families)), how it reads its part of a v2 `SolveRequest`
//! and writes its `SolveResponse`s, and its cache keys. The services dispatch through this
//! module and name no family: adding one is its proto messages, its module here, its line in
//! [`Families`](families::Families) and in [`solve_case`], and its [`Kind`] (metric labels and flags).
//!
//! [`Puzzle`]: crate::service::puzzle::Puzzle

pub(crate) mod families;
pub(crate) mod sliding;
pub(crate) mod solitaire;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use solver_proto::v2 as pb;
use solver_proto::v2::{solve_request, solve_response};

use crate::config::Kind;
use crate::convert::v2::Common;
use crate::errors::Failure;
use crate::service::Shared;
use crate::service::any::{self, AnyAnswer, AnyCase};

/// Reports the server SERVING when called; false once shutdown began (nothing was reported).
pub(crate) type Serving = Box<dyn FnOnce() -> Pin<Box<dyn Future<Output = bool> + Send>> + Send>;

/// Gets the tables the configuration asks for ready (off the async workers), then calls
/// `serving`. Only the sliding family has tables worth building before SERVING.
pub(crate) fn warm_up(shared: &Arc<Shared>, serving: Serving) {
    sliding::warm_up::spawn(shared, serving);
}

/// Reads a `SolveRequest`: its id, the kind it is counted under (a request whose kind cannot be
/// told is counted as a 3×3 one), and its case. The one place families are registered for
/// `Solve` and `SolveStream`: each arm hands its part of the request to its family.
pub(crate) fn solve_case(
    request: pb::SolveRequest,
    shared: &Shared,
) -> (String, Kind, Result<Box<dyn AnyCase>, Failure>) {
    let common = Common::read(&request);
    let (kind, case) = match &request.puzzle {
        Some(solve_request::Puzzle::Sliding(part)) => {
            any::read::<sliding::Sliding>(part, common, shared)
        }
        Some(solve_request::Puzzle::Solitaire(part)) => {
            any::read::<solitaire::Solitaire>(part, common, shared)
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
pub(crate) fn solve_response(
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
