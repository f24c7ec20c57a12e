//! In-process servers with a Prometheus endpoint, and reading it: for the tests here and the
//! crate's unit tests.

use std::io::{Read as _, Write as _};
use std::net::SocketAddr;

/// Starts a server on `runtime` on free loopback ports; returns its gRPC and metrics addresses.
pub(crate) fn start_on(runtime: &tokio::runtime::Runtime) -> (SocketAddr, SocketAddr) {
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .expect("a loopback port");
    let addr = listener.local_addr().expect("its address");
    // A free port for the metrics endpoint (serve binds it itself).
    let metrics = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a loopback port for metrics");
    // The tests' data directory (shared with the other tests; unit tests, which have no target
    // temporary directory, use the system's), never the user's cache.
    let data_dir = option_env!("CARGO_TARGET_TMPDIR").map_or_else(
        || std::env::temp_dir().join("puzzle-solver-test-data"),
        |dir| std::path::Path::new(dir).join("data"),
    );
    let config = solver_server::Config {
        metrics_listen: Some(metrics),
        data_dir: Some(data_dir),
        build_databases: false,
        ..solver_server::Config::default()
    };
    runtime.spawn(solver_server::serve(
        listener,
        config,
        std::future::pending::<()>(),
    ));
    (addr, metrics)
}

/// How many cases of `kind` (`"eight"`, `"fifteen"`, `"solitaire"`) the server whose metrics
/// listen on `metrics` has answered, whatever the outcome.
pub(crate) fn cases_answered(metrics: SocketAddr, kind: &str) -> u64 {
    let mut stream = std::net::TcpStream::connect(metrics).expect("connecting to /metrics");
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
