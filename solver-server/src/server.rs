//! The server's lifecycle: build the services, warm the tables up, serve, and shut down in order
//! (health NOT_SERVING first, then drain within the grace period, then cancel what is left).

use std::future::Future;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use solver_core::fifteen::{self, DatabaseSet, Partition};
use solver_proto::v2::solver_service_server::SolverServiceServer;
use tokio::net::TcpListener;
use tokio::sync::{Mutex, Semaphore};
use tokio_stream::StreamExt as _;
use tokio_util::sync::CancellationToken;
use tonic::codec::CompressionEncoding;
use tonic::service::RoutesBuilder;
use tonic::transport::Server;
use tonic::transport::server::TcpIncoming;
use tonic_health::ServingStatus;
use tonic_health::server::HealthReporter;

use crate::accept;
use crate::auth::{self, Auth};
use crate::cache::Cache;
use crate::coalesce::{self, Coalescing};
use crate::config::{Config, Kind};
use crate::data::DataDir;
use crate::engine::Engine;
use crate::errors::ServeError;
use crate::http::{self, Http2Limits};
use crate::metrics::{self, Metrics};
use crate::page::PageLayer;
use crate::pb;
use crate::pb::solver_server::SolverServer;
use crate::scheduler::{JobError, Scheduler, run_paced};
use crate::service::{Shared, SolverService, SolverServiceV2};
use crate::tls;
use crate::watch;
use crate::web;

/// The fully qualified name of the v1 solver service, as health and reflection know it.
const SERVICE_NAME: &str = "solver.v1.Solver";
/// The fully qualified name of the v2 solver service.
const SERVICE_NAME_V2: &str = "solver.v2.SolverService";

/// The one compression every service accepts and offers.
const GZIP: CompressionEncoding = CompressionEncoding::Gzip;

/// How long connections may linger once the grace period is over and every stream was cancelled.
const LINGER: Duration = Duration::from_secs(1);

/// Serves the solver, health and reflection services on `listener` (and metrics on
/// `config.metrics_listen`) until `shutdown` completes.
///
/// Health reports NOT_SERVING until the tables named by `config.warm_up` are built, SERVING
/// after. With `config.data_dir`, the 7-8 pattern databases are then loaded (or built) in the
/// background, and 15-puzzle cases use them from then on. When `shutdown` completes, health flips back to NOT_SERVING, the listener closes,
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
    serve_with(listener, None, config, Arc::new(Engine::new()), shutdown).await
}

