//! Built sets of pattern databases, owned by a caller or kept process-wide for the goals other
//! than the standard one (every standard set shares those), and the searches they prepare.

use std::sync::OnceLock;

use super::additive::Additive;
use super::answer::{FifteenError, Solution};
use super::search::{Prepared, SlicedSearch};
use super::sets::{DatabaseSet, Partition, region_patterns};
use super::turn::{HOMES, STANDARD_HOME, Turn};
use crate::pace::{Pace, Stage, Unpaced};
use crate::stop::Stop;
use crate::tiles::board::Board4;
use crate::tiles::fsm::{self, MovePruning};
use crate::tiles::pdb::Pdb;

impl DatabaseSet {
    /// Builds the set on `threads` threads run under `pace`: seconds for the 6-6-3 sets,
    /// minutes and about 2 GB of memory for 7-8.
    #[must_use]
    pub fn build(self, threads: usize, pace: &dyn Pace) -> PatternDatabases {
        match self {
            DatabaseSet::Standard(partition) => {
                PatternDatabases::build_paced(partition, threads, pace)
            }
            DatabaseSet::Home(_) => PatternDatabases::build_for_goal(self.goal(), threads, pace),
        }
    }
}

/// A set of additive pattern databases that a caller owns (the process-wide one serves
/// [`solve`](super::solve)).
#[derive(Debug)]
pub struct PatternDatabases {
    heuristic: Additive,
    partition: Partition,
    /// The goal the databases were built for (the standard one but for [`for_home`]'s).
    goal: Board4,
    /// The longest duplicate move strings the searches prune.
    pub(super) move_pruning: usize,
}

impl PatternDatabases {
    /// Builds the databases of `partition` on all cores: seconds for 6-6-3; minutes and about
    /// 2 GB of memory for 7-8.
    #[must_use]
    pub fn build(partition: Partition) -> Self {
        Self::build_on(partition, all_cores())
    }

    /// As [`build`](Self::build), on `threads` threads (a server building in the background
    /// may want to leave cores to its searches).
    #[must_use]
    pub fn build_on(partition: Partition, threads: usize) -> Self {
        Self::build_paced(partition, threads, &Unpaced)
    }

    /// As [`build_on`](Self::build_on), each thread running under `pace`.
    #[must_use]
    pub fn build_paced(partition: Partition, threads: usize, pace: &dyn Pace) -> Self {
        let pdbs = build_each(
            &DatabaseSet::Standard(partition).patterns(),
            &Board4::goal(),
            threads,
            pace,
        );
        Self::from_pdbs(pdbs, DatabaseSet::Standard(partition))
    }

    /// 6-6-3-style databases for `goal`: one per region of [`REGIONS`], holding the tiles whose
    /// goal cells lie in it.
    fn build_for_goal(goal: Board4, threads: usize, pace: &dyn Pace) -> Self {
        let pdbs = build_each(&region_patterns(&goal), &goal, threads, pace);
        Self::from_pdbs(pdbs, DatabaseSet::Home(goal.blank() as u8))
    }

    /// The partition these databases cover.
    #[must_use]
    pub fn partition(&self) -> Partition {
        self.partition
    }

    /// Which set these databases are.
    #[must_use]
    pub fn set(&self) -> DatabaseSet {
        if self.goal == Board4::goal() {
            DatabaseSet::Standard(self.partition)
        } else {
            DatabaseSet::Home(self.goal.blank() as u8)
        }
    }

    pub(crate) fn from_pdbs(pdbs: Vec<Pdb>, set: DatabaseSet) -> Self {
        let goal = set.goal();
        let partition = match set {
            DatabaseSet::Standard(partition) => partition,
            DatabaseSet::Home(_) => Partition::P663,
        };
        Self {
            heuristic: Additive::new(pdbs, &goal),
            partition,
            goal,
            move_pruning: fsm::DEFAULT_LONGEST,
        }
    }

