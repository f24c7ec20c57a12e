//! The gRPC services: `solver.v1.Solver` ([`v1`]) and `solver.v2.SolverService` ([`v2`]).
//!
//! Both stand on the same machinery. A puzzle kind is one module ([`sliding`], [`grid`] for other
//! shapes, [`solitaire`]): its [`Puzzle`](puzzle::Puzzle) answers validated cases with domain
//! answers, and its [`V2Puzzle`](any::V2Puzzle) reads its part of a v2 `SolveRequest` and writes
//! its answers as a `SolveResponse`; [`any`] erases the kinds for the RPCs that take all of them.
//! [`stream`] drives any bidirectional RPC through its [`Edge`](stream::Edge) (its wire side);
//! [`unary`] admits and runs a unary call; [`searches`] runs the several searches of one call.
//! All CPU work runs in slices on the scheduler. Wire messages are read and written in
//! [`convert`](crate::convert), but for each kind's own part of v2's `Solve` messages.

pub(crate) mod any;
pub(crate) mod grid;
pub(crate) mod puzzle;
mod searches;
pub(crate) mod sliding;
pub(crate) mod solitaire;
pub(crate) mod stream;
mod unary;
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
    /// Solitaire searches running in slices with memory of their own (at most
    /// [`solitaire::MAX_LONG`]).
    pub(crate) long_solitaire: Arc<std::sync::atomic::AtomicUsize>,
    /// The memory bounded searches (weighted A*) may hold at once.
    pub(crate) search_memory: Arc<crate::budget::MemoryBudget>,
    /// Set while a 15-puzzle case's missing tables are being built (one build at a time).
    pub(crate) fifteen_building: Arc<std::sync::atomic::AtomicBool>,
    /// The 8- and 15-puzzle solvers and their tables.
    pub(crate) engine: Arc<crate::engine::Engine>,
    /// The tables of the other sliding shapes (complete tables, pattern databases).
    pub(crate) grids: Arc<crate::grids::Grids>,
    /// Where pattern databases are loaded from and stored.
    pub(crate) data: solver_store::Loader,
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
