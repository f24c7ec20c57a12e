//! Command-line client for the puzzle-solving service.

fn main() {}
