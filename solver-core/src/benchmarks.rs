//! The published benchmark instances, kept once in `solver-core/data/` and embedded here so
//! that tests, examples, the client's load tool and the CI scripts read the same copy.

/// Korf's 100 random 15-puzzle instances with their optimal lengths (R. E. Korf, AI 27, 1985):
/// comment lines (`#`), then one instance a line: its number, its optimal length and its 16 cells
/// for the goal with the blank last.
pub const KORF100: &str = include_str!("../data/korf100.txt");

/// Korf & Felner's 50 random 24-puzzle instances with their optimal lengths (AI 134, 2002), in
/// the same form with 25 cells.
pub const KORF24: &str = include_str!("../data/korf24.txt");
