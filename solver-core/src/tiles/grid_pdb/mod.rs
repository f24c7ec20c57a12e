//! Additive pattern databases for sliding boards of any shape and any target.
//!
//! A pattern is a set of tiles; its table gives, for every placement of them, the fewest moves
//! **of its own tiles** that bring them home. The tiles of a partition are disjoint, every move
//! moves one tile, so the sum over a partition is admissible (Korf & Felner, "Disjoint pattern
//! database heuristics", Artificial Intelligence 134, 2002). Each table keeps the least cost
//! over the blank's cells, found by a search that tracks the blank (the tiles outside the
//! pattern let it pass for free): one byte per placement and a lookup per move. On a square board with the target's blank on the main diagonal, the same
//! tables read for the board's mirror image give a second admissible sum, and the larger one is
//! used (Korf & Felner's reflection).
//!
//! Several partitions of one shape and blank cell can be [`combine`](GridDatabases::combine)d:
//! the heuristic is then the largest of all their sums (a catalogue, as in Holte et al.,
//! "Maximizing over multiple pattern databases speeds up heuristic search", AIJ 170, 2006).
//! Measured on the 24-puzzle (`korf24 --optimal --add …`, Korf & Felner's #38, #40, #25, #32):
//! a second 6-6-6-6 cuts the nodes to 0.55–0.78 of Korf & Felner's alone, but each node then
//! reads four tables instead of two, so one thread is about 1.2 times faster on the first
//! three and two threads are no faster. A server therefore guides a search by one partition,
//! but where it holds several it races them on each board, with the first two maximised and the
//! first two crossed (both read for the board, and both for its mirror image) among them
//! ([`raced_views`](GridDatabases::raced_views)): the sets are [`view`](GridDatabases::view)s
//! of one allocation ([`read_all`](GridDatabases::read_all)), so the combination costs no memory.
//!
//! Each entry is **zero-aware** in part (Clausecker & Reinefeld, SoCS 2019): besides the least
//! cost over the blank's cells, its top two bits say what the blank's *big* region (the one
//! holding more than half of the cells the pattern leaves free) adds to it, so a pattern that
//! walls off a pocket the blank must reach counts the moves that let it in. A search reads
//! them with a flood fill of the blank's region, only where the bits are set. On Korf &
//! Felner's #38, #40, #25 and #32 that takes 0.76 of the nodes (470 M against 620 M) and two
//! threads 1.11 times less time (15.4–15.7 s against 17.2–17.3 s, `korf24 --optimal`); one
//! thread on the first three takes the same time. The bounded answers at ratio 1.5 come
//! closer (1.055 times the optimum against 1.062, both at 800,000 boards).
//!
//! Tables are named by **target cells** ([`Partition`]): pattern `i` holds the tiles a target
//! puts on its cells, so one set serves every target whose blank is on the set's blank cell (the
//! tiles are renamed per target, see [`GridDatabases::fits`]).
//!
//! Memory: one byte per sparse index (see `regions.rs`), `cells^tiles` per table (a sum and a multiplication per
//! move, no ranking): 5×5 with Korf & Felner's 6-6-6-6 takes 4 × 25⁶ = 977 MB, 3×5 with 7-7
//! 341 MB, 2×8 with 7-7-1 537 MB, 4×5 with 6-6-6-1 256 MB; see [`Partition::table_bytes`].
//! A build also holds two masks of blank cells per index of the table in progress (8 bytes per
//! index up to 32 cells, 16 beyond) and the layer its big region was reached in (a byte): the
//! 5×5 build peaks at 3.10 GB and took 148.2 s on two threads (before the big regions it
//! peaked at 2.86 GB and took 99.5 s on a faster day).

mod build;
mod lookup;
mod partition;
mod regions;
mod storage;
mod tables;

use std::fmt;

pub(crate) use lookup::{Evaluator, Lookup, Moved, Reads};
pub use partition::{DEFAULT_BUDGET, MAX_SET_BYTES, Partition, PartitionError};
pub use storage::{FORMAT_VERSION, StorageError};

use super::grid_board::GridBoard;
use crate::pace::Pace;
use tables::Tables;

/// The conventional file name of `partition`'s set in a data directory, known before the set
/// is built (see [`GridDatabases::file_name`]).
#[must_use]
pub fn file_name(partition: &Partition) -> String {
    storage::file_name(partition)
}

