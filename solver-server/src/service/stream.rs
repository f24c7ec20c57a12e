//! The machinery of one bidirectional stream, shared by every puzzle kind.
//!
//! A task per stream reads requests, gathers the ones already received into a batch, answers
//! what needs no search at once and hands the rest to the pool. A window semaphore bounds the
//! cases read but not yet answered: when it is full the task stops reading, and HTTP/2 flow
//! control slows the sender. The task also watches for the client going away, the call's
//! deadline and the end of the shutdown grace period; any of them raises the stream's stop flag,
//! which every search of the stream polls.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use futures::{FutureExt as _, Stream, StreamExt as _};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};
use tokio_stream::wrappers::ReceiverStream;
use tonic::metadata::MetadataMap;
use tonic::{Request, Response, Status};
use tracing::Instrument as _;

use crate::errors::{CaseFailure, StreamEnd};
use crate::metrics::KindMetrics;
use crate::scheduler::{FlowId, JobError, Progress};
use crate::service::Shared;
use crate::service::puzzle::{CaseLimits, Lane, Prepared, Puzzle};

/// The reply half of a stream, as tonic wants it.
pub(crate) type ReplyStream<R> = ReceiverStream<Result<R, Status>>;

/// What the reader task and the pool jobs of one stream share.
struct StreamCtx<P: Puzzle> {
    shared: Arc<Shared>,
    tx: mpsc::Sender<Result<P::Reply, Status>>,
    /// One permit per case that may be in flight.
    window: Semaphore,
    limits: CaseLimits,
    /// The stream's share of the CPU.
    flow: FlowId,
}

impl<P: Puzzle> StreamCtx<P> {
    fn metrics(&self) -> &KindMetrics {
        self.shared.metrics.kind(P::KIND)
    }

    /// Sends one reply, counts it and frees its window slot. A send error means the client is
    /// gone, which the reader task notices and acts on.
    async fn reply(&self, reply: P::Reply, received: Instant) {
        self.metrics()
            .answered(P::outcome(&reply), received.elapsed());
        if let Some(method) = P::searched_with(&reply) {
            self.shared.metrics.fifteen_searched(method);
        }
        let _ = self.tx.send(Ok(reply)).await;
        self.window.add_permits(1);
    }

    /// Stops every search of the stream.
    fn cancel(&self) {
        self.limits.cancelled.store(true, Ordering::Relaxed);
    }
}

/// Opens a stream: checks the limits, spawns its reader task and returns the reply stream.
pub(crate) fn open<P, S>(
    shared: &Arc<Shared>,
    request: Request<S>,
) -> Result<Response<ReplyStream<P::Reply>>, Status>
where
    P: Puzzle,
    S: Stream<Item = Result<P::Request, Status>> + Send + Unpin + 'static,
{
    if shared.draining.is_cancelled() {
        return Err(StreamEnd::ShuttingDown.into());
    }
    let permit = Arc::clone(&shared.streams)
        .try_acquire_owned()
        .map_err(|_| StreamEnd::TooManyStreams(shared.config.max_streams))?;
    let timeout = grpc_timeout(request.metadata());
    let peer = request.remote_addr();
    let window = shared.config.window;
    let (tx, rx) = mpsc::channel(window);
    let ctx = Arc::new(StreamCtx::<P> {
        shared: Arc::clone(shared),
        tx,
        window: Semaphore::new(window),
        limits: CaseLimits {
            cancelled: Arc::new(AtomicBool::new(false)),
            call_deadline: timeout.map(|t| Instant::now() + t),
            config: Arc::clone(&shared.config),
        },
        flow: shared.scheduler.flow(),
    });
    let span = tracing::info_span!("stream", kind = %P::KIND, peer = ?peer, timeout = ?timeout);
    tokio::spawn(run(ctx, request.into_inner(), timeout, permit).instrument(span));
    Ok(Response::new(ReceiverStream::new(rx)))
}

