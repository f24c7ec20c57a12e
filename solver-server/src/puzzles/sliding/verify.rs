//! `Verify`: a player's moves replayed and judged against the optimal length.

use std::sync::Arc;

use solver_core::Move;
use solver_core::tiles::grid_board::GridBoard;
use solver_core::tiles::verify::{Verdict, verdict};
use solver_proto::v2 as pb;
use tonic::Request;

use super::searches::Searches;
use super::wire as convert;
use crate::errors::Failure;
use crate::scheduler::{Progress, Slice};
use crate::service::Shared;
use crate::service::puzzle::{CaseLimits, Stats};
use crate::service::unary::Call;

/// `Verify`.
pub(crate) async fn verify(
    shared: &Arc<Shared>,
    request: Request<pb::VerifyRequest>,
) -> Result<pb::VerifyResponse, Failure> {
    let call = Call::begin(shared, &request)?;
    let request = request.into_inner();
    let budget = request.limits.map_or(0, |limits| limits.node_budget);
    let (start, target) =
        convert::reachable(request.rows, request.cols, &request.start, &request.target)?;
    let moves = convert::moves(&request.moves)?;
    let (verdict, stats) = call.run(judge(start, target, moves, budget)).await?;
    Ok(convert::verify_response(
        &verdict,
        stats,
        call.received.elapsed(),
    ))
}

/// The sliced work of judging `moves` from `start` towards `target`.
fn judge(
    start: GridBoard,
    target: GridBoard,
    moves: Vec<Move>,
    budget: u64,
) -> impl FnMut(&CaseLimits, &Shared, &Slice<'_>) -> Progress<Result<(Verdict, Stats), Failure>>
+ Send
+ 'static {
    let mut searches = Searches::new(budget);
    move |limits, shared, slice| match searches.optimal(&start, &target, limits, shared, slice) {
        Progress::Pending => Progress::Pending,
        Progress::Done(result) => Progress::Done(result.map(|optimal| {
            (
                verdict(&start, &target, &moves, optimal.len()),
                searches.stats(),
            )
        })),
    }
}
