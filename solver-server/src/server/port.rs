//! The gRPC port's transport: TLS (loaded before serving, watched while serving), HTTP/2 windows
//! and limits, and the accepted connections read through `Coalescing`.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio_stream::StreamExt as _;
use tokio_util::sync::CancellationToken;
use tonic::transport::Server;
use tonic::transport::server::TcpIncoming;

use super::layers::LayeredRouter;
use crate::accept;
use crate::coalesce::{self, Coalescing};
use crate::config::Config;
use crate::errors::ServeError;
use crate::http::Http2Limits;
use crate::tls::{self, TlsFiles};
use crate::watch;

/// What the transport ends with: tonic's serve, whichever the incoming connections were.
pub(super) type Served = Pin<Box<dyn Future<Output = Result<(), tonic::transport::Error>> + Send>>;

/// How the gRPC port speaks: its TLS files when it speaks TLS, and the HTTP/2 settings.
pub(super) struct Port {
    tls: Option<Arc<TlsFiles>>,
    limits: Http2Limits,
    max_connection_age: Option<Duration>,
    handshake_timeout: Duration,
}

impl Port {
    /// The port `config` asks for, with its TLS files loaded now: a server whose files do
    /// not load does not start.
    pub(super) fn new(config: &Config) -> Result<Self, ServeError> {
        Ok(Self {
            tls: config.tls.paths().map(tls::load).transpose()?,
            // Small stream windows, and a connection window whose half (h2's budget for unread
            // small DATA frames) covers every stream full of one-message frames: a full window
            // slows a sender, never gets it GOAWAY. The arithmetic is in `http`.
            limits: Http2Limits::new(config.limits.max_streams, config.transport.stream_window),
            max_connection_age: config.transport.max_connection_age,
            handshake_timeout: config.transport.handshake_timeout,
        })
    }

    /// Whether the port speaks TLS.
    pub(super) fn is_tls(&self) -> bool {
        self.tls.is_some()
    }

    /// The server with these HTTP/2 settings, HTTP/1.1 too (for gRPC-Web from browsers, see
    /// `web`), and a span per call.
    pub(super) fn server(&self) -> Server {
        let builder = Server::builder()
            .initial_stream_window_size(self.limits.stream_window)
            .initial_connection_window_size(self.limits.connection_window)
            .max_concurrent_streams(self.limits.streams_per_connection)
            .trace_fn(|request| tracing::info_span!("grpc", path = %request.uri().path()));
        match self.max_connection_age {
            Some(age) => builder.max_connection_age(age),
            None => builder,
        }
        .accept_http1(true)
    }

    /// Serves `router` on `listener` until `signal`. Every connection is read through
    /// `Coalescing` (see `coalesce` for why), after the TLS handshake when the port speaks TLS,
    /// whose files are watched until `stopped`. Accept errors (out of file descriptors) pause the
    /// accepting (see `accept`).
    pub(super) fn serve(
        self,
        router: LayeredRouter,
        listener: TcpListener,
        signal: impl Future<Output = ()> + Send + 'static,
        stopped: &CancellationToken,
    ) -> Served {
        let tcp = accept::backoff(TcpIncoming::from(listener).with_nodelay(Some(true)));
        let limits = coalesce::Limits {
            stream_window: self.limits.stream_window,
            streams_per_connection: self.limits.streams_per_connection,
            handshake_timeout: self.handshake_timeout,
        };
        match self.tls {
            Some(files) => {
                tokio::spawn(watch::watch(Arc::clone(&files), stopped.clone()));
                let incoming = tls::accept(files, tcp, stopped.clone())
                    .map(move |connection| connection.map(|io| Coalescing::new(io, limits)));
                Box::pin(router.serve_with_incoming_shutdown(incoming, signal))
            }
            None => {
                let incoming =
                    tcp.map(move |connection| connection.map(|io| Coalescing::new(io, limits)));
                Box::pin(router.serve_with_incoming_shutdown(incoming, signal))
            }
        }
    }
}
