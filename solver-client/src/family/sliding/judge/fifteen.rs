//! UVa 10181 "15-Puzzle Problem": 4×4 boards to the standard goal, uppercase `LRUD` moves.
//!
//! The judge accepts any solution of at most 50 moves; ours are optimal, and every solvable
//! judge input needs at most 45 (the statement's promise).

use std::io::Write as _;
use std::ops::ControlFlow;

use solver_core::Board4;

use super::{board_from_tokens, optimal, write_moves};
use crate::family::Query;
use crate::family::sliding::query::SlidingAnswer;
use crate::judge::format::{FamilyFormat, Item, RenderError, read_cases};
use crate::judge::recovery::Layout;
use crate::judge::source::Source;
use crate::output::Output;

/// The 4×4 formats.
#[derive(Debug)]
pub(crate) struct Fifteen {
    /// UVa 10181: a count first. Without it (the `solve` command), boards until end of input.
    counted: bool,
}

/// UVa 10181.
pub(crate) static FIFTEEN_COUNTED: Fifteen = Fifteen { counted: true };
/// Boards until the end of input (the `solve fifteen` command).
pub(crate) static FIFTEEN_UNTIL_EOF: Fifteen = Fifteen { counted: false };

/// A 4×4 board is 16 tiles, on 4 lines (or one).
const LAYOUT: Layout = Layout {
    tokens: 16,
    what: "tiles",
    lines: 1,
    one_line: true,
    row: None,
};

/// The query for a board to the standard goal.
fn to_goal(start: Board4) -> Query {
    Query::sliding(&start, &Board4::goal())
}

impl FamilyFormat for Fifteen {
    type FamilyAnswer = SlidingAnswer;

    fn cases(&self, input: &Source, out: &mut dyn FnMut(Item) -> ControlFlow<()>) {
        read_cases(
            input,
            self.counted,
            LAYOUT,
            |at| at.attempt(16, board_from_tokens::<4>).map(to_goal),
            |tiles| board_from_tokens::<4>(tiles).map(to_goal),
            out,
        );
    }

    fn write(
        &self,
        out: &mut Output,
        _number: usize,
        answer: &SlidingAnswer,
    ) -> Result<(), RenderError> {
        match optimal(answer)? {
            Some(moves) => write_moves(out, moves, true)?,
            None => out.write_all(b"This puzzle is not solvable.\n")?,
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::Format as _;
    use crate::judge::tests::{errors, queries};

    #[test]
    fn reads_the_sample() {
        let input = FIFTEEN_COUNTED.parse(
            b"2\n2 3 4 0\n1 5 7 8\n9 6 10 12\n13 14 11 15\n13 1 2 4\n5 0 3 7\n9 6 10 12\n15 8 11 14\n",
        );
        assert!(input.problems.is_empty());
        let q = queries(&input);
        assert_eq!(q.len(), 2);
        assert_eq!(
            q[0],
            Query::sliding(
                &"2 3 4 0 1 5 7 8 9 6 10 12 13 14 11 15"
                    .parse::<Board4>()
                    .unwrap(),
                &Board4::goal()
            )
        );
    }

    #[test]
    fn a_short_row_costs_only_its_board() {
        let input = FIFTEEN_COUNTED.parse(
            b"3\n2 3 4 0\n1 5 7\n9 6 10 12\n13 14 11 15\n1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 15 0\n16 1 2 3\n",
        );
        assert_eq!(
            errors(&input),
            vec![
                (
                    1,
                    2,
                    "expected 16 tiles, found 15 (lines 2 to 5: 4 + 3 + 4 + 4)".to_owned()
                ),
                (
                    3,
                    10,
                    "the input ends inside the case, after 4 of the 16 tiles".to_owned()
                )
            ]
        );
        assert!(input.cases[1].query.is_ok());
    }

    const GOOD: &str = "2 3 4 0\n1 5 7 8\n9 6 10 12\n13 14 11 15\n";
    const OTHER: &str = "13 1 2 4\n5 0 3 7\n9 6 10 12\n15 8 11 14\n";

    #[test]
    fn a_five_by_five_board_costs_only_itself() {
        for five in [
            "1 2 3 4 5\n6 7 8 9 10\n11 12 13 14 15\n16 17 18 19 20\n21 22 23 24 0\n",
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 0\n",
        ] {
            let input = FIFTEEN_COUNTED.parse(format!("3\n{GOOD}{five}{OTHER}").as_bytes());
            assert!(input.problems.is_empty(), "{:?}", input.problems);
            assert_eq!(input.cases.len(), 3, "{input:?}");
            assert!(input.cases[0].query.is_ok());
            let (number, line, message) = &errors(&input)[0];
            assert_eq!((*number, *line), (2, 6));
            assert!(
                message.starts_with("expected 16 tiles, found 25"),
                "{message}"
            );
            assert!(input.cases[2].query.is_ok(), "{input:?}");
            assert_eq!(input.cases[2].line, 6 + five.lines().count());
        }
    }

    #[test]
    fn a_row_too_long_costs_only_its_board() {
        let input = FIFTEEN_COUNTED
            .parse(format!("2\n2 3 4 0\n1 5 7 8 16\n9 6 10 12\n13 14 11 15\n{OTHER}").as_bytes());
        assert_eq!(
            errors(&input),
            vec![(
                1,
                2,
                "expected 16 tiles, found 17 (lines 2 to 5: 4 + 5 + 4 + 4)".to_owned()
            )]
        );
        assert!(input.cases[1].query.is_ok());
        assert!(input.problems.is_empty(), "{:?}", input.problems);
    }

    #[test]
    fn a_missing_row_costs_only_its_board() {
        let input = FIFTEEN_COUNTED
            .parse(format!("3\n2 3 4 0\n1 5 7 8\n13 14 11 15\n{OTHER}{GOOD}").as_bytes());
        assert_eq!(
            errors(&input),
            vec![(
                1,
                2,
                "expected 16 tiles, found 12 (lines 2 to 4: 4 + 4 + 4)".to_owned()
            )]
        );
        assert_eq!(input.cases[1].line, 5);
        assert_eq!(input.cases[2].line, 9);
        assert_eq!(queries(&input).len(), 2);
        assert!(input.problems.is_empty(), "{:?}", input.problems);
    }

    #[test]
    fn a_huge_tile_is_quoted_as_typed() {
        let input = FIFTEEN_COUNTED
            .parse(b"1\n99999999999999999999999 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0\n");
        assert_eq!(
            errors(&input),
            vec![(
                1,
                2,
                "token 1 (\"99999999999999999999999\") is out of range: expected 1..=15, or 0 for the blank"
                    .to_owned()
            )]
        );
    }

    #[test]
    fn an_empty_input_lacks_its_count() {
        for empty in ["", "  \n\n"] {
            let input = FIFTEEN_COUNTED.parse(empty.as_bytes());
            assert!(input.cases.is_empty());
            assert_eq!(
                input
                    .problems
                    .iter()
                    .map(|(line, e)| (*line, e.to_string()))
                    .collect::<Vec<_>>(),
                vec![(
                    1,
                    "the number of cases is missing: the input is empty".to_owned()
                )]
            );
        }
        let input = FIFTEEN_COUNTED.parse(b"99999999999999999999999\n");
        assert_eq!(
            errors(&input),
            vec![(
                1,
                1,
                "missing: the input ends after 0 of the 99999999999999999999999 cases the first line announced".to_owned()
            )]
        );
    }
}
