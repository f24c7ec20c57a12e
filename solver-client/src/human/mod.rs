//! `solver-client solve`: boards given as arguments, answers explained for a person (or as JSON
//! lines for scripts).
//!
//! The arguments are read by the same parsers as judge input (boards until the end), so a board
//! may be given as separate tokens, one quoted string or, for the 8-puzzle, packed
//! (`12345678x`); several boards make several cases. Without any, the boards are read from
//! standard input the same way (one per line, or split and padded with any whitespace).

mod command;
mod printer;
mod sliding;
mod view;

pub(crate) use self::command::{Puzzle, boards_text, cases};
pub(crate) use self::printer::Printer;
pub(crate) use self::sliding::{parse_size, read_board};
pub(crate) use self::view::View;
