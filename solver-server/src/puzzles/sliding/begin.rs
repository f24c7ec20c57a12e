//! How an optimal answer begins on this server: the core's [`Solver`] picks the method, and what
//! it lacks is provided ([`Tables::provide`](super::tables::Tables::provide)) before a case
//! waits for it or searches without it.
//!
//! [`Solver`]: solver_core::tiles::solver::Solver

use solver_core::Move;
use solver_core::tiles::grid_board::GridBoard;
use solver_core::tiles::solver::{self, Lacking, Missing, Search};

use super::provision::Provision;
use crate::scheduler::Slice;
use crate::service::Shared;

/// How an optimal answer begins.
#[derive(Debug)]
pub(crate) enum Begun {
    /// Read from a table.
    Answered {
        /// The optimal, lexicographically smallest moves.
        moves: Vec<Move>,
        /// How they were found.
        method: &'static str,
    },
    /// A search to run in slices.
    Search(Search),
    /// Waiting for `missing` to be loaded or built: ask again at the next turn.
    Waiting(Missing),
    /// The start cannot reach the target (parity).
    Unsolvable,
}

/// Begins an optimal answer from `start` to `target`. A table that would serve the case and may
/// be had is loaded or built on a thread of `slice`'s flow; the case waits for it when it is
/// worth waiting for (and `wait_for_databases`: a case that already knows its length does not),
/// else searches without it meanwhile. The tables never change an answer, only how fast it
/// comes.
pub(crate) fn begin(
    start: &GridBoard,
    target: &GridBoard,
    shared: &Shared,
    slice: &Slice<'_>,
    wait_for_databases: bool,
) -> Begun {
    let tables = &shared.families.sliding;
    let begun = match tables.solver.begin(start, target, Lacking::Ask) {
        solver::Begun::Missing(missing) => {
            let provision = tables.provide(missing, shared.scheduler.workers(), slice);
            let wait = missing.is_required() || (missing.worth_waiting_for() && wait_for_databases);
            if provision == Provision::Coming && wait {
                return Begun::Waiting(missing);
            }
            let lacking = match provision {
                Provision::Held => Lacking::Ask,
                Provision::Coming | Provision::Refused => Lacking::SearchWithout,
            };
            tables.solver.begin(start, target, lacking)
        }
        begun => begun,
    };
    match begun {
        solver::Begun::Answered { moves, method } => Begun::Answered { moves, method },
        solver::Begun::Search(search) => {
            if let Some(grid) = search.lacks_pruning() {
                tables.grids.build_pruning(grid, |build| {
                    slice.spawn_paced(move |pacer| build(pacer));
                });
            }
            Begun::Search(search)
        }
        // Held a moment ago, gone since (never, tables are kept), or a 4×4 case whose databases
        // are still coming: the next turn looks again.
        solver::Begun::Missing(missing) => Begun::Waiting(missing),
        solver::Begun::Unsolvable => Begun::Unsolvable,
    }
}
