//! The two sliding-tile RPCs: `SolveEight` (table look-ups, batched) and `SolveFifteen`
//! (IDA* searches, one pool job per case).

use std::sync::Arc;
use std::sync::atomic::Ordering;

use solver_core::fifteen::{self, SlicedSearch};
use solver_core::format_moves;

use crate::cache::{Answer, CacheKey};
use crate::config::Kind;
use crate::convert::{self, SlidingCase};
use crate::engine;
use crate::errors::CaseFailure;
use crate::metrics::Outcome;
use crate::pb::{self, sliding_reply};
use crate::scheduler::{Progress, Slice};
use crate::service::Shared;
use crate::service::puzzle::{CaseLimits, CaseStop, Lane, Prepared, Puzzle};

/// `SolveEight`.
#[derive(Debug)]
pub(crate) struct Eight;

/// `SolveFifteen`.
#[derive(Debug)]
pub(crate) struct Fifteen;

/// A 15-puzzle case and, once started, its search in slices with its stop check.
#[derive(Debug)]
pub(crate) struct FifteenWork {
    case: SlidingCase<4>,
    search: Option<(SlicedSearch<'static>, CaseStop)>,
}

/// Validation, parity and the cache: everything that needs no search.
fn prepare<const W: usize, P>(
    request: &pb::SlidingRequest,
    shared: &Shared,
    key: fn(&SlidingCase<W>) -> CacheKey,
) -> Prepared<P>
where
    P: Puzzle<Reply = pb::SlidingReply, Case = SlidingCase<W>>,
{
    let case = match convert::sliding_case::<W>(request) {
        Ok(case) => case,
        Err(failure) => return Prepared::Answered(convert::sliding_failed(failure)),
    };
    if !case.start.can_reach(&case.target) {
        return Prepared::Answered(convert::sliding_unsolvable(case.id));
    }
    match shared.cache.get(&key(&case)) {
        Some(Answer::Moves(moves)) => Prepared::Answered(convert::sliding_solved(
            case.id,
            moves.to_string(),
            true,
            convert::no_search("cache"),
        )),
        _ => Prepared::Search(case),
    }
}

fn sliding_outcome(reply: &pb::SlidingReply) -> Outcome {
    match &reply.outcome {
        Some(sliding_reply::Outcome::Solution(_)) => Outcome::Solved,
        Some(sliding_reply::Outcome::Unsolvable(_)) => Outcome::Unsolvable,
        Some(sliding_reply::Outcome::Error(error)) => Outcome::Failed(error.code.into()),
        None => Outcome::Failed(tonic::Code::Internal),
    }
}

impl Puzzle for Eight {
    const KIND: Kind = Kind::Eight;
    const LANE: Lane = Lane::Lookup;
    type Request = pb::SlidingRequest;
    type Reply = pb::SlidingReply;
    type Case = SlidingCase<3>;
    type Work = SlidingCase<3>;

    /// Validation and parity only: a 3×3 answer is a table look-up, no dearer than a cache
    /// look-up, so 3×3 cases are never cached (nor counted as cache misses).
    fn prepare(request: pb::SlidingRequest, _shared: &Shared) -> Prepared<Self> {
        match convert::sliding_case::<3>(&request) {
            Ok(case) if !case.start.can_reach(&case.target) => {
                Prepared::Answered(convert::sliding_unsolvable(case.id))
            }
            Ok(case) => Prepared::Search(case),
            Err(failure) => Prepared::Answered(convert::sliding_failed(failure)),
        }
    }

    fn case_id(case: &Self::Case) -> u64 {
        case.id
    }

    fn begin(case: Self::Case) -> Self::Work {
        case
    }

    fn step(
        case: &mut Self::Case,
        _limits: &CaseLimits,
        _shared: &Shared,
        _slice: &Slice<'_>,
    ) -> Progress<pb::SlidingReply> {
        Progress::Done(match engine::solve_eight(&case.start, &case.target) {
            Some(moves) => convert::sliding_solved(
                case.id,
                format_moves(&moves),
                false,
                convert::no_search("table"),
            ),
            None => convert::sliding_unsolvable(case.id),
        })
    }

    fn failed(failure: CaseFailure) -> pb::SlidingReply {
        convert::sliding_failed(failure)
    }

    fn outcome(reply: &pb::SlidingReply) -> Outcome {
        sliding_outcome(reply)
    }
}

impl Puzzle for Fifteen {
    const KIND: Kind = Kind::Fifteen;
    const LANE: Lane = Lane::Search;
    type Request = pb::SlidingRequest;
    type Reply = pb::SlidingReply;
    type Case = SlidingCase<4>;
    type Work = FifteenWork;

    fn prepare(request: pb::SlidingRequest, shared: &Shared) -> Prepared<Self> {
        prepare(&request, shared, |case| {
            CacheKey::Fifteen(case.start, case.target)
        })
    }

    fn case_id(case: &Self::Case) -> u64 {
        case.id
    }

    fn begin(case: Self::Case) -> FifteenWork {
        FifteenWork { case, search: None }
    }

    fn step(
        work: &mut FifteenWork,
        limits: &CaseLimits,
        shared: &Shared,
        slice: &Slice<'_>,
    ) -> Progress<pb::SlidingReply> {
        let case = &work.case;
        let (search, stop) = match &mut work.search {
            Some(started) => started,
            empty => {
                if !engine::fifteen_ready_for(&case.target) {
                    // Tables this target lacks are built on a thread of their own (one build
                    // at a time, its threads under the scheduler); the case waits its turns.
                    if !shared.fifteen_building.swap(true, Ordering::AcqRel) {
                        let (target, building) =
                            (case.target, Arc::clone(&shared.fifteen_building));
                        let (data, threads) = (shared.data.clone(), shared.scheduler.workers());
                        slice.spawn_paced(move |pacer| {
                            engine::prepare_fifteen(&target, &data, threads, pacer);
                            building.store(false, Ordering::Release);
                        });
                    }
                    return Progress::Pending;
                }
                let stop = limits.stop(case.node_budget);
                let Some(search) = engine::start_fifteen(&case.start, &case.target) else {
                    return Progress::Done(convert::sliding_unsolvable(case.id));
                };
                empty.insert((search, stop))
            }
        };
        let Some(result) = search.run(&stop.stop, slice.end) else {
            return Progress::Pending;
        };
        Progress::Done(match result {
            Ok(found) => {
                shared
                    .cache
                    .insert_path(case.start, case.target, &found.moves);
                convert::sliding_solved(
                    case.id,
                    format_moves(&found.moves),
                    false,
                    convert::stats(found.stats, found.method),
                )
            }
            Err(fifteen::FifteenError::Stopped(stopped)) => {
                convert::sliding_failed(limits.failure(case.id, stop, stopped))
            }
        })
    }

    fn failed(failure: CaseFailure) -> pb::SlidingReply {
        convert::sliding_failed(failure)
    }

    fn outcome(reply: &pb::SlidingReply) -> Outcome {
        sliding_outcome(reply)
    }

    fn searched_with(reply: &pb::SlidingReply) -> Option<&str> {
        match (&reply.outcome, &reply.stats) {
            (Some(pb::sliding_reply::Outcome::Solution(_)), Some(stats)) if !reply.cached => {
                Some(stats.method.as_str())
            }
            _ => None,
        }
    }
}
