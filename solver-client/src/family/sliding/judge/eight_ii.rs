//! HDU 3567 "Eight II": any start to any target, exact output.
//!
//! The answer is unique: the minimum number of moves, then the lexicographically smallest move
//! string of that length, which is what the service returns.

use std::io::Write as _;
use std::ops::ControlFlow;

use super::eight::packed_board3;
use super::{optimal, write_moves};
use crate::family::Query;
use crate::family::sliding::query::SlidingAnswer;
use crate::judge::format::{FamilyFormat, Item, RenderError, read_cases};
use crate::judge::recovery::Layout;
use crate::judge::source::Source;
use crate::judge::tokens::Token;
use crate::output::Output;
use crate::read_error::ReadError;

/// The HDU 3567 format.
#[derive(Debug)]
pub(crate) struct EightII;

/// A case is two packed boards, start and target, each on a line of its own; either line could
/// begin a case, so a malformed case takes two lines, and a line is never a whole case unless
/// both its boards are valid.
const LAYOUT: Layout = Layout {
    tokens: 2,
    what: "boards",
    lines: 2,
    one_line: false,
    row: None,
};

/// The start and target boards of a case.
fn pair(boards: &[Token]) -> Result<Query, ReadError> {
    let [start, target] = boards else {
        return Err(ReadError::Boards(boards.len()));
    };
    let start = packed_board3(start).map_err(|e| e.within("start"))?;
    let target = packed_board3(target).map_err(|e| e.within("target"))?;
    Ok(Query::sliding(&start, &target))
}

impl FamilyFormat for EightII {
    type FamilyAnswer = SlidingAnswer;

    fn cases(&self, input: &Source, out: &mut dyn FnMut(Item) -> ControlFlow<()>) {
        read_cases(input, true, LAYOUT, |at| at.attempt(2, pair), pair, out);
    }

    fn write(
        &self,
        out: &mut Output,
        number: usize,
        answer: &SlidingAnswer,
    ) -> Result<(), RenderError> {
        let Some(moves) = optimal(answer)? else {
            return Err(RenderError::Unprintable(
                "the start cannot reach the target (their permutation parities differ); \
                 HDU 3567 promises a solution, so there is nothing to print",
            ));
        };
        writeln!(out, "Case {number}: {}", moves.len())?;
        write_moves(out, moves, false)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::Format as _;
    use crate::judge::tests::{errors, queries};
    use solver_core::Board3;

    #[test]
    fn reads_packed_pairs_in_either_case() {
        let input = EightII.parse(b"2\n12X453786\n12345678X\n564178x23\n7568X4123\n");
        assert!(input.problems.is_empty());
        let q = queries(&input);
        assert_eq!(q.len(), 2);
        assert_eq!(
            q[0],
            Query::sliding(
                &"1 2 0 4 5 3 7 8 6".parse::<Board3>().unwrap(),
                &Board3::goal()
            )
        );
    }

    #[test]
    fn bad_pairs_name_the_board_and_the_rest_are_read() {
        let input = EightII.parse(b"3\n12X453786\n12345678\n1 2\n12X453786\n12345678X\n");
        assert_eq!(
            errors(&input),
            vec![
                (
                    1,
                    2,
                    "target: \"12345678\" is not a board: expected 9 tiles, or 9 characters packed like 12345678x".to_owned()
                ),
                // A board is a line: `1 2` and the next line are a case, and the last line is
                // short of a case.
                (
                    2,
                    4,
                    "expected 2 boards, found 3 (lines 4 to 5: 2 + 1)".to_owned()
                ),
                (
                    3,
                    6,
                    "the input ends inside the case, after 1 of the 2 boards".to_owned()
                ),
            ]
        );
        let input = EightII.parse(b"2\n12X453786\n12345678\n564178X23\n7568X4123\n");
        assert_eq!(errors(&input).len(), 1);
        assert!(input.cases[1].query.is_ok());
    }

    #[test]
    fn truncated_input_is_reported() {
        let input = EightII.parse(b"2\n12X453786\n12345678X\n564178X23\n");
        assert_eq!(
            errors(&input),
            vec![(
                2,
                4,
                "the input ends inside the case, after 1 of the 2 boards".to_owned()
            )]
        );
        let input = EightII.parse(b"3\n12X453786\n12345678X\n");
        assert_eq!(input.cases.len(), 2);
        assert!(
            input.cases[1]
                .query
                .as_ref()
                .unwrap_err()
                .to_string()
                .starts_with("missing: the input ends after 1 of the 3 cases")
        );
    }

    #[test]
    fn a_line_too_long_costs_only_its_case() {
        // A board is a line, so the line with a token too many is a start board, and the next
        // line its target.
        let input = EightII
            .parse(b"3\n12X453786 5\n12345678X\n564178X23\n7568X4123\n12X453786\n12345678X\n");
        assert_eq!(
            errors(&input),
            vec![(
                1,
                2,
                "expected 2 boards, found 3 (lines 2 to 3: 2 + 1)".to_owned()
            )]
        );
        assert_eq!(input.cases.len(), 3);
        assert_eq!(input.cases[1].line, 4);
        assert_eq!(input.cases[2].line, 6);
        assert!(input.problems.is_empty(), "{:?}", input.problems);
        // Both boards of a case on one line are still read.
        let input = EightII.parse(b"1\n12X453786 12345678X\n");
        assert_eq!(queries(&input).len(), 1);
    }

    #[test]
    fn a_short_line_costs_only_its_case() {
        let input =
            EightII.parse(b"3\n12X45378\n12345678X\n564178X23\n7568X4123\n12X453786\n12345678X\n");
        assert_eq!(errors(&input).len(), 1, "{input:?}");
        assert_eq!(queries(&input).len(), 2);
        assert!(input.problems.is_empty(), "{:?}", input.problems);
    }
}
