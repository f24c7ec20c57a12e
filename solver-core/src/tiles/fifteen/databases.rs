//! Built sets of pattern databases: one goal's heuristic, which a [`Fifteen`](super::Fifteen)
//! solver holds and its searches share.

use super::additive::Additive;
use super::sets::{DatabaseSet, Partition, region_patterns};
use crate::pace::{Pace, Stage, Unpaced};
use crate::tiles::board::Board4;
use crate::tiles::fsm;
use crate::tiles::pdb::Pdb;

impl DatabaseSet {
    /// Builds the set on `threads` threads run under `pace`: seconds for the 6-6-3 sets,
    /// minutes and about 1.5 GB of memory for 7-8.
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

/// A set of additive pattern databases for one goal, built or loaded by a caller and given to a
/// [`Fifteen`](super::Fifteen) solver.
#[derive(Debug)]
pub struct PatternDatabases {
    heuristic: Additive,
    partition: Partition,
    /// The goal the databases were built for (the standard one but for the home sets).
    pub(super) goal: Board4,
    /// The longest duplicate move strings the searches prune.
    pub(super) move_pruning: usize,
}

impl PatternDatabases {
    /// Builds the databases of `partition` on all cores: seconds for 6-6-3; minutes and about
    /// 1.5 GB of memory for 7-8.
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

    /// The heuristic the databases make.
    pub(super) fn heuristic(&self) -> &Additive {
        &self.heuristic
    }
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

/// Threads for a build nobody sized: one per core.
pub(super) fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}