/// A set of pattern databases: one table per pattern of a [`Partition`], or of several
/// partitions of the same shape and blank cell [`combine`](Self::combine)d, whose sums are
/// maximised (each sum is admissible, so their maximum is).
pub struct GridDatabases {
    /// The partitions, in order; the tables of each follow those of the one before.
    partitions: Vec<Partition>,
    /// The sums the heuristic maximises: by default every partition, and its reflection where
    /// that applies ([`every_reading`]); a [`view_readings`](Self::view_readings) picks others.
    readings: Vec<Reading>,
    tables: Tables,
}

/// One sum of a set: the tables of one of its partitions, read for the board itself or for its
/// mirror image about the main diagonal (Korf & Felner's reflection).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reading {
    /// Index into the set's [`partitions`](GridDatabases::partitions).
    pub partition: usize,
    /// Whether the sum reads the board's mirror image.
    pub mirrored: bool,
}

impl Reading {
    /// Partition `partition` read for the board itself.
    #[must_use]
    pub fn plain(partition: usize) -> Self {
        Self {
            partition,
            mirrored: false,
        }
    }

    /// Partition `partition` read for the board's mirror image.
    #[must_use]
    pub fn mirrored(partition: usize) -> Self {
        Self {
            partition,
            mirrored: true,
        }
    }
}

/// The pairs of `partitions` (indices, in order: the first with each other one, then the
/// others) that [`GridDatabases::raced_views`] crosses: those sharing at most one pattern.
///
/// Two partitions sharing two of their patterns read half the same entries, so their crossed
/// sums add little over either with its reflection, yet on an early iteration they can look
/// best: with the 24-puzzle's four raced sets, Clausecker's best single and partition 5 of the
/// small catalogue (two patterns in common), both mirrored, won the race on Korf & Felner's #3
/// and took 7.70e9 nodes against 6.76e9 for the best single with its reflection. Crossing every
/// other pair helped: the best single with partition 4 of that catalogue (one pattern in
/// common), both mirrored, took #29 in 5.35e8 nodes against 9.27e8, and with partition 10 of
/// the improved one (none in common) #29 in 3.94e8 and #4 in 3.26e9 against 4.89e9
/// (`korf24 --race`, 2026-12-01).
#[must_use]
pub fn crossed_pairs(partitions: &[Partition]) -> Vec<(usize, usize)> {
    (0..partitions.len())
        .flat_map(|j| (j + 1..partitions.len()).map(move |k| (j, k)))
        .filter(|&(j, k)| partitions[j].shared_patterns(&partitions[k]) <= 1)
        .collect()
}

/// Every partition's sum and, where it applies, its reflection's, in order.
fn every_reading(partitions: &[Partition]) -> Vec<Reading> {
    partitions
        .iter()
        .enumerate()
        .flat_map(|(k, p)| {
            std::iter::once(Reading::plain(k)).chain(p.reflects().then(|| Reading::mirrored(k)))
        })
        .collect()
}

impl fmt::Debug for GridDatabases {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GridDatabases")
            .field("partitions", &self.partitions)
            .field("readings", &self.readings)
            .field("bytes", &self.memory_bytes())
            .finish()
    }
}

impl GridDatabases {
    /// The set of `partitions` over `tables`, every sum read.
    fn new(partitions: Vec<Partition>, tables: Tables) -> Self {
        Self {
            readings: every_reading(&partitions),
            partitions,
            tables,
        }
    }

    /// Builds every table of `partition`, one after another, each on `threads` threads paced by
    /// `pace` (which also hears each finished layer).
    ///
    /// ```
    /// use solver_core::tiles::{grid::Grid, grid_board::GridBoard, grid_pdb::*};
    /// let grid = Grid::new(2, 3).unwrap();
    /// let partition = Partition::new(grid, 5, vec![vec![0, 1, 2], vec![3, 4]]).unwrap();
    /// let set = GridDatabases::build(partition, 1, &solver_core::Unpaced);
    /// let goal = GridBoard::goal(grid);
    /// assert_eq!(set.heuristic(&goal, &goal), Some(0));
    /// ```
    #[must_use]
    pub fn build(partition: Partition, threads: usize, pace: &dyn Pace) -> Self {
        let count = partition.patterns().len();
        let mut tables = Tables::zeroed(&partition.table_sizes());
        for (i, home) in partition.patterns().iter().enumerate() {
            let table = build::build_table(&super::layered::Job {
                grid: partition.grid(),
                home,
                blank: partition.blank() as u8,
                threads,
                pace,
                stage: (i, count),
            });
            tables.table_mut(i).copy_from_slice(&table);
        }
        Self::new(vec![partition], tables)
    }

