//! The online-judge formats: each one reads its input into cases and writes answers exactly as
//! its judge expects.
//!
//! | problem | input | output |
//! | --- | --- | --- |
//! | `poj1077`, `hdu1043` | 3×3 boards until end of input | moves or `unsolvable`, one line each |
//! | `uva652` | `N`, then N boards | as HDU 1043, blank line between outputs |
//! | `hdu3567` | `T`, then start and target, packed | `Case k: n` and the smallest optimal moves |
//! | `uva10181` | `N`, then N 4×4 boards | `LRUD` moves or `This puzzle is not solvable.` |
//! | `poj1198`, `hdu1401` | start and end positions until end of input | `YES` / `NO` within 8 moves |
//!
//! Each family's formats are its own (`sliding/judge/`, `solitaire/judge.rs`); here is what they
//! share, and the problem list in `problem.rs` is where they meet.

pub(crate) mod attempt;
pub(crate) mod format;
mod found;
pub(crate) mod printer;
mod problem;
pub(crate) mod recovery;
pub(crate) mod run;
pub(crate) mod source;
#[cfg(test)]
pub(crate) mod streaming_tests;
#[cfg(test)]
pub(crate) mod tests;
pub(crate) mod tokens;

pub(crate) use self::format::Format;
pub(crate) use self::problem::Problem;
