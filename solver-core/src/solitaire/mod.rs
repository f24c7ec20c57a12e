//! Solitaire (POJ 1198 / HDU 1401): four identical pieces on an 8×8 board.
//!
//! A piece moves to an empty orthogonal neighbour, or jumps over exactly one adjacent piece onto
//! the empty square right behind it. [`solve`] finds a shortest sequence of moves within a limit.

mod moves;
mod position;
mod search;

pub use position::{PIECES, POSITIONS, Position, PositionError, Square};
pub use search::{IllegalStep, Outcome, SlicedSolitaire, Solution, Step, replay, search, solve};

/// The judges' move limit.
pub const DEFAULT_MAX_MOVES: u32 = 8;
