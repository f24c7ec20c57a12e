//! The sliding-tile kinds: 3×3 (table look-ups, batched) and 4×4 (IDA* searches, one scheduler
//! job per case).

use std::sync::Arc;
use std::time::Duration;

use solver_core::format_moves;
use solver_core::tiles::solver::{self, Lacking, Search};
use solver_proto::v2 as pb;

use super::begin::{Begun, begin};
use super::remembered::{self, square_key};
use super::wire;
use super::{SlidingAnswer, SlidingCase};
use crate::config::Kind;
use crate::convert::v2::{Common, answered};
use crate::errors::Failure;
use crate::metrics::Outcome;
use crate::scheduler::{Progress, Slice};
use crate::service::Shared;
use crate::service::any::V2Puzzle;
use crate::service::puzzle::{CaseLimits, CaseStop, Lane, Puzzle, Stats};
use crate::service::report::Phase;

/// 3×3 cases.
#[derive(Debug)]
pub(crate) struct Eight;

/// 4×4 cases.
#[derive(Debug)]
pub(crate) struct Fifteen;

/// A 15-puzzle case and, once started, its search in slices with its stop check.
#[derive(Debug)]
pub(crate) struct FifteenWork {
    case: SlidingCase<4>,
    search: Option<(Search, CaseStop)>,
}

fn outcome(answer: &SlidingAnswer) -> Outcome {
    match answer {
        SlidingAnswer::Solved { .. } => Outcome::Solved,
        SlidingAnswer::Unsolvable => Outcome::Unsolvable,
    }
}

impl Puzzle for Eight {
    type Case = SlidingCase<3>;
    type Answer = SlidingAnswer;
    type Work = SlidingCase<3>;

    fn lane(_case: &Self::Case) -> Lane {
        Lane::Lookup
    }

    /// Parity only: a 3×3 answer is a table look-up, no dearer than a cache look-up, so 3×3
    /// cases are never cached (nor counted as cache misses).
    fn prepare(case: &SlidingCase<3>, _shared: &Shared) -> Option<SlidingAnswer> {
        (!case.start.can_reach(&case.target)).then_some(SlidingAnswer::Unsolvable)
    }

    fn begin(case: Self::Case) -> Self::Work {
        case
    }

    fn step(
        case: &mut Self::Case,
        _limits: &CaseLimits,
        shared: &Shared,
        _slice: &Slice<'_>,
    ) -> Progress<Result<SlidingAnswer, Failure>> {
        let solver = &shared.families.sliding.solver;
        Progress::Done(Ok(
            match solver.begin(&case.start, &case.target, Lacking::Ask) {
                solver::Begun::Answered { moves, method } => SlidingAnswer::Solved {
                    moves: Arc::from(format_moves(&moves)),
                    cached: false,
                    stats: Stats::no_search(method),
                },
                // A 3×3 board is read from its table, or cannot reach the target.
                _ => SlidingAnswer::Unsolvable,
            },
        ))
    }

    fn outcome(answer: &SlidingAnswer) -> Outcome {
        outcome(answer)
    }
}

impl Puzzle for Fifteen {
    type Case = SlidingCase<4>;
    type Answer = SlidingAnswer;
    type Work = FifteenWork;

    fn lane(_case: &Self::Case) -> Lane {
        Lane::Search
    }

    /// Parity and the cache: everything that needs no search.
    fn prepare(case: &SlidingCase<4>, shared: &Shared) -> Option<SlidingAnswer> {
        if !case.start.can_reach(&case.target) {
            return Some(SlidingAnswer::Unsolvable);
        }
        let moves = remembered::recall(&shared.cache, &square_key(&case.start, &case.target))?;
        Some(SlidingAnswer::Solved {
            moves,
            cached: true,
            stats: Stats::no_search("cache"),
        })
    }

    fn begin(case: Self::Case) -> FifteenWork {
        FifteenWork { case, search: None }
    }

