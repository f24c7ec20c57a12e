//! `solve sliding`'s boards of any shape from 2×2 to 8×8, read as whitespace-separated tiles,
//! and its `--size` (which the `solver.v2` commands and `databases` take too) and `--max-ratio`.
//!
//! There is no judge format for these shapes, so the rule is the plainest one: every `rows × cols`
//! tokens make a board, whatever the lines (a board may be split over lines or share one). Each
//! case is numbered, and named by the line its first tile is on.

use solver_core::tiles::grid::Grid;
use solver_core::tiles::grid_board::GridBoard;

use super::query::{MaxRatio, SlidingQuery};
use crate::case::Input;
use crate::family::Query;
use crate::read_error::ReadError;

/// `--size RxC` (also `R×C`): a shape the service takes.
pub(crate) fn parse_size(text: &str) -> Result<Grid, String> {
    let (rows, cols) = text
        .split_once(['x', 'X', '×'])
        .ok_or_else(|| format!("{text:?} is not a size like 5x5 (rows x columns)"))?;
    let side = |what: &str, value: &str| {
        value
            .trim()
            .parse::<usize>()
            .map_err(|_| format!("{text:?}: {what} {value:?} is not a number"))
    };
    Grid::new(side("rows", rows)?, side("columns", cols)?).map_err(|e| e.to_string())
}

/// `--max-ratio R`: a finite number of at least 1.
pub(super) fn parse_ratio(text: &str) -> Result<f64, String> {
    let ratio: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a number"))?;
    MaxRatio::new(ratio)
        .map(MaxRatio::get)
        .ok_or_else(|| format!("{text}: the ratio must be a finite number of at least 1"))
}

/// The boards of `grid` in `text`, each with the standard goal as its target.
pub(super) fn parse(text: &[u8], grid: Grid, max_ratio: MaxRatio) -> Input {
    let text = String::from_utf8_lossy(text);
    let tokens: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .flat_map(|(i, line)| line.split_whitespace().map(move |t| (i + 1, t)))
        .collect();
    let mut input = Input::default();
    for board in tokens.chunks(grid.cells()) {
        let line = board[0].0;
        let query = if board.len() < grid.cells() {
            Err(ReadError::Truncated {
                read: board.len(),
                tokens: grid.cells(),
                what: "tiles of a board",
            })
        } else {
            read_board(grid, board.iter().map(|&(_, t)| t)).map(|start| {
                Query::Sliding(SlidingQuery {
                    start,
                    target: GridBoard::goal(grid),
                    max_ratio,
                })
            })
        };
        input.push(line, query);
    }
    input
}

/// One board from its tokens: numbers, `x` or `X` for the blank.
pub(crate) fn read_board<'a>(
    grid: Grid,
    tokens: impl Iterator<Item = &'a str>,
) -> Result<GridBoard, ReadError> {
    let values = tokens
        .enumerate()
        .map(|(i, token)| match token {
            "x" | "X" => Ok(0),
            _ => token.parse::<u64>().map_err(|_| ReadError::NotATile {
                index: i + 1,
                token: format!("{token:?}"),
            }),
        })
        .collect::<Result<Vec<u64>, _>>()?;
    Ok(GridBoard::new(grid, &values)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_ratios() {
        assert_eq!(parse_size("5x5").unwrap(), Grid::new(5, 5).unwrap());
        assert_eq!(parse_size("2×3").unwrap(), Grid::new(2, 3).unwrap());
        assert!(parse_size("9x2").unwrap_err().contains("2..=8"));
        assert!(parse_size("five").unwrap_err().contains("not a size"));
        assert_eq!(parse_ratio("1.5").unwrap(), 1.5);
        assert!(parse_ratio("0.9").unwrap_err().contains("at least 1"));
        assert!(parse_ratio("inf").is_err());
    }

    #[test]
    fn boards_are_every_rows_times_cols_tokens() {
        let grid = Grid::new(2, 3).unwrap();
        let input = parse(
            b"1 2 3\n4 x 5\n1 2 3 4 5 0\n1 2 q 4 5 0\n1 2",
            grid,
            MaxRatio::OPTIMAL,
        );
        let lines: Vec<usize> = input.cases.iter().map(|c| c.line).collect();
        assert_eq!(lines, [1, 3, 4, 5]);
        assert!(input.cases[0].query.is_ok() && input.cases[1].query.is_ok());
        assert_eq!(
            input.cases[2].query.as_ref().unwrap_err().to_string(),
            "token 3 (\"q\") is not a tile: expected a number, or 0 or x for the blank"
        );
        assert_eq!(
            input.cases[3].query.as_ref().unwrap_err().to_string(),
            "the input ends inside the case, after 2 of the 6 tiles of a board"
        );
    }
}
