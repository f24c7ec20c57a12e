//! Solitaire: the request, the checks of a reply (moves replayed, legal, within the limit, ending
//! on the end) and the answer for a person.

use std::io::{self, Write as _};

use serde_json::{Value, json};
use solver_core::solitaire::{self, Position, Square, Step};
use solver_proto::v2 as pb;
use solver_proto::v2::{solution, solve_request, solve_response};

use super::{Puzzle, plural};
use crate::case::{Answer, Pair};
use crate::draw::{show_solitaire, step_text};
use crate::output::Output;
use crate::reply::ReplyError;

impl Puzzle for Pair {
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

    fn answer(&self, outcome: solve_response::Outcome) -> Result<Answer, ReplyError> {
        use solve_response::Outcome;
        match outcome {
            Outcome::Solution(pb::Solution {
                kind: Some(solution::Kind::Solitaire(solution)),
            }) => {
                let steps = steps(&solution.moves)?;
                self.check(&steps)?;
                Ok(Answer::Reachable(steps))
            }
            Outcome::Solution(pb::Solution { kind: None }) => Err(ReplyError::NoOutcome),
            Outcome::Unreachable(_) => Ok(Answer::Unreachable),
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
        match answer {
            Answer::Reachable(steps) => {
                let list: Vec<String> = steps.iter().map(step_text).collect();
                writeln!(
                    out,
                    "{prefix}reachable in {} move{} (limit {}): {}",
                    steps.len(),
                    plural(steps.len()),
                    self.max_moves,
                    if list.is_empty() {
                        "already there".to_owned()
                    } else {
                        list.join(", ")
                    }
                )?;
                if show {
                    show_solitaire(out, &self.start, steps)?;
                }
                Ok(())
            }
            Answer::Unreachable => writeln!(
                out,
                "{prefix}not reachable within {} move{}",
                self.max_moves,
                plural(self.max_moves as usize)
            ),
            _ => writeln!(out, "{prefix}the service sent an answer of another kind"),
        }
    }

    fn describe(&self) -> String {
        format!(
            "Solitaire {} to {} within {} moves",
            self.start, self.end, self.max_moves
        )
    }

    fn json(&self, number: usize, answer: &Answer) -> Value {
        let squares = |p: &Position| -> Vec<[u32; 2]> {
            p.squares().iter().map(|s| [s.row(), s.col()]).collect()
        };
        let mut v = json!({
            "case": number,
            "puzzle": "solitaire",
            "start": squares(&self.start),
            "end": squares(&self.end),
            "max_moves": self.max_moves,
        });
        match answer {
            Answer::Reachable(steps) => {
                v["reachable"] = true.into();
                v["length"] = steps.len().into();
                v["moves"] = steps
                    .iter()
                    .map(|s| {
                        json!({
                            "from": [s.from.row(), s.from.col()],
                            "to": [s.to.row(), s.to.col()],
                        })
                    })
                    .collect();
            }
            _ => v["reachable"] = false.into(),
        }
        v
    }
}

impl Pair {
    /// `steps` are legal, within the limit, and end on the end.
    fn check(&self, steps: &[Step]) -> Result<(), ReplyError> {
        let len = u32::try_from(steps.len()).unwrap_or(u32::MAX);
        if len > self.max_moves {
            return Err(ReplyError::TooLong {
                len,
                limit: self.max_moves,
            });
        }
        match solitaire::replay(&self.start, steps) {
            Ok(end) if end == self.end => Ok(()),
            Ok(end) => Err(ReplyError::WrongEnd {
                end,
                expected: self.end,
            }),
            Err(e) => Err(ReplyError::IllegalSteps(e)),
        }
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
