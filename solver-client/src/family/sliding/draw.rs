//! Sliding boards and answers for a person: the moves as text, as JSON, and any board drawn
//! (`.` for the blank) at the start and after each move. `solve --show` and the `solver.v2`
//! commands draw boards alike.

use std::io::{self, Write as _};

use serde_json::{Value, json};
use solver_core::Move;
use solver_core::tiles::grid::Grid;
use solver_core::tiles::grid_board::GridBoard;

use super::query::{SlidingAnswer, SlidingQuery};
use crate::output::{Output, plural};

/// Writes `answer` for a person, each line after `prefix`; `show` draws every position too.
pub(super) fn write_text(
    query: &SlidingQuery,
    out: &mut Output,
    prefix: &str,
    show: bool,
    answer: &SlidingAnswer,
) -> io::Result<()> {
    let moves = match answer {
        SlidingAnswer::Moves(moves) => {
            moves_line(out, prefix, moves)?;
            moves
        }
        SlidingAnswer::Bounded { moves, lower_bound } => {
            let proven = moves.len() as f64 / f64::from((*lower_bound).max(1));
            let asked = query.max_ratio.get();
            let ratio = if *lower_bound == 0 {
                String::new()
            } else if asked > 1.0 && proven > asked {
                // The promise was not kept: the server's limits stopped the search first.
                format!(
                    ", so at most {proven:.3} times it: NOT proven within the {asked} asked, \
                     the service's limits stopped its search first"
                )
            } else {
                format!(", so at most {proven:.3} times it")
            };
            writeln!(
                out,
                "{prefix}{} move{} (not proven optimal: the optimum is at least \
                 {lower_bound}{ratio}): {}",
                moves.len(),
                plural(moves.len()),
                solver_core::format_moves(moves)
            )?;
            moves
        }
        SlidingAnswer::Unsolvable => {
            return writeln!(
                out,
                "{prefix}unsolvable: the board and the target have different permutation \
                 parity"
            );
        }
    };
    if show {
        show_grid(out, &query.start, moves)?;
    }
    Ok(())
}

/// `answer` to case `number` as one JSON object: the case, the puzzle as asked, the answer.
pub(super) fn json(query: &SlidingQuery, number: usize, answer: &SlidingAnswer) -> Value {
    let grid = query.start.grid();
    let mut v = json!({
        "case": number,
        "puzzle": name(grid),
        "rows": grid.rows(),
        "cols": grid.cols(),
        "start": query.start.cells(),
        "target": query.target.cells(),
    });
    let (moves, lower_bound) = match answer {
        SlidingAnswer::Moves(moves) => (moves, moves.len() as u32),
        SlidingAnswer::Bounded { moves, lower_bound } => (moves, *lower_bound),
        SlidingAnswer::Unsolvable => {
            v["solvable"] = false.into();
            return v;
        }
    };
    v["solvable"] = true.into();
    v["length"] = moves.len().into();
    v["moves"] = solver_core::format_moves(moves).into();
    v["optimal"] = matches!(answer, SlidingAnswer::Moves(_)).into();
    v["lower_bound"] = lower_bound.into();
    if matches!(answer, SlidingAnswer::Bounded { .. }) && lower_bound > 0 {
        let ratio = moves.len() as f64 / f64::from(lower_bound);
        v["ratio"] = ratio.into();
        let asked = query.max_ratio.get();
        if asked > 1.0 {
            // Whether the ratio asked is proven: the service's limits may stop it first.
            v["within_max_ratio"] = (ratio <= asked).into();
        }
    }
    v
}

/// The puzzle's name in JSON: `eight` and `fifteen` for their boards, else `sliding`.
fn name(grid: Grid) -> &'static str {
    match grid {
        Grid::EIGHT => "eight",
        Grid::FIFTEEN => "fifteen",
        _ => "sliding",
    }
}

fn moves_line(out: &mut Output, prefix: &str, moves: &[Move]) -> io::Result<()> {
    if moves.is_empty() {
        writeln!(out, "{prefix}already solved: 0 moves")
    } else {
        writeln!(
            out,
            "{prefix}{} move{}: {}",
            moves.len(),
            plural(moves.len()),
            solver_core::format_moves(moves)
        )
    }
}

/// Prints `start`, a board of any shape, and the board after each move.
fn show_grid(out: &mut Output, start: &GridBoard, moves: &[Move]) -> io::Result<()> {
    writeln!(out, "\nstart:")?;
    write_grid(out, start)?;
    let mut board = start.clone();
    for (i, &mv) in moves.iter().enumerate() {
        board = board.apply(mv).unwrap_or(board);
        writeln!(out, "\n{}. {} ({}):", i + 1, mv.letter(), direction(mv))?;
        write_grid(out, &board)?;
    }
    writeln!(out)
}

/// Draws a board of any shape, one row per line, `.` for the blank, columns aligned.
pub(crate) fn write_grid(out: &mut Output, board: &GridBoard) -> io::Result<()> {
    let width = (board.cells().len() - 1).to_string().len();
    for row in board.cells().chunks(board.grid().cols()) {
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

/// What a move does, for a person (`blank down`).
pub(crate) fn direction(mv: Move) -> &'static str {
    match mv {
        Move::Down => "blank down",
        Move::Left => "blank left",
        Move::Right => "blank right",
        Move::Up => "blank up",
    }
}
