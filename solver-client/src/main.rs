//! Command-line client for the puzzle-solving service.

mod case;
mod judge;
mod output;
mod pending;

fn main() {}
