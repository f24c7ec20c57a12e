//! The server's resident memory: from its Prometheus endpoint (`--metrics URL`), or, with the
//! embedded server, this process's own (`VmRSS`), which then includes the client.

use std::time::Duration;

use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tonic::codegen::http::uri::InvalidUri;
use tonic::transport::Uri;

/// The gauges that may carry it: the process collector's standard name, with or without the
/// server's `solver_` prefix.
const GAUGES: [&str; 2] = [
    "process_resident_memory_bytes",
    "solver_process_resident_memory_bytes",
];

/// How long one reading of the endpoint may take.
const FETCH_LIMIT: Duration = Duration::from_secs(2);

/// Where the memory is read.
#[derive(Debug)]
pub(crate) enum Probe {
    /// `GET path` on `authority`.
    Metrics {
        url: String,
        authority: String,
        path: String,
    },
    /// This process (the embedded server lives in it).
    OwnProcess,
    /// Nowhere: a remote server without `--metrics`.
    Unknown,
}

impl Probe {
    /// A probe of the endpoint at `url` (`http://host:9090/metrics`, `host:9090`: `/metrics`
    /// is assumed when no path is given).
    ///
    /// # Errors
    /// A URL that names no host and port.
    pub(crate) fn metrics(url: &str) -> Result<Self, MetricsUrlError> {
        let full = if url.contains("://") {
            url.to_owned()
        } else {
            format!("http://{url}")
        };
        let uri: Uri = full.parse().map_err(|source| MetricsUrlError::NotAUrl {
            url: url.to_owned(),
            source,
        })?;
        if uri.scheme_str() != Some("http") {
            return Err(MetricsUrlError::NotHttp(url.to_owned()));
        }
        let Some(host) = uri.host() else {
            return Err(MetricsUrlError::NoHost(url.to_owned()));
        };
        let authority = format!("{host}:{}", uri.port_u16().unwrap_or(9090));
        let path = match uri.path() {
            "" | "/" => "/metrics".to_owned(),
            path => path.to_owned(),
        };
        Ok(Self::Metrics {
            url: full,
            authority,
            path,
        })
    }

    /// Where it reads, for the report.
    pub(crate) fn source(&self) -> String {
        match self {
            Probe::Metrics { url, .. } => format!("process_resident_memory_bytes from {url}"),
            Probe::OwnProcess => "VmRSS of this process: client and embedded server".to_owned(),
            Probe::Unknown => String::new(),
        }
    }

    /// The resident memory in bytes, or why it cannot be read.
    pub(crate) async fn read(&self) -> Result<u64, RssError> {
        match self {
            Probe::Metrics {
                url,
                authority,
                path,
            } => match tokio::time::timeout(FETCH_LIMIT, fetch(authority, path)).await {
                Ok(Ok(text)) => {
                    resident_bytes(&text).ok_or_else(|| RssError::NoGauge { url: url.clone() })
                }
                Ok(Err(source)) => Err(RssError::Fetch {
                    url: url.clone(),
                    source,
                }),
                Err(_) => Err(RssError::Timeout { url: url.clone() }),
            },
            Probe::OwnProcess => own_rss(),
            Probe::Unknown => Err(RssError::Remote),
        }
    }
}

/// What is wrong with `--metrics`.
#[derive(Debug, thiserror::Error)]
pub(crate) enum MetricsUrlError {
    /// Not a URL.
    #[error("--metrics: {url:?} is not a URL like http://host:9090")]
    NotAUrl {
        /// As given.
        url: String,
        /// Why.
        source: InvalidUri,
    },
    /// Another scheme than `http`.
    #[error("--metrics: only http:// endpoints are read, not {0:?}")]
    NotHttp(String),
    /// No host.
    #[error("--metrics: {0:?} names no host")]
    NoHost(String),
}

