//! The machinery of one unary call: admission (the same limit as streams, since both hold
//! server resources), the call's limits and cancellation, and its work run in slices on the
//! scheduler, never on the async runtime.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use tokio::sync::OwnedSemaphorePermit;
use tonic::metadata::MetadataMap;

use crate::errors::Failure;
use crate::scheduler::{JobError, Progress, Slice};
use crate::service::Shared;
use crate::service::puzzle::CaseLimits;
use crate::service::stream::grpc_timeout;

/// One unary call in flight: when dropped (answered, or the client cancelled and tonic dropped
/// the handler), its searches stop.
#[derive(Debug)]
pub(crate) struct Call {
    shared: Arc<Shared>,
    limits: CaseLimits,
    /// When the call was read, for `elapsed`.
    pub(crate) received: Instant,
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
    pub(crate) fn begin(shared: &Arc<Shared>, metadata: &MetadataMap) -> Result<Self, Failure> {
        let received = Instant::now();
        if shared.draining.is_cancelled() {
            return Err(Failure::ShuttingDown);
        }
        let slot = Arc::clone(&shared.streams)
            .try_acquire_owned()
            .map_err(|_| Failure::Busy {
                limit: shared.config.max_streams,
            })?;
        Ok(Self {
            shared: Arc::clone(shared),
            limits: CaseLimits {
                cancelled: Arc::new(AtomicBool::new(false)),
                call_deadline: grpc_timeout(metadata).map(|t| received + t),
                config: Arc::clone(&shared.config),
            },
            received,
            _slot: slot,
        })
    }

    /// Runs `work` in slices on the scheduler, in a flow of its own, until it is done. The end of
    /// the shutdown grace period cancels it.
    pub(crate) async fn run<T, F>(&self, mut work: F) -> Result<T, Failure>
    where
        T: Send + 'static,
        F: FnMut(&CaseLimits, &Shared, &Slice<'_>) -> Progress<Result<T, Failure>> + Send + 'static,
    {
        let (limits, shared) = (self.limits.clone(), Arc::clone(&self.shared));
        let flow = self.shared.scheduler.flow();
        let job = self.shared.scheduler.run(flow, move |slice| {
            if limits.is_cancelled() {
                return Progress::Done(Err(Failure::Cancelled));
            }
            work(&limits, &shared, slice)
        });
        let result = tokio::select! {
            result = job => result,
            () = self.shared.abort.cancelled() => {
                self.limits.cancelled.store(true, Ordering::Relaxed);
                return Err(Failure::ShuttingDown);
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
