//! `solver-client solve`: boards given as arguments, answers explained for a person (or as JSON
//! lines for scripts).
//!
//! The arguments are read by the same parsers as judge input (boards until the end), so a board
//! may be given as separate tokens, one quoted string or, for the 8-puzzle, packed
//! (`12345678x`); several boards make several cases. Without any, the boards are read from
//! standard input the same way (one per line, or split and padded with any whitespace).

use std::io::{self, IsTerminal as _, Read as _, Write as _};

use anyhow::{Context as _, bail};
use clap::{Args, Subcommand};
use solver_core::solitaire::{DEFAULT_MAX_MOVES, Position, Step};
use solver_core::{Board, Move};

use crate::case::{Answer, Case, Query};
use crate::judge::{Format as _, Service, eight, fifteen, solitaire};
use crate::output::Output;
use crate::session::Sink;

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
    /// Solitaire: the start and end positions, each `r1 c1 r2 c2 r3 c3 r4 c4` (rows and columns
    /// 1..8).
    #[command(
        after_help = "Without positions as arguments, they are read from standard input: \
        the start on one line and the end on the next (or 16 numbers on one line)."
    )]
    Solitaire {
        /// The most moves allowed.
        #[arg(long, default_value_t = DEFAULT_MAX_MOVES)]
        max_moves: u32,
        #[command(flatten)]
        view: View,
        /// Start and end position, 16 numbers per case; none: read them from standard input.
        #[arg(value_name = "NUMBERS")]
        positions: Vec<String>,
    },
}

/// How answers are shown.
#[derive(Debug, Clone, Copy, Args)]
pub(crate) struct View {
    /// Also print the board after every move.
    #[arg(long)]
    show: bool,
    /// Print one JSON object per case instead of text.
    #[arg(long, conflicts_with = "show")]
    json: bool,
}

