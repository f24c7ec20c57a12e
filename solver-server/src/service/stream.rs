//! The machinery of one bidirectional stream, shared by every puzzle kind and contract version.
//!
//! An [`Edge`] is one streaming RPC's wire side: it reads a request into an id and a validated
//! case of its [`Puzzle`], and writes an answer (or a failure) back as a reply. Everything else
//! is here, the same for every RPC. A task per stream reads requests, gathers the ones already received into a batch, answers
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

use crate::auth::CaseSlots;
use crate::config::Kind;
use crate::errors::{Failure, StreamEnd};
use crate::metrics::KindMetrics;
use crate::scheduler::{FlowId, JobError, Progress};
use crate::service::Shared;
use crate::service::puzzle::{self, CaseLimits, Lane, Puzzle};

/// The reply half of a stream, as tonic wants it.
pub(crate) type ReplyStream<R> = ReceiverStream<Result<R, Status>>;

/// A request read by an [`Edge`]: its id, the kind it is counted under, and its case or why it
/// has none.
pub(crate) type Read<E> = (
    <E as Edge>::Id,
    Kind,
    Result<<<E as Edge>::Puzzle as Puzzle>::Case, Failure>,
);

/// A validated case waiting for the pool: its id, the kind it is counted under, and the case.
type Ready<E> = (<E as Edge>::Id, Kind, <<E as Edge>::Puzzle as Puzzle>::Case);

/// The wire side of one streaming RPC: its messages, and how a request becomes a case and an
/// answer a reply.
pub(crate) trait Edge: Send + Sync + 'static {
    /// The kind (or choice of kinds) of its cases.
    type Puzzle: Puzzle;
    /// The request message.
    type Request: Send + 'static;
    /// The reply message.
    type Reply: Send + std::fmt::Debug + 'static;
    /// What a reply echoes of its request.
    type Id: Send + Sync + Clone + std::fmt::Debug + 'static;

    /// Reads and validates a request.
    fn read(request: Self::Request, shared: &Shared) -> Read<Self>;
    /// The reply to case `id`, answered `elapsed` after it was read.
    fn write(
        id: Self::Id,
        result: Result<<Self::Puzzle as Puzzle>::Answer, Failure>,
        elapsed: Duration,
    ) -> Self::Reply;
    /// The status that ends the stream early.
    fn end(end: StreamEnd) -> Status;
}

/// What the reader task and the pool jobs of one stream share.
struct StreamCtx<E: Edge> {
    shared: Arc<Shared>,
    tx: mpsc::Sender<Result<E::Reply, Status>>,
    /// One permit per case that may be in flight.
    window: Semaphore,
    /// The caller's token's case slots, shared by all its streams (with bearer tokens only).
    token_cases: Option<Arc<Semaphore>>,
    limits: CaseLimits,
    /// The stream's share of the CPU.
    flow: FlowId,
}

impl<E: Edge> StreamCtx<E> {
    fn metrics(&self, kind: Kind) -> &KindMetrics {
        self.shared.metrics.kind(kind)
    }

    /// Sends the reply to case `id`, counts it and frees its window slot. A send error means the
    /// client is gone, which the reader task notices and acts on.
    async fn reply(
        &self,
        id: E::Id,
        kind: Kind,
        result: Result<<E::Puzzle as Puzzle>::Answer, Failure>,
        received: Instant,
    ) {
        let elapsed = received.elapsed();
        self.metrics(kind)
            .answered(puzzle::outcome::<E::Puzzle>(&result), elapsed);
        if let Ok(answer) = &result
            && let Some(method) = E::Puzzle::searched_with(answer)
        {
            self.shared.metrics.fifteen_searched(method);
        }
        let _ = self.tx.send(Ok(E::write(id, result, elapsed))).await;
        self.window.add_permits(1);
        if let Some(token_cases) = &self.token_cases {
            token_cases.add_permits(1);
        }
    }

    /// Stops every search of the stream.
    fn cancel(&self) {
        self.limits.cancelled.store(true, Ordering::Relaxed);
    }
}

