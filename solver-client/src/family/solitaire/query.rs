//! A Solitaire question and the service's answer to it, once checked.

use solver_core::solitaire::{Position, Step};

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

/// The service's answer to a [`Pair`], already checked against it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SolitaireAnswer {
    /// The end is reachable in these moves (replayed by the client: they reach the end).
    Reachable(Vec<Step>),
    /// The end is not reachable within the limit.
    Unreachable,
}

impl SolitaireAnswer {
    /// How many moves the answer takes; `None`: unreachable.
    pub(crate) fn length(&self) -> Option<usize> {
        match self {
            SolitaireAnswer::Reachable(steps) => Some(steps.len()),
            SolitaireAnswer::Unreachable => None,
        }
    }
}

/// `count` cases between random positions (at most 8 moves), numbered as a judge input of two
/// lines per case would be.
#[cfg(test)]
pub(crate) fn random_cases(count: usize) -> Vec<crate::case::Case> {
    use solver_core::solitaire::Square;

    use crate::random::Draws as _;

    let mut rng = crate::random::Lcg::new(7);
    let mut position = || {
        let squares: Vec<Square> = rng
            .distinct(4, 64)
            .into_iter()
            .map(|s| Square::new(s as u32 / 8 + 1, s as u32 % 8 + 1).unwrap())
            .collect();
        Position::new(&squares).unwrap()
    };
    (1..=count)
        .map(|number| crate::case::Case {
            number,
            line: 2 * number - 1,
            query: Ok(crate::family::Query::Solitaire(Pair {
                start: position(),
                end: position(),
                max_moves: 8,
            })),
        })
        .collect()
}
