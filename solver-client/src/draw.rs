//! Boards drawn as text for a person: sliding boards (`.` for the blank) and the Solitaire board,
//! with the move between each drawing. Shared by `solve --show` and the `solver.v2` commands.

use std::io::{self, Write as _};

use solver_core::Move;
use solver_core::solitaire::{Position, Step};
use solver_core::tiles::grid_board::GridBoard;

use crate::output::Output;

/// A Solitaire step for a person: `(4,4) -> (4,6)`.
pub(crate) fn step_text(step: &Step) -> String {
    format!(
        "({},{}) -> ({},{})",
        step.from.row(),
        step.from.col(),
        step.to.row(),
        step.to.col()
    )
}

/// Prints `start`, a board of any shape, and the board after each move.
pub(crate) fn show_grid(out: &mut Output, start: &GridBoard, moves: &[Move]) -> io::Result<()> {
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

/// Prints the Solitaire board at the start and after each step.
pub(crate) fn show_solitaire(out: &mut Output, start: &Position, steps: &[Step]) -> io::Result<()> {
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
