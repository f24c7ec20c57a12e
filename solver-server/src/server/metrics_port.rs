//! The Prometheus endpoint on its own port: where it listens, and its task until the server
//! stops.

use std::net::SocketAddr;
use std::sync::Arc;

use tokio::net::TcpListener;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::errors::ServeError;
use crate::metrics::{self, Metrics};

/// Starts the metrics endpoint on `bound` when given, else on `wanted` (see [`metrics_address`])
/// beside the gRPC port `grpc`, until `stopped`; `None` when metrics are off (`wanted` is none).
pub(super) async fn start(
    bound: Option<TcpListener>,
    wanted: Option<SocketAddr>,
    grpc: SocketAddr,
    metrics: &Arc<Metrics>,
    stopped: &CancellationToken,
) -> Result<Option<JoinHandle<std::io::Result<()>>>, ServeError> {
    let listener = match (bound, wanted) {
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
fn metrics_address(wanted: SocketAddr, grpc: SocketAddr) -> SocketAddr {
    if wanted.ip().is_unspecified() && grpc.ip().is_loopback() {
        SocketAddr::new(grpc.ip(), wanted.port())
    } else {
        wanted
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_follow_a_loopback_listen_address() {
        let addr = |text: &str| text.parse::<SocketAddr>().unwrap();
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
