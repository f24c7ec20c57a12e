//! `Solve` of a sliding case, on any shape from 2×2 to 8×8: the optimal answer the core's solver
//! begins (an instant table walk, batched, or one search job per case preempted every slice), or,
//! when the request allows a ratio above 1 on a shape whose optimum is not quick, an answer with
//! a proven lower bound.

use std::sync::Arc;
use std::time::{Duration, Instant};

use solver_core::tiles::bounded::{BoundedSearch, Method, Step};
use solver_core::tiles::grid_ida::Helper;
use solver_core::tiles::solver::{Bounded, Search, Solver};
use solver_core::{Move, SearchStats, StopReason, Stopped, format_moves};
use solver_proto::v2 as pb;

use super::SlidingAnswer;
use super::begin::{Begun, begin};
use super::case::{self, SlidingCase};
use super::provision::Provision;
use super::remembered;
use super::wire;
use crate::budget::Reservation;
use crate::config::Kind;
use crate::convert::v2::{Common, Quality, answered};
use crate::errors::Failure;
use crate::metrics::Outcome;
use crate::scheduler::{Helping, Progress, Slice};
use crate::service::Shared;
use crate::service::any::V2Puzzle;
use crate::service::puzzle::{CaseLimits, CaseStop, Lane, Puzzle, Stats};
use crate::service::report::{Phase, Report};

/// Sliding cases.
#[derive(Debug)]
pub(crate) struct Sliding;

/// A case and, once a search started, the search with its stop check.
#[derive(Debug)]
pub(crate) struct SlidingWork {
    case: SlidingCase,
    /// The case's stop check, from its first slice: waiting for tables or memory counts
    /// against its time limit and deadline too.
    stop: Option<CaseStop>,
    search: Option<Search>,
    /// A bounded case's search under way, and the memory it reserved (boxed: most cases never
    /// have one, and the work of an instant case should stay small).
    bounded: Option<Box<(BoundedSearch, Reservation)>>,
    /// For a watched optimal case: the bounded first answer's search, once started, until it
    /// is over.
    anytime: Anytime,
    /// Whether the search has been given its helpers (see [`split`]).
    split: bool,
}

/// Where a watched optimal case is with its bounded answers (see [`anytime_step`]).
#[derive(Debug)]
enum Anytime {
    /// Not started (again), after searches of `before` nodes.
    Ahead {
        /// Nodes of the bounded searches done.
        before: u64,
    },
    /// Under way.
    Running(Box<Bounding>),
    /// Over (answered, skipped or out of budget).
    Over {
        /// Nodes of the bounded searches done.
        nodes: u64,
        /// Whether the last one had the target's databases: one that had not is run again
        /// with them once they are held (its answers are much shorter).
        informed: bool,
    },
}

impl Default for Anytime {
    fn default() -> Self {
        Anytime::Ahead { before: 0 }
    }
}

/// A bounded search of a watched case under way.
#[derive(Debug)]
struct Bounding {
    search: BoundedSearch,
    _memory: Reservation,
    began: Instant,
    /// Nodes of the bounded searches before this one.
    before: u64,
    informed: bool,
}

/// The ratio a watched optimal case's first answer is asked within: answered within about half
/// a second on the 24-puzzle (see `solver_core::tiles::bounded`), and only a start.
const ANYTIME_RATIO: f64 = 1.5;

/// How long the bounded search may go on shortening its first answer before the optimal search
/// starts: the optimum is what was asked.
const ANYTIME_SHORTENING: Duration = Duration::from_secs(1);

