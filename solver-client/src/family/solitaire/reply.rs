//! The Solitaire request, and the checks of a reply: moves replayed, legal, within the limit,
//! ending on the end. What fails is a [`CheckError`], never an answer.

use serde_json::Value;
use solver_core::solitaire::{self, IllegalStep, Position, PositionError, Square, Step};
use solver_proto::v2 as pb;
use solver_proto::v2::{solution, solve_request, solve_response};

use super::draw;
use super::query::{Pair, SolitaireAnswer};
use crate::family::Family;
use crate::output::Output;
use crate::reply::ReplyError;

/// Why a Solitaire reply is not an answer to print.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CheckError {
    /// A move without one of its squares.
    #[error("the service sent a move without a square")]
    MissingSquare,
    /// A move off the board.
    #[error("the service sent a bad move: {0}")]
    BadSquare(#[source] PositionError),
    /// More moves than the limit allows.
    #[error("the service's solution has {len} moves, more than the limit of {limit}")]
    TooLong {
        /// Moves sent.
        len: u32,
        /// The query's limit.
        limit: u32,
    },
    /// Moves that are not legal steps or jumps.
    #[error("the service's moves are illegal: {0}")]
    IllegalSteps(#[source] IllegalStep),
    /// Legal moves that end elsewhere.
    #[error("the service's moves end at {end}, not at {expected}")]
    WrongEnd {
        /// Where they end.
        end: Position,
        /// The query's end.
        expected: Position,
    },
}

impl From<CheckError> for ReplyError {
    fn from(e: CheckError) -> Self {
        ReplyError::Family(Box::new(e))
    }
}

impl Family for Pair {
    type FamilyAnswer = SolitaireAnswer;

    fn request(&self) -> (solve_request::Puzzle, Option<pb::Quality>) {
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
        let puzzle = solve_request::Puzzle::Solitaire(pb::SolitairePuzzle {
            start: squares(&self.start),
            end: squares(&self.end),
            max_moves: self.max_moves,
        });
        (puzzle, None)
    }

    fn answer(&self, outcome: solve_response::Outcome) -> Result<SolitaireAnswer, ReplyError> {
        use solve_response::Outcome;
        match outcome {
            Outcome::Solution(pb::Solution {
                kind: Some(solution::Kind::Solitaire(solution)),
            }) => {
                let steps = steps(&solution.moves)?;
                self.check(&steps)?;
                Ok(SolitaireAnswer::Reachable(steps))
            }
            Outcome::Solution(pb::Solution { kind: None }) => Err(ReplyError::NoOutcome),
            Outcome::Unreachable(_) => Ok(SolitaireAnswer::Unreachable),
            _ => Err(ReplyError::WrongKind),
        }
    }

    fn write_text(
        &self,
        out: &mut Output,
        prefix: &str,
        show: bool,
        answer: &SolitaireAnswer,
    ) -> std::io::Result<()> {
        draw::write_text(self, out, prefix, show, answer)
    }

    fn describe(&self) -> String {
        format!(
            "Solitaire {} to {} within {} moves",
            self.start, self.end, self.max_moves
        )
    }

    fn json(&self, number: usize, answer: &SolitaireAnswer) -> Value {
        draw::json(self, number, answer)
    }
}

impl Pair {
    /// `steps` are legal, within the limit, and end on the end.
    fn check(&self, steps: &[Step]) -> Result<(), CheckError> {
        let len = u32::try_from(steps.len()).unwrap_or(u32::MAX);
        if len > self.max_moves {
            return Err(CheckError::TooLong {
                len,
                limit: self.max_moves,
            });
        }
        match solitaire::replay(&self.start, steps) {
            Ok(end) if end == self.end => Ok(()),
            Ok(end) => Err(CheckError::WrongEnd {
                end,
                expected: self.end,
            }),
            Err(e) => Err(CheckError::IllegalSteps(e)),
        }
    }
}

fn steps(moves: &[pb::SolitaireMove]) -> Result<Vec<Step>, CheckError> {
    let square = |s: Option<&pb::Square>| {
        let s = s.ok_or(CheckError::MissingSquare)?;
        Square::new(s.row, s.col).map_err(CheckError::BadSquare)
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