    /// One set maximising the sums of `sets`, in that order (a catalogue of partitions): the
    /// heuristic is the largest of every set's sum and, where it applies, every set's reflection.
    ///
    /// A set of more sums than a lookup keeps (8: four partitions with their reflections) holds
    /// the tables of its [`view`](Self::view)s, as the 24-puzzle's six raced sets are held, but
    /// [`fits`](Self::fits) no target itself.
    ///
    /// # Errors
    /// When `sets` is empty, the sets are for other shapes or blank cells, or they would have
    /// more than 64 tables in all.
    pub fn combine(sets: Vec<GridDatabases>) -> Result<Self, CombineError> {
        let partitions: Vec<Partition> = sets
            .iter()
            .flat_map(|set| set.partitions.iter().cloned())
            .collect();
        combinable(&partitions)?;
        let tables = Tables::concat(&sets.iter().map(|set| &set.tables).collect::<Vec<_>>());
        Ok(Self::new(partitions, tables))
    }

    /// The set of the partitions `chosen` (indices into [`partitions`](Self::partitions), in
    /// that order; their sums maximised), sharing this set's memory: the sets that race on a
    /// board are views of one allocation ([`read_all`](Self::read_all)).
    ///
    /// # Panics
    /// When `chosen` is empty or names a partition the set does not have.
    #[must_use]
    pub fn view(&self, chosen: &[usize]) -> Self {
        assert!(!chosen.is_empty(), "a view of at least one partition");
        let firsts: Vec<usize> = self
            .partitions
            .iter()
            .scan(0, |first, p| {
                let at = *first;
                *first += p.patterns().len();
                Some(at)
            })
            .collect();
        let tables = chosen.iter().flat_map(|&k| {
            (firsts[k]..firsts[k] + self.partitions[k].patterns().len()).collect::<Vec<_>>()
        });
        Self::new(
            chosen.iter().map(|&k| self.partitions[k].clone()).collect(),
            self.tables.select(tables),
        )
    }

    /// The set whose sums are `readings` (of this set's partitions; maximised), sharing this
    /// set's memory: a partition read for the board beside another read for its mirror image,
    /// say, rather than each with its own reflection.
    ///
    /// # Panics
    /// When `readings` is empty, names a partition the set does not have, or reads a mirror
    /// image where reflection does not apply ([`Partition::reflects`]).
    #[must_use]
    pub fn view_readings(&self, readings: &[Reading]) -> Self {
        let mut chosen: Vec<usize> = Vec::new();
        for reading in readings {
            let partition = &self.partitions[reading.partition];
            assert!(
                !reading.mirrored || partition.reflects(),
                "{partition} has no mirror image to read"
            );
            if !chosen.contains(&reading.partition) {
                chosen.push(reading.partition);
            }
        }
        let mut view = self.view(&chosen);
        view.readings = readings
            .iter()
            .map(|r| Reading {
                partition: chosen.iter().position(|&k| k == r.partition).unwrap_or(0),
                mirrored: r.mirrored,
            })
            .collect();
        view
    }

    /// The sets that race the first partition's on each board (`grid_ida/race.rs`), as views
    /// of this one: every other partition alone, then the first two maximised, then (where
    /// reflection applies) every pair **crossed** ([`crossed_pairs`]): both read for the board,
    /// and both for its mirror image.
    ///
    /// Four sums cost about 1.55 times two a node on two threads, but on some boards they save
    /// more than that: Korf & Felner's with Clausecker's best single take 0.53 times the nodes
    /// of either alone on Korf & Felner's #4 (2.80e9 against 5.26e9) and 0.61 on #28, but
    /// 0.67–0.78 times on the other four largest of the 20 easiest (their early iterations),
    /// which the race leaves to the single sets since it weighs each set's nodes by their cost.
    /// A crossed pair costs what a single set does, two sums, and on some boards it is the
    /// better pair: on their early iterations (bounds 92–101), Korf & Felner's with the best
    /// single took 0.78 times the nodes of the best of the sets before on #26, #25 and #44;
    /// their mirror images 0.84 times on #4 (with the four sums' nodes weighed at 1.55) and
    /// 0.93 on #41; Korf & Felner's with partition 5 of Clausecker & Reinefeld's small
    /// catalogue, both for the mirror image, 0.87 on #31 (and 0.88 on #16), and both for the
    /// board 0.72 on #5.
    #[must_use]
    pub fn raced_views(&self) -> Vec<Self> {
        let mut views: Vec<Self> = (1..self.partitions.len())
            .map(|k| self.view(&[k]))
            .collect();
        if self.partitions.len() > 1 {
            views.push(self.view(&[0, 1]));
        }
        if self.partitions[0].reflects() {
            // Every partition of a set has its shape and blank cell, so all reflect alike.
            for (j, k) in crossed_pairs(&self.partitions) {
                views.push(self.view_readings(&[Reading::plain(j), Reading::plain(k)]));
                views.push(self.view_readings(&[Reading::mirrored(j), Reading::mirrored(k)]));
            }
        }
        views
    }

