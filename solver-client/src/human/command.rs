//! The `solve` subcommands of the sliding family (`eight`, `fifteen`, `sliding`): their
//! arguments, and the cases they (or standard input) hold; and what every family's `solve`
//! shares: reading the arguments or standard input, and the printer for the cases read.

use std::io::{self, IsTerminal as _, Read as _};

use anyhow::{Context as _, bail};
use clap::Subcommand;
use solver_core::tiles::grid::Grid;
use solver_core::tiles::grid_board::GridBoard;

use super::printer::Printer;
use super::sliding;
use super::view::View;
use crate::case::{Case, Input, MaxRatio, Query};
use crate::embedded::Tables;
use crate::judge::{Format, eight, fifteen};

/// How `solve sliding` reads boards, for `--help`.
const SLIDING_NOTE: &str = "Every rows × cols tiles make one board, whatever the lines; without \
boards as arguments they are read from standard input the same way. Optimal answers for boards \
other than 3×3 and 4×4 come from a search bounded by the server's node budget and time limit: \
a large board may need --max-ratio (e.g. 1.5 for 5×5).";

/// Where the boards come from, for `--help`.
const STDIN_NOTE: &str = "Without boards as arguments, they are read from standard input: one per \
line, or split and padded with any whitespace, in the same forms as arguments.";

/// The sliding puzzles to solve.
#[derive(Debug, Subcommand)]
pub(crate) enum Puzzle {
    /// The 8-puzzle: 9 tiles row by row (`x` or `0` is the blank), or packed like `12345678x`.
    #[command(after_help = STDIN_NOTE)]
    Eight {
        /// The board to reach (default: 1 2 3 4 5 6 7 8 x), in the same forms as a board.
        #[arg(long, value_name = "BOARD")]
        target: Option<String>,
        #[command(flatten)]
        view: View,
        /// Boards, one argument each or split over several; none: read them from standard input.
        #[arg(value_name = "TILES")]
        boards: Vec<String>,
    },
    /// The 15-puzzle: 16 tiles row by row (`0` or `x` is the blank), solved to 1..15 with the
    /// blank last or to `--target`.
    #[command(after_help = STDIN_NOTE)]
    Fifteen {
        /// The board to reach (default: 1 2 .. 15 0), 16 tiles row by row.
        #[arg(long, value_name = "BOARD")]
        target: Option<String>,
        #[command(flatten)]
        view: View,
        /// Boards, one argument each or split over several; none: read them from standard input.
        #[arg(value_name = "TILES")]
        boards: Vec<String>,
    },
    /// Sliding boards of any shape from 2×2 to 8×8 (`--size RxC`): rows × cols tiles row by row
    /// (`0` or `x` is the blank), solved optimally, or within `--max-ratio` of the optimum with
    /// the optimum's proven lower bound.
    #[command(after_help = SLIDING_NOTE)]
    Sliding {
        /// The shape, rows x columns (2..=8 each), e.g. `5x5` or `3x4`.
        #[arg(long, value_name = "RxC", value_parser = sliding::parse_size)]
        size: Grid,
        /// The board to reach (default: tiles in order, the blank last), rows × cols tiles.
        #[arg(long, value_name = "BOARD")]
        target: Option<String>,
        /// Accept an answer up to R times the optimal length (e.g. 1.2): large boards are then
        /// answered fast, and the answer states the proven lower bound on the optimum. 1 (the
        /// default) asks for an optimal answer; 3×3 and 4×4 answers are optimal anyway.
        #[arg(long, value_name = "R", default_value_t = 1.0, value_parser = sliding::parse_ratio)]
        max_ratio: f64,
        #[command(flatten)]
        view: View,
        /// Boards, every rows × cols tiles one board; none: read them from standard input.
        #[arg(value_name = "TILES")]
        boards: Vec<String>,
    },
}

impl Puzzle {
    /// The kind of puzzle (the server tables to warm up).
    pub(crate) fn kind(&self) -> Tables {
        match self {
            Puzzle::Eight { .. } => Tables::Eight,
            Puzzle::Fifteen { .. } => Tables::Fifteen,
            Puzzle::Sliding { size, .. } => crate::puzzle::sliding::tables(*size),
        }
    }

    /// Reads the arguments (or standard input, when there are none) into cases and makes the
    /// printer for them.
    ///
    /// # Errors
    /// A bad `--target`, no boards at all, or standard input that cannot be read.
    pub(crate) fn prepare(self) -> anyhow::Result<(Vec<Case>, Printer)> {
        let (input, view, from_stdin) = match self {
            Puzzle::Eight {
                target,
                view,
                boards,
            } => {
                let (text, from_stdin) = boards_text(&boards)?;
                let format = if from_stdin {
                    &eight::EIGHT_UNTIL_EOF
                } else {
                    &eight::EIGHT_ARGUMENTS
                };
                let mut input = format.parse(&text);
                if let Some(target) = target {
                    aim(&mut input, parse_target(&eight::EIGHT_ARGUMENTS, &target)?);
                }
                (input, view, from_stdin)
            }
            Puzzle::Fifteen {
                target,
                view,
                boards,
            } => {
                let (text, from_stdin) = boards_text(&boards)?;
                let mut input = fifteen::FIFTEEN_UNTIL_EOF.parse(&text);
                if let Some(target) = target {
                    aim(
                        &mut input,
                        parse_target(&fifteen::FIFTEEN_UNTIL_EOF, &target)?,
                    );
                }
                (input, view, from_stdin)
            }
            Puzzle::Sliding {
                size,
                target,
                max_ratio,
                view,
                boards,
            } => {
                let (text, from_stdin) = boards_text(&boards)?;
                let max_ratio = MaxRatio::new(max_ratio).unwrap_or(MaxRatio::OPTIMAL);
                let mut input = sliding::parse(&text, size, max_ratio);
                if let Some(text) = target {
                    let goal = sliding::read_board(size, text.split_whitespace())
                        .map_err(|e| anyhow::anyhow!("--target {text:?} ({size} board): {e}"))?;
                    aim(&mut input, goal);
                }
                (input, view, from_stdin)
            }
        };
        cases(input, view, from_stdin)
    }
}

/// The cases of `input` (read from standard input when `from_stdin`) and the printer for them,
/// shown as `view` says.
///
/// # Errors
/// A problem outside any case, or no case at all.
pub(crate) fn cases(
    input: Input,
    view: View,
    from_stdin: bool,
) -> anyhow::Result<(Vec<Case>, Printer)> {
    if let Some((_, problem)) = input.problems.first() {
        bail!("{problem}");
    }
    if input.cases.is_empty() {
        if from_stdin {
            bail!("no board given: none as arguments, and none on standard input");
        }
        bail!("no board given");
    }
    let many = input.cases.len() > 1;
    Ok((input.cases, Printer::new(view, many, from_stdin)))
}

/// The text to read boards from: the arguments, one per line, or standard input when there are
/// none (`true` then).
pub(crate) fn boards_text(arguments: &[String]) -> anyhow::Result<(Vec<u8>, bool)> {
    if !arguments.is_empty() {
        return Ok((arguments.join("\n").into_bytes(), false));
    }
    let stdin = io::stdin();
    if stdin.is_terminal() {
        eprintln!(
            "solver-client: no boards as arguments; reading them from standard input, one per \
             line (end with Ctrl-D)"
        );
    }
    let mut text = Vec::new();
    stdin
        .lock()
        .read_to_end(&mut text)
        .context("reading standard input")?;
    Ok((text, true))
}

/// A `--target` board, read as a board argument is (so it may be packed or split), and the only
/// one.
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
