//! The sliding boards of the `solver.v2` commands, read as `solve` reads them, and shown.

use std::io;

use anyhow::bail;
use solver_core::tiles::grid::Grid;
use solver_core::tiles::grid_board::GridBoard;

use crate::embedded::Tables;
use crate::family::Query;
use crate::family::sliding::judge::{eight, fifteen};
use crate::judge::Format;
use crate::output::Output;

/// One sliding board of a served size, 2×2 to 8×8.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct AnyBoard(GridBoard);

impl AnyBoard {
    /// The shape: rows and columns.
    pub(super) fn shape(&self) -> (u32, u32) {
        let grid = self.0.grid();
        (side(grid.rows()), side(grid.cols()))
    }

    /// A board of `grid` from its cells.
    pub(super) fn from_cells<T: Copy + Into<u64>>(grid: Grid, cells: &[T]) -> anyhow::Result<Self> {
        let values: Vec<u64> = cells.iter().map(|&c| c.into()).collect();
        Ok(Self(GridBoard::new(grid, &values)?))
    }

    /// The standard goal of the same shape.
    pub(super) fn goal(&self) -> Self {
        Self(GridBoard::goal(self.0.grid()))
    }

    /// The cells row by row, 0 for the blank.
    pub(super) fn cells(&self) -> Vec<u32> {
        self.0.cells().iter().map(|&c| u32::from(c)).collect()
    }

    /// The server tables it needs.
    pub(super) fn kind(&self) -> Tables {
        crate::family::sliding::query::tables(self.0.grid())
    }
}

/// A start and its target, of one size.
#[derive(Debug, Clone)]
pub(super) struct Boards {
    /// The position.
    pub(super) start: AnyBoard,
    /// `None`: the standard goal (the request leaves `target` empty).
    pub(super) target: Option<AnyBoard>,
}

impl Boards {
    /// Reads `BOARD` (its arguments) and `--target`: of the shape `size` (`--size`) when
    /// given, else 3×3 or 4×4 told by the count.
    ///
    /// # Errors
    /// A board that is not one board of the shape, or a target of another size.
    pub(super) fn parse(
        board: &[String],
        target: Option<&str>,
        size: Option<Grid>,
    ) -> anyhow::Result<Self> {
        // `solve eight 1 2 ...` habits: a puzzle name would be read as a tile and the count
        // reported wrong.
        if let Some(name) = board.first().map(|word| word.trim())
            && ["eight", "fifteen", "sliding"].contains(&name)
        {
            bail!(
                "BOARD: {name:?} is a puzzle name, as `solve` takes; here the board alone is \
                 given (9 or 16 numbers, or rows × cols with --size RxC)"
            );
        }
        let read = |what: &str, text: &str| match size {
            Some(grid) => parse_sized(what, text, grid),
            None => parse_board(what, text),
        };
        let start = read("BOARD", &board.join("\n"))?;
        let target = target.map(|target| read("--target", target)).transpose()?;
        if let Some(target) = &target
            && target.shape() != start.shape()
        {
            let (tr, tc) = target.shape();
            let (sr, sc) = start.shape();
            bail!("--target is a {tr}×{tc} board but BOARD is {sr}×{sc}");
        }
        Ok(Self { start, target })
    }

    /// The rows of both boards.
    pub(super) fn rows(&self) -> u32 {
        self.start.shape().0
    }

    /// The columns of both boards.
    pub(super) fn cols(&self) -> u32 {
        self.start.shape().1
    }

    /// The target's cells for a request: empty for the standard goal.
    pub(super) fn target_cells(&self) -> Vec<u32> {
        self.target
            .as_ref()
            .map(AnyBoard::cells)
            .unwrap_or_default()
    }

    /// The target for a person: the one given, or the standard goal.
    pub(super) fn target_or_goal(&self) -> AnyBoard {
        self.target.clone().unwrap_or_else(|| self.start.goal())
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
        [case] => match case.query.as_ref().map(Query::as_sliding) {
            Ok(Some(sliding)) => Ok(AnyBoard(sliding.start.clone())),
            Ok(None) => bail!("{what}: not a 3×3 or 4×4 board"),
            Err(problem) => bail!("{what} {:?}: {problem}", shown(text)),
        },
        cases => bail!("{what}: one board expected, found {}", cases.len()),
    }
}

/// Reads one board of the shape `grid` (`--size`) as `solve sliding` reads it: rows × cols
/// numbers row by row, 0 or x for the blank.
fn parse_sized(what: &str, text: &str, grid: Grid) -> anyhow::Result<AnyBoard> {
    let count = text.split_whitespace().count();
    if count != grid.cells() {
        bail!(
            "{what} {:?}: a {grid} board is {} numbers row by row, 0 or x for the blank; found \
             {count}",
            shown(text),
            grid.cells()
        );
    }
    let board = crate::family::sliding::any_shape::read_board(grid, text.split_whitespace())
        .map_err(|e| anyhow::anyhow!("{what} {:?} ({grid} board): {e}", shown(text)))?;
    Ok(AnyBoard(board))
}

/// A side of a shape for the wire (2..=8).
fn side(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
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
pub(super) fn write_board(out: &mut Output, board: &AnyBoard) -> io::Result<()> {
    crate::family::sliding::draw::write_grid(out, &board.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_of_both_sizes_in_the_forms_solve_reads() {
        let packed = parse_board("BOARD", "12345678x").unwrap();
        assert_eq!(packed, AnyBoard(GridBoard::goal(Grid::EIGHT)));
        let split = parse_board("BOARD", "1\n2\n3\n4\n5\n6\n7\n8\n0").unwrap();
        assert_eq!(split, packed);
        let fifteen = parse_board("BOARD", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0").unwrap();
        assert_eq!(fifteen, AnyBoard(GridBoard::goal(Grid::FIFTEEN)));
        assert_eq!(fifteen.cells().len(), 16);
    }

    #[test]
    fn bad_boards_say_why() {
        let named: Vec<String> = "eight 1 2 3 4 5 6 7 8 0"
            .split(' ')
            .map(str::to_owned)
            .collect();
        let err = Boards::parse(&named, None, None).unwrap_err().to_string();
        assert!(
            err.starts_with("BOARD: \"eight\" is a puzzle name, as `solve` takes"),
            "{err}"
        );
        let err = parse_board("BOARD", "1 2 3").unwrap_err().to_string();
        assert!(err.contains("9 numbers (3×3) or 16 (4×4)"), "{err}");
        let err = parse_board("BOARD", "1 2 3 4 5 6 7 8 8")
            .unwrap_err()
            .to_string();
        assert!(err.contains("tile 8 appears twice"), "{err}");
        let err = Boards::parse(
            &["12345678x".to_owned()],
            Some("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0"),
            None,
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("--target is a 4×4 board but BOARD is 3×3"),
            "{err}"
        );
    }
}
