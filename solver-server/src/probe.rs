//! The `health` command: one `grpc.health.v1.Health/Check` call, for container health checks
//! in images that carry no other tools.

use std::time::Duration;

use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

/// Why a health check gave no status.
#[derive(Debug, thiserror::Error)]
pub enum ProbeError {
    /// The address is not a URL or `host:port`.
    #[error("{url} is not a server address: {source}")]
    Address {
        /// The URL tried.
        url: String,
        /// Why.
        source: tonic::transport::Error,
    },
    /// No connection.
    #[error("cannot connect to {url}: {source}")]
    Connect {
        /// The URL tried.
        url: String,
        /// Why.
        source: tonic::transport::Error,
    },
    /// The call failed.
    #[error("health check failed: {}", .0.message())]
    Call(tonic::Status),
    /// No answer in time.
    #[error("no answer from {url} within {timeout:?}")]
    Timeout {
        /// The URL tried.
        url: String,
        /// How long it waited.
        timeout: Duration,
    },
}

/// Asks the server at `addr` (`host:port`, or a URL) for its overall health, giving up after
/// `timeout`.
///
/// # Errors
/// [`ProbeError`] when the server cannot be reached or does not answer in time.
pub async fn check_health(addr: &str, timeout: Duration) -> Result<ServingStatus, ProbeError> {
    let url = if addr.contains("://") {
        addr.to_owned()
    } else {
        format!("http://{addr}")
    };
    let endpoint = tonic::transport::Endpoint::from_shared(url.clone())
        .map_err(|source| ProbeError::Address {
            url: url.clone(),
            source,
        })?
        .connect_timeout(timeout)
        .timeout(timeout);
    let call = async {
        let channel = endpoint
            .connect()
            .await
            .map_err(|source| ProbeError::Connect {
                url: url.clone(),
                source,
            })?;
        let reply = HealthClient::new(channel)
            .check(HealthCheckRequest {
                service: String::new(),
            })
            .await
            .map_err(ProbeError::Call)?;
        Ok(ServingStatus::try_from(reply.into_inner().status).unwrap_or(ServingStatus::Unknown))
    };
    tokio::time::timeout(timeout, call)
        .await
        .unwrap_or_else(|_| Err(ProbeError::Timeout { url, timeout }))
}
