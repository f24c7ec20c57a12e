//! The one in-process server of the tests, here and in the crate's unit tests: the real
//! `solver_server::serve` on a loopback port, on a runtime of its own, with a Prometheus endpoint
//! to count what it answered.

use std::io::{Read as _, Write as _};
use std::net::SocketAddr;
use std::path::PathBuf;

/// The data directory every test shares (the server's tests use the same one): databases one
/// test builds are stored there and loaded by the others, never in the user's cache. Unit tests,
/// which have no target temporary directory, use the system's.
pub(crate) fn data_dir() -> PathBuf {
    option_env!("CARGO_TARGET_TMPDIR").map_or_else(
        || std::env::temp_dir().join("puzzle-solver-test-data"),
        |dir| std::path::Path::new(dir).join("data"),
    )
}

/// A running server. Killing or dropping it drops every task and connection at once, like a
/// crashed process.
pub(crate) struct Server {
    /// Where it serves gRPC.
    pub(crate) addr: SocketAddr,
    /// Its Prometheus endpoint.
    pub(crate) metrics: SocketAddr,
    runtime: Option<tokio::runtime::Runtime>,
}

impl Server {
    /// Starts a server on free loopback ports with the tests' data directory, never building the
    /// 7-8 databases in the background.
    pub(crate) fn start() -> Self {
        // One I/O thread, as the embedded server has: searches run on the server's own pool.
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("a runtime for the server");
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .expect("a loopback port");
        let addr = listener.local_addr().expect("its address");
        // A free port for the metrics endpoint (serve binds it itself).
        let metrics = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a loopback port for metrics");
        let config = solver_server::Config {
            metrics_listen: Some(metrics),
            data_dir: Some(data_dir()),
            build_databases: false,
            ..solver_server::Config::default()
        };
        runtime.spawn(solver_server::serve(
            listener,
            config,
            std::future::pending::<()>(),
        ));
        Self {
            addr,
            metrics,
            runtime: Some(runtime),
        }
    }

    /// Its gRPC URL.
    pub(crate) fn url(&self) -> String {
        format!("http://{}", self.addr)
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
        let mut stream =
            std::net::TcpStream::connect(self.metrics).expect("connecting to /metrics");
        stream
            .write_all(b"GET /metrics HTTP/1.0\r\nHost: localhost\r\n\r\n")
            .expect("asking for /metrics");
        let mut text = String::new();
        stream.read_to_string(&mut text).expect("reading /metrics");
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
