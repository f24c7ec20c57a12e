//! What a 15-puzzle search gives: an answer, or why there is none.

use crate::stop::{SearchStats, Stopped};
use crate::tiles::board::Move;

/// An answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// The moves of the blank, optimal and lexicographically smallest among the optimal.
    pub moves: Vec<Move>,
    /// The work the search did.
    pub stats: SearchStats,
    /// Which heuristic guided the search: `"pdb-78"` or `"pdb-663"` (6-6-3 regions, for
    /// targets whose blank is not in a corner too).
    pub method: &'static str,
}

/// A 15-puzzle search that ended without an answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FifteenError {
    /// The stop check fired (cancelled, deadline or node budget).
    #[error(transparent)]
    Stopped(#[from] Stopped),
}
