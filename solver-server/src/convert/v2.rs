//! `solver.v2`: requests into cases, answers into responses. Field paths are those of the
//! request message (`sliding.start`, `quality.max_ratio`, `rows`).

use std::time::Duration;

use solver_core::tiles::grid::Grid;
use solver_core::tiles::grid_board::GridBoard;
use solver_core::tiles::hint::Hint;
use solver_core::tiles::verify::Verdict;
use solver_core::{Board3, Board4, Move, parse_moves};
use solver_proto::v2 as pb;
use solver_proto::v2::{solution, solve_request, solve_response};

use crate::config::Kind;
use crate::convert::{GridCase, Quality, SlidingCase, SolitaireCase};
use crate::engine::{self, Square, Step};
use crate::errors::Failure;
use crate::service::Shared;
use crate::service::any::{AnyAnswer, AnyCase};
use crate::service::grid::GridAnswer;
use crate::service::puzzle::{SlidingAnswer, SolitaireAnswer, Stats};

/// A validated start and target of a served size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Boards {
    /// 3×3.
    Eight(Board3, Board3),
    /// 4×4.
    Fifteen(Board4, Board4),
    /// Any other shape from 2×2 to 8×8.
    Grid(GridBoard, GridBoard),
}

/// The shape of a sliding board: one of the two with fast tables, or any other of 2×2 to 8×8.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// 3×3: the 8-puzzle's table.
    Eight,
    /// 4×4: the 15-puzzle's pattern databases.
    Fifteen,
    /// Any other shape: the size-generic searches.
    Other(Grid),
}

/// Reads `rows` and `cols`; the error names the one out of range.
pub(crate) fn shape(rows: u32, cols: u32) -> Result<Shape, Failure> {
    match (rows, cols) {
        (3, 3) => Ok(Shape::Eight),
        (4, 4) => Ok(Shape::Fifteen),
        _ => Grid::new(rows as usize, cols as usize)
            .map(Shape::Other)
            .map_err(|err| {
                let fits = |n: u32| (Grid::MIN..=Grid::MAX).contains(&(n as usize));
                Failure::invalid(if fits(rows) { "cols" } else { "rows" }, err.to_string())
            }),
    }
}

/// Validates a start and target of another shape (empty target = the standard goal).
fn grid_boards(
    grid: Grid,
    start: &[u32],
    target: &[u32],
) -> Result<(GridBoard, GridBoard), Failure> {
    let start =
        GridBoard::new(grid, start).map_err(|e| Failure::invalid("start", e.to_string()))?;
    let target = if target.is_empty() {
        GridBoard::goal(grid)
    } else {
        GridBoard::new(grid, target).map_err(|e| Failure::invalid("target", e.to_string()))?
    };
    Ok((start, target))
}

/// Reads a request's `quality`: absent, 0 and 1 ask for optimal; a finite ratio above 1 for an
/// answer proven within it.
fn quality(quality: Option<&pb::Quality>) -> Result<Quality, Failure> {
    let ratio = quality.map_or(0.0, |q| q.max_ratio);
    if ratio == 0.0 || ratio == 1.0 {
        Ok(Quality::Optimal)
    } else if ratio.is_finite() && ratio > 1.0 {
        Ok(Quality::Within(ratio))
    } else {
        Err(Failure::invalid(
            "quality.max_ratio",
            format!(
                "{ratio} is not a ratio: give 0 or 1 for optimal, or a number above 1 such as 1.2"
            ),
        ))
    }
}

/// Validates a sliding board's shape, start and target (empty = the standard goal).
pub(crate) fn boards(
    rows: u32,
    cols: u32,
    start: &[u32],
    target: &[u32],
) -> Result<Boards, Failure> {
    Ok(match shape(rows, cols)? {
        Shape::Eight => {
            let (start, target) = super::boards::<3>(start, target)?;
            Boards::Eight(start, target)
        }
        Shape::Fifteen => {
            let (start, target) = super::boards::<4>(start, target)?;
            Boards::Fifteen(start, target)
        }
        Shape::Other(grid) => {
            let (start, target) = grid_boards(grid, start, target)?;
            Boards::Grid(start, target)
        }
    })
}

