//! A search made ready for one start and target (the heuristic and the move pruning of the
//! target's goal, the turn, the renamed start), run in one go or in time slices.

use std::sync::Arc;
use std::time::Instant;

use super::additive::AdditiveState;
use super::answer::{FifteenError, Solution};
use super::databases::PatternDatabases;
use super::turn::Turn;
use crate::stop::{SearchStats, Stop};
use crate::tiles::board::{Board4, Move};
use crate::tiles::fsm::MovePruning;
use crate::tiles::ida;

/// A search made ready by a [`Fifteen`](super::Fifteen) solver: what it runs on (shared, so a
/// sliced search may outlive the borrow of its solver), and how to turn its moves back.
#[derive(Debug)]
pub(super) struct Prepared {
    /// The databases for the target's goal.
    databases: Arc<PatternDatabases>,
    /// The pruning of the turned move order.
    pruning: Arc<MovePruning>,
    /// The turn that carried the target to its goal.
    turn: Turn,
    /// The turned, renamed start.
    cells: [u8; 16],
}

impl Prepared {
    /// The search from `start` to `target` (which `databases` serve once turned by `turn`).
    pub(super) fn new(
        databases: Arc<PatternDatabases>,
        pruning: Arc<MovePruning>,
        turn: Turn,
        start: &Board4,
        target: &Board4,
    ) -> Self {
        let (start, target) = (turn.apply(start), turn.apply(target));
        // Rename tiles so that the turned target is the databases' goal.
        let mut rename = [0u8; 16];
        for (&tile, &goal_tile) in target.cells().iter().zip(databases.goal.cells()) {
            rename[tile as usize] = goal_tile;
        }
        let mut cells = [0u8; 16];
        cells.copy_from_slice(start.relabel(&rename).cells());
        Self {
            databases,
            pruning,
            turn,
            cells,
        }
    }

    /// Searches in one go, the largest iterations split over `threads` threads.
    pub(super) fn solve(&self, stop: &Stop, threads: usize) -> Result<Solution, FifteenError> {
        let heuristic = self.databases.heuristic();
        let (moves, stats) = ida::search(heuristic, self.cells, &self.pruning, stop, threads)?;
        Ok(self.solution(moves, stats))
    }

    /// The search, to run in time slices.
    pub(super) fn sliced(self) -> SlicedSearch {
        SlicedSearch {
            search: ida::Sliced::new(self.databases.heuristic(), self.cells),
            prepared: self,
        }
    }

    fn solution(&self, moves: Vec<Move>, stats: SearchStats) -> Solution {
        Solution {
            moves: self.turned_back(moves),
            stats,
            method: self.databases.partition().method(),
        }
    }

    /// The moves of the turned board, as moves of the original one.
    fn turned_back(&self, moves: Vec<Move>) -> Vec<Move> {
        moves.into_iter().map(|m| self.turn.undo_move(m)).collect()
    }
}

/// A 15-puzzle search that runs in time slices, for callers that share threads between many
/// searches (the server's scheduler): each [`run`](Self::run) goes on where the last stopped.
/// Suspended, it holds a path of at most 80 moves and a few counters. The answer is the one
/// [`Fifteen::solve`](super::Fifteen::solve) gives.
#[derive(Debug)]
pub struct SlicedSearch {
    prepared: Prepared,
    search: ida::Sliced<AdditiveState>,
}

impl SlicedSearch {
    /// A proven lower bound on the optimal length: the bound of the iteration the search is in
    /// (every shorter one was searched in full). Before the first slice it is the heuristic's
    /// estimate of the start.
    #[must_use]
    pub fn lower_bound(&self) -> u32 {
        self.search.bound()
    }

    /// The work done so far.
    #[must_use]
    pub fn stats(&self) -> SearchStats {
        self.search.stats()
    }

    /// The heuristic guiding it: `"pdb-78"` or `"pdb-663"` (as [`Solution::method`]).
    #[must_use]
    pub fn method(&self) -> &'static str {
        self.prepared.databases.partition().method()
    }

    /// Searches until the answer is found (`Some(Ok)`), `stop` fires (`Some(Err)`), or the
    /// slice ends: the first poll (at most [`POLL_INTERVAL`](crate::stop::POLL_INTERVAL) nodes)
    /// after `slice_end` returns `None`, and the next call resumes.
    ///
    /// # Errors
    /// [`FifteenError::Stopped`] when `stop` fires before the answer is found.
    pub fn run(
        &mut self,
        stop: &Stop,
        slice_end: Instant,
    ) -> Option<Result<Solution, FifteenError>> {
        let prepared = &self.prepared;
        let heuristic = prepared.databases.heuristic();
        let result = self
            .search
            .run(heuristic, &prepared.pruning, stop, slice_end)?;
        Some(match result {
            Ok((moves, stats)) => Ok(prepared.solution(moves, stats)),
            Err(stopped) => Err(stopped.into()),
        })
    }
}
