//! A load run's cases on the wire: the `solver.v2` request for each (as any client case), and the
//! check of its response: the client's own checks (moves replayed, parity), then the lengths a
//! load case knows (the optimum of a hard board, the walk that made an easy one).

use solver_proto::v2 as pb;

use super::cases::LoadCase;
use crate::family::Answer;
use crate::family::sliding::query::SlidingAnswer;
use crate::reply::ReplyError;

/// The `solver.v2` request for case `id`.
pub(crate) fn request(id: u64, case: &LoadCase) -> pb::SolveRequest {
    crate::wire::request(id as usize, &case.query)
}

/// What a reply says about its case.
#[derive(Debug)]
pub(crate) enum Verdict {
    /// A correct answer (`cached`: from the server's cache).
    Answered { cached: bool },
    /// An in-band error, with its gRPC code.
    Error { code: i32 },
    /// An answer that fails the checks.
    Wrong(String),
}

/// The case id a response answers (`None`: not one this client sends).
pub(crate) fn id(response: &pb::SolveResponse) -> Option<u64> {
    response.id.parse().ok()
}

/// Judges `response` against its case.
pub(crate) fn verdict(response: pb::SolveResponse, case: &LoadCase) -> Verdict {
    let cached = response.cached;
    let answer = match crate::wire::answer(&case.query, response) {
        Ok(answer) => answer,
        Err(ReplyError::Service { code, .. }) => return Verdict::Error { code: code as i32 },
        Err(e) => return Verdict::Wrong(format!("{}: {e}", case.query.describe())),
    };
    // A bounded answer may be longer than the walk that made its case, but what it proved of
    // the optimum may not.
    let proven = match &answer {
        Answer::Sliding(SlidingAnswer::Bounded { lower_bound, .. }) => Some(*lower_bound as usize),
        _ => None,
    };
    let wrong = match (answer.length(), case.exact, case.at_most) {
        (None, _, Some(n)) => format!("no answer, but a walk of {n} moves gets there"),
        (Some(len), Some(optimum), _) if len != optimum => {
            format!("{len} moves, the optimum is {optimum}")
        }
        (Some(len), _, Some(at_most)) => match proven {
            Some(bound) if bound > at_most => format!(
                "the optimum is said to be at least {bound}, but it can be done in {at_most}"
            ),
            None if len > at_most => format!("{len} moves, but it can be done in {at_most}"),
            _ => return Verdict::Answered { cached },
        },
        _ => return Verdict::Answered { cached },
    };
    Verdict::Wrong(format!("{}: {wrong}", case.query.describe()))
}

#[cfg(test)]
mod tests {
    use solver_core::{Board4, Move};
    use solver_proto::v2::{solution, solve_response};

    use super::*;
    use crate::family::Query;

    #[test]
    fn replies_are_judged() {
        let case = LoadCase {
            query: Query::sliding(&Board4::goal().apply(Move::Up).unwrap(), &Board4::goal()),
            exact: None,
            at_most: Some(1),
        };
        let reply = |moves: &str| pb::SolveResponse {
            id: "0".to_owned(),
            outcome: Some(solve_response::Outcome::Solution(pb::Solution {
                kind: Some(solution::Kind::Sliding(pb::SlidingSolution {
                    moves: moves.to_owned(),
                    length: moves.len() as u32,
                    lower_bound: moves.len() as u32,
                })),
            })),
            ..pb::SolveResponse::default()
        };
        assert_eq!(id(&reply("d")), Some(0));
        assert!(matches!(
            verdict(reply("d"), &case),
            Verdict::Answered { cached: false }
        ));
        assert!(matches!(verdict(reply("u"), &case), Verdict::Wrong(_)));
        assert!(matches!(verdict(reply("dud"), &case), Verdict::Wrong(_)));
        let unsolvable = pb::SolveResponse {
            outcome: Some(solve_response::Outcome::Unsolvable(
                pb::Unsolvable::default(),
            )),
            ..reply("")
        };
        assert!(matches!(verdict(unsolvable, &case), Verdict::Wrong(_)));
    }

    /// A bounded answer (the `shapes` class) may be longer than the walk that made its case;
    /// the lower bound it claims may not.
    #[test]
    fn bounded_replies_are_judged_by_what_they_prove() {
        let mut rng = crate::load::cases::Rng::new(3);
        let mut case = crate::family::sliding::load::shapes(&mut rng);
        let sliding = case.query.as_sliding().unwrap().clone();
        assert!(sliding.max_ratio.get() > 1.0);
        // One move from the target, whatever the walk was.
        let blank_moves = solver_core::Move::ALL.iter().find_map(|&mv| {
            let start = sliding.target.apply(mv)?;
            Some((start, mv))
        });
        let (start, mv) = blank_moves.unwrap();
        case.query =
            Query::Sliding(crate::family::sliding::query::SlidingQuery { start, ..sliding });
        case.at_most = Some(1);
        let back = mv.reverse().letter();
        let there = mv.letter();
        let reply = |moves: String, lower_bound: u32| pb::SolveResponse {
            id: "0".to_owned(),
            outcome: Some(solve_response::Outcome::Solution(pb::Solution {
                kind: Some(solution::Kind::Sliding(pb::SlidingSolution {
                    length: moves.len() as u32,
                    moves,
                    lower_bound,
                })),
            })),
            ..pb::SolveResponse::default()
        };
        let long = format!("{back}{there}{back}");
        assert!(matches!(
            verdict(reply(long.clone(), 1), &case),
            Verdict::Answered { .. }
        ));
        let Verdict::Wrong(why) = verdict(reply(long, 2), &case) else {
            panic!("a lower bound above a known path accepted");
        };
        assert!(why.contains("at least 2, but it can be done in 1"), "{why}");
    }
}
