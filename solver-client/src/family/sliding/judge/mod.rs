//! The sliding family's judge formats: the 3×3 "Eight" ones (`eight.rs`), HDU 3567 "Eight II"
//! (`eight_ii.rs`) and the 4×4 UVa 10181 (`fifteen.rs`); and what they share: boards from
//! tokens, and move strings out.

pub(crate) mod eight;
pub(crate) mod eight_ii;
pub(crate) mod fifteen;

use std::io;

use solver_core::Move;

use super::query::SlidingAnswer;
use crate::judge::format::RenderError;
use crate::judge::tokens::Token;
use crate::output::Output;
use crate::read_error::ReadError;

/// A sliding-tile board from its tiles' tokens. A number out of range is quoted as it was typed
/// (solver-core shows the number it read, which saturates for very long ones).
pub(crate) fn board_from_tokens<const W: usize>(
    tokens: &[Token],
) -> Result<solver_core::Board<W>, ReadError> {
    solver_core::Board::<W>::from_tokens(tokens.iter().map(Token::text)).map_err(|e| match e {
        solver_core::BoardError::OutOfRange { index, value, max }
            if tokens
                .get(index)
                .is_some_and(|token| token.text() != value.to_string()) =>
        {
            ReadError::OutOfRange {
                index: index + 1,
                token: tokens[index].quoted(),
                max,
            }
        }
        e => ReadError::Board(e),
    })
}

/// What a judge prints of `answer`: its moves, or `None` when the start cannot reach the
/// target. The judges print optimal answers only: a bounded one is refused, not printed.
pub(crate) fn optimal(answer: &SlidingAnswer) -> Result<Option<&[Move]>, RenderError> {
    match answer {
        SlidingAnswer::Moves(moves) => Ok(Some(moves)),
        SlidingAnswer::Unsolvable => Ok(None),
        SlidingAnswer::Bounded { .. } => Err(RenderError::Unprintable(
            "the service sent an answer not proven optimal",
        )),
    }
}

/// Writes a move string and a newline: lowercase letters from solver-core, or uppercase.
pub(crate) fn write_moves(out: &mut Output, moves: &[Move], uppercase: bool) -> io::Result<()> {
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
