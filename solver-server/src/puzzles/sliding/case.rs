//! A sliding case, validated: the start and target of a served shape, with what the request
//! asks of the answer.

use solver_core::Board;
use solver_core::tiles::grid_board::GridBoard;

use crate::convert::v2::Quality;
use crate::errors::Failure;

/// A validated sliding-tile case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SlidingCase<const W: usize> {
    /// The start board.
    pub(crate) start: Board<W>,
    /// The target board (the standard goal when the request left it empty).
    pub(crate) target: Board<W>,
    /// The request's node budget (0 = the server's default).
    pub(crate) node_budget: u64,
}

/// A validated case on a board of another shape than 3×3 and 4×4.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct GridCase {
    /// The start board.
    pub(crate) start: GridBoard,
    /// The target board (the standard goal when the request left it empty).
    pub(crate) target: GridBoard,
    /// The request's node budget (0 = the server's default).
    pub(crate) node_budget: u64,
    /// How good the answer must be.
    pub(crate) quality: Quality,
}

/// Validates a `W × W` start and target (an empty target is the standard goal). Whether the
/// target can be reached is not checked here: for `Solve` that is an answer, not an error.
pub(crate) fn boards<const W: usize>(
    start: &[u32],
    target: &[u32],
) -> Result<(Board<W>, Board<W>), Failure> {
    let start =
        Board::<W>::from_cells(start).map_err(|e| Failure::invalid("start", e.to_string()))?;
    let target = if target.is_empty() {
        Board::<W>::goal()
    } else {
        Board::<W>::from_cells(target).map_err(|e| Failure::invalid("target", e.to_string()))?
    };
    Ok((start, target))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_target_is_the_goal() {
        let (_, target) = boards::<3>(&[1, 2, 3, 4, 5, 6, 7, 0, 8], &[]).unwrap();
        assert_eq!(target, Board::<3>::goal());
    }

    #[test]
    fn errors_name_the_field() {
        let err = boards::<3>(&[1, 2, 3], &[]).unwrap_err();
        assert_eq!(err.to_string(), "start: expected 9 tiles, found 3");
        let err = boards::<4>(&[0; 16], &[]).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("start: the blank appears twice")
        );
        let err = boards::<3>(&[1, 2, 3, 4, 5, 6, 7, 0, 8], &[9; 9]).unwrap_err();
        assert!(err.to_string().starts_with("target: tile 9"), "{err}");
    }
}
