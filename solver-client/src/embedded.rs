//! The server embedded in the client's own process, for runs without `--server`.
//!
//! It is the real `solver_server::serve` on a loopback port with its own multi-threaded runtime
//! on a background thread, and the client talks gRPC to it exactly as to a remote server. So one
//! command works on a fresh machine, and the embedded path tests the same code as production.
//!
//! This is the one file of the client that knows the server crate: the rest of the client says
//! which tables a run needs ([`Tables`]), and learns what the server found in the data directory
//! from [`Embedded::stop`].

use std::net::SocketAddr;
use std::time::Duration;

use solver_core::fifteen::DatabaseSet;
use solver_server::{Config, Kind, ServingStatus};
use solver_store::{DataDir, Findings, Found};
use tokio::sync::oneshot;

/// The tables a run needs ready, by the puzzle its cases are: what the embedded server warms up
/// before it reports SERVING.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tables {
    /// The 8-puzzle's complete table.
    Eight,
    /// The 15-puzzle's pattern databases.
    Fifteen,
    /// None: a puzzle that needs no tables (Solitaire).
    None,
    /// Any other sliding shape (its tables are built on its first case). Not `Sliding`, which
    /// in the client is the whole family, 3×3 and 4×4 included.
    OtherShape,
}

impl Tables {
    /// The server's name for the puzzle kind whose tables these are; `None` for none.
    fn kind(self) -> Option<Kind> {
        match self {
            Tables::Eight => Some(Kind::Eight),
            Tables::Fifteen => Some(Kind::Fifteen),
            Tables::OtherShape => Some(Kind::Sliding),
            Tables::None => None,
        }
    }
}

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
    /// What the server reports of the files it finds in the data directory.
    found: Found,
    _shutdown: oneshot::Sender<()>,
}

impl Embedded {
    /// Starts a server on `127.0.0.1:0` that gets the tables of `warm_up` ready at once (the
    /// others when the first case needs them), loading and storing databases in `data`.
    ///
    /// # Errors
    /// If no loopback port can be bound or no thread started.
    pub(crate) fn start(warm_up: Vec<Tables>, data: DataDir) -> Result<Self, EmbeddedError> {
        let listener =
            std::net::TcpListener::bind(("127.0.0.1", 0)).map_err(EmbeddedError::Bind)?;
        listener
            .set_nonblocking(true)
            .map_err(EmbeddedError::Bind)?;
        let addr = listener.local_addr().map_err(EmbeddedError::Bind)?;
        let (findings, found) = Findings::channel();
        let mut config = Config::default();
        config.tables.warm_up = warm_up
            .into_iter()
            .filter_map(Tables::kind)
            .collect::<Vec<_>>()
            .into();
        // Stored databases are loaded, built ones stored, so only the first run builds; a
        // short-lived client never builds the 7-8 set by itself (`databases build` does).
        config.tables.no_data_dir = data.path().is_none();
        config.tables.data_dir = data.path().map(Into::into);
        config.tables.findings = findings;
        config.tables.build_databases = false;
        // A short-lived server's first 5×5 case searches without the move-pruning automaton
        // while it is built: the quick one (12 moves, about 0.3 s) costs it least.
        config.tables.move_pruning = 12;
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
                        eprintln!(
                            "solver-client: the embedded server failed: {}",
                            crate::causes::one_line(&e)
                        );
                    }
                });
            })
            .map_err(EmbeddedError::Thread)?;
        Ok(Self {
            addr,
            found,
            _shutdown: shutdown,
        })
    }

    /// Asks the server to shut down (as dropping it does) and returns the 15-puzzle sets whose
    /// stored file it found unusable (it warned, and did without them) and did not store again.
    pub(crate) fn stop(self) -> Vec<DatabaseSet> {
        let Self {
            found,
            _shutdown: shutdown,
            ..
        } = self;
        drop(shutdown);
        found.unusable()
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A stored 7-8 file that fails its checks: the server warms up with the 6-6-3 set, and the
    /// client learns from it that the 7-8 set is to be built again (after answering).
    #[test]
    fn the_server_reports_a_corrupt_strong_set() {
        let dir = std::env::temp_dir().join(format!("solver-embedded-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let data = DataDir::new(Some(dir.clone()));
        std::fs::write(data.file(solver_store::STRONG).unwrap(), b"SLIDEPDB").unwrap();
        let embedded = Embedded::start(vec![Tables::Fifteen], data).unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(embedded.ready()).unwrap();
        assert_eq!(embedded.stop(), [solver_store::STRONG]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
