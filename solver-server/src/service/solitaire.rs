//! The `SolveSolitaire` RPC: one bidirectional-BFS job per case, in slices when it runs long.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use solver_core::solitaire::SlicedSolitaire;
use solver_core::{SearchStats, StopReason, Stopped};

use crate::cache::{Answer, Cache, CacheKey};
use crate::config::Kind;
use crate::convert::{self, SolitaireCase};
use crate::engine;
use crate::engine::Step;
use crate::errors::CaseFailure;
use crate::metrics::Outcome;
use crate::pb::{self, solitaire_reply};
use crate::scheduler::{Progress, Slice};
use crate::service::Shared;
use crate::service::puzzle::{CaseLimits, CaseStop, Lane, Prepared, Puzzle};

/// `SolveSolitaire`.
#[derive(Debug)]
pub(crate) struct Solitaire;

const METHOD: &str = "bidirectional-bfs";

impl Puzzle for Solitaire {
    const KIND: Kind = Kind::Solitaire;
    const LANE: Lane = Lane::Search;
    type Request = pb::SolitaireRequest;
    type Reply = pb::SolitaireReply;
    type Case = SolitaireCase;
    type Work = SolitaireWork;

    fn prepare(request: pb::SolitaireRequest, shared: &Shared) -> Prepared<Self> {
        let limit = shared
            .config
            .max_solitaire_moves
            .min(engine::SOLITAIRE_MOVES_LIMIT);
        let case = match convert::solitaire_case(&request, limit, engine::SOLITAIRE_DEFAULT_MOVES) {
            Ok(case) => case,
            Err(failure) => return Prepared::Answered(convert::solitaire_failed(failure)),
        };
        let key = CacheKey::Solitaire(case.start, case.end, case.max_moves);
        match shared.cache.get(&key) {
            Some(Answer::Steps(steps)) => Prepared::Answered(convert::solitaire_solved(
                case.id,
                &steps,
                true,
                convert::no_search("cache"),
            )),
            Some(Answer::Unreachable) => Prepared::Answered(convert::solitaire_unreachable(
                case.id,
                case.max_moves,
                true,
                convert::no_search("cache"),
            )),
            _ => Prepared::Search(case),
        }
    }

    fn case_id(case: &Self::Case) -> u64 {
        case.id
    }

    fn begin(case: Self::Case) -> SolitaireWork {
        SolitaireWork { case, long: None }
    }

    /// Most cases end within [`QUICK_NODES`] in their first slice, on the worker's own
    /// scratch memory; the others go on as searches in slices with marks of their own, at most
    /// [`MAX_LONG`] at once (the rest wait their turn).
    fn step(
        work: &mut SolitaireWork,
        limits: &CaseLimits,
        shared: &Shared,
        slice: &Slice<'_>,
    ) -> Progress<pb::SolitaireReply> {
        let case = &work.case;
        let found = match &mut work.long {
            None => {
                let stop = limits.stop(0);
                let quick_budget = stop
                    .node_budget()
                    .map_or(QUICK_NODES, |b| b.min(QUICK_NODES));
                let quick = stop.stop.clone().with_node_budget(quick_budget);
                match engine::solve_solitaire(&case.start, &case.end, case.max_moves, &quick) {
                    Err(stopped)
                        if stopped.reason == StopReason::NodeBudget
                            && stop.node_budget().is_none_or(|b| b > QUICK_NODES) =>
                    {
                        work.long = Some(Long { stop, search: None });
                        return Progress::Pending;
                    }
                    found => (found, stop),
                }
            }
            Some(long) => {
                let search = match &mut long.search {
                    Some((search, _)) => search,
                    empty => {
                        let Some(slot) = LongSlot::take(&shared.long_solitaire) else {
                            return Progress::Pending;
                        };
                        let search = SlicedSolitaire::new(&case.start, &case.end, case.max_moves);
                        &mut empty.insert((search, slot)).0
                    }
                };
                let Some(found) = search.run(&long.stop.stop, slice.end) else {
                    return Progress::Pending;
                };
                let found = found.map(|found| found.map(|s| (s.steps, s.stats)));
                // The scratch memory is freed with the work; the slot now.
                long.search = None;
                let stop = std::mem::replace(&mut long.stop, limits.stop(0));
                (found, stop)
            }
        };
        Progress::Done(reply(case, limits, &shared.cache, found))
    }

    fn failed(failure: CaseFailure) -> pb::SolitaireReply {
        convert::solitaire_failed(failure)
    }

    fn outcome(reply: &pb::SolitaireReply) -> Outcome {
        match &reply.outcome {
            Some(solitaire_reply::Outcome::Solution(_)) => Outcome::Solved,
            Some(solitaire_reply::Outcome::Unreachable(_)) => Outcome::Unreachable,
            Some(solitaire_reply::Outcome::Error(error)) => Outcome::Failed(error.code.into()),
            None => Outcome::Failed(tonic::Code::Internal),
        }
    }
}

/// Nodes a case may expand in its first slice on the worker's scratch memory (a millisecond
/// or two); the judge's cases (8 moves) need far fewer.
const QUICK_NODES: u64 = 20_000;

/// Most Solitaire searches that hold marks of their own (up to about 3 MB each) at once.
pub(crate) const MAX_LONG: usize = 16;

/// A Solitaire case and, once it outgrew its first slice, its long search.
#[derive(Debug)]
pub(crate) struct SolitaireWork {
    case: SolitaireCase,
    long: Option<Long>,
}

#[derive(Debug)]
struct Long {
    stop: CaseStop,
    search: Option<(SlicedSolitaire, LongSlot)>,
}

/// One of the [`MAX_LONG`] places for a long search; given back when dropped.
#[derive(Debug)]
struct LongSlot(Arc<AtomicUsize>);

impl LongSlot {
    fn take(count: &Arc<AtomicUsize>) -> Option<Self> {
        count
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < MAX_LONG).then_some(n + 1)
            })
            .ok()
            .map(|_| Self(Arc::clone(count)))
    }
}

impl Drop for LongSlot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// What a finished search found: a shortest way and the work done, none within the limit, or
/// a stop.
type Found = Result<Option<(Vec<Step>, SearchStats)>, Stopped>;

/// The reply for a finished search, caching its answer.
fn reply(
    case: &SolitaireCase,
    limits: &CaseLimits,
    cache: &Cache,
    (found, stop): (Found, CaseStop),
) -> pb::SolitaireReply {
    let key = CacheKey::Solitaire(case.start, case.end, case.max_moves);
    match found {
        Ok(Some((steps, stats))) => {
            let reply =
                convert::solitaire_solved(case.id, &steps, false, convert::stats(stats, METHOD));
            cache.insert(key, Answer::Steps(Arc::from(steps)));
            reply
        }
        Ok(None) => {
            cache.insert(key, Answer::Unreachable);
            convert::solitaire_unreachable(
                case.id,
                case.max_moves,
                false,
                convert::no_search(METHOD),
            )
        }
        Err(stopped) => convert::solitaire_failed(limits.failure(case.id, &stop, stopped)),
    }
}
