//! One seam per family of puzzles on the client's side: how a family's query becomes its part of
//! a `solver.v2` request, how an outcome of the service is checked into the family's answer
//! (moves replayed, parity checked) before anything is printed, and how the answer is shown to a
//! person as text or JSON. A new family implements [`Puzzle`] for its query and takes a variant
//! of `Query` and `Answer` in `case.rs`, which dispatch to it.

pub(crate) mod sliding;

use std::io;

use serde_json::Value;
use solver_proto::v2 as pb;
use solver_proto::v2::{solve_request, solve_response};

use crate::output::Output;
use crate::reply::ReplyError;

/// What the client does with one family's query.
pub(crate) trait Puzzle {
    /// The family's answer, once checked.
    type Answer;

    /// The request's `puzzle`, and the `quality` asked for (`None`: optimal).
    fn request(&self) -> (solve_request::Puzzle, Option<pb::Quality>);

    /// The answer in `outcome`, checked against the query. The caller has taken the in-band
    /// errors out; any other outcome of another kind is [`ReplyError::WrongKind`].
    fn answer(&self, outcome: solve_response::Outcome) -> Result<Self::Answer, ReplyError>;

    /// Writes `answer` for a person, each line after `prefix`; `show` draws every position too.
    fn write_text(
        &self,
        out: &mut Output,
        prefix: &str,
        show: bool,
        answer: &Self::Answer,
    ) -> io::Result<()>;

    /// The query in one line, for messages.
    fn describe(&self) -> String;

    /// `answer` to case `number` as one JSON object: the case, the puzzle as asked, the answer.
    fn json(&self, number: usize, answer: &Self::Answer) -> Value;
}

/// `s` after a count other than one.
pub(crate) fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
