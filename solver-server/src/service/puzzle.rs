//! The domain side of a puzzle kind: what the stream and unary machinery need to know to answer
//! a validated case, the answers it produces, and the per-case limits. Nothing here knows a wire
//! message: each RPC's edge ([`Edge`](crate::service::stream::Edge), the v2 handlers, a kind's
//! [`V2Puzzle`](crate::service::any::V2Puzzle)) converts requests into cases and answers into
//! replies once.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use solver_core::{Stop, StopReason, Stopped};

use crate::config::Config;
use crate::errors::{Failure, Proven};
use crate::metrics::Outcome;
use crate::scheduler::{Progress, Slice};
use crate::service::Shared;
use crate::service::report::{Phase, Report};

/// How the stream hands a case to the scheduler.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lane {
    /// One job per case: searches, which may run for seconds in many slices.
    Search,
    /// One job for a batch of ready cases: table look-ups of microseconds each.
    Lookup,
}

/// One puzzle kind (or a choice of kinds): how to answer its validated cases.
pub(crate) trait Puzzle: Send + Sync + 'static {
    /// A validated case.
    type Case: Send + std::fmt::Debug + 'static;
    /// What a case's answer is, before any wire message.
    type Answer: Send + std::fmt::Debug + 'static;
    /// A case being worked on, kept between time slices.
    type Work: Send + 'static;

    /// How the case is handed to the scheduler.
    fn lane(case: &Self::Case) -> Lane;
    /// Answers `case` at once when no search is needed (parity, the cache); `None` leaves it for
    /// the scheduler. By reference, so a boxed case is not moved out and boxed again.
    fn prepare(case: &Self::Case, shared: &Shared) -> Option<Self::Answer>;
    /// Work on a case, not started yet.
    fn begin(case: Self::Case) -> Self::Work;
    /// Works on a case for one time slice (on a worker thread): its answer when done, caching
    /// what it learns; [`Progress::Pending`] when the slice ran out first.
    fn step(
        work: &mut Self::Work,
        limits: &CaseLimits,
        shared: &Shared,
        slice: &Slice<'_>,
    ) -> Progress<Result<Self::Answer, Failure>>;
    /// How an answer ended, for metrics.
    fn outcome(answer: &Self::Answer) -> Outcome;
    /// The heuristic whose search produced the answer, where that is worth counting (15-puzzle
    /// answers found by search).
    fn searched_with(_answer: &Self::Answer) -> Option<&'static str> {
        None
    }
}

/// How a result ended, for metrics.
pub(crate) fn outcome<P: Puzzle>(result: &Result<P::Answer, Failure>) -> Outcome {
    match result {
        Ok(answer) => P::outcome(answer),
        Err(failure) => Outcome::Failed(failure.code()),
    }
}

/// The work an answer cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stats {
    /// Nodes expanded (0 without a search).
    pub(crate) nodes: u64,
    /// Search iterations (0 without a search).
    pub(crate) iterations: u32,
    /// How the answer was found: `table`, `cache`, `parity`, `pdb-663`, ...
    pub(crate) method: &'static str,
}

impl Stats {
    /// An answer found without a search, by `method`.
    pub(crate) fn no_search(method: &'static str) -> Self {
        Self::searched(solver_core::SearchStats::default(), method)
    }

    /// An answer found by a search that did `stats` work.
    pub(crate) fn searched(stats: solver_core::SearchStats, method: &'static str) -> Self {
        Self {
            nodes: stats.nodes,
            iterations: stats.iterations,
            method,
        }
    }
}

/// The limits every case of one stream (or one unary call) runs under.
#[derive(Debug, Clone)]
pub(crate) struct CaseLimits {
    /// Raised when the stream or call ends early (client gone, deadline, shutdown): searches
    /// stop.
    pub(crate) cancelled: Arc<AtomicBool>,
    /// The call's deadline from `grpc-timeout`, if it has one.
    pub(crate) call_deadline: Option<Instant>,
    /// The server's configuration (time limit, node budgets).
    pub(crate) config: Arc<Config>,
    /// Where a watched case (`SolveWatch`) tells how it is going; `None` for the others, which
    /// also skip the anytime answers only a watcher would see.
    pub(crate) report: Option<Arc<Report>>,
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

    /// The stop check of a further search of the same case, after searches that expanded
    /// `used` nodes: the budget covers them all (so a later search may get 0 nodes, and stops
    /// at its first).
    pub(crate) fn after(&self, used: u64) -> Stop {
        match self.node_budget {
            Some(budget) => self
                .stop
                .clone()
                .with_node_budget(budget.saturating_sub(used)),
            None => self.stop.clone(),
        }
    }
}

impl CaseLimits {
    /// Tells a watched case's `phase` (nothing for an unwatched one); `tables_done` matters
    /// during [`Phase::Tables`].
    pub(crate) fn phase(&self, phase: Phase, tables_done: f64) {
        if let Some(report) = &self.report {
            report.phase(phase, tables_done);
        }
    }

    /// Whether the stream has been cancelled.
    pub(crate) fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }

    /// The stop check for a case starting now, with the request's node budget (0 = default).
    pub(crate) fn stop(&self, requested_nodes: u64) -> CaseStop {
        let case_deadline = Instant::now() + self.config.cases.timeout;
        let deadline = self
            .call_deadline
            .map_or(case_deadline, |call| call.min(case_deadline));
        let node_budget = self.config.cases.node_budget_for(requested_nodes);
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

    /// Explains why a case's search stopped; `before` nodes were expanded by earlier searches of
    /// the same case under the same stop.
    pub(crate) fn failure(&self, case: &CaseStop, stopped: Stopped, before: u64) -> Failure {
        let nodes = before + stopped.stats.nodes;
        let deadline_passed = self.call_deadline.is_some_and(|d| Instant::now() >= d);
        match stopped.reason {
            // The call's end raises the flag too: when its deadline has passed, that is why.
            StopReason::Cancelled if deadline_passed => Failure::Deadline {
                nodes,
                proven: Proven::default(),
            },
            StopReason::Cancelled => Failure::Cancelled,
            StopReason::NodeBudget => Failure::NodeBudget {
                budget: case.node_budget.unwrap_or(0),
                nodes,
                proven: Proven::default(),
            },
            StopReason::Deadline => match self.call_deadline {
                Some(call) if call <= case.case_deadline => Failure::Deadline {
                    nodes,
                    proven: Proven::default(),
                },
                _ => Failure::TimeLimit {
                    limit: self.config.cases.timeout,
                    nodes,
                    proven: Proven::default(),
                },
            },
        }
    }
}
