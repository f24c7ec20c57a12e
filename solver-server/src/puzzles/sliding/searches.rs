//! Optimal answers for the RPCs that need several of them in one call (`Hint`, `Scramble`,
//! `Verify`): one search after another, each in slices on the scheduler, all under one stop
//! check, so the call's node budget and deadline cover them all.

use solver_core::fifteen::{FifteenError, SlicedSearch};
use solver_core::tiles::grid_board::GridBoard;
use solver_core::tiles::grid_ida::{GridSearch, Slice as Found};
use solver_core::{Board, Move, SearchStats, format_moves, parse_moves};

use super::grid::{Begun, TABLE_METHOD, begin, wait};
use super::remembered::{grid_key, recall, remember, remember_path, square_key};
use super::square::fifteen_ready;
use crate::errors::Failure;
use crate::scheduler::{Progress, Slice};
use crate::service::Shared;
use crate::service::puzzle::{CaseLimits, CaseStop, Stats};

/// The searches of one call and the work they did.
#[derive(Debug)]
pub(crate) struct Searches {
    /// The request's node budget (0 = the server's default).
    requested: u64,
    /// The call's stop check, made at its first search.
    stop: Option<CaseStop>,
    /// The 4×4 search under way.
    current: Option<SlicedSearch>,
    /// The search of another shape under way.
    current_grid: Option<GridSearch>,
    /// The work of the finished searches.
    done: SearchStats,
    /// How the last answer was found.
    method: &'static str,
}

/// Finds optimal answers of boards of type `B`, one slice at a time.
pub(crate) trait Solve<B> {
    /// The optimal, lexicographically smallest moves from `start` to `target` (which it must be
    /// able to reach): call again with the same boards while it is [`Progress::Pending`].
    fn optimal(
        &mut self,
        start: &B,
        target: &B,
        limits: &CaseLimits,
        shared: &Shared,
        slice: &Slice<'_>,
    ) -> Progress<Result<Vec<Move>, Failure>>;
}

impl Searches {
    /// No search yet; `requested` is the request's node budget (0 = the server's default).
    pub(crate) fn new(requested: u64) -> Self {
        Self {
            requested,
            stop: None,
            current: None,
            current_grid: None,
            done: SearchStats::default(),
            method: "table",
        }
    }

    /// The work done so far, all searches together.
    pub(crate) fn stats(&self) -> Stats {
        Stats::searched(self.done, self.method)
    }
}

fn unreachable() -> Failure {
    Failure::Internal {
        message: "a board that cannot reach its target was searched".to_owned(),
    }
}

impl Solve<Board<3>> for Searches {
    /// A table look-up (the table is built on first use, in this slice).
    fn optimal(
        &mut self,
        start: &Board<3>,
        target: &Board<3>,
        _limits: &CaseLimits,
        shared: &Shared,
        _slice: &Slice<'_>,
    ) -> Progress<Result<Vec<Move>, Failure>> {
        self.method = "table";
        Progress::Done(
            shared
                .families
                .sliding
                .engine
                .solve_eight(start, target)
                .ok_or_else(unreachable),
        )
    }
}

impl Solve<Board<4>> for Searches {
    fn optimal(
        &mut self,
        start: &Board<4>,
        target: &Board<4>,
        limits: &CaseLimits,
        shared: &Shared,
        slice: &Slice<'_>,
    ) -> Progress<Result<Vec<Move>, Failure>> {
        match self.optimal_within(start, target, u32::MAX, limits, shared, slice) {
            Progress::Pending => Progress::Pending,
            Progress::Done(found) => Progress::Done(found.and_then(|moves| {
                moves.ok_or_else(|| Failure::Internal {
                    message: "a search without a length limit gave up".to_owned(),
                })
            })),
        }
    }
}

