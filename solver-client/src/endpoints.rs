//! The servers a run talks to: `--server` as one URL, a comma-separated list, or a DNS name whose
//! addresses are all used (e.g. a Kubernetes headless service).
//!
//! Each address gets its own connection and, in a run, its own stream, so a run spreads over
//! every replica: one long-lived HTTP/2 connection would otherwise pin it to a single one.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use solver_proto::v2::solver_service_client::SolverServiceClient;
use tonic::codegen::http::uri::InvalidUri;
use tonic::transport::{Channel, Endpoint as TonicEndpoint, Uri};

use crate::embedded::{Embedded, EmbeddedError};
use crate::link::{Link, LinkError};

/// A connected server endpoint.
#[derive(Debug, Clone)]
pub(crate) struct Endpoint {
    /// Its URL, for messages.
    pub(crate) url: String,
    /// The connection.
    pub(crate) channel: Channel,
    /// How calls are made on it (token, deadline, compression).
    pub(crate) link: Arc<Link>,
}

impl Endpoint {
    /// A `solver.v2` client on this endpoint, compressing when `--gzip` asks.
    pub(crate) fn client(&self) -> SolverServiceClient<Channel> {
        self.link.client(self.channel.clone())
    }
}

/// One server to connect to: its URL, and the host its certificate must name (the `--server`
/// host, even when the URL holds one of the addresses that name resolved to).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Address {
    /// `http://` or `https://`, and an address or name with its port.
    pub(crate) url: String,
    /// The host as given in `--server`.
    pub(crate) host: String,
}

impl Address {
    /// Whether the connection is TLS.
    pub(crate) fn tls(&self) -> bool {
        self.url.starts_with("https://")
    }
}

/// Why there is no server to talk to.
#[derive(Debug, thiserror::Error)]
pub(crate) enum EndpointError {
    /// A `--server` entry that is not a URL.
    #[error("{entry:?} is not a server URL like http://host:50051")]
    NotAUrl {
        /// The entry as given.
        entry: String,
        /// Why.
        source: InvalidUri,
    },
    /// A `--server` entry without a host.
    #[error("{0:?} names no host")]
    NoHost(String),
    /// A host name that does not resolve.
    #[error("resolving {host}")]
    Lookup {
        /// The name.
        host: String,
        /// Why.
        source: std::io::Error,
    },
    /// A host name that resolves to nothing.
    #[error("{0} resolves to no address")]
    NoAddress(String),
    /// A `--server` of commas and spaces.
    #[error("--server names no server")]
    NoServer,
    /// A URL tonic does not take.
    #[error("{url:?} is not a server URL")]
    BadUrl {
        /// The URL.
        url: String,
        /// Why.
        source: tonic::transport::Error,
    },
    /// A server that cannot be reached.
    #[error("connecting to the solver server at {url}")]
    Connect {
        /// Its URL.
        url: String,
        /// Why.
        source: tonic::transport::Error,
    },
    /// An `https://` server whose TLS handshake failed: it speaks plaintext, or its certificate
    /// is not trusted or names another host, or it wants a client certificate.
    #[error(
        "connecting to the solver server at {url}: the TLS handshake failed (a server that does \
         not speak TLS needs http://; one whose certificate is signed by a private CA needs \
         --tls-ca; one that wants a client certificate needs --tls-cert and --tls-key)"
    )]
    Handshake {
        /// Its URL.
        url: String,
        /// Why.
        source: tonic::transport::Error,
    },
    /// Connection flags that cannot be used.
    #[error(transparent)]
    Link(#[from] LinkError),
    /// The embedded server did not come up.
    #[error(transparent)]
    Embedded(#[from] EmbeddedError),
    /// Neither `--server` nor an embedded server (a bug of the caller).
    #[error("no server to talk to")]
    Nothing,
}

/// Port assumed when a URL gives none.
const DEFAULT_PORT: u16 = 50051;

/// The servers named by a `--server` value: each comma-separated entry, `http://` added when no
/// scheme is given, and a host name expanded to one URL per address it resolves to.
///
/// # Errors
/// An entry that is not a URL, or a name that does not resolve.
pub(crate) async fn resolve(server: &str) -> Result<Vec<Address>, EndpointError> {
    let mut urls = Vec::new();
    for entry in server.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        let url = if entry.contains("://") {
            entry.to_owned()
        } else {
            format!("http://{entry}")
        };
        let uri: Uri = url.parse().map_err(|source| EndpointError::NotAUrl {
            entry: entry.to_owned(),
            source,
        })?;
        let Some(host) = uri.host() else {
            return Err(EndpointError::NoHost(entry.to_owned()));
        };
        let bare = host.trim_start_matches('[').trim_end_matches(']');
        if bare.parse::<IpAddr>().is_ok() {
            urls.push(Address {
                url,
                host: host.to_owned(),
            });
            continue;
        }
        let scheme = uri.scheme_str().unwrap_or("http");
        let port = uri.port_u16().unwrap_or(DEFAULT_PORT);
        let mut addrs: Vec<SocketAddr> = tokio::net::lookup_host((bare, port))
            .await
            .map_err(|source| EndpointError::Lookup {
                host: host.to_owned(),
                source,
            })?
            .collect();
        addrs.sort_unstable();
        addrs.dedup();
        if addrs.is_empty() {
            return Err(EndpointError::NoAddress(host.to_owned()));
        }
        urls.extend(addrs.iter().map(|a| Address {
            url: format!("{scheme}://{a}"),
            host: host.to_owned(),
        }));
    }
    urls.dedup();
    if urls.is_empty() {
        return Err(EndpointError::NoServer);
    }
    Ok(urls)
}

