//! Checking a player's moves: are they legal, do they reach the target, how far from optimal.

use super::board::Move;
use super::slide::Slide;

/// The verdict on a sequence of moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    /// Every move keeps the blank on the board.
    pub legal: bool,
    /// The index of the first move that would take the blank off the board; the replay stops
    /// there.
    pub first_illegal: Option<usize>,
    /// Every move is legal and the last one leaves the target.
    pub reaches_target: bool,
    /// The number of moves given.
    pub length: usize,
    /// The optimal number of moves from the start to the target.
    pub optimal_length: usize,
    /// `length - optimal_length` when the moves are legal and reach the target, else 0.
    pub excess: usize,
}

/// Replays `moves` from `start` and judges them against `target`, whose optimal distance from
/// `start` is `optimal_length`.
///
/// ```
/// use solver_core::{Board3, parse_moves, tiles::verify::verdict};
/// let start: Board3 = "1 2 3 4 5 6 7 x 8".parse().unwrap();
/// let judged = verdict(&start, &Board3::goal(), &parse_moves("rlr").unwrap(), 1);
/// assert!(judged.legal && judged.reaches_target);
/// assert_eq!(judged.excess, 2);
/// let judged = verdict(&start, &Board3::goal(), &parse_moves("dr").unwrap(), 1);
/// assert_eq!(judged.first_illegal, Some(0));
/// ```
#[must_use]
pub fn verdict<B: Slide>(start: &B, target: &B, moves: &[Move], optimal_length: usize) -> Verdict {
    let mut board = start.clone();
    let mut first_illegal = None;
    for (index, &mv) in moves.iter().enumerate() {
        match board.slide(mv) {
            Some(next) => board = next,
            None => {
                first_illegal = Some(index);
                break;
            }
        }
    }
    let reaches_target = first_illegal.is_none() && board == *target;
    Verdict {
        legal: first_illegal.is_none(),
        first_illegal,
        reaches_target,
        length: moves.len(),
        optimal_length,
        excess: if reaches_target {
            moves.len().saturating_sub(optimal_length)
        } else {
            0
        },
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::Board3;

    fn board3() -> impl Strategy<Value = Board3> {
        Just((0u8..9).collect::<Vec<_>>())
            .prop_shuffle()
            .prop_map(|cells| Board3::from_cells(&cells).unwrap())
    }

    fn moves() -> impl Strategy<Value = Vec<Move>> {
        proptest::collection::vec(proptest::sample::select(Move::ALL.to_vec()), 0..40)
    }

    /// A plain step-by-step replay, the oracle.
    fn walk(start: Board3, moves: &[Move]) -> (Option<usize>, Board3) {
        let mut board = start;
        for (i, &mv) in moves.iter().enumerate() {
            let blank = board.blank();
            let (row, col) = (blank / 3, blank % 3);
            let to = match mv {
                Move::Up if row > 0 => blank - 3,
                Move::Down if row < 2 => blank + 3,
                Move::Left if col > 0 => blank - 1,
                Move::Right if col < 2 => blank + 1,
                _ => return (Some(i), board),
            };
            let mut cells = board.cells().to_vec();
            cells.swap(blank, to);
            board = Board3::from_cells(&cells).unwrap();
        }
        (None, board)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn verdicts_match_a_plain_replay(start in board3(), moves in moves(), to_end in any::<bool>(), other in board3()) {
            let (illegal, end) = walk(start, &moves);
            // Half the time the target is where the moves end, so that reaching it is tested.
            let target = if to_end { end } else { other };
            let optimal = crate::tiles::eight::test_tables().solve(&start, &target).map_or(0, |m| m.len());
            let judged = verdict(&start, &target, &moves, optimal);
            prop_assert_eq!(judged.first_illegal, illegal);
            prop_assert_eq!(judged.legal, illegal.is_none());
            prop_assert_eq!(judged.reaches_target, illegal.is_none() && end == target);
            prop_assert_eq!(judged.length, moves.len());
            if judged.reaches_target {
                prop_assert!(moves.len() >= optimal);
                prop_assert_eq!(judged.excess, moves.len() - optimal);
                prop_assert_eq!(judged.excess % 2, 0);
            } else {
                prop_assert_eq!(judged.excess, 0);
            }
        }
    }
}
