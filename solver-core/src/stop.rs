//! The cooperative stop check every long search polls.
//!
//! The core has no async runtime, so cancellation is a plain check: a shared flag that another
//! thread may raise, a wall-clock deadline and a budget of expanded nodes. Searches call
//! [`Stop::check`] every few thousand nodes, so a raised flag takes effect within microseconds.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// How often (in expanded nodes) searches poll their [`Stop`] at most: about 0.1–0.2 ms of
/// IDA*, so a cancel, a deadline or the end of a time slice takes effect within that.
pub const POLL_INTERVAL: u64 = 1024;

/// Conditions under which a search gives up.
///
/// ```
/// use solver_core::{Stop, StopReason};
/// let stop = Stop::never().with_node_budget(10);
/// assert_eq!(stop.check(5), None);
/// assert_eq!(stop.check(11), Some(StopReason::NodeBudget));
/// ```
#[derive(Debug, Clone, Default)]
pub struct Stop {
    flag: Option<Arc<AtomicBool>>,
    deadline: Option<Instant>,
    node_budget: Option<u64>,
}

impl Stop {
    /// A check that never fires.
    #[must_use]
    pub fn never() -> Self {
        Self::default()
    }

    /// Stops once `flag` is set (by another thread, e.g. when the caller cancels).
    #[must_use]
    pub fn with_flag(mut self, flag: Arc<AtomicBool>) -> Self {
        self.flag = Some(flag);
        self
    }

    /// Stops once the clock passes `deadline`.
    #[must_use]
    pub fn with_deadline(mut self, deadline: Instant) -> Self {
        self.deadline = Some(deadline);
        self
    }

    /// Stops once more than `nodes` nodes have been expanded.
    #[must_use]
    pub fn with_node_budget(mut self, nodes: u64) -> Self {
        self.node_budget = Some(nodes);
        self
    }

    /// The same check for a search that goes on after others of the same work expanded `used`
    /// nodes: the node budget covers them all.
    #[must_use]
    pub fn after(&self, used: u64) -> Self {
        Self {
            node_budget: self.node_budget.map(|budget| budget.saturating_sub(used)),
            ..self.clone()
        }
    }

    /// The node count at which a search that has expanded `nodes` should poll next: one
    /// [`POLL_INTERVAL`] on, or just past the node budget, so that a budget is exact.
    #[must_use]
    pub fn next_poll(&self, nodes: u64) -> u64 {
        let regular = nodes.saturating_add(POLL_INTERVAL);
        match self.node_budget {
            Some(budget) if budget >= nodes => regular.min(budget + 1),
            _ => regular,
        }
    }

    /// Returns why the search must stop after expanding `nodes` nodes, if it must.
    #[must_use]
    pub fn check(&self, nodes: u64) -> Option<StopReason> {
        if self
            .flag
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            return Some(StopReason::Cancelled);
        }
        if self.node_budget.is_some_and(|budget| nodes > budget) {
            return Some(StopReason::NodeBudget);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some(StopReason::Deadline);
        }
        None
    }
}

/// Why a search stopped before it had an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StopReason {
    /// The stop flag was raised (the caller cancelled or went away).
    Cancelled,
    /// The deadline passed.
    Deadline,
    /// The node budget was used up.
    NodeBudget,
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StopReason::Cancelled => "cancelled",
            StopReason::Deadline => "deadline exceeded",
            StopReason::NodeBudget => "node budget exhausted",
        })
    }
}

/// Work done by a search, reported with answers and with stops alike.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Nodes expanded (children generated from them).
    pub nodes: u64,
    /// Bound iterations of IDA*, or BFS layers.
    pub iterations: u32,
}

/// A search that ended without an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("search stopped ({reason}) after {} nodes", stats.nodes)]
pub struct Stopped {
    /// What made it stop.
    pub reason: StopReason,
    /// The work done until then.
    pub stats: SearchStats,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn flag_wins_over_everything() {
        let flag = Arc::new(AtomicBool::new(false));
        let stop = Stop::never()
            .with_flag(Arc::clone(&flag))
            .with_node_budget(100);
        assert_eq!(stop.check(1), None);
        flag.store(true, Ordering::Relaxed);
        assert_eq!(stop.check(1), Some(StopReason::Cancelled));
    }

    #[test]
    fn deadline_fires() {
        let past = Instant::now()
            .checked_sub(Duration::from_millis(1))
            .unwrap();
        assert_eq!(
            Stop::never().with_deadline(past).check(0),
            Some(StopReason::Deadline)
        );
        let future = Instant::now() + Duration::from_secs(3600);
        assert_eq!(Stop::never().with_deadline(future).check(0), None);
    }

    #[test]
    fn budgets_are_polled_exactly() {
        let stop = Stop::never().with_node_budget(10);
        assert_eq!(stop.next_poll(0), 11);
        assert_eq!(stop.check(11), Some(StopReason::NodeBudget));
        assert_eq!(stop.next_poll(11), 11 + POLL_INTERVAL);
        assert_eq!(Stop::never().next_poll(5), 5 + POLL_INTERVAL);
    }

    #[test]
    fn never_never_fires() {
        assert_eq!(Stop::never().check(u64::MAX), None);
    }
}
