//! Conversions between the wire messages and the server's domain types, in one place: this
//! module validates what both contract versions share, [`v1`] and [`v2`] read their own request
//! messages into it and write the domain answers back as their replies.
//!
//! Requests are parsed once at the edge; every error is a [`Failure::Invalid`] naming the field
//! (relative to the puzzle's message: `start`, `max_moves`; the v2 edge puts it under its
//! parent: `sliding.start`) and the value and rule at fault.

pub(crate) mod v1;
pub(crate) mod v2;

use solver_core::Board;
use solver_core::tiles::grid_board::GridBoard;

use crate::engine::{Position, Square};
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

/// How good a sliding answer must be.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Quality {
    /// Optimal (and the lexicographically smallest of the optimal answers).
    Optimal,
    /// At most this many times the optimal length (more than 1), proven.
    Within(f64),
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

/// A validated Solitaire case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SolitaireCase {
    /// The start position.
    pub(crate) start: Position,
    /// The end position.
    pub(crate) end: Position,
    /// The move limit (the default when the request gave 0).
    pub(crate) max_moves: u32,
}

/// Validates a Solitaire start and end, given as (row, col) squares, and a move limit (0 = the
/// default); `max_allowed` is the server's largest move limit.
pub(crate) fn solitaire_case(
    start: &[(u32, u32)],
    end: &[(u32, u32)],
    max_moves: u32,
    max_allowed: u32,
    default_moves: u32,
) -> Result<SolitaireCase, Failure> {
    let start = position("start", start)?;
    let end = position("end", end)?;
    let max_moves = match max_moves {
        0 => default_moves.min(max_allowed),
        n if n > max_allowed => {
            return Err(Failure::invalid(
                "max_moves",
                format!("{n} is above this server's limit of {max_allowed}"),
            ));
        }
        n => n,
    };
    Ok(SolitaireCase {
        start,
        end,
        max_moves,
    })
}

fn position(field: &'static str, squares: &[(u32, u32)]) -> Result<Position, Failure> {
    let squares = squares
        .iter()
        .enumerate()
        .map(|(i, &(row, col))| {
            Square::new(row, col).map_err(|e| {
                Failure::invalid(
                    field,
                    format!("square {} (row {row}, col {col}): {e}", i + 1),
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Position::new(&squares).map_err(|e| Failure::invalid(field, e.to_string()))
}

/// A count (moves, steps) as the wire's `uint32`, saturating: no answer comes near the limit.
pub(crate) fn count(len: usize) -> u32 {
    u32::try_from(len).unwrap_or(u32::MAX)
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
        let err = solitaire_case(&[(1, 1)], &[], 0, 10, 8).unwrap_err();
        assert!(err.to_string().starts_with("start: "), "{err}");
        let four = [(1, 1), (1, 2), (1, 3), (1, 4)];
        let err = solitaire_case(&four, &four, 11, 10, 8).unwrap_err();
        assert_eq!(
            err.to_string(),
            "max_moves: 11 is above this server's limit of 10"
        );
        assert_eq!(solitaire_case(&four, &four, 0, 10, 8).unwrap().max_moves, 8);
    }
}
