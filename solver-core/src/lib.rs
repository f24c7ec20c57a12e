//! Optimal solvers for classic state-space puzzles, as a pure synchronous library.
//!
//! * **Sliding tiles**: the 8-puzzle and the 15-puzzle, to the standard goal or any target, with the
//!   optimal solution that is lexicographically smallest among the optimal ones (`d < l < r < u`).
//!   Unsolvable boards are told apart by parity, never searched.
//! * **Solitaire**: four identical pieces on an 8×8 board (POJ 1198 / HDU 1401), shortest move
//!   sequences within a move limit.
//!
//! Solvers and their tables are values the caller owns ([`eight::Tables`],
//! [`fifteen::Fifteen`], the grid tables and databases): nothing is kept process-wide. One
//! [`tiles::solver::Solver`] holds them all and picks the method for each sliding board (a table
//! walk, or one resumable search), so a server never chooses between them itself.
//!
//! Long searches poll a [`Stop`] so a caller can cancel them or give them a deadline or a node
//! budget. This crate does no I/O, no printing and no async: the server and the client wrap it.
//!
//! ```
//! use solver_core::{Board3, format_moves};
//! let start: Board3 = "1 2 3 4 5 6 7 x 8".parse().unwrap();
//! let tables = solver_core::eight::Tables::new();
//! let moves = tables.solve(&start, &Board3::goal()).unwrap();
//! assert_eq!(format_moves(&moves), "r");
//! ```

pub mod benchmarks;
pub mod pace;
mod pages;
mod prefetch;
pub mod solitaire;
pub mod stop;
pub mod tiles;

pub use pace::{Pace, Progress, Turn, Unpaced};
pub use stop::{SearchStats, Stop, StopReason, Stopped};
pub use tiles::{
    Board, Board3, Board4, BoardError, Move, MoveParseError, ReplayError, format_moves, parse_moves,
};
pub use tiles::{eight, fifteen};