    /// Sets the longest move strings the searches look for as duplicates to prune: 2 prunes
    /// only a move followed by its reverse, 0 nothing; the default is 12 and at most 16 count.
    /// Answers are the same for every setting (only the work differs); this is for measuring.
    #[must_use]
    pub fn with_move_pruning(mut self, longest: usize) -> Self {
        self.move_pruning = longest.min(fsm::MAX_LONGEST);
        self
    }

    pub(crate) fn pdbs(&self) -> &[Pdb] {
        &self.heuristic.pdbs
    }

    /// As [`solve`](super::solve), with these databases.
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
        let Some(search) = self.prepare(start, target, &Unpaced) else {
            return Ok(None);
        };
        search.solve(stop, threads).map(Some)
    }

    /// As [`solve`](Self::solve), as a search that runs in time slices ([`SlicedSearch::run`]);
    /// `None` when the target cannot be reached (parity). Building what the target needs
    /// (pruning tables; databases for a non-corner blank) happens here, on first use, on
    /// threads run under `pace`.
    #[must_use]
    pub fn sliced(
        &self,
        start: &Board4,
        target: &Board4,
        pace: &dyn Pace,
    ) -> Option<SlicedSearch<'_>> {
        self.prepare(start, target, pace).map(Prepared::sliced)
    }

    /// What a search from `start` to `target` runs on: the databases for the target's blank,
    /// the turned move order's pruning, the turn and the renamed start; `None` on parity.
    fn prepare(&self, start: &Board4, target: &Board4, pace: &dyn Pace) -> Option<Prepared<'_>> {
        if !start.can_reach(target) {
            return None;
        }
        let turn = Turn::normalizing(target.blank());
        let databases = if turn.home == STANDARD_HOME {
            self
        } else {
            for_home(turn.home, pace)
        };
        let (start, target) = (turn.apply(start), turn.apply(target));
        // Rename tiles so that the turned target is the databases' goal.
        let mut rename = [0u8; 16];
        for (&tile, &goal_tile) in target.cells().iter().zip(databases.goal.cells()) {
            rename[tile as usize] = goal_tile;
        }
        Some(Prepared {
            heuristic: &databases.heuristic,
            method: databases.partition.method(),
            pruning: MovePruning::get(turn.order(), self.move_pruning),
            turn,
            cells: cells_of(&start.relabel(&rename)),
        })
    }
}

/// Where the databases for the goal with its blank on `home` (not the standard one) are kept.
pub(super) fn home_cell(home: usize) -> &'static OnceLock<PatternDatabases> {
    static BUILT: [OnceLock<PatternDatabases>; 3] = [const { OnceLock::new() }; 3];
    let index = HOMES[1..]
        .iter()
        .position(|&h| h == home)
        .expect("a non-standard home");
    &BUILT[index]
}

/// The databases for the goal with its blank on `home` (one of [`HOMES`] but the standard one),
/// built on first use on all cores, paced by `pace`.
pub(super) fn for_home(home: usize, pace: &dyn Pace) -> &'static PatternDatabases {
    home_cell(home).get_or_init(|| {
        PatternDatabases::build_for_goal(Board4::canonical(home), all_cores(), pace)
    })
}

/// Builds one database per pattern for `goal`, one after another, each telling `pace` its place
/// in the set.
fn build_each(patterns: &[Vec<u8>], goal: &Board4, threads: usize, pace: &dyn Pace) -> Vec<Pdb> {
    patterns
        .iter()
        .enumerate()
        .map(|(database, tiles)| {
            let stage = Stage {
                inner: pace,
                database,
                databases: patterns.len(),
            };
            Pdb::build_for(tiles, goal, threads.max(1), &stage)
        })
        .collect()
}

fn cells_of(board: &Board4) -> [u8; 16] {
    let mut cells = [0u8; 16];
    cells.copy_from_slice(board.cells());
    cells
}

/// Threads for a build nobody sized: one per core.
pub(super) fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}
