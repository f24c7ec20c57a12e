//! The 15-puzzle: optimal and lexicographically smallest answers by IDA* with additive pattern
//! databases.
//!
//! The databases (6-6-3 or 7-8, Korf & Felner 2002) are built for the standard goal, blank in
//! the bottom-right cell. Every lookup also reads them for the board reflected about the main
//! diagonal with each tile renamed to the tile whose goal cell is the reflected one; that maps
//! the goal onto itself, so it is a second admissible bound, and the heuristic takes the larger.
//!
//! Any other target is brought to one of four goals by turning the board (and searching the
//! turned moves in the order that keeps the original answer lexicographically smallest) and
//! renaming tiles: a corner blank to the standard goal, a centre blank to cell 10, an edge blank
//! to cell 13 or 14. The three non-standard goals get 6-6-3-style databases of their own (the
//! same regions of goal cells, one of them a tile short), built on first use in a few seconds;
//! the centre goal is symmetric about the diagonal too and gets the reflected lookup.
//!
//! One concern per module: `sets` names the sets and their patterns, `turn` carries any target
//! to one of the four goals, `additive` is the heuristic, `databases` is one built set, `search`
//! runs a prepared search (in one go or in slices), `solver` is the [`Fifteen`] value that owns
//! the sets and prepares searches with them, and [`storage`] reads and writes sets.

mod additive;
mod answer;
mod databases;
mod search;
mod sets;
mod solver;
pub mod storage;
mod turn;

pub use answer::{FifteenError, Solution};
pub use databases::PatternDatabases;
pub use search::SlicedSearch;
pub use sets::{DatabaseSet, Partition};
pub use solver::{Fifteen, home_sets};
