//! The sliding family's warm-up policy: which tables to get ready before SERVING (the 8- and
//! 15-puzzle's, the stored databases of the other shapes), and which 15-puzzle databases to
//! load, build and store after.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use solver_core::fifteen;
use solver_core::tiles::grid::Grid;
use solver_store::{STANDARD, STRONG};

use crate::config::Kind;
use crate::puzzles::Serving;
use crate::scheduler::{JobError, run_in_background, run_paced};
use crate::service::Shared;

/// Gets the configured tables ready off the async workers, then reports SERVING.
///
/// Every set of 15-puzzle databases comes from the data directory when it is stored there, and
/// is stored there when built. Stored 7-8 databases (a fraction of a second to load) make the
/// 6-6-3 set unnecessary; without them the 6-6-3 set serves, and when building is allowed the
/// 7-8 set is built and stored in the background after SERVING.
pub(crate) fn spawn(shared: &Arc<Shared>, serving: Serving) {
    let scheduler = Arc::clone(&shared.scheduler);
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
                    for grid in loaded {
                        let started = Instant::now();
                        grids.build_pruning(grid, |build| build(pacer));
                        tracing::info!(%grid, elapsed = ?started.elapsed(), "move-pruning automaton ready");
                    }
                }
                tracing::info!(%kind, elapsed = ?started.elapsed(), "tables ready");
            }
            fifteen && !strong
        })
        .await;
        let missing = match ready {
            Ok(missing) => missing,
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
