//! Every format at once: a sweep of malformed inputs, and parsers against arbitrary bytes.

use proptest::prelude::*;

use super::format::Format as _;
use super::problem::Problem;
use crate::case::Input;
use crate::family::Query;
use crate::family::sliding::judge::eight;

use crate::random::{Draws as _, Lcg};

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
        .filter_map(|c| {
            c.query
                .clone()
                .err()
                .map(|e| (c.number, c.line, e.to_string()))
        })
        .collect()
}

/// The lines of one random valid case of `problem`, as its judge writes them.
fn case_lines(problem: Problem, rng: &mut Lcg) -> Vec<String> {
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
fn corrupt(lines: &[String], problem: Problem, copies: bool, rng: &mut Lcg) -> Vec<String> {
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
    let mut rng = Lcg::new(0x2545_f491_4f6c_dd1d);
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
            .map(|(cells, _, _)| {
                Query::sliding(
                    &solver_core::Board3::from_cells(cells).unwrap(),
                    &solver_core::Board3::goal(),
                )
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
