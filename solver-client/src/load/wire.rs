//! A load run's cases on the wire: the `solver.v2` request for each, and the cheap check of its
//! response (moves replayed; exact lengths where the optimum is known).

use solver_core::solitaire::{self, DEFAULT_MAX_MOVES, Position, PositionError, Square, Step};
use solver_core::{Board, Board4, Move, ReplayError, parse_moves};
use solver_proto::v2 as pb;
use solver_proto::v2::{solution, solve_request, solve_response};

use super::cases::Query;

/// The `solver.v2` request for case `id`.
pub(crate) fn request(id: u64, query: &Query) -> pb::SolveRequest {
    let cells = |cells: &[u8]| cells.iter().map(|&t| u32::from(t)).collect();
    let sliding = |side, start, target| {
        solve_request::Puzzle::Sliding(pb::SlidingPuzzle {
            rows: side,
            cols: side,
            start,
            target,
        })
    };
    let puzzle = match query {
        Query::Eight { start, target } => sliding(3, cells(start.cells()), cells(target.cells())),
        Query::Fifteen { start, target, .. } => sliding(
            4,
            cells(start.cells()),
            target.map_or_else(Vec::new, |t| cells(t.cells())),
        ),
        Query::Solitaire { start, end, .. } => {
            let squares = |p: &Position| {
                p.squares()
                    .iter()
                    .map(|s| pb::Square {
                        row: s.row(),
                        col: s.col(),
                    })
                    .collect()
            };
            solve_request::Puzzle::Solitaire(pb::SolitairePuzzle {
                start: squares(start),
                end: squares(end),
                max_moves: DEFAULT_MAX_MOVES,
            })
        }
    };
    pb::SolveRequest {
        id: id.to_string(),
        puzzle: Some(puzzle),
        ..pb::SolveRequest::default()
    }
}

/// What a reply says about its case.
#[derive(Debug)]
pub(crate) enum Verdict {
    /// A correct answer (`cached`: from the server's cache).
    Answered { cached: bool },
    /// An in-band `CaseError`, with its gRPC code.
    Error { code: i32 },
    /// An answer that fails the checks.
    Wrong(String),
}

/// The case id a response answers (`None`: not one this client sends).
pub(crate) fn id(response: &pb::SolveResponse) -> Option<u64> {
    response.id.parse().ok()
}

/// Judges `response` against its case.
pub(crate) fn verdict(response: pb::SolveResponse, query: &Query) -> Verdict {
    use solve_response::Outcome;
    let cached = response.cached;
    match response.outcome {
        Some(Outcome::Error(status)) => Verdict::Error { code: status.code },
        Some(Outcome::Solution(pb::Solution {
            kind: Some(solution::Kind::Sliding(solution)),
        })) => sliding(&solution.moves, query, cached),
        Some(Outcome::Solution(pb::Solution {
            kind: Some(solution::Kind::Solitaire(solution)),
        })) => solitaire(&solution.moves, query, cached),
        Some(Outcome::Unsolvable(_)) => {
            Verdict::Wrong("\"unsolvable\" for a solvable board".to_owned())
        }
        Some(Outcome::Unreachable(_)) => match query {
            Query::Solitaire {
                start,
                end,
                within: Some(n),
            } => Verdict::Wrong(format!(
                "\"unreachable\" for {start} -> {end}, which a walk of {n} moves reaches"
            )),
            Query::Solitaire { within: None, .. } => Verdict::Answered { cached },
            _ => Verdict::Wrong("\"unreachable\" for a sliding-tile case".to_owned()),
        },
        Some(Outcome::Solution(pb::Solution { kind: None })) | None => {
            Verdict::Wrong("a reply without an outcome".to_owned())
        }
    }
}

/// A sliding solution, replayed and measured.
fn sliding(moves: &str, query: &Query, cached: bool) -> Verdict {
    let parsed = match parse_moves(moves) {
        Ok(parsed) => parsed,
        Err(e) => return Verdict::Wrong(format!("bad move string {moves:?}: {e}")),
    };
    let checked = match query {
        Query::Eight { start, target } => {
            check_walk(start, target, &parsed, None, 31).map_err(|e| (e, start.to_string()))
        }
        Query::Fifteen {
            start,
            target,
            exact,
            at_most,
        } => check_walk(
            start,
            &target.unwrap_or_else(Board4::goal),
            &parsed,
            *exact,
            *at_most,
        )
        .map_err(|e| (e, start.to_string())),
        Query::Solitaire { .. } => {
            return Verdict::Wrong("a sliding-tile reply to a Solitaire case".to_owned());
        }
    };
    match checked {
        Ok(()) => Verdict::Answered { cached },
        Err((why, start)) => Verdict::Wrong(format!(
            "moves {moves:?} from {}: {why}",
            start.replace('\n', " / ")
        )),
    }
}