    /// The partition the tables are for: the first one of a [`combine`](Self::combine)d set.
    #[must_use]
    pub fn partition(&self) -> &Partition {
        &self.partitions[0]
    }

    /// Every partition of the set, in order.
    #[must_use]
    pub fn partitions(&self) -> &[Partition] {
        &self.partitions
    }

    /// The sums the heuristic maximises, in order.
    #[must_use]
    pub fn readings(&self) -> &[Reading] {
        &self.readings
    }

    /// Whether `other` gives the same heuristic from the same partitions: the same sums.
    #[must_use]
    pub fn same_sums(&self, other: &Self) -> bool {
        self.partitions == other.partitions && self.readings == other.readings
    }

    /// Bytes the tables take in memory (and, plus a short header, on disk); a
    /// [`view`](Self::view) counts its own tables, which it shares.
    #[must_use]
    pub fn memory_bytes(&self) -> u64 {
        self.tables.len() as u64
    }

    /// The conventional file name of this set in a data directory, e.g.
    /// `gridpdb-5x5-blank24-6-6-6-6-1a2b3c4d-v1.bin` (the hash tells partitions of equal sizes
    /// apart; the format version is part of it, so a new layout never reads an old file).
    #[must_use]
    pub fn file_name(&self) -> String {
        storage::file_name(self.partition())
    }

    /// Whether these tables serve `target`: the same shape, and its blank on the set's blank
    /// cell (any tiles elsewhere); and no more sums than a lookup keeps (see
    /// [`combine`](Self::combine)).
    #[must_use]
    pub fn fits(&self, target: &GridBoard) -> bool {
        target.grid() == self.partition().grid()
            && target.blank() == self.partition().blank()
            && self.readings.len() <= lookup::MAX_SUMS
    }

    /// The table value of pattern `pattern` (counted over every partition, in order) for its
    /// tiles on `cells` (slot order: the tiles whose target cells are the pattern's cells,
    /// ascending).
    ///
    /// # Panics
    /// When `pattern` or a cell is out of range.
    #[must_use]
    pub fn pattern_value(&self, pattern: usize, cells: &[u8]) -> u8 {
        let n = self.partition().grid().cells();
        let index = cells.iter().rev().fold(0usize, |i, &c| i * n + c as usize);
        regions::least(self.tables.table(pattern)[index])
    }

    /// The heuristic of `board` towards `target`: the largest of the sums over each partition
    /// and, where reflection applies, the same sums for the mirror image. `None` when the set does not
    /// [`fit`](Self::fits) `target` or `board` is of another shape.
    #[must_use]
    pub fn heuristic(&self, board: &GridBoard, target: &GridBoard) -> Option<u32> {
        if board.grid() != target.grid() {
            return None;
        }
        let lookup = Lookup::new(self, target, board.cells())?;
        Some(lookup.value())
    }

    /// The tables, in pattern order.
    fn tables(&self) -> &Tables {
        &self.tables
    }
}

/// Whether `partitions` can make one set: at least one, all of one shape and blank cell, and
/// within the tables and sums a lookup keeps.
fn combinable(partitions: &[Partition]) -> Result<(), CombineError> {
    let first = partitions.first().ok_or(CombineError::Empty)?;
    if let Some(other) = partitions
        .iter()
        .find(|p| p.grid() != first.grid() || p.blank() != first.blank())
    {
        return Err(CombineError::Mismatch {
            found: other.to_string(),
            expected: first.to_string(),
        });
    }
    let tables: usize = partitions.iter().map(|p| p.patterns().len()).sum();
    if tables > lookup::MAX_TABLES {
        return Err(CombineError::TooMany { tables });
    }
    Ok(())
}

/// Why sets cannot be [`combine`](GridDatabases::combine)d.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CombineError {
    /// No set to combine.
    #[error("no pattern databases to combine")]
    Empty,
    /// A set for another shape or blank cell.
    #[error("pattern databases for {found} cannot join those for {expected}")]
    Mismatch {
        /// The partition that does not match.
        found: String,
        /// The first set's partition.
        expected: String,
    },
    /// More tables than a lookup reads.
    #[error("{tables} tables: at most 64 are combined")]
    TooMany {
        /// Tables in all.
        tables: usize,
    },
}
