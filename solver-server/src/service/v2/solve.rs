//! `Solve` (one case, unary) and `SolveStream` (many, pipelined): the same cases and answers.

use std::sync::Arc;
use std::time::Duration;

use solver_proto::v2 as pb;
use tonic::{Request, Response, Status, Streaming};

use crate::errors::{Failure, StreamEnd};
use crate::metrics::{KindMetrics, Outcome};
use crate::service::Shared;
use crate::service::any::{AnyAnswer, AnyPuzzle};
use crate::service::puzzle::{self, Puzzle};
use crate::service::stream::{self, Edge, Read, ReplyStream};
use crate::service::unary::Call;

/// `SolveStream`'s wire side.
#[derive(Debug)]
struct SolveStream;

impl Edge for SolveStream {
    type Puzzle = AnyPuzzle;
    type Request = pb::SolveRequest;
    type Reply = pb::SolveResponse;
    type Id = String;

    fn read(request: pb::SolveRequest, shared: &Shared) -> Read<Self> {
        crate::puzzles::solve_case(request, shared)
    }

    fn write(
        id: String,
        result: Result<Box<dyn AnyAnswer>, Failure>,
        elapsed: Duration,
    ) -> pb::SolveResponse {
        crate::puzzles::solve_response(id, result, elapsed)
    }

    fn end(end: StreamEnd) -> Status {
        end.v2_status()
    }
}

/// Opens a `SolveStream`.
pub(super) fn stream(
    shared: &Arc<Shared>,
    request: Request<Streaming<pb::SolveRequest>>,
) -> Result<Response<ReplyStream<pb::SolveResponse>>, Status> {
    stream::open::<SolveStream, _>(shared, "v2", request)
}

/// A case counted in flight until answered; one dropped unanswered (the client cancelled) is
/// counted as cancelled.
struct InFlight {
    metrics: KindMetrics,
    call: std::time::Instant,
    answered: bool,
}

impl InFlight {
    fn new(metrics: &KindMetrics, call: std::time::Instant) -> Self {
        metrics.in_flight.inc();
        Self {
            metrics: metrics.clone(),
            call,
            answered: false,
        }
    }

    fn answered(mut self, outcome: Outcome) {
        self.answered = true;
        self.metrics.answered(outcome, self.call.elapsed());
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        if !self.answered {
            self.metrics
                .answered(Outcome::Failed(tonic::Code::Cancelled), self.call.elapsed());
        }
    }
}

/// `Solve`: the case is answered as a stream would answer it; a failure ends the call (with its
/// status and details) instead of an in-band error.
pub(super) async fn unary(
    shared: &Arc<Shared>,
    request: Request<pb::SolveRequest>,
) -> Result<pb::SolveResponse, Failure> {
    let call = Call::begin(shared, &request)?;
    answer(shared, &call, request.into_inner()).await
}

/// Answers one case within `call` (a unary `Solve`, or a `SolveWatch` whose call carries its
/// report).
pub(super) async fn answer(
    shared: &Arc<Shared>,
    call: &Call,
    request: pb::SolveRequest,
) -> Result<pb::SolveResponse, Failure> {
    let (id, kind, case) = crate::puzzles::solve_case(request, shared);
    let counted = InFlight::new(shared.metrics.kind(kind), call.received);
    let result = match case {
        Err(failure) => Err(failure),
        Ok(case) => match AnyPuzzle::prepare(&case, shared) {
            Some(answer) => Ok(answer),
            None => {
                let mut work = AnyPuzzle::begin(case);
                call.run(move |limits, shared, slice| {
                    AnyPuzzle::step(&mut work, limits, shared, slice)
                })
                .await
            }
        },
    };
    counted.answered(puzzle::outcome::<AnyPuzzle>(&result));
    if let Ok(answer) = &result
        && let Some(method) = AnyPuzzle::searched_with(answer)
    {
        shared.metrics.fifteen_searched(method);
    }
    result.map(|answer| crate::puzzles::solve_response(id, Ok(answer), call.received.elapsed()))
}