/// Connects to every address at once (TLS for `https://` ones, as `link` says), with windows
/// large enough to keep a long pipelined stream busy. Unreachable ones are reported and left out.
///
/// # Errors
/// When no server can be reached.
pub(crate) async fn connect(
    addresses: &[Address],
    link: &Arc<Link>,
) -> Result<Vec<Endpoint>, EndpointError> {
    link.check_urls(addresses.iter().map(|a| a.url.as_str()))?;
    let attempts = futures::future::join_all(addresses.iter().map(|address| async move {
        let url = &address.url;
        let bad_url = |source| EndpointError::BadUrl {
            url: url.clone(),
            source,
        };
        let mut endpoint = TonicEndpoint::from_shared(url.clone()).map_err(bad_url)?;
        if address.tls() {
            endpoint = endpoint
                .tls_config(link.tls_for(&address.host))
                .map_err(bad_url)?;
        }
        let channel = endpoint
            .connect_timeout(Duration::from_secs(10))
            .tcp_nodelay(true)
            .initial_stream_window_size(Some(4 << 20))
            .initial_connection_window_size(Some(8 << 20))
            .connect()
            .await
            .map_err(|source| connect_error(address, source))?;
        Ok::<_, EndpointError>(Endpoint {
            url: url.clone(),
            channel,
            link: Arc::clone(link),
        })
    }))
    .await;
    let mut endpoints = Vec::new();
    let mut errors = Vec::new();
    for attempt in attempts {
        match attempt {
            Ok(endpoint) => endpoints.push(endpoint),
            Err(e) => errors.push(e),
        }
    }
    match errors.into_iter().next() {
        Some(first) if endpoints.is_empty() => Err(first),
        Some(first) => {
            // With its causes, as `main` prints an error.
            let first = anyhow::Error::from(first);
            eprintln!(
                "solver-client: {}; going on with the other servers",
                crate::causes::one_line(&first)
            );
            Ok(endpoints)
        }
        None => Ok(endpoints),
    }
}

/// Why connecting to `address` failed: a TLS handshake that failed is told apart from a server
/// that is not there (refused, timed out, unknown), which has nothing to do with TLS.
fn connect_error(address: &Address, source: tonic::transport::Error) -> EndpointError {
    let url = address.url.clone();
    let network = std::iter::successors(Some(&source as &(dyn std::error::Error + 'static)), |e| {
        e.source()
    })
    .any(|e| {
        e.downcast_ref::<std::io::Error>().is_some_and(|io| {
            use std::io::ErrorKind::{ConnectionRefused, TimedOut};
            matches!(io.kind(), ConnectionRefused | TimedOut) && io.get_ref().is_none()
        }) || e.to_string().contains("timed out")
    });
    if address.tls() && !network {
        EndpointError::Handshake { url, source }
    } else {
        EndpointError::Connect { url, source }
    }
}

/// Connects to the `--server` endpoints, or to the embedded server once it is ready.
///
/// # Errors
/// No server named or embedded, a `--server` that names none, or none reachable.
pub(crate) async fn open(
    server: Option<&str>,
    embedded: Option<&Embedded>,
    link: &Arc<Link>,
) -> Result<Vec<Endpoint>, EndpointError> {
    let urls = match (server, embedded) {
        (Some(server), _) => resolve(server).await?,
        (None, Some(embedded)) => {
            embedded.ready().await?;
            vec![Address {
                url: embedded.url(),
                host: "127.0.0.1".to_owned(),
            }]
        }
        (None, None) => return Err(EndpointError::Nothing),
    };
    connect(&urls, link).await
}

impl EndpointError {
    /// Whether the service could not be reached (exit code 3), rather than named wrongly.
    pub(crate) fn unreachable(&self) -> bool {
        matches!(
            self,
            EndpointError::Lookup { .. }
                | EndpointError::NoAddress(_)
                | EndpointError::Connect { .. }
                | EndpointError::Handshake { .. }
                | EndpointError::Embedded(_)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolved(server: &str) -> Vec<String> {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(resolve(server))
            .unwrap()
            .into_iter()
            .map(|a| a.url)
            .collect()
    }

    #[test]
    fn lists_and_literals() {
        assert_eq!(resolved("127.0.0.1:1"), ["http://127.0.0.1:1"]);
        assert_eq!(
            resolved("http://10.0.0.1:5, 10.0.0.2:6,,[::1]:7"),
            ["http://10.0.0.1:5", "http://10.0.0.2:6", "http://[::1]:7"]
        );
    }

    #[test]
    fn names_expand_to_every_address() {
        let urls = resolved("localhost:4242");
        assert!(!urls.is_empty());
        for url in &urls {
            assert!(url.starts_with("http://"), "{url}");
            assert!(url.ends_with(":4242"), "{url}");
            assert!(!url.contains("localhost"), "{url}");
        }
    }

    #[test]
    fn nonsense_is_an_error() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        assert!(runtime.block_on(resolve(" , ")).is_err());
        assert!(runtime.block_on(resolve("http://")).is_err());
    }
}
