//! TLS on the gRPC port: the files that make its identity, and the clients it trusts.

use std::path::PathBuf;

use clap::Args;

/// The TLS files, read again when they change; none for plaintext.
#[derive(Debug, Clone, Args)]
pub struct Tls {
    /// TLS on the gRPC port: the certificate chain (PEM, leaf first), with `--tls-key`. The
    /// files are read again when they change (checked every 2 s; new connections use the new
    /// certificate). Without it the port speaks plaintext HTTP/2 (inside a mesh that adds TLS).
    #[arg(
        id = "tls_cert",
        long = "tls-cert",
        env = "SOLVER_TLS_CERT",
        value_name = "PEM",
        requires = "tls_key"
    )]
    pub cert: Option<PathBuf>,

    /// The private key of `--tls-cert` (PEM: PKCS#8, PKCS#1 or SEC1).
    #[arg(
        id = "tls_key",
        long = "tls-key",
        env = "SOLVER_TLS_KEY",
        value_name = "PEM",
        requires = "tls_cert"
    )]
    pub key: Option<PathBuf>,

    /// Mutual TLS: CA certificates (PEM) that client certificates must chain to; clients
    /// without a valid certificate are refused during the handshake.
    #[arg(
        id = "tls_client_ca",
        long = "tls-client-ca",
        env = "SOLVER_TLS_CLIENT_CA",
        value_name = "PEM",
        requires = "tls_cert"
    )]
    pub client_ca: Option<PathBuf>,
}

impl Tls {
    /// The files these settings name, if the port speaks TLS.
    #[must_use]
    pub fn paths(&self) -> Option<crate::tls::TlsPaths> {
        Some(crate::tls::TlsPaths {
            cert: self.cert.clone()?,
            key: self.key.clone()?,
            client_ca: self.client_ca.clone(),
        })
    }
}
