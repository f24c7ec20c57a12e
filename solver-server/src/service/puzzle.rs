//! What the stream machinery needs to know about a puzzle kind, and the per-case limits.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use solver_core::{Stop, StopReason, Stopped};

use crate::config::{Config, Kind};
use crate::errors::CaseFailure;
use crate::metrics::Outcome;
use crate::scheduler::{Progress, Slice};
use crate::service::Shared;

/// A request either answered on the spot or left for a search.
#[derive(Debug)]
pub(crate) enum Prepared<P: Puzzle> {
    /// Answered without a search: bad input, parity, a cache hit.
    Answered(P::Reply),
    /// Needs CPU time from the scheduler.
    Search(P::Case),
}

/// How the stream hands a kind's cases to the scheduler.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lane {
    /// One job per case: searches, which may run for seconds in many slices.
    Search,
    /// One job for a batch of ready cases: table look-ups of microseconds each.
    Lookup,
}

/// One RPC's puzzle: how to read its requests, answer them and shape its replies.
pub(crate) trait Puzzle: Send + Sync + 'static {
    /// The kind, for metrics and logs.
    const KIND: Kind;
    /// `Lookup` kinds are solved in batches of ready cases; `Search` kinds one case per job.
    const LANE: Lane;
    /// The request message.
    type Request: Send + 'static;
    /// The reply message.
    type Reply: Send + std::fmt::Debug + 'static;
    /// A validated case.
    type Case: Send + std::fmt::Debug + 'static;
    /// A case being worked on, kept between time slices.
    type Work: Send + 'static;

    /// Validates `request` and answers it at once when no search is needed.
    fn prepare(request: Self::Request, shared: &Shared) -> Prepared<Self>
    where
        Self: Sized;
    /// The `id` of a case.
    fn case_id(case: &Self::Case) -> u64;
    /// Work on a case, not started yet.
    fn begin(case: Self::Case) -> Self::Work;
    /// Works on a case for one time slice (on a worker thread): its reply when done, caching
    /// what it learns; [`Progress::Pending`] when the slice ran out first.
    fn step(
        work: &mut Self::Work,
        limits: &CaseLimits,
        shared: &Shared,
        slice: &Slice<'_>,
    ) -> Progress<Self::Reply>;
    /// The reply for a case that got no answer.
    fn failed(failure: CaseFailure) -> Self::Reply;
    /// How a reply ended, for metrics.
    fn outcome(reply: &Self::Reply) -> Outcome;
    /// The heuristic whose search produced the reply, where that is worth counting (15-puzzle
    /// answers found by search).
    fn searched_with(_reply: &Self::Reply) -> Option<&str> {
        None
    }
}

/// The limits every case of one stream runs under.
#[derive(Debug, Clone)]
pub(crate) struct CaseLimits {
    /// Raised when the stream ends early (client gone, deadline, shutdown): searches stop.
    pub(crate) cancelled: Arc<AtomicBool>,
    /// The call's deadline from `grpc-timeout`, if it has one.
    pub(crate) call_deadline: Option<Instant>,
    /// The server's configuration (time limit, node budgets).
    pub(crate) config: Arc<Config>,
}

/// A case's [`Stop`] and what it was built from, to explain a stop afterwards.
#[derive(Debug)]
pub(crate) struct CaseStop {
    /// What the search polls.
    pub(crate) stop: Stop,
    node_budget: Option<u64>,
    case_deadline: Instant,
}

impl CaseStop {
    /// The node budget that applies to the case, if any.
    pub(crate) fn node_budget(&self) -> Option<u64> {
        self.node_budget
    }
}

impl CaseLimits {
    /// Whether the stream has been cancelled.
    pub(crate) fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }

    /// The stop check for a case starting now, with the request's node budget (0 = default).
    pub(crate) fn stop(&self, requested_nodes: u64) -> CaseStop {
        let case_deadline = Instant::now() + self.config.case_timeout;
        let deadline = self
            .call_deadline
            .map_or(case_deadline, |call| call.min(case_deadline));
        let node_budget = self.config.node_budget_for(requested_nodes);
        let mut stop = Stop::never()
            .with_flag(Arc::clone(&self.cancelled))
            .with_deadline(deadline);
        if let Some(nodes) = node_budget {
            stop = stop.with_node_budget(nodes);
        }
        CaseStop {
            stop,
            node_budget,
            case_deadline,
        }
    }

    /// Explains why case `id`'s search stopped.
    pub(crate) fn failure(&self, id: u64, case: &CaseStop, stopped: Stopped) -> CaseFailure {
        let nodes = stopped.stats.nodes;
        match stopped.reason {
            StopReason::Cancelled => CaseFailure::Cancelled { id },
            StopReason::NodeBudget => CaseFailure::NodeBudget {
                id,
                budget: case.node_budget.unwrap_or(0),
                nodes,
            },
            StopReason::Deadline => match self.call_deadline {
                Some(call) if call <= case.case_deadline => CaseFailure::Deadline { id, nodes },
                _ => CaseFailure::TimeLimit {
                    id,
                    limit: self.config.case_timeout,
                    nodes,
                },
            },
        }
    }
}
