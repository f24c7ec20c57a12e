//! `solver.v2`: what every request and response has in common, whatever its puzzle. Field paths
//! are those of the request message (`quality.max_ratio`); each family reads its own part (see
//! `crate::puzzles`).

use std::time::Duration;

use solver_proto::v2 as pb;
use solver_proto::v2::solve_response;

use crate::errors::Failure;
use crate::service::puzzle::Stats;

/// How good an answer must be (`quality`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Quality {
    /// Optimal (and the lexicographically smallest of the optimal answers).
    Optimal,
    /// At most this many times the optimal length (more than 1), proven.
    Within(f64),
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

/// What a `SolveRequest` says besides its puzzle, read before it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Common {
    /// How good the answer must be.
    pub(crate) quality: Quality,
    /// The request's node budget (0 = the server's default).
    pub(crate) node_budget: u64,
}

impl Common {
    pub(crate) fn read(request: &pb::SolveRequest) -> Result<Self, Failure> {
        Ok(Self {
            quality: quality(request.quality.as_ref())?,
            node_budget: request
                .limits
                .as_ref()
                .map_or(0, |limits| limits.node_budget),
        })
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

/// A response with `outcome`, the work `found` cost and whether it was cached (without its id).
pub(crate) fn answered(
    outcome: solve_response::Outcome,
    cached: bool,
    found: Stats,
    elapsed: Duration,
) -> pb::SolveResponse {
    pb::SolveResponse {
        outcome: Some(outcome),
        stats: Some(stats(found, elapsed)),
        cached,
        ..pb::SolveResponse::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quality_is_optimal_or_a_ratio_above_one() {
        let read = |max_ratio: f64| quality(Some(&pb::Quality { max_ratio }));
        assert_eq!(read(0.0), Ok(Quality::Optimal));
        assert_eq!(read(1.0), Ok(Quality::Optimal));
        assert_eq!(read(1.5), Ok(Quality::Within(1.5)));
        for bad in [0.5, -1.0, f64::NAN, f64::INFINITY] {
            let Err(Failure::Invalid { field, .. }) = read(bad) else {
                panic!("{bad} accepted");
            };
            assert_eq!(field, "quality.max_ratio");
        }
    }
}
