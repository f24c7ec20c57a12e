//! The sliding request, and the checks of a reply: moves replayed to the target, a proven bound
//! no longer than the answer, "unsolvable" only when the parity rule agrees. What fails is a
//! [`CheckError`], never an answer.

use serde_json::Value;
use solver_core::tiles::grid_board::GridBoard;
use solver_core::{MoveParseError, ReplayError, parse_moves};
use solver_proto::v2 as pb;
use solver_proto::v2::{solution, solve_request, solve_response};

use super::draw;
use super::query::{SlidingAnswer, SlidingQuery};
use crate::family::Family;
use crate::output::Output;
use crate::reply::ReplyError;

/// Why a sliding reply is not an answer to print.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CheckError {
    /// A move string with a letter that is not a move.
    #[error("the service sent a bad move string: {0}")]
    MoveString(#[source] MoveParseError),
    /// Moves that leave the board.
    #[error("the service's moves {moves:?} are illegal: {source}")]
    IllegalMoves {
        /// The move string as sent.
        moves: String,
        /// The first illegal move.
        source: ReplayError,
    },
    /// Legal moves that end elsewhere.
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
}

impl From<CheckError> for ReplyError {
    fn from(e: CheckError) -> Self {
        ReplyError::Family(Box::new(e))
    }
}

impl Family for SlidingQuery {
    type FamilyAnswer = SlidingAnswer;

    fn request(&self) -> (solve_request::Puzzle, Option<pb::Quality>) {
        let cells = |board: &GridBoard| board.cells().iter().map(|&t| u32::from(t)).collect();
        let grid = self.start.grid();
        let puzzle = solve_request::Puzzle::Sliding(pb::SlidingPuzzle {
            rows: grid.rows() as u32,
            cols: grid.cols() as u32,
            start: cells(&self.start),
            // An empty target is the standard goal: the server's fast path for most judges.
            target: if self.target == GridBoard::goal(grid) {
                Vec::new()
            } else {
                cells(&self.target)
            },
        });
        // Only a ratio above 1 is sent: absent means optimal.
        let quality = (self.max_ratio.get() > 1.0).then(|| pb::Quality {
            max_ratio: self.max_ratio.get(),
        });
        (puzzle, quality)
    }

    fn answer(&self, outcome: solve_response::Outcome) -> Result<SlidingAnswer, ReplyError> {
        use solve_response::Outcome;
        match outcome {
            Outcome::Solution(pb::Solution {
                kind: Some(solution::Kind::Sliding(solution)),
            }) => Ok(self.solution(&solution.moves, solution.lower_bound)?),
            Outcome::Solution(pb::Solution { kind: None }) => Err(ReplyError::NoOutcome),
            Outcome::Unsolvable(_) if self.start.can_reach(&self.target) => {
                Err(CheckError::FalseUnsolvable.into())
            }
            Outcome::Unsolvable(_) => Ok(SlidingAnswer::Unsolvable),
            _ => Err(ReplyError::WrongKind),
        }
    }

    fn write_text(
        &self,
        out: &mut Output,
        prefix: &str,
        show: bool,
        answer: &SlidingAnswer,
    ) -> std::io::Result<()> {
        draw::write_text(self, out, prefix, show, answer)
    }

    fn describe(&self) -> String {
        let line = |board: &GridBoard| board.to_string().replace('\n', " / ");
        format!(
            "{} board {} to {}",
            self.start.grid(),
            line(&self.start),
            line(&self.target)
        )
    }

    fn json(&self, number: usize, answer: &SlidingAnswer) -> Value {
        draw::json(self, number, answer)
    }
}

impl SlidingQuery {
    /// A sliding solution, replayed: it must reach the target. Asked with a ratio above 1, an
    /// answer whose proven `lower_bound` is below its length is [`SlidingAnswer::Bounded`]; an
    /// answer to an optimal request is optimal, whatever bound came with it.
    fn solution(&self, letters: &str, lower_bound: u32) -> Result<SlidingAnswer, CheckError> {
        self.checked(letters, lower_bound, self.max_ratio.get() > 1.0)
    }

    /// The best answer a watched search had found when it was stopped, replayed: it must reach
    /// the target, and is [`SlidingAnswer::Bounded`] unless `lower_bound` proves it optimal.
    pub(crate) fn best_so_far(
        &self,
        letters: &str,
        lower_bound: u32,
    ) -> Result<SlidingAnswer, ReplyError> {
        Ok(self.checked(letters, lower_bound, true)?)
    }

    /// `letters` replayed from the start: they must reach the target;
    /// [`SlidingAnswer::Bounded`] when `bounded` and `lower_bound` is below their length.
    fn checked(
        &self,
        letters: &str,
        lower_bound: u32,
        bounded: bool,
    ) -> Result<SlidingAnswer, CheckError> {
        let moves = parse_moves(letters).map_err(CheckError::MoveString)?;
        if lower_bound as usize > moves.len() {
            return Err(CheckError::BadBound {
                lower_bound,
                length: moves.len(),
            });
        }
        match self.start.replay(&moves) {
            Ok(end) if end != self.target => Err(CheckError::MissesTarget(letters.to_owned())),
            Ok(_) if bounded && (lower_bound as usize) < moves.len() => {
                Ok(SlidingAnswer::Bounded { moves, lower_bound })
            }
            Ok(_) => Ok(SlidingAnswer::Moves(moves)),
            Err(source) => Err(CheckError::IllegalMoves {
                moves: letters.to_owned(),
                source,
            }),
        }
    }
}
