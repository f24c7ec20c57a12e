//! How the client reaches a server: TLS, compression, a bearer token and a call deadline.
//!
//! The global flags are read once into a [`Link`], and every connection and call of every
//! command (`judge`, `solve`, `hint`, `scramble`, `verify`, `load`) goes through it, so a flag
//! means the same thing everywhere.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rustls::pki_types::pem::PemObject as _;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use solver_proto::v2::solver_service_client::SolverServiceClient;
use tonic::codec::CompressionEncoding;
use tonic::metadata::{Ascii, MetadataValue};
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Identity};

/// The heading of the connection flags in every command's `--help`, after the command's own.
pub(crate) const HEADING: &str = "Connection options";

/// The connection flags, shared by every subcommand.
#[derive(Debug, Clone, Default, clap::Args)]
#[command(next_help_heading = HEADING)]
pub(crate) struct LinkArgs {
    /// PEM file of the CA certificates that sign the server's certificate, for a server with a
    /// private CA (`https://` URLs only). Without it the public web CAs are trusted.
    #[arg(long, global = true, env = "SOLVER_TLS_CA", value_name = "FILE")]
    tls_ca: Option<PathBuf>,

    /// PEM file of this client's certificate chain, for a server that wants mutual TLS (with
    /// `--tls-key`).
    #[arg(
        long,
        global = true,
        env = "SOLVER_TLS_CERT",
        value_name = "FILE",
        requires = "tls_key"
    )]
    tls_cert: Option<PathBuf>,

    /// PEM file of the private key of `--tls-cert`.
    #[arg(
        long,
        global = true,
        env = "SOLVER_TLS_KEY",
        value_name = "FILE",
        requires = "tls_cert"
    )]
    tls_key: Option<PathBuf>,

    /// The name the server's certificate must carry, when it is not the `--server` host (e.g.
    /// when connecting by IP address).
    #[arg(long, global = true, env = "SOLVER_TLS_DOMAIN", value_name = "NAME")]
    tls_domain: Option<String>,

    /// Deadline of every call (sent as `grpc-timeout`; e.g. `500ms`, `30s`, `2m`). A run is one
    /// call: cases still unanswered when it passes are reported, the others keep their answers.
    #[arg(long, global = true, env = "SOLVER_TIMEOUT", value_name = "DURATION",
          value_parser = solver_store::flags::parse_duration)]
    pub(crate) timeout: Option<Duration>,

    /// Compress requests with gzip and accept gzip-compressed responses.
    #[arg(long, global = true, env = "SOLVER_GZIP")]
    gzip: bool,

    /// Send `authorization: Bearer TOKEN` with every call, for a server that checks tokens.
    #[arg(
        long,
        global = true,
        env = "SOLVER_TOKEN",
        hide_env_values = true,
        value_name = "TOKEN"
    )]
    token: Option<String>,
}

