//! The server's lifecycle: build the services, warm the tables up, serve, and shut down in order
//! (health NOT_SERVING first, then drain within the grace period, then cancel what is left).

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::net::TcpListener;
use tokio::sync::{Mutex, Semaphore};
use tokio_util::sync::CancellationToken;
use tonic::transport::Server;
use tonic::transport::server::TcpIncoming;
use tonic_health::ServingStatus;
use tonic_health::server::HealthReporter;

use crate::cache::Cache;
use crate::compute::Pool;
use crate::config::Config;
use crate::engine;
use crate::errors::ServeError;
use crate::metrics::{self, Metrics};
use crate::pb;
use crate::pb::solver_server::SolverServer;
use crate::service::{Shared, SolverService};

/// The fully qualified name of the solver service, as health and reflection know it.
const SERVICE_NAME: &str = "solver.v1.Solver";

/// How long connections may linger once the grace period is over and every stream was cancelled.
const LINGER: Duration = Duration::from_secs(1);

/// Serves the solver, health and reflection services on `listener` (and metrics on
/// `config.metrics_listen`) until `shutdown` completes.
///
/// Health reports NOT_SERVING until the tables named by `config.warm_up` are built, SERVING
/// after. When `shutdown` completes, health flips back to NOT_SERVING, the listener closes,
/// streams stop reading new cases and finish those in flight; whatever is still running after
/// `config.grace_period` is cancelled and its stream ends with UNAVAILABLE. Then this returns.
///
/// # Errors
/// [`ServeError`] if the metrics port cannot be bound or the transport fails.
pub async fn serve(
    listener: TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let config = Arc::new(config);
    let metrics = Arc::new(Metrics::new());
    let shared = Arc::new(Shared {
        cache: Cache::new(config.cache_entries, Arc::clone(&metrics)),
        pool: Pool::new(config.worker_count()),
        streams: Arc::new(Semaphore::new(config.max_streams)),
        draining: CancellationToken::new(),
        abort: CancellationToken::new(),
        metrics: Arc::clone(&metrics),
        config: Arc::clone(&config),
    });
    let local = listener.local_addr()?;

    // The metrics endpoint first, so a port already in use fails at once.
    let stopped = CancellationToken::new();
    let metrics_task = match config.metrics_listen {
        Some(addr) => {
            let metrics_listener = TcpListener::bind(addr)
                .await
                .map_err(|source| ServeError::MetricsBind { addr, source })?;
            Some(tokio::spawn(metrics::serve_metrics(
                metrics_listener,
                Arc::clone(&metrics),
                stopped.clone(),
            )))
        }
        None => None,
    };

    let (reporter, health_service) = tonic_health::server::health_reporter();
    let health = Health {
        reporter,
        shutting_down: Arc::new(Mutex::new(false)),
    };
    health.set(ServingStatus::NotServing).await;
    spawn_warm_up(&config, health.clone());

    let reflection_v1 = reflection().build_v1()?;
    let reflection_v1alpha = reflection().build_v1alpha()?;
    let solver = SolverServer::new(SolverService::new(Arc::clone(&shared)))
        .max_decoding_message_size(config.max_message_bytes)
        .max_encoding_message_size(config.max_message_bytes);

    let mut builder = Server::builder()
        .max_concurrent_streams(u32::try_from(config.max_streams).unwrap_or(u32::MAX))
        .trace_fn(|request| tracing::info_span!("grpc", path = %request.uri().path()));
    if let Some(age) = config.max_connection_age {
        builder = builder.max_connection_age(age);
    }
    let router = builder
        .add_service(health_service)
        .add_service(reflection_v1)
        .add_service(reflection_v1alpha)
        .add_service(solver);

    let signal = {
        let (health, shared) = (health.clone(), Arc::clone(&shared));
        async move {
            shutdown.await;
            health.shut_down().await;
            let grace = shared.config.grace_period;
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
    };

    tracing::info!(addr = %local, workers = config.worker_count(), "gRPC server listening");
    let incoming = TcpIncoming::from(listener).with_nodelay(Some(true));
    let served = router.serve_with_incoming_shutdown(incoming, signal);
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

/// Reflection over the solver's and the health service's descriptors, listing both.
fn reflection() -> tonic_reflection::server::Builder<'static> {
    tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(pb::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .with_service_name(SERVICE_NAME)
        .with_service_name("grpc.health.v1.Health")
}

/// Builds the configured tables off the async workers, then reports SERVING.
fn spawn_warm_up(config: &Config, health: Health) {
    let kinds = config.warm_up.clone();
    tokio::spawn(async move {
        let started = Instant::now();
        let built = tokio::task::spawn_blocking(move || {
            for kind in kinds {
                let started = Instant::now();
                engine::warm_up(kind);
                tracing::info!(%kind, elapsed = ?started.elapsed(), "tables built");
            }
        })
        .await;
        match built {
            Ok(()) => {
                if health.set(ServingStatus::Serving).await {
                    tracing::info!(elapsed = ?started.elapsed(), "warm-up done: SERVING");
                }
            }
            Err(err) => tracing::error!(cause = %err, "warm-up failed; staying NOT_SERVING"),
        }
    });
}

/// The health reporter, serialised with shutdown so a late warm-up cannot report SERVING after
/// shutdown began.
#[derive(Debug, Clone)]
struct Health {
    reporter: HealthReporter,
    shutting_down: Arc<Mutex<bool>>,
}

impl Health {
    /// Sets the overall and the solver's status; returns false once shutdown began.
    async fn set(&self, status: ServingStatus) -> bool {
        let shutting_down = self.shutting_down.lock().await;
        if *shutting_down {
            return false;
        }
        self.report(status).await;
        true
    }

    /// Reports NOT_SERVING for good.
    async fn shut_down(&self) {
        let mut shutting_down = self.shutting_down.lock().await;
        *shutting_down = true;
        self.report(ServingStatus::NotServing).await;
    }

    async fn report(&self, status: ServingStatus) {
        self.reporter.set_service_status("", status).await;
        self.reporter.set_service_status(SERVICE_NAME, status).await;
    }
}
