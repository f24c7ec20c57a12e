//! The in-process server of the tests here and of the crate's unit tests: the workspace's
//! [`TestServer`] on a runtime of its own, so that a test can kill it abruptly, like a crashed
//! process, while the client under test (another process, or another runtime) keeps running.

use std::path::PathBuf;

use solver_test_support::server::TestServer;

/// The data directory every test shares (the server's tests use the same one): databases one
/// test builds are stored there and loaded by the others, never in the user's cache. Unit tests,
/// which have no target temporary directory, use the system's.
pub(crate) fn data_dir() -> PathBuf {
    option_env!("CARGO_TARGET_TMPDIR").map_or_else(
        || std::env::temp_dir().join("puzzle-solver-test-data"),
        |dir| std::path::Path::new(dir).join("data"),
    )
}

/// A running server. Killing or dropping it drops every task and connection at once.
pub(crate) struct Server {
    server: TestServer,
    runtime: Option<tokio::runtime::Runtime>,
}

impl Server {
    /// Starts a server with the tests' data directory, never building the 7-8 databases in the
    /// background.
    pub(crate) fn start() -> Self {
        Self::start_with(|_| {})
    }

    /// Starts a server as [`start`](Self::start) does, with `change` applied to its
    /// configuration (TLS files, say).
    pub(crate) fn start_with(change: impl FnOnce(&mut solver_server::Config)) -> Self {
        // One I/O thread, as the embedded server has: searches run on the server's own pool.
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("a runtime for the server");
        let mut config = solver_server::Config::default();
        config.tables.data_dir = Some(data_dir());
        config.tables.build_databases = false;
        // The 5×5 automaton of 12 moves, built in about 0.3 s (the default 14: about 2 s).
        config.tables.move_pruning = 12;
        change(&mut config);
        let server = runtime.block_on(TestServer::start(config));
        Self {
            server,
            runtime: Some(runtime),
        }
    }

    /// Where it serves gRPC.
    pub(crate) fn addr(&self) -> std::net::SocketAddr {
        self.server.addr
    }

    /// Its gRPC URL.
    pub(crate) fn url(&self) -> String {
        format!("http://{}", self.addr())
    }

    /// Stops it abruptly.
    pub(crate) fn kill(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }

    /// How many cases of `kind` (`"eight"`, `"fifteen"`, `"solitaire"`) it has answered, whatever
    /// the outcome.
    pub(crate) fn cases_answered(&self, kind: &str) -> u64 {
        let runtime = self.runtime.as_ref().expect("a running server");
        let text = runtime.block_on(self.server.scrape());
        let label = format!("kind=\"{kind}\"");
        text.lines()
            .filter(|l| l.starts_with("solver_cases_total{") && l.contains(&label))
            .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
            .sum::<f64>() as u64
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}