/// Why the memory could not be read.
#[derive(Debug, thiserror::Error)]
pub(crate) enum RssError {
    /// The endpoint has no resident-memory gauge.
    #[error("{url} exports no {} (nor {})", GAUGES[0], GAUGES[1])]
    NoGauge {
        /// The endpoint.
        url: String,
    },
    /// The endpoint could not be read.
    #[error("reading {url}: {source}")]
    Fetch {
        /// The endpoint.
        url: String,
        /// Why.
        source: FetchError,
    },
    /// The endpoint did not answer in time.
    #[error("reading {url}: no answer within {FETCH_LIMIT:?}")]
    Timeout {
        /// The endpoint.
        url: String,
    },
    /// This process's status could not be read.
    #[error("reading /proc/self/status: {0}")]
    Proc(#[source] std::io::Error),
    /// This process's status has no `VmRSS`.
    #[error("no VmRSS in /proc/self/status")]
    NoVmRss,
    /// A remote server without `--metrics`.
    #[error("a remote server: give --metrics URL")]
    Remote,
}

/// Why `GET` on an endpoint failed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum FetchError {
    /// Connecting, writing or reading.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// No header/body separator.
    #[error("not an HTTP response")]
    NotHttp,
    /// A status other than 200 (its status line).
    #[error("answered {0:?}")]
    Status(String),
}

/// The body of `GET path` on `authority` (HTTP/1.0, so the body ends with the connection).
async fn fetch(authority: &str, path: &str) -> Result<String, FetchError> {
    let mut stream = tokio::net::TcpStream::connect(authority).await?;
    let request = format!("GET {path} HTTP/1.0\r\nHost: {authority}\r\nAccept: text/plain\r\n\r\n");
    stream.write_all(request.as_bytes()).await?;
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await?;
    let response = String::from_utf8_lossy(&response);
    let (head, body) = response.split_once("\r\n\r\n").ok_or(FetchError::NotHttp)?;
    let status = head.lines().next().unwrap_or_default();
    if status.split_whitespace().nth(1) != Some("200") {
        return Err(FetchError::Status(status.to_owned()));
    }
    Ok(body.to_owned())
}

/// The value of the first resident-memory gauge in a Prometheus or OpenMetrics text.
fn resident_bytes(text: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let name_end = line.find([' ', '{'])?;
        if !GAUGES.contains(&&line[..name_end]) {
            return None;
        }
        let value: f64 = line
            .rsplit_once('}')
            .map_or(&line[name_end..], |(_, v)| v)
            .split_whitespace()
            .next()?
            .parse()
            .ok()?;
        (value >= 0.0).then_some(value as u64)
    })
}

/// `VmRSS` of this process.
fn own_rss() -> Result<u64, RssError> {
    let status = std::fs::read_to_string("/proc/self/status").map_err(RssError::Proc)?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().strip_suffix("kB"))
        .and_then(|kb| kb.trim().parse::<u64>().ok())
        .map(|kb| kb * 1024)
        .ok_or(RssError::NoVmRss)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_gauge() {
        let text = "# TYPE process_resident_memory_bytes gauge\n\
                    process_resident_memory_bytes 1.2e+08\n";
        assert_eq!(resident_bytes(text), Some(120_000_000));
        let prefixed = "solver_cases_total{kind=\"eight\"} 5\n\
                        solver_process_resident_memory_bytes{pid=\"1\"} 4096\n";
        assert_eq!(resident_bytes(prefixed), Some(4096));
        assert_eq!(resident_bytes("solver_streams_open 3\n"), None);
    }

    #[test]
    fn urls() {
        let Probe::Metrics {
            authority, path, ..
        } = Probe::metrics("127.0.0.1:9191").unwrap()
        else {
            panic!()
        };
        assert_eq!(
            (authority.as_str(), path.as_str()),
            ("127.0.0.1:9191", "/metrics")
        );
        let Probe::Metrics {
            authority, path, ..
        } = Probe::metrics("http://localhost/stats").unwrap()
        else {
            panic!()
        };
        assert_eq!(
            (authority.as_str(), path.as_str()),
            ("localhost:9090", "/stats")
        );
        assert!(Probe::metrics("https://x:1").is_err());
    }

    #[test]
    fn own_memory() {
        assert!(own_rss().unwrap() > 0);
    }
}