/// The reader task: reads until the client half-closes, then waits for the last replies; or
/// ends the stream early when the client leaves, the deadline passes or shutdown aborts it.
async fn run<P, S>(
    ctx: Arc<StreamCtx<P>>,
    incoming: S,
    timeout: Option<Duration>,
    _stream_slot: OwnedSemaphorePermit,
) where
    P: Puzzle,
    S: Stream<Item = Result<P::Request, Status>> + Unpin,
{
    let shared = Arc::clone(&ctx.shared);
    shared.metrics.streams.inc();
    tracing::debug!("stream opened");
    let deadline = async {
        match timeout {
            Some(timeout) => tokio::time::sleep(timeout).await,
            None => std::future::pending().await,
        }
    };
    let end = tokio::select! {
        biased;
        () = ctx.tx.closed() => {
            tracing::debug!("client went away; cancelling its cases");
            None
        }
        () = deadline => Some(StreamEnd::Deadline(timeout.unwrap_or_default())),
        () = shared.abort.cancelled() => Some(StreamEnd::ShuttingDown),
        end = read_loop(&ctx, incoming) => end,
    };
    ctx.cancel();
    // A case stopped by the call's deadline answers in band, and the stream may then close
    // before the timer above fires: the call still ends DEADLINE_EXCEEDED.
    let end = end.or_else(|| {
        let passed = ctx
            .limits
            .call_deadline
            .is_some_and(|d| Instant::now() >= d);
        passed.then(|| StreamEnd::Deadline(timeout.unwrap_or_default()))
    });
    if let Some(end) = end {
        if ctx.tx.is_closed() {
            // The client already left (a cancel shows up as a request-stream error).
            tracing::debug!(reason = %end, "stream abandoned by its client");
        } else {
            tracing::info!(reason = %end, "stream ended early");
        }
        let status = Status::from(end);
        // The client may not be reading; do not wait for ever to tell it.
        let _ = tokio::time::timeout(Duration::from_secs(1), ctx.tx.send(Err(status))).await;
    } else {
        tracing::debug!("stream closed");
    }
    shared.metrics.streams.dec();
}

/// Reads and dispatches batches until the request stream ends, then waits for every case in
/// flight. Returns why the stream must end with an error, if it must.
async fn read_loop<P, S>(ctx: &Arc<StreamCtx<P>>, mut incoming: S) -> Option<StreamEnd>
where
    P: Puzzle,
    S: Stream<Item = Result<P::Request, Status>> + Unpin,
{
    let max_batch = ctx.shared.config.batch;
    let draining = ctx.shared.draining.clone();
    let mut batch = Vec::with_capacity(max_batch);
    let mut result = None;
    loop {
        // Backpressure: no slot in the window, no read.
        let slot = tokio::select! {
            biased;
            () = draining.cancelled() => {
                result = Some(StreamEnd::ShuttingDown);
                break;
            }
            slot = ctx.window.acquire() => slot.expect("the window is never closed"),
        };
        let first = tokio::select! {
            biased;
            () = draining.cancelled() => {
                result = Some(StreamEnd::ShuttingDown);
                break;
            }
            first = incoming.next() => first,
        };
        let received = Instant::now();
        match first {
            None => break,
            Some(Err(status)) => return Some(StreamEnd::BadFrame(status)),
            Some(Ok(request)) => {
                slot.forget();
                batch.push(request);
            }
        }
        // Gather what has already arrived, without waiting.
        let mut ended = false;
        while batch.len() < max_batch {
            let Ok(slot) = ctx.window.try_acquire() else {
                break;
            };
            match incoming.next().now_or_never() {
                None => break,
                Some(None) => {
                    ended = true;
                    break;
                }
                Some(Some(Err(status))) => return Some(StreamEnd::BadFrame(status)),
                Some(Some(Ok(request))) => {
                    slot.forget();
                    batch.push(request);
                }
            }
        }
        dispatch(ctx, &mut batch, received).await;
        if ended {
            break;
        }
    }
    // Every case read gets its answer before the stream closes.
    let window = u32::try_from(ctx.shared.config.window).unwrap_or(u32::MAX);
    let _all = ctx.window.acquire_many(window).await;
    if result.is_some() && matches!(incoming.next().now_or_never(), Some(None)) {
        // Shutting down, but the client had sent everything: nothing went unanswered.
        result = None;
    }
    result
}

/// Answers what needs no search and sends the rest to the pool: one job per case for searches,
/// one job for the whole batch of look-ups.
async fn dispatch<P: Puzzle>(
    ctx: &Arc<StreamCtx<P>>,
    batch: &mut Vec<P::Request>,
    received: Instant,
) {
    let mut lookups = Vec::new();
    for request in batch.drain(..) {
        // Counted one by one: if the client leaves while this loop waits to send, the stream's
        // task is dropped here, and cases not reached were never counted.
        ctx.metrics().in_flight.inc();
        match P::prepare(request, &ctx.shared) {
            Prepared::Answered(reply) => ctx.reply(reply, received).await,
            Prepared::Search(case) => match P::LANE {
                Lane::Search => spawn_job(ctx, vec![case], received),
                Lane::Lookup => lookups.push(case),
            },
        }
    }
    if !lookups.is_empty() {
        spawn_job(ctx, lookups, received);
    }
}