/// Opens a stream: checks the limits, spawns its reader task and returns the reply stream.
pub(crate) fn open<E, S>(
    shared: &Arc<Shared>,
    kind: &'static str,
    request: Request<S>,
) -> Result<Response<ReplyStream<E::Reply>>, Status>
where
    E: Edge,
    S: Stream<Item = Result<E::Request, Status>> + Send + Unpin + 'static,
{
    if shared.draining.is_cancelled() {
        return Err(E::end(StreamEnd::ShuttingDown));
    }
    let permit = Arc::clone(&shared.streams)
        .try_acquire_owned()
        .map_err(|_| E::end(StreamEnd::TooManyStreams(shared.config.limits.max_streams)))?;
    let timeout = grpc_timeout(request.metadata());
    let peer = request.remote_addr();
    let client = super::client_of(&request);
    let token_cases = request
        .extensions()
        .get::<CaseSlots>()
        .map(|slots| Arc::clone(&slots.0));
    let window = shared.config.scheduling.window;
    let (tx, rx) = mpsc::channel(window);
    let ctx = Arc::new(StreamCtx::<E> {
        shared: Arc::clone(shared),
        tx,
        window: Semaphore::new(window),
        token_cases,
        limits: CaseLimits {
            cancelled: Arc::new(AtomicBool::new(false)),
            call_deadline: timeout.map(|t| Instant::now() + t),
            config: Arc::clone(&shared.config),
            report: None,
        },
        flow: shared.scheduler.flow_of(client),
    });
    let span = tracing::info_span!("stream", kind, peer = ?peer, timeout = ?timeout);
    tokio::spawn(run(ctx, request.into_inner(), timeout, permit).instrument(span));
    Ok(Response::new(ReceiverStream::new(rx)))
}

/// The reader task: reads until the client half-closes, then waits for the last replies; or
/// ends the stream early when the client leaves, the deadline passes or shutdown aborts it.
async fn run<E, S>(
    ctx: Arc<StreamCtx<E>>,
    incoming: S,
    timeout: Option<Duration>,
    _stream_slot: OwnedSemaphorePermit,
) where
    E: Edge,
    S: Stream<Item = Result<E::Request, Status>> + Unpin,
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
        let status = E::end(end);
        // The client may not be reading; do not wait for ever to tell it.
        let _ = tokio::time::timeout(Duration::from_secs(1), ctx.tx.send(Err(status))).await;
    } else {
        tracing::debug!("stream closed");
    }
    shared.metrics.streams.dec();
}

