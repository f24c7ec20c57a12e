//! POJ 1198 / HDU 1401 "Solitaire": can the end position be reached within 8 moves?
//!
//! Each case is two lines of 8 numbers, `r1 c1 .. r4 c4` for the start and then for the end,
//! pieces in any order. POJ gives one case and HDU cases until the end of input; both read the
//! same way. The answer, `YES` or `NO`, is unique.

use std::io::Write as _;
use std::ops::ControlFlow;

use solver_core::solitaire::{DEFAULT_MAX_MOVES, Position, PositionError, Square};

use super::query::{Pair, SolitaireAnswer};
use crate::case::Input;
use crate::family::Query;
use crate::judge::format::{FamilyFormat, Item, RenderError, collect, read_cases};
use crate::judge::recovery::Layout;
use crate::judge::source::Source;
use crate::judge::tokens::Token;
use crate::output::Output;
use crate::read_error::{FamilyError, ReadError};

/// The Solitaire formats.
#[derive(Debug)]
pub(crate) struct Solitaire;

/// POJ 1198 and HDU 1401 (and the `solve solitaire` command).
pub(crate) static SOLITAIRE_UNTIL_EOF: Solitaire = Solitaire;

impl FamilyFormat for Solitaire {
    type FamilyAnswer = SolitaireAnswer;

    fn cases(&self, input: &Source, out: &mut dyn FnMut(Item) -> ControlFlow<()>) {
        read_with_limit(input, DEFAULT_MAX_MOVES, out);
    }

    fn write(
        &self,
        out: &mut Output,
        _number: usize,
        answer: &SolitaireAnswer,
    ) -> Result<(), RenderError> {
        match answer {
            SolitaireAnswer::Reachable(_) => out.write_all(b"YES\n")?,
            SolitaireAnswer::Unreachable => out.write_all(b"NO\n")?,
        }
        Ok(())
    }
}

/// Why a case's numbers are not two Solitaire positions.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum Unreadable {
    /// Not 16 numbers.
    #[error("expected 16 numbers (start and end, each the row and column of 4 pieces), found {0}")]
    Positions(usize),
    /// Not 8 numbers for one position.
    #[error("expected 8 numbers (row and column of 4 pieces), found {0}")]
    Pieces(usize),
    /// A coordinate that is not 1..=8 (quoted).
    #[error("piece {piece}: {token} is not a row or column number 1..=8")]
    Coordinate {
        /// 1-based piece.
        piece: usize,
        /// The token, quoted.
        token: String,
    },
    /// A square off the board.
    #[error("piece {piece}: {source}")]
    Square {
        /// 1-based piece.
        piece: usize,
        /// Why.
        source: PositionError,
    },
    /// Squares that are not a position.
    #[error(transparent)]
    Position(#[from] PositionError),
}

impl From<Unreadable> for ReadError {
    fn from(e: Unreadable) -> Self {
        ReadError::Family(FamilyError::new(e))
    }
}

/// A case is 16 numbers: the start on one line and the end on the next (or all on one line).
/// Either line could begin a case, so a malformed case takes two lines.
const LAYOUT: Layout = Layout {
    tokens: 16,
    what: "numbers",
    lines: 2,
    one_line: true,
    row: None,
};

/// Reads pairs of positions until the end of input, each to be solved within `max_moves`.
pub(super) fn parse_with_limit(input: &[u8], max_moves: u32) -> Input {
    collect(|out| read_with_limit(&Source::from_bytes(input), max_moves, out))
}

/// Reads pairs of positions until the end of input, each to be solved within `max_moves`,
/// handing each case to `out` as it is read.
fn read_with_limit(input: &Source, max_moves: u32, out: &mut dyn FnMut(Item) -> ControlFlow<()>) {
    let check = |group: &[Token]| {
        if group.len() != 16 {
            return Err(Unreadable::Positions(group.len()).into());
        }
        let (start, end) = group.split_at(8);
        let position = |tokens, part| pieces(tokens).map_err(|e| ReadError::from(e).within(part));
        Ok(Query::Solitaire(Pair {
            start: position(start, "start")?,
            end: position(end, "end")?,
            max_moves,
        }))
    };
    read_cases(input, false, LAYOUT, |at| at.attempt(16, check), check, out);
}

