//! `solver-client solve`: boards given as arguments, answers explained for a person (or as JSON
//! lines for scripts). What every family's `solve` shares is here; each family's subcommands are
//! its `human.rs`.
//!
//! The arguments are read by the same parsers as judge input (boards until the end), so a board
//! may be given as separate tokens, one quoted string or, for the 8-puzzle, packed
//! (`12345678x`); several boards make several cases. Without any, the boards are read from
//! standard input the same way (one per line, or split and padded with any whitespace).

mod input;
mod printer;
mod view;

pub(crate) use self::input::{boards_text, cases};
pub(crate) use self::printer::Printer;
pub(crate) use self::view::View;
