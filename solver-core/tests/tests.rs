//! Integration tests of solver-core: every solver against a brute-force oracle, and the known
//! extremes.

mod extremes;
mod grid;
mod grid_pdb;
mod grid_table;
mod oracle;
mod solvers;
