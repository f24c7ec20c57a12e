//! The server embedded in the client's own process, for runs without `--server`.
//!
//! It is the real `solver_server::serve` on a loopback port with its own multi-threaded runtime
//! on a background thread, and the client talks gRPC to it exactly as to a remote server. So one
//! command works on a fresh machine, and the embedded path tests the same code as production.

use std::net::SocketAddr;
use std::time::Duration;

use solver_server::{Config, DataDir, Kind, ServingStatus};
use tokio::sync::oneshot;

/// Why the embedded server is not there.
#[derive(Debug, thiserror::Error)]
pub(crate) enum EmbeddedError {
    /// No loopback port.
    #[error("binding a loopback port for the embedded server")]
    Bind(#[source] std::io::Error),
    /// No thread.
    #[error("starting the embedded server's thread")]
    Thread(#[source] std::io::Error),
    /// Not SERVING in time: why (its last health answer, or why there was none).
    #[error("the embedded server was not ready after {limit:?}: {why}")]
    NotReady {
        /// How long it had.
        limit: Duration,
        /// Its last status, or why none came.
        why: String,
    },
}

/// A running embedded server. Dropping it asks the server to shut down.
#[derive(Debug)]
pub(crate) struct Embedded {
    addr: SocketAddr,
    _shutdown: oneshot::Sender<()>,
}

impl Embedded {
    /// Starts a server on `127.0.0.1:0` that gets the tables of `warm_up` ready at once (the
    /// others when the first case needs them), loading and storing databases in `data`.
    ///
    /// # Errors
    /// If no loopback port can be bound or no thread started.
    pub(crate) fn start(warm_up: Vec<Kind>, data: DataDir) -> Result<Self, EmbeddedError> {
        let listener =
            std::net::TcpListener::bind(("127.0.0.1", 0)).map_err(EmbeddedError::Bind)?;
        listener
            .set_nonblocking(true)
            .map_err(EmbeddedError::Bind)?;
        let addr = listener.local_addr().map_err(EmbeddedError::Bind)?;
        let config = Config {
            warm_up: warm_up.into(),
            // Stored databases are loaded, built ones stored, so only the first run builds; a
            // short-lived client never builds the 7-8 set by itself (`databases build` does).
            no_data_dir: data.path().is_none(),
            data_dir: data.path().map(Into::into),
            shared_data: Some(data),
            build_databases: false,
            ..Config::default()
        };
        let (shutdown, stop) = oneshot::channel::<()>();
        std::thread::Builder::new()
            .name("embedded-server".to_owned())
            .spawn(move || {
                // One I/O thread is enough: searches run on the server's own pool, and fewer
                // threads mean fewer cross-thread wake-ups on a busy stream.
                let runtime = match tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(1)
                    .enable_all()
                    .thread_name("embedded-server")
                    .build()
                {
                    Ok(runtime) => runtime,
                    Err(e) => {
                        eprintln!("solver-client: cannot start the embedded server: {e}");
                        return;
                    }
                };
                runtime.block_on(async move {
                    let served = match tokio::net::TcpListener::from_std(listener) {
                        Ok(listener) => solver_server::serve(listener, config, async move {
                            let _ = stop.await;
                        })
                        .await
                        .map_err(anyhow::Error::from),
                        Err(e) => Err(e.into()),
                    };
                    if let Err(e) = served {
                        eprintln!("solver-client: the embedded server failed: {e:#}");
                    }
                });
            })
            .map_err(EmbeddedError::Thread)?;
        Ok(Self {
            addr,
            _shutdown: shutdown,
        })
    }

    /// The URL to connect to.
    pub(crate) fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Waits until the server reports SERVING, i.e. its tables are ready. Cases sent earlier
    /// would only wait inside the server, except 15-puzzle cases racing the load of stored
    /// databases, which would build the 6-6-3 ones for nothing.
    ///
    /// # Errors
    /// If the server is not ready within [`READY_LIMIT`] (it died, or cannot build its tables).
    pub(crate) async fn ready(&self) -> Result<(), EmbeddedError> {
        let started = std::time::Instant::now();
        loop {
            let status = solver_server::check_health(&self.addr.to_string(), POLL).await;
            if matches!(status, Ok(ServingStatus::Serving)) {
                return Ok(());
            }
            if started.elapsed() > READY_LIMIT {
                let why = status.map_or_else(|e| e.to_string(), |s| s.as_str_name().to_owned());
                return Err(EmbeddedError::NotReady {
                    limit: READY_LIMIT,
                    why,
                });
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
}

/// How long one readiness check may take.
const POLL: Duration = Duration::from_secs(1);
/// How long the embedded server may take to get its tables ready (the 15-puzzle's take seconds).
const READY_LIMIT: Duration = Duration::from_secs(600);
