//! The server's lifecycle around serving: health (NOT_SERVING until warm, and for good once
//! shutdown begins), the drain on shutdown within the grace period, and the end of the serve.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Mutex;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use tonic_health::ServingStatus;
use tonic_health::server::HealthReporter;

use super::services::{SERVICE_NAME, SERVICE_NAME_V2};
use crate::errors::ServeError;
use crate::service::Shared;

/// How long connections may linger after the grace period before `serve` returns anyway.
const LINGER: Duration = Duration::from_secs(1);

/// The health reporter, serialised with shutdown so a late warm-up cannot report SERVING after
/// shutdown began.
#[derive(Debug, Clone)]
pub(crate) struct Health {
    reporter: HealthReporter,
    shutting_down: Arc<Mutex<bool>>,
}

impl Health {
    /// Sets the overall and the solver's status; returns false once shutdown began.
    pub(crate) async fn set(&self, status: ServingStatus) -> bool {
        let shutting_down = self.shutting_down.lock().await;
        if *shutting_down {
            return false;
        }
        self.report(status).await;
        true
    }

    /// Reports NOT_SERVING for good.
    pub(super) async fn shut_down(&self) {
        let mut shutting_down = self.shutting_down.lock().await;
        *shutting_down = true;
        self.report(ServingStatus::NotServing).await;
    }

    async fn report(&self, status: ServingStatus) {
        self.reporter.set_service_status("", status).await;
        self.reporter.set_service_status(SERVICE_NAME, status).await;
        self.reporter
            .set_service_status(SERVICE_NAME_V2, status)
            .await;
    }
}

/// Starts the health service, NOT_SERVING, and the warm-up of `shared`'s tables, which reports
/// SERVING when done (each puzzle family's warm-up is its own: `crate::puzzles`).
pub(super) async fn start(
    shared: &Arc<Shared>,
) -> (
    Health,
    tonic_health::pb::health_server::HealthServer<impl tonic_health::pb::health_server::Health>,
) {
    let (reporter, service) = tonic_health::server::health_reporter();
    let health = Health {
        reporter,
        shutting_down: Arc::new(Mutex::new(false)),
    };
    health.set(ServingStatus::NotServing).await;
    let serving = health.clone();
    crate::puzzles::warm_up(
        shared,
        Box::new(move || Box::pin(async move { serving.set(ServingStatus::Serving).await })),
    );
    (health, service)
}

/// Waits for `shutdown`, then reports NOT_SERVING, stops the streams reading (they finish what
/// they have) and, after the grace period, cancels what is left.
pub(super) async fn drain_on(
    shutdown: impl Future<Output = ()> + Send + 'static,
    health: Health,
    shared: Arc<Shared>,
) {
    shutdown.await;
    health.shut_down().await;
    let grace = shared.config.shutdown.grace_period;
    tracing::info!(
        ?grace,
        "shutting down: health NOT_SERVING, draining in-flight cases"
    );
    shared.draining.cancel();
    tokio::spawn(async move {
        tokio::time::sleep(grace).await;
        if !shared.abort.is_cancelled() {
            tracing::warn!("grace period over: cancelling the cases still running");
        }
        shared.abort.cancel();
    });
}

/// Serves until `served` ends (or connections linger past the grace period), then stops the
/// background tasks and the metrics endpoint.
pub(super) async fn finish(
    served: impl Future<Output = Result<(), tonic::transport::Error>>,
    shared: &Shared,
    stopped: CancellationToken,
    metrics_task: Option<JoinHandle<std::io::Result<()>>>,
) -> Result<(), ServeError> {
    let result = tokio::select! {
        result = served => result.map_err(ServeError::from),
        () = async {
            shared.abort.cancelled().await;
            tokio::time::sleep(LINGER).await;
        } => {
            tracing::warn!("connections still open after the grace period; leaving them");
            Ok(())
        }
    };
    shared.abort.cancel();
    stopped.cancel();
    if let Some(task) = metrics_task {
        match task.await {
            Ok(Ok(())) => {}
            Ok(Err(err)) => tracing::warn!(cause = %err, "metrics endpoint failed"),
            Err(err) => tracing::warn!(cause = %err, "metrics endpoint panicked"),
        }
    }
    tracing::info!("server stopped");
    result
}