/// A Solitaire solution, replayed: it must reach the end within the limit.
fn solitaire(moves: &[pb::SolitaireMove], query: &Query, cached: bool) -> Verdict {
    let Query::Solitaire { start, end, within } = query else {
        return Verdict::Wrong("a Solitaire reply to a sliding-tile case".to_owned());
    };
    let steps: Result<Vec<Step>, BadStep> = moves
        .iter()
        .map(|m| {
            let square = |s: Option<&pb::Square>| {
                let s = s.ok_or(BadStep::MissingSquare)?;
                Ok::<_, BadStep>(Square::new(s.row, s.col)?)
            };
            Ok(Step {
                from: square(m.origin.as_ref())?,
                to: square(m.destination.as_ref())?,
            })
        })
        .collect();
    let steps = match steps {
        Ok(steps) => steps,
        Err(e) => return Verdict::Wrong(format!("bad Solitaire move: {e}")),
    };
    let limit = within.unwrap_or(DEFAULT_MAX_MOVES);
    match solitaire::replay(start, &steps) {
        Ok(reached) if reached != *end => {
            Verdict::Wrong(format!("the moves end at {reached}, not at {end}"))
        }
        Ok(_) if steps.len() > limit as usize => Verdict::Wrong(format!(
            "{} moves, but it can be done in {limit}",
            steps.len()
        )),
        Ok(_) => Verdict::Answered { cached },
        Err(e) => Verdict::Wrong(format!("illegal Solitaire moves: {e}")),
    }
}

/// Why sliding moves are not a right answer.
#[derive(Debug, thiserror::Error)]
enum WalkError {
    #[error("they do not reach the target")]
    Misses,
    #[error("illegal: {0}")]
    Illegal(#[source] ReplayError),
    #[error("{len} moves, the optimum is {optimum}")]
    NotOptimal { len: usize, optimum: usize },
    #[error("{len} moves, but it can be done in {at_most}")]
    TooLong { len: usize, at_most: usize },
}

fn check_walk<const W: usize>(
    start: &Board<W>,
    target: &Board<W>,
    moves: &[Move],
    exact: Option<usize>,
    at_most: usize,
) -> Result<(), WalkError> {
    match start.replay(moves) {
        Ok(end) if end == *target => {}
        Ok(_) => return Err(WalkError::Misses),
        Err(e) => return Err(WalkError::Illegal(e)),
    }
    let len = moves.len();
    match exact {
        Some(optimum) if len != optimum => Err(WalkError::NotOptimal { len, optimum }),
        _ if len > at_most => Err(WalkError::TooLong { len, at_most }),
        _ => Ok(()),
    }
}

/// Why a Solitaire move of a reply is not one.
#[derive(Debug, thiserror::Error)]
enum BadStep {
    #[error("a move without a square")]
    MissingSquare,
    #[error(transparent)]
    Square(#[from] PositionError),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_are_judged() {
        let query = Query::Fifteen {
            start: Board4::goal().apply(Move::Up).unwrap(),
            target: None,
            exact: None,
            at_most: 1,
        };
        let reply = |moves: &str| pb::SolveResponse {
            id: "0".to_owned(),
            outcome: Some(solve_response::Outcome::Solution(pb::Solution {
                kind: Some(solution::Kind::Sliding(pb::SlidingSolution {
                    moves: moves.to_owned(),
                    length: moves.len() as u32,
                    lower_bound: moves.len() as u32,
                })),
            })),
            ..pb::SolveResponse::default()
        };
        assert_eq!(id(&reply("d")), Some(0));
        assert!(matches!(
            verdict(reply("d"), &query),
            Verdict::Answered { cached: false }
        ));
        assert!(matches!(verdict(reply("u"), &query), Verdict::Wrong(_)));
        assert!(matches!(verdict(reply("dud"), &query), Verdict::Wrong(_)));
    }
}
