//! The 15-puzzle solver as a value its owner keeps (the server holds one for the process): the
//! standard goal's databases (6-6-3, built on first use, or 7-8 once installed), the three other
//! goals' sets, the move-pruning automata, and the searches that use them. Searches share it
//! read-only; nothing is process-wide, so two solvers never see each other's tables.

use std::sync::{Arc, OnceLock};

use super::answer::{FifteenError, Solution};
use super::databases::{PatternDatabases, all_cores};
use super::search::{Prepared, SlicedSearch};
use super::sets::{DatabaseSet, Partition};
use super::turn::{HOMES, STANDARD_HOME, Turn};
use crate::pace::{Pace, Unpaced};
use crate::stop::Stop;
use crate::tiles::board::{Board4, Move};
use crate::tiles::fsm::{self, PruningTables};
use crate::tiles::grid::Grid;

/// The 15-puzzle to any target: optimal and lexicographically smallest answers by IDA* with
/// additive pattern databases. What a search needs is built on first use unless it was
/// installed or warmed up before.
///
/// ```no_run
/// use solver_core::{Board4, Stop, fifteen::Fifteen, format_moves};
/// let solver = Fifteen::new();
/// let start: Board4 = "2 3 4 0 1 5 7 8 9 6 10 12 13 14 11 15".parse().unwrap();
/// let answer = solver.solve(&start, &Board4::goal(), &Stop::never()).unwrap().unwrap();
/// assert_eq!(format_moves(&answer.moves), "llldrdrdr");
/// ```
#[derive(Debug, Default)]
pub struct Fifteen {
    /// The standard goal's 6-6-3 set.
    standard: OnceLock<Arc<PatternDatabases>>,
    /// The standard goal's 7-8 set, which replaces 6-6-3 once installed.
    strong: OnceLock<Arc<PatternDatabases>>,
    /// The sets of the other goals, in the order of `HOMES[1..]`.
    homes: [OnceLock<Arc<PatternDatabases>>; 3],
    /// The move-pruning automata of the turned move orders.
    pruning: PruningTables,
}

impl Fifteen {
    /// A solver with nothing built yet.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// A solver given `databases` (built by the caller or loaded from storage), as by
    /// [`install`](Self::install).
    #[must_use]
    pub fn with(databases: PatternDatabases) -> Self {
        let solver = Self::new();
        solver.install(databases);
        solver
    }

    fn slot(&self, set: DatabaseSet) -> &OnceLock<Arc<PatternDatabases>> {
        match set {
            DatabaseSet::Standard(Partition::P663) => &self.standard,
            DatabaseSet::Standard(Partition::P78) => &self.strong,
            DatabaseSet::Home(cell) => &self.homes[home_index(cell as usize)],
        }
    }

    /// Whether this solver has `set` now.
    #[must_use]
    pub fn has(&self, set: DatabaseSet) -> bool {
        self.slot(set).get().is_some()
    }

    /// The solver's `set`, when it has it (to store it, say).
    #[must_use]
    pub fn databases(&self, set: DatabaseSet) -> Option<&PatternDatabases> {
        self.slot(set).get().map(Arc::as_ref)
    }

    /// Gives the solver `databases` in the slot of their [`DatabaseSet`]: 7-8 replaces 6-6-3 for
    /// the standard goal from then on. Only the first set of each kind takes effect; it returns
    /// `false` for later ones.
    pub fn install(&self, databases: PatternDatabases) -> bool {
        self.slot(databases.set()).set(Arc::new(databases)).is_ok()
    }

    /// The standard goal's databases searches use: the strong ones if installed, else 6-6-3
    /// (built now, on all cores under `pace`, when missing).
    fn active(&self, pace: &dyn Pace) -> &Arc<PatternDatabases> {
        self.strong.get().unwrap_or_else(|| {
            self.standard.get_or_init(|| {
                Arc::new(PatternDatabases::build_paced(
                    Partition::P663,
                    all_cores(),
                    pace,
                ))
            })
        })
    }

