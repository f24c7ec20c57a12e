//! The `health` command: one `grpc.health.v1.Health/Check` call, for container health checks
//! in images that carry no other tools.

use std::path::PathBuf;
use std::time::Duration;

use tonic::transport::{Certificate, ClientTlsConfig, Identity};

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
    /// A TLS file could not be read.
    #[error("cannot read {path}: {source}")]
    TlsFile {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// No answer in time.
    #[error("no answer from {url} within {timeout:?}")]
    Timeout {
        /// The URL tried.
        url: String,
        /// How long it waited.
        timeout: Duration,
    },
}

/// How a health check reaches a server that speaks TLS (`https://` addresses).
#[derive(Debug, Clone, Default)]
pub struct ProbeTls {
    /// CA certificates (PEM) to trust instead of the public web roots.
    pub ca: Option<PathBuf>,
    /// A client certificate and its key (PEM), for a server that asks for one (mutual TLS).
    pub identity: Option<(PathBuf, PathBuf)>,
    /// The name the server's certificate must carry, when not the address's host.
    pub domain: Option<String>,
}

impl ProbeTls {
    fn config(&self) -> Result<ClientTlsConfig, ProbeError> {
        let read = |path: &PathBuf| {
            std::fs::read(path).map_err(|source| ProbeError::TlsFile {
                path: path.clone(),
                source,
            })
        };
        let mut config = ClientTlsConfig::new();
        config = match &self.ca {
            Some(ca) => config.ca_certificate(Certificate::from_pem(read(ca)?)),
            None => config.with_webpki_roots(),
        };
        if let Some((cert, key)) = &self.identity {
            config = config.identity(Identity::from_pem(read(cert)?, read(key)?));
        }
        if let Some(domain) = &self.domain {
            config = config.domain_name(domain.clone());
        }
        Ok(config)
    }
}

/// Asks the server at `addr` (`host:port`, or a URL) for its overall health, giving up after
/// `timeout`.
///
/// # Errors
/// [`ProbeError`] when the server cannot be reached or does not answer in time.
pub async fn check_health(addr: &str, timeout: Duration) -> Result<ServingStatus, ProbeError> {
    check_health_with(addr, timeout, &ProbeTls::default()).await
}

/// [`check_health`], with `tls` for an `https://` address (a `host:port` with TLS settings
/// means `https://host:port`).
///
/// # Errors
/// [`ProbeError`] when the server cannot be reached or does not answer in time.
pub async fn check_health_with(
    addr: &str,
    timeout: Duration,
    tls: &ProbeTls,
) -> Result<ServingStatus, ProbeError> {
    let wants_tls = tls.ca.is_some() || tls.identity.is_some() || tls.domain.is_some();
    let url = match addr {
        url if url.contains("://") => url.to_owned(),
        addr if wants_tls => format!("https://{addr}"),
        addr => format!("http://{addr}"),
    };
    let mut endpoint = tonic::transport::Endpoint::from_shared(url.clone())
        .map_err(|source| ProbeError::Address {
            url: url.clone(),
            source,
        })?
        .connect_timeout(timeout)
        .timeout(timeout);
    if url.starts_with("https://") {
        endpoint = endpoint
            .tls_config(tls.config()?)
            .map_err(|source| ProbeError::Address {
                url: url.clone(),
                source,
            })?;
    }
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
