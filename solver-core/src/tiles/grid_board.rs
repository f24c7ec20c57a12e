//! A validated sliding-tile board of any [`Grid`] shape.

use std::fmt;

use super::board::{Board, BoardError, Move, ReplayError};
use super::grid::Grid;

/// A `rows × cols` board: every tile `1..cells` and the blank (0) exactly once, row-major from
/// the top-left cell. Only made through validation, so the searches trust it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GridBoard {
    grid: Grid,
    cells: Vec<u8>,
}

/// Checks that `values` holds each of `0..cells` exactly once; returns them as tiles.
pub(crate) fn validate<T: Copy + Into<u64>>(
    values: &[T],
    cells: usize,
) -> Result<Vec<u8>, BoardError> {
    if values.len() != cells {
        return Err(BoardError::WrongCount {
            expected: cells,
            found: values.len(),
        });
    }
    let max = cells as u64 - 1;
    // At most 64 cells: one bit per tile seen.
    let mut seen = 0u64;
    let mut tiles = Vec::with_capacity(cells);
    for (index, value) in values.iter().map(|&v| v.into()).enumerate() {
        if value > max {
            return Err(BoardError::OutOfRange {
                index,
                value,
                max: max as u32,
            });
        }
        if seen & (1 << value) != 0 {
            let first = values
                .iter()
                .position(|&v| v.into() == value)
                .expect("seen before");
            // With the right count, a repeated tile means another one is absent.
            let missing = (0..cells as u64)
                .find(|&t| !values.iter().any(|&v| v.into() == t))
                .unwrap_or(0) as u8;
            return Err(BoardError::Duplicate {
                tile: value as u8,
                first,
                second: index,
                missing,
            });
        }
        seen |= 1 << value;
        tiles.push(value as u8);
    }
    Ok(tiles)
}

impl GridBoard {
    /// Validates `rows × cols` numbers, row-major, 0 for the blank.
    ///
    /// ```
    /// use solver_core::tiles::{grid::Grid, grid_board::GridBoard};
    /// let grid = Grid::new(2, 3).unwrap();
    /// assert!(GridBoard::new(grid, &[1u8, 2, 3, 4, 5, 0]).is_ok());
    /// assert!(GridBoard::new(grid, &[1u8, 2, 3, 4, 5, 5]).is_err());
    /// ```
    ///
    /// # Errors
    /// [`BoardError`] for a wrong count, a number out of range or a repeated tile.
    pub fn new<T: Copy + Into<u64>>(grid: Grid, values: &[T]) -> Result<Self, BoardError> {
        Ok(Self {
            grid,
            cells: validate(values, grid.cells())?,
        })
    }

    /// The standard goal of `grid`: tiles in order, the blank last.
    #[must_use]
    pub fn goal(grid: Grid) -> Self {
        Self {
            grid,
            cells: grid.goal(),
        }
    }

    /// The board's shape.
    #[must_use]
    pub fn grid(&self) -> Grid {
        self.grid
    }

    /// The tiles, row-major, 0 for the blank.
    #[must_use]
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The blank's cell (row-major index).
    #[must_use]
    pub fn blank(&self) -> usize {
        self.cells
            .iter()
            .position(|&t| t == 0)
            .expect("a validated board has a blank")
    }

    /// The board after `mv`, or `None` if the blank would leave the board.
    #[must_use]
    pub fn apply(&self, mv: Move) -> Option<Self> {
        let blank = self.blank();
        let to = self.grid.neighbour(blank, mv)?;
        let mut next = self.clone();
        next.cells.swap(blank, to);
        Some(next)
    }

    /// Replays `moves` from this board.
    ///
    /// # Errors
    /// [`ReplayError`] at the first move that would take the blank off the board.
    pub fn replay(&self, moves: &[Move]) -> Result<Self, ReplayError> {
        let mut cells = self.cells.clone();
        let mut blank = self.blank();
        for (index, &mv) in moves.iter().enumerate() {
            let to = self.grid.neighbour(blank, mv).ok_or(ReplayError {
                index,
                mv,
                row: blank / self.grid.cols(),
                col: blank % self.grid.cols(),
            })?;
            cells.swap(blank, to);
            blank = to;
        }
        Ok(Self {
            grid: self.grid,
            cells,
        })
    }

