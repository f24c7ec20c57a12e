//! One resumable optimal search, whatever the board: the 15-puzzle's or the size-generic IDA*.

use std::time::Instant;

use crate::stop::{SearchStats, Stop, Stopped};
use crate::tiles::board::Move;
use crate::tiles::fifteen::{FifteenError, SlicedSearch};
use crate::tiles::grid::Grid;
use crate::tiles::grid_ida::{GridSearch, Helper, Slice};

/// An optimal search that runs in time slices (a pointer: it moves cheaply), begun by a [`Solver`](super::Solver): each
/// [`run`](Self::run) goes on where the last stopped.
#[derive(Debug)]
pub struct Search(Inner);

#[derive(Debug)]
enum Inner {
    Fifteen(Box<SlicedSearch>),
    Grid {
        search: Box<GridSearch>,
        /// Its shape, when it runs without the shape's move-pruning automaton.
        unpruned: Option<Grid>,
    },
}

impl Search {
    pub(super) fn fifteen(search: SlicedSearch) -> Self {
        Self(Inner::Fifteen(Box::new(search)))
    }

    pub(super) fn grid(search: GridSearch, unpruned: Option<Grid>) -> Self {
        Self(Inner::Grid {
            search: Box::new(search),
            unpruned,
        })
    }

    /// A proven lower bound on the optimal length: the bound of the iteration under way (every
    /// shorter one was searched in full), the heuristic's estimate before the first slice, the
    /// optimal length once found.
    #[must_use]
    pub fn lower_bound(&self) -> u32 {
        match &self.0 {
            Inner::Fifteen(search) => search.lower_bound(),
            Inner::Grid { search, .. } => search.bound(),
        }
    }

    /// The work done so far.
    #[must_use]
    pub fn stats(&self) -> SearchStats {
        match &self.0 {
            Inner::Fifteen(search) => search.stats(),
            Inner::Grid { search, .. } => search.stats(),
        }
    }

    /// The method's name, for answers and metrics: `pdb-78` or `pdb-663` (4×4), `ida-pdb` or
    /// `ida-manhattan-lc` (other shapes).
    #[must_use]
    pub fn method(&self) -> &'static str {
        match &self.0 {
            Inner::Fifteen(search) => search.method(),
            Inner::Grid { search, .. } => search.method(),
        }
    }

    /// The shape whose move-pruning automaton this search lacks (it would find the same answer
    /// with fewer nodes): its owner may build it for the searches to come.
    #[must_use]
    pub fn lacks_pruning(&self) -> Option<Grid> {
        match &self.0 {
            Inner::Fifteen(_) => None,
            Inner::Grid { unpruned, .. } => *unpruned,
        }
    }

    /// One more worker for this search, to run on another thread ([`Helper::run`]), with the
    /// answer this search alone gives; `None` for a search that is not split (the 15-puzzle's,
    /// answered in milliseconds), or is over.
    pub fn helper(&mut self) -> Option<Helper> {
        match &mut self.0 {
            Inner::Fifteen(_) => None,
            Inner::Grid { search, .. } => search.helper(),
        }
    }

    /// Searches until the answer is found (`Some(Ok)`: the optimal, lexicographically smallest
    /// moves), `stop` fires (`Some(Err)`), or the first poll after `slice_end` (`None`: call
    /// again to go on).
    ///
    /// # Errors
    /// [`Stopped`] when `stop` fires before the answer is found.
    pub fn run(&mut self, stop: &Stop, slice_end: Instant) -> Option<Result<Vec<Move>, Stopped>> {
        match &mut self.0 {
            Inner::Fifteen(search) => Some(match search.run(stop, slice_end)? {
                Ok(found) => Ok(found.moves),
                Err(FifteenError::Stopped(stopped)) => Err(stopped),
            }),
            Inner::Grid { search, .. } => match search.run(stop, Some(slice_end)) {
                Ok(Slice::Suspended) => None,
                Ok(Slice::Found(moves)) => Some(Ok(moves)),
                Err(stopped) => Some(Err(stopped)),
            },
        }
    }
}