/// Why the connection flags cannot be used.
#[derive(Debug, thiserror::Error)]
pub(crate) enum LinkError {
    /// A PEM file that cannot be read.
    #[error("{flag} {}: cannot read it", .path.display())]
    Read {
        /// The flag that named it.
        flag: &'static str,
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A PEM file without what the flag wants.
    #[error("{flag} {}: {what}", .path.display())]
    Pem {
        /// The flag that named it.
        flag: &'static str,
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
    /// A token that cannot be sent in a header.
    #[error("--token: a token must be visible ASCII without spaces")]
    Token,
    /// TLS flags with no `https://` server to use them on.
    #[error("{0} applies to https:// servers only; give --server https://HOST:PORT")]
    TlsWithoutHttps(&'static str),
}

/// The checked connection settings.
#[derive(Debug, Clone, Default)]
pub(crate) struct Link {
    /// The TLS settings for `https://` URLs, without the server name (set per server).
    tls: ClientTlsConfig,
    /// The name to check instead of each URL's host.
    tls_domain: Option<String>,
    /// Whether a TLS flag was given (they need an `https://` server).
    tls_flag: Option<&'static str>,
    /// `Bearer TOKEN`, ready to send.
    token: Option<MetadataValue<Ascii>>,
    /// Compress requests and accept compressed responses.
    gzip: bool,
    /// The deadline of every call.
    pub(crate) timeout: Option<Duration>,
}

impl Link {
    /// Reads the flags: the PEM files are loaded and checked now, so a bad file is reported by
    /// its flag and path before anything connects.
    ///
    /// # Errors
    /// A file that cannot be read or holds no certificate (or key), or a token that is not
    /// header-safe.
    pub(crate) fn new(args: &LinkArgs) -> Result<Self, LinkError> {
        let mut tls = ClientTlsConfig::new();
        tls = match &args.tls_ca {
            Some(path) => {
                let pem = read("--tls-ca", path)?;
                certificates("--tls-ca", path, &pem)?;
                tls.ca_certificate(Certificate::from_pem(pem))
            }
            None => tls.with_webpki_roots(),
        };
        if let (Some(cert), Some(key)) = (&args.tls_cert, &args.tls_key) {
            let cert_pem = read("--tls-cert", cert)?;
            certificates("--tls-cert", cert, &cert_pem)?;
            let key_pem = read("--tls-key", key)?;
            PrivateKeyDer::from_pem_slice(&key_pem).map_err(|e| LinkError::Pem {
                flag: "--tls-key",
                path: key.clone(),
                what: format!("no private key in it (PKCS#8, PKCS#1 or SEC1 PEM): {e}"),
            })?;
            tls = tls.identity(Identity::from_pem(cert_pem, key_pem));
        }
        let tls_flag = if args.tls_ca.is_some() {
            Some("--tls-ca")
        } else if args.tls_cert.is_some() {
            Some("--tls-cert")
        } else if args.tls_domain.is_some() {
            Some("--tls-domain")
        } else {
            None
        };
        let token = args
            .token
            .as_deref()
            .map(|token| {
                if token.is_empty() || !token.bytes().all(|b| b.is_ascii_graphic()) {
                    return Err(LinkError::Token);
                }
                format!("Bearer {token}")
                    .parse::<MetadataValue<Ascii>>()
                    .map_err(|_| LinkError::Token)
            })
            .transpose()?;
        Ok(Self {
            tls,
            tls_domain: args.tls_domain.clone(),
            tls_flag,
            token,
            gzip: args.gzip,
            timeout: args.timeout,
        })
    }

    /// Checks that TLS flags have an `https://` URL among `urls` to apply to.
    ///
    /// # Errors
    /// A TLS flag and no `https://` URL (a plaintext or embedded server).
    pub(crate) fn check_urls<'a>(
        &self,
        mut urls: impl Iterator<Item = &'a str>,
    ) -> Result<(), LinkError> {
        match self.tls_flag {
            Some(flag) if !urls.any(|url| url.starts_with("https://")) => {
                Err(LinkError::TlsWithoutHttps(flag))
            }
            _ => Ok(()),
        }
    }

    /// The TLS settings for a server whose URL names `host` (a name or an address).
    pub(crate) fn tls_for(&self, host: &str) -> ClientTlsConfig {
        let tls = self.tls.clone();
        let name = self.tls_domain.as_deref().unwrap_or(host);
        tls.domain_name(name.trim_start_matches('[').trim_end_matches(']'))
    }

    /// A `solver.v2` client on `channel`, compressing when asked.
    pub(crate) fn client(&self, channel: Channel) -> SolverServiceClient<Channel> {
        let client = SolverServiceClient::new(channel);
        if self.gzip {
            client
                .send_compressed(CompressionEncoding::Gzip)
                .accept_compressed(CompressionEncoding::Gzip)
        } else {
            client
        }
    }

    /// A call carrying `message`, with the token and deadline.
    pub(crate) fn request<T>(&self, message: T) -> tonic::Request<T> {
        self.request_with(message, self.timeout)
    }

    /// A call carrying `message`, with the token and the deadline `timeout`.
    pub(crate) fn request_with<T>(
        &self,
        message: T,
        timeout: Option<Duration>,
    ) -> tonic::Request<T> {
        let mut request = tonic::Request::new(message);
        if let Some(timeout) = timeout {
            request.set_timeout(timeout);
        }
        if let Some(token) = &self.token {
            request
                .metadata_mut()
                .insert("authorization", token.clone());
        }
        request
    }
}

fn read(flag: &'static str, path: &Path) -> Result<Vec<u8>, LinkError> {
    std::fs::read(path).map_err(|source| LinkError::Read {
        flag,
        path: path.to_owned(),
        source,
    })
}

/// Checks that `pem` holds at least one certificate and nothing unreadable.
fn certificates(flag: &'static str, path: &Path, pem: &[u8]) -> Result<(), LinkError> {
    let mut found = 0;
    for cert in CertificateDer::pem_slice_iter(pem) {
        cert.map_err(|e| LinkError::Pem {
            flag,
            path: path.to_owned(),
            what: format!("not a PEM certificate file: {e}"),
        })?;
        found += 1;
    }
    if found == 0 {
        return Err(LinkError::Pem {
            flag,
            path: path.to_owned(),
            what: "no certificate in it (expected -----BEGIN CERTIFICATE-----)".to_owned(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_become_bearer_headers() {
        let link = Link::new(&LinkArgs {
            token: Some("s3cret".to_owned()),
            ..LinkArgs::default()
        })
        .unwrap();
        let request = link.request(());
        assert_eq!(
            request.metadata().get("authorization").unwrap(),
            "Bearer s3cret"
        );
        assert!(matches!(
            Link::new(&LinkArgs {
                token: Some("two words".to_owned()),
                ..LinkArgs::default()
            }),
            Err(LinkError::Token)
        ));
    }

    #[test]
    fn tls_flags_want_https() {
        let link = Link::new(&LinkArgs {
            tls_domain: Some("example.org".to_owned()),
            ..LinkArgs::default()
        })
        .unwrap();
        let err = link
            .check_urls(["http://127.0.0.1:1"].into_iter())
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "--tls-domain applies to https:// servers only; give --server https://HOST:PORT"
        );
        assert!(link.check_urls(["https://a:1"].into_iter()).is_ok());
    }

    #[test]
    fn bad_pem_files_are_named() {
        let dir = std::env::temp_dir().join(format!("solver-client-link-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("ca.pem");
        std::fs::write(&path, "not a certificate\n").unwrap();
        let err = Link::new(&LinkArgs {
            tls_ca: Some(path.clone()),
            ..LinkArgs::default()
        })
        .unwrap_err()
        .to_string();
        assert!(
            err.starts_with(&format!("--tls-ca {}: no certificate", path.display())),
            "{err}"
        );
        let missing = dir.join("missing.pem");
        let err = Link::new(&LinkArgs {
            tls_ca: Some(missing.clone()),
            ..LinkArgs::default()
        })
        .unwrap_err()
        .to_string();
        assert_eq!(
            err,
            format!("--tls-ca {}: cannot read it", missing.display())
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
