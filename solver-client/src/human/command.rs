//! The `solve` subcommand: its arguments, and the cases they (or standard input) hold.

use std::io::{self, IsTerminal as _, Read as _};

use anyhow::{Context as _, bail};
use clap::Subcommand;
use solver_core::solitaire::DEFAULT_MAX_MOVES;
use solver_core::tiles::grid::Grid;
use solver_core::tiles::grid_board::GridBoard;

use super::printer::Printer;
use super::sliding;
use super::view::View;
use crate::case::{Case, Input, MaxRatio, Query};
use crate::embedded::Tables;
use crate::judge::{Format, eight, fifteen, solitaire};

/// How `solve sliding` reads boards, for `--help`.
const SLIDING_NOTE: &str = "Every rows × cols tiles make one board, whatever the lines; without \
boards as arguments they are read from standard input the same way. Optimal answers for boards \
other than 3×3 and 4×4 come from a search bounded by the server's node budget and time limit: \
a large board may need --max-ratio (e.g. 1.5 for 5×5).";

/// Where the boards come from, for `--help`.
const STDIN_NOTE: &str = "Without boards as arguments, they are read from standard input: one per \
line, or split and padded with any whitespace, in the same forms as arguments.";

/// The puzzle to solve.
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

impl Puzzle {
    /// The kind of puzzle (the server tables to warm up).
    pub(crate) fn kind(&self) -> Tables {
        match self {
            Puzzle::Eight { .. } => Tables::Eight,
            Puzzle::Fifteen { .. } => Tables::Fifteen,
            Puzzle::Solitaire { .. } => Tables::Solitaire,
            Puzzle::Sliding { size, .. } => crate::puzzle::tables(*size),
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
            Puzzle::Solitaire {
                max_moves,
                view,
                positions,
            } => {
                let (text, from_stdin) = boards_text(&positions)?;
                (
                    solitaire::parse_with_limit(&text, max_moves),
                    view,
                    from_stdin,
                )
            }
        };
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
}

/// The text to read boards from: the arguments, one per line, or standard input when there are
/// none (`true` then).
fn boards_text(arguments: &[String]) -> anyhow::Result<(Vec<u8>, bool)> {
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
        [case] => match &case.query {
            Ok(Query::Sliding(sliding)) => Ok(sliding.start.clone()),
            Ok(Query::Solitaire(_)) => bail!("--target {target:?}: not a sliding board"),
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
