//! The one place the server calls solver-core's solvers, so the rest of the crate sees a small,
//! stable surface: warm-up, and one blocking `solve_*` per kind.

use solver_core::{Board3, Board4, Move, SearchStats, Stop, Stopped};

use crate::config::Kind;

pub(crate) use solver_core::solitaire::{Position, Square, Step};
use solver_core::{eight, fifteen, solitaire};

/// The default of `--max-solitaire-moves`. The search stops by itself once a frontier is empty
/// (the board has 635,376 positions), so the cap only keeps absurd limits out.
pub(crate) const SOLITAIRE_MOVES_LIMIT: u32 = 256;
/// The Solitaire move limit when a request gives 0.
pub(crate) const SOLITAIRE_DEFAULT_MOVES: u32 = solitaire::DEFAULT_MAX_MOVES;

/// Builds the tables `kind` needs (blocking: seconds for the 15-puzzle).
pub(crate) fn warm_up(kind: Kind) {
    match kind {
        Kind::Eight => eight::warm_up(),
        Kind::Fifteen => fifteen::warm_up(),
        Kind::Solitaire => {}
    }
}

/// The optimal, lexicographically smallest moves from `start` to `target`, or `None` when the
/// parities differ. Microseconds once the table exists.
pub(crate) fn solve_eight(start: &Board3, target: &Board3) -> Option<Vec<Move>> {
    eight::solve(start, target)
}

/// A solved 15-puzzle case.
#[derive(Debug)]
pub(crate) struct FifteenAnswer {
    pub(crate) moves: Vec<Move>,
    pub(crate) stats: SearchStats,
    pub(crate) method: &'static str,
}

/// Searches a 15-puzzle case; `Ok(None)` when unsolvable.
pub(crate) fn solve_fifteen(
    start: &Board4,
    target: &Board4,
    stop: &Stop,
) -> Result<Option<FifteenAnswer>, Stopped> {
    match fifteen::solve(start, target, stop) {
        Ok(found) => Ok(found.map(|s| FifteenAnswer {
            moves: s.moves,
            stats: s.stats,
            method: s.method,
        })),
        Err(fifteen::FifteenError::Stopped(stopped)) => Err(stopped),
    }
}

/// A shortest way from `start` to `end` within `max_moves` and the work done, `Ok(None)` when
/// there is none.
pub(crate) fn solve_solitaire(
    start: &Position,
    end: &Position,
    max_moves: u32,
    stop: &Stop,
) -> Result<Option<(Vec<Step>, SearchStats)>, Stopped> {
    solitaire::solve(start, end, max_moves, stop).map(|found| found.map(|s| (s.steps, s.stats)))
}
