//! A search made ready for one start and target (the heuristic and the move pruning of the
//! target's goal, the turn, the renamed start), run in one go or in time slices.

use std::time::Instant;

use super::additive::{Additive, AdditiveState};
use super::answer::{FifteenError, Solution};
use super::turn::Turn;
use crate::stop::{SearchStats, Stop};
use crate::tiles::board::Move;
use crate::tiles::fsm::MovePruning;
use crate::tiles::ida;

/// A search made ready by [`PatternDatabases`](super::PatternDatabases): what it runs on, and
/// how to turn its moves back.
#[derive(Debug)]
pub(super) struct Prepared<'a> {
    /// The heuristic of the databases for the target's goal.
    pub(super) heuristic: &'a Additive,
    /// Their method, as answers report it.
    pub(super) method: &'static str,
    /// The pruning of the turned move order.
    pub(super) pruning: &'static MovePruning,
    /// The turn that carried the target to its goal.
    pub(super) turn: Turn,
    /// The turned, renamed start.
    pub(super) cells: [u8; 16],
}

impl<'a> Prepared<'a> {
    /// Searches in one go, the largest iterations split over `threads` threads.
    pub(super) fn solve(&self, stop: &Stop, threads: usize) -> Result<Solution, FifteenError> {
        let (moves, stats) = ida::search(self.heuristic, self.cells, self.pruning, stop, threads)?;
        Ok(Solution {
            moves: self.turned_back(moves),
            stats,
            method: self.method,
        })
    }

    /// The search, to run in time slices.
    pub(super) fn sliced(self) -> SlicedSearch<'a> {
        SlicedSearch {
            search: ida::Sliced::new(self.heuristic, self.cells),
            prepared: self,
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
/// [`solve`](super::solve) gives.
#[derive(Debug)]
pub struct SlicedSearch<'a> {
    prepared: Prepared<'a>,
    search: ida::Sliced<AdditiveState>,
}

impl SlicedSearch<'_> {
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
        let result = self
            .search
            .run(prepared.heuristic, prepared.pruning, stop, slice_end)?;
        Some(match result {
            Ok((moves, stats)) => Ok(Solution {
                moves: prepared.turned_back(moves),
                stats,
                method: prepared.method,
            }),
            Err(stopped) => Err(stopped.into()),
        })
    }
}