/// One slice of a bounded case: weighted A* (with the pattern databases for the target when they
/// are held or stored, which make the answers much shorter; none is built for a bounded case,
/// which must be quick),
/// then the constructive method, preempted like any search. It starts once its memory ceiling
/// fits the server's search memory, and its time limit runs from its first slice.
fn bounded_step(
    work: &mut SlidingWork,
    ratio: f64,
    limits: &CaseLimits,
    shared: &Shared,
    slice: &Slice<'_>,
) -> Progress<Result<SlidingAnswer, Failure>> {
    let case = &work.case;
    let stop = work
        .stop
        .get_or_insert_with(|| limits.stop(case.node_budget));
    let (search, _memory) = &mut **match &mut work.bounded {
        Some(started) => started,
        empty => {
            // Stored databases are loaded (and waited for, within the case's limits) rather than
            // answered without: their answers are much shorter and prove much more.
            let (grid, blank) = (case.start.grid(), case.target.blank());
            let help = shared
                .families
                .sliding
                .grids
                .stored_databases(grid, blank, |build| {
                    slice.spawn_paced(move |pacer| build(pacer));
                });
            if help == Some(Provision::Coming) {
                limits.phase(Phase::Tables, tables_done(shared, case));
                return wait(stop, limits);
            }
            let Some((Bounded { search, .. }, memory)) = bounded(case, ratio, shared) else {
                limits.phase(Phase::Waiting, 0.0);
                return wait(stop, limits);
            };
            empty.insert(Box::new((search, memory)))
        }
    };
    let ran = search.run(&stop.stop, Some(slice.end));
    if let Some(report) = &limits.report {
        tell(report, Phase::Searching, search, 0);
    }
    let found = match ran {
        Ok(Step::Suspended) => return Progress::Pending,
        Ok(Step::Done(found)) => Ok(SlidingAnswer::Solved {
            moves: Arc::from(format_moves(&found.moves)),
            lower_bound: found.lower_bound,
            cached: false,
            stats: Stats::searched(
                found.stats,
                match found.method {
                    Method::Weighted(_) => "weighted-a-star",
                    Method::Constructive => "constructive",
                },
            ),
            kind: case::kind(case.grid()),
        }),
        Err(stopped) => {
            let bound = search.lower_bound();
            Err(limits.failure(stop, stopped, 0).with_lower_bound(bound))
        }
    };
    // The boards and the reservation go now, not when the case's reply is sent.
    work.bounded = None;
    Progress::Done(found)
}

impl Puzzle for Sliding {
    type Case = SlidingCase;
    type Answer = SlidingAnswer;
    type Work = SlidingWork;

    /// Instant shapes' cases (3×3 table walks) are batched; every other case is a search job.
    fn lane(case: &SlidingCase) -> Lane {
        if Solver::is_instant(case.grid()) {
            Lane::Lookup
        } else {
            Lane::Search
        }
    }

    /// Parity, and the cache for optimal answers (instant shapes are never cached, nor counted
    /// as cache misses).
    fn prepare(case: &SlidingCase, shared: &Shared) -> Option<SlidingAnswer> {
        if !case.start.can_reach(&case.target) {
            return Some(SlidingAnswer::Unsolvable);
        }
        let moves = remembered::recall(&shared.cache, &case.start, &case.target)?;
        Some(SlidingAnswer::Solved {
            lower_bound: crate::convert::count(moves.len()),
            moves,
            cached: true,
            stats: Stats::no_search("cache"),
            kind: case::kind(case.grid()),
        })
    }

    fn begin(case: SlidingCase) -> SlidingWork {
        SlidingWork {
            case,
            stop: None,
            search: None,
            bounded: None,
            anytime: Anytime::default(),
            split: false,
        }
    }