/// Reads and dispatches batches until the request stream ends, then waits for every case in
/// flight. Returns why the stream must end with an error, if it must.
async fn read_loop<E, S>(ctx: &Arc<StreamCtx<E>>, mut incoming: S) -> Option<StreamEnd>
where
    E: Edge,
    S: Stream<Item = Result<E::Request, Status>> + Unpin,
{
    let max_batch = ctx.shared.config.scheduling.batch;
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
        // And a slot of the caller's token, when there are tokens: its streams share them.
        let token_slot = match &ctx.token_cases {
            Some(token_cases) => tokio::select! {
                biased;
                () = draining.cancelled() => {
                    result = Some(StreamEnd::ShuttingDown);
                    break;
                }
                slot = token_cases.acquire() => Some(slot.expect("token slots are never closed")),
            },
            None => None,
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
                if let Some(token_slot) = token_slot {
                    token_slot.forget();
                }
                batch.push(request);
            }
        }
        // Gather what has already arrived, without waiting.
        let mut ended = false;
        while batch.len() < max_batch {
            let Ok(slot) = ctx.window.try_acquire() else {
                break;
            };
            let token_slot = match &ctx.token_cases {
                Some(token_cases) => match token_cases.try_acquire() {
                    Ok(token_slot) => Some(token_slot),
                    Err(_) => break,
                },
                None => None,
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
                    if let Some(token_slot) = token_slot {
                        token_slot.forget();
                    }
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
    let window = u32::try_from(ctx.shared.config.scheduling.window).unwrap_or(u32::MAX);
    let _all = ctx.window.acquire_many(window).await;
    if result.is_some() && matches!(incoming.next().now_or_never(), Some(None)) {
        // Shutting down, but the client had sent everything: nothing went unanswered.
        result = None;
    }
    result
}

/// Answers what needs no search and sends the rest to the pool: one job per case for searches,
/// one job for the whole batch of look-ups.
async fn dispatch<E: Edge>(
    ctx: &Arc<StreamCtx<E>>,
    batch: &mut Vec<E::Request>,
    received: Instant,
) {
    let mut lookups = Vec::new();
    for request in batch.drain(..) {
        let (id, kind, case) = E::read(request, &ctx.shared);
        // Counted one by one: if the client leaves while this loop waits to send, the stream's
        // task is dropped here, and cases not reached were never counted.
        ctx.metrics(kind).in_flight.inc();
        let case = match case {
            Ok(case) => case,
            Err(failure) => {
                flush(ctx, &mut lookups, received);
                ctx.reply(id, kind, Err(failure), received).await;
                continue;
            }
        };
        if let Some(answer) = E::Puzzle::prepare(&case, &ctx.shared) {
            flush(ctx, &mut lookups, received);
            ctx.reply(id, kind, Ok(answer), received).await;
            continue;
        }
        match E::Puzzle::lane(&case) {
            Lane::Search => spawn_job(ctx, vec![(id, kind, case)], received),
            Lane::Lookup => lookups.push((id, kind, case)),
        }
    }
    flush(ctx, &mut lookups, received);
}

/// Hands the look-ups gathered so far to the pool, before the reader waits to send a reply: if
/// the client leaves during that wait, the reader is dropped, and look-ups it still held would
/// stay counted in flight for ever.
fn flush<E: Edge>(ctx: &Arc<StreamCtx<E>>, lookups: &mut Vec<Ready<E>>, received: Instant) {
    if !lookups.is_empty() {
        spawn_job(ctx, std::mem::take(lookups), received);
    }
}

/// Decrements a gauge when dropped: when the work finishes, panics or is abandoned.
#[derive(Debug)]
pub(crate) struct Running(prometheus_client::metrics::gauge::Gauge);

impl Running {
    /// Counts one more in `gauge` until dropped.
    pub(crate) fn new(gauge: &prometheus_client::metrics::gauge::Gauge) -> Self {
        gauge.inc();
        Self(gauge.clone())
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.0.dec();
    }
}

/// Works on `cases` in one scheduler job of the stream's flow, then sends their replies.
fn spawn_job<E: Edge>(ctx: &Arc<StreamCtx<E>>, cases: Vec<Ready<E>>, received: Instant) {
    type Work<E> = <<E as Edge>::Puzzle as Puzzle>::Work;
    let ctx = Arc::clone(ctx);
    tokio::spawn(async move {
        let ids: Vec<(E::Id, Kind)> = cases
            .iter()
            .map(|(id, kind, _)| (id.clone(), *kind))
            .collect();
        let job = Arc::clone(&ctx);
        let mut work: Vec<(Work<E>, Option<Running>)> = cases
            .into_iter()
            .map(|(_, _, case)| (E::Puzzle::begin(case), None))
            .collect();
        let kinds: Vec<Kind> = ids.iter().map(|(_, kind)| *kind).collect();
        let mut results = Vec::with_capacity(work.len());
        let result = ctx
            .shared
            .scheduler
            .run(ctx.flow, move |slice| {
                // Counted as searching from their first slice until answered.
                for ((_, running), kind) in work.iter_mut().zip(&kinds).skip(results.len()) {
                    running.get_or_insert_with(|| Running::new(&job.metrics(*kind).searching));
                }
                while let Some((case, running)) = work.get_mut(results.len()) {
                    let result = if job.limits.is_cancelled() {
                        Err(Failure::Cancelled)
                    } else {
                        match E::Puzzle::step(case, &job.limits, &job.shared, slice) {
                            Progress::Done(result) => result,
                            Progress::Pending => return Progress::Pending,
                        }
                    };
                    results.push(result);
                    running.take();
                }
                Progress::Done(std::mem::take(&mut results))
            })
            .await;
        match result {
            Ok(results) => {
                for ((id, kind), result) in ids.into_iter().zip(results) {
                    ctx.reply(id, kind, result, received).await;
                }
            }
            Err(err) => {
                if let JobError::Panicked(message) = &err {
                    tracing::error!(cause = %message, ?ids, "a solver job panicked");
                }
                for (id, kind) in ids {
                    let failure = match &err {
                        JobError::Closed => Failure::Cancelled,
                        JobError::Panicked(message) => Failure::Internal {
                            message: message.clone(),
                        },
                    };
                    ctx.reply(id, kind, Err(failure), received).await;
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
