//! The 8- and 15-puzzle solvers: the [`Engine`] that owns their tables (warm-up, the 3×3
//! look-up, the 4×4 searches in slices).

use solver_core::fifteen::{Fifteen, SlicedSearch};
use solver_core::{Board3, Board4, Move, Pace, eight};
use solver_store::Loader;

use crate::config::Kind;

/// The solvers the server owns and its searches share read-only: the 8-puzzle's tables and the
/// 15-puzzle's databases, each built on first use, at warm-up, or loaded from the data
/// directory. Nothing is process-wide: two servers in one process (the tests run many) do not
/// share tables.
#[derive(Debug, Default)]
pub struct Engine {
    eight: eight::Tables,
    fifteen: Fifteen,
}

impl Engine {
    /// Solvers with no table built yet.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Builds the tables `kind` needs (blocking: seconds for the 15-puzzle), the 15-puzzle's on
    /// threads run under `pace`.
    pub fn warm_up(&self, kind: Kind, pace: &dyn Pace) {
        match kind {
            Kind::Eight => self.eight.warm_up(),
            Kind::Fifteen => self.fifteen.warm_up(pace),
            _ => {}
        }
    }

    /// Whether the tables [`warm_up`](Self::warm_up) builds for `kind` are here.
    #[must_use]
    pub fn is_ready(&self, kind: Kind) -> bool {
        match kind {
            Kind::Eight => self.eight.is_ready(),
            Kind::Fifteen => self.fifteen.is_ready_for(&Board4::goal()),
            _ => true,
        }
    }

    /// Builds the 15-puzzle databases for targets whose blank is not in a corner (blocking: a
    /// few seconds on all cores, under `pace`).
    pub(crate) fn warm_up_any_target(&self, pace: &dyn Pace) {
        self.fifteen.warm_up_any_target(pace);
    }

    /// The heuristic 15-puzzle searches use now: `"pdb-663"` or, once stored databases are
    /// installed, `"pdb-78"`.
    pub(crate) fn fifteen_method(&self) -> &'static str {
        self.fifteen.method()
    }

    /// The 15-puzzle solver, for the data directory to install what it loads or builds.
    pub(crate) fn fifteen(&self) -> &Fifteen {
        &self.fifteen
    }

    /// The optimal, lexicographically smallest moves from `start` to `target`, or `None` when
    /// the parities differ. Microseconds once the table exists.
    pub(crate) fn solve_eight(&self, start: &Board3, target: &Board3) -> Option<Vec<Move>> {
        self.eight.solve(start, target)
    }

    /// Whether a 15-puzzle search towards `target` can start without building tables first.
    pub(crate) fn fifteen_ready_for(&self, target: &Board4) -> bool {
        self.fifteen.is_ready_for(target)
    }

    /// Gets what a 15-puzzle search towards `target` needs (blocking: seconds when databases
    /// are missing): loaded from `data`, or built on `threads` threads under `pace` and stored.
    pub(crate) fn prepare_fifteen(
        &self,
        target: &Board4,
        data: &Loader,
        threads: usize,
        pace: &dyn Pace,
    ) {
        // Stored 7-8 databases, when there are any, save building the 6-6-3 ones.
        if !self.fifteen.is_ready() {
            data.install_stored(&self.fifteen, solver_store::STRONG);
        }
        for set in self.fifteen.missing_for(target) {
            data.provide(&self.fifteen, set, threads, pace);
        }
        self.fifteen.warm_up_for(target, pace);
    }

    /// A 15-puzzle search from `start` to `target` that runs in time slices, `None` when
    /// unsolvable. Call it once [`fifteen_ready_for`](Self::fifteen_ready_for) the target: it
    /// would build what is missing otherwise.
    pub(crate) fn start_fifteen(&self, start: &Board4, target: &Board4) -> Option<SlicedSearch> {
        self.fifteen.sliced(start, target, &solver_core::Unpaced)
    }
}
