//! What every judge format shares: the [`Format`] trait (and [`FamilyFormat`], which a family's
//! format implements), and reading an input case by case (count header, case after case, the
//! end).

use std::io;
use std::ops::ControlFlow;

use super::attempt::Attempt;
use super::recovery::{Group, Layout};
use super::source::Source;
use super::tokens::{Token, Tokens};
use crate::case::{Case, Input};
use crate::family::{Answer, FamilyAnswer, Query};
use crate::output::Output;
use crate::read_error::ReadError;

/// What reading an input yields, in input order.
#[derive(Debug)]
pub(crate) enum Item {
    /// The next case, numbered from 1.
    Case(Case),
    /// A problem outside any case, and its line: before the first case (the count) or after
    /// the last (text after the cases a count announced).
    Problem(usize, ReadError),
}

/// A judge's input and output format.
pub(crate) trait Format: Sync {
    /// Reads the input case by case, handing each to `out` as soon as it is read (so that it can
    /// be on its way while the rest is read); stops early when `out` says so. Never fails:
    /// whatever is wrong is handed on per case (or, outside any case, as a problem) and the other
    /// cases are still read. A read error of the input ends it there (see [`Source`]).
    fn read(&self, input: &Source, out: &mut dyn FnMut(Item) -> ControlFlow<()>);

    /// Reads a whole input held in memory into cases, as [`Format::read`] does.
    fn parse(&self, input: &[u8]) -> Input {
        collect(|out| self.read(&Source::from_bytes(input), out))
    }

    /// Writes the answer to case `number` exactly as the judge expects.
    ///
    /// # Errors
    /// Writing failed, or the answer cannot be written in this format (nothing is written then).
    fn render(&self, out: &mut Output, number: usize, answer: &Answer) -> Result<(), RenderError>;
}

/// A judge format of one family of puzzles: it writes only its family's answers, so that an
/// answer of another family is refused here, once, for every format.
pub(crate) trait FamilyFormat: Sync {
    /// The answers of the family.
    type FamilyAnswer: FamilyAnswer;

    /// Reads the input case by case, as [`Format::read`].
    fn cases(&self, input: &Source, out: &mut dyn FnMut(Item) -> ControlFlow<()>);

    /// Writes the answer to case `number` exactly as the judge expects.
    ///
    /// # Errors
    /// Writing failed, or the answer cannot be written in this format (nothing is written then).
    fn write(
        &self,
        out: &mut Output,
        number: usize,
        answer: &Self::FamilyAnswer,
    ) -> Result<(), RenderError>;
}

impl<F: FamilyFormat> Format for F {
    fn read(&self, input: &Source, out: &mut dyn FnMut(Item) -> ControlFlow<()>) {
        self.cases(input, out);
    }

    fn render(&self, out: &mut Output, number: usize, answer: &Answer) -> Result<(), RenderError> {
        match F::FamilyAnswer::of(answer) {
            Some(answer) => self.write(out, number, answer),
            None => Err(RenderError::OtherKind(answer.family())),
        }
    }
}

/// Everything `read` hands on, gathered into an [`Input`].
pub(crate) fn collect(read: impl FnOnce(&mut dyn FnMut(Item) -> ControlFlow<()>)) -> Input {
    let mut input = Input::default();
    read(&mut |item| {
        match item {
            Item::Case(case) => input.cases.push(case),
            Item::Problem(line, problem) => input.problems.push((line, problem)),
        }
        ControlFlow::Continue(())
    });
    input
}

