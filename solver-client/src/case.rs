//! The cases of a run: validated queries read from the input, and the answers that come back.
//!
//! [`Query`] and [`Answer`] are the registry of the families of puzzles: one variant each, and
//! the one place that hands a query (and its answer) to its family's [`Puzzle`] code, so the
//! shared code never names a family.

use std::io::{self, Write as _};

use serde_json::Value;
use solver_core::Move;
use solver_core::tiles::grid_board::GridBoard;
use solver_proto::v2 as pb;
use solver_proto::v2::{solve_request, solve_response};

use crate::output::Output;
use crate::puzzle::Puzzle;
use crate::read_error::ReadError;
use crate::reply::ReplyError;
use crate::solitaire::query as solitaire;

/// One validated question for the service, parsed once at the edge. What a family does with its
/// query (the request, the checks of the reply, the answer shown to a person) is its [`Puzzle`]
/// implementation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Query {
    /// A sliding board of any shape from 2×2 to 8×8 (the 8- and 15-puzzle included).
    Sliding(Sliding),
    /// Two Solitaire positions and the move limit.
    Solitaire(solitaire::Pair),
}

impl Query {
    /// An optimal answer from `start` to `target` (of the same shape) on a sliding board.
    pub(crate) fn sliding(start: impl Into<GridBoard>, target: impl Into<GridBoard>) -> Self {
        Self::Sliding(Sliding {
            start: start.into(),
            target: target.into(),
            max_ratio: MaxRatio::OPTIMAL,
        })
    }

    /// The sliding board asked about, if this is one.
    pub(crate) fn as_sliding(&self) -> Option<&Sliding> {
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

    /// The answer in `outcome`, checked against the query (see [`Puzzle::answer`]).
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

/// A sliding board, its target (same shape) and how good an answer must be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Sliding {
    /// The start board.
    pub(crate) start: GridBoard,
    /// The target (the standard goal for most judges and unless `--target`).
    pub(crate) target: GridBoard,
    /// The longest answer accepted, as a multiple of the optimum (1: optimal).
    pub(crate) max_ratio: MaxRatio,
}

/// `--max-ratio`: a finite number of at least 1, compared by value (so queries stay `Eq`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct MaxRatio(f64);

impl MaxRatio {
    /// An optimal answer.
    pub(crate) const OPTIMAL: Self = Self(1.0);

    /// `ratio`, if it is a finite number of at least 1.
    pub(crate) fn new(ratio: f64) -> Option<Self> {
        (ratio.is_finite() && ratio >= 1.0).then_some(Self(ratio))
    }

    /// The ratio.
    pub(crate) fn get(self) -> f64 {
        self.0
    }
}

impl PartialEq for MaxRatio {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

impl Eq for MaxRatio {}

/// One case of the input, numbered as the judge numbers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Case {
    /// 1-based case number.
    pub(crate) number: usize,
    /// 1-based line where the case starts.
    pub(crate) line: usize,
    /// The query, or what is wrong with the case's text.
    pub(crate) query: Result<Query, ReadError>,
}

/// Everything read from one input.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Input {
    /// The cases in input order, good and bad.
    pub(crate) cases: Vec<Case>,
    /// Problems outside any case (a bad header, text after the last case), with their lines.
    pub(crate) problems: Vec<(usize, ReadError)>,
}

impl Input {
    /// Adds case number `cases.len() + 1`.
    pub(crate) fn push(&mut self, line: usize, query: Result<Query, ReadError>) {
        let number = self.cases.len() + 1;
        self.cases.push(Case {
            number,
            line,
            query,
        });
    }
}

/// The service's answer to one query, already checked against the query: one variant per family.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Answer {
    /// The answer to a sliding board.
    Sliding(SlidingAnswer),
    /// The answer to a Solitaire pair.
    Solitaire(solitaire::Answer),
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

impl FamilyAnswer for solitaire::Answer {
    fn of(answer: &Answer) -> Option<&Self> {
        match answer {
            Answer::Solitaire(answer) => Some(answer),
            Answer::Sliding(_) => None,
        }
    }
}

/// The service's answer to a sliding board, already checked against it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SlidingAnswer {
    /// A solution (replayed by the client: it reaches the target), optimal.
    Moves(Vec<Move>),
    /// A solution that reaches the target but may be longer than the optimum, which the service
    /// proved to be at least `lower_bound` (only asked for with `--max-ratio`).
    Bounded {
        /// The moves.
        moves: Vec<Move>,
        /// A proven lower bound on the optimal length, below `moves.len()`.
        lower_bound: u32,
    },
    /// The target cannot be reached.
    Unsolvable,
}

impl SlidingAnswer {
    /// How many moves the answer takes; `None`: unsolvable.
    pub(crate) fn length(&self) -> Option<usize> {
        match self {
            SlidingAnswer::Moves(moves) | SlidingAnswer::Bounded { moves, .. } => Some(moves.len()),
            SlidingAnswer::Unsolvable => None,
        }
    }
}

/// Cases any server answers at once, with no tables to build (Solitaire ones), for tests of a
/// run itself; and the label of their kind in the server's metrics.
#[cfg(test)]
pub(crate) fn quick_cases(count: usize) -> (Vec<Case>, &'static str) {
    (crate::solitaire::query::random_cases(count), "solitaire")
}
