//! The online-judge formats: each one reads its input into cases and writes answers exactly as
//! its judge expects.
//!
//! | problem | input | output |
//! | --- | --- | --- |
//! | `poj1077`, `hdu1043` | 3×3 boards until end of input | moves or `unsolvable`, one line each |
//! | `uva652` | `N`, then N boards | as HDU 1043, blank line between outputs |
//! | `hdu3567` | `T`, then start and target, packed | `Case k: n` and the smallest optimal moves |
//! | `uva10181` | `N`, then N 4×4 boards | `LRUD` moves or `This puzzle is not solvable.` |
//! | `poj1198`, `hdu1401` | start and end positions until end of input | `YES` / `NO` within 8 moves |

pub(crate) mod eight;
pub(crate) mod eight_ii;
pub(crate) mod fifteen;
pub(crate) mod solitaire;
pub(crate) mod tokens;

use std::fmt;
use std::io;

use crate::case::{Answer, Input, Query};
use crate::output::Output;

/// The judge problems the client speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Problem {
    /// POJ 1077 "Eight": boards until end of input, any valid solution.
    Poj1077,
    /// HDU 1043 "Eight": boards until end of input, any valid solution.
    Hdu1043,
    /// UVa 652 "Eight": a count, then boards; blank lines between outputs.
    Uva652,
    /// HDU 3567 "Eight II": start and target; the smallest optimal solution, exactly.
    Hdu3567,
    /// UVa 10181 "15-Puzzle Problem": a count, then 4×4 boards.
    Uva10181,
    /// POJ 1198 "Solitaire": reachable within 8 moves?
    Poj1198,
    /// HDU 1401 "Solitaire": reachable within 8 moves?
    Hdu1401,
}

impl Problem {
    /// Every problem, for tests.
    #[cfg(test)]
    pub(crate) const ALL: [Problem; 7] = [
        Problem::Poj1077,
        Problem::Hdu1043,
        Problem::Uva652,
        Problem::Hdu3567,
        Problem::Uva10181,
        Problem::Poj1198,
        Problem::Hdu1401,
    ];