impl Puzzle {
    /// The RPC the cases go to.
    pub(crate) fn service(&self) -> Service {
        match self {
            Puzzle::Eight { .. } => Service::Eight,
            Puzzle::Fifteen { .. } => Service::Fifteen,
            Puzzle::Solitaire { .. } => Service::Solitaire,
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
                    let target = parse_target(&eight::EIGHT_ARGUMENTS, &target)?;
                    let Query::Eight { start: target, .. } = target else {
                        bail!("--target is not a 3×3 board");
                    };
                    for case in &mut input.cases {
                        if let Ok(Query::Eight { target: t, .. }) = &mut case.query {
                            *t = target;
                        }
                    }
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
                    let target = parse_target(&fifteen::FIFTEEN_UNTIL_EOF, &target)?;
                    let Query::Fifteen { start: target, .. } = target else {
                        bail!("--target is not a 4×4 board");
                    };
                    for case in &mut input.cases {
                        if let Ok(Query::Fifteen { target: t, .. }) = &mut case.query {
                            *t = target;
                        }
                    }
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
        Ok((
            input.cases,
            Printer {
                out: Output::stdout(),
                view,
                many,
                from_stdin,
                failed: 0,
            },
        ))
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
fn parse_target(format: &dyn crate::judge::Format, target: &str) -> anyhow::Result<Query> {
    let input = format.parse(target.as_bytes());
    match input.cases.as_slice() {
        [case] => case
            .query
            .clone()
            .map_err(|e| anyhow::anyhow!("--target {target:?}: {e}")),
        [] => bail!("--target is empty"),
        _ => bail!(
            "--target {target:?}: one board expected, found {}",
            input.cases.len()
        ),
    }
}

/// Writes answers for a person, or as JSON lines.
#[derive(Debug)]
pub(crate) struct Printer {
    out: Output,
    view: View,
    /// Whether there are several cases (then each answer names its case).
    many: bool,
    /// Whether the boards came from standard input (then messages name their lines).
    from_stdin: bool,
    failed: usize,
}

impl Printer {
    /// Flushes the output; returns how many cases failed.
    pub(crate) fn finish(mut self) -> io::Result<usize> {
        self.out.flush()?;
        Ok(self.failed)
    }

    fn prefix(&self, case: &Case) -> String {
        if self.many {
            format!("case {}: ", case.number)
        } else {
            String::new()
        }
    }

    fn text(&mut self, case: &Case, query: &Query, answer: &Answer) -> io::Result<()> {
        let prefix = self.prefix(case);
        match (query, answer) {
            (Query::Eight { start, .. }, Answer::Moves(moves)) => {
                self.moves_text(&prefix, moves)?;
                if self.view.show {
                    show_boards(&mut self.out, start, moves)?;
                }
            }
            (Query::Fifteen { start, .. }, Answer::Moves(moves)) => {
                self.moves_text(&prefix, moves)?;
                if self.view.show {
                    show_boards(&mut self.out, start, moves)?;
                }
            }
            (_, Answer::Unsolvable) => writeln!(
                self.out,
                "{prefix}unsolvable: the board and the target have different permutation parity"
            )?,
            (Query::Solitaire(pair), Answer::Reachable(steps)) => {
                let list: Vec<String> = steps.iter().map(step_text).collect();
                writeln!(
                    self.out,
                    "{prefix}reachable in {} move{} (limit {}): {}",
                    steps.len(),
                    plural(steps.len()),
                    pair.max_moves,
                    if list.is_empty() {
                        "already there".to_owned()
                    } else {
                        list.join(", ")
                    }
                )?;
                if self.view.show {
                    show_solitaire(&mut self.out, &pair.start, steps)?;
                }
            }
            (Query::Solitaire(pair), Answer::Unreachable) => writeln!(
                self.out,
                "{prefix}not reachable within {} move{}",
                pair.max_moves,
                plural(pair.max_moves as usize)
            )?,
            _ => writeln!(
                self.out,
                "{prefix}the service sent an answer of another kind"
            )?,
        }
        Ok(())
    }

    fn moves_text(&mut self, prefix: &str, moves: &[Move]) -> io::Result<()> {
        let letters = solver_core::format_moves(moves);
        if moves.is_empty() {
            writeln!(self.out, "{prefix}already solved: 0 moves")
        } else {
            writeln!(
                self.out,
                "{prefix}{} move{}: {letters}",
                moves.len(),
                plural(moves.len())
            )
        }
    }

    fn json(&mut self, case: &Case, query: &Query, answer: &Answer) -> io::Result<()> {
        let value = match (query, answer) {
            (Query::Eight { start, target }, _) => {
                let mut v = serde_json::json!({
                    "case": case.number,
                    "puzzle": "eight",
                    "start": start.cells(),
                    "target": target.cells(),
                });
                sliding_json(&mut v, answer);
                v
            }
            (Query::Fifteen { start, target }, _) => {
                let mut v = serde_json::json!({
                    "case": case.number,
                    "puzzle": "fifteen",
                    "start": start.cells(),
                    "target": target.cells(),
                });
                sliding_json(&mut v, answer);
                v
            }
            (Query::Solitaire(pair), _) => {
                let squares = |p: &Position| -> Vec<[u32; 2]> {
                    p.squares().iter().map(|s| [s.row(), s.col()]).collect()
                };
                let mut v = serde_json::json!({
                    "case": case.number,
                    "puzzle": "solitaire",
                    "start": squares(&pair.start),
                    "end": squares(&pair.end),
                    "max_moves": pair.max_moves,
                });
                match answer {
                    Answer::Reachable(steps) => {
                        v["reachable"] = true.into();
                        v["length"] = steps.len().into();
                        v["moves"] = steps
                            .iter()
                            .map(|s| {
                                serde_json::json!({
                                    "from": [s.from.row(), s.from.col()],
                                    "to": [s.to.row(), s.to.col()],
                                })
                            })
                            .collect();
                    }
                    _ => v["reachable"] = false.into(),
                }
                v
            }
        };
        writeln!(self.out, "{value}")
    }
}

fn sliding_json(v: &mut serde_json::Value, answer: &Answer) {
    match answer {
        Answer::Moves(moves) => {
            v["solvable"] = true.into();
            v["length"] = moves.len().into();
            v["moves"] = solver_core::format_moves(moves).into();
        }
        _ => v["solvable"] = false.into(),
    }
}

impl Sink for Printer {
    fn case(&mut self, case: &Case, answer: Result<&Answer, &str>) -> io::Result<()> {
        let error: &str = match (&case.query, answer) {
            (Ok(query), Ok(answer)) => {
                return if self.view.json {
                    self.json(case, query, answer)
                } else {
                    self.text(case, query, answer)
                };
            }
            (Err(error), _) => error,
            (_, Err(error)) => error,
        };
        self.failed += 1;
        if self.view.json {
            let mut value = serde_json::json!({ "case": case.number, "error": error });
            if self.from_stdin {
                value["line"] = case.line.into();
            }
            writeln!(self.out, "{value}")
        } else {
            self.out.flush()?;
            if self.from_stdin {
                eprintln!(
                    "solver-client: case {}, line {}: {error}",
                    case.number, case.line
                );
            } else {
                eprintln!("solver-client: case {}: {error}", case.number);
            }
            Ok(())
        }
    }

    fn idle(&mut self) -> io::Result<()> {
        self.out.idle()
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn step_text(step: &Step) -> String {
    format!(
        "({},{}) -> ({},{})",
        step.from.row(),
        step.from.col(),
        step.to.row(),
        step.to.col()
    )
}

/// Prints `start` and the board after each move.
fn show_boards<const W: usize>(
    out: &mut Output,
    start: &Board<W>,
    moves: &[Move],
) -> io::Result<()> {
    writeln!(out, "\nstart:")?;
    write_board(out, start)?;
    let mut board = *start;
    for (i, &mv) in moves.iter().enumerate() {
        board = board.apply(mv).unwrap_or(board);
        writeln!(out, "\n{}. {} ({}):", i + 1, mv.letter(), direction(mv))?;
        write_board(out, &board)?;
    }
    writeln!(out)
}

/// What a move does, for a person (`blank down`).
pub(crate) fn direction(mv: Move) -> &'static str {
    match mv {
        Move::Down => "blank down",
        Move::Left => "blank left",
        Move::Right => "blank right",
        Move::Up => "blank up",
    }
}

/// Draws `board`, one row per line, `.` for the blank.
pub(crate) fn write_board<const W: usize>(out: &mut Output, board: &Board<W>) -> io::Result<()> {
    let width = if W > 3 { 2 } else { 1 };
    for row in board.cells().chunks(W) {
        let cells: Vec<String> = row
            .iter()
            .map(|&t| {
                if t == 0 {
                    format!("{:>width$}", ".")
                } else {
                    format!("{t:>width$}")
                }
            })
            .collect();
        writeln!(out, "  {}", cells.join(" "))?;
    }
    Ok(())
}

/// Prints the Solitaire board at the start and after each step.
fn show_solitaire(out: &mut Output, start: &Position, steps: &[Step]) -> io::Result<()> {
    let mut pieces: Vec<(u32, u32)> = start.squares().iter().map(|s| (s.row(), s.col())).collect();
    writeln!(out, "\nstart:")?;
    write_solitaire(out, &pieces)?;
    for (i, step) in steps.iter().enumerate() {
        for piece in &mut pieces {
            if *piece == (step.from.row(), step.from.col()) {
                *piece = (step.to.row(), step.to.col());
            }
        }
        writeln!(out, "\n{}. {}:", i + 1, step_text(step))?;
        write_solitaire(out, &pieces)?;
    }
    writeln!(out)
}

fn write_solitaire(out: &mut Output, pieces: &[(u32, u32)]) -> io::Result<()> {
    writeln!(out, "    1 2 3 4 5 6 7 8")?;
    for row in 1..=8 {
        let cells: Vec<&str> = (1..=8)
            .map(|col| {
                if pieces.contains(&(row, col)) {
                    "o"
                } else {
                    "."
                }
            })
            .collect();
        writeln!(out, "  {row} {}", cells.join(" "))?;
    }
    Ok(())
}
