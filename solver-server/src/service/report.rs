//! What a watched case tells while it runs (`SolveWatch`): its phase, the lower bound proven so
//! far, the best answer found so far and the nodes searched.
//!
//! The case's steps run on scheduler workers and write here between slices; the RPC's task
//! reads the latest [`Snapshot`] whenever it changes. A [`tokio::sync::watch`] channel keeps
//! only the latest value, so a slow reader costs nothing and nothing queues up.

use std::sync::Arc;

use tokio::sync::watch;

/// What a case is doing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum Phase {
    /// Waiting for a share of the CPU (or memory) to start.
    #[default]
    Waiting,
    /// Loading or building the tables its search needs.
    Tables,
    /// Finding a first, bounded answer.
    Bounding,
    /// Searching for the answer asked for.
    Searching,
}

/// The latest state of a watched case.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Snapshot {
    /// What the case is doing.
    pub(crate) phase: Phase,
    /// During [`Phase::Tables`], the fraction of the table work done (0 when unknown).
    pub(crate) tables_done: f64,
    /// The best lower bound on the optimal length proven so far.
    pub(crate) lower_bound: u32,
    /// The shortest valid answer found so far.
    pub(crate) best: Option<Arc<str>>,
    /// Nodes expanded so far, every search of the case together.
    pub(crate) nodes: u64,
}

impl Snapshot {
    /// The best answer's length over the lower bound: at most how far from optimal it is; `None`
    /// without a best answer or a bound.
    pub(crate) fn best_ratio(&self) -> Option<f64> {
        let best = self.best.as_ref()?;
        (self.lower_bound > 0).then(|| best.len() as f64 / f64::from(self.lower_bound))
    }
}

/// The writing end: one per watched case, shared by its steps.
#[derive(Debug)]
pub(crate) struct Report(watch::Sender<Snapshot>);

impl Report {
    /// A report and its reading end, starting in [`Phase::Waiting`].
    pub(crate) fn new() -> (Arc<Self>, watch::Receiver<Snapshot>) {
        let (tx, rx) = watch::channel(Snapshot::default());
        (Arc::new(Self(tx)), rx)
    }

    /// The case is in `phase`; `tables_done` matters during [`Phase::Tables`].
    pub(crate) fn phase(&self, phase: Phase, tables_done: f64) {
        self.0.send_if_modified(|now| {
            let changed = now.phase != phase || now.tables_done != tables_done;
            now.phase = phase;
            now.tables_done = tables_done;
            changed
        });
    }

    /// A search is under way in `phase`, with `lower_bound` proven (a lower one than already
    /// known changes nothing) and `nodes` expanded by the case so far.
    pub(crate) fn searched(&self, phase: Phase, lower_bound: u32, nodes: u64) {
        self.0.send_if_modified(|now| {
            let bound = now.lower_bound.max(lower_bound);
            let changed = now.phase != phase || now.lower_bound != bound || now.nodes != nodes;
            now.phase = phase;
            now.lower_bound = bound;
            now.nodes = nodes;
            changed
        });
    }

    /// `moves` reach the target and the optimum is at least `lower_bound`: kept when shorter
    /// than the best so far.
    pub(crate) fn found(&self, moves: &str, lower_bound: u32) {
        self.0.send_if_modified(|now| {
            let bound = now.lower_bound.max(lower_bound);
            let shorter = now
                .best
                .as_ref()
                .is_none_or(|best| moves.len() < best.len());
            let changed = shorter || bound != now.lower_bound;
            now.lower_bound = bound;
            if shorter {
                now.best = Some(Arc::from(moves));
            }
            changed
        });
    }

    /// The latest state.
    pub(crate) fn latest(&self) -> Snapshot {
        self.0.borrow().clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_only_rise_and_answers_only_shorten() {
        let (report, rx) = Report::new();
        report.searched(Phase::Searching, 40, 10);
        report.searched(Phase::Searching, 38, 20);
        assert_eq!(rx.borrow().lower_bound, 40);
        assert_eq!(rx.borrow().nodes, 20);
        report.found("dddd", 2);
        report.found("dddddd", 2);
        assert_eq!(rx.borrow().best.as_deref(), Some("dddd"));
        report.found("dd", 2);
        assert_eq!(rx.borrow().best.as_deref(), Some("dd"));
        assert_eq!(report.latest().lower_bound, 40);
    }

    #[test]
    fn the_ratio_needs_an_answer_and_a_bound() {
        let (report, _rx) = Report::new();
        assert_eq!(report.latest().best_ratio(), None);
        report.found("dddddd", 4);
        assert_eq!(report.latest().best_ratio(), Some(1.5));
    }

    #[test]
    fn unchanged_phases_wake_no_reader() {
        let (report, mut rx) = Report::new();
        rx.mark_unchanged();
        report.phase(Phase::Waiting, 0.0);
        assert!(!rx.has_changed().unwrap());
        report.phase(Phase::Tables, 0.5);
        assert!(rx.has_changed().unwrap());
    }
}
