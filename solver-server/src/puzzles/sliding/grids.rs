//! What the server loads or builds for the other sliding shapes: complete distance tables for
//! boards of at most 12 cells ([`GridTables`], one per class of blank cell) and pattern
//! databases for larger boards ([`GridDatabases`], one set per shape and target blank cell).
//!
//! Each is loaded from the data directory or built on first use, on a build thread of its own
//! under the scheduler (one build at a time), then stored. A case never waits for a table it can
//! do without: while a small board's table is built, cases are searched by IDA* with Manhattan
//! distance (milliseconds on these boards); a larger board's case waits for its databases,
//! without which its search would take hours. A set whose build would not fit the memory budget
//! is never built, and its cases are searched with Manhattan distance. The files themselves
//! (names, checks, what fits a budget) are `solver_store::shapes`'.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use solver_core::Pace;
use solver_core::tiles::grid::Grid;
use solver_core::tiles::grid_pdb::Partition;
use solver_core::tiles::solver::Solver;
use solver_store::DataDir;
use solver_store::shapes::{self, MAX_DATABASE_CELLS, memory_budget, partition_for, tabled};

use super::progress::BuildProgress;
use super::provision::{Build, Provision};

/// What the server may load or build for the other shapes, and the builds under way; the
/// tables themselves are the [`Solver`]'s.
#[derive(Debug)]
pub(crate) struct Grids {
    solver: Arc<Solver>,
    /// Sets that cannot be had (over budget, or their build failed): not tried again.
    refused: Mutex<HashSet<(Grid, usize)>>,
    /// Set while a build runs (one at a time).
    building: Arc<AtomicBool>,
    /// The shape and blank cell of the build running, if any.
    in_progress: Mutex<Option<(Grid, usize)>>,
    /// Bytes of the sets held.
    held: AtomicU64,
    /// The most bytes a build may peak at, with the sets held.
    budget: u64,
    /// The most bytes a build started for a request may peak at (see [`Grids::new`]).
    request_build: u64,
    data: DataDir,
    threads: usize,
    /// The shapes whose move-pruning automaton build has been started.
    pruning_builds: Mutex<HashSet<Grid>>,
    /// How far the build in progress has come.
    progress: BuildProgress,
}

impl Grids {
    /// Nothing loaded or built yet for `solver`; builds use `threads` threads and keep their
    /// files in `data`; the tables held and a build in progress take at most `budget` bytes (see
    /// [`memory_budget`]).
    ///
    /// A request may load any stored set that fits, but only start a build that peaks within
    /// `request_build` bytes: a larger set (the 24-puzzle's 6-6-6-6, 3.1 GB while built) is
    /// built by an operator (`solver-client databases build --size 5x5`; the server's
    /// `build-databases` builds the 15-puzzle's sets only), and until it is stored a request gets
    /// the strongest set whose build fits.
    pub(crate) fn new(
        solver: Arc<Solver>,
        data: DataDir,
        threads: usize,
        budget: u64,
        request_build: u64,
    ) -> Self {
        Self {
            solver,
            refused: Mutex::default(),
            building: Arc::new(AtomicBool::new(false)),
            in_progress: Mutex::default(),
            held: AtomicU64::new(0),
            budget: memory_budget(budget),
            request_build,
            data,
            threads,
            pruning_builds: Mutex::default(),
            progress: BuildProgress::default(),
        }
    }

    /// Hands the build of `grid`'s move-pruning automaton for optimal searches (about 2 s on
    /// 5×5, yielding at checkpoints) to `start` to run on a paced build thread, once per
    /// shape. A search without it gives the same answer with more nodes.
    pub(crate) fn build_pruning(&self, grid: Grid, start: impl FnOnce(Build)) {
        if lock(&self.pruning_builds).insert(grid) {
            let solver = Arc::clone(&self.solver);
            start(Box::new(move |pace: &dyn Pace| {
                solver.build_pruning(grid, pace);
            }));
        }
    }

    /// The bytes left for a build.
    fn room(&self) -> u64 {
        self.budget
            .saturating_sub(self.held.load(Ordering::Relaxed))
    }

