//! `Hint`: the optimal distance of a position and of every legal move from it. The position's
//! answer settles most moves ([`Grades`]); each other move gets a search of its own, all under
//! the request's one node budget.

use std::sync::Arc;

use solver_core::tiles::grid_board::GridBoard;
use solver_core::tiles::hint::{Grades, Hint};
use solver_proto::v2 as pb;
use tonic::Request;

use super::searches::{Searches, length};
use super::wire as convert;
use crate::errors::Failure;
use crate::scheduler::{Progress, Slice};
use crate::service::Shared;
use crate::service::puzzle::{CaseLimits, Stats};
use crate::service::unary::Call;

/// `Hint`.
pub(crate) async fn hint(
    shared: &Arc<Shared>,
    request: Request<pb::HintRequest>,
) -> Result<pb::HintResponse, Failure> {
    let call = Call::begin(shared, &request)?;
    let request = request.into_inner();
    let budget = request.limits.map_or(0, |limits| limits.node_budget);
    let (start, target) =
        convert::reachable(request.rows, request.cols, &request.start, &request.target)?;
    let (hint, stats) = call.run(grade(start, target, budget)).await?;
    Ok(convert::hint_response(
        &hint,
        stats,
        call.received.elapsed(),
    ))
}

type Step<T> = Progress<Result<T, Failure>>;

/// The sliced work of a hint from `start` towards `target`.
fn grade(
    start: GridBoard,
    target: GridBoard,
    budget: u64,
) -> impl FnMut(&CaseLimits, &Shared, &Slice<'_>) -> Step<(Hint, Stats)> + Send + 'static {
    let mut searches = Searches::new(budget);
    let mut grades: Option<Grades<GridBoard>> = None;
    move |limits, shared, slice| {
        let grades = match &mut grades {
            Some(grades) => grades,
            empty => match searches.optimal(&start, &target, limits, shared, slice) {
                Progress::Pending => return Progress::Pending,
                Progress::Done(Err(failure)) => return Progress::Done(Err(failure)),
                Progress::Done(Ok(answer)) => empty.insert(Grades::from_answer(&start, &answer)),
            },
        };
        loop {
            let next = grades.unknown().next();
            let Some((mv, board)) = next else { break };
            match searches.optimal(&board, &target, limits, shared, slice) {
                Progress::Pending => return Progress::Pending,
                Progress::Done(Err(failure)) => return Progress::Done(Err(failure)),
                Progress::Done(Ok(answer)) => grades.settle(mv, length(&answer)),
            }
        }
        Progress::Done(
            grades
                .hint()
                .map(|hint| (hint, searches.stats()))
                .ok_or_else(|| Failure::Internal {
                    message: "a hint with a move left ungraded".to_owned(),
                }),
        )
    }
}
