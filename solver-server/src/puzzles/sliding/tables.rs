//! The one owner of the family's tables, per server, and how a case gets what it lacks.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use solver_core::tiles::scramble::EightLayers;
use solver_core::tiles::solver::{Missing, Solver, Squares};
use solver_store::Loader;

use super::grids::Grids;
use super::progress::BuildProgress;
use super::provision::{Build, Provision};
use crate::config::Config;
use crate::scheduler::Slice;

/// Every table the family's searches share read-only, one owner per server: the core's
/// [`Solver`] (which holds them and picks each case's method, with the 8- and 15-puzzle tables
/// of [`Squares`] that callers may share between servers), what may be loaded or built for the
/// other shapes ([`Grids`]), and the 3×3 boards by distance for `Scramble`.
#[derive(Debug)]
pub(crate) struct Tables {
    /// The tables, and the choice of method.
    pub(crate) solver: Arc<Solver>,
    /// What the other shapes may load or build, and their builds.
    pub(crate) grids: Arc<Grids>,
    /// Where the 15-puzzle's pattern databases are loaded from and stored, and to whom what is
    /// found there is reported.
    pub(crate) data: Loader,
    /// Set while a 15-puzzle case's missing tables are being built (one build at a time).
    fifteen_building: Arc<AtomicBool>,
    /// How far that build has come.
    fifteen_progress: Arc<BuildProgress>,
    /// Every 3×3 board by its distance from the goal, for `Scramble`; built on first use.
    pub(crate) layers: OnceLock<EightLayers>,
}

impl Tables {
    /// The tables of a server configured by `config`, with the 8- and 15-puzzle's of `squares`.
    pub(crate) fn new(config: &Config, squares: Arc<Squares>) -> Self {
        let data = config.tables.data();
        let solver = Arc::new(
            Solver::new(squares).with_move_pruning_cap(usize::from(config.tables.move_pruning)),
        );
        Self {
            grids: Arc::new(Grids::new(
                Arc::clone(&solver),
                data.clone(),
                config.scheduling.worker_count(),
                config.tables.memory << 20,
                config.tables.request_build_memory.saturating_mul(1 << 20),
            )),
            solver,
            data: Loader::new(data, config.tables.findings.clone()),
            fifteen_building: Arc::default(),
            fifteen_progress: Arc::default(),
            layers: OnceLock::new(),
        }
    }

    /// The 8- and 15-puzzle tables.
    pub(crate) fn squares(&self) -> &Arc<Squares> {
        self.solver.squares()
    }

    /// Gets what a case lacks: loaded or built on a thread of `slice`'s flow (one build at a
    /// time per kind of table, its `threads` threads under the scheduler), when it may be had.
    pub(crate) fn provide(&self, missing: Missing, threads: usize, slice: &Slice<'_>) -> Provision {
        let spawn = |build: Build| {
            slice.spawn_paced(move |pacer| build(pacer));
        };
        match missing {
            Missing::Fifteen(target) => self.provide_fifteen(target, threads, slice),
            Missing::Table { grid, blank } | Missing::Databases { grid, blank } => {
                self.grids.provide(grid, blank, spawn)
            }
        }
    }

    /// How far the load or build of what `missing` names has come, 0 to 1 (0 when unknown).
    pub(crate) fn progress(&self, missing: Missing) -> f64 {
        match missing {
            Missing::Fifteen(_) => self.fifteen_progress.fraction(),
            Missing::Table { grid, blank } | Missing::Databases { grid, blank } => {
                self.grids.progress(grid, blank)
            }
        }
    }

    /// The 15-puzzle databases for `target`: when some are missing, they are loaded or built
    /// (then stored) on a thread of their own, one build at a time.
    fn provide_fifteen(
        &self,
        target: solver_core::Board4,
        threads: usize,
        slice: &Slice<'_>,
    ) -> Provision {
        let squares = Arc::clone(self.squares());
        if squares.fifteen().is_ready_for(&target) {
            return Provision::Held;
        }
        // The background job may be building these very sets: this case waits for it then.
        slice.hurry_background();
        if !self.fifteen_building.swap(true, Ordering::AcqRel) {
            // A build may have finished between the look above and taking the flag: look again
            // rather than start another (which would find everything there, but take a thread).
            if squares.fifteen().is_ready_for(&target) {
                self.fifteen_building.store(false, Ordering::Release);
                return Provision::Held;
            }
            let building = Arc::clone(&self.fifteen_building);
            let (data, progress) = (self.data.clone(), Arc::clone(&self.fifteen_progress));
            slice.spawn_paced(move |pacer| {
                let what = "15-puzzle pattern databases".to_owned();
                let pace = progress.tracking(pacer, what);
                let fifteen = squares.fifteen();
                // Stored 7-8 databases, when there are any, save building the 6-6-3 ones.
                if !fifteen.is_ready() {
                    data.install_stored(fifteen, solver_store::STRONG);
                }
                for set in fifteen.missing_for(&target) {
                    data.provide(fifteen, set, threads, &pace);
                }
                fifteen.warm_up_for(&target, &pace);
                building.store(false, Ordering::Release);
            });
        }
        Provision::Coming
    }
}
