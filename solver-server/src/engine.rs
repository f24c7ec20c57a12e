//! The one place the server calls solver-core's solvers, so the rest of the crate sees a small,
//! stable surface: warm-up, and one blocking `solve_*` per kind.

use solver_core::fifteen::{DatabaseSet, Partition, SlicedSearch};
use solver_core::{Board3, Board4, Move, Pace, Stop, Stopped, eight, fifteen, solitaire};

use crate::config::Kind;
use crate::data::DataDir;

pub(crate) use solver_core::solitaire::{Position, Square, Step};

/// The Solitaire move limit when a request gives 0.
pub(crate) const SOLITAIRE_DEFAULT_MOVES: u32 = solitaire::DEFAULT_MAX_MOVES;

/// Builds the tables `kind` needs (blocking: seconds for the 15-puzzle), the 15-puzzle's on
/// threads run under `pace`.
pub(crate) fn warm_up(kind: Kind, pace: &dyn Pace) {
    match kind {
        Kind::Eight => eight::warm_up(),
        Kind::Fifteen => fifteen::warm_up(pace),
        Kind::Solitaire | Kind::Sliding => {}
    }
}

/// Builds the 15-puzzle databases for targets whose blank is not in a corner (blocking: a few
/// seconds on all cores, under `pace`).
pub(crate) fn warm_up_any_target(pace: &dyn Pace) {
    fifteen::warm_up_any_target(pace);
}

/// The heuristic 15-puzzle searches use now: `"pdb-663"` or, once stored databases are
/// installed, `"pdb-78"`.
pub(crate) fn fifteen_method() -> &'static str {
    fifteen::active_method()
}

/// The optimal, lexicographically smallest moves from `start` to `target`, or `None` when the
/// parities differ. Microseconds once the table exists.
pub(crate) fn solve_eight(start: &Board3, target: &Board3) -> Option<Vec<Move>> {
    eight::solve(start, target)
}

/// Whether a 15-puzzle search towards `target` can start without building tables first.
pub(crate) fn fifteen_ready_for(target: &Board4) -> bool {
    fifteen::is_ready_for(target)
}

/// Gets what a 15-puzzle search towards `target` needs (blocking: seconds when databases
/// are missing): loaded from `data`, or built on `threads` threads under `pace` and stored.
pub(crate) fn prepare_fifteen(target: &Board4, data: &DataDir, threads: usize, pace: &dyn Pace) {
    // Stored 7-8 databases, when there are any, save building the 6-6-3 ones.
    if !fifteen::is_ready() {
        data.install_stored(DatabaseSet::Standard(Partition::P78));
    }
    for set in fifteen::missing_for(target) {
        data.provide(set, threads, pace);
    }
    fifteen::warm_up_for(target, pace);
}

/// A 15-puzzle search from `start` to `target` that runs in time slices, `None` when unsolvable.
/// Call it once [`fifteen_ready_for`] the target: it would build what is missing otherwise.
pub(crate) fn start_fifteen(start: &Board4, target: &Board4) -> Option<SlicedSearch<'static>> {
    fifteen::sliced(start, target, &solver_core::Unpaced)
}

/// A shortest way from `start` to `end` within `max_moves`, or none, with the work done either
/// way.
pub(crate) fn solve_solitaire(
    start: &Position,
    end: &Position,
    max_moves: u32,
    stop: &Stop,
) -> Result<solitaire::Outcome, Stopped> {
    solitaire::search(start, end, max_moves, stop)
}