    /// The pattern databases a bounded case on `grid` towards `blank` can use: those held
    /// ([`Provision::Held`]), else, when the strongest set the budget allows is stored,
    /// [`Provision::Coming`] while it loads (started through `start`, as
    /// [`provide`](Self::provide) does); `None` when there is none to load (a bounded case never
    /// starts a build: it must be quick).
    pub(crate) fn stored_databases(
        self: &Arc<Self>,
        grid: Grid,
        blank: usize,
        start: impl FnOnce(Build),
    ) -> Option<Provision> {
        if self.held(grid, blank) {
            return Some(Provision::Held);
        }
        if tabled(grid) || grid.cells() > MAX_DATABASE_CELLS {
            return None;
        }
        let strongest = partition_for(grid, blank, self.room())?;
        let stored = shapes::databases_stored(&self.data, &strongest);
        if !stored || lock(&self.refused).contains(&(grid, blank)) {
            return None;
        }
        // Another shape's build may take minutes: a bounded case does not wait for it.
        let busy_elsewhere = self.building.load(Ordering::Acquire)
            && *lock(&self.in_progress) != Some((grid, blank));
        if busy_elsewhere {
            return None;
        }
        Some(self.provide(grid, blank, start))
    }

    /// Gets what a case on `grid` towards a target with the blank on `blank` needs: when it is
    /// missing and may be had, `start` is called to run [`prepare`](Self::prepare) on a build
    /// thread (one build at a time).
    pub(crate) fn provide(
        self: &Arc<Self>,
        grid: Grid,
        blank: usize,
        start: impl FnOnce(Build),
    ) -> Provision {
        if self.held(grid, blank) {
            return Provision::Held;
        }
        let key = (grid, blank);
        if lock(&self.refused).contains(&key) || !self.affordable(grid, blank) {
            return Provision::Refused;
        }
        if !self.building.swap(true, Ordering::AcqRel) {
            // A build may have finished between the look above and taking the flag: look again,
            // or its file would be loaded (and counted against the budget) a second time.
            let again = if self.held(grid, blank) {
                Some(Provision::Held)
            } else {
                lock(&self.refused)
                    .contains(&key)
                    .then_some(Provision::Refused)
            };
            if let Some(again) = again {
                self.building.store(false, Ordering::Release);
                return again;
            }
            *lock(&self.in_progress) = Some(key);
            let grids = Arc::clone(self);
            start(Box::new(move |pace: &dyn Pace| {
                let what = format!("{grid} tables, blank on cell {blank}");
                grids.prepare(grid, blank, &grids.progress.tracking(pace, what));
                *lock(&grids.in_progress) = None;
                grids.building.store(false, Ordering::Release);
            }));
        }
        Provision::Coming
    }

    /// How far the load or build of what `grid` and `blank` need has come, 0 to 1 (0 when it
    /// is not under way or cannot tell).
    pub(crate) fn progress(&self, grid: Grid, blank: usize) -> f64 {
        if *lock(&self.in_progress) == Some((grid, blank)) {
            self.progress.fraction()
        } else {
            0.0
        }
    }

    /// Whether the table or databases for `grid` and `blank` are held.
    fn held(&self, grid: Grid, blank: usize) -> bool {
        if tabled(grid) {
            self.solver.table(grid, blank).is_some()
        } else {
            self.solver.databases(grid, blank).is_some()
        }
    }

    /// Whether building what `grid` and `blank` need fits the memory budget beside what is held.
    fn affordable(&self, grid: Grid, blank: usize) -> bool {
        if tabled(grid) {
            shapes::table_fits(grid, self.room())
        } else {
            grid.cells() <= MAX_DATABASE_CELLS && self.partition_to_use(grid, blank).is_some()
        }
    }

    /// The databases a case on `grid` towards `blank` gets: the strongest the room allows when
    /// it is stored (loading takes seconds), else the strongest whose build also fits the
    /// request build limit.
    fn partition_to_use(&self, grid: Grid, blank: usize) -> Option<Partition> {
        shapes::partition_to_use(&self.data, grid, blank, self.room(), self.request_build)
    }

    /// Loads every stored set of pattern databases for a standard goal (the blank last) that
    /// the budget allows, blocking (a second for the 24-puzzle's 977 MB): a server that warms up
    /// `sliding` answers such cases at once from its first, bounded ones included. Builds none;
    /// returns the shapes loaded.
    pub(crate) fn load_stored(&self, pace: &dyn Pace) -> Vec<Grid> {
        let shapes = (Grid::MIN..=Grid::MAX)
            .flat_map(|rows| (Grid::MIN..=Grid::MAX).map(move |cols| Grid::new(rows, cols)))
            .filter_map(Result::ok)
            .filter(|&grid| {
                !tabled(grid)
                    && grid.cells() <= MAX_DATABASE_CELLS
                    && !Solver::answers_optimally(grid)
            });
        let mut loaded = Vec::new();
        for grid in shapes {
            let blank = grid.cells() - 1;
            let stored = self
                .partition_to_use(grid, blank)
                .is_some_and(|partition| shapes::databases_stored(&self.data, &partition));
            if !stored || self.held(grid, blank) || self.building.swap(true, Ordering::AcqRel) {
                continue;
            }
            self.prepare(grid, blank, pace);
            self.building.store(false, Ordering::Release);
            if self.held(grid, blank) {
                loaded.push(grid);
            }
        }
        loaded
    }