/// Four pieces from 8 numbers `r1 c1 .. r4 c4`.
fn pieces(tokens: &[Token]) -> Result<Position, Unreadable> {
    if tokens.len() != 8 {
        return Err(Unreadable::Pieces(tokens.len()));
    }
    let mut squares = [Square::new(1, 1).expect("a square on the board"); 4];
    for (piece, pair) in tokens.chunks(2).enumerate() {
        // A number that is not written plainly (too long, leading zeros) is quoted as typed.
        let coordinate = |token: &Token| {
            token
                .number()
                .and_then(|n| u32::try_from(n).ok())
                .filter(|n| n.to_string() == token.text() || (1..=8).contains(n))
                .ok_or_else(|| Unreadable::Coordinate {
                    piece: piece + 1,
                    token: token.quoted(),
                })
        };
        let (row, col) = (coordinate(&pair[0])?, coordinate(&pair[1])?);
        squares[piece] = Square::new(row, col).map_err(|source| Unreadable::Square {
            piece: piece + 1,
            source,
        })?;
    }
    Ok(Position::new(&squares)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::Format as _;
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
        let good = "4 4 4 5 5 4 6 5\n2 4 3 3 3 6 4 6\n";
        for (bad, message) in [
            (
                "4 4 4 5 5 4 6\n2 4 3 3 3 6 4 6\n",
                "expected 16 numbers, found 15 (lines 3 to 4: 7 + 8)",
            ),
            (
                "4 4 4 5 5 4 6 5\n2 4 3 3 3 6 4\n",
                "expected 16 numbers, found 15 (lines 3 to 4: 8 + 7)",
            ),
            (
                "4 4 4 5 5 4 6 5 1\n2 4 3 3 3 6 4 6\n",
                "expected 16 numbers, found 17 (lines 3 to 4: 9 + 8)",
            ),
            (
                "4 4 4 5 5 4 6 5 2 4 3 3 3 6 4 6 9\n",
                "expected 16 numbers, found 17",
            ),
        ] {
            let input = SOLITAIRE_UNTIL_EOF.parse(format!("{good}{bad}{good}{good}").as_bytes());
            assert_eq!(errors(&input), vec![(2, 3, message.to_owned())], "{bad:?}");
            assert_eq!(input.cases.len(), 4, "{bad:?}: {input:?}");
            let after = 3 + bad.lines().count();
            assert_eq!(input.cases[2].line, after, "{bad:?}");
            assert_eq!(input.cases[3].line, after + 2, "{bad:?}");
            assert_eq!(queries(&input).len(), 3, "{bad:?}");
        }
    }

    #[test]
    fn a_huge_coordinate_is_quoted_as_typed() {
        let input =
            SOLITAIRE_UNTIL_EOF.parse(b"4 4 4 5 5 4 6 99999999999999999999999\n2 4 3 3 3 6 4 6\n");
        assert_eq!(
            errors(&input),
            vec![(
                1,
                1,
                "start: piece 4: \"99999999999999999999999\" is not a row or column number 1..=8"
                    .to_owned()
            )]
        );
    }

    #[test]
    fn bad_cases_in_a_row_are_two_lines_each() {
        let input = SOLITAIRE_UNTIL_EOF.parse(
            b"4 4 4 5 5 4 6\nhello world\n4 4 4 5 5 4 6 5 1\n2 4 3 3 3 6 4 6\n4 4 4 5 5 4 6 5\n2 4 3 3 3 6 4 6\n",
        );
        let errors = errors(&input);
        assert_eq!(
            errors.iter().map(|e| (e.0, e.1)).collect::<Vec<_>>(),
            vec![(1, 1), (2, 3)],
            "{errors:?}"
        );
        assert_eq!(input.cases.len(), 3);
        assert_eq!(input.cases[2].line, 5);
        assert!(input.cases[2].query.is_ok());
    }
}