impl Searches {
    /// As [`Solve::optimal`] for 4×4 boards, giving up (`Ok(None)`) as soon as the optimal
    /// length is known to exceed `max`: before searching when the heuristic says so, else when
    /// an iteration's bound passes it.
    pub(crate) fn optimal_within(
        &mut self,
        start: &Board<4>,
        target: &Board<4>,
        max: u32,
        limits: &CaseLimits,
        shared: &Shared,
        slice: &Slice<'_>,
    ) -> Progress<Result<Option<Vec<Move>>, Failure>> {
        let search = match &mut self.current {
            Some(search) => search,
            empty => {
                if let Some(moves) = recall(&shared.cache, &square_key(start, target))
                    && let Ok(moves) = parse_moves(&moves)
                {
                    self.method = "cache";
                    return Progress::Done(Ok((length(&moves) <= max).then_some(moves)));
                }
                if !fifteen_ready(target, shared, slice) {
                    return Progress::Pending;
                }
                let Some(search) = shared.families.sliding.engine.start_fifteen(start, target)
                else {
                    return Progress::Done(Err(unreachable()));
                };
                empty.insert(search)
            }
        };
        if search.lower_bound() > max {
            let stats = search.stats();
            self.current = None;
            self.done.nodes += stats.nodes;
            self.done.iterations += stats.iterations;
            return Progress::Done(Ok(None));
        }
        let stop = self.stop.get_or_insert_with(|| limits.stop(self.requested));
        let Some(result) = search.run(&stop.after(self.done.nodes), slice.end) else {
            return Progress::Pending;
        };
        self.current = None;
        Progress::Done(match result {
            Ok(found) => {
                self.done.nodes += found.stats.nodes;
                self.done.iterations += found.stats.iterations;
                self.method = found.method;
                remember_path(&shared.cache, *start, *target, &found.moves);
                Ok((length(&found.moves) <= max).then_some(found.moves))
            }
            Err(FifteenError::Stopped(stopped)) => {
                let failure = limits.failure(stop, stopped, self.done.nodes);
                self.done.nodes += stopped.stats.nodes;
                Err(failure)
            }
        })
    }
}

impl Solve<GridBoard> for Searches {
    /// The complete table's walk when the shape has one, else the size-generic IDA* in slices
    /// (with the pattern databases when the shape has them), its answers cached like `Solve`'s.
    fn optimal(
        &mut self,
        start: &GridBoard,
        target: &GridBoard,
        limits: &CaseLimits,
        shared: &Shared,
        slice: &Slice<'_>,
    ) -> Progress<Result<Vec<Move>, Failure>> {
        let key = grid_key(start, target);
        let search = match &mut self.current_grid {
            Some(search) => search,
            empty => {
                if let Some(moves) = recall(&shared.cache, &key)
                    && let Ok(moves) = parse_moves(&moves)
                {
                    self.method = "cache";
                    return Progress::Done(Ok(moves));
                }
                if !start.can_reach(target) {
                    return Progress::Done(Err(unreachable()));
                }
                match begin(start, target, shared, slice, true) {
                    Begun::Walked(moves) => {
                        self.method = TABLE_METHOD;
                        return Progress::Done(Ok(moves));
                    }
                    Begun::Waiting => {
                        let stop = self.stop.get_or_insert_with(|| limits.stop(self.requested));
                        return wait(stop, limits);
                    }
                    Begun::Search(search) => empty.insert(*search),
                }
            }
        };
        let stop = self.stop.get_or_insert_with(|| limits.stop(self.requested));
        let result = search.run(&stop.after(self.done.nodes), Some(slice.end));
        let stats = search.stats();
        match result {
            Ok(Found::Suspended) => Progress::Pending,
            Ok(Found::Found(moves)) => {
                self.method = search.method();
                self.current_grid = None;
                self.done.nodes += stats.nodes;
                self.done.iterations += stats.iterations;
                remember(&shared.cache, key, format_moves(&moves).into());
                Progress::Done(Ok(moves))
            }
            Err(stopped) => {
                self.current_grid = None;
                let failure = limits.failure(stop, stopped, self.done.nodes);
                self.done.nodes += stats.nodes;
                Progress::Done(Err(failure))
            }
        }
    }
}

pub(crate) fn length(moves: &[Move]) -> u32 {
    crate::convert::count(moves.len())
}
