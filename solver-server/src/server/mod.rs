//! The server's lifecycle: build the services, warm the tables up, serve, and shut down in order
//! (health NOT_SERVING first, then drain within the grace period, then cancel what is left).
//! One file per part: the services and their filters (`services`), health and the drain
//! (`lifecycle`); each puzzle family's warm-up is its own (`crate::puzzles`); this one wires them
//! to the transport.

pub(crate) mod lifecycle;
mod services;

use std::future::Future;
use std::sync::Arc;

use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio::task::JoinHandle;
use tokio_stream::StreamExt as _;
use tokio_util::sync::CancellationToken;
use tonic::transport::Server;
use tonic::transport::server::TcpIncoming;
use tonic_health::ServingStatus;

use self::lifecycle::Health;
use crate::accept;
use crate::cache::Cache;
use crate::coalesce::{self, Coalescing};
use crate::config::Config;
use crate::errors::ServeError;
use crate::http::Http2Limits;
use crate::metrics::{self, Metrics};
use crate::page::PageLayer;
use crate::puzzles::families::Families;
use crate::scheduler::Scheduler;
use crate::service::Shared;
use crate::tls;
use crate::watch;
use crate::web;
use solver_core::tiles::solver::Squares;

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
    serve_with(listener, None, config, Arc::new(Squares::new()), shutdown).await
}

/// As [`serve`], with the 8- and 15-puzzle tables of `squares`, which the caller may share
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
    squares: Arc<Squares>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let config = Arc::new(config);
    let metrics = Arc::new(Metrics::new());
    let scheduler = Arc::new(Scheduler::new(config.worker_count(), Arc::clone(&metrics)));
    let shared = shared_state(&config, &squares, &metrics, &scheduler);
    let local = listener.local_addr()?;
    let stopped = CancellationToken::new();
    // The metrics port, the TLS files and the tokens first: a server that cannot have them
    // does not start.
    let metrics_task =
        metrics_endpoint(metrics_listener, &config, local, &metrics, &stopped).await?;
    let tls = config.tls().map(tls::load).transpose()?;
    let auth = services::load_auth(&config, &stopped)?;

    let (health, health_service) = Health::start().await;
    let serving = health.clone();
    crate::puzzles::warm_up(
        &shared,
        Box::new(move || Box::pin(async move { serving.set(ServingStatus::Serving).await })),
    );
    let routes = services::routes(&shared, &config, health_service, auth)?;

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
    // answered in front of everything else (see `page`); every request is stamped with its
    // arrival first (see `arrival`).
    let router = builder
        .accept_http1(true)
        .layer(crate::arrival::ArrivalLayer)
        .layer(PageLayer::new(config.web_page))
        .layer(web::layers(&config.cors_allowed_origins))
        .add_routes(routes);
    let signal = lifecycle::drain_on(shutdown, health, Arc::clone(&shared));

    tracing::info!(
        addr = %local,
        workers = config.worker_count(),
        tls = tls.is_some(),
        mutual_tls = config.tls_client_ca.is_some(),
        "gRPC server listening"
    );
    // Every connection is read through `Coalescing` (see `coalesce` for why), after the TLS
    // handshake when the port speaks TLS. Accept errors (out of file descriptors) pause the
    // accepting (see `accept`).
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
    lifecycle::finish(served, &shared, stopped, metrics_task).await
}

/// What every call of the server shares: its configuration, tables, cache, scheduler and
/// limits.
fn shared_state(
    config: &Arc<Config>,
    squares: &Arc<Squares>,
    metrics: &Arc<Metrics>,
    scheduler: &Arc<Scheduler>,
) -> Arc<Shared> {
    Arc::new(Shared {
        families: Families::new(config, Arc::clone(squares)),
        cache: Cache::new(config.cache_entries, Arc::clone(metrics)),
        scheduler: Arc::clone(scheduler),
        search_memory: crate::budget::MemoryBudget::new(config.search_memory_bytes()),
        streams: Arc::new(Semaphore::new(config.max_streams)),
        draining: CancellationToken::new(),
        abort: CancellationToken::new(),
        metrics: Arc::clone(metrics),
        config: Arc::clone(config),
    })
}

/// Starts the metrics endpoint on `bound` when given, else on the configured address (see
/// [`metrics_address`]), until `stopped`; `None` when metrics are off.
async fn metrics_endpoint(
    bound: Option<TcpListener>,
    config: &Config,
    grpc: std::net::SocketAddr,
    metrics: &Arc<Metrics>,
    stopped: &CancellationToken,
) -> Result<Option<JoinHandle<std::io::Result<()>>>, ServeError> {
    let listener = match (bound, config.metrics_listen) {
        (Some(bound), _) => bound,
        (None, Some(addr)) => TcpListener::bind(metrics_address(addr, grpc))
            .await
            .map_err(|source| ServeError::MetricsBind { addr, source })?,
        (None, None) => return Ok(None),
    };
    Ok(Some(tokio::spawn(metrics::serve_metrics(
        listener,
        Arc::clone(metrics),
        stopped.clone(),
    ))))
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