/// As [`serve`], with the 8- and 15-puzzle tables of `engine`, which the caller may share
/// between servers (tests start many servers in one process and build the tables once), and
/// metrics on `metrics_listener` when given (bound by the caller, so a port picked for it cannot
/// be taken in between), else on `config.metrics_listen`.
///
/// # Errors
/// As [`serve`].
pub async fn serve_with(
    listener: TcpListener,
    metrics_listener: Option<TcpListener>,
    config: Config,
    engine: Arc<Engine>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let config = Arc::new(config);
    let data = config.data();
    let metrics = Arc::new(Metrics::new());
    let scheduler = Arc::new(Scheduler::new(config.worker_count(), Arc::clone(&metrics)));
    let shared = Arc::new(Shared {
        engine: Arc::clone(&engine),
        cache: Cache::new(config.cache_entries, Arc::clone(&metrics)),
        scheduler: Arc::clone(&scheduler),
        long_solitaire: Arc::default(),
        search_memory: crate::budget::MemoryBudget::new(config.search_memory_bytes()),
        fifteen_building: Arc::default(),
        grids: Arc::new(crate::grids::Grids::new(
            data.clone(),
            config.worker_count(),
            config.table_memory << 20,
            config.request_build_memory.saturating_mul(1 << 20),
        )),
        data,
        streams: Arc::new(Semaphore::new(config.max_streams)),
        draining: CancellationToken::new(),
        abort: CancellationToken::new(),
        metrics: Arc::clone(&metrics),
        config: Arc::clone(&config),
    });
    let local = listener.local_addr()?;

    // The metrics endpoint first, so a port already in use fails at once.
    let stopped = CancellationToken::new();
    // The TLS files must load now: a server that cannot serve its certificate does not start.
    let tls = config.tls().map(tls::load).transpose()?;
    let auth = match &config.auth_tokens_file {
        Some(path) => Some(Auth::load(
            path.clone(),
            config.max_streams_per_token,
            config.max_cases_per_token,
        )?),
        None => None,
    };
    if let Some(auth) = &auth {
        tokio::spawn(watch::watch(auth.tokens(), stopped.clone()));
    }
    let metrics_listener = match (metrics_listener, config.metrics_listen) {
        (Some(bound), _) => Some(bound),
        (None, Some(addr)) => Some(
            TcpListener::bind(metrics_address(addr, local))
                .await
                .map_err(|source| ServeError::MetricsBind { addr, source })?,
        ),
        (None, None) => None,
    };
    let metrics_task = metrics_listener.map(|metrics_listener| {
        tokio::spawn(metrics::serve_metrics(
            metrics_listener,
            Arc::clone(&metrics),
            stopped.clone(),
        ))
    });

    let (reporter, health_service) = tonic_health::server::health_reporter();
    let health = Health {
        reporter,
        shutting_down: Arc::new(Mutex::new(false)),
    };
    health.set(ServingStatus::NotServing).await;
    spawn_warm_up(
        &config,
        engine,
        shared.data.clone(),
        health.clone(),
        Arc::clone(&metrics),
        scheduler,
    );

    // Every service takes gzip-compressed requests, and compresses its responses for a client
    // that says it accepts gzip (`grpc-accept-encoding`); others get them uncompressed.
    let reflection_v1 = reflection()
        .build_v1()?
        .accept_compressed(GZIP)
        .send_compressed(GZIP);
    let reflection_v1alpha = reflection()
        .build_v1alpha()?
        .accept_compressed(GZIP)
        .send_compressed(GZIP);
    let health_service = health_service.accept_compressed(GZIP).send_compressed(GZIP);
    let solver = SolverServer::new(SolverService::new(Arc::clone(&shared)))
        .max_decoding_message_size(config.max_message_bytes)
        .max_encoding_message_size(config.max_message_bytes)
        .accept_compressed(GZIP)
        .send_compressed(GZIP);
    let solver_v2 = SolverServiceServer::new(SolverServiceV2::new(Arc::clone(&shared)))
        .max_decoding_message_size(config.max_message_bytes)
        .max_encoding_message_size(config.max_message_bytes)
        .accept_compressed(GZIP)
        .send_compressed(GZIP);

    // Small stream windows, and a connection window whose half (h2's budget for unread small
    // DATA frames) covers every stream full of one-message frames: a full window slows a
    // sender, never gets it GOAWAY. The arithmetic is in `http`.
    let limits = Http2Limits::new(config.max_streams, config.stream_window);
    let mut builder = Server::builder()
        .initial_stream_window_size(limits.stream_window)
        .initial_connection_window_size(limits.connection_window)
        .max_concurrent_streams(limits.streams_per_connection)
        .trace_fn(|request| tracing::info_span!("grpc", path = %request.uri().path()));
    if let Some(age) = config.max_connection_age {
        builder = builder.max_connection_age(age);
    }
    // HTTP/1.1 too, for gRPC-Web from browsers (see `web`). The page at `/`, when on, is
    // answered in front of everything else (see `page`).
    let mut builder = builder
        .accept_http1(true)
        .layer(crate::arrival::ArrivalLayer)
        .layer(PageLayer::new(config.web_page))
        .layer(web::layers(&config.cors_allowed_origins));
    let mut routes = RoutesBuilder::default();
    routes
        .add_service(health_service)
        .add_service(reflection_v1)
        .add_service(reflection_v1alpha)
        .add_service(solver)
        .add_service(solver_v2);
    // GET and non-gRPC content types are refused before any service sees them, then calls
    // without a valid bearer token when tokens are asked for; then health `Watch` and
    // reflection streams take a slot of `--max-streams` as the solver's calls do (`health`).
    let routes = crate::health::count_streams(
        routes.routes(),
        Arc::clone(&shared.streams),
        config.max_streams,
    );
    let routes = match auth {
        Some(auth) => auth::require(routes, auth),
        None => routes,
    };
    let router = builder.add_routes(http::grpc_only(routes));

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

    tracing::info!(
        addr = %local,
        workers = config.worker_count(),
        tls = tls.is_some(),
        mutual_tls = config.tls_client_ca.is_some(),
        "gRPC server listening"
    );
    // Every connection is read through `Coalescing` (see `coalesce` for why), after the TLS
    // handshake when the port speaks TLS.
    // Accept errors (out of file descriptors) pause the accepting (see `accept`).
    let tcp = accept::backoff(TcpIncoming::from(listener).with_nodelay(Some(true)));
    let connection_limits = coalesce::Limits {
        stream_window: limits.stream_window,
        streams_per_connection: limits.streams_per_connection,
        handshake_timeout: config.handshake_timeout,
    };
    let served: std::pin::Pin<
        Box<dyn Future<Output = Result<(), tonic::transport::Error>> + Send>,
    > = match tls {
        Some(files) => {
            tokio::spawn(watch::watch(Arc::clone(&files), stopped.clone()));
            let incoming = tls::accept(files, tcp, stopped.clone())
                .map(move |connection| connection.map(|io| Coalescing::new(io, connection_limits)));
            Box::pin(router.serve_with_incoming_shutdown(incoming, signal))
        }
        None => {
            let incoming = tcp
                .map(move |connection| connection.map(|io| Coalescing::new(io, connection_limits)));
            Box::pin(router.serve_with_incoming_shutdown(incoming, signal))
        }
    };
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

/// Where the metrics endpoint listens: `wanted`, but on the gRPC port's loopback interface
/// when `wanted` is every interface (the default) and gRPC listens on loopback only, so that a
/// server started for this machine alone opens nothing to others.
fn metrics_address(
    wanted: std::net::SocketAddr,
    grpc: std::net::SocketAddr,
) -> std::net::SocketAddr {
    if wanted.ip().is_unspecified() && grpc.ip().is_loopback() {
        std::net::SocketAddr::new(grpc.ip(), wanted.port())
    } else {
        wanted
    }
}

/// Reflection over the solver's and the health service's descriptors, listing both.
fn reflection() -> tonic_reflection::server::Builder<'static> {
    tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(pb::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .with_service_name(SERVICE_NAME)
        .with_service_name(SERVICE_NAME_V2)
        .with_service_name("grpc.health.v1.Health")
}

/// Gets the configured tables ready off the async workers, then reports SERVING.
///
/// Every set of 15-puzzle databases comes from the data directory when it is stored there, and
/// is stored there when built. Stored 7-8 databases (a fraction of a second to load) make the
/// 6-6-3 set unnecessary; without them the 6-6-3 set serves, and when building is allowed the
/// 7-8 set is built and stored in the background after SERVING.
fn spawn_warm_up(
    config: &Config,
    engine: Arc<Engine>,
    data: DataDir,
    health: Health,
    metrics: Arc<Metrics>,
    scheduler: Arc<Scheduler>,
) {
    let kinds = config.warm_up.0.clone();
    let fifteen = kinds.contains(&Kind::Fifteen);
    let targets = config.warm_up_targets && fifteen;
    let build = config.build_databases;
    // The builds' threads run under the scheduler, so they only take turns with the cases.
    let build_threads = scheduler.workers();
    tokio::spawn(async move {
        let started = Instant::now();
        let (warm_data, warm_engine) = (data.clone(), Arc::clone(&engine));
        let ready = run_paced(&scheduler, move |pacer| {
            let solver = warm_engine.fifteen();
            let strong = fifteen && warm_data.install_stored(solver, STRONG);
            for kind in kinds {
                let started = Instant::now();
                if kind == Kind::Fifteen && !strong {
                    warm_data.provide(solver, STANDARD, build_threads, pacer);
                }
                warm_engine.warm_up(kind, pacer);
                tracing::info!(%kind, elapsed = ?started.elapsed(), "tables ready");
            }
            fifteen && !strong
        })
        .await;
        let missing = match ready {
            Ok(missing) => missing,
            Err(JobError::Closed) => return,
            Err(err) => {
                tracing::error!(cause = %err, "warm-up panicked; staying NOT_SERVING");
                return;
            }
        };
        metrics.set_fifteen_heuristic(engine.fifteen_method());
        if health.set(ServingStatus::Serving).await {
            tracing::info!(elapsed = ?started.elapsed(), method = engine.fifteen_method(), "warm-up done: SERVING");
        }
        if targets {
            // Targets whose blank is not in a corner have databases of their own: get them now
            // rather than in the first such case.
            let started = Instant::now();
            let (targets_data, targets_engine) = (data.clone(), Arc::clone(&engine));
            let got = run_paced(&scheduler, move |pacer| {
                for set in fifteen::home_sets() {
                    targets_data.provide(targets_engine.fifteen(), set, build_threads, pacer);
                }
                targets_engine.warm_up_any_target(pacer);
            })
            .await;
            match got {
                Ok(()) => {
                    tracing::info!(elapsed = ?started.elapsed(), "15-puzzle databases for targets with the blank elsewhere ready");
                }
                Err(JobError::Closed) => return,
                Err(err) => {
                    tracing::error!(cause = %err, "building the 15-puzzle databases for other targets panicked");
                }
            }
        }
        let Some(dir) = data.path().filter(|_| missing).map(Path::to_path_buf) else {
            return;
        };
        if !build {
            tracing::info!(dir = %dir.display(), "no stored 7-8 pattern databases, and building them is off; 15-puzzle searches use the 6-6-3 ones");
            return;
        }
        tracing::info!(dir = %dir.display(), threads = build_threads, "building the 7-8 pattern databases in the background");
        let started = Instant::now();
        let strong_engine = Arc::clone(&engine);
        match run_paced(&scheduler, move |pacer| {
            data.provide(strong_engine.fifteen(), STRONG, build_threads, pacer);
        })
        .await
        {
            Ok(()) => {
                tracing::info!(elapsed = ?started.elapsed(), "7-8 pattern databases ready; 15-puzzle searches use them");
            }
            Err(JobError::Closed) => return,
            Err(err) => {
                tracing::error!(cause = %err, "building the 7-8 pattern databases panicked");
            }
        }
        metrics.set_fifteen_heuristic(engine.fifteen_method());
    });
}

/// The 15-puzzle's standard databases: the 6-6-3 set, built in seconds, and the 7-8 set.
const STANDARD: DatabaseSet = DatabaseSet::Standard(Partition::P663);
const STRONG: DatabaseSet = DatabaseSet::Standard(Partition::P78);

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
        self.reporter
            .set_service_status(SERVICE_NAME_V2, status)
            .await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_follow_a_loopback_listen_address() {
        let addr = |text: &str| text.parse::<std::net::SocketAddr>().unwrap();
        let default = addr("0.0.0.0:9090");
        assert_eq!(
            metrics_address(default, addr("127.0.0.1:50051")),
            addr("127.0.0.1:9090")
        );
        assert_eq!(
            metrics_address(default, addr("[::1]:50051")),
            addr("[::1]:9090")
        );
        assert_eq!(metrics_address(default, addr("0.0.0.0:50051")), default);
        assert_eq!(
            metrics_address(addr("10.0.0.2:9100"), addr("127.0.0.1:50051")),
            addr("10.0.0.2:9100")
        );
    }
}
