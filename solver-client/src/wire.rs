//! Conversions between the client's cases and the protobuf messages, in one place.
//!
//! Replies are checked against their query before anything is printed: sliding-tile moves are
//! replayed and must reach the target, Solitaire steps are replayed and must reach the end within
//! the limit, and "unsolvable" must agree with the parity rule. A reply that fails a check is
//! reported as that case's error, never printed as an answer.

use solver_core::solitaire::{self, Position, Square, Step};
use solver_core::{Board, parse_moves};
use solver_server::pb;

use crate::case::{Answer, Query};
use crate::judge::solitaire::Pair;

/// The request for a sliding-tile query (`None` for a Solitaire one).
pub(crate) fn sliding_request(id: u64, query: &Query) -> Option<pb::SlidingRequest> {
    let (start, target): (&[u8], Option<&[u8]>) = match query {
        Query::Eight { start, target } => (
            start.cells(),
            (*target != Board::goal()).then_some(target.cells()),
        ),
        Query::Fifteen { start, target } => (
            start.cells(),
            (*target != Board::goal()).then_some(target.cells()),
        ),
        Query::Solitaire(_) => return None,
    };
    Some(pb::SlidingRequest {
        id,
        start: start.iter().map(|&t| u32::from(t)).collect(),
        target: target.map_or_else(Vec::new, |t| t.iter().map(|&t| u32::from(t)).collect()),
        node_budget: 0,
    })
}

/// The request for a Solitaire query (`None` for a sliding-tile one).
pub(crate) fn solitaire_request(id: u64, query: &Query) -> Option<pb::SolitaireRequest> {
    let Query::Solitaire(pair) = query else {
        return None;
    };
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
    Some(pb::SolitaireRequest {
        id,
        start: squares(&pair.start),
        end: squares(&pair.end),
        max_moves: pair.max_moves,
    })
}

/// The checked answer to a sliding-tile query, or why there is none.
pub(crate) fn sliding_answer(query: &Query, reply: pb::SlidingReply) -> Result<Answer, String> {
    use pb::sliding_reply::Outcome;
    match reply.outcome {
        Some(Outcome::Solution(solution)) => {
            let moves = parse_moves(&solution.moves)
                .map_err(|e| format!("the service sent a bad move string: {e}"))?;
            let solved = match query {
                Query::Eight { start, target } => start
                    .replay(&moves)
                    .map(|end| end == *target)
                    .map_err(|e| e.to_string()),
                Query::Fifteen { start, target } => start
                    .replay(&moves)
                    .map(|end| end == *target)
                    .map_err(|e| e.to_string()),
                Query::Solitaire(_) => return Err(wrong_kind()),
            };
            match solved {
                Ok(true) => Ok(Answer::Moves(moves)),
                Ok(false) => Err(format!(
                    "the service's moves {:?} do not reach the target",
                    solution.moves
                )),
                Err(e) => Err(format!(
                    "the service's moves {:?} are illegal: {e}",
                    solution.moves
                )),
            }
        }
        Some(Outcome::Unsolvable(_)) => {
            let reachable = match query {
                Query::Eight { start, target } => start.can_reach(target),
                Query::Fifteen { start, target } => start.can_reach(target),
                Query::Solitaire(_) => return Err(wrong_kind()),
            };
            if reachable {
                Err("the service says unsolvable, but the parities agree".to_owned())
            } else {
                Ok(Answer::Unsolvable)
            }
        }
        Some(Outcome::Error(error)) => Err(service_error(&error)),
        None => Err("the service's reply has no outcome".to_owned()),
    }
}

/// The checked answer to a Solitaire query, or why there is none.
pub(crate) fn solitaire_answer(query: &Query, reply: pb::SolitaireReply) -> Result<Answer, String> {
    use pb::solitaire_reply::Outcome;
    let Query::Solitaire(pair) = query else {
        return Err(wrong_kind());
    };
    match reply.outcome {
        Some(Outcome::Solution(solution)) => {
            let steps = steps(&solution.moves)?;
            check_steps(pair, &steps)?;
            Ok(Answer::Reachable(steps))
        }
        Some(Outcome::Unreachable(_)) => Ok(Answer::Unreachable),
        Some(Outcome::Error(error)) => Err(service_error(&error)),
        None => Err("the service's reply has no outcome".to_owned()),
    }
}

fn steps(moves: &[pb::SolitaireMove]) -> Result<Vec<Step>, String> {
    let square = |s: Option<&pb::Square>| {
        let s = s.ok_or("the service sent a move without a square")?;
        Square::new(s.row, s.col).map_err(|e| format!("the service sent a bad move: {e}"))
    };
    moves
        .iter()
        .map(|m| {
            Ok(Step {
                from: square(m.from.as_ref())?,
                to: square(m.to.as_ref())?,
            })
        })
        .collect()
}

fn check_steps(pair: &Pair, steps: &[Step]) -> Result<(), String> {
    let len = u32::try_from(steps.len()).unwrap_or(u32::MAX);
    if len > pair.max_moves {
        return Err(format!(
            "the service's solution has {len} moves, more than the limit of {}",
            pair.max_moves
        ));
    }
    match solitaire::replay(&pair.start, steps) {
        Ok(end) if end == pair.end => Ok(()),
        Ok(end) => Err(format!(
            "the service's moves end at {end}, not at {}",
            pair.end
        )),
        Err(e) => Err(format!("the service's moves are illegal: {e}")),
    }
}

fn service_error(error: &pb::CaseError) -> String {
    let code = tonic::Code::from_i32(error.code);
    format!("the service could not answer ({code:?}): {}", error.message)
}

fn wrong_kind() -> String {
    "the reply is for another kind of puzzle".to_owned()
}
