//! A load run's cases on the wire: the `solver.v2` request for each (as any client case), and the
//! check of its response: the client's own checks (moves replayed, parity), then the lengths a
//! load case knows (the optimum of a hard board, the walk that made an easy one).

use solver_proto::v2 as pb;

use super::cases::LoadCase;
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
    let wrong = match (answer.length(), case.exact, case.at_most) {
        (None, _, Some(n)) => format!("no answer, but a walk of {n} moves gets there"),
        (Some(len), Some(optimum), _) if len != optimum => {
            format!("{len} moves, the optimum is {optimum}")
        }
        (Some(len), _, Some(at_most)) if len > at_most => {
            format!("{len} moves, but it can be done in {at_most}")
        }
        _ => return Verdict::Answered { cached },
    };
    Verdict::Wrong(format!("{}: {wrong}", case.query.describe()))
}

#[cfg(test)]
mod tests {
    use solver_core::{Board4, Move};
    use solver_proto::v2::{solution, solve_response};

    use super::*;
    use crate::case::Query;

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
}
