//! The gRPC services: `solver.v1.Solver` ([`v1`]) and `solver.v2.SolverService` ([`v2`]).
//!
//! Both stand on the same machinery, and name no puzzle family (each is a module of
//! [`puzzles`](crate::puzzles)): a kind's [`Puzzle`](puzzle::Puzzle) answers validated cases with
//! domain answers, and its [`V2Puzzle`](any::V2Puzzle) reads its part of a v2 `SolveRequest` and
//! writes its answers as a `SolveResponse`; [`any`] erases the kinds for the RPCs that take all
//! of them. [`stream`] drives any bidirectional RPC through its [`Edge`](stream::Edge) (its wire
//! side); [`unary`] admits and runs a unary call. All CPU work runs in slices on the scheduler.

pub(crate) mod any;
pub(crate) mod puzzle;
pub(crate) mod report;
pub(crate) mod stream;
pub(crate) mod unary;
mod v1;
mod v2;

use std::sync::Arc;

use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

use crate::cache::Cache;
use crate::config::Config;
use crate::metrics::Metrics;
use crate::scheduler::Scheduler;

pub(crate) use v1::SolverService;
pub(crate) use v2::SolverServiceV2;

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
    /// The memory bounded searches (weighted A*) may hold at once.
    pub(crate) search_memory: Arc<crate::budget::MemoryBudget>,
    /// What each puzzle family keeps between cases: its tables and state.
    pub(crate) families: crate::puzzles::families::Families,
    /// One permit per stream that may be open.
    pub(crate) streams: Arc<Semaphore>,
    /// Fires when shutdown begins: streams stop reading and finish what they have.
    pub(crate) draining: CancellationToken,
    /// Fires when the grace period is over: streams cancel what is left.
    pub(crate) abort: CancellationToken,
}

/// The client a call's work is scheduled for: its bearer token's (with tokens), else its
/// connection's.
pub(crate) fn client_of<T>(request: &tonic::Request<T>) -> crate::scheduler::ClientId {
    use crate::scheduler::ClientId;
    if let Some(slots) = request.extensions().get::<crate::auth::CaseSlots>() {
        return ClientId::Token(Arc::as_ptr(&slots.0) as usize);
    }
    match request.remote_addr() {
        Some(peer) => ClientId::Peer(peer),
        None => ClientId::Alone(0),
    }
}
