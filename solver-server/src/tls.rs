//! TLS on the gRPC port (rustls): the certificate, its key and, for mutual TLS, the CA that
//! client certificates must chain to, all read from files and read again when they change.
//!
//! Kubernetes rotates a mounted Secret by swapping the files under the pod; a server that read
//! them once would serve an expired certificate until restarted. So the rustls configuration is
//! a [`Reloading`] value ([`crate::watch`]): new connections use the configuration built from the
//! files as they are now; open ones keep theirs. A change that does not load (a half-written
//! file, a key that does not match) is logged and the previous configuration stays.
//!
//! Handshakes run in tasks of their own with a time limit ([`accept`]), so a client that opens a
//! connection and says nothing holds no one else up.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use rustls::RootCertStore;
use rustls::pki_types::pem::PemObject as _;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::server::WebPkiClientVerifier;
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::server::TlsStream;
use tokio_util::sync::CancellationToken;

use crate::watch::Reloading;

/// Longest a TLS handshake may take.
const HANDSHAKE: Duration = Duration::from_secs(10);

/// Why the TLS files could not be used.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    /// A file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// A file holds no PEM item of the kind expected.
    #[error("{path} holds no {what} in PEM form")]
    Empty {
        /// The file.
        path: PathBuf,
        /// What was looked for.
        what: &'static str,
    },
    /// A PEM file that does not parse.
    #[error("{path} is not valid PEM: {source}")]
    Pem {
        /// The file.
        path: PathBuf,
        /// Why.
        source: rustls::pki_types::pem::Error,
    },
    /// rustls refused the certificate, key or CA.
    #[error("the TLS configuration is refused: {0}")]
    Rustls(#[from] rustls::Error),
    /// The client CA cannot verify clients.
    #[error("the client CA cannot be used: {0}")]
    ClientCa(#[from] rustls::server::VerifierBuilderError),
}

/// The files of the server's TLS identity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TlsPaths {
    /// The certificate chain (PEM), leaf first.
    pub cert: PathBuf,
    /// The private key (PEM: PKCS#8, PKCS#1 or SEC1).
    pub key: PathBuf,
    /// For mutual TLS: the CA certificates (PEM) client certificates must chain to; a client
    /// without one is refused.
    pub client_ca: Option<PathBuf>,
}

impl TlsPaths {
    fn files(&self) -> impl Iterator<Item = &Path> {
        [Some(&self.cert), Some(&self.key), self.client_ca.as_ref()]
            .into_iter()
            .flatten()
            .map(PathBuf::as_path)
    }

    /// Builds the rustls configuration the files describe, offering HTTP/2 by ALPN (gRPC
    /// clients require it) and HTTP/1.1.
    fn load(&self) -> Result<rustls::ServerConfig, TlsError> {
        let certs = certificates(&self.cert, "certificate")?;
        let key =
            PrivateKeyDer::from_pem_slice(&read(&self.key)?).map_err(|source| match source {
                rustls::pki_types::pem::Error::NoItemsFound => TlsError::Empty {
                    path: self.key.clone(),
                    what: "private key",
                },
                source => TlsError::Pem {
                    path: self.key.clone(),
                    source,
                },
            })?;
        let builder = rustls::ServerConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()?;
        let builder = match &self.client_ca {
            Some(path) => {
                let mut roots = RootCertStore::empty();
                for ca in certificates(path, "CA certificate")? {
                    roots.add(ca)?;
                }
                let verifier = WebPkiClientVerifier::builder_with_provider(
                    Arc::new(roots),
                    Arc::new(rustls::crypto::ring::default_provider()),
                )
                .build()?;
                builder.with_client_cert_verifier(verifier)
            }
            None => builder.with_no_client_auth(),
        };
        let mut config = builder.with_single_cert(certs, key)?;
        // HTTP/1.1 too: browsers may speak gRPC-Web over it.
        config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
        Ok(config)
    }
}

fn read(path: &Path) -> Result<Vec<u8>, TlsError> {
    std::fs::read(path).map_err(|source| TlsError::Read {
        path: path.to_owned(),
        source,
    })
}

/// Every certificate in a PEM file (at least one).
fn certificates(path: &Path, what: &'static str) -> Result<Vec<CertificateDer<'static>>, TlsError> {
    let bytes = read(path)?;
    let found = CertificateDer::pem_slice_iter(&bytes)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|source| TlsError::Pem {
            path: path.to_owned(),
            source,
        })?;
    if found.is_empty() {
        return Err(TlsError::Empty {
            path: path.to_owned(),
            what,
        });
    }
    Ok(found)
}

/// The TLS identity in use, read again when its files change.
pub(crate) type TlsFiles = Reloading<rustls::ServerConfig, TlsError>;

/// Reads the files once (the server does not start without a working identity); the result is
/// kept up to date by [`watch`](crate::watch::watch).
pub(crate) fn load(paths: TlsPaths) -> Result<Arc<TlsFiles>, TlsError> {
    let files: Vec<PathBuf> = paths.files().map(Path::to_path_buf).collect();
    Reloading::new("TLS certificate", files, move || paths.load())
}

/// Runs a TLS handshake on every connection of `connections` (each in a task of its own, at most
/// [`HANDSHAKE`] long) and yields the ones that succeed, until `stop` fires.
pub(crate) fn accept(
    files: Arc<TlsFiles>,
    mut connections: impl futures::Stream<Item = io::Result<TcpStream>> + Unpin + Send + 'static,
    stop: CancellationToken,
) -> impl futures::Stream<Item = io::Result<TlsStream<TcpStream>>> {
    use futures::StreamExt as _;
    let (sender, receiver) = mpsc::channel(64);
    tokio::spawn(async move {
        loop {
            let connection = tokio::select! {
                () = stop.cancelled() => return,
                next = connections.next() => match next {
                    Some(Ok(connection)) => connection,
                    Some(Err(err)) => {
                        tracing::debug!(cause = %err, "accept failed");
                        continue;
                    }
                    None => return,
                },
            };
            let (acceptor, sender) = (TlsAcceptor::from(files.current()), sender.clone());
            tokio::spawn(async move {
                let peer = connection.peer_addr().ok();
                match tokio::time::timeout(HANDSHAKE, acceptor.accept(connection)).await {
                    Ok(Ok(stream)) => {
                        let _ = sender.send(Ok(stream)).await;
                    }
                    Ok(Err(err)) => tracing::debug!(?peer, cause = %err, "TLS handshake failed"),
                    Err(_) => tracing::debug!(?peer, "TLS handshake timed out"),
                }
            });
        }
    });
    tokio_stream::wrappers::ReceiverStream::new(receiver)
}