    fn step(
        work: &mut SlidingWork,
        limits: &CaseLimits,
        shared: &Shared,
        slice: &Slice<'_>,
    ) -> Progress<Result<SlidingAnswer, Failure>> {
        let case = &work.case;
        if let Quality::Within(ratio) = case.quality
            && !Solver::answers_optimally(case.grid())
        {
            return bounded_step(work, ratio, limits, shared, slice);
        }
        let search = match &mut work.search {
            Some(started) => started,
            empty => match begin(
                &case.start,
                &case.target,
                shared,
                slice,
                !length_proven(limits),
            ) {
                Begun::Answered { moves, method } => {
                    return Progress::Done(Ok(walked(case, &moves, method)));
                }
                Begun::Unsolvable => return Progress::Done(Ok(SlidingAnswer::Unsolvable)),
                Begun::Waiting(missing) if missing.is_required() => {
                    // No search can start without it: the case's limits run from its search.
                    let done = shared.families.sliding.progress(missing);
                    limits.phase(Phase::Tables, done);
                    return Progress::Pending;
                }
                Begun::Waiting(missing) => {
                    let stop = work
                        .stop
                        .get_or_insert_with(|| limits.stop(case.node_budget));
                    // A watcher gets its first answer meanwhile (with Manhattan distance).
                    match anytime_step(&mut work.anytime, case, stop, limits, shared, slice) {
                        Progress::Pending => return Progress::Pending,
                        Progress::Done(Err(failure)) => return Progress::Done(Err(failure)),
                        Progress::Done(Ok(_)) => {}
                    }
                    limits.phase(Phase::Tables, shared.families.sliding.progress(missing));
                    return wait(stop, limits);
                }
                Begun::Search(search) => {
                    // The first answer came without the databases: once more with them.
                    if let Anytime::Over {
                        nodes,
                        informed: false,
                    } = work.anytime
                        && search.method() == "ida-pdb"
                    {
                        work.anytime = Anytime::Ahead { before: nodes };
                    }
                    empty.insert(search)
                }
            },
        };
        let stop = work
            .stop
            .get_or_insert_with(|| limits.stop(case.node_budget));
        let before = match anytime_step(&mut work.anytime, case, stop, limits, shared, slice) {
            Progress::Pending => return Progress::Pending,
            Progress::Done(Err(failure)) => return Progress::Done(Err(failure)),
            Progress::Done(Ok(nodes)) => nodes,
        };
        let ran = search.run(&stop.after(before), slice.end);
        if let Some(report) = &limits.report {
            report.searched(
                Phase::Searching,
                search.lower_bound(),
                before + search.stats().nodes,
            );
        }
        let Some(ran) = ran else {
            // A node budget is exact on one token (a team's members poll it apart).
            if !work.split && stop.node_budget().is_none() {
                work.split = split(search, shared, slice);
            }
            return Progress::Pending;
        };
        Progress::Done(match ran {
            Ok(moves) => {
                remembered::remember(&shared.cache, &case.start, &case.target, &moves);
                Ok(SlidingAnswer::Solved {
                    lower_bound: crate::convert::count(moves.len()),
                    moves: Arc::from(format_moves(&moves)),
                    cached: false,
                    stats: Stats::searched(
                        SearchStats {
                            nodes: before + search.stats().nodes,
                            ..search.stats()
                        },
                        search.method(),
                    ),
                    kind: case::kind(case.grid()),
                })
            }
            // The last iteration's bound: every shorter one was searched in full.
            Err(stopped) => {
                let proven = limits.report.as_ref().map_or(0, |r| r.latest().lower_bound);
                Err(limits
                    .failure(stop, stopped, before)
                    .with_lower_bound(search.lower_bound().max(proven)))
            }
        })
    }

    fn outcome(answer: &SlidingAnswer) -> Outcome {
        match answer {
            SlidingAnswer::Solved { .. } => Outcome::Solved,
            SlidingAnswer::Unsolvable => Outcome::Unsolvable,
        }
    }

    /// 15-puzzle answers found by search are counted by their heuristic.
    fn searched_with(answer: &SlidingAnswer) -> Option<&'static str> {
        match answer {
            SlidingAnswer::Solved {
                cached: false,
                stats,
                kind: Kind::Fifteen,
                ..
            } => Some(stats.method),
            _ => None,
        }
    }
}