/// Decrements a gauge when dropped: when the work finishes, panics or is abandoned.
struct Running(prometheus_client::metrics::gauge::Gauge, i64);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.dec_by(self.1);
    }
}

/// Works on `cases` in one scheduler job of the stream's flow, then sends their replies.
fn spawn_job<P: Puzzle>(ctx: &Arc<StreamCtx<P>>, cases: Vec<P::Case>, received: Instant) {
    let ctx = Arc::clone(ctx);
    tokio::spawn(async move {
        let ids: Vec<u64> = cases.iter().map(P::case_id).collect();
        let job = Arc::clone(&ctx);
        let mut work: Vec<(u64, P::Work)> = cases
            .into_iter()
            .map(|case| (P::case_id(&case), P::begin(case)))
            .collect();
        let mut replies = Vec::with_capacity(work.len());
        let mut running = None;
        let result = ctx
            .shared
            .scheduler
            .run(ctx.flow, move |slice| {
                let running = running.get_or_insert_with(|| {
                    let searching = job.metrics().searching.clone();
                    let count = i64::try_from(work.len()).unwrap_or(i64::MAX);
                    searching.inc_by(count);
                    Running(searching, count)
                });
                while let Some((id, case)) = work.get_mut(replies.len()) {
                    let reply = if job.limits.is_cancelled() {
                        P::failed(CaseFailure::Cancelled { id: *id })
                    } else {
                        match P::step(case, &job.limits, &job.shared, slice) {
                            Progress::Done(reply) => reply,
                            Progress::Pending => return Progress::Pending,
                        }
                    };
                    replies.push(reply);
                    running.0.dec();
                    running.1 -= 1;
                }
                Progress::Done(std::mem::take(&mut replies))
            })
            .await;
        match result {
            Ok(replies) => {
                for reply in replies {
                    ctx.reply(reply, received).await;
                }
            }
            Err(err) => {
                if let JobError::Panicked(message) = &err {
                    tracing::error!(cause = %message, ?ids, "a solver job panicked");
                }
                for id in ids {
                    let failure = match &err {
                        JobError::Closed => CaseFailure::Cancelled { id },
                        JobError::Panicked(message) => CaseFailure::Internal {
                            id,
                            message: message.clone(),
                        },
                    };
                    ctx.reply(P::failed(failure), received).await;
                }
            }
        }
    });
}

/// The call's `grpc-timeout`, if it sent one (`<digits><unit>`, unit one of `H M S m u n`).
pub(crate) fn grpc_timeout(metadata: &MetadataMap) -> Option<Duration> {
    let value = metadata.get("grpc-timeout")?.to_str().ok()?;
    parse_grpc_timeout(value)
}

fn parse_grpc_timeout(value: &str) -> Option<Duration> {
    let (digits, unit) = value.split_at(value.len().checked_sub(1)?);
    if digits.is_empty() || digits.len() > 8 {
        return None;
    }
    let amount: u64 = digits.parse().ok()?;
    Some(match unit {
        "H" => Duration::from_secs(amount * 3600),
        "M" => Duration::from_secs(amount * 60),
        "S" => Duration::from_secs(amount),
        "m" => Duration::from_millis(amount),
        "u" => Duration::from_micros(amount),
        "n" => Duration::from_nanos(amount),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grpc_timeouts() {
        assert_eq!(parse_grpc_timeout("250m"), Some(Duration::from_millis(250)));
        assert_eq!(parse_grpc_timeout("3S"), Some(Duration::from_secs(3)));
        assert_eq!(parse_grpc_timeout("1H"), Some(Duration::from_secs(3600)));
        assert_eq!(parse_grpc_timeout("10n"), Some(Duration::from_nanos(10)));
        assert_eq!(parse_grpc_timeout("m"), None);
        assert_eq!(parse_grpc_timeout(""), None);
        assert_eq!(parse_grpc_timeout("123456789S"), None);
        assert_eq!(parse_grpc_timeout("5x"), None);
    }
}
