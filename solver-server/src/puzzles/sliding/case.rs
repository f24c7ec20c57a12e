//! A sliding case, validated: the start and target of a served shape, with what the request
//! asks of the answer.

use solver_core::tiles::grid::Grid;
use solver_core::tiles::grid_board::GridBoard;
use solver_core::tiles::solver::Solver;

use crate::config::Kind;
use crate::convert::v2::Quality;
use crate::errors::Failure;

/// A validated sliding-tile case, on any shape from 2×2 to 8×8.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SlidingCase {
    /// The start board.
    pub(crate) start: GridBoard,
    /// The target board, of the start's shape (the standard goal when the request left it
    /// empty).
    pub(crate) target: GridBoard,
    /// The request's node budget (0 = the server's default).
    pub(crate) node_budget: u64,
    /// How good the answer must be.
    pub(crate) quality: Quality,
}

impl SlidingCase {
    /// The shape.
    pub(crate) fn grid(&self) -> Grid {
        self.start.grid()
    }
}

/// The kind a case on `grid` is counted under: the solver's label for the shape.
pub(crate) fn kind(grid: Grid) -> Kind {
    Kind::named(Solver::label(grid)).unwrap_or(Kind::Sliding)
}

/// Reads `rows` and `cols` as any shape from 2×2 to 8×8; the error names the one out of range.
pub(crate) fn grid(rows: u32, cols: u32) -> Result<Grid, Failure> {
    Grid::new(rows as usize, cols as usize).map_err(|err| {
        let fits = |n: u32| (Grid::MIN..=Grid::MAX).contains(&(n as usize));
        Failure::invalid(if fits(rows) { "cols" } else { "rows" }, err.to_string())
    })
}

/// Validates a start and target of `grid` (an empty target is the standard goal). Whether the
/// target can be reached is not checked here: for `Solve` that is an answer, not an error.
pub(crate) fn boards(
    grid: Grid,
    start: &[u32],
    target: &[u32],
) -> Result<(GridBoard, GridBoard), Failure> {
    let start =
        GridBoard::new(grid, start).map_err(|e| Failure::invalid("start", e.to_string()))?;
    let target = if target.is_empty() {
        GridBoard::goal(grid)
    } else {
        GridBoard::new(grid, target).map_err(|e| Failure::invalid("target", e.to_string()))?
    };
    Ok((start, target))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_target_is_the_goal() {
        let (_, target) = boards(Grid::EIGHT, &[1, 2, 3, 4, 5, 6, 7, 0, 8], &[]).unwrap();
        assert_eq!(target, GridBoard::goal(Grid::EIGHT));
    }

    #[test]
    fn errors_name_the_field() {
        let err = boards(Grid::EIGHT, &[1, 2, 3], &[]).unwrap_err();
        assert_eq!(err.to_string(), "start: expected 9 tiles, found 3");
        let err = boards(Grid::FIFTEEN, &[0; 16], &[]).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("start: the blank appears twice")
        );
        let err = boards(Grid::EIGHT, &[1, 2, 3, 4, 5, 6, 7, 0, 8], &[9; 9]).unwrap_err();
        assert!(err.to_string().starts_with("target: tile 9"), "{err}");
    }

    #[test]
    fn shapes_name_the_field_at_fault_and_their_kind() {
        assert_eq!(kind(grid(3, 3).unwrap()), Kind::Eight);
        assert_eq!(kind(grid(4, 4).unwrap()), Kind::Fifteen);
        assert_eq!(kind(grid(5, 5).unwrap()), Kind::Sliding);
        let Err(Failure::Invalid { field, message }) = grid(9, 3) else {
            panic!("9x3 accepted");
        };
        assert_eq!(field, "rows");
        assert!(message.contains("9×3"), "{message}");
        let Err(Failure::Invalid { field, .. }) = grid(3, 1) else {
            panic!("3x1 accepted");
        };
        assert_eq!(field, "cols");
    }
}
