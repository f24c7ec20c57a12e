//! The `solver.v2.SolverService`: one module per RPC. `Solve` and `SolveStream` answer cases of
//! every kind through the same [`Puzzle`](crate::service::puzzle::Puzzle)s as v1 (unary through
//! [`Call`](crate::service::unary::Call), streamed through the stream machinery with an
//! [`Edge`](crate::service::stream::Edge)); `SolveWatch` answers one case as `Solve` does, in a
//! call that carries a [`Report`](crate::service::report::Report) whose snapshots it streams
//! ([`watch`]); `Hint`, `Scramble` and `Verify` run their searches
//! through the sliding family's
//! [`Searches`](crate::puzzles::sliding::searches::Searches). Every CPU-bound step runs in slices
//! on the scheduler. `Hint`, `Scramble` and `Verify` are counted per call ([`counted`]), the
//! others per case.

mod solve;
mod watch;

use std::sync::Arc;

use solver_proto::v2 as pb;
use tonic::{Request, Response, Status, Streaming};

use crate::errors::Failure;
use crate::metrics::Rpc;
use crate::service::Shared;
use crate::service::stream::ReplyStream;

/// The `solver.v2.SolverService` implementation.
#[derive(Debug, Clone)]
pub(crate) struct SolverServiceV2 {
    shared: Arc<Shared>,
}

impl SolverServiceV2 {
    /// A service over `shared`.
    pub(crate) fn new(shared: Arc<Shared>) -> Self {
        Self { shared }
    }
}

#[tonic::async_trait]
impl pb::solver_service_server::SolverService for SolverServiceV2 {
    type SolveStreamStream = ReplyStream<pb::SolveResponse>;
    type SolveWatchStream = ReplyStream<pb::SolveWatchResponse>;

    async fn solve(
        &self,
        request: Request<pb::SolveRequest>,
    ) -> Result<Response<pb::SolveResponse>, Status> {
        respond(solve::unary(&self.shared, request).await)
    }

    async fn solve_stream(
        &self,
        request: Request<Streaming<pb::SolveRequest>>,
    ) -> Result<Response<Self::SolveStreamStream>, Status> {
        solve::stream(&self.shared, request)
    }

    async fn solve_watch(
        &self,
        request: Request<pb::SolveWatchRequest>,
    ) -> Result<Response<Self::SolveWatchStream>, Status> {
        watch::open(&self.shared, request)
    }

    async fn hint(
        &self,
        request: Request<pb::HintRequest>,
    ) -> Result<Response<pb::HintResponse>, Status> {
        counted(
            &self.shared,
            Rpc::Hint,
            crate::puzzles::sliding::hint(&self.shared, request),
        )
        .await
    }

    async fn scramble(
        &self,
        request: Request<pb::ScrambleRequest>,
    ) -> Result<Response<pb::ScrambleResponse>, Status> {
        let response = crate::puzzles::sliding::scramble(&self.shared, request);
        counted(&self.shared, Rpc::Scramble, response).await
    }

    async fn verify(
        &self,
        request: Request<pb::VerifyRequest>,
    ) -> Result<Response<pb::VerifyResponse>, Status> {
        counted(
            &self.shared,
            Rpc::Verify,
            crate::puzzles::sliding::verify(&self.shared, request),
        )
        .await
    }
}

/// Runs one call of `rpc`, counting it in the server's metrics (requests by outcome, latency,
/// in flight; a call whose client goes away is dropped here and counted as cancelled), and
/// turns its failure into the call's status.
async fn counted<T>(
    shared: &Shared,
    rpc: Rpc,
    response: impl Future<Output = Result<T, Failure>>,
) -> Result<Response<T>, Status> {
    let call = shared.metrics.rpc(rpc).begin();
    let result = response.await;
    call.finish(result.as_ref().map(|_| ()).map_err(Failure::code));
    respond(result)
}

/// A unary call's response, or its failure as the call's status with its details: the one
/// place the v2 RPCs turn a [`Failure`] into a [`Status`].
fn respond<T>(result: Result<T, Failure>) -> Result<Response<T>, Status> {
    result
        .map(Response::new)
        .map_err(|failure| failure.status())
}