/// The first slices of a watched optimal case: an answer within [`ANYTIME_RATIO`] (with the
/// target's databases when held), told to the watcher as the best so far and shortened for up
/// to [`ANYTIME_SHORTENING`] before the optimal search starts; the nodes it expanded once over. It is skipped when its memory is not free at
/// once, and ends early (the optimal search going on) when it runs out of the node budget; a
/// deadline, the time limit or a cancel end the case.
fn anytime_step(
    anytime: &mut Anytime,
    case: &SlidingCase,
    stop: &CaseStop,
    limits: &CaseLimits,
    shared: &Shared,
    slice: &Slice<'_>,
) -> Progress<Result<u64, Failure>> {
    // Shapes answered optimally within a second need no first answer.
    let Some(report) = limits
        .report
        .as_ref()
        .filter(|_| !Solver::answers_optimally(case.grid()))
    else {
        return Progress::Done(Ok(0));
    };
    let running = match anytime {
        Anytime::Over { nodes, .. } => return Progress::Done(Ok(*nodes)),
        Anytime::Running(running) => running,
        Anytime::Ahead { before } => {
            let before = *before;
            let Some((Bounded { search, informed }, memory)) = bounded(case, ANYTIME_RATIO, shared)
            else {
                // Not again: the optimal search is what was asked.
                *anytime = Anytime::Over {
                    nodes: before,
                    informed: true,
                };
                return Progress::Done(Ok(before));
            };
            *anytime = Anytime::Running(Box::new(Bounding {
                search,
                _memory: memory,
                began: Instant::now(),
                before,
                informed,
            }));
            let Anytime::Running(running) = anytime else {
                unreachable!("just set");
            };
            running
        }
    };
    let Bounding {
        search,
        began,
        before,
        informed,
        ..
    } = &mut **running;
    let ran = search.run(&stop.stop, Some(slice.end));
    let (before, informed) = (*before, *informed);
    let nodes = before + search.stats().nodes;
    tell(report, Phase::Bounding, search, before);
    match ran {
        Ok(Step::Suspended)
            if search.best_so_far().is_some() && began.elapsed() >= ANYTIME_SHORTENING => {}
        Ok(Step::Suspended) => return Progress::Pending,
        Ok(Step::Done(found)) => report.found(&format_moves(&found.moves), found.lower_bound),
        // Only the node budget is left to the optimal search (which then stops at its first
        // node): a deadline, the time limit or a cancel ends the case.
        Err(stopped) if stopped.reason != StopReason::NodeBudget => {
            let bound = search.lower_bound().max(report.latest().lower_bound);
            *anytime = Anytime::Over { nodes, informed };
            return Progress::Done(Err(limits
                .failure(stop, stopped, before)
                .with_lower_bound(bound)));
        }
        Err(_) => {}
    }
    *anytime = Anytime::Over { nodes, informed };
    Progress::Done(Ok(nodes))
}

/// A bounded search of `case` within `ratio` (with the target's databases when they are held
/// now) and the search memory it reserved; `None` when that memory is not free now.
fn bounded(case: &SlidingCase, ratio: f64, shared: &Shared) -> Option<(Bounded, Reservation)> {
    let solver = &shared.families.sliding.solver;
    let bounded = solver.bounded(&case.start, &case.target, ratio);
    let memory = shared
        .search_memory
        .reserve(bounded.search.memory_ceiling())?;
    Some((bounded, memory))
}

/// Tells a watcher how a bounded search is going, after searches of `before` nodes: its bound,
/// its nodes and its best answer.
fn tell(report: &Report, phase: Phase, search: &BoundedSearch, before: u64) {
    report.searched(phase, search.lower_bound(), before + search.stats().nodes);
    if let Some((moves, bound)) = search.best_so_far() {
        report.found(&format_moves(moves), bound);
    }
}

/// Whether a watched case's best answer so far is as short as its proven bound: the optimal
/// search then only has to find the smallest answer of that length, which it does without the
/// databases it would otherwise wait for (Manhattan distance reaches that bound quickly).
fn length_proven(limits: &CaseLimits) -> bool {
    limits.report.as_ref().is_some_and(|report| {
        let seen = report.latest();
        seen.best
            .is_some_and(|best| best.len() == seen.lower_bound as usize)
    })
}

