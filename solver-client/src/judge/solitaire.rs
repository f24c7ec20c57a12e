//! POJ 1198 / HDU 1401 "Solitaire": can the end position be reached within 8 moves?
//!
//! Each case is two lines of 8 numbers, `r1 c1 .. r4 c4` for the start and then for the end,
//! pieces in any order. POJ gives one case and HDU cases until the end of input; both read the
//! same way. The answer, `YES` or `NO`, is unique.

use std::io::{self, Write as _};

use solver_core::solitaire::{DEFAULT_MAX_MOVES, Position, Square};

use super::tokens::{Group, Token, Tokens};
use super::{Format, truncated};
use crate::case::{Answer, Input, Query};
use crate::output::Output;

/// One Solitaire question: from `start`, reach `end` within `max_moves`?
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Pair {
    /// The start position.
    pub(crate) start: Position,
    /// The end position.
    pub(crate) end: Position,
    /// The move limit.
    pub(crate) max_moves: u32,
}

/// The Solitaire formats.
#[derive(Debug)]
pub(crate) struct Solitaire;

/// POJ 1198 and HDU 1401 (and the `solve solitaire` command).
pub(crate) static SOLITAIRE_UNTIL_EOF: Solitaire = Solitaire;

impl Format for Solitaire {
    fn parse(&self, input: &[u8]) -> Input {
        parse_with_limit(input, DEFAULT_MAX_MOVES)
    }

    fn render(
        &self,
        out: &mut Output,
        _number: usize,
        answer: &Answer,
    ) -> io::Result<Result<(), String>> {
        match answer {
            Answer::Reachable(_) => out.write_all(b"YES\n")?,
            Answer::Unreachable => out.write_all(b"NO\n")?,
            Answer::Moves(_) | Answer::Unsolvable => {
                return Ok(Err("the service sent a sliding-tile answer".to_owned()));
            }
        }
        Ok(Ok(()))
    }
}

/// Reads pairs of positions until the end of input, each to be solved within `max_moves`.
pub(crate) fn parse_with_limit(input: &[u8], max_moves: u32) -> Input {
    let mut tokens = Tokens::new(input);
    let mut cases = Input::default();
    while tokens.peek().is_some() {
        let (line, query) = match tokens.take_group::<16, _, _>(|group| {
            let (start, end) = group.split_at(group.len().min(8));
            Ok(Query::Solitaire(Pair {
                start: pieces(start).map_err(|e| format!("start: {e}"))?,
                end: pieces(end).map_err(|e| format!("end: {e}"))?,
                max_moves,
            }))
        }) {
            Group::Valid(query, line) => (line, Ok(query)),
            Group::Invalid(error, line) => (line, Err(error)),
            Group::Truncated(read, line) => (line, Err(truncated("numbers", read, 16, None, 0))),
        };
        cases.push(line, query);
    }
    cases
}

/// Four pieces from 8 numbers `r1 c1 .. r4 c4`.
fn pieces(tokens: &[Token<'_>]) -> Result<Position, String> {
    if tokens.len() != 8 {
        return Err(format!(
            "expected 8 numbers (row and column of 4 pieces), found {}",
            tokens.len()
        ));
    }
    let mut squares = [Square::new(1, 1).expect("a square on the board"); 4];
    for (piece, pair) in tokens.chunks(2).enumerate() {
        let coordinate = |token: &Token<'_>| {
            token
                .number()
                .map(|n| u32::try_from(n).unwrap_or(u32::MAX))
                .ok_or_else(|| {
                    format!(
                        "piece {}: {} is not a row or column number 1..=8",
                        piece + 1,
                        token.quoted()
                    )
                })
        };
        let (row, col) = (coordinate(&pair[0])?, coordinate(&pair[1])?);
        squares[piece] = Square::new(row, col).map_err(|e| format!("piece {}: {e}", piece + 1))?;
    }
    Position::new(&squares).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::tests::{errors, queries};

    #[test]
    fn reads_the_sample() {
        let input = SOLITAIRE_UNTIL_EOF
            .parse(b"4 4 4 5 5 4 6 5\n2 4 3 3 3 6 4 6\n4 4 4 5 5 4 6 5\n4 4 4 5 5 4 6 5\n");
        assert!(input.problems.is_empty());
        let q = queries(&input);
        assert_eq!(q.len(), 2);
        let Query::Solitaire(pair) = &q[0] else {
            panic!("{q:?}")
        };
        assert_eq!(pair.max_moves, 8);
        assert_eq!(pair.start.to_string(), "4 4 4 5 5 4 6 5");
    }

    #[test]
    fn bad_positions_are_named_and_the_rest_read() {
        let input = SOLITAIRE_UNTIL_EOF.parse(
            b"4 4 4 5 5 4 6 9\n2 4 3 3 3 6 4 6\n4 4 4 4 5 4 6 5\n1 1 1 2 1 3 1 4\n1 1 1 2\n",
        );
        let errors = errors(&input);
        assert_eq!(errors.len(), 3, "{errors:?}");
        assert!(errors[0].2.starts_with("start: piece 4: "), "{errors:?}");
        assert_eq!(errors[0].1, 1);
        assert!(errors[1].2.starts_with("start: "), "{errors:?}");
        assert_eq!(
            errors[2],
            (
                3,
                5,
                "the input ends inside the case, after 4 of the 16 numbers".to_owned()
            )
        );
    }

    #[test]
    fn a_short_line_costs_only_its_case() {
        let input = SOLITAIRE_UNTIL_EOF
            .parse(b"4 4 4 5 5 4 6\n2 4 3 3 3 6 4 6\n4 4 4 5 5 4 6 5\n4 4 4 5 5 4 6 5\n");
        // The short line and its partner are cut at the first full pair that follows.
        assert!(input.cases[0].query.is_err());
        assert!(input.cases.last().unwrap().query.is_ok(), "{input:?}");
    }
}
