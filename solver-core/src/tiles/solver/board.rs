//! The boards a [`Solver`] answers, each with its way to begin: the fixed 3×3 and 4×4 boards
//! and the boards of every other shape.

use super::{Begun, Lacking, Missing, Search, Solver, TABLE_METHOD};
use crate::tiles::board::{Board3, Board4};
use crate::tiles::grid_board::GridBoard;
use crate::tiles::slide::Slide;

/// A sliding board the [`Solver`] answers optimally.
pub trait Case: Slide {
    /// Begins the optimal answer from `start` to `target` (see [`Solver::begin`]).
    fn begin(solver: &Solver, start: &Self, target: &Self, lacking: Lacking) -> Begun;
}

impl Case for Board3 {
    /// A walk of the 8-puzzle's tree for the target's blank (built on first use: milliseconds).
    fn begin(solver: &Solver, start: &Self, target: &Self, _lacking: Lacking) -> Begun {
        match solver.squares.eight().solve(start, target) {
            Some(moves) => Begun::Answered {
                moves,
                method: TABLE_METHOD,
            },
            None => Begun::Unsolvable,
        }
    }
}

impl Case for Board4 {
    /// IDA* with the 15-puzzle's databases for the target, once they are held.
    fn begin(solver: &Solver, start: &Self, target: &Self, _lacking: Lacking) -> Begun {
        if !start.can_reach(target) {
            return Begun::Unsolvable;
        }
        let fifteen = solver.squares.fifteen();
        if !fifteen.is_ready_for(target) {
            return Begun::Missing(Missing::Fifteen(*target));
        }
        match fifteen.sliced(start, target, &crate::Unpaced) {
            Some(search) => Begun::Search(Search::fifteen(search)),
            None => Begun::Unsolvable,
        }
    }
}

impl Case for GridBoard {
    /// Square 3×3 and 4×4 boards go to their own solvers, every other shape to the size-generic
    /// ones: a caller never needs to tell them apart.
    fn begin(solver: &Solver, start: &Self, target: &Self, lacking: Lacking) -> Begun {
        if let (Ok(start), Ok(target)) = (Board3::try_from(start), Board3::try_from(target)) {
            return Board3::begin(solver, &start, &target, lacking);
        }
        if let (Ok(start), Ok(target)) = (Board4::try_from(start), Board4::try_from(target)) {
            return Board4::begin(solver, &start, &target, lacking);
        }
        solver.begin_grid(start, target, lacking)
    }
}
