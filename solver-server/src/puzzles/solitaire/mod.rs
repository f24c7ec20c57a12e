//! The Solitaire family: four identical pieces on 8×8, one bidirectional-BFS job per case, in
//! slices when it runs long. The family's cases, answers, cache keys, state and v2 messages live
//! here; v1's messages are read and written by the v1 adapter (`convert::v1`).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use std::time::Duration;

use solver_core::solitaire::{self, Position, SlicedSolitaire, Square, Step};
use solver_core::{StopReason, Stopped};
use solver_proto::v2::{self as pb, solution, solve_response};

use crate::cache::{Cache, CacheKey};
use crate::config::Kind;
use crate::convert::{self, v2::Common};
use crate::errors::Failure;
use crate::metrics::Outcome;
use crate::scheduler::{Progress, Slice};
use crate::service::Shared;
use crate::service::any::V2Puzzle;
use crate::service::puzzle::{CaseLimits, CaseStop, Lane, Puzzle, Stats};

/// The move limit when a request gives 0.
pub(crate) mod flags;
pub(crate) mod state;

/// The move limit when a request gives 0.
pub(crate) const DEFAULT_MOVES: u32 = solitaire::DEFAULT_MAX_MOVES;

/// A validated Solitaire case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SolitaireCase {
    /// The start position.
    pub(crate) start: Position,
    /// The end position.
    pub(crate) end: Position,
    /// The move limit (the default when the request gave 0).
    pub(crate) max_moves: u32,
}

impl SolitaireCase {
    /// The case's cache key: its start, end and move limit.
    fn key(&self) -> CacheKey {
        // Squares are 1..=8 by row and column: a byte each.
        let squares = |position: &Position| {
            position
                .squares()
                .into_iter()
                .flat_map(|square| [square.row() as u8, square.col() as u8])
        };
        let limit = self.max_moves.to_le_bytes();
        CacheKey::new(
            Kind::Solitaire,
            squares(&self.start).chain(squares(&self.end)).chain(limit),
        )
    }
}

/// What the family caches of a case it searched.
#[derive(Debug)]
enum Remembered {
    /// A shortest way.
    Steps(Arc<[Step]>),
    /// No way within the key's move limit.
    Unreachable,
}

/// Validates a Solitaire start and end, given as (row, col) squares, and a move limit (0 = the
/// default); `max_allowed` is the server's largest move limit.
pub(crate) fn solitaire_case(
    start: &[(u32, u32)],
    end: &[(u32, u32)],
    max_moves: u32,
    max_allowed: u32,
    default_moves: u32,
) -> Result<SolitaireCase, Failure> {
    let start = position("start", start)?;
    let end = position("end", end)?;
    let max_moves = match max_moves {
        0 => default_moves.min(max_allowed),
        n if n > max_allowed => {
            return Err(Failure::invalid(
                "max_moves",
                format!("{n} is above this server's limit of {max_allowed}"),
            ));
        }
        n => n,
    };
    Ok(SolitaireCase {
        start,
        end,
        max_moves,
    })
}

/// The position of `squares`; errors name `field` and the square at fault.
fn position(field: &'static str, squares: &[(u32, u32)]) -> Result<Position, Failure> {
    let squares = squares
        .iter()
        .enumerate()
        .map(|(i, &(row, col))| {
            Square::new(row, col).map_err(|e| {
                Failure::invalid(
                    field,
                    format!("square {} (row {row}, col {col}): {e}", i + 1),
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Position::new(&squares).map_err(|e| Failure::invalid(field, e.to_string()))
}

/// The answer to a Solitaire case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SolitaireAnswer {
    /// A shortest way.
    Solved {
        /// The moves.
        steps: Arc<[Step]>,
        /// Taken from the cache.
        cached: bool,
        /// The work it cost.
        stats: Stats,
    },
    /// No way within the move limit.
    Unreachable {
        /// The limit that applied.
        max_moves: u32,
        /// Taken from the cache.
        cached: bool,
        /// The work it cost.
        stats: Stats,
    },
}

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
        match shared.cache.get::<Remembered>(&case.key())?.as_ref() {
            Remembered::Steps(steps) => Some(SolitaireAnswer::Solved {
                steps: Arc::clone(steps),
                cached: true,
                stats: Stats::no_search("cache"),
            }),
            Remembered::Unreachable => Some(SolitaireAnswer::Unreachable {
                max_moves: case.max_moves,
                cached: true,
                stats: Stats::no_search("cache"),
            }),
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
                match solitaire::search(&case.start, &case.end, case.max_moves, &quick) {
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
                        let Some(slot) = LongSlot::take(&shared.families.solitaire.long) else {
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
    let key = case.key();
    match found {
        Ok(solitaire::Outcome::Solved(solution)) => {
            let steps: Arc<[Step]> = Arc::from(solution.steps);
            cache.insert(key, Remembered::Steps(Arc::clone(&steps)));
            Ok(SolitaireAnswer::Solved {
                steps,
                cached: false,
                stats: Stats::searched(solution.stats, METHOD),
            })
        }
        Ok(solitaire::Outcome::Unreachable(stats)) => {
            cache.insert(key, Remembered::Unreachable);
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
    const NAME: &'static str = "solitaire";
    type Part = pb::SolitairePuzzle;

    fn kind(_: &pb::SolitairePuzzle) -> Kind {
        Kind::Solitaire
    }

    fn read(
        part: &pb::SolitairePuzzle,
        _: Common,
        shared: &Shared,
    ) -> Result<SolitaireCase, Failure> {
        let squares = |squares: &[pb::Square]| -> Vec<(u32, u32)> {
            squares.iter().map(|s| (s.row, s.col)).collect()
        };
        solitaire_case(
            &squares(&part.start),
            &squares(&part.end),
            part.max_moves,
            shared.config.families.solitaire.max_moves,
            DEFAULT_MOVES,
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

#[cfg(test)]
mod tests {
    use clap::Parser as _;

    use crate::config::Config;

    #[test]
    fn a_move_limit_out_of_range_is_refused_not_clamped() {
        for bad in ["0", "257", "100000"] {
            let err = Config::try_parse_from(["solver-server", "--max-solitaire-moves", bad])
                .unwrap_err()
                .to_string();
            assert!(
                err.contains("--max-solitaire-moves") && err.contains("1..=256"),
                "{err}"
            );
        }
        let config =
            Config::try_parse_from(["solver-server", "--max-solitaire-moves", "256"]).unwrap();
        assert_eq!(config.families.solitaire.max_moves, 256);
    }
}