    /// Whether `target` (of the same shape) can be reached from this board: exactly when both
    /// have the same [`Grid::parity`].
    #[must_use]
    pub fn can_reach(&self, target: &Self) -> bool {
        self.grid == target.grid
            && self.grid.parity(&self.cells) == target.grid.parity(&target.cells)
    }
}

impl<const W: usize> From<&Board<W>> for GridBoard {
    /// The same square board in the size-generic form (the 8- and 15-puzzle's boards are
    /// boards of any shape too).
    fn from(board: &Board<W>) -> Self {
        Self {
            grid: Grid::new(W, W).expect("a Board's width is a grid side"),
            cells: board.cells().to_vec(),
        }
    }
}

impl<const W: usize> TryFrom<&GridBoard> for Board<W> {
    type Error = BoardError;

    /// The square board in its fixed-size form, for the 8- and 15-puzzle's own solvers.
    ///
    /// # Errors
    /// [`BoardError::WrongCount`] when the board is not `W × W`.
    fn try_from(board: &GridBoard) -> Result<Self, BoardError> {
        if board.grid != Grid::new(W, W).map_err(|_| wrong_count::<W>(board))? {
            return Err(wrong_count::<W>(board));
        }
        Ok(Board::from_valid(&board.cells))
    }
}

fn wrong_count<const W: usize>(board: &GridBoard) -> BoardError {
    BoardError::WrongCount {
        expected: W * W,
        found: board.cells.len(),
    }
}

impl fmt::Display for GridBoard {
    /// Rows of space-separated numbers, 0 for the blank, rows separated by newlines.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (row, chunk) in self.cells.chunks(self.grid.cols()).enumerate() {
            if row > 0 {
                writeln!(f)?;
            }
            for (i, tile) in chunk.iter().enumerate() {
                if i > 0 {
                    write!(f, " ")?;
                }
                write!(f, "{tile}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_boards_convert() {
        let board = crate::Board3::goal().apply(Move::Up).unwrap();
        let grid = GridBoard::from(&board);
        assert_eq!(grid.grid(), Grid::EIGHT);
        assert_eq!(grid.cells(), board.cells());
        assert_eq!(
            GridBoard::from(&crate::Board4::goal()),
            GridBoard::goal(Grid::FIFTEEN)
        );
    }

    #[test]
    fn bad_boards_name_what_is_wrong() {
        let grid = Grid::new(2, 3).unwrap();
        assert_eq!(
            GridBoard::new(grid, &[1u8, 2, 3]),
            Err(BoardError::WrongCount {
                expected: 6,
                found: 3
            })
        );
        assert_eq!(
            GridBoard::new(grid, &[1u8, 2, 3, 4, 5, 9]),
            Err(BoardError::OutOfRange {
                index: 5,
                value: 9,
                max: 5
            })
        );
        assert_eq!(
            GridBoard::new(grid, &[1u8, 2, 2, 4, 5, 0]),
            Err(BoardError::Duplicate {
                tile: 2,
                first: 1,
                second: 2,
                missing: 3
            })
        );
    }

    #[test]
    fn replay_and_reach() {
        let grid = Grid::new(3, 4).unwrap();
        let goal = GridBoard::goal(grid);
        let moves = super::super::board::parse_moves("ulldrr").unwrap();
        let start = goal.replay(&moves).unwrap();
        assert!(start.can_reach(&goal));
        let back = super::super::board::parse_moves("llurrd").unwrap();
        assert_eq!(start.replay(&back).unwrap(), goal);
        let err = goal
            .replay(&super::super::board::parse_moves("d").unwrap())
            .unwrap_err();
        assert_eq!((err.index, err.row, err.col), (0, 2, 3));
    }
}
