//! Hints: the optimal distance of a position and the grade of every legal move from it.
//!
//! A move always changes the optimal distance by exactly one (the puzzle's graph is bipartite:
//! every move flips the blank's colour on the chessboard), so a move is either on an optimal
//! path (`distance - 1` after it) or not (`distance + 1`). The optimal answer that is
//! lexicographically smallest already settles most moves: its first move is on an optimal path,
//! and every move before it in `d < l < r < u` order is not (or the answer would start with
//! it). Only the moves after it need a search of their own ([`Grades::unknown`]).

use super::board::Move;
use super::eight;
use super::slide::Slide;
use crate::Board3;

/// One legal move and the optimal distance to the target after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HintMove {
    /// The direction the blank moves.
    pub mv: Move,
    /// The optimal distance to the target after the move.
    pub distance_after: u32,
}

/// The optimal distance of a position and every legal move from it, best first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hint {
    /// The optimal distance from the position to the target.
    pub distance: u32,
    /// Every legal move (two to four), by `distance_after`, ties in `d < l < r < u` order.
    pub moves: Vec<HintMove>,
}

/// The legal moves of a position graded from its optimal, lexicographically smallest answer:
/// each with the board after it and its distance where the answer settles it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grades<B> {
    distance: u32,
    moves: Vec<(Move, B, Option<u32>)>,
}

impl<B: Slide> Grades<B> {
    /// Grades the legal moves from `start` given `answer`, its optimal and lexicographically
    /// smallest answer (empty when `start` is the target).
    ///
    /// ```
    /// use solver_core::{Board3, Move, eight::Tables, tiles::hint::Grades};
    /// let start: Board3 = "1 2 3 4 5 6 7 x 8".parse().unwrap();
    /// let answer = Tables::new().solve(&start, &Board3::goal()).unwrap();
    /// let grades = Grades::from_answer(&start, &answer);
    /// // `r` is the answer; `l` comes before it, so it is not optimal; `u` needs a search.
    /// assert_eq!(grades.unknown().map(|(mv, _)| mv).collect::<Vec<_>>(), [Move::Up]);
    /// ```
    #[must_use]
    pub fn from_answer(start: &B, answer: &[Move]) -> Self {
        let distance = u32::try_from(answer.len()).expect("answers are short");
        let first = answer.first().copied();
        let moves = Move::ALL
            .iter()
            .filter_map(|&mv| start.slide(mv).map(|board| (mv, board)))
            .map(|(mv, board)| {
                let known = match first {
                    None => Some(1),
                    Some(best) if mv == best => Some(distance - 1),
                    Some(best) if mv < best => Some(distance + 1),
                    Some(_) => None,
                };
                (mv, board, known)
            })
            .collect();
        Self { distance, moves }
    }

    /// The optimal distance of the position.
    #[must_use]
    pub fn distance(&self) -> u32 {
        self.distance
    }

    /// The moves whose distance the answer does not settle, and the board after each: search
    /// each of them and [`settle`](Self::settle) it.
    pub fn unknown(&self) -> impl Iterator<Item = (Move, B)> + '_ {
        self.moves
            .iter()
            .filter(|(_, _, known)| known.is_none())
            .map(|(mv, board, _)| (*mv, board.clone()))
    }

    /// Records the optimal distance after `mv` (a legal move), found by a search.
    pub fn settle(&mut self, mv: Move, distance_after: u32) {
        if let Some(entry) = self.moves.iter_mut().find(|(m, _, _)| *m == mv) {
            entry.2 = Some(distance_after);
        }
    }

    /// The hint, once every move is settled; `None` while some are not.
    #[must_use]
    pub fn hint(&self) -> Option<Hint> {
        let moves = self
            .moves
            .iter()
            .map(|&(mv, _, known)| known.map(|distance_after| HintMove { mv, distance_after }))
            .collect::<Option<Vec<_>>>()?;
        Some(Hint {
            distance: self.distance,
            moves: rank(moves),
        })
    }
}

