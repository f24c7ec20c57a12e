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

/// A count header (`N` or `T`): the number of cases that follow, and its token as typed.
#[derive(Debug, Clone, Copy)]
struct Count<'a> {
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
fn read_count<'a>(tokens: &mut tokens::Tokens<'a>, input: &mut Input) -> Option<Count<'a>> {
    let Some(token) = tokens.peek() else {
        input.problems.push((
            1,
            "the number of cases is missing: the input is empty".to_owned(),
        ));
        return None;
    };
    if let Some(n) = token.number() {
        tokens.next();
        return Some(Count { n, token });
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
fn expect_end(tokens: &tokens::Tokens<'_>, input: &mut Input, count: &Count<'_>) {
    if let Some(token) = tokens.peek() {
        input.problems.push((
            token.line,
            format!(
                "unexpected {} after the last of the {} cases the first line announced; ignored",
                token.quoted(),
                count.shown()
            ),
        ));
    }
}

/// Reads a whole input: the cases a first-line count announces when `counted` (or until the end
/// of input if the count is not a number), else cases until the end of input. `attempt` reads
/// one case at a position and `check` judges a case's worth of tokens; `layout` says how cases
/// lie in lines, which is how a malformed case is kept from costing any other (see
/// [`tokens::Tokens::read_case`]).
fn read_cases<'a>(
    input: &'a [u8],
    counted: bool,
    layout: tokens::Layout,
    attempt: impl Fn(tokens::Tokens<'a>) -> tokens::Attempt<'a, Query>,
    check: impl Fn(&[tokens::Token<'a>]) -> Result<Query, String>,
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

/// The message for input that ends inside a case (after `read` tokens) or before all announced
/// cases (`read` is 0 then).
fn truncated(
    layout: tokens::Layout,
    read: usize,
    count: Option<&Count<'_>>,
    number: usize,
) -> String {
    match (read, count) {
        (0, Some(count)) => format!(
            "missing: the input ends after {} of the {} cases the first line announced",
            number - 1,
            count.shown()
        ),
        _ => format!(
            "the input ends inside the case, after {read} of the {} {}",
            layout.tokens, layout.what
        ),
    }
}

/// A sliding-tile board from its tiles' tokens. A number out of range is quoted as it was typed
/// (solver-core shows the number it read, which saturates for very long ones).
pub(crate) fn board_from_tokens<const W: usize>(
    tokens: &[tokens::Token<'_>],
) -> Result<solver_core::Board<W>, String> {
    solver_core::Board::<W>::from_tokens(tokens.iter().map(tokens::Token::text)).map_err(
        |e| match e {
            solver_core::BoardError::OutOfRange { index, value, max }
                if tokens
                    .get(index)
                    .is_some_and(|token| token.text() != value.to_string()) =>
            {
                format!(
                    "token {} ({}) is out of range: expected 1..={max}, or 0 for the blank",
                    index + 1,
                    tokens[index].quoted()
                )
            }
            e => e.to_string(),
        },
    )
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

    /// A small deterministic generator (xorshift64*), so the corruption sweep below is the same
    /// on every run.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
        }

        fn shuffled(&mut self, n: usize) -> Vec<usize> {
            let mut items: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                items.swap(i, self.below(i + 1));
            }
            items
        }
    }

    /// The lines of one random valid case of `problem`, as its judge writes them.
    fn case_lines(problem: Problem, rng: &mut Rng) -> Vec<String> {
        let row = |cells: &[usize]| {
            cells
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        };
        let packed = |cells: &[usize]| -> String {
            cells
                .iter()
                .map(|&c| {
                    if c == 0 {
                        'X'
                    } else {
                        char::from(b'0' + c as u8)
                    }
                })
                .collect()
        };
        match problem {
            Problem::Poj1077 | Problem::Hdu1043 | Problem::Uva652 => {
                let cells = rng.shuffled(9);
                if problem == Problem::Uva652 && rng.below(4) == 0 {
                    vec![packed(&cells)]
                } else {
                    vec![row(&cells)]
                }
            }
            Problem::Hdu3567 => {
                let (start, target) = (rng.shuffled(9), rng.shuffled(9));
                vec![packed(&start), packed(&target)]
            }
            Problem::Uva10181 => rng.shuffled(16).chunks(4).map(row).collect(),
            Problem::Poj1198 | Problem::Hdu1401 => (0..2)
                .map(|_| {
                    let squares: Vec<usize> = rng.shuffled(64)[..4]
                        .iter()
                        .flat_map(|s| [s / 8 + 1, s % 8 + 1])
                        .collect();
                    row(&squares)
                })
                .collect(),
        }
    }

    /// `lines` of a case with one mistake a person makes: a token dropped or added on a line, a
    /// line replaced by text, or (for a 4×4 board's rows) a row dropped, a middle row repeated, or
    /// a row doubled onto itself. (A line dropped or added where a case is one line is a case more or
    /// less, and where it is two lines any two lines make a case: nothing can tell.)
    fn corrupt(lines: &[String], problem: Problem, copies: bool, rng: &mut Rng) -> Vec<String> {
        let rows = problem == Problem::Uva10181;
        let mut lines = lines.to_vec();
        let at = rng.below(lines.len());
        let mut tokens: Vec<String> = lines[at].split(' ').map(str::to_owned).collect();
        match rng.below(6) {
            0 if tokens.len() > 1 => {
                tokens.remove(rng.below(tokens.len()));
                lines[at] = tokens.join(" ");
            }
            1 => {
                tokens.insert(rng.below(tokens.len() + 1), (1 + rng.below(9)).to_string());
                lines[at] = tokens.join(" ");
            }
            // Among copies of one board, a board without its first row reads just as well as a
            // later board without its last.
            2 if rows => {
                lines.remove(if copies { at.max(1) } else { at });
            }
            // A middle row: a first or last row repeated is a line before or after a valid case.
            3 if rows => {
                let at = 1 + rng.below(lines.len() - 2);
                let copy = lines[at].clone();
                lines.insert(at, copy);
            }
            5 if rows => {
                let copy = lines[at].clone();
                lines[at] = format!("{copy} {copy}");
            }
            // Two tokens on a line could be a whole HDU 3567 case: that would be a case more.
            _ if problem == Problem::Hdu3567 || rng.below(2) == 0 => {
                "hello".clone_into(&mut lines[at]);
            }
            _ => "hello world".clone_into(&mut lines[at]),
        }
        lines
    }

    /// One malformed case costs only itself, with the right case numbers and lines, in every
    /// format: a deterministic sweep of random inputs (half of them one case repeated) with one
    /// case spoiled the way people do.
    #[test]
    fn one_bad_case_costs_only_itself() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for problem in Problem::ALL {
            for round in 0..300 {
                let count = 2 + rng.below(4);
                let bad = rng.below(count);
                let counted = matches!(
                    problem,
                    Problem::Uva652 | Problem::Hdu3567 | Problem::Uva10181
                );
                let mut text = if counted {
                    format!("{count}\n")
                } else {
                    String::new()
                };
                let mut line = 1 + usize::from(counted);
                let mut starts = Vec::new();
                // Every other round, the same case over and over, as test files often are.
                let copied = case_lines(problem, &mut rng);
                for number in 0..count {
                    let mut lines = if round % 2 == 0 {
                        copied.clone()
                    } else {
                        case_lines(problem, &mut rng)
                    };
                    if number == bad {
                        lines = corrupt(&lines, problem, round % 2 == 0, &mut rng);
                    }
                    starts.push(line);
                    for l in &lines {
                        text.push_str(l);
                        text.push('\n');
                    }
                    line += lines.len();
                    if problem == Problem::Uva652 {
                        text.push('\n');
                        line += 1;
                    }
                }
                let input = problem.format().parse(text.as_bytes());
                let context = format!("{problem} round {round}, case {}:\n{text}", bad + 1);
                assert!(input.problems.is_empty(), "{context}{:?}", input.problems);
                assert_eq!(input.cases.len(), count, "{context}{input:#?}");
                for (i, case) in input.cases.iter().enumerate() {
                    assert_eq!(case.line, starts[i], "{context}{input:#?}");
                    if i != bad {
                        assert!(case.query.is_ok(), "{context}{input:#?}");
                    }
                }
            }
        }
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
    cases: usize,
    done: usize,
    answered: usize,
    failed: usize,
}

/// What a judge run did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Summary {
    /// Cases read (good and bad, and one for cases a count announced that never came).
    pub(crate) cases: usize,
    /// Cases whose answers were printed.
    pub(crate) answered: usize,
    /// Problems reported: bad cases, cases without an answer, and problems outside any case.
    pub(crate) failed: usize,
}

impl Printer {
    /// A printer for `total` cases of `problem` on stdout.
    pub(crate) fn new(problem: Problem, total: usize, progress: bool) -> Self {
        Self {
            problem,
            out: Output::stdout(),
            progress: crate::progress::Progress::new(total, progress),
            cases: total,
            done: 0,
            answered: 0,
            failed: 0,
        }
    }

    /// Reports a problem outside any case on stderr.
    pub(crate) fn problem(&mut self, line: usize, message: &str) {
        self.failed += 1;
        self.progress.clear();
        eprintln!("{}: line {line}: {message}", self.problem);
    }

    /// Flushes the output; says how many cases were answered and how many problems there were.
    pub(crate) fn finish(mut self) -> io::Result<Summary> {
        self.progress.clear();
        io::Write::flush(&mut self.out)?;
        Ok(Summary {
            cases: self.cases,
            answered: self.answered,
            failed: self.failed,
        })
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
            Ok(()) => {
                self.answered += 1;
                self.out.case_done();
            }
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
