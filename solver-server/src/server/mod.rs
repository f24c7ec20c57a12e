//! The server's lifecycle: build the services, warm the tables up, serve, and shut down in order
//! (health NOT_SERVING first, then drain within the grace period, then cancel what is left).
//! One file per part, wired together here: the services and their filters (`services`), the HTTP
//! layers in front of them and the page (`layers`), the port's TLS, HTTP/2 settings and
//! connections (`port`), the metrics port (`metrics_port`), health, the drain and the end
//! (`lifecycle`); each puzzle family's warm-up is its own (`crate::puzzles`).

mod layers;
pub(crate) mod lifecycle;
mod metrics_port;
mod port;
mod services;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

use self::port::Port;
use crate::cache::Cache;
use crate::config::Config;
use crate::errors::ServeError;
use crate::metrics::Metrics;
use crate::puzzles::families::Families;
use crate::scheduler::Scheduler;
use crate::service::Shared;
use solver_core::tiles::solver::Squares;

/// Serves the solver, health and reflection services on `listener` (and metrics on
/// `config.metrics.listen`) until `shutdown` completes.
///
/// Health reports NOT_SERVING until the tables named by `config.tables.warm_up` are built, SERVING
/// after. With `config.tables.data_dir`, the 7-8 pattern databases are then loaded (or built) in the
/// background, and 15-puzzle cases use them from then on. When `shutdown` completes, health
/// flips back to NOT_SERVING, the listener closes, streams stop reading new cases and finish
/// those in flight; whatever is still running after `config.shutdown.grace_period` is cancelled
/// and its stream ends with UNAVAILABLE. Then this returns.
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
/// be taken in between), else on `config.metrics.listen`.
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
    let shared = shared_state(&config, &squares, &metrics);
    let local = listener.local_addr()?;
    let stopped = CancellationToken::new();
    // The metrics port, the TLS files and the tokens first: a server that cannot have them
    // does not start.
    let metrics_port = metrics_port::start(
        metrics_listener,
        config.metrics.listen,
        local,
        &metrics,
        &stopped,
    )
    .await?;
    let port = Port::new(&config)?;
    let auth = services::load_auth(&config.auth, &stopped)?;

    let (health, health_service) = lifecycle::start(&shared).await;
    let routes = services::routes(&shared, &config, health_service, auth)?;
    let router = port
        .server()
        .layer(layers::layers(&config.web))
        .add_routes(routes);
    let signal = lifecycle::drain_on(shutdown, health, Arc::clone(&shared));

    log_listening(local, &config, &port);
    let served = port.serve(router, listener, signal, &stopped);
    lifecycle::finish(served, &shared, stopped, metrics_port).await
}

/// What every call of the server shares: its configuration, tables, cache, scheduler and
/// limits.
fn shared_state(
    config: &Arc<Config>,
    squares: &Arc<Squares>,
    metrics: &Arc<Metrics>,
) -> Arc<Shared> {
    let scheduler = Scheduler::new(config.scheduling.worker_count(), Arc::clone(metrics));
    Arc::new(Shared {
        families: Families::new(config, Arc::clone(squares)),
        cache: Cache::new(config.limits.cache_entries, Arc::clone(metrics)),
        scheduler: Arc::new(scheduler),
        search_memory: crate::budget::MemoryBudget::new(config.limits.search_memory_bytes()),
        streams: Arc::new(Semaphore::new(config.limits.max_streams)),
        draining: CancellationToken::new(),
        abort: CancellationToken::new(),
        metrics: Arc::clone(metrics),
        config: Arc::clone(config),
    })
}

/// The line that says the server is up, and how.
fn log_listening(addr: SocketAddr, config: &Config, port: &Port) {
    tracing::info!(
        addr = %addr,
        workers = config.scheduling.worker_count(),
        tls = port.is_tls(),
        mutual_tls = config.tls.client_ca.is_some(),
        "gRPC server listening"
    );
}
