//! POJ 1077 / HDU 1043 / UVa 652 "Eight": 3×3 boards to the standard goal.
//!
//! POJ and HDU give boards until the end of input; UVa gives a count first and wants a blank line
//! between consecutive outputs. Any solving move string is accepted; ours is the shortest and the
//! lexicographically smallest of those.

use std::io::Write as _;
use std::ops::ControlFlow;

use solver_core::Board3;

use super::{board_from_tokens, optimal, write_moves};
use crate::family::Query;
use crate::family::sliding::query::SlidingAnswer;
use crate::judge::attempt::{Attempt, Read};
use crate::judge::format::{FamilyFormat, Item, RenderError, read_cases};
use crate::judge::recovery::Layout;
use crate::judge::source::Source;
use crate::judge::tokens::{Token, Tokens};
use crate::output::Output;
use crate::read_error::ReadError;

/// The 3×3 "Eight" formats.
#[derive(Debug)]
pub(crate) struct Eight {
    /// UVa 652: a count first, blank lines between outputs.
    counted: bool,
    /// Whether a line is a case (judge input), so a malformed case is its line; not for the
    /// arguments of `solve`, which are one line each and may be single tiles.
    line_cases: bool,
}

/// POJ 1077 and HDU 1043.
pub(crate) static EIGHT_UNTIL_EOF: Eight = Eight {
    counted: false,
    line_cases: true,
};
/// UVa 652.
pub(crate) static EIGHT_COUNTED: Eight = Eight {
    counted: true,
    line_cases: true,
};
/// The arguments of `solve eight`, one per line.
pub(crate) static EIGHT_ARGUMENTS: Eight = Eight {
    counted: false,
    line_cases: false,
};

/// A 3×3 board is 9 tiles on one line (or split into rows of 3): a malformed board is its line.
pub(crate) const LAYOUT: Layout = Layout {
    tokens: 9,
    what: "tiles",
    lines: 1,
    one_line: true,
    row: Some(3),
};

impl FamilyFormat for Eight {
    type FamilyAnswer = SlidingAnswer;

    fn cases(&self, input: &Source, out: &mut dyn FnMut(Item) -> ControlFlow<()>) {
        let layout = if self.line_cases {
            LAYOUT
        } else {
            Layout {
                row: None,
                ..LAYOUT
            }
        };
        read_cases(
            input,
            self.counted,
            layout,
            |at| read_board3(at).map(to_goal),
            |tiles| board_from_tokens::<3>(tiles).map(to_goal),
            out,
        );
    }

    fn write(
        &self,
        out: &mut Output,
        _number: usize,
        answer: &SlidingAnswer,
    ) -> Result<(), RenderError> {
        let moves = optimal(answer)?;
        if self.counted && out.written() > 0 {
            out.write_all(b"\n")?;
        }
        match moves {
            Some(moves) => write_moves(out, moves, false)?,
            None => out.write_all(b"unsolvable\n")?,
        }
        Ok(())
    }
}

/// The query for a board to the standard goal.
fn to_goal(start: Board3) -> Query {
    Query::sliding(&start, &Board3::goal())
}

