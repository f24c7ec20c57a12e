//! One seam per kind of puzzle on the client's side: how a kind's query becomes its part of a
//! `solver.v2` request, how an outcome of the service is checked into an [`Answer`] (moves
//! replayed, parity checked) before anything is printed, and how the answer is shown to a person
//! as text or JSON. A new kind is a module here, a [`Query`] variant and one arm in [`of`].

mod sliding;
mod solitaire;

use std::io;

use serde_json::Value;
use solver_proto::v2 as pb;
use solver_proto::v2::{solve_request, solve_response};

use crate::case::{Answer, Query};
use crate::output::Output;
use crate::reply::ReplyError;

/// What the client does with one kind of puzzle.
pub(crate) trait Puzzle {
    /// The request's `puzzle`, and the `quality` asked for (`None`: optimal).
    fn request(&self) -> (solve_request::Puzzle, Option<pb::Quality>);

    /// The answer in `outcome`, checked against the query. The caller has taken the in-band
    /// errors out; any other outcome of another kind is [`ReplyError::WrongKind`].
    fn answer(&self, outcome: solve_response::Outcome) -> Result<Answer, ReplyError>;

    /// Writes `answer` for a person, each line after `prefix`; `show` draws every position too.
    fn write_text(
        &self,
        out: &mut Output,
        prefix: &str,
        show: bool,
        answer: &Answer,
    ) -> io::Result<()>;

    /// The query in one line, for messages.
    fn describe(&self) -> String;

    /// `answer` to case `number` as one JSON object: the case, the puzzle as asked, the answer.
    fn json(&self, number: usize, answer: &Answer) -> Value;
}

pub(crate) use self::sliding::tables;

/// The registration: the module that handles `query`'s kind.
pub(crate) fn of(query: &Query) -> &dyn Puzzle {
    match query {
        Query::Sliding(sliding) => sliding,
        Query::Solitaire(pair) => pair,
    }
}

/// `s` after a count other than one.
fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
