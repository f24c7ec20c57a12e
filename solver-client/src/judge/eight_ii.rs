//! HDU 3567 "Eight II": any start to any target, exact output.
//!
//! The answer is unique: the minimum number of moves, then the lexicographically smallest move
//! string of that length, which is what the service returns.

use std::io::{self, Write as _};

use super::eight::packed_board3;
use super::{Format, read_cases, read_group_case, write_moves};
use crate::case::{Answer, Input, Query};
use crate::output::Output;

/// The HDU 3567 format.
#[derive(Debug)]
pub(crate) struct EightII;

impl Format for EightII {
    fn parse(&self, input: &[u8]) -> Input {
        read_cases(input, true, |tokens, cases, count| {
            read_group_case::<2>(tokens, cases, count, "boards", |pair| {
                let start = pair
                    .first()
                    .map(packed_board3)
                    .ok_or("the start board is missing")?
                    .map_err(|e| format!("start: {e}"))?;
                let target = pair
                    .get(1)
                    .map(packed_board3)
                    .ok_or("the target board is missing")?
                    .map_err(|e| format!("target: {e}"))?;
                Ok(Query::Eight { start, target })
            })
        })
    }

    fn render(
        &self,
        out: &mut Output,
        number: usize,
        answer: &Answer,
    ) -> io::Result<Result<(), String>> {
        match answer {
            Answer::Moves(moves) => {
                writeln!(out, "Case {number}: {}", moves.len())?;
                write_moves(out, moves, false)?;
                Ok(Ok(()))
            }
            Answer::Unsolvable => Ok(Err(
                "the start cannot reach the target (their permutation parities differ); \
                 HDU 3567 promises a solution, so there is nothing to print"
                    .to_owned(),
            )),
            Answer::Reachable(_) | Answer::Unreachable => {
                Ok(Err("the service sent a Solitaire answer".to_owned()))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
            Query::Eight {
                start: "1 2 0 4 5 3 7 8 6".parse::<Board3>().unwrap(),
                target: Board3::goal()
            }
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
                (
                    2,
                    4,
                    "start: \"1\" is not a board: expected 9 tiles, or 9 characters packed like 12345678x".to_owned()
                ),
            ]
        );
        assert_eq!(input.cases.len(), 3);
        assert!(input.cases[2].query.is_ok());
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
                .starts_with("missing: the input ends after 1 of the 3 cases")
        );
    }
}
