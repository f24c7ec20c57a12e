//! Conversions between the client's cases and the `solver.v2` messages, in one place.
//!
//! Replies are checked against their query before anything is printed: sliding-tile moves are
//! replayed and must reach the target, Solitaire steps are replayed and must reach the end within
//! the limit, and "unsolvable" must agree with the parity rule. A reply that fails a check is
//! that case's [`ReplyError`], never printed as an answer.

use solver_core::solitaire::{self, IllegalStep, Position, PositionError, Square, Step};
use solver_core::tiles::grid_board::GridBoard;
use solver_core::{Board, MoveParseError, ReplayError, parse_moves};
use solver_proto::tonic_types::{self, RpcStatusExt as _};
use solver_proto::v2 as pb;
use solver_proto::v2::{solution, solve_request, solve_response};

use crate::case::{Answer, Pair, Query};

/// Why a reply is not an answer to print.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ReplyError {
    /// The service answered in band with an error (a limit, a bad field, a shutdown).
    #[error("the service could not answer ({code:?}): {message}")]
    Service {
        /// The status code.
        code: tonic::Code,
        /// What the service said: the fields at fault and why, when it named them.
        message: String,
    },
    /// A reply carrying no outcome at all.
    #[error("the service's reply has no outcome")]
    NoOutcome,
    /// A solution of another kind of puzzle than the query's.
    #[error("the reply is for another kind of puzzle")]
    WrongKind,
    /// A sliding move string with a letter that is not a move.
    #[error("the service sent a bad move string: {0}")]
    MoveString(#[source] MoveParseError),
    /// Sliding moves that leave the board.
    #[error("the service's moves {moves:?} are illegal: {source}")]
    IllegalMoves {
        /// The move string as sent.
        moves: String,
        /// The first illegal move.
        source: ReplayError,
    },
    /// Legal sliding moves that end elsewhere.
    #[error("the service's moves {0:?} do not reach the target")]
    MissesTarget(String),
    /// A lower bound above the length of the answer it bounds.
    #[error("the service's lower bound {lower_bound} exceeds its answer's {length} moves")]
    BadBound {
        /// The bound sent.
        lower_bound: u32,
        /// Moves sent.
        length: usize,
    },
    /// "Unsolvable" for boards the parity rule says can meet.
    #[error("the service says unsolvable, but the parities agree")]
    FalseUnsolvable,
    /// A Solitaire move without one of its squares.
    #[error("the service sent a move without a square")]
    MissingSquare,
    /// A Solitaire move off the board.
    #[error("the service sent a bad move: {0}")]
    BadSquare(#[source] PositionError),
    /// More Solitaire moves than the limit allows.
    #[error("the service's solution has {len} moves, more than the limit of {limit}")]
    TooLong {
        /// Moves sent.
        len: u32,
        /// The query's limit.
        limit: u32,
    },
    /// Solitaire moves that are not legal steps or jumps.
    #[error("the service's moves are illegal: {0}")]
    IllegalSteps(#[source] IllegalStep),
    /// Legal Solitaire moves that end elsewhere.
    #[error("the service's moves end at {end}, not at {expected}")]
    WrongEnd {
        /// Where they end.
        end: Position,
        /// The query's end.
        expected: Position,
    },
}

/// The `SolveRequest` for `query`, with `id` (the case's index) to match its response by.
pub(crate) fn request(id: usize, query: &Query) -> pb::SolveRequest {
    let cells = |cells: &[u8]| cells.iter().map(|&t| u32::from(t)).collect::<Vec<_>>();
    let puzzle = match query {
        Query::Eight { start, target } => sliding(3, cells(start.cells()), {
            // An empty target is the standard goal: the server's fast path for most judges.
            (*target != Board::goal()).then(|| cells(target.cells()))
        }),
        Query::Fifteen { start, target } => sliding(
            4,
            cells(start.cells()),
            (*target != Board::goal()).then(|| cells(target.cells())),
        ),
        Query::Sliding { start, target, .. } => {
            let grid = start.grid();
            solve_request::Puzzle::Sliding(pb::SlidingPuzzle {
                rows: grid.rows() as u32,
                cols: grid.cols() as u32,
                start: cells(start.cells()),
                target: if *target == GridBoard::goal(grid) {
                    Vec::new()
                } else {
                    cells(target.cells())
                },
            })
        }
        Query::Solitaire(pair) => {
            let squares = |position: &Position| {
                position
                    .squares()
                    .iter()
                    .map(|s| pb::Square {
                        row: s.row(),
                        col: s.col(),
                    })
                    .collect()
            };
            solve_request::Puzzle::Solitaire(pb::SolitairePuzzle {
                start: squares(&pair.start),
                end: squares(&pair.end),
                max_moves: pair.max_moves,
            })
        }
    };
    // Only a ratio above 1 is sent: absent means optimal.
    let quality = match query {
        Query::Sliding { max_ratio, .. } if max_ratio.get() > 1.0 => Some(pb::Quality {
            max_ratio: max_ratio.get(),
        }),
        _ => None,
    };
    pb::SolveRequest {
        id: id.to_string(),
        puzzle: Some(puzzle),
        quality,
        ..pb::SolveRequest::default()
    }
}

fn sliding(side: u32, start: Vec<u32>, target: Option<Vec<u32>>) -> solve_request::Puzzle {
    solve_request::Puzzle::Sliding(pb::SlidingPuzzle {
        rows: side,
        cols: side,
        start,
        target: target.unwrap_or_default(),
    })
}

/// The checked answer to `query` in `response`, or why there is none.
pub(crate) fn answer(query: &Query, response: pb::SolveResponse) -> Result<Answer, ReplyError> {
    use solve_response::Outcome;
    match response.outcome {
        Some(Outcome::Solution(pb::Solution {
            kind: Some(solution::Kind::Sliding(solution)),
        })) => sliding_answer(query, &solution.moves, solution.lower_bound),
        Some(Outcome::Solution(pb::Solution {
            kind: Some(solution::Kind::Solitaire(solution)),
        })) => {
            let Query::Solitaire(pair) = query else {
                return Err(ReplyError::WrongKind);
            };
            let steps = steps(&solution.moves)?;
            check_steps(pair, &steps)?;
            Ok(Answer::Reachable(steps))
        }
        Some(Outcome::Solution(pb::Solution { kind: None })) | None => Err(ReplyError::NoOutcome),
        Some(Outcome::Unsolvable(_)) => {
            let reachable = match query {
                Query::Eight { start, target } => start.can_reach(target),
                Query::Fifteen { start, target } => start.can_reach(target),
                Query::Sliding { start, target, .. } => start.can_reach(target),
                Query::Solitaire(_) => return Err(ReplyError::WrongKind),
            };
            if reachable {
                Err(ReplyError::FalseUnsolvable)
            } else {
                Ok(Answer::Unsolvable)
            }
        }
        Some(Outcome::Unreachable(_)) => match query {
            Query::Solitaire(_) => Ok(Answer::Unreachable),
            _ => Err(ReplyError::WrongKind),
        },
        Some(Outcome::Error(status)) => Err(service_error(&status)),
    }
}

/// A sliding solution, replayed: it must reach the target. For a board of any shape asked with a
/// ratio above 1, an answer whose proven `lower_bound` is below its length is
/// [`Answer::Bounded`].
fn sliding_answer(query: &Query, letters: &str, lower_bound: u32) -> Result<Answer, ReplyError> {
    let moves = parse_moves(letters).map_err(ReplyError::MoveString)?;
    let reached = match query {
        Query::Eight { start, target } => start.replay(&moves).map(|end| end == *target),
        Query::Fifteen { start, target } => start.replay(&moves).map(|end| end == *target),
        Query::Sliding {
            start,
            target,
            max_ratio,
        } => {
            if lower_bound as usize > moves.len() {
                return Err(ReplyError::BadBound {
                    lower_bound,
                    length: moves.len(),
                });
            }
            match start.replay(&moves) {
                // An answer to an optimal request is optimal, whatever bound came with it.
                Ok(end)
                    if end == *target
                        && max_ratio.get() > 1.0
                        && (lower_bound as usize) < moves.len() =>
                {
                    return Ok(Answer::Bounded { moves, lower_bound });
                }
                reached => reached.map(|end| end == *target),
            }
        }
        Query::Solitaire(_) => return Err(ReplyError::WrongKind),
    };
    match reached {
        Ok(true) => Ok(Answer::Moves(moves)),
        Ok(false) => Err(ReplyError::MissesTarget(letters.to_owned())),
        Err(source) => Err(ReplyError::IllegalMoves {
            moves: letters.to_owned(),
            source,
        }),
    }
}

/// An in-band `google.rpc.Status`: the fields its `BadRequest` detail names and why (as the
/// status message words them), else its message.
fn service_error(status: &tonic_types::Status) -> ReplyError {
    let violations = status
        .get_error_details()
        .bad_request()
        .map(|bad| {
            bad.field_violations
                .iter()
                .map(|v| format!("{}: {}", v.field, v.description))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    ReplyError::Service {
        code: tonic::Code::from_i32(status.code),
        message: if violations.is_empty() {
            status.message.clone()
        } else {
            violations.join("; ")
        },
    }
}

fn steps(moves: &[pb::SolitaireMove]) -> Result<Vec<Step>, ReplyError> {
    let square = |s: Option<&pb::Square>| {
        let s = s.ok_or(ReplyError::MissingSquare)?;
        Square::new(s.row, s.col).map_err(ReplyError::BadSquare)
    };
    moves
        .iter()
        .map(|m| {
            Ok(Step {
                from: square(m.origin.as_ref())?,
                to: square(m.destination.as_ref())?,
            })
        })
        .collect()
}

fn check_steps(pair: &Pair, steps: &[Step]) -> Result<(), ReplyError> {
    let len = u32::try_from(steps.len()).unwrap_or(u32::MAX);
    if len > pair.max_moves {
        return Err(ReplyError::TooLong {
            len,
            limit: pair.max_moves,
        });
    }
    match solitaire::replay(&pair.start, steps) {
        Ok(end) if end == pair.end => Ok(()),
        Ok(end) => Err(ReplyError::WrongEnd {
            end,
            expected: pair.end,
        }),
        Err(e) => Err(ReplyError::IllegalSteps(e)),
    }
}
