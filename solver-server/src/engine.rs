//! The one place the server calls solver-core's solvers, so the rest of the crate sees a small,
//! stable surface: warm-up, and one blocking `solve_*` per kind.

use solver_core::{Board3, Board4, Move, SearchStats, Stop, Stopped};

use crate::config::Kind;

// TEMPORARY until solver-core's solvers land on main: same signatures as the brief.
use self::pending::{eight, fifteen, solitaire};
pub(crate) use self::pending::solitaire::{Position, Square, Step};

/// The largest Solitaire move limit the core accepts.
pub(crate) const SOLITAIRE_MOVES_LIMIT: u32 = solitaire::MAX_MOVES_LIMIT;
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

/// Why a 15-puzzle search gave no answer.
#[derive(Debug)]
pub(crate) enum FifteenFailure {
    /// The stop check fired.
    Stopped(Stopped),
    /// The core cannot search toward this target; the message says why.
    UnsupportedTarget(String),
}

/// Searches a 15-puzzle case; `Ok(None)` when unsolvable.
pub(crate) fn solve_fifteen(
    start: &Board4,
    target: &Board4,
    stop: &Stop,
) -> Result<Option<FifteenAnswer>, FifteenFailure> {
    match fifteen::solve(start, target, stop) {
        Ok(found) => Ok(found.map(|s| FifteenAnswer {
            moves: s.moves,
            stats: s.stats,
            method: s.method,
        })),
        Err(fifteen::FifteenError::Stopped(stopped)) => Err(FifteenFailure::Stopped(stopped)),
        Err(err @ fifteen::FifteenError::UnsupportedTarget { .. }) => {
            Err(FifteenFailure::UnsupportedTarget(err.to_string()))
        }
    }
}

/// A shortest way from `start` to `end` within `max_moves`, `Ok(None)` when there is none.
pub(crate) fn solve_solitaire(
    start: &Position,
    end: &Position,
    max_moves: u32,
    stop: &Stop,
) -> Result<Option<Vec<Step>>, Stopped> {
    solitaire::solve(start, end, max_moves, stop)
}

mod pending {
    #![expect(dead_code, clippy::todo, reason = "placeholder until the core lands")]
    pub(crate) mod eight {
        use solver_core::{Board3, Move};
        pub(crate) fn warm_up() {}
        pub(crate) fn solve(_: &Board3, _: &Board3) -> Option<Vec<Move>> {
            todo!()
        }
    }
    pub(crate) mod fifteen {
        use solver_core::{Board4, Move, SearchStats, Stop, Stopped};
        pub(crate) fn warm_up() {}
        pub(crate) struct Solution {
            pub(crate) moves: Vec<Move>,
            pub(crate) stats: SearchStats,
            pub(crate) method: &'static str,
        }
        #[derive(Debug, thiserror::Error)]
        pub(crate) enum FifteenError {
            #[error("{0}")]
            Stopped(Stopped),
            #[error("unsupported")]
            UnsupportedTarget { blank: usize },
        }
        pub(crate) fn solve(
            _: &Board4,
            _: &Board4,
            _: &Stop,
        ) -> Result<Option<Solution>, FifteenError> {
            todo!()
        }
    }
    pub(crate) mod solitaire {
        use solver_core::{Stop, Stopped};
        pub(crate) const MAX_MOVES_LIMIT: u32 = 20;
        pub(crate) const DEFAULT_MAX_MOVES: u32 = 8;
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub(crate) struct Square(u32, u32);
        impl Square {
            pub(crate) fn new(row: u32, col: u32) -> Result<Self, PositionError> {
                Ok(Self(row, col))
            }
            pub(crate) fn row(self) -> u32 {
                self.0
            }
            pub(crate) fn col(self) -> u32 {
                self.1
            }
        }
        #[derive(Debug, thiserror::Error)]
        #[error("bad")]
        pub(crate) struct PositionError;
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub(crate) struct Position([Square; 4]);
        impl Position {
            pub(crate) fn new(_: &[Square]) -> Result<Self, PositionError> {
                todo!()
            }
        }
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub(crate) struct Step {
            pub(crate) from: Square,
            pub(crate) to: Square,
        }
        pub(crate) fn solve(
            _: &Position,
            _: &Position,
            _: u32,
            _: &Stop,
        ) -> Result<Option<Vec<Step>>, Stopped> {
            todo!()
        }
    }
}