    /// The databases for the goal with its blank on `home` (one of [`HOMES`] but the standard
    /// one), built now on all cores under `pace` when missing.
    fn for_home(&self, home: usize, pace: &dyn Pace) -> &Arc<PatternDatabases> {
        self.homes[home_index(home)]
            .get_or_init(|| Arc::new(DatabaseSet::Home(home as u8).build(all_cores(), pace)))
    }

    /// Gets the solver ready now, so that the first search does not wait: builds the
    /// move-pruning automaton for the standard goal (about 50 ms) and, unless strong databases
    /// are installed, the 6-6-3 databases (a few seconds), on threads run under `pace`.
    pub fn warm_up(&self, pace: &dyn Pace) {
        let longest = self.active(pace).move_pruning;
        self.pruning.get(Grid::FIFTEEN, Move::ALL, longest);
    }

    /// Builds now what targets with the blank outside the bottom-right corner need, which a
    /// search otherwise builds on first use: the databases for the three other goals (a few
    /// seconds each) and the move-pruning automata of the turned move orders.
    pub fn warm_up_any_target(&self, pace: &dyn Pace) {
        for blank in [0, 3, 12, 5, 1, 2] {
            let turn = Turn::normalizing(blank);
            self.pruning
                .get(Grid::FIFTEEN, turn.order(), fsm::DEFAULT_LONGEST);
            if turn.home != STANDARD_HOME {
                self.for_home(turn.home, pace);
            }
        }
    }

    /// Whether a search towards `target` starts without building anything first (databases,
    /// move-pruning automaton).
    #[must_use]
    pub fn is_ready_for(&self, target: &Board4) -> bool {
        let turn = Turn::normalizing(target.blank());
        let longest = self
            .strong
            .get()
            .or(self.standard.get())
            .map(|d| d.move_pruning);
        let home_ready =
            turn.home == STANDARD_HOME || self.homes[home_index(turn.home)].get().is_some();
        longest.is_some_and(|longest| self.pruning.is_built(Grid::FIFTEEN, turn.order(), longest))
            && home_ready
    }

    /// Builds what a search towards `target` needs and [`is_ready_for`](Self::is_ready_for)
    /// finds missing, on threads run under `pace`.
    pub fn warm_up_for(&self, target: &Board4, pace: &dyn Pace) {
        drop(self.prepare(target, target, pace));
    }

    /// Whether the standard goal's databases are here (no search waits for 6-6-3 to build).
    #[must_use]
    pub fn is_ready(&self) -> bool {
        self.standard.get().is_some() || self.strong.get().is_some()
    }

    /// The sets a search towards `target` needs that the solver lacks (what
    /// [`warm_up_for`](Self::warm_up_for) would build): at most the standard 6-6-3 set, when no
    /// standard set is installed, and the target's home set.
    #[must_use]
    pub fn missing_for(&self, target: &Board4) -> Vec<DatabaseSet> {
        let mut missing = Vec::new();
        if !self.is_ready() {
            missing.push(DatabaseSet::Standard(Partition::P663));
        }
        let home = Turn::normalizing(target.blank()).home;
        if home != STANDARD_HOME && self.homes[home_index(home)].get().is_none() {
            missing.push(DatabaseSet::Home(home as u8));
        }
        missing
    }

