//! UVa 10181 "15-Puzzle Problem": 4×4 boards to the standard goal, uppercase `LRUD` moves.
//!
//! The judge accepts any solution of at most 50 moves; ours are optimal, and every solvable
//! judge input needs at most 45 (the statement's promise).

use std::io::{self, Write as _};

use solver_core::Board4;

use super::tokens::Token;
use super::{Format, read_cases, read_group_case, write_moves};
use crate::case::{Answer, Input, Query};
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

impl Format for Fifteen {
    fn parse(&self, input: &[u8]) -> Input {
        read_cases(input, self.counted, |tokens, cases, count| {
            read_group_case::<16>(tokens, cases, count, "tiles", |group| {
                Board4::from_tokens(group.iter().map(Token::text))
                    .map(|start| Query::Fifteen { start })
                    .map_err(|e| e.to_string())
            })
        })
    }

    fn render(
        &self,
        out: &mut Output,
        _number: usize,
        answer: &Answer,
    ) -> io::Result<Result<(), String>> {
        match answer {
            Answer::Moves(moves) => write_moves(out, moves, true)?,
            Answer::Unsolvable => out.write_all(b"This puzzle is not solvable.\n")?,
            Answer::Reachable(_) | Answer::Unreachable => {
                return Ok(Err("the service sent a Solitaire answer".to_owned()));
            }
        }
        Ok(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
            Query::Fifteen {
                start: "2 3 4 0 1 5 7 8 9 6 10 12 13 14 11 15".parse().unwrap()
            }
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
                (1, 2, "expected 16 tiles, found 15".to_owned()),
                (
                    3,
                    10,
                    "the input ends inside the case, after 4 of the 16 tiles".to_owned()
                )
            ]
        );
        assert!(input.cases[1].query.is_ok());
    }
}
