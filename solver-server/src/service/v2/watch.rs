//! `SolveWatch`: one case solved as `Solve` solves it, with its progress streamed while it runs.
//!
//! The case runs in a [`Call`] that carries a [`Report`]; a task of the call's own sends the
//! report's latest [`Snapshot`] when it changed, at most once per interval, and then the answer.
//! Its channel holds a few messages: a client that stops reading only holds up its own progress
//! messages (a snapshot is sent only once the previous one left), never the search. When the
//! client goes away, the task ends and the call it drops stops the search.

use std::sync::Arc;
use std::time::{Duration, Instant};

use solver_proto::v2 as pb;
use solver_proto::v2::solve_watch_response::Event;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Response, Status};

use crate::errors::Failure;
use crate::service::Shared;
use crate::service::report::{Phase, Report, Snapshot};
use crate::service::stream::ReplyStream;
use crate::service::unary::Call;

/// The interval between progress messages when the request sets none (or too short a one).
const DEFAULT_INTERVAL: Duration = Duration::from_millis(250);
/// The shortest interval a request may ask for.
const MIN_INTERVAL: Duration = Duration::from_millis(100);
/// The longest.
const MAX_INTERVAL: Duration = Duration::from_secs(10);

/// The interval a request asks for, within [`MIN_INTERVAL`] and [`MAX_INTERVAL`].
fn interval(asked: Option<&prost_types::Duration>) -> Duration {
    let asked = asked.and_then(|d| Duration::try_from(*d).ok());
    match asked {
        Some(asked) if asked >= MIN_INTERVAL => asked.min(MAX_INTERVAL),
        _ => DEFAULT_INTERVAL,
    }
}

/// Opens a `SolveWatch` stream.
pub(super) fn open(
    shared: &Arc<Shared>,
    request: Request<pb::SolveWatchRequest>,
) -> Result<Response<ReplyStream<pb::SolveWatchResponse>>, Status> {
    let call = Call::begin(shared, &request).map_err(|failure| failure.status())?;
    let pb::SolveWatchRequest {
        request: case,
        interval: asked,
    } = request.into_inner();
    let Some(case) = case else {
        let failure =
            Failure::invalid("request", "no case is set: set `request` to a SolveRequest");
        return Err(failure.status());
    };
    let (report, snapshots) = Report::new();
    let call = call.watched(report);
    let (tx, rx) = mpsc::channel(2);
    let shared = Arc::clone(shared);
    tokio::spawn(async move {
        let received = call.received;
        let answer = super::solve::answer(&shared, &call, case);
        tokio::pin!(answer);
        let every = interval(asked.as_ref());
        let mut last: Option<Snapshot> = None;
        let mut next = tokio::time::Instant::now();
        let end = loop {
            tokio::select! {
                biased;
                result = &mut answer => break result,
                () = tx.closed() => return,
                () = tokio::time::sleep_until(next) => {
                    let now = snapshots.borrow().clone();
                    if last.as_ref() != Some(&now) {
                        let message = progress(&now, received);
                        last = Some(now);
                        // A full channel (a client that does not read) skips this one.
                        if tx.try_send(Ok(message)).is_err() && tx.is_closed() {
                            return;
                        }
                    }
                    next += every;
                }
            }
        };
        let last = match end {
            Ok(answer) => Ok(pb::SolveWatchResponse {
                event: Some(Event::Answer(answer)),
            }),
            Err(failure) => Err(failure.status()),
        };
        // The answer waits for room: it is the one message that must arrive.
        let _ = tx.send(last).await;
    });
    Ok(Response::new(ReceiverStream::new(rx)))
}

/// The progress message of `snapshot`, for a case read at `received`.
fn progress(snapshot: &Snapshot, received: Instant) -> pb::SolveWatchResponse {
    let best = snapshot.best.as_ref().map(|moves| pb::SlidingSolution {
        moves: moves.to_string(),
        length: crate::convert::count(moves.len()),
        lower_bound: snapshot.lower_bound,
    });
    pb::SolveWatchResponse {
        event: Some(Event::Progress(pb::SolveProgress {
            phase: phase(snapshot.phase).into(),
            tables_done: snapshot.tables_done,
            lower_bound: snapshot.lower_bound,
            best,
            best_ratio: snapshot.best_ratio().unwrap_or(0.0),
            nodes: snapshot.nodes,
            elapsed: prost_types::Duration::try_from(received.elapsed()).ok(),
        })),
    }
}

fn phase(phase: Phase) -> pb::SolvePhase {
    match phase {
        Phase::Waiting => pb::SolvePhase::Waiting,
        Phase::Tables => pb::SolvePhase::Tables,
        Phase::Bounding => pb::SolvePhase::Bounding,
        Phase::Searching => pb::SolvePhase::Searching,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals_are_kept_in_range() {
        let ms = |ms| prost_types::Duration {
            seconds: 0,
            nanos: ms * 1_000_000,
        };
        assert_eq!(interval(None), DEFAULT_INTERVAL);
        assert_eq!(interval(Some(&ms(10))), DEFAULT_INTERVAL);
        assert_eq!(interval(Some(&ms(500))), Duration::from_millis(500));
        let long = prost_types::Duration {
            seconds: 3600,
            nanos: 0,
        };
        assert_eq!(interval(Some(&long)), MAX_INTERVAL);
    }
}
