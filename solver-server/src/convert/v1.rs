//! `solver.v1`: requests into cases, answers into replies. The wire shapes are those v1 always
//! had; a case's errors carry its `id` in the message (`case 7: start: ...`).

use solver_core::solitaire::{Square, Step};
use solver_core::tiles::grid::Grid;

use crate::convert::v2::Quality;
use crate::errors::Failure;
use crate::pb::{self, sliding_reply, solitaire_reply};
use crate::puzzles::sliding::{SlidingAnswer, SlidingCase, UNSOLVABLE, case};
use crate::puzzles::solitaire::{self, SolitaireAnswer, SolitaireCase};
use crate::service::puzzle::Stats;

/// Validates a sliding-tile request for a board of `grid` (v1 serves 3×3 and 4×4): always an
/// optimal answer.
pub(crate) fn sliding_case(
    request: &pb::SlidingRequest,
    grid: Grid,
) -> Result<SlidingCase, Failure> {
    let (start, target) = case::boards(grid, &request.start, &request.target)?;
    Ok(SlidingCase {
        start,
        target,
        node_budget: request.node_budget,
        quality: Quality::Optimal,
    })
}

/// Validates a Solitaire request; `max_allowed` is the server's largest move limit.
pub(crate) fn solitaire_case(
    request: &pb::SolitaireRequest,
    max_allowed: u32,
    default_moves: u32,
) -> Result<SolitaireCase, Failure> {
    let squares = |squares: &[pb::Square]| -> Vec<(u32, u32)> {
        squares.iter().map(|s| (s.row, s.col)).collect()
    };
    solitaire::solitaire_case(
        &squares(&request.start),
        &squares(&request.end),
        request.max_moves,
        max_allowed,
        default_moves,
    )
}

/// The wire form of search statistics.
fn stats(stats: Stats) -> pb::SearchStats {
    pb::SearchStats {
        nodes: stats.nodes,
        iterations: stats.iterations,
        method: stats.method.to_owned(),
    }
}

/// The reply to sliding-tile case `id`.
pub(crate) fn sliding_reply(id: u64, result: Result<SlidingAnswer, Failure>) -> pb::SlidingReply {
    match result {
        Ok(SlidingAnswer::Solved {
            moves,
            cached,
            stats: found,
            ..
        }) => pb::SlidingReply {
            id,
            cached,
            outcome: Some(sliding_reply::Outcome::Solution(pb::SlidingSolution {
                length: super::count(moves.len()),
                moves: moves.to_string(),
            })),
            stats: Some(stats(found)),
        },
        Ok(SlidingAnswer::Unsolvable) => pb::SlidingReply {
            id,
            cached: false,
            outcome: Some(sliding_reply::Outcome::Unsolvable(pb::Unsolvable {
                reason: UNSOLVABLE.to_owned(),
            })),
            stats: Some(stats(Stats::no_search("parity"))),
        },
        Err(failure) => pb::SlidingReply {
            id,
            cached: false,
            outcome: Some(sliding_reply::Outcome::Error(failure.v1(id))),
            stats: None,
        },
    }
}

fn square(square: Square) -> pb::Square {
    pb::Square {
        row: square.row(),
        col: square.col(),
    }
}

fn solitaire_moves(steps: &[Step]) -> pb::SolitaireSolution {
    pb::SolitaireSolution {
        moves: steps
            .iter()
            .map(|step| pb::SolitaireMove {
                from: Some(square(step.from)),
                to: Some(square(step.to)),
            })
            .collect(),
        length: super::count(steps.len()),
    }
}

/// The reply to Solitaire case `id`.
pub(crate) fn solitaire_reply(
    id: u64,
    result: Result<SolitaireAnswer, Failure>,
) -> pb::SolitaireReply {
    match result {
        Ok(SolitaireAnswer::Solved {
            steps,
            cached,
            stats: found,
        }) => pb::SolitaireReply {
            id,
            cached,
            outcome: Some(solitaire_reply::Outcome::Solution(solitaire_moves(&steps))),
            stats: Some(stats(found)),
        },
        Ok(SolitaireAnswer::Unreachable {
            max_moves,
            cached,
            stats: found,
        }) => pb::SolitaireReply {
            id,
            cached,
            outcome: Some(solitaire_reply::Outcome::Unreachable(pb::Unreachable {
                max_moves,
            })),
            stats: Some(stats(found)),
        },
        Err(failure) => pb::SolitaireReply {
            id,
            cached: false,
            outcome: Some(solitaire_reply::Outcome::Error(failure.v1(id))),
            stats: None,
        },
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

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
    fn errors_name_case_and_field() {
        let failure = sliding_case(&request(&[1, 2, 3], &[]), Grid::EIGHT).unwrap_err();
        let reply = sliding_reply(42, Err(failure));
        let Some(sliding_reply::Outcome::Error(error)) = reply.outcome else {
            panic!("not an error: {reply:?}");
        };
        assert_eq!(error.message, "case 42: start: expected 9 tiles, found 3");
        assert_eq!(error.code, tonic::Code::InvalidArgument as i32);
    }

    #[test]
    fn replies_carry_length() {
        let reply = sliding_reply(
            3,
            Ok(SlidingAnswer::Solved {
                moves: Arc::from("ul"),
                lower_bound: 2,
                cached: true,
                stats: Stats::no_search("cache"),
                kind: crate::config::Kind::Eight,
            }),
        );
        let Some(sliding_reply::Outcome::Solution(solution)) = reply.outcome else {
            panic!("not a solution: {reply:?}");
        };
        assert_eq!(solution.length, 2);
        assert!(reply.cached);
    }
}
