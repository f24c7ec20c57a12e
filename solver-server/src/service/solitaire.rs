//! The Solitaire kind: one bidirectional-BFS job per case, in slices when it runs long.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use solver_core::solitaire::{self, SlicedSolitaire};
use solver_core::{StopReason, Stopped};
use solver_proto::v2::{self as pb, solution, solve_response};

use crate::cache::{Answer, Cache, CacheKey};
use crate::config::Kind;
use crate::convert::{self, SolitaireCase, v2::Common};
use crate::engine;
use crate::engine::{Square, Step};
use crate::errors::Failure;
use crate::metrics::Outcome;
use crate::scheduler::{Progress, Slice};
use crate::service::Shared;
use crate::service::any::V2Puzzle;
use crate::service::puzzle::{CaseLimits, CaseStop, Lane, Puzzle, SolitaireAnswer, Stats};

/// Solitaire cases.
#[derive(Debug)]
pub(crate) struct Solitaire;

const METHOD: &str = "bidirectional-bfs";

impl Puzzle for Solitaire {
    type Case = SolitaireCase;
    type Answer = SolitaireAnswer;
    type Work = SolitaireWork;

    fn lane(_case: &Self::Case) -> Lane {
        Lane::Search
    }

    fn prepare(case: &SolitaireCase, shared: &Shared) -> Option<SolitaireAnswer> {
        let key = CacheKey::Solitaire(case.start, case.end, case.max_moves);
        match shared.cache.get(&key) {
            Some(Answer::Steps(steps)) => Some(SolitaireAnswer::Solved {
                steps,
                cached: true,
                stats: Stats::no_search("cache"),
            }),
            Some(Answer::Unreachable) => Some(SolitaireAnswer::Unreachable {
                max_moves: case.max_moves,
                cached: true,
                stats: Stats::no_search("cache"),
            }),
            _ => None,
        }
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
    ) -> Progress<Result<SolitaireAnswer, Failure>> {
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
                // The scratch memory is freed with the work; the slot now.
                long.search = None;
                let stop = std::mem::replace(&mut long.stop, limits.stop(0));
                (found, stop)
            }
        };
        Progress::Done(reply(case, limits, &shared.cache, found))
    }

    fn outcome(answer: &SolitaireAnswer) -> Outcome {
        match answer {
            SolitaireAnswer::Solved { .. } => Outcome::Solved,
            SolitaireAnswer::Unreachable { .. } => Outcome::Unreachable,
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

/// The answer of a finished search, caching it.
fn reply(
    case: &SolitaireCase,
    limits: &CaseLimits,
    cache: &Cache,
    (found, stop): (Result<solitaire::Outcome, Stopped>, CaseStop),
) -> Result<SolitaireAnswer, Failure> {
    let key = CacheKey::Solitaire(case.start, case.end, case.max_moves);
    match found {
        Ok(solitaire::Outcome::Solved(solution)) => {
            let steps: Arc<[Step]> = Arc::from(solution.steps);
            cache.insert(key, Answer::Steps(Arc::clone(&steps)));
            Ok(SolitaireAnswer::Solved {
                steps,
                cached: false,
                stats: Stats::searched(solution.stats, METHOD),
            })
        }
        Ok(solitaire::Outcome::Unreachable(stats)) => {
            cache.insert(key, Answer::Unreachable);
            Ok(SolitaireAnswer::Unreachable {
                max_moves: case.max_moves,
                cached: false,
                stats: Stats::searched(stats, METHOD),
            })
        }
        Err(stopped) => Err(limits.failure(&stop, stopped, 0)),
    }
}

impl V2Puzzle for Solitaire {
    const KIND: Kind = Kind::Solitaire;
    type Part = pb::SolitairePuzzle;

    fn read(
        part: &pb::SolitairePuzzle,
        _: Common,
        shared: &Shared,
    ) -> Result<SolitaireCase, Failure> {
        let squares = |squares: &[pb::Square]| -> Vec<(u32, u32)> {
            squares.iter().map(|s| (s.row, s.col)).collect()
        };
        convert::solitaire_case(
            &squares(&part.start),
            &squares(&part.end),
            part.max_moves,
            shared.config.max_solitaire_moves,
            engine::SOLITAIRE_DEFAULT_MOVES,
        )
        .map_err(|failure| failure.within("solitaire"))
    }

    fn response(answer: SolitaireAnswer, elapsed: Duration) -> pb::SolveResponse {
        let (outcome, cached, stats) = match answer {
            SolitaireAnswer::Solved {
                steps,
                cached,
                stats,
            } => {
                let moves = solution::Kind::Solitaire(moves(&steps));
                let solution = pb::Solution { kind: Some(moves) };
                (solve_response::Outcome::Solution(solution), cached, stats)
            }
            SolitaireAnswer::Unreachable {
                max_moves,
                cached,
                stats,
            } => {
                let unreachable = pb::Unreachable { max_moves };
                (
                    solve_response::Outcome::Unreachable(unreachable),
                    cached,
                    stats,
                )
            }
        };
        convert::v2::answered(outcome, cached, stats, elapsed)
    }
}

/// Steps as v2's solution.
fn moves(steps: &[Step]) -> pb::SolitaireSolution {
    let square = |square: Square| pb::Square {
        row: square.row(),
        col: square.col(),
    };
    pb::SolitaireSolution {
        moves: steps
            .iter()
            .map(|step| pb::SolitaireMove {
                origin: Some(square(step.from)),
                destination: Some(square(step.to)),
            })
            .collect(),
        length: convert::count(steps.len()),
    }
}