    /// The method searches use now: `"pdb-78"` once strong databases are installed, else
    /// `"pdb-663"`.
    #[must_use]
    pub fn method(&self) -> &'static str {
        self.strong
            .get()
            .map_or(Partition::P663.method(), |d| d.partition().method())
    }

    /// The optimal move sequence from `start` to `target`, lexicographically smallest among the
    /// optimal ones; `Ok(None)` when the target cannot be reached (parity), without searching.
    ///
    /// # Errors
    /// [`FifteenError::Stopped`] when `stop` fires before the answer is found.
    pub fn solve(
        &self,
        start: &Board4,
        target: &Board4,
        stop: &Stop,
    ) -> Result<Option<Solution>, FifteenError> {
        self.solve_parallel(start, target, stop, 1)
    }

    /// As [`solve`](Self::solve), splitting the last, largest iterations of the search over
    /// `threads` threads. The answer is the same for every number of threads.
    ///
    /// # Errors
    /// [`FifteenError::Stopped`] when `stop` fires before the answer is found.
    pub fn solve_parallel(
        &self,
        start: &Board4,
        target: &Board4,
        stop: &Stop,
        threads: usize,
    ) -> Result<Option<Solution>, FifteenError> {
        if !start.can_reach(target) {
            return Ok(None);
        }
        self.prepare(start, target, &Unpaced)
            .solve(stop, threads)
            .map(Some)
    }

    /// As [`solve`](Self::solve), as a search that runs in time slices ([`SlicedSearch::run`])
    /// and holds what it needs, so it may outlive this borrow; `None` when the target cannot be
    /// reached (parity). What the target needs and the solver lacks is built first, on threads
    /// run under `pace`.
    #[must_use]
    pub fn sliced(&self, start: &Board4, target: &Board4, pace: &dyn Pace) -> Option<SlicedSearch> {
        start
            .can_reach(target)
            .then(|| self.prepare(start, target, pace).sliced())
    }

    /// What a search from `start` to `target` runs on: the databases for the target's blank,
    /// the turned move order's pruning, the turn and the renamed start.
    fn prepare(&self, start: &Board4, target: &Board4, pace: &dyn Pace) -> Prepared {
        let turn = Turn::normalizing(target.blank());
        let standard = self.active(pace);
        let databases = if turn.home == STANDARD_HOME {
            standard
        } else {
            self.for_home(turn.home, pace)
        };
        Prepared::new(
            Arc::clone(databases),
            self.pruning
                .get(Grid::FIFTEEN, turn.order(), standard.move_pruning),
            turn,
            start,
            target,
        )
    }
}

/// The place of a non-standard home in [`Fifteen::homes`].
fn home_index(home: usize) -> usize {
    HOMES[1..]
        .iter()
        .position(|&h| h == home)
        .expect("a non-standard home")
}

/// The sets for targets whose blank is not in a corner (what
/// [`Fifteen::warm_up_any_target`] builds).
#[must_use]
pub fn home_sets() -> Vec<DatabaseSet> {
    HOMES[1..]
        .iter()
        .map(|&home| DatabaseSet::Home(home as u8))
        .collect()
}

/// One solver for the crate's unit tests, its 6-6-3 set built once per test binary.
#[cfg(test)]
pub(crate) fn test_solver() -> &'static Fifteen {
    static SOLVER: std::sync::LazyLock<Fifteen> =
        std::sync::LazyLock::new(|| Fifteen::with(PatternDatabases::build(Partition::P663)));
    &SOLVER
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format_moves;

    #[test]
    fn uva_sample() {
        let solver = test_solver();
        let start: Board4 = "2 3 4 0 1 5 7 8 9 6 10 12 13 14 11 15".parse().unwrap();
        let answer = solver
            .solve(&start, &Board4::goal(), &Stop::never())
            .unwrap()
            .unwrap();
        assert_eq!(format_moves(&answer.moves), "llldrdrdr");
        let unsolvable: Board4 = "13 1 2 4 5 0 3 7 9 6 10 12 15 8 11 14".parse().unwrap();
        assert_eq!(
            solver
                .solve(&unsolvable, &Board4::goal(), &Stop::never())
                .unwrap(),
            None
        );
    }

    /// Two solvers share nothing: what one holds or builds, the other does not have.
    #[test]
    fn solvers_are_independent() {
        let (one, other) = (test_solver(), Fifteen::new());
        let standard = DatabaseSet::Standard(Partition::P663);
        assert!(one.is_ready() && one.has(standard));
        assert!(!other.is_ready() && !other.has(standard));
        assert_eq!(other.missing_for(&Board4::goal()), [standard]);
        assert!(one.missing_for(&Board4::goal()).is_empty());
        one.warm_up(&Unpaced);
        assert!(one.is_ready_for(&Board4::goal()));
        assert!(!other.is_ready_for(&Board4::goal()));
        assert_eq!(other.method(), "pdb-663");
    }
}