    /// The problem's name as on the command line.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Problem::Poj1077 => "poj1077",
            Problem::Hdu1043 => "hdu1043",
            Problem::Uva652 => "uva652",
            Problem::Hdu3567 => "hdu3567",
            Problem::Uva10181 => "uva10181",
            Problem::Poj1198 => "poj1198",
            Problem::Hdu1401 => "hdu1401",
        }
    }

    /// The format that reads and writes this problem.
    pub(crate) fn format(self) -> &'static dyn Format {
        match self {
            Problem::Poj1077 | Problem::Hdu1043 => &eight::EIGHT_UNTIL_EOF,
            Problem::Uva652 => &eight::EIGHT_COUNTED,
            Problem::Hdu3567 => &eight_ii::EightII,
            Problem::Uva10181 => &fifteen::FIFTEEN_COUNTED,
            Problem::Poj1198 | Problem::Hdu1401 => &solitaire::SOLITAIRE_UNTIL_EOF,
        }
    }

    /// The RPC this problem's cases go to.
    pub(crate) fn service(self) -> Service {
        match self {
            Problem::Poj1077 | Problem::Hdu1043 | Problem::Uva652 | Problem::Hdu3567 => {
                Service::Eight
            }
            Problem::Uva10181 => Service::Fifteen,
            Problem::Poj1198 | Problem::Hdu1401 => Service::Solitaire,
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The three RPCs of the service.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Service {
    /// `SolveEight`.
    Eight,
    /// `SolveFifteen`.
    Fifteen,
    /// `SolveSolitaire`.
    Solitaire,
}

/// A judge's input and output format.
pub(crate) trait Format: Sync {
    /// Reads the whole input into cases. Never fails: whatever is wrong is recorded per case (or,
    /// outside any case, in [`Input::problems`]) and the other cases are still read.
    fn parse(&self, input: &[u8]) -> Input;

    /// Writes the answer to case `number` exactly as the judge expects. The inner error says why
    /// an answer cannot be written in this format (nothing is written then).
    fn render(
        &self,
        out: &mut Output,
        number: usize,
        answer: &Answer,
    ) -> io::Result<Result<(), String>>;
}

/// A count header (`N` or `T`): the number of cases that follow. A header that is not a number is
/// reported; if it is alone on its line it is skipped, else it is read as part of the first case.
fn read_count(tokens: &mut tokens::Tokens<'_>, input: &mut Input) -> Option<u64> {
    let token = tokens.peek()?;
    if let Some(n) = token.number() {
        tokens.next();
        return Some(n);
    }
    input.problems.push((
        token.line,
        format!(
            "expected the number of cases first, found {}; reading cases until the end of input",
            token.quoted()
        ),
    ));
    let mut after = *tokens;
    after.next();
    if after.peek().is_none_or(|next| next.line != token.line) {
        tokens.next();
    }
    None
}

/// Checks the end of a counted input: nothing may follow the last case.
fn expect_end(tokens: &tokens::Tokens<'_>, input: &mut Input, count: u64) {
    if let Some(token) = tokens.peek() {
        input.problems.push((
            token.line,
            format!(
                "unexpected {} after the last of the {count} cases the first line announced; ignored",
                token.quoted()
            ),
        ));
    }
}

/// Reads a whole input with `read_case`: the cases a first-line count announces when
/// `counted`, else cases until the end of input.
fn read_cases(
    input: &[u8],
    counted: bool,
    mut read_case: impl FnMut(&mut tokens::Tokens<'_>, &mut Input, Option<u64>) -> bool,
) -> Input {
    let mut tokens = tokens::Tokens::new(input);
    let mut cases = Input::default();
    if counted {
        read_counted(&mut tokens, &mut cases, read_case);
    } else {
        while read_case(&mut tokens, &mut cases, None) {}
    }
    cases
}

/// Reads one case of `N` tokens that `check` turns into a query (or an error for the case) and
/// adds it to `cases`. Returns whether to go on: `false` once the input has ended. `what` names
/// the tokens in the message for an input that ends inside the case.
fn read_group_case<const N: usize>(
    tokens: &mut tokens::Tokens<'_>,
    cases: &mut Input,
    count: Option<u64>,
    what: &str,
    check: impl Fn(&[tokens::Token<'_>]) -> Result<Query, String>,
) -> bool {
    if count.is_none() && tokens.peek().is_none() {
        return false;
    }
    let number = cases.cases.len() + 1;
    let (line, query, more) = match tokens.take_group::<N, _, _>(check) {
        tokens::Group::Valid(query, line) => (line, Ok(query), true),
        tokens::Group::Invalid(error, line) => (line, Err(error), true),
        tokens::Group::Truncated(read, line) => {
            (line, Err(truncated(what, read, N, count, number)), false)
        }
    };
    cases.push(line, query);
    more
}

/// Reads the cases of a counted input, or until the end of input when there is no count.
fn read_counted(
    tokens: &mut tokens::Tokens<'_>,
    input: &mut Input,
    mut read_case: impl FnMut(&mut tokens::Tokens<'_>, &mut Input, Option<u64>) -> bool,
) {
    match read_count(tokens, input) {
        Some(count) => {
            for _ in 0..count {
                if !read_case(tokens, input, Some(count)) {
                    return;
                }
            }
            expect_end(tokens, input, count);
        }
        None => while read_case(tokens, input, None) {},
    }
}

/// The message for input that ends inside a case or before all announced cases.
fn truncated(what: &str, read: usize, need: usize, count: Option<u64>, number: usize) -> String {
    match (read, count) {
        (0, Some(count)) => format!(
            "missing: the input ends after {} of the {count} cases the first line announced",
            number - 1
        ),
        _ => format!("the input ends inside the case, after {read} of the {need} {what}"),
    }
}

/// Writes a move string and a newline: lowercase letters from solver-core, or uppercase.
fn write_moves(out: &mut Output, moves: &[solver_core::Move], uppercase: bool) -> io::Result<()> {
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::case::Query;
    use proptest::prelude::*;

    /// The queries of the good cases.
    pub(crate) fn queries(input: &Input) -> Vec<Query> {
        input
            .cases
            .iter()
            .filter_map(|c| c.query.clone().ok())
            .collect()
    }

    /// `(case, line, message)` of the bad cases.
    pub(crate) fn errors(input: &Input) -> Vec<(usize, usize, String)> {
        input
            .cases
            .iter()
            .filter_map(|c| c.query.clone().err().map(|e| (c.number, c.line, e)))
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Arbitrary bytes never make a parser panic, and cases are numbered 1, 2, 3, ...
        #[test]
        fn parsers_never_panic_on_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
            for problem in Problem::ALL {
                let input = problem.format().parse(&bytes);
                for (i, case) in input.cases.iter().enumerate() {
                    prop_assert_eq!(case.number, i + 1);
                    prop_assert!(case.line >= 1);
                }
            }
        }

        /// Valid boards, split and padded with any whitespace and any blank mark, read back as
        /// exactly those boards, with nothing reported.
        #[test]
        fn valid_boards_round_trip(
            boards in proptest::collection::vec(
                (Just((0u8..9).collect::<Vec<u8>>()).prop_shuffle(),
                 proptest::collection::vec(0usize..5, 9),
                 0usize..3),
                0..8,
            ),
        ) {
            const SEPARATORS: [&str; 5] = [" ", "\t", "\n", "\r\n", "  \n "];
            let mut text = String::new();
            for (cells, separators, blank) in &boards {
                for (cell, &separator) in cells.iter().zip(separators) {
                    match cell {
                        0 => text.push_str(["x", "X", "0"][*blank]),
                        tile => text.push_str(&tile.to_string()),
                    }
                    text.push_str(SEPARATORS[separator]);
                }
            }
            let input = eight::EIGHT_UNTIL_EOF.parse(text.as_bytes());
            prop_assert!(input.problems.is_empty());
            let expected: Vec<Query> = boards
                .iter()
                .map(|(cells, _, _)| Query::Eight {
                    start: solver_core::Board3::from_cells(cells).unwrap(),
                    target: solver_core::Board3::goal(),
                })
                .collect();
            prop_assert_eq!(queries(&input), expected);
            prop_assert!(errors(&input).is_empty());
        }

        /// Judge-like text (digits, x, whitespace) never makes a parser panic either; it reaches
        /// the validation paths that random bytes rarely do.
        #[test]
        fn parsers_never_panic_on_judge_like_text(text in "[0-9xX \n\t]{0,300}") {
            for problem in Problem::ALL {
                let input = problem.format().parse(text.as_bytes());
                for (i, case) in input.cases.iter().enumerate() {
                    prop_assert_eq!(case.number, i + 1);
                }
            }
        }
    }
}

/// Prints a judge run: answers on stdout in the judge's format, case errors on stderr.
#[derive(Debug)]
pub(crate) struct Printer {
    problem: Problem,
    out: Output,
    progress: crate::progress::Progress,
    done: usize,
    failed: usize,
}

impl Printer {
    /// A printer for `total` cases of `problem` on stdout.
    pub(crate) fn new(problem: Problem, total: usize, progress: bool) -> Self {
        Self {
            problem,
            out: Output::stdout(),
            progress: crate::progress::Progress::new(total, progress),
            done: 0,
            failed: 0,
        }
    }

    /// Reports a problem outside any case on stderr.
    pub(crate) fn problem(&mut self, line: usize, message: &str) {
        self.failed += 1;
        self.progress.clear();
        eprintln!("{}: line {line}: {message}", self.problem);
    }

    /// Flushes the output; returns how many cases or problems failed.
    pub(crate) fn finish(mut self) -> io::Result<usize> {
        self.progress.clear();
        io::Write::flush(&mut self.out)?;
        Ok(self.failed)
    }
}

impl crate::session::Sink for Printer {
    fn case(&mut self, case: &crate::case::Case, answer: Result<&Answer, &str>) -> io::Result<()> {
        let printed = match answer {
            Ok(answer) => self
                .problem
                .format()
                .render(&mut self.out, case.number, answer)?,
            Err(error) => Err(error.to_owned()),
        };
        match printed {
            Ok(()) => self.out.case_done(),
            Err(error) => {
                self.failed += 1;
                self.progress.clear();
                eprintln!(
                    "{}: case {}, line {}: {error}",
                    self.problem, case.number, case.line
                );
            }
        }
        self.done += 1;
        self.progress.update(self.done);
        Ok(())
    }

    fn idle(&mut self) -> io::Result<()> {
        self.out.idle()
    }
}