/// Why an answer was not written.
#[derive(Debug, thiserror::Error)]
pub(crate) enum RenderError {
    /// An answer of another kind of puzzle than the format's (`"Solitaire"`, `"sliding-tile"`).
    #[error("the service sent a {0} answer")]
    OtherKind(&'static str),
    /// An answer the format has no words for (HDU 3567 promises every case a solution).
    #[error("{0}")]
    Unprintable(&'static str),
    /// Writing to the output failed: the run stops.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// A count header (`N` or `T`): the number of cases that follow, and its token as typed.
#[derive(Debug, Clone)]
pub(crate) struct Count {
    n: u64,
    token: Token,
}

impl Count {
    /// The count as typed (a number too large for any use is still shown as it was given).
    fn shown(&self) -> String {
        if self.token.bytes().len() <= 24 {
            self.token.text().to_owned()
        } else {
            self.token.quoted()
        }
    }
}

/// Reads the count header. A header that is not a number is reported; if it is alone on its line
/// it is skipped, else it is read as part of the first case. An input without any token is
/// reported as missing its count. The problem, if any, is the second value.
fn read_count(tokens: &mut Tokens<'_>) -> (Option<Count>, Option<(usize, ReadError)>) {
    let Some(token) = tokens.peek() else {
        return (None, Some((1, ReadError::NoCount)));
    };
    if let Some(n) = token.number() {
        tokens.next();
        return (Some(Count { n, token }), None);
    }
    let problem = (token.line, ReadError::NotACount(token.quoted()));
    let mut after = *tokens;
    after.next();
    if after.peek().is_none_or(|next| next.line != token.line) {
        tokens.next();
    }
    (None, Some(problem))
}

/// Checks the end of a counted input: nothing may follow the last case.
fn expect_end(tokens: &Tokens<'_>, count: &Count) -> Option<(usize, ReadError)> {
    let token = tokens.peek()?;
    Some((
        token.line,
        ReadError::AfterLast {
            token: token.quoted(),
            count: count.shown(),
        },
    ))
}

/// Reads an input: the cases a first-line count announces when `counted` (or until the end of
/// input if the count is not a number), else cases until the end of input, each handed to `out`
/// as soon as it is read. `attempt` reads one case at a position and `check` judges a case's
/// worth of tokens; `layout` says how cases lie in lines, which is how a malformed case is kept
/// from costing any other (see [`Tokens::read_case`]).
///
/// Once a case is read, nothing before it is read again: the source may drop it, which is what
/// keeps memory bounded.
pub(crate) fn read_cases<'a>(
    input: &'a Source,
    counted: bool,
    layout: Layout,
    attempt: impl Fn(Tokens<'a>) -> Attempt<'a, Query, ReadError>,
    check: impl Fn(&[Token]) -> Result<Query, ReadError>,
    out: &mut dyn FnMut(Item) -> ControlFlow<()>,
) {
    let mut tokens = Tokens::new(input);
    let case = |number, line, query| {
        Item::Case(Case {
            number,
            line,
            query,
        })
    };
    let count = if counted {
        let (count, problem) = read_count(&mut tokens);
        if let Some((line, problem)) = problem
            && out(Item::Problem(line, problem)).is_break()
        {
            return;
        }
        if count.is_none() && tokens.peek().is_none() {
            return;
        }
        count
    } else {
        None
    };
    let mut number = 1;
    loop {
        if let Some(count) = &count
            && number as u64 > count.n
        {
            if let Some((line, problem)) = expect_end(&tokens, count) {
                let _ = out(Item::Problem(line, problem));
            }
            return;
        }
        let cases_after = count.as_ref().map(|count| count.n - number as u64);
        let flow = match tokens.read_case(layout, cases_after, &attempt, &check) {
            None => {
                if let Some(count) = &count {
                    let message = truncated(layout, 0, Some(count), number);
                    let _ = out(case(number, tokens.line(), Err(message)));
                }
                return;
            }
            Some(Group::Valid(query, line)) => out(case(number, line, Ok(query))),
            Some(Group::Invalid(error, line)) => out(case(number, line, Err(error))),
            Some(Group::Truncated(read, line)) => {
                let error = truncated(layout, read, count.as_ref(), number);
                let _ = out(case(number, line, Err(error)));
                return;
            }
        };
        if flow.is_break() {
            return;
        }
        input.release(tokens.offset());
        number += 1;
    }
}

/// The error for input that ends inside a case (after `read` tokens) or before all announced
/// cases (`read` is 0 then).
fn truncated(layout: Layout, read: usize, count: Option<&Count>, number: usize) -> ReadError {
    match (read, count) {
        (0, Some(count)) => ReadError::Missing {
            read: number - 1,
            count: count.shown(),
        },
        _ => ReadError::Truncated {
            read,
            tokens: layout.tokens,
            what: layout.what,
        },
    }
}
