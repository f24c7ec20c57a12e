//! What every judge format shares: the [`Format`] trait, reading a whole input into cases (count
//! header, case after case, the end), boards from tokens, and move strings out.

use std::io;

use super::tokens;
use crate::case::{Answer, Input, Query};
use crate::output::Output;
use crate::read_error::ReadError;

/// A judge's input and output format.
pub(crate) trait Format: Sync {
    /// Reads the whole input into cases. Never fails: whatever is wrong is recorded per case (or,
    /// outside any case, in [`Input::problems`]) and the other cases are still read.
    fn parse(&self, input: &[u8]) -> Input;

    /// Writes the answer to case `number` exactly as the judge expects.
    ///
    /// # Errors
    /// Writing failed, or the answer cannot be written in this format (nothing is written then).
    fn render(&self, out: &mut Output, number: usize, answer: &Answer) -> Result<(), RenderError>;
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
#[derive(Debug, Clone, Copy)]
pub(crate) struct Count<'a> {
    n: u64,
    token: tokens::Token<'a>,
}

impl Count<'_> {
    /// The count as typed (a number too large for any use is still shown as it was given).
    fn shown(&self) -> String {
        if self.token.bytes.len() <= 24 {
            self.token.text().to_owned()
        } else {
            self.token.quoted()
        }
    }
}

/// Reads the count header. A header that is not a number is reported; if it is alone on its line
/// it is skipped, else it is read as part of the first case. An input without any token is
/// reported as missing its count.
pub(super) fn read_count<'a>(
    tokens: &mut tokens::Tokens<'a>,
    input: &mut Input,
) -> Option<Count<'a>> {
    let Some(token) = tokens.peek() else {
        input.problems.push((1, ReadError::NoCount));
        return None;
    };
    if let Some(n) = token.number() {
        tokens.next();
        return Some(Count { n, token });
    }
    input
        .problems
        .push((token.line, ReadError::NotACount(token.quoted())));
    let mut after = *tokens;
    after.next();
    if after.peek().is_none_or(|next| next.line != token.line) {
        tokens.next();
    }
    None
}

/// Checks the end of a counted input: nothing may follow the last case.
pub(super) fn expect_end(tokens: &tokens::Tokens<'_>, input: &mut Input, count: &Count<'_>) {
    if let Some(token) = tokens.peek() {
        input.problems.push((
            token.line,
            ReadError::AfterLast {
                token: token.quoted(),
                count: count.shown(),
            },
        ));
    }
}

/// Reads a whole input: the cases a first-line count announces when `counted` (or until the end
/// of input if the count is not a number), else cases until the end of input. `attempt` reads
/// one case at a position and `check` judges a case's worth of tokens; `layout` says how cases
/// lie in lines, which is how a malformed case is kept from costing any other (see
/// [`tokens::Tokens::read_case`]).
pub(crate) fn read_cases<'a>(
    input: &'a [u8],
    counted: bool,
    layout: tokens::Layout,
    attempt: impl Fn(tokens::Tokens<'a>) -> tokens::Attempt<'a, Query, ReadError>,
    check: impl Fn(&[tokens::Token<'a>]) -> Result<Query, ReadError>,
) -> Input {
    let mut tokens = tokens::Tokens::new(input);
    let mut cases = Input::default();
    let count = if counted {
        let count = read_count(&mut tokens, &mut cases);
        if count.is_none() && tokens.peek().is_none() {
            return cases;
        }
        count
    } else {
        None
    };
    loop {
        if let Some(count) = &count
            && cases.cases.len() as u64 >= count.n
        {
            expect_end(&tokens, &mut cases, count);
            break;
        }
        let number = cases.cases.len() + 1;
        let cases_after = count.as_ref().map(|count| count.n - number as u64);
        match tokens.read_case(layout, cases_after, &attempt, &check) {
            None => {
                if let Some(count) = &count {
                    let message = truncated(layout, 0, Some(count), number);
                    cases.push(tokens.line(), Err(message));
                }
                break;
            }
            Some(tokens::Group::Valid(query, line)) => cases.push(line, Ok(query)),
            Some(tokens::Group::Invalid(error, line)) => cases.push(line, Err(error)),
            Some(tokens::Group::Truncated(read, line)) => {
                cases.push(line, Err(truncated(layout, read, count.as_ref(), number)));
                break;
            }
        }
    }
    cases
}

/// The error for input that ends inside a case (after `read` tokens) or before all announced
/// cases (`read` is 0 then).
fn truncated(
    layout: tokens::Layout,
    read: usize,
    count: Option<&Count<'_>>,
    number: usize,
) -> ReadError {
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

/// A sliding-tile board from its tiles' tokens. A number out of range is quoted as it was typed
/// (solver-core shows the number it read, which saturates for very long ones).
pub(crate) fn board_from_tokens<const W: usize>(
    tokens: &[tokens::Token<'_>],
) -> Result<solver_core::Board<W>, ReadError> {
    solver_core::Board::<W>::from_tokens(tokens.iter().map(tokens::Token::text)).map_err(
        |e| match e {
            solver_core::BoardError::OutOfRange { index, value, max }
                if tokens
                    .get(index)
                    .is_some_and(|token| token.text() != value.to_string()) =>
            {
                ReadError::OutOfRange {
                    index: index + 1,
                    token: tokens[index].quoted(),
                    max,
                }
            }
            e => ReadError::Board(e),
        },
    )
}

/// Writes a move string and a newline: lowercase letters from solver-core, or uppercase.
pub(crate) fn write_moves(
    out: &mut Output,
    moves: &[solver_core::Move],
    uppercase: bool,
) -> io::Result<()> {
    let mut line: Vec<u8> = moves
        .iter()
        .map(|m| {
            let letter = m.letter() as u8;
            if uppercase {
                letter.to_ascii_uppercase()
            } else {
                letter
            }
        })
        .collect();
    line.push(b'\n');
    io::Write::write_all(out, &line)
}