    /// Loads or builds (then stores) what `grid` and `blank` need; on a build thread. What is
    /// held already is neither loaded nor counted again.
    pub(crate) fn prepare(&self, grid: Grid, blank: usize, pace: &dyn Pace) {
        if self.held(grid, blank) {
            return;
        }
        if tabled(grid) {
            let tables = self.solver.tables(grid, self.threads);
            // Every stored class's table: a file is read in well under a second.
            let loaded = shapes::load_tables(&self.data, &tables);
            self.held.fetch_add(loaded, Ordering::Relaxed);
            if tables.get(blank).is_some() {
                return;
            }
            let Some(bytes) = shapes::build_table(&self.data, &tables, blank, pace) else {
                lock(&self.refused).insert((grid, blank));
                return;
            };
            self.held.fetch_add(bytes, Ordering::Relaxed);
        } else {
            let Some(partition) = self.partition_to_use(grid, blank) else {
                lock(&self.refused).insert((grid, blank));
                return;
            };
            let rivals = shapes::rivals_within(
                &partition,
                self.room().saturating_sub(partition.table_bytes()),
            );
            if self.prepare_together(grid, blank, &partition, &rivals) {
                return;
            }
            let set = shapes::databases(&self.data, partition, self.threads, pace);
            let bytes = set.memory_bytes();
            if !self.solver.install_databases(grid, blank, set) {
                return;
            }
            self.held.fetch_add(bytes, Ordering::Relaxed);
            // Stored rivals race the set on each optimal case; only an operator builds them.
            for rival in rivals {
                let Some(set) = shapes::load_databases(&self.data, &rival) else {
                    continue;
                };
                let bytes = set.memory_bytes();
                if self.solver.install_rival_databases(grid, blank, set) {
                    self.held.fetch_add(bytes, Ordering::Relaxed);
                }
            }
        }
    }

    /// Loads the stored sets of `main` and `rivals` into one allocation and installs `main`'s
    /// with the views that race it (each stored rival, `main` maximised with the first, and
    /// every pair crossed; `GridDatabases::raced_views`):
    /// false when `main` or every rival is not stored, or they cannot be read together.
    fn prepare_together(
        &self,
        grid: Grid,
        blank: usize,
        main: &Partition,
        rivals: &[Partition],
    ) -> bool {
        if !shapes::databases_stored(&self.data, main) {
            return false;
        }
        let stored = rivals
            .iter()
            .filter(|rival| shapes::databases_stored(&self.data, rival))
            .cloned();
        let partitions: Vec<Partition> = std::iter::once(main.clone()).chain(stored).collect();
        if partitions.len() < 2 {
            return false;
        }
        let Some(set) = shapes::load_together(&self.data, &partitions) else {
            return false;
        };
        // The views share the set's bytes: it is counted once.
        let bytes = set.memory_bytes();
        if self.solver.install_databases(grid, blank, set.view(&[0])) {
            self.held.fetch_add(bytes, Ordering::Relaxed);
            for view in set.raced_views() {
                self.solver.install_rival_databases(grid, blank, view);
            }
        }
        true
    }
}

