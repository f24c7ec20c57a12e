//! Sliding boards of any shape (the 8- and 15-puzzle are 3×3 and 4×4 ones): the request, the
//! checks of a reply (moves replayed to the target, a proven bound no longer than the answer,
//! "unsolvable" only when the parity rule agrees) and the answer for a person.

use std::io::{self, Write as _};

use serde_json::{Value, json};
use solver_core::tiles::grid::Grid;
use solver_core::tiles::grid_board::GridBoard;
use solver_core::{Move, parse_moves};
use solver_proto::v2 as pb;
use solver_proto::v2::{solution, solve_request, solve_response};

use super::{Puzzle, plural};
use crate::case::{Sliding, SlidingAnswer as Answer};
use crate::draw::show_grid;
use crate::embedded::Tables;
use crate::output::Output;
use crate::reply::ReplyError;

impl Puzzle for Sliding {
    type Answer = Answer;

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

    fn answer(&self, outcome: solve_response::Outcome) -> Result<Answer, ReplyError> {
        use solve_response::Outcome;
        match outcome {
            Outcome::Solution(pb::Solution {
                kind: Some(solution::Kind::Sliding(solution)),
            }) => self.solution(&solution.moves, solution.lower_bound),
            Outcome::Solution(pb::Solution { kind: None }) => Err(ReplyError::NoOutcome),
            Outcome::Unsolvable(_) if self.start.can_reach(&self.target) => {
                Err(ReplyError::FalseUnsolvable)
            }
            Outcome::Unsolvable(_) => Ok(Answer::Unsolvable),
            _ => Err(ReplyError::WrongKind),
        }
    }

    fn write_text(
        &self,
        out: &mut Output,
        prefix: &str,
        show: bool,
        answer: &Answer,
    ) -> io::Result<()> {
        let moves = match answer {
            Answer::Moves(moves) => {
                moves_line(out, prefix, moves)?;
                moves
            }
            Answer::Bounded { moves, lower_bound } => {
                let proven = moves.len() as f64 / f64::from((*lower_bound).max(1));
                let asked = self.max_ratio.get();
                let ratio = if *lower_bound == 0 {
                    String::new()
                } else if asked > 1.0 && proven > asked {
                    // The promise was not kept: the server's limits stopped the search first.
                    format!(
                        ", so at most {proven:.3} times it: NOT proven within the {asked} asked, \
                         the service's limits stopped its search first"
                    )
                } else {
                    format!(", so at most {proven:.3} times it")
                };
                writeln!(
                    out,
                    "{prefix}{} move{} (not proven optimal: the optimum is at least \
                     {lower_bound}{ratio}): {}",
                    moves.len(),
                    plural(moves.len()),
                    solver_core::format_moves(moves)
                )?;
                moves
            }
            Answer::Unsolvable => {
                return writeln!(
                    out,
                    "{prefix}unsolvable: the board and the target have different permutation \
                     parity"
                );
            }
        };
        if show {
            show_grid(out, &self.start, moves)?;
        }
        Ok(())
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

    fn json(&self, number: usize, answer: &Answer) -> Value {
        let grid = self.start.grid();
        let mut v = json!({
            "case": number,
            "puzzle": name(grid),
            "rows": grid.rows(),
            "cols": grid.cols(),
            "start": self.start.cells(),
            "target": self.target.cells(),
        });
        let (moves, lower_bound) = match answer {
            Answer::Moves(moves) => (moves, moves.len() as u32),
            Answer::Bounded { moves, lower_bound } => (moves, *lower_bound),
            Answer::Unsolvable => {
                v["solvable"] = false.into();
                return v;
            }
        };
        v["solvable"] = true.into();
        v["length"] = moves.len().into();
        v["moves"] = solver_core::format_moves(moves).into();
        v["optimal"] = matches!(answer, Answer::Moves(_)).into();
        v["lower_bound"] = lower_bound.into();
        if matches!(answer, Answer::Bounded { .. }) && lower_bound > 0 {
            let ratio = moves.len() as f64 / f64::from(lower_bound);
            v["ratio"] = ratio.into();
            let asked = self.max_ratio.get();
            if asked > 1.0 {
                // Whether the ratio asked is proven: the service's limits may stop it first.
                v["within_max_ratio"] = (ratio <= asked).into();
            }
        }
        v
    }
}

impl Sliding {
    /// A sliding solution, replayed: it must reach the target. Asked with a ratio above 1, an
    /// answer whose proven `lower_bound` is below its length is [`Answer::Bounded`]; an answer
    /// to an optimal request is optimal, whatever bound came with it.
    fn solution(&self, letters: &str, lower_bound: u32) -> Result<Answer, ReplyError> {
        self.checked(letters, lower_bound, self.max_ratio.get() > 1.0)
    }

    /// The best answer a watched search had found when it was stopped, replayed: it must reach
    /// the target, and is [`Answer::Bounded`] unless `lower_bound` proves it optimal.
    pub(crate) fn best_so_far(
        &self,
        letters: &str,
        lower_bound: u32,
    ) -> Result<Answer, ReplyError> {
        self.checked(letters, lower_bound, true)
    }

    /// `letters` replayed from the start: they must reach the target; [`Answer::Bounded`] when
    /// `bounded` and `lower_bound` is below their length.
    fn checked(
        &self,
        letters: &str,
        lower_bound: u32,
        bounded: bool,
    ) -> Result<Answer, ReplyError> {
        let moves = parse_moves(letters).map_err(ReplyError::MoveString)?;
        if lower_bound as usize > moves.len() {
            return Err(ReplyError::BadBound {
                lower_bound,
                length: moves.len(),
            });
        }
        match self.start.replay(&moves) {
            Ok(end) if end != self.target => Err(ReplyError::MissesTarget(letters.to_owned())),
            Ok(_) if bounded && (lower_bound as usize) < moves.len() => {
                Ok(Answer::Bounded { moves, lower_bound })
            }
            Ok(_) => Ok(Answer::Moves(moves)),
            Err(source) => Err(ReplyError::IllegalMoves {
                moves: letters.to_owned(),
                source,
            }),
        }
    }
}

/// The tables a server gets ready for boards of `grid`: the 8-puzzle's table, the 15-puzzle's
/// databases, or those of any other shape (built on its first case).
pub(crate) fn tables(grid: Grid) -> Tables {
    match grid {
        Grid::EIGHT => Tables::Eight,
        Grid::FIFTEEN => Tables::Fifteen,
        _ => Tables::Sliding,
    }
}

/// The puzzle's name in JSON: `eight` and `fifteen` for their boards, else `sliding`.
fn name(grid: Grid) -> &'static str {
    match grid {
        Grid::EIGHT => "eight",
        Grid::FIFTEEN => "fifteen",
        _ => "sliding",
    }
}

fn moves_line(out: &mut Output, prefix: &str, moves: &[Move]) -> io::Result<()> {
    if moves.is_empty() {
        writeln!(out, "{prefix}already solved: 0 moves")
    } else {
        writeln!(
            out,
            "{prefix}{} move{}: {}",
            moves.len(),
            plural(moves.len()),
            solver_core::format_moves(moves)
        )
    }
}
