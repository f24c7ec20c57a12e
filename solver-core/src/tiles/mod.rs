//! Sliding-tile puzzles: the 8-puzzle (3×3) and the 15-puzzle (4×4) with their fast tables, and
//! boards of any shape from 2×2 to 8×8 ([`grid`], [`grid_board`], [`grid_ida`]).

pub mod bfs;
mod board;
pub mod bounded;
pub mod constructive;
mod distance;
pub mod eight;
pub mod fifteen;
mod flood;
pub mod fsm;
pub mod grid;
pub mod grid_board;
pub mod grid_ida;
pub mod grid_pdb;
pub mod grid_table;
pub mod hint;
mod ida;
mod layered;
mod moves;
mod neighbours;
mod pdb;
mod rank;
pub mod scramble;
pub mod slide;
pub mod solver;
pub mod verify;

pub use board::{
    Board, Board3, Board4, BoardError, Move, MoveParseError, ReplayError, format_moves, parse_moves,
};
