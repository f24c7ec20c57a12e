//! The sliding boards of the `solver.v2` commands, read as `solve` reads them, and shown.

use std::io;

use anyhow::bail;
use solver_core::{Board3, Board4};
use solver_server::Kind;

use crate::case::Query;
use crate::judge::{Format, eight, fifteen};
use crate::output::Output;

/// One sliding board of a served size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum AnyBoard {
    /// 3×3.
    Eight(Board3),
    /// 4×4.
    Fifteen(Board4),
}

impl AnyBoard {
    /// The side of the board (3 or 4).
    pub(super) fn side(self) -> u32 {
        match self {
            AnyBoard::Eight(_) => 3,
            AnyBoard::Fifteen(_) => 4,
        }
    }

    /// The cells row by row, 0 for the blank.
    pub(super) fn cells(&self) -> Vec<u32> {
        match self {
            AnyBoard::Eight(board) => board.cells().iter().map(|&c| u32::from(c)).collect(),
            AnyBoard::Fifteen(board) => board.cells().iter().map(|&c| u32::from(c)).collect(),
        }
    }

    /// The server tables it needs.
    pub(super) fn kind(self) -> Kind {
        match self {
            AnyBoard::Eight(_) => Kind::Eight,
            AnyBoard::Fifteen(_) => Kind::Fifteen,
        }
    }
}

/// A start and its target, of one size.
#[derive(Debug, Clone, Copy)]
pub(super) struct Boards {
    /// The position.
    pub(super) start: AnyBoard,
    /// `None`: the standard goal (the request leaves `target` empty).
    pub(super) target: Option<AnyBoard>,
}

impl Boards {
    /// Reads `BOARD` (its arguments) and `--target`.
    ///
    /// # Errors
    /// A board that is not one 3×3 or 4×4 board, or a target of another size.
    pub(super) fn parse(board: &[String], target: Option<&str>) -> anyhow::Result<Self> {
        let start = parse_board("BOARD", &board.join("\n"))?;
        let target = target
            .map(|target| parse_board("--target", target))
            .transpose()?;
        if let Some(target) = target
            && target.side() != start.side()
        {
            bail!(
                "--target is a {t}×{t} board but BOARD is {s}×{s}",
                t = target.side(),
                s = start.side()
            );
        }
        Ok(Self { start, target })
    }

    /// The side of both boards.
    pub(super) fn side(&self) -> u32 {
        self.start.side()
    }

    /// The target's cells for a request: empty for the standard goal.
    pub(super) fn target_cells(&self) -> Vec<u32> {
        self.target.map(|t| t.cells()).unwrap_or_default()
    }

    /// The target for a person: the one given, or the standard goal.
    pub(super) fn target_or_goal(&self) -> AnyBoard {
        self.target.unwrap_or(match self.start {
            AnyBoard::Eight(_) => AnyBoard::Eight(Board3::goal()),
            AnyBoard::Fifteen(_) => AnyBoard::Fifteen(Board4::goal()),
        })
    }
}

/// Reads one board as `solve eight` (9 numbers, or packed like `12345678x`) or `solve fifteen`
/// (16 numbers) reads it; `what` names the argument in messages.
pub(super) fn parse_board(what: &str, text: &str) -> anyhow::Result<AnyBoard> {
    let format: &dyn Format = match text.split_whitespace().count() {
        0 => bail!("{what}: no board given"),
        1 | 9 => &eight::EIGHT_ARGUMENTS,
        16 => &fifteen::FIFTEEN_UNTIL_EOF,
        n => bail!(
            "{what} {:?}: a board is 9 numbers (3×3) or 16 (4×4) row by row, 0 or x for the \
             blank; found {n}",
            shown(text)
        ),
    };
    let input = format.parse(text.as_bytes());
    if let Some((_, problem)) = input.problems.first() {
        bail!("{what} {:?}: {problem}", shown(text));
    }
    match input.cases.as_slice() {
        [case] => match &case.query {
            Ok(Query::Eight { start, .. }) => Ok(AnyBoard::Eight(*start)),
            Ok(Query::Fifteen { start, .. }) => Ok(AnyBoard::Fifteen(*start)),
            Ok(Query::Solitaire(_) | Query::Sliding { .. }) => {
                bail!("{what}: not a 3×3 or 4×4 board")
            }
            Err(problem) => bail!("{what} {:?}: {problem}", shown(text)),
        },
        cases => bail!("{what}: one board expected, found {}", cases.len()),
    }
}

/// A board argument as typed, on one line.
pub(super) fn shown(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A board on one line, as `solve` reads it.
pub(super) fn line(cells: &[u32]) -> String {
    cells
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Draws a board, one row per line, `.` for the blank.
pub(super) fn write_board(out: &mut Output, board: AnyBoard) -> io::Result<()> {
    match board {
        AnyBoard::Eight(board) => crate::draw::write_board(out, &board),
        AnyBoard::Fifteen(board) => crate::draw::write_board(out, &board),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_of_both_sizes_in_the_forms_solve_reads() {
        let packed = parse_board("BOARD", "12345678x").unwrap();
        assert_eq!(packed, AnyBoard::Eight(Board3::goal()));
        let split = parse_board("BOARD", "1\n2\n3\n4\n5\n6\n7\n8\n0").unwrap();
        assert_eq!(split, packed);
        let fifteen = parse_board("BOARD", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0").unwrap();
        assert_eq!(fifteen, AnyBoard::Fifteen(Board4::goal()));
        assert_eq!(fifteen.cells().len(), 16);
    }

    #[test]
    fn bad_boards_say_why() {
        let err = parse_board("BOARD", "1 2 3").unwrap_err().to_string();
        assert!(err.contains("9 numbers (3×3) or 16 (4×4)"), "{err}");
        let err = parse_board("BOARD", "1 2 3 4 5 6 7 8 8")
            .unwrap_err()
            .to_string();
        assert!(err.contains("tile 8 appears twice"), "{err}");
        let err = Boards::parse(
            &["12345678x".to_owned()],
            Some("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0"),
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("--target is a 4×4 board but BOARD is 3×3"),
            "{err}"
        );
    }
}
