//! Optimal answers for the RPCs that need several of them in one call (`Hint`, `Scramble`,
//! `Verify`): one search after another, each in slices on the scheduler, all under one stop
//! check, so the call's node budget and deadline cover them all. The core's solver picks each
//! one's method, as it does for `Solve`.

use solver_core::tiles::grid_board::GridBoard;
use solver_core::tiles::solver::{Search, TABLE_METHOD};
use solver_core::{Move, SearchStats, parse_moves};

use super::begin::{Begun, begin};
use super::remembered;
use super::solve::wait;
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
    /// The search under way.
    current: Option<Search>,
    /// The work of the finished searches.
    done: SearchStats,
    /// How the last answer was found.
    method: &'static str,
}

impl Searches {
    /// No search yet; `requested` is the request's node budget (0 = the server's default).
    pub(crate) fn new(requested: u64) -> Self {
        Self {
            requested,
            stop: None,
            current: None,
            done: SearchStats::default(),
            method: TABLE_METHOD,
        }
    }

    /// The work done so far, all searches together.
    pub(crate) fn stats(&self) -> Stats {
        Stats::searched(self.done, self.method)
    }

    /// The optimal, lexicographically smallest moves from `start` to `target` (which it must be
    /// able to reach): call again with the same boards while it is [`Progress::Pending`].
    pub(crate) fn optimal(
        &mut self,
        start: &GridBoard,
        target: &GridBoard,
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

    /// As [`optimal`](Self::optimal), giving up (`Ok(None)`) as soon as the optimal length is
    /// known to exceed `max`: before searching when the heuristic says so, else when an
    /// iteration's bound passes it.
    pub(crate) fn optimal_within(
        &mut self,
        start: &GridBoard,
        target: &GridBoard,
        max: u32,
        limits: &CaseLimits,
        shared: &Shared,
        slice: &Slice<'_>,
    ) -> Progress<Result<Option<Vec<Move>>, Failure>> {
        let within = |moves: Vec<Move>| (length(&moves) <= max).then_some(moves);
        let search = match &mut self.current {
            Some(search) => search,
            empty => {
                if let Some(moves) = remembered::recall(&shared.cache, start, target)
                    && let Ok(moves) = parse_moves(&moves)
                {
                    self.method = "cache";
                    return Progress::Done(Ok(within(moves)));
                }
                match begin(start, target, shared, slice, true) {
                    Begun::Answered { moves, method } => {
                        self.method = method;
                        return Progress::Done(Ok(within(moves)));
                    }
                    Begun::Waiting(_) => {
                        let stop = self.stop.get_or_insert_with(|| limits.stop(self.requested));
                        return wait(stop, limits);
                    }
                    Begun::Unsolvable => return Progress::Done(Err(unreachable())),
                    Begun::Search(search) => empty.insert(search),
                }
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
        let ran = search.run(&stop.after(self.done.nodes), slice.end);
        let Some(result) = ran else {
            return Progress::Pending;
        };
        let (stats, method) = (search.stats(), search.method());
        self.current = None;
        match result {
            Ok(moves) => {
                self.done.nodes += stats.nodes;
                self.done.iterations += stats.iterations;
                self.method = method;
                remembered::remember(&shared.cache, start, target, &moves);
                Progress::Done(Ok(within(moves)))
            }
            Err(stopped) => {
                let failure = limits.failure(stop, stopped, self.done.nodes);
                self.done.nodes += stats.nodes;
                Progress::Done(Err(failure))
            }
        }
    }
}

fn unreachable() -> Failure {
    Failure::Internal {
        message: "a board that cannot reach its target was searched".to_owned(),
    }
}

pub(crate) fn length(moves: &[Move]) -> u32 {
    crate::convert::count(moves.len())
}