/// Reads one 3×3 board at `at`: 9 tokens, or one packed token of 9 characters alone on its line
/// (`123x46758`). Another token of several characters alone on its line is read as a packed
/// board too (and reported as not one), unless 8 one-character tiles follow it and end with a
/// line: then it is the first of 9 tiles (`99 1 2 3 4 5 6 7 8`, as `solve` passes its arguments,
/// one per line).
pub(crate) fn read_board3(at: Tokens<'_>) -> Attempt<'_, Board3, ReadError> {
    if let Some(first) = at.peek()
        && first.bytes().len() > 1
    {
        let mut after = at;
        after.next();
        let alone = after.peek().is_none_or(|next| next.line != first.line);
        // Only whether they are one-character tiles matters here: the error says nothing.
        let tiles = at.attempt(9, |group| {
            group[1..]
                .iter()
                .all(|t| t.bytes().len() == 1)
                .then_some(())
                .ok_or(())
        });
        let first_of_nine = first.bytes().len() != 9
            && matches!(&tiles.read, Read::Case { result: Ok(()), last, .. }
                if tiles.after.peek().is_none_or(|next| next.line > last.line));
        if alone && !first_of_nine {
            return Attempt {
                read: Read::Case {
                    first: first.mark(),
                    last: first.mark(),
                    result: packed_board3(&first),
                },
                after,
            };
        }
    }
    at.attempt(9, board_from_tokens::<3>)
}

/// A 3×3 board packed into one token of 9 characters, as HDU 3567 writes it (`12X453786`).
pub(crate) fn packed_board3(token: &Token) -> Result<Board3, ReadError> {
    let bytes = token.bytes();
    if bytes.len() != 9 || !bytes.is_ascii() {
        return Err(ReadError::NotPacked(token.quoted()));
    }
    let text = token.text();
    Board3::from_tokens((0..9).map(|i| &text[i..=i])).map_err(|source| ReadError::Packed {
        token: token.quoted(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::Format as _;
    use crate::judge::tests::{errors, queries};

    fn board(text: &str) -> Board3 {
        text.parse().unwrap()
    }

    #[test]
    fn reads_boards_split_and_padded_anyhow() {
        let input = EIGHT_UNTIL_EOF.parse(b"2  3  4  1  5  x  7  6  8\n1 2 3\n4 5 6 7\n8 X\n");
        assert!(input.problems.is_empty());
        assert_eq!(input.cases.len(), 2);
        assert_eq!(input.cases[1].line, 2);
        assert_eq!(
            queries(&input),
            vec![
                Query::sliding(&board("2 3 4 1 5 0 7 6 8"), &Board3::goal()),
                Query::sliding(&Board3::goal(), &Board3::goal()),
            ]
        );
    }

    #[test]
    fn uva_reads_the_count_and_packed_boards() {
        let input = EIGHT_COUNTED.parse(b"2\n\n234150786\n\n1 2 3 4 5 6 7 8 x\n");
        assert!(input.problems.is_empty(), "{:?}", input.problems);
        assert_eq!(input.cases.len(), 2);
        assert!(input.cases.iter().all(|c| c.query.is_ok()));
    }

    #[test]
    fn a_bad_board_is_reported_and_the_others_read() {
        let input = EIGHT_UNTIL_EOF.parse(
            b"1 2 3 4 5 6 7 8 x\n1 2 3 4 5 6 7 8\n1 2 3 4 5 6 7 y x\n1 2 3 4 5 6 7 8 x\n1 2\n",
        );
        assert_eq!(
            errors(&input),
            vec![
                (2, 2, "expected 9 tiles, found 8".to_owned()),
                (
                    3,
                    3,
                    "token 8 (\"y\") is not a tile: expected 1..=8, or x, X or 0 for the blank"
                        .to_owned()
                ),
                (
                    5,
                    5,
                    "the input ends inside the case, after 2 of the 9 tiles".to_owned()
                ),
            ]
        );
        assert!(input.cases[0].query.is_ok());
        assert!(input.cases[3].query.is_ok());
    }

    #[test]
    fn uva_reports_missing_cases_and_extra_text() {
        let input = EIGHT_COUNTED.parse(b"3\n1 2 3 4 5 6 7 8 x\n");
        assert_eq!(
            errors(&input),
            vec![(
                2,
                2,
                "missing: the input ends after 1 of the 3 cases the first line announced"
                    .to_owned()
            )]
        );
        let input = EIGHT_COUNTED.parse(b"1\n1 2 3 4 5 6 7 8 x\nhello\n");
        assert_eq!(input.cases.len(), 1);
        assert_eq!(input.problems.len(), 1);
        assert_eq!(input.problems[0].0, 3);
        let input = EIGHT_COUNTED.parse(b"two\n1 2 3 4 5 6 7 8 x\n");
        assert_eq!(input.cases.len(), 1);
        assert!(
            input.problems[0]
                .1
                .to_string()
                .contains("expected the number of cases")
        );
    }

    #[test]
    fn packed_boards_must_have_nine_characters() {
        let input = EIGHT_UNTIL_EOF.parse("12345678\n1234567é8x\n12345678x\n".as_bytes());
        assert_eq!(input.cases.len(), 3);
        assert!(
            input.cases[0]
                .query
                .as_ref()
                .unwrap_err()
                .to_string()
                .contains("\"12345678\" is not a board")
        );
        assert!(input.cases[1].query.is_err());
        assert!(input.cases[2].query.is_ok());
    }

    #[test]
    fn a_line_of_sixteen_numbers_is_one_bad_case() {
        let input = EIGHT_UNTIL_EOF.parse(
            b"1 2 3 4 5 6 7 8 x\n1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0\n1 2 3 4 5 6 7 x 8\n1 2 3 4 5 6 7 8 8\n",
        );
        assert_eq!(
            errors(&input),
            vec![
                (2, 2, "expected 9 tiles, found 16".to_owned()),
                (
                    4,
                    4,
                    "tile 8 appears twice (cells 8 and 9), so the blank is missing".to_owned()
                ),
            ]
        );
        assert_eq!(input.cases.len(), 4);
        assert_eq!(input.cases[2].line, 3);
        assert!(input.cases[2].query.is_ok());
    }

    #[test]
    fn a_line_one_tile_too_long_is_one_bad_case() {
        // The first 9 tokens are a board, but the tenth is not the start of another.
        let input = EIGHT_UNTIL_EOF.parse(b"1 2 3 4 5 6 7 8 x 5\n1 2 3 4 5 6 7 x 8\n");
        assert_eq!(
            errors(&input),
            vec![(1, 1, "expected 9 tiles, found 10".to_owned())]
        );
        assert_eq!(input.cases.len(), 2);
        assert!(input.cases[1].query.is_ok());
        // Two boards on one line are two cases.
        let input = EIGHT_UNTIL_EOF.parse(b"1 2 3 4 5 6 7 8 x 1 2 3 4 5 6 7 x 8\n");
        assert_eq!(queries(&input).len(), 2);
    }

    #[test]
    fn uva_counts_stay_right_after_a_bad_line() {
        let input = EIGHT_COUNTED.parse(
            b"3\n\n1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0\n\n1 2 3\n4 5 6\n7 x 8\n\n1 2 3 4 5 6 7 8\n",
        );
        assert!(input.problems.is_empty(), "{:?}", input.problems);
        assert_eq!(
            errors(&input),
            vec![
                (1, 3, "expected 9 tiles, found 16".to_owned()),
                (
                    3,
                    9,
                    "the input ends inside the case, after 8 of the 9 tiles".to_owned()
                ),
            ]
        );
        assert!(input.cases[1].query.is_ok());
    }

    #[test]
    fn a_huge_number_is_one_error_quoted_as_typed() {
        let quoted = "token 1 (\"99999999999999999999999\") is out of range: expected 1..=8, or 0 for the blank";
        // On one line, and one token per line as `solve` passes its arguments.
        for (format, input) in [
            (
                &EIGHT_UNTIL_EOF,
                "99999999999999999999999 1 2 3 4 5 6 7 8\n",
            ),
            (
                &EIGHT_ARGUMENTS,
                "99999999999999999999999\n1\n2\n3\n4\n5\n6\n7\n8",
            ),
        ] {
            let input = format.parse(input.as_bytes());
            assert_eq!(errors(&input), vec![(1, 1, quoted.to_owned())]);
        }
        // Alone, it is a packed board that is not one.
        let input = EIGHT_UNTIL_EOF.parse(b"99999999999999999999999\n");
        assert_eq!(
            errors(&input),
            vec![(
                1,
                1,
                "\"99999999999999999999999\" is not a board: expected 9 tiles, or 9 characters packed like 12345678x".to_owned()
            )]
        );
        // A small number out of range is shown as the number it is.
        let input = EIGHT_UNTIL_EOF.parse(b"1 2 3 4 5 6 7 8 10\n");
        assert_eq!(
            errors(&input)[0].2,
            "tile 10 (token 9) is out of range: expected 1..=8, or 0 for the blank"
        );
    }

    #[test]
    fn bad_lines_in_a_row_are_a_case_each() {
        let input = EIGHT_UNTIL_EOF.parse(
            b"hello world\n5 0 8 7 3 4 6 2\n1 2 3 4 5 6 7 8 9 10\n1 2 3\n1 2 3 4 5 6 7 x 8\n",
        );
        let bad = errors(&input);
        assert_eq!(
            bad.iter().map(|e| (e.0, e.1)).collect::<Vec<_>>(),
            vec![(1, 1), (2, 2), (3, 3), (4, 4)],
            "{bad:?}"
        );
        assert_eq!(bad[1].2, "expected 9 tiles, found 8");
        assert_eq!(input.cases.len(), 5);
        assert!(input.cases[4].query.is_ok());
        // A board split into rows stays one case, malformed or not.
        let input = EIGHT_UNTIL_EOF.parse(b"1 2 3\n4 5\n6 7 x\n1 2 3\n4 5 6\n7 x 8\n");
        assert_eq!(
            errors(&input),
            vec![(
                1,
                1,
                "expected 9 tiles, found 8 (lines 1 to 3: 3 + 2 + 3)".to_owned()
            )]
        );
        assert_eq!(queries(&input).len(), 1);
    }
}