/// Orders graded moves best first: by distance after the move, ties in `d < l < r < u` order.
#[must_use]
pub fn rank(mut moves: Vec<HintMove>) -> Vec<HintMove> {
    moves.sort_by_key(|m| (m.distance_after, m.mv));
    moves
}

/// The hint for a 3×3 position and target, from `tables`; `None` when the target cannot be
/// reached.
///
/// ```
/// use solver_core::{Board3, Move, eight::Tables, tiles::hint};
/// let start: Board3 = "1 2 3 4 5 6 7 x 8".parse().unwrap();
/// let hint = hint::eight(&Tables::new(), &start, &Board3::goal()).unwrap();
/// assert_eq!(hint.distance, 1);
/// assert_eq!((hint.moves[0].mv, hint.moves[0].distance_after), (Move::Right, 0));
/// ```
#[must_use]
pub fn eight(tables: &eight::Tables, start: &Board3, target: &Board3) -> Option<Hint> {
    let answer = tables.solve(start, target)?;
    let mut grades = Grades::from_answer(start, &answer);
    let unknown: Vec<_> = grades.unknown().collect();
    for (mv, board) in unknown {
        let after = tables
            .solve(&board, target)
            .expect("a move keeps the target reachable");
        grades.settle(mv, u32::try_from(after.len()).expect("answers are short"));
    }
    grades.hint()
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use proptest::prelude::*;

    use super::*;
    use crate::tiles::eight::test_tables;

    /// Exact distances to `target` of every board of its class, by plain BFS.
    fn distances(target: Board3) -> HashMap<Board3, u32> {
        crate::tiles::bfs::distances(target, u32::MAX)
    }

    fn board3() -> impl Strategy<Value = Board3> {
        Just((0u8..9).collect::<Vec<_>>())
            .prop_shuffle()
            .prop_map(|cells| Board3::from_cells(&cells).unwrap())
    }

    #[test]
    fn at_the_target_every_move_is_one_away() {
        let hint = eight(test_tables(), &Board3::goal(), &Board3::goal()).unwrap();
        assert_eq!(hint.distance, 0);
        assert_eq!(
            hint.moves,
            [
                HintMove {
                    mv: Move::Left,
                    distance_after: 1
                },
                HintMove {
                    mv: Move::Up,
                    distance_after: 1
                }
            ]
        );
    }

    #[test]
    fn unreachable_targets_have_no_hint() {
        let swapped = Board3::from_cells(&[2u8, 1, 3, 4, 5, 6, 7, 8, 0]).unwrap();
        assert_eq!(eight(test_tables(), &swapped, &Board3::goal()), None);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// Every distance equals the BFS oracle's, every legal move is listed once, best first.
        #[test]
        fn hints_match_the_bfs_oracle(start in board3(), target in board3()) {
            let hint = eight(test_tables(), &start, &target);
            prop_assert_eq!(hint.is_some(), start.can_reach(&target));
            let Some(hint) = hint else { return Ok(()) };
            let dist = distances(target);
            prop_assert_eq!(hint.distance, dist[&start]);
            let legal: Vec<Move> = Move::ALL.into_iter().filter(|&m| start.apply(m).is_some()).collect();
            let mut listed: Vec<Move> = hint.moves.iter().map(|m| m.mv).collect();
            listed.sort();
            prop_assert_eq!(listed, legal);
            for m in &hint.moves {
                prop_assert_eq!(m.distance_after, dist[&start.apply(m.mv).unwrap()]);
            }
            for pair in hint.moves.windows(2) {
                prop_assert!((pair[0].distance_after, pair[0].mv) < (pair[1].distance_after, pair[1].mv));
            }
            if hint.distance > 0 {
                let answer = test_tables().solve(&start, &target).unwrap();
                prop_assert_eq!(hint.moves[0].mv, answer[0]);
            }
        }
    }
}