/// Validates boards the start must be able to reach the target of (`Hint`, `Verify`): an
/// unreachable target is a bad `target`.
pub(crate) fn reachable(
    rows: u32,
    cols: u32,
    start: &[u32],
    target: &[u32],
) -> Result<Boards, Failure> {
    let boards = boards(rows, cols, start, target)?;
    let can = match &boards {
        Boards::Eight(start, target) => start.can_reach(target),
        Boards::Fifteen(start, target) => start.can_reach(target),
        Boards::Grid(start, target) => start.can_reach(target),
    };
    if can {
        Ok(boards)
    } else {
        Err(Failure::invalid(
            "target",
            format!(
                "the start can never reach this target: {}",
                super::v1::UNSOLVABLE
            ),
        ))
    }
}

/// The request's node budget (0 = the server's default).
fn node_budget(limits: Option<&pb::Limits>) -> u64 {
    limits.map_or(0, |limits| limits.node_budget)
}

/// Reads a `SolveRequest`: its id, the kind it is counted under (a request whose kind cannot be
/// told is counted as a 3×3 one), and its case.
pub(crate) fn solve_case(
    request: pb::SolveRequest,
    shared: &Shared,
) -> (String, Kind, Result<AnyCase, Failure>) {
    let kind = match &request.puzzle {
        Some(solve_request::Puzzle::Sliding(sliding)) => match shape(sliding.rows, sliding.cols) {
            Ok(Shape::Fifteen) => Kind::Fifteen,
            Ok(Shape::Other(_)) => Kind::Sliding,
            Ok(Shape::Eight) | Err(_) => Kind::Eight,
        },
        Some(solve_request::Puzzle::Solitaire(_)) => Kind::Solitaire,
        None => Kind::Eight,
    };
    let case = read_case(&request, shared);
    (request.id, kind, case)
}

fn read_case(request: &pb::SolveRequest, shared: &Shared) -> Result<AnyCase, Failure> {
    let quality = quality(request.quality.as_ref())?;
    let node_budget = node_budget(request.limits.as_ref());
    match &request.puzzle {
        None => Err(Failure::invalid(
            "puzzle",
            "no puzzle is set: set exactly one of `sliding` and `solitaire`",
        )),
        Some(solve_request::Puzzle::Sliding(sliding)) => {
            let within = |failure: Failure| failure.within("sliding");
            let (start, target) = (&sliding.start, &sliding.target);
            // 3×3 and 4×4 answers are optimal whatever the quality asked: that meets any ratio.
            Ok(match shape(sliding.rows, sliding.cols).map_err(within)? {
                Shape::Eight => {
                    let (start, target) = super::boards::<3>(start, target).map_err(within)?;
                    AnyCase::Eight(SlidingCase {
                        start,
                        target,
                        node_budget,
                    })
                }
                Shape::Fifteen => {
                    let (start, target) = super::boards::<4>(start, target).map_err(within)?;
                    AnyCase::Fifteen(SlidingCase {
                        start,
                        target,
                        node_budget,
                    })
                }
                Shape::Other(grid) => {
                    let (start, target) = grid_boards(grid, start, target).map_err(within)?;
                    AnyCase::Sliding(GridCase {
                        start,
                        target,
                        node_budget,
                        quality,
                    })
                }
            })
        }
        Some(solve_request::Puzzle::Solitaire(solitaire)) => {
            let squares = |squares: &[pb::Square]| -> Vec<(u32, u32)> {
                squares.iter().map(|s| (s.row, s.col)).collect()
            };
            let limit = shared.config.max_solitaire_moves;
            let case: SolitaireCase = super::solitaire_case(
                &squares(&solitaire.start),
                &squares(&solitaire.end),
                solitaire.max_moves,
                limit,
                engine::SOLITAIRE_DEFAULT_MOVES,
            )
            .map_err(|failure| failure.within("solitaire"))?;
            Ok(AnyCase::Solitaire(case))
        }
    }
}

/// The wire form of the work an answer cost, `elapsed` after its request was read.
pub(crate) fn stats(stats: Stats, elapsed: Duration) -> pb::SearchStats {
    pb::SearchStats {
        nodes: stats.nodes,
        iterations: stats.iterations,
        elapsed: prost_types::Duration::try_from(elapsed).ok(),
        method: stats.method.to_owned(),
    }
}

fn square(square: Square) -> pb::Square {
    pb::Square {
        row: square.row(),
        col: square.col(),
    }
}

fn solitaire_moves(steps: &[Step]) -> pb::SolitaireSolution {
    pb::SolitaireSolution {
        moves: steps
            .iter()
            .map(|step| pb::SolitaireMove {
                origin: Some(square(step.from)),
                destination: Some(square(step.to)),
            })
            .collect(),
        length: super::count(steps.len()),
    }
}