/// A search still going after a whole slice is worth the server's other tokens: it gets one
/// helper per token more (unless it has a node budget, which stays exact on one token). Each helper is a task of the case's own flow, so it runs only on a
/// turn the flow would get anyway (another caller's cases keep theirs), and an idle server puts
/// every core on the one hard case. The answer is the one the search alone would give.
/// Returns whether it split (a search whose sets of databases still race takes helpers too:
/// they search rivals beside it, then join the winner's team).
fn split(search: &mut Search, shared: &Shared, slice: &Slice<'_>) -> bool {
    let mut split = false;
    for _ in 1..shared.scheduler.workers() {
        let Some(helper) = search.helper() else {
            break;
        };
        slice.spawn_helper(SearchHelper(helper));
        shared.metrics.search_helpers.inc();
        split = true;
    }
    split
}

/// A helper of a split search, as the scheduler runs it.
struct SearchHelper(Helper);

impl Helping for SearchHelper {
    fn run(&mut self, slice: &Slice<'_>) -> bool {
        self.0.run(slice.end)
    }

    fn is_over(&self) -> bool {
        self.0.is_over()
    }
}

/// How far the build or load of the tables `case` waits for has come (0 when unknown).
fn tables_done(shared: &Shared, case: &SlidingCase) -> f64 {
    shared
        .families
        .sliding
        .grids
        .progress(case.start.grid(), case.target.blank())
}

/// A case waiting (for tables being built, or for memory) before its search: pending until its
/// own limits (time limit, deadline, cancel) stop it.
/// A watched case may have searched meanwhile (its first answer): the failure counts those nodes
/// and carries the bound they proved.
pub(crate) fn wait<T>(stop: &CaseStop, limits: &CaseLimits) -> Progress<Result<T, Failure>> {
    match stop.stop.check(0) {
        Some(reason) => {
            let stopped = Stopped {
                reason,
                stats: SearchStats::default(),
            };
            let failure = match &limits.report {
                Some(report) => {
                    let seen = report.latest();
                    limits
                        .failure(stop, stopped, seen.nodes)
                        .with_lower_bound(seen.lower_bound)
                }
                None => limits.failure(stop, stopped, 0),
            };
            Progress::Done(Err(failure))
        }
        None => Progress::Pending,
    }
}

/// The answer read from a table: not cached (the table is the cache).
fn walked(case: &SlidingCase, moves: &[Move], method: &'static str) -> SlidingAnswer {
    SlidingAnswer::Solved {
        lower_bound: crate::convert::count(moves.len()),
        moves: Arc::from(format_moves(moves)),
        cached: false,
        stats: Stats::no_search(method),
        kind: case::kind(case.grid()),
    }
}

impl V2Puzzle for Sliding {
    const NAME: &'static str = "sliding";
    type Part = pb::SlidingPuzzle;

    /// The shape's kind; a shape out of range is counted as a 3×3 one.
    fn kind(part: &pb::SlidingPuzzle) -> Kind {
        case::grid(part.rows, part.cols).map_or(Kind::Eight, case::kind)
    }

    fn read(part: &pb::SlidingPuzzle, common: Common, _: &Shared) -> Result<SlidingCase, Failure> {
        let within = |failure: Failure| failure.within("sliding");
        let grid = case::grid(part.rows, part.cols).map_err(within)?;
        let (start, target) = case::boards(grid, &part.start, &part.target).map_err(within)?;
        Ok(SlidingCase {
            start,
            target,
            node_budget: common.node_budget,
            quality: common.quality,
        })
    }

    fn response(answer: SlidingAnswer, elapsed: Duration) -> pb::SolveResponse {
        match answer {
            SlidingAnswer::Solved {
                moves,
                lower_bound,
                cached,
                stats,
                ..
            } => answered(
                wire::sliding_solution(&moves, lower_bound),
                cached,
                stats,
                elapsed,
            ),
            SlidingAnswer::Unsolvable => wire::unsolvable(elapsed),
        }
    }
}
