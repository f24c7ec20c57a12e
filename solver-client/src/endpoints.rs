//! The servers a run talks to: `--server` as one URL, a comma-separated list, or a DNS name whose
//! addresses are all used (e.g. a Kubernetes headless service).
//!
//! Each address gets its own connection and, in a run, its own stream, so a run spreads over
//! every replica: one long-lived HTTP/2 connection would otherwise pin it to a single one.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use anyhow::{Context as _, bail};
use tonic::transport::{Channel, Endpoint as TonicEndpoint, Uri};

/// A connected server endpoint.
#[derive(Debug, Clone)]
pub(crate) struct Endpoint {
    /// Its URL, for messages.
    pub(crate) url: String,
    /// The connection.
    pub(crate) channel: Channel,
}

use crate::embedded::Embedded;

/// Port assumed when a URL gives none.
const DEFAULT_PORT: u16 = 50051;

/// The URLs named by a `--server` value: each comma-separated entry, `http://` added when no
/// scheme is given, and a host name expanded to one URL per address it resolves to.
///
/// # Errors
/// An entry that is not a URL, or a name that does not resolve.
pub(crate) async fn resolve(server: &str) -> anyhow::Result<Vec<String>> {
    let mut urls = Vec::new();
    for entry in server.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        let url = if entry.contains("://") {
            entry.to_owned()
        } else {
            format!("http://{entry}")
        };
        let uri: Uri = url
            .parse()
            .with_context(|| format!("{entry:?} is not a server URL like http://host:50051"))?;
        let Some(host) = uri.host() else {
            bail!("{entry:?} names no host");
        };
        let bare = host.trim_start_matches('[').trim_end_matches(']');
        if bare.parse::<IpAddr>().is_ok() {
            urls.push(url);
            continue;
        }
        let scheme = uri.scheme_str().unwrap_or("http");
        let port = uri.port_u16().unwrap_or(DEFAULT_PORT);
        let mut addrs: Vec<SocketAddr> = tokio::net::lookup_host((bare, port))
            .await
            .with_context(|| format!("resolving {host}"))?
            .collect();
        addrs.sort_unstable();
        addrs.dedup();
        if addrs.is_empty() {
            bail!("{host} resolves to no address");
        }
        urls.extend(addrs.iter().map(|a| format!("{scheme}://{a}")));
    }
    urls.dedup();
    if urls.is_empty() {
        bail!("--server names no server");
    }
    Ok(urls)
}

/// Connects to every URL at once, with windows large enough to keep a long pipelined stream
/// busy. Unreachable ones are reported and left out.
///
/// # Errors
/// When no server can be reached.
pub(crate) async fn connect(urls: &[String]) -> anyhow::Result<Vec<Endpoint>> {
    let attempts = futures::future::join_all(urls.iter().map(|url| async move {
        let channel = TonicEndpoint::from_shared(url.clone())
            .with_context(|| format!("{url:?} is not a server URL"))?
            .connect_timeout(Duration::from_secs(10))
            .tcp_nodelay(true)
            .initial_stream_window_size(Some(4 << 20))
            .initial_connection_window_size(Some(8 << 20))
            .connect()
            .await
            .with_context(|| format!("connecting to the solver server at {url}"))?;
        anyhow::Ok(Endpoint {
            url: url.clone(),
            channel,
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
            eprintln!("solver-client: {first:#}; going on with the other servers");
            Ok(endpoints)
        }
        None => Ok(endpoints),
    }
}

/// Connects to the `--server` endpoints, or to the embedded server once it is ready.
///
/// # Errors
/// No server named or embedded, a `--server` that names none, or none reachable.
pub(crate) async fn open(
    server: Option<&str>,
    embedded: Option<&Embedded>,
) -> anyhow::Result<Vec<Endpoint>> {
    let urls = match (server, embedded) {
        (Some(server), _) => resolve(server).await?,
        (None, Some(embedded)) => {
            embedded.ready().await?;
            vec![embedded.url()]
        }
        (None, None) => bail!("no server to talk to"),
    };
    connect(&urls).await
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