fn sliding_response(answer: SlidingAnswer, elapsed: Duration) -> pb::SolveResponse {
    match answer {
        SlidingAnswer::Solved {
            moves,
            cached,
            stats: found,
        } => {
            let length = super::count(moves.len());
            pb::SolveResponse {
                outcome: Some(solve_response::Outcome::Solution(pb::Solution {
                    kind: Some(solution::Kind::Sliding(pb::SlidingSolution {
                        moves: moves.to_string(),
                        length,
                        lower_bound: length,
                    })),
                })),
                stats: Some(stats(found, elapsed)),
                cached,
                ..pb::SolveResponse::default()
            }
        }
        SlidingAnswer::Unsolvable => pb::SolveResponse {
            outcome: Some(solve_response::Outcome::Unsolvable(pb::Unsolvable {
                reason: super::v1::UNSOLVABLE.to_owned(),
            })),
            stats: Some(stats(Stats::no_search("parity"), elapsed)),
            ..pb::SolveResponse::default()
        },
    }
}

fn grid_response(answer: GridAnswer, elapsed: Duration) -> pb::SolveResponse {
    match answer {
        GridAnswer::Solved {
            moves,
            lower_bound,
            cached,
            stats: found,
        } => pb::SolveResponse {
            outcome: Some(solve_response::Outcome::Solution(pb::Solution {
                kind: Some(solution::Kind::Sliding(pb::SlidingSolution {
                    length: super::count(moves.len()),
                    lower_bound,
                    moves: moves.to_string(),
                })),
            })),
            stats: Some(stats(found, elapsed)),
            cached,
            ..pb::SolveResponse::default()
        },
        GridAnswer::Unsolvable => sliding_response(SlidingAnswer::Unsolvable, elapsed),
    }
}

fn solitaire_response(answer: SolitaireAnswer, elapsed: Duration) -> pb::SolveResponse {
    match answer {
        SolitaireAnswer::Solved {
            steps,
            cached,
            stats: found,
        } => pb::SolveResponse {
            outcome: Some(solve_response::Outcome::Solution(pb::Solution {
                kind: Some(solution::Kind::Solitaire(solitaire_moves(&steps))),
            })),
            stats: Some(stats(found, elapsed)),
            cached,
            ..pb::SolveResponse::default()
        },
        SolitaireAnswer::Unreachable {
            max_moves,
            cached,
            stats: found,
        } => pb::SolveResponse {
            outcome: Some(solve_response::Outcome::Unreachable(pb::Unreachable {
                max_moves,
            })),
            stats: Some(stats(found, elapsed)),
            cached,
            ..pb::SolveResponse::default()
        },
    }
}

/// The response to a case answered `elapsed` after it was read. A failure is the in-band
/// `error` (`SolveStream`; a unary call ends with [`Failure::status`] instead).
pub(crate) fn solve_response(
    id: String,
    result: Result<AnyAnswer, Failure>,
    elapsed: Duration,
) -> pb::SolveResponse {
    let response = match result {
        Ok(AnyAnswer::Eight(answer) | AnyAnswer::Fifteen(answer)) => {
            sliding_response(answer, elapsed)
        }
        Ok(AnyAnswer::Solitaire(answer)) => solitaire_response(answer, elapsed),
        Ok(AnyAnswer::Sliding(answer)) => grid_response(answer, elapsed),
        Err(failure) => pb::SolveResponse {
            outcome: Some(solve_response::Outcome::Error(failure.rpc_status())),
            ..pb::SolveResponse::default()
        },
    };
    pb::SolveResponse { id, ..response }
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
    fn shapes_name_the_field_at_fault() {
        assert_eq!(shape(3, 3), Ok(Shape::Eight));
        assert_eq!(shape(4, 4), Ok(Shape::Fifteen));
        assert_eq!(shape(5, 5), Ok(Shape::Other(Grid::new(5, 5).unwrap())));
        let Err(Failure::Invalid { field, message }) = shape(9, 3) else {
            panic!("9x3 accepted");
        };
        assert_eq!(field, "rows");
        assert!(message.contains("9×3"), "{message}");
        let Err(Failure::Invalid { field, .. }) = shape(3, 1) else {
            panic!("3x1 accepted");
        };
        assert_eq!(field, "cols");
    }

    #[test]
    fn unreachable_targets_are_a_bad_target() {
        let Err(Failure::Invalid { field, .. }) =
            reachable(3, 3, &[2, 1, 3, 4, 5, 6, 7, 8, 0], &[])
        else {
            panic!("an unreachable target accepted");
        };
        assert_eq!(field, "target");
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
