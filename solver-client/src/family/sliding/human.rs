//! The `solve` subcommands of the sliding family (`eight`, `fifteen`, `sliding`): their
//! arguments, and the cases they (or standard input) hold.

use anyhow::bail;
use clap::{Args, Subcommand};
use solver_core::tiles::grid::Grid;
use solver_core::tiles::grid_board::GridBoard;

use super::any_shape;
use super::judge::{eight, fifteen};
use super::query::{MaxRatio, tables};
use crate::case::{Case, Input};
use crate::embedded::Tables;
use crate::family::Query;
use crate::human::{Printer, View, boards_text, cases};
use crate::judge::Format;

/// How `solve sliding` reads boards, for `--help`.
const SLIDING_NOTE: &str = "Every rows × cols tiles make one board, whatever the lines; without \
boards as arguments they are read from standard input the same way. Optimal answers for boards \
other than 3×3 and 4×4 come from a search bounded by the server's node budget and time limit: \
a large board may need --max-ratio (e.g. 1.5 for 5×5).";

/// Where the boards come from, for `--help`.
const STDIN_NOTE: &str = "Without boards as arguments, they are read from standard input: one per \
line, or split and padded with any whitespace, in the same forms as arguments.";

/// The boards of `solve eight` and `solve fifteen`, and how their answers are shown.
#[derive(Debug, Args)]
pub(crate) struct Given {
    #[command(flatten)]
    view: View,
    /// Boards, one argument each or split over several; none: read them from standard input.
    #[arg(value_name = "TILES")]
    boards: Vec<String>,
}

/// The sliding subcommands of `solve`.
#[derive(Debug, Subcommand)]
pub(crate) enum Solve {
    /// The 8-puzzle: 9 tiles row by row (`x` or `0` is the blank), or packed like `12345678x`.
    #[command(after_help = STDIN_NOTE)]
    Eight {
        /// The board to reach (default: 1 2 3 4 5 6 7 8 x), in the same forms as a board.
        #[arg(long, value_name = "BOARD")]
        target: Option<String>,
        #[command(flatten)]
        given: Given,
    },
    /// The 15-puzzle: 16 tiles row by row (`0` or `x` is the blank), solved to 1..15 with the
    /// blank last or to `--target`.
    #[command(after_help = STDIN_NOTE)]
    Fifteen {
        /// The board to reach (default: 1 2 .. 15 0), 16 tiles row by row.
        #[arg(long, value_name = "BOARD")]
        target: Option<String>,
        #[command(flatten)]
        given: Given,
    },
    /// Sliding boards of any shape from 2×2 to 8×8 (`--size RxC`): rows × cols tiles row by row
    /// (`0` or `x` is the blank), solved optimally, or within `--max-ratio` of the optimum with
    /// the optimum's proven lower bound.
    // Named for what it takes rather than `Sliding`, which is the whole family (every variant
    // here); the command stays `sliding`.
    #[command(name = "sliding", after_help = SLIDING_NOTE)]
    AnyShape {
        /// The shape, rows x columns (2..=8 each), e.g. `5x5` or `3x4`.
        #[arg(long, value_name = "RxC", value_parser = any_shape::parse_size)]
        size: Grid,
        /// The board to reach (default: tiles in order, the blank last), rows × cols tiles.
        #[arg(long, value_name = "BOARD")]
        target: Option<String>,
        /// Accept an answer up to R times the optimal length (e.g. 1.2): large boards are then
        /// answered fast, and the answer states the proven lower bound on the optimum. 1 (the
        /// default) asks for an optimal answer; 3×3 and 4×4 answers are optimal anyway.
        #[arg(long, value_name = "R", default_value_t = 1.0, value_parser = any_shape::parse_ratio)]
        max_ratio: f64,
        #[command(flatten)]
        view: View,
        /// Boards, every rows × cols tiles one board; none: read them from standard input.
        #[arg(value_name = "TILES")]
        boards: Vec<String>,
    },
}

impl Solve {
    /// The kind of puzzle (the server tables to warm up).
    pub(crate) fn kind(&self) -> Tables {
        match self {
            Solve::Eight { .. } => Tables::Eight,
            Solve::Fifteen { .. } => Tables::Fifteen,
            Solve::AnyShape { size, .. } => tables(*size),
        }
    }

    /// Reads the arguments (or standard input, when there are none) into cases and makes the
    /// printer for them.
    ///
    /// # Errors
    /// A bad `--target`, no boards at all, or standard input that cannot be read.
    pub(crate) fn prepare(self) -> anyhow::Result<(Vec<Case>, Printer)> {
        let (input, view, from_stdin) = match self {
            Solve::Eight { target, given } => {
                let formats = (&eight::EIGHT_UNTIL_EOF, &eight::EIGHT_ARGUMENTS);
                square(given, target, formats)?
            }
            Solve::Fifteen { target, given } => {
                let formats = (&fifteen::FIFTEEN_UNTIL_EOF, &fifteen::FIFTEEN_UNTIL_EOF);
                square(given, target, formats)?
            }
            Solve::AnyShape {
                size,
                target,
                max_ratio,
                view,
                boards,
            } => {
                let (text, from_stdin) = boards_text(&boards)?;
                let max_ratio = MaxRatio::new(max_ratio).unwrap_or(MaxRatio::OPTIMAL);
                let mut input = any_shape::parse(&text, size, max_ratio);
                if let Some(text) = target {
                    let goal = any_shape::read_board(size, text.split_whitespace())
                        .map_err(|e| anyhow::anyhow!("--target {text:?} ({size} board): {e}"))?;
                    aim(&mut input, goal);
                }
                (input, view, from_stdin)
            }
        };
        cases(input, view, from_stdin)
    }
}

/// A `--target` board, read as a board argument is (so it may be packed or split), and the only
/// one.
/// The cases of `solve eight` or `solve fifteen`: read from standard input in the first format,
/// or from the arguments in the second (which reads `--target` too), with its view and whether
/// they came from standard input.
fn square<F: Format>(
    given: Given,
    target: Option<String>,
    (stdin, arguments): (&F, &F),
) -> anyhow::Result<(Input, View, bool)> {
    let (text, from_stdin) = boards_text(&given.boards)?;
    let format = if from_stdin { stdin } else { arguments };
    let mut input = format.parse(&text);
    if let Some(target) = target {
        aim(&mut input, parse_target(arguments, &target)?);
    }
    Ok((input, given.view, from_stdin))
}

fn parse_target(format: &dyn Format, target: &str) -> anyhow::Result<GridBoard> {
    let input = format.parse(target.as_bytes());
    match input.cases.as_slice() {
        [case] => match case.query.as_ref().map(Query::as_sliding) {
            Ok(Some(sliding)) => Ok(sliding.start.clone()),
            Ok(None) => bail!("--target {target:?}: not a sliding board"),
            Err(e) => bail!("--target {target:?}: {e}"),
        },
        [] => bail!("--target is empty"),
        _ => bail!(
            "--target {target:?}: one board expected, found {}",
            input.cases.len()
        ),
    }
}

/// Every sliding case of `input` aims at `target` rather than the standard goal.
fn aim(input: &mut Input, target: GridBoard) {
    for case in &mut input.cases {
        if let Ok(Query::Sliding(sliding)) = &mut case.query {
            sliding.target = target.clone();
        }
    }
}