    fn step(
        work: &mut FifteenWork,
        limits: &CaseLimits,
        shared: &Shared,
        slice: &Slice<'_>,
    ) -> Progress<Result<SlidingAnswer, Failure>> {
        let case = &work.case;
        let (search, stop) = match &mut work.search {
            Some(started) => started,
            empty => match begin(&case.start, &case.target, shared, slice, true) {
                Begun::Search(search) => empty.insert((search, limits.stop(case.node_budget))),
                Begun::Waiting(missing) => {
                    let done = shared.families.sliding.progress(missing);
                    limits.phase(Phase::Tables, done);
                    return Progress::Pending;
                }
                Begun::Answered { moves, method } => {
                    return Progress::Done(Ok(SlidingAnswer::Solved {
                        moves: Arc::from(format_moves(&moves)),
                        cached: false,
                        stats: Stats::no_search(method),
                    }));
                }
                Begun::Unsolvable => return Progress::Done(Ok(SlidingAnswer::Unsolvable)),
            },
        };
        let ran = search.run(&stop.stop, slice.end);
        if let Some(report) = &limits.report {
            report.searched(Phase::Searching, search.lower_bound(), search.stats().nodes);
        }
        let Some(result) = ran else {
            return Progress::Pending;
        };
        Progress::Done(match result {
            Ok(moves) => {
                remembered::remember_path(&shared.cache, case.start, case.target, &moves);
                Ok(SlidingAnswer::Solved {
                    moves: Arc::from(format_moves(&moves)),
                    cached: false,
                    stats: Stats::searched(search.stats(), search.method()),
                })
            }
            Err(stopped) => {
                // The iteration's bound: every shorter one was searched in full.
                let failure = limits.failure(stop, stopped, 0);
                Err(failure.with_lower_bound(search.lower_bound()))
            }
        })
    }

    fn outcome(answer: &SlidingAnswer) -> Outcome {
        outcome(answer)
    }

    fn searched_with(answer: &SlidingAnswer) -> Option<&'static str> {
        match answer {
            SlidingAnswer::Solved {
                cached: false,
                stats,
                ..
            } => Some(stats.method),
            _ => None,
        }
    }
}

/// Reads a `W × W` case from a request's `sliding`. Its answers are optimal whatever the quality
/// asked: that meets any ratio.
fn read<const W: usize>(
    part: &pb::SlidingPuzzle,
    common: Common,
) -> Result<SlidingCase<W>, Failure> {
    let (start, target) =
        super::boards::<W>(&part.start, &part.target).map_err(|f| f.within("sliding"))?;
    Ok(SlidingCase {
        start,
        target,
        node_budget: common.node_budget,
    })
}

/// The v2 response to a 3×3 or 4×4 answer: optimal, so its lower bound is its length.
fn response(answer: SlidingAnswer, elapsed: Duration) -> pb::SolveResponse {
    match answer {
        SlidingAnswer::Solved {
            moves,
            cached,
            stats,
        } => {
            let solution = wire::sliding_solution(&moves, crate::convert::count(moves.len()));
            answered(solution, cached, stats, elapsed)
        }
        SlidingAnswer::Unsolvable => wire::unsolvable(elapsed),
    }
}

impl V2Puzzle for Eight {
    const KIND: Kind = Kind::Eight;
    type Part = pb::SlidingPuzzle;

    fn read(part: &pb::SlidingPuzzle, common: Common, _: &Shared) -> Result<Self::Case, Failure> {
        read(part, common)
    }

    fn response(answer: SlidingAnswer, elapsed: Duration) -> pb::SolveResponse {
        response(answer, elapsed)
    }
}

impl V2Puzzle for Fifteen {
    const KIND: Kind = Kind::Fifteen;
    type Part = pb::SlidingPuzzle;

    fn read(part: &pb::SlidingPuzzle, common: Common, _: &Shared) -> Result<Self::Case, Failure> {
        read(part, common)
    }

    fn response(answer: SlidingAnswer, elapsed: Duration) -> pb::SolveResponse {
        response(answer, elapsed)
    }
}
