//! The `health` command: one `grpc.health.v1.Health/Check` call, for container health checks
//! in images that carry no other tools.

use std::time::Duration;

use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

/// Asks the server at `addr` (`host:port`, or a URL) for its overall health, giving up after
/// `timeout`. Returns the status name (`SERVING`, `NOT_SERVING`, ...).
///
/// # Errors
/// A message when the server cannot be reached or does not answer in time.
pub async fn check_health(addr: &str, timeout: Duration) -> Result<String, String> {
    let url = if addr.contains("://") {
        addr.to_owned()
    } else {
        format!("http://{addr}")
    };
    let endpoint = tonic::transport::Endpoint::from_shared(url.clone())
        .map_err(|e| format!("{url} is not a server address: {e}"))?
        .connect_timeout(timeout)
        .timeout(timeout);
    let call = async {
        let channel = endpoint
            .connect()
            .await
            .map_err(|e| format!("cannot connect to {url}: {e}"))?;
        let reply = HealthClient::new(channel)
            .check(HealthCheckRequest {
                service: String::new(),
            })
            .await
            .map_err(|status| format!("health check failed: {}", status.message()))?;
        let status =
            ServingStatus::try_from(reply.into_inner().status).unwrap_or(ServingStatus::Unknown);
        Ok(status.as_str_name().to_owned())
    };
    tokio::time::timeout(timeout, call)
        .await
        .unwrap_or_else(|_| Err(format!("no answer from {url} within {timeout:?}")))
}
