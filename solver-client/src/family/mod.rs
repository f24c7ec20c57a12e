//! The families of puzzles, as the client's shared code sees them: the [`Family`] seam each
//! family's query implements, and the registries of queries and answers, one variant per family
//! ([`Query`], [`Answer`]). This is the one file that hands a query or an answer to its family's
//! module (`sliding/`, `solitaire/`, each a folder here), so the code that carries them never
//! names a family.
//!
//! `Answer` alone is always the answer of any family; a family's own is its `FamilyAnswer`
//! (`SlidingAnswer`, `SolitaireAnswer`).

pub(crate) mod sliding;
pub(crate) mod solitaire;

use std::io::{self, Write as _};

use serde_json::Value;
use solver_core::tiles::grid_board::GridBoard;
use solver_proto::v2 as pb;
use solver_proto::v2::{solve_request, solve_response};

use crate::output::Output;
use crate::reply::ReplyError;
use sliding::query::{MaxRatio, SlidingAnswer, SlidingQuery};
use solitaire::query::{Pair, SolitaireAnswer};

/// What the client does with one family's query: how it becomes its part of a `solver.v2`
/// request, how an outcome of the service is checked into the family's answer (moves replayed,
/// parity checked) before anything is printed, and how the answer is shown to a person as text
/// or JSON.
pub(crate) trait Family {
    /// The family's answer, once checked.
    type FamilyAnswer: FamilyAnswer;

    /// The request's `puzzle`, and the `quality` asked for (`None`: optimal).
    fn request(&self) -> (solve_request::Puzzle, Option<pb::Quality>);

    /// The answer in `outcome`, checked against the query. The caller has taken the in-band
    /// errors out; any other outcome of another kind is [`ReplyError::WrongKind`].
    fn answer(&self, outcome: solve_response::Outcome) -> Result<Self::FamilyAnswer, ReplyError>;

    /// Writes `answer` for a person, each line after `prefix`; `show` draws every position too.
    fn write_text(
        &self,
        out: &mut Output,
        prefix: &str,
        show: bool,
        answer: &Self::FamilyAnswer,
    ) -> io::Result<()>;

    /// The query in one line, for messages.
    fn describe(&self) -> String;

    /// `answer` to case `number` as one JSON object: the case, the puzzle as asked, the answer.
    fn json(&self, number: usize, answer: &Self::FamilyAnswer) -> Value;
}

/// One validated question for the service, parsed once at the edge: one variant per family.
/// What a family does with its query (the request, the checks of the reply, the answer shown to
/// a person) is its [`Family`] implementation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Query {
    /// A sliding board of any shape from 2×2 to 8×8 (the 8- and 15-puzzle included).
    Sliding(SlidingQuery),
    /// Two Solitaire positions and the move limit.
    Solitaire(Pair),
}

impl Query {
    /// An optimal answer from `start` to `target` (of the same shape) on a sliding board.
    pub(crate) fn sliding(start: impl Into<GridBoard>, target: impl Into<GridBoard>) -> Self {
        Self::Sliding(SlidingQuery {
            start: start.into(),
            target: target.into(),
            max_ratio: MaxRatio::OPTIMAL,
        })
    }

    /// The sliding board asked about, if this is one.
    pub(crate) fn as_sliding(&self) -> Option<&SlidingQuery> {
        match self {
            Query::Sliding(sliding) => Some(sliding),
            Query::Solitaire(_) => None,
        }
    }

    /// The request's `puzzle`, and the `quality` asked for (`None`: optimal).
    pub(crate) fn request(&self) -> (solve_request::Puzzle, Option<pb::Quality>) {
        match self {
            Query::Sliding(query) => query.request(),
            Query::Solitaire(query) => query.request(),
        }
    }

    /// The answer in `outcome`, checked against the query (see [`Family::answer`]).
    pub(crate) fn answer(&self, outcome: solve_response::Outcome) -> Result<Answer, ReplyError> {
        match self {
            Query::Sliding(query) => query.answer(outcome).map(Answer::Sliding),
            Query::Solitaire(query) => query.answer(outcome).map(Answer::Solitaire),
        }
    }

    /// The query in one line, for messages.
    pub(crate) fn describe(&self) -> String {
        match self {
            Query::Sliding(query) => query.describe(),
            Query::Solitaire(query) => query.describe(),
        }
    }

    /// Writes `answer` for a person, each line after `prefix`; `show` draws every position too.
    pub(crate) fn write_text(
        &self,
        out: &mut Output,
        prefix: &str,
        show: bool,
        answer: &Answer,
    ) -> io::Result<()> {
        match (self, answer) {
            (Query::Sliding(query), Answer::Sliding(answer)) => {
                query.write_text(out, prefix, show, answer)
            }
            (Query::Solitaire(query), Answer::Solitaire(answer)) => {
                query.write_text(out, prefix, show, answer)
            }
            _ => writeln!(out, "{prefix}the service sent an answer of another kind"),
        }
    }

    /// `answer` to case `number` as one JSON object: the case, the puzzle as asked, the answer.
    pub(crate) fn json(&self, number: usize, answer: &Answer) -> Value {
        match (self, answer) {
            (Query::Sliding(query), Answer::Sliding(answer)) => query.json(number, answer),
            (Query::Solitaire(query), Answer::Solitaire(answer)) => query.json(number, answer),
            _ => serde_json::json!({
                "case": number,
                "error": "the service sent an answer of another kind",
            }),
        }
    }
}

/// The service's answer to one query, already checked against the query: one variant per family.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Answer {
    /// The answer to a sliding board.
    Sliding(SlidingAnswer),
    /// The answer to a Solitaire pair.
    Solitaire(SolitaireAnswer),
}

impl Answer {
    /// The family, as an error says which one an unexpected answer is of.
    pub(crate) fn family(&self) -> &'static str {
        match self {
            Answer::Sliding(_) => "sliding-tile",
            Answer::Solitaire(_) => "Solitaire",
        }
    }

    /// How many moves the answer takes; `None`: there is no way.
    pub(crate) fn length(&self) -> Option<usize> {
        match self {
            Answer::Sliding(answer) => answer.length(),
            Answer::Solitaire(answer) => answer.length(),
        }
    }
}

/// The answer of one family, taken out of an [`Answer`].
pub(crate) trait FamilyAnswer {
    /// `answer`, if it is of this family.
    fn of(answer: &Answer) -> Option<&Self>;
}

impl FamilyAnswer for SlidingAnswer {
    fn of(answer: &Answer) -> Option<&Self> {
        match answer {
            Answer::Sliding(answer) => Some(answer),
            Answer::Solitaire(_) => None,
        }
    }
}

impl FamilyAnswer for SolitaireAnswer {
    fn of(answer: &Answer) -> Option<&Self> {
        match answer {
            Answer::Solitaire(answer) => Some(answer),
            Answer::Sliding(_) => None,
        }
    }
}

/// Cases any server answers at once, with no tables to build (Solitaire ones), for tests of a
/// run itself; and the label of their kind in the server's metrics.
#[cfg(test)]
pub(crate) fn quick_cases(count: usize) -> (Vec<crate::case::Case>, &'static str) {
    (solitaire::query::random_cases(count), "solitaire")
}
