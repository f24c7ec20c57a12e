//! The `SolveSolitaire` RPC: one bidirectional-BFS pool job per case.

use std::sync::Arc;

use crate::cache::{Answer, Cache, CacheKey};
use crate::compute::Lane;
use crate::config::Kind;
use crate::convert::{self, SolitaireCase};
use crate::engine;
use crate::errors::CaseFailure;
use crate::metrics::Outcome;
use crate::pb::{self, solitaire_reply};
use crate::service::Shared;
use crate::service::puzzle::{CaseLimits, Prepared, Puzzle};

/// `SolveSolitaire`.
#[derive(Debug)]
pub(crate) struct Solitaire;

const METHOD: &str = "bidirectional-bfs";

impl Puzzle for Solitaire {
    const KIND: Kind = Kind::Solitaire;
    const LANE: Lane = Lane::Search;
    type Request = pb::SolitaireRequest;
    type Reply = pb::SolitaireReply;
    type Case = SolitaireCase;

    fn prepare(request: pb::SolitaireRequest, shared: &Shared) -> Prepared<Self> {
        let limit = shared
            .config
            .max_solitaire_moves
            .min(engine::SOLITAIRE_MOVES_LIMIT);
        let case = match convert::solitaire_case(&request, limit, engine::SOLITAIRE_DEFAULT_MOVES) {
            Ok(case) => case,
            Err(failure) => return Prepared::Answered(convert::solitaire_failed(failure)),
        };
        let key = CacheKey::Solitaire(case.start, case.end, case.max_moves);
        match shared.cache.get(&key) {
            Some(Answer::Steps(steps)) => Prepared::Answered(convert::solitaire_solved(
                case.id,
                &steps,
                true,
                convert::no_search("cache"),
            )),
            Some(Answer::Unreachable) => Prepared::Answered(convert::solitaire_unreachable(
                case.id,
                case.max_moves,
                true,
                convert::no_search("cache"),
            )),
            _ => Prepared::Search(case),
        }
    }

    fn case_id(case: &Self::Case) -> u64 {
        case.id
    }

    fn solve(case: Self::Case, limits: &CaseLimits, cache: &Cache) -> pb::SolitaireReply {
        let stop = limits.stop(0);
        let key = CacheKey::Solitaire(case.start, case.end, case.max_moves);
        let found = engine::solve_solitaire(&case.start, &case.end, case.max_moves, &stop.stop);
        match found {
            Ok(Some((steps, stats))) => {
                let reply = convert::solitaire_solved(
                    case.id,
                    &steps,
                    false,
                    convert::stats(stats, METHOD),
                );
                cache.insert(key, Answer::Steps(Arc::from(steps)));
                reply
            }
            Ok(None) => {
                cache.insert(key, Answer::Unreachable);
                convert::solitaire_unreachable(
                    case.id,
                    case.max_moves,
                    false,
                    convert::no_search(METHOD),
                )
            }
            Err(stopped) => convert::solitaire_failed(limits.failure(case.id, &stop, stopped)),
        }
    }

    fn failed(failure: CaseFailure) -> pb::SolitaireReply {
        convert::solitaire_failed(failure)
    }

    fn outcome(reply: &pb::SolitaireReply) -> Outcome {
        match &reply.outcome {
            Some(solitaire_reply::Outcome::Solution(_)) => Outcome::Solved,
            Some(solitaire_reply::Outcome::Unreachable(_)) => Outcome::Unreachable,
            Some(solitaire_reply::Outcome::Error(error)) => Outcome::Failed(error.code.into()),
            None => Outcome::Failed(tonic::Code::Internal),
        }
    }
}
