//! The `solver.v1.Solver` service: one bidirectional RPC per puzzle kind, all driven by the same
//! stream machinery ([`stream`]) over a per-kind [`Puzzle`](puzzle::Puzzle).

mod puzzle;
mod sliding;
mod solitaire;
mod stream;

use std::sync::Arc;

use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;
use tonic::{Request, Response, Status, Streaming};

use crate::cache::Cache;
use crate::config::Config;
use crate::metrics::Metrics;
use crate::pb;
use crate::scheduler::Scheduler;

pub(crate) use stream::ReplyStream;

/// State shared by every stream of one server.
#[derive(Debug)]
pub(crate) struct Shared {
    /// The configuration.
    pub(crate) config: Arc<Config>,
    /// Solved states.
    pub(crate) cache: Cache,
    /// The server's metrics.
    pub(crate) metrics: Arc<Metrics>,
    /// The one scheduler of CPU work.
    pub(crate) scheduler: Arc<Scheduler>,
    /// Solitaire searches running in slices with memory of their own (at most
    /// [`solitaire::MAX_LONG`]).
    pub(crate) long_solitaire: Arc<std::sync::atomic::AtomicUsize>,
    /// Set while a 15-puzzle case's missing tables are being built (one build at a time).
    pub(crate) fifteen_building: Arc<std::sync::atomic::AtomicBool>,
    /// Where pattern databases are loaded from and stored.
    pub(crate) data: crate::data::DataDir,
    /// One permit per stream that may be open.
    pub(crate) streams: Arc<Semaphore>,
    /// Fires when shutdown begins: streams stop reading and finish what they have.
    pub(crate) draining: CancellationToken,
    /// Fires when the grace period is over: streams cancel what is left.
    pub(crate) abort: CancellationToken,
}

/// The gRPC service implementation.
#[derive(Debug, Clone)]
pub(crate) struct SolverService {
    shared: Arc<Shared>,
}

impl SolverService {
    /// A service over `shared`.
    pub(crate) fn new(shared: Arc<Shared>) -> Self {
        Self { shared }
    }
}

#[tonic::async_trait]
impl pb::solver_server::Solver for SolverService {
    type SolveEightStream = ReplyStream<pb::SlidingReply>;
    type SolveFifteenStream = ReplyStream<pb::SlidingReply>;
    type SolveSolitaireStream = ReplyStream<pb::SolitaireReply>;

    async fn solve_eight(
        &self,
        request: Request<Streaming<pb::SlidingRequest>>,
    ) -> Result<Response<Self::SolveEightStream>, Status> {
        stream::open::<sliding::Eight, _>(&self.shared, request)
    }

    async fn solve_fifteen(
        &self,
        request: Request<Streaming<pb::SlidingRequest>>,
    ) -> Result<Response<Self::SolveFifteenStream>, Status> {
        stream::open::<sliding::Fifteen, _>(&self.shared, request)
    }

    async fn solve_solitaire(
        &self,
        request: Request<Streaming<pb::SolitaireRequest>>,
    ) -> Result<Response<Self::SolveSolitaireStream>, Status> {
        stream::open::<solitaire::Solitaire, _>(&self.shared, request)
    }
}
