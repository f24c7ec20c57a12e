//! Conversions between the wire messages and solver-core's validated types, in one place.
//!
//! Requests are parsed once at the edge; every error names the case, the field and what is
//! wrong. Replies are built here too so each outcome has exactly one wire shape.

use solver_core::{Board, SearchStats};

use crate::engine::{Position, Square, Step};
use crate::errors::CaseFailure;
use crate::pb;

/// A validated sliding-tile case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SlidingCase<const W: usize> {
    /// The request's `id`.
    pub(crate) id: u64,
    /// The start board.
    pub(crate) start: Board<W>,
    /// The target board (the standard goal when the request left it empty).
    pub(crate) target: Board<W>,
    /// The request's node budget (0 = the server's default).
    pub(crate) node_budget: u64,
}

/// Validates a sliding-tile request for a `W × W` board.
pub(crate) fn sliding_case<const W: usize>(
    request: &pb::SlidingRequest,
) -> Result<SlidingCase<W>, CaseFailure> {
    let id = request.id;
    let invalid = |field, err: solver_core::BoardError| CaseFailure::Invalid {
        id,
        field,
        message: err.to_string(),
    };
    let start = Board::<W>::from_cells(&request.start).map_err(|e| invalid("start", e))?;
    let target = if request.target.is_empty() {
        Board::<W>::goal()
    } else {
        Board::<W>::from_cells(&request.target).map_err(|e| invalid("target", e))?
    };
    Ok(SlidingCase {
        id,
        start,
        target,
        node_budget: request.node_budget,
    })
}

/// A validated Solitaire case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SolitaireCase {
    /// The request's `id`.
    pub(crate) id: u64,
    /// The start position.
    pub(crate) start: Position,
    /// The end position.
    pub(crate) end: Position,
    /// The move limit (the default when the request gave 0).
    pub(crate) max_moves: u32,
}

/// Validates a Solitaire request; `max_allowed` is the server's largest move limit.
pub(crate) fn solitaire_case(
    request: &pb::SolitaireRequest,
    max_allowed: u32,
    default_moves: u32,
) -> Result<SolitaireCase, CaseFailure> {
    let id = request.id;
    let start = position(id, "start", &request.start)?;
    let end = position(id, "end", &request.end)?;
    let max_moves = match request.max_moves {
        0 => default_moves.min(max_allowed),
        n if n > max_allowed => {
            return Err(CaseFailure::Invalid {
                id,
                field: "max_moves",
                message: format!("{n} is above this server's limit of {max_allowed}"),
            });
        }
        n => n,
    };
    Ok(SolitaireCase {
        id,
        start,
        end,
        max_moves,
    })
}

