//! The sliding family's warm-up policy: which tables to get ready before SERVING (the 8- and
//! 15-puzzle's, the stored databases of the other shapes, then a bounded search per worker on
//! the largest shape whose databases were loaded), and which 15-puzzle databases to load, build
//! and store after.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use solver_core::Stop;
use solver_core::fifteen;
use solver_core::tiles::bounded::Step;
use solver_core::tiles::grid::Grid;
use solver_core::tiles::grid_board::GridBoard;
use solver_core::tiles::solver::Solver;
use solver_store::{STANDARD, STRONG};

use crate::budget::MemoryBudget;
use crate::config::Kind;
use crate::puzzles::Serving;
use crate::scheduler::{JobError, Progress, Scheduler, run_in_background, run_paced};
use crate::service::Shared;

/// Gets the configured tables ready off the async workers, then reports SERVING.
///
/// Every set of 15-puzzle databases comes from the data directory when it is stored there, and
/// is stored there when built. Stored 7-8 databases (a fraction of a second to load) make the
/// 6-6-3 set unnecessary; without them the 6-6-3 set serves, and when building is allowed the
/// 7-8 set is built and stored in the background after SERVING.
pub(crate) fn spawn(shared: &Arc<Shared>, serving: Serving) {
    let scheduler = Arc::clone(&shared.scheduler);
    let (solver, search_memory) = (
        Arc::clone(&shared.families.sliding.solver),
        Arc::clone(&shared.search_memory),
    );
    let config = &shared.config;
    let squares = Arc::clone(shared.families.sliding.squares());
    let grids = Arc::clone(&shared.families.sliding.grids);
    let data = shared.families.sliding.data.clone();
    let metrics = Arc::clone(&shared.metrics);
    let kinds = config.tables.warm_up.0.clone();
    let fifteen = kinds.contains(&Kind::Fifteen);
    let targets = config.tables.warm_up_targets && fifteen;
    let build = config.tables.build_databases;
    // The builds' threads run under the scheduler, so they only take turns with the cases.
    let build_threads = scheduler.workers();
    tokio::spawn(async move {
        let started = Instant::now();
        let (warm_data, warm_squares) = (data.clone(), Arc::clone(&squares));
        let ready = run_paced(&scheduler, move |pacer| {
            let solver = warm_squares.fifteen();
            let strong = fifteen && warm_data.install_stored(solver, STRONG);
            let mut with_databases = Vec::new();
            for kind in kinds {
                let started = Instant::now();
                if kind == Kind::Fifteen && !strong {
                    warm_data.provide(solver, STANDARD, build_threads, pacer);
                }
                if let Some(grid) = tables_shape(kind) {
                    warm_squares.warm_up(grid, pacer);
                }
                if kind == Kind::Sliding {
                    let loaded = grids.load_stored(pacer);
                    tracing::info!(shapes = ?loaded, "stored pattern databases of the other shapes loaded");
                    // Their optimal searches want their move-pruning automata too (seconds on
                    // 5×5): a case begun before its shape's is built searches without it.
                    for &grid in &loaded {
                        let started = Instant::now();
                        grids.build_pruning(grid, |build| build(pacer));
                        tracing::info!(%grid, elapsed = ?started.elapsed(), "move-pruning automaton ready");
                    }
                    with_databases.extend(loaded);
                }
                tracing::info!(%kind, elapsed = ?started.elapsed(), "tables ready");
            }
            (fifteen && !strong, with_databases)
        })
        .await;
        let missing = match ready {
            Ok((missing, with_databases)) => {
                let started = Instant::now();
                let largest = with_databases
                    .iter()
                    .copied()
                    .max_by_key(|grid| grid.cells());
                let searched = match largest {
                    Some(grid) => bounded_searches(&scheduler, &solver, &search_memory, grid).await,
                    None => 0,
                };
                if searched > 0 {
                    tracing::info!(searched, elapsed = ?started.elapsed(), "bounded searches warmed up");
                }
                missing
            }
            Err(JobError::Closed) => return,
            Err(err) => {
                tracing::error!(cause = %err, "warm-up panicked; staying NOT_SERVING");
                return;
            }
        };
        metrics.set_fifteen_heuristic(squares.fifteen().method());
        if serving().await {
            tracing::info!(elapsed = ?started.elapsed(), method = squares.fifteen().method(), "warm-up done: SERVING");
        }
        if targets {
            // Targets whose blank is not in a corner have databases of their own: get them now
            // rather than in the first such case.
            let started = Instant::now();
            let (targets_data, targets_squares) = (data.clone(), Arc::clone(&squares));
            // A case whose target needs these sets waits for them and hurries this job.
            let got = run_in_background(&scheduler, move |pacer| {
                for set in fifteen::home_sets() {
                    targets_data.provide(targets_squares.fifteen(), set, build_threads, pacer);
                }
                targets_squares.fifteen().warm_up_any_target(pacer);
            })
            .await;
            match got {
                Ok(()) => {
                    tracing::info!(elapsed = ?started.elapsed(), "15-puzzle databases for targets with the blank elsewhere ready");
                }
                Err(JobError::Closed) => return,
                Err(err) => {
                    tracing::error!(cause = %err, "building the 15-puzzle databases for other targets panicked");
                }
            }
        }
        let Some(dir) = data
            .data()
            .path()
            .filter(|_| missing)
            .map(Path::to_path_buf)
        else {
            return;
        };
        if !build {
            tracing::info!(dir = %dir.display(), "no stored 7-8 pattern databases, and building them is off; 15-puzzle searches use the 6-6-3 ones");
            return;
        }
        tracing::info!(dir = %dir.display(), threads = build_threads, "building the 7-8 pattern databases in the background");
        let started = Instant::now();
        let strong_squares = Arc::clone(&squares);
        // No case waits for the 7-8 set (the 6-6-3 one serves meanwhile): it takes the CPU only
        // when callers leave it some.
        match run_in_background(&scheduler, move |pacer| {
            data.provide(strong_squares.fifteen(), STRONG, build_threads, pacer);
        })
        .await
        {
            Ok(()) => {
                tracing::info!(elapsed = ?started.elapsed(), "7-8 pattern databases ready; 15-puzzle searches use them");
            }
            Err(JobError::Closed) => return,
            Err(err) => {
                tracing::error!(cause = %err, "building the 7-8 pattern databases panicked");
            }
        }
        metrics.set_fifteen_heuristic(squares.fifteen().method());
    });
}

