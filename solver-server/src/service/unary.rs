//! The machinery of one unary call: admission (the same limit as streams, since both hold
//! server resources), the call's limits and cancellation, and its work run in slices on the
//! scheduler, never on the async runtime.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::OwnedSemaphorePermit;
use tonic::Request;

use crate::arrival::Arrival;
use crate::errors::{Failure, Proven};
use crate::scheduler::{ClientId, JobError, Progress, Slice};
use crate::service::puzzle::CaseLimits;
use crate::service::report::Report;
use crate::service::stream::grpc_timeout;
use crate::service::{Shared, client_of};

/// How much earlier than its `grpc-timeout` (counted from its [`Arrival`]) a unary call ends
/// DEADLINE_EXCEEDED: tonic's own timer for the same timeout started a moment before, and the
/// timer wheel rounds to the millisecond (see [`crate::arrival`]).
const DEADLINE_MARGIN: Duration = Duration::from_millis(1);

/// The deadline of a unary call that arrived at `arrived` with `timeout`.
fn call_deadline(arrived: Instant, timeout: Duration) -> Instant {
    arrived + timeout.saturating_sub(DEADLINE_MARGIN)
}

/// One unary call in flight: when dropped (answered, or the client cancelled and tonic dropped
/// the handler), its searches stop.
#[derive(Debug)]
pub(crate) struct Call {
    shared: Arc<Shared>,
    limits: CaseLimits,
    /// When the call was read, for `elapsed`.
    pub(crate) received: Instant,
    /// Whose share of the CPU the call's work runs in.
    client: ClientId,
    _slot: OwnedSemaphorePermit,
}

impl Drop for Call {
    fn drop(&mut self) {
        self.limits.cancelled.store(true, Ordering::Relaxed);
    }
}

impl Call {
    /// Admits a call: [`Failure::ShuttingDown`] once shutdown began, [`Failure::Busy`] when as
    /// many calls and streams are open as the server allows.
    pub(crate) fn begin<T>(shared: &Arc<Shared>, request: &Request<T>) -> Result<Self, Failure> {
        let received = Instant::now();
        let metadata = request.metadata();
        let arrived = request
            .extensions()
            .get::<Arrival>()
            .map_or(received, |arrival| arrival.0);
        if shared.draining.is_cancelled() {
            return Err(Failure::ShuttingDown);
        }
        let slot = Arc::clone(&shared.streams)
            .try_acquire_owned()
            .map_err(|_| Failure::Busy {
                limit: shared.config.limits.max_streams,
            })?;
        Ok(Self {
            shared: Arc::clone(shared),
            limits: CaseLimits {
                cancelled: Arc::new(AtomicBool::new(false)),
                call_deadline: grpc_timeout(metadata).map(|t| call_deadline(arrived, t)),
                config: Arc::clone(&shared.config),
                report: None,
            },
            received,
            client: client_of(request),
            _slot: slot,
        })
    }

    /// The same call, its cases telling `report` how they are going (`SolveWatch`).
    pub(crate) fn watched(mut self, report: Arc<Report>) -> Self {
        self.limits.report = Some(report);
        self
    }

    /// Runs `work` in slices on the scheduler, in a flow of its own, until it is done. The end of
    /// the shutdown grace period cancels it.
    pub(crate) async fn run<T, F>(&self, mut work: F) -> Result<T, Failure>
    where
        T: Send + 'static,
        F: FnMut(&CaseLimits, &Shared, &Slice<'_>) -> Progress<Result<T, Failure>> + Send + 'static,
    {
        let (limits, shared) = (self.limits.clone(), Arc::clone(&self.shared));
        let flow = self.shared.scheduler.flow_of(self.client);
        let job = self.shared.scheduler.run(flow, move |slice| {
            if limits.is_cancelled() {
                return Progress::Done(Err(Failure::Cancelled));
            }
            work(&limits, &shared, slice)
        });
        let deadline = async {
            match self.limits.call_deadline {
                Some(at) => tokio::time::sleep_until(at.into()).await,
                None => std::future::pending().await,
            }
        };
        let result = tokio::select! {
            biased;
            result = job => result,
            () = self.shared.abort.cancelled() => {
                self.limits.cancelled.store(true, Ordering::Relaxed);
                return Err(Failure::ShuttingDown);
            }
            // Answered here, before tonic's own timer (which ends the call CANCELLED) fires.
            () = deadline => {
                self.limits.cancelled.store(true, Ordering::Relaxed);
                return Err(Failure::Deadline {
                    nodes: 0,
                    proven: Proven::default(),
                });
            }
        };
        match result {
            Ok(result) => result,
            Err(JobError::Closed) => Err(Failure::ShuttingDown),
            Err(JobError::Panicked(message)) => {
                tracing::error!(cause = %message, "a solver job panicked");
                Err(Failure::Internal { message })
            }
        }
    }
}