/// A lock whose holder never panics while holding it, so poisoning carries no meaning.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use solver_core::tiles::grid_pdb::GridDatabases;

    /// A request starts no build that peaks beyond its limit: the 24-puzzle's 6-6-6-6 (3.1 GB
    /// while built) is left to an operator, and a request gets a smaller set meanwhile.
    #[test]
    fn requests_build_within_their_limit() {
        let grid = Grid::new(5, 5).unwrap();
        let blank = grid.cells() - 1;
        let request_limit = 256 << 20;
        let grids = Grids::new(
            Arc::default(),
            DataDir::new(None),
            1,
            8 << 30,
            request_limit,
        );
        let partition = grids.partition_to_use(grid, blank).expect("a smaller set");
        assert!(partition.build_bytes() <= request_limit);
        assert_ne!(partition, Partition::default_for(grid, blank));
        // An operator's build has no request limit.
        let operator = Grids::new(Arc::default(), DataDir::new(None), 1, 8 << 30, u64::MAX);
        if operator.room() >= Partition::default_for(grid, blank).build_bytes() {
            assert_eq!(
                operator.partition_to_use(grid, blank),
                Some(Partition::default_for(grid, blank))
            );
        }
    }

    /// However many cases ask at once, a stored set is loaded once and counted once against
    /// the budget: a case that saw it missing just before another's load finished must not
    /// start a second load (the 5×5 set is 977 MB). The load runs in the asking thread while
    /// the other cases keep asking.
    #[test]
    fn cases_asking_at_once_load_a_stored_set_once() {
        let dir = std::env::temp_dir().join(format!("grids-once-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let grid = Grid::new(3, 5).unwrap();
        let blank = grid.cells() - 1;
        let (budget_mib, unpaced) = (1, &solver_core::Unpaced);
        let data = DataDir::new(Some(dir.clone()));
        shapes::build_shape(data.clone(), grid, blank, 1, budget_mib, unpaced).unwrap();
        for round in 0..16 {
            let budget = budget_mib << 20;
            let grids = Arc::new(Grids::new(Arc::default(), data.clone(), 1, budget, budget));
            let (cases, starts) = (6, AtomicU64::new(0));
            let barrier = std::sync::Barrier::new(cases);
            let sets: Vec<Arc<GridDatabases>> = std::thread::scope(|scope| {
                let asking: Vec<_> = (0..cases)
                    .map(|_| {
                        scope.spawn(|| {
                            barrier.wait();
                            loop {
                                let provision = grids.provide(grid, blank, |build| {
                                    starts.fetch_add(1, Ordering::Relaxed);
                                    // A 5×5 set takes seconds: every case is asking by then.
                                    std::thread::sleep(std::time::Duration::from_millis(20));
                                    build(unpaced);
                                });
                                match provision {
                                    Provision::Held => {
                                        return grids.solver.databases(grid, blank).unwrap();
                                    }
                                    Provision::Coming => std::hint::spin_loop(),
                                    Provision::Refused => panic!("round {round}: refused"),
                                }
                            }
                        })
                    })
                    .collect();
                asking.into_iter().map(|c| c.join().unwrap()).collect()
            });
            assert_eq!(starts.into_inner(), 1, "round {round}: loads started");
            assert!(sets.iter().all(|set| Arc::ptr_eq(set, &sets[0])));
            assert_eq!(
                grids.held.load(Ordering::Relaxed),
                sets[0].memory_bytes(),
                "round {round}: bytes held"
            );
            // Asked again, a held set is neither loaded nor counted again.
            grids.prepare(grid, blank, unpaced);
            assert_eq!(grids.held.load(Ordering::Relaxed), sets[0].memory_bytes());
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A warm-up loads the stored sets for standard goals, and builds none.
    #[test]
    fn stored_sets_for_standard_goals_load_before_serving() {
        let dir = std::env::temp_dir().join(format!("grids-warm-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let grid = Grid::new(3, 5).unwrap();
        let (budget_mib, unpaced) = (1, &solver_core::Unpaced);
        let data = DataDir::new(Some(dir.clone()));
        let budget = budget_mib << 20;
        let empty = Grids::new(Arc::default(), data.clone(), 1, budget, budget);
        assert_eq!(
            empty.load_stored(unpaced),
            Vec::<Grid>::new(),
            "nothing stored"
        );
        shapes::build_shape(data.clone(), grid, grid.cells() - 1, 1, budget_mib, unpaced).unwrap();
        let grids = Grids::new(Arc::default(), data, 1, budget, budget);
        assert_eq!(grids.load_stored(unpaced), vec![grid]);
        assert!(grids.solver.databases(grid, grid.cells() - 1).is_some());
        assert!(
            grids.load_stored(unpaced).is_empty(),
            "held: not loaded again"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A bounded case loads a stored set (and waits for it) but never starts a build.
    #[test]
    fn bounded_cases_load_stored_sets_and_build_none() {
        let dir = std::env::temp_dir().join(format!("grids-stored-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let grid = Grid::new(4, 5).unwrap();
        let blank = grid.cells() - 1;
        let grids = Arc::new(Grids::new(
            Arc::default(),
            DataDir::new(Some(dir.clone())),
            1,
            64 << 20,
            64 << 20,
        ));
        let mut started = 0;
        let none = grids.stored_databases(grid, blank, |_| started += 1);
        assert!(none.is_none());
        assert_eq!(started, 0, "no build for a bounded case");
        let partition = partition_for(grid, blank, grids.room()).unwrap();
        std::fs::write(
            dir.join(solver_core::tiles::grid_pdb::file_name(&partition)),
            b"stored",
        )
        .unwrap();
        let coming = grids.stored_databases(grid, blank, |_| started += 1);
        assert!(coming == Some(Provision::Coming), "{coming:?}");
        assert_eq!(started, 1, "the stored set is loaded");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
