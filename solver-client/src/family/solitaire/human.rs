//! `solve solitaire`: start and end positions given as arguments (or on standard input), read as
//! the judge format reads them, each to be reached within `--max-moves`.

use crate::embedded::Tables;
use clap::Subcommand;
use solver_core::solitaire::DEFAULT_MAX_MOVES;

use super::judge::parse_with_limit;
use crate::case::Case;
use crate::human::{Printer, View, boards_text, cases};

/// The Solitaire subcommand of `solve`.
#[derive(Debug, Subcommand)]
pub(crate) enum Solve {
    /// Solitaire: the start and end positions, each `r1 c1 r2 c2 r3 c3 r4 c4` (rows and columns
    /// 1..8).
    #[command(
        after_help = "Without positions as arguments, they are read from standard input: \
        the start on one line and the end on the next (or 16 numbers on one line)."
    )]
    Solitaire {
        /// The most moves allowed (at least 1: on the wire 0 means the default of 8).
        #[arg(long, default_value_t = DEFAULT_MAX_MOVES, value_parser = clap::value_parser!(u32).range(1..))]
        max_moves: u32,
        #[command(flatten)]
        view: View,
        /// Start and end position, 16 numbers per case; none: read them from standard input.
        #[arg(value_name = "NUMBERS")]
        positions: Vec<String>,
    },
}

impl Solve {
    /// The kind of puzzle (the server tables to warm up).
    pub(crate) fn kind(&self) -> Tables {
        Tables::None
    }

    /// Reads the arguments (or standard input, when there are none) into cases and makes the
    /// printer for them.
    ///
    /// # Errors
    /// No positions at all, or standard input that cannot be read.
    pub(crate) fn prepare(self) -> anyhow::Result<(Vec<Case>, Printer)> {
        let Solve::Solitaire {
            max_moves,
            view,
            positions,
        } = self;
        let (text, from_stdin) = boards_text(&positions)?;
        cases(parse_with_limit(&text, max_moves), view, from_stdin)
    }
}