/// The shape whose tables `kind` warms up (`--warm-up` names kinds): 3×3 or 4×4; the other
/// kinds have none to warm up.
#[must_use]
pub fn tables_shape(kind: Kind) -> Option<Grid> {
    match kind {
        Kind::Eight => Some(Grid::EIGHT),
        Kind::Fifteen => Some(Grid::FIFTEEN),
        _ => None,
    }
}

/// The ratio the warm-up's bounded searches are asked for: the one the service's users ask most.
const WARM_UP_RATIO: f64 = 1.5;

/// Runs one bounded search (weighted A* with the databases just loaded) on a far board of
/// `grid` per worker, all at once (those the search memory has no room for are skipped, not
/// waited for), and returns how many ran to the end. The warm-up asks for the largest shape
/// whose databases were loaded: its boards take the most memory, so the heaps then fit the
/// others' too, and more shapes stored do not delay SERVING further.
///
/// Why: the first bounded cases after SERVING paid about 80 ms each (28 k and 52 k page faults,
/// against about 5.5 k for every later case, measured with `perf stat -e page-faults` on a
/// fresh release server) while the allocator grew each worker thread's heap and raised its
/// thresholds; a search per worker before SERVING pays that instead of the first callers (with
/// it: at most 4 k and 27 k faults for the first two, then at most 1 k; SERVING comes about a
/// second later).
async fn bounded_searches(
    scheduler: &Scheduler,
    solver: &Arc<Solver>,
    memory: &Arc<MemoryBudget>,
    grid: Grid,
) -> usize {
    let mut searches = Vec::new();
    let goal = GridBoard::goal(grid);
    let start = far_board(&goal);
    for _ in 0..scheduler.workers() {
        let search = solver.bounded(&start, &goal, WARM_UP_RATIO).search;
        let Some(reserved) = memory.reserve(search.memory_ceiling()) else {
            continue;
        };
        let stop = Stop::never();
        let mut held = Some((search, reserved));
        searches.push(scheduler.run(scheduler.flow(), move |slice| {
            let Some((search, _)) = &mut held else {
                return Progress::Done(false);
            };
            let ran = search.run(&stop, Some(slice.end));
            if matches!(ran, Ok(Step::Suspended)) {
                return Progress::Pending;
            }
            // The boards and their reservation go before the result is sent.
            held = None;
            Progress::Done(ran.is_ok())
        }));
    }
    let mut done = 0;
    for search in searches {
        done += usize::from(matches!(search.await, Ok(true)));
    }
    done
}

/// A board far from `goal` (its cells in reverse order, two tiles swapped where that cannot
/// reach it): the bounded search of a hard board uses the most memory its budget allows.
fn far_board(goal: &GridBoard) -> GridBoard {
    let mut cells: Vec<u8> = goal.cells().iter().rev().copied().collect();
    let board = GridBoard::new(goal.grid(), &cells).expect("a permutation of the goal's cells");
    if board.can_reach(goal) {
        return board;
    }
    let n = cells.len();
    // The blank is on the first cell: the last two cells hold tiles.
    cells.swap(n - 1, n - 2);
    GridBoard::new(goal.grid(), &cells).expect("a permutation of the goal's cells")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::Metrics;

    #[test]
    fn far_boards_reach_their_goal_on_every_shape() {
        for rows in Grid::MIN..=Grid::MAX {
            for cols in Grid::MIN..=Grid::MAX {
                let goal = GridBoard::goal(Grid::new(rows, cols).unwrap());
                let far = far_board(&goal);
                assert!(far.can_reach(&goal), "{rows}x{cols}");
                assert_ne!(far, goal, "{rows}x{cols}");
            }
        }
    }

    /// One search per worker runs to its end, its memory given back after.
    #[tokio::test]
    async fn bounded_searches_run_once_per_worker() {
        let scheduler = Scheduler::new(2, Arc::new(Metrics::new()));
        let solver = Arc::new(Solver::default());
        let memory = MemoryBudget::new(usize::MAX / 2);
        let grid = Grid::new(4, 5).unwrap();
        assert_eq!(
            bounded_searches(&scheduler, &solver, &memory, grid).await,
            2
        );
        assert_eq!(memory.used(), 0);
        // A search larger than the budget runs alone: the others are skipped, not waited for.
        let tight = MemoryBudget::new(1);
        assert_eq!(bounded_searches(&scheduler, &solver, &tight, grid).await, 1);
        assert_eq!(tight.used(), 0);
    }
}
