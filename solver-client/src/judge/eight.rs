//! POJ 1077 / HDU 1043 / UVa 652 "Eight": 3×3 boards to the standard goal.
//!
//! POJ and HDU give boards until the end of input; UVa gives a count first and wants a blank line
//! between consecutive outputs. Any solving move string is accepted; ours is the shortest and the
//! lexicographically smallest of those.

use std::io::{self, Write as _};

use solver_core::Board3;

use super::tokens::{Group, Token, Tokens};
use super::{Format, read_cases, truncated, write_moves};
use crate::case::{Answer, Input, Query};
use crate::output::Output;

/// The 3×3 "Eight" formats.
#[derive(Debug)]
pub(crate) struct Eight {
    /// UVa 652: a count first, blank lines between outputs.
    counted: bool,
}

/// POJ 1077 and HDU 1043.
pub(crate) static EIGHT_UNTIL_EOF: Eight = Eight { counted: false };
/// UVa 652.
pub(crate) static EIGHT_COUNTED: Eight = Eight { counted: true };

impl Format for Eight {
    fn parse(&self, input: &[u8]) -> Input {
        read_cases(
            input,
            self.counted,
            |tokens, cases, count| match read_board3(tokens) {
                Some((line, board)) => {
                    let query = board.map(|start| Query::Eight {
                        start,
                        target: Board3::goal(),
                    });
                    cases.push(line, query);
                    true
                }
                None => {
                    if count.is_some() {
                        let message = truncated("tiles", 0, 9, count, cases.cases.len() + 1);
                        cases.push(tokens.line(), Err(message));
                    }
                    false
                }
            },
        )
    }

    fn render(
        &self,
        out: &mut Output,
        _number: usize,
        answer: &Answer,
    ) -> io::Result<Result<(), String>> {
        let separator: &[u8] = if self.counted && out.written() > 0 {
            b"\n"
        } else {
            b""
        };
        match answer {
            Answer::Moves(moves) => {
                out.write_all(separator)?;
                write_moves(out, moves, false)?;
            }
            Answer::Unsolvable => {
                out.write_all(separator)?;
                out.write_all(b"unsolvable\n")?;
            }
            Answer::Reachable(_) | Answer::Unreachable => {
                return Ok(Err("the service sent a Solitaire answer".to_owned()));
            }
        }
        Ok(Ok(()))
    }
}

/// Reads one 3×3 board: 9 tokens, or one packed token of 9 characters alone on its line
/// (`123x46758`). Returns its first line and the board or what is wrong with it; `None` when the
/// input has no more tokens.
pub(crate) fn read_board3(tokens: &mut Tokens<'_>) -> Option<(usize, Result<Board3, String>)> {
    let first = tokens.peek()?;
    if first.bytes.len() > 1 {
        let mut after = *tokens;
        after.next();
        if after.peek().is_none_or(|next| next.line != first.line) {
            tokens.next();
            return Some((first.line, packed_board3(&first)));
        }
    }
    Some(
        match tokens.take_group::<9, _, _>(|group| {
            Board3::from_tokens(group.iter().map(Token::text)).map_err(|e| e.to_string())
        }) {
            Group::Valid(board, line) => (line, Ok(board)),
            Group::Invalid(error, line) => (line, Err(error)),
            Group::Truncated(read, line) => (line, Err(truncated("tiles", read, 9, None, 0))),
        },
    )
}

/// A 3×3 board packed into one token of 9 characters, as HDU 3567 writes it (`12X453786`).
pub(crate) fn packed_board3(token: &Token<'_>) -> Result<Board3, String> {
    let bytes = token.bytes;
    if bytes.len() != 9 || !bytes.is_ascii() {
        return Err(format!(
            "{} is not a board: expected 9 tiles, or 9 characters packed like 12345678x",
            token.quoted()
        ));
    }
    let text = token.text();
    Board3::from_tokens((0..9).map(|i| &text[i..=i]))
        .map_err(|e| format!("{}: {e}", token.quoted()))
}

#[cfg(test)]
mod tests {
    use super::*;
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
                Query::Eight {
                    start: board("2 3 4 1 5 0 7 6 8"),
                    target: Board3::goal()
                },
                Query::Eight {
                    start: Board3::goal(),
                    target: Board3::goal()
                },
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
        assert!(input.problems[0].1.contains("expected the number of cases"));
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
                .contains("\"12345678\" is not a board")
        );
        assert!(input.cases[1].query.is_err());
        assert!(input.cases[2].query.is_ok());
    }
}
