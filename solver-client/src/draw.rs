//! Sliding boards drawn as text for a person (`.` for the blank), with the move between each
//! drawing. Shared by `solve --show` and the `solver.v2` commands.

use std::io::{self, Write as _};

use solver_core::Move;
use solver_core::tiles::grid_board::GridBoard;

use crate::output::Output;

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
