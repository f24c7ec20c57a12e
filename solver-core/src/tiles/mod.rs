//! Sliding-tile puzzles: the 8-puzzle (3×3) and the 15-puzzle (4×4).

pub mod bfs;
mod board;
pub mod eight;
pub mod fifteen;
mod fsm;
pub mod hint;
mod ida;
mod pdb;
mod rank;
pub mod scramble;
pub mod storage;
pub mod verify;

pub use board::{
    Board, Board3, Board4, BoardError, Move, MoveParseError, ReplayError, format_moves, parse_moves,
};
