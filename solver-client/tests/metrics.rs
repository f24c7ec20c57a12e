//! Reading a server's Prometheus endpoint, for tests here and in the crate's unit tests.

use std::io::{Read as _, Write as _};
use std::net::SocketAddr;

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