fn position(id: u64, field: &'static str, squares: &[pb::Square]) -> Result<Position, CaseFailure> {
    let invalid = |message: String| CaseFailure::Invalid { id, field, message };
    let squares = squares
        .iter()
        .enumerate()
        .map(|(i, s)| {
            Square::new(s.row, s.col).map_err(|e| {
                invalid(format!(
                    "square {} (row {}, col {}): {e}",
                    i + 1,
                    s.row,
                    s.col
                ))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Position::new(&squares).map_err(|e| invalid(e.to_string()))
}

/// The wire form of search statistics.
pub(crate) fn stats(stats: SearchStats, method: &str) -> pb::SearchStats {
    pb::SearchStats {
        nodes: stats.nodes,
        iterations: stats.iterations,
        method: method.to_owned(),
    }
}

/// Statistics of an answer that needed no search.
pub(crate) fn no_search(method: &str) -> pb::SearchStats {
    stats(SearchStats::default(), method)
}

/// A solved sliding-tile case; `moves` are the move letters.
pub(crate) fn sliding_solved(
    id: u64,
    moves: String,
    cached: bool,
    stats: pb::SearchStats,
) -> pb::SlidingReply {
    let length = u32::try_from(moves.len()).unwrap_or(u32::MAX);
    pb::SlidingReply {
        id,
        cached,
        outcome: Some(pb::sliding_reply::Outcome::Solution(pb::SlidingSolution {
            moves,
            length,
        })),
        stats: Some(stats),
    }
}

/// A sliding-tile case whose start can never reach its target.
pub(crate) fn sliding_unsolvable(id: u64) -> pb::SlidingReply {
    pb::SlidingReply {
        id,
        cached: false,
        outcome: Some(pb::sliding_reply::Outcome::Unsolvable(pb::Unsolvable {
            reason: "the start and the target have different permutation parities (counting the \
                     blank's row and column), and no move changes that parity"
                .to_owned(),
        })),
        stats: Some(no_search("parity")),
    }
}

/// A sliding-tile case that got no answer.
pub(crate) fn sliding_failed(failure: CaseFailure) -> pb::SlidingReply {
    pb::SlidingReply {
        id: failure.id(),
        cached: false,
        outcome: Some(pb::sliding_reply::Outcome::Error(failure.into())),
        stats: None,
    }
}

fn square(square: Square) -> pb::Square {
    pb::Square {
        row: square.row(),
        col: square.col(),
    }
}

/// A solved Solitaire case.
pub(crate) fn solitaire_solved(
    id: u64,
    steps: &[Step],
    cached: bool,
    stats: pb::SearchStats,
) -> pb::SolitaireReply {
    pb::SolitaireReply {
        id,
        cached,
        outcome: Some(pb::solitaire_reply::Outcome::Solution(
            pb::SolitaireSolution {
                moves: steps
                    .iter()
                    .map(|step| pb::SolitaireMove {
                        from: Some(square(step.from)),
                        to: Some(square(step.to)),
                    })
                    .collect(),
                length: u32::try_from(steps.len()).unwrap_or(u32::MAX),
            },
        )),
        stats: Some(stats),
    }
}

/// A Solitaire case whose end is not reachable within `max_moves`.
pub(crate) fn solitaire_unreachable(
    id: u64,
    max_moves: u32,
    cached: bool,
    stats: pb::SearchStats,
) -> pb::SolitaireReply {
    pb::SolitaireReply {
        id,
        cached,
        outcome: Some(pb::solitaire_reply::Outcome::Unreachable(pb::Unreachable {
            max_moves,
        })),
        stats: Some(stats),
    }
}

/// A Solitaire case that got no answer.
pub(crate) fn solitaire_failed(failure: CaseFailure) -> pb::SolitaireReply {
    pb::SolitaireReply {
        id: failure.id(),
        cached: false,
        outcome: Some(pb::solitaire_reply::Outcome::Error(failure.into())),
        stats: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(start: &[u32], target: &[u32]) -> pb::SlidingRequest {
        pb::SlidingRequest {
            id: 42,
            start: start.to_vec(),
            target: target.to_vec(),
            node_budget: 0,
        }
    }

    #[test]
    fn empty_target_is_the_goal() {
        let case = sliding_case::<3>(&request(&[1, 2, 3, 4, 5, 6, 7, 0, 8], &[])).unwrap();
        assert_eq!(case.target, Board::<3>::goal());
        assert_eq!(case.id, 42);
    }

    #[test]
    fn errors_name_case_and_field() {
        let err = sliding_case::<3>(&request(&[1, 2, 3], &[])).unwrap_err();
        assert_eq!(err.to_string(), "case 42: start: expected 9 tiles, found 3");
        let err = sliding_case::<4>(&request(&[0; 16], &[])).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("case 42: start: the blank appears twice")
        );
        let err = sliding_case::<3>(&request(&[1, 2, 3, 4, 5, 6, 7, 0, 8], &[9; 9])).unwrap_err();
        assert!(
            err.to_string().starts_with("case 42: target: tile 9"),
            "{err}"
        );
    }

    #[test]
    fn replies_carry_length() {
        let reply = sliding_solved(3, "ul".to_owned(), true, no_search("cache"));
        let Some(pb::sliding_reply::Outcome::Solution(solution)) = reply.outcome else {
            panic!("not a solution: {reply:?}");
        };
        assert_eq!(solution.length, 2);
        assert!(reply.cached);
    }
}
