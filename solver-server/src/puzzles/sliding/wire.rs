//! The sliding family's side of `solver.v2`: boards of any served shape read from requests, and
//! solutions, hints, scrambles and verdicts written as responses. Field paths are those of the
//! request message (`sliding.start`, `rows`).

use std::time::Duration;

use solver_core::tiles::grid_board::GridBoard;
use solver_core::tiles::hint::Hint;
use solver_core::tiles::verify::Verdict;
use solver_core::{Move, parse_moves};
use solver_proto::v2 as pb;
use solver_proto::v2::{solution, solve_response};

use super::UNSOLVABLE;
use super::case;
use crate::convert::v2::{answered, stats};
use crate::errors::Failure;
use crate::service::puzzle::Stats;

/// Validates boards the start must be able to reach the target of (`Hint`, `Verify`): an
/// unreachable target is a bad `target` (as the proto documents), explained as `Solve` explains
/// an unsolvable case, and saying which target was meant when the request gave none.
pub(crate) fn reachable(
    rows: u32,
    cols: u32,
    start: &[u32],
    target: &[u32],
) -> Result<(GridBoard, GridBoard), Failure> {
    let boards = case::boards(case::grid(rows, cols)?, start, target)?;
    let can = boards.0.can_reach(&boards.1);
    if can {
        Ok(boards)
    } else {
        let which = if target.is_empty() {
            "the target (the standard goal: none was given)"
        } else {
            "this target"
        };
        Err(Failure::invalid(
            "target",
            format!("unsolvable: the start can never reach {which}: {UNSOLVABLE}"),
        ))
    }
}

/// The outcome of sliding `moves` with a proven `lower_bound` on the optimal length.
pub(crate) fn sliding_solution(moves: &str, lower_bound: u32) -> solve_response::Outcome {
    solve_response::Outcome::Solution(pb::Solution {
        kind: Some(solution::Kind::Sliding(pb::SlidingSolution {
            moves: moves.to_owned(),
            length: crate::convert::count(moves.len()),
            lower_bound,
        })),
    })
}

/// The response to a sliding case whose start cannot reach its target (found by parity).
pub(crate) fn unsolvable(elapsed: Duration) -> pb::SolveResponse {
    let outcome = solve_response::Outcome::Unsolvable(pb::Unsolvable {
        reason: UNSOLVABLE.to_owned(),
    });
    answered(outcome, false, Stats::no_search("parity"), elapsed)
}

/// The response to a `Hint`.
pub(crate) fn hint_response(hint: &Hint, found: Stats, elapsed: Duration) -> pb::HintResponse {
    pb::HintResponse {
        distance: hint.distance,
        moves: hint
            .moves
            .iter()
            .map(|m| pb::HintMove {
                direction: m.mv.letter().to_string(),
                distance_after: m.distance_after,
            })
            .collect(),
        stats: Some(stats(found, elapsed)),
    }
}

/// The response to a `Scramble`.
pub(crate) fn scramble_response(
    board: &[u8],
    request: &pb::ScrambleRequest,
    sampling: pb::Sampling,
    found: Stats,
    elapsed: Duration,
) -> pb::ScrambleResponse {
    pb::ScrambleResponse {
        board: board.iter().map(|&c| u32::from(c)).collect(),
        distance: request.distance,
        seed: request.seed,
        sampling: sampling.into(),
        stats: Some(stats(found, elapsed)),
    }
}

/// Reads a `Verify`'s moves: any character but `u`, `d`, `l`, `r` (either case) is a bad
/// `moves`.
pub(crate) fn moves(text: &str) -> Result<Vec<Move>, Failure> {
    // The contract's letters are lower case, as every answer writes them; the core's reader also
    // takes upper case (for people), which a caller of the API must not come to rely on.
    if let Some((index, letter)) = text.chars().enumerate().find(|(_, c)| c.is_uppercase()) {
        return Err(Failure::invalid(
            "moves",
            format!(
                "move {} is {letter:?}: moves are the lower-case letters d, l, r, u",
                index + 1
            ),
        ));
    }
    parse_moves(text).map_err(|err| Failure::invalid("moves", err.to_string()))
}

/// The response to a `Verify`.
pub(crate) fn verify_response(
    verdict: &Verdict,
    found: Stats,
    elapsed: Duration,
) -> pb::VerifyResponse {
    let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    pb::VerifyResponse {
        legal: verdict.legal,
        first_illegal_index: verdict.first_illegal.map(count),
        reaches_target: verdict.reaches_target,
        length: count(verdict.length),
        optimal_length: count(verdict.optimal_length),
        excess: count(verdict.excess),
        stats: Some(stats(found, elapsed)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_lower_case_letters() {
        assert_eq!(moves("dlru").unwrap().len(), 4);
        let Err(Failure::Invalid { field, message }) = moves("ddU") else {
            panic!("upper case accepted");
        };
        assert_eq!(field, "moves");
        assert!(message.contains("move 3 is 'U'"), "{message}");
        assert!(moves("dx").is_err());
    }

    #[test]
    fn unreachable_targets_are_a_bad_target() {
        let swapped = [2, 1, 3, 4, 5, 6, 7, 8, 0];
        let Err(Failure::Invalid { field, message }) = reachable(3, 3, &swapped, &[]) else {
            panic!("an unreachable target accepted");
        };
        assert_eq!(field, "target");
        assert_eq!(
            message,
            format!(
                "unsolvable: the start can never reach the target (the standard goal: none was \
                 given): {UNSOLVABLE}"
            )
        );
        let goal = [1, 2, 3, 4, 5, 6, 7, 8, 0];
        let Err(Failure::Invalid { message, .. }) = reachable(3, 3, &swapped, &goal) else {
            panic!("an unreachable target accepted");
        };
        assert!(
            message.starts_with("unsolvable: the start can never reach this target: "),
            "{message}"
        );
        assert!(reachable(3, 3, &[1, 2, 3, 4, 5, 6, 7, 0, 8], &[]).is_ok());
    }

    #[test]
    fn bad_move_letters_are_a_bad_moves() {
        let Err(Failure::Invalid { field, message }) = moves("udx") else {
            panic!("x accepted");
        };
        assert_eq!(field, "moves");
        assert!(message.contains("'x'"), "{message}");
    }
}
