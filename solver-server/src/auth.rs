//! Bearer tokens, and limits per token so that one caller cannot take the whole service.
//!
//! With `--auth-tokens-file`, every call but unary health checks and reflection must carry
//! `authorization: Bearer TOKEN` with a token listed in the file (one per line; blank lines and
//! lines starting with `#` are ignored); others end UNAUTHENTICATED before any service sees them.
//! Health `Check` stays open because the kubelet's probes send no token; health `Watch` is a
//! stream that holds memory for as long as its caller likes, so it needs a token like any other
//! stream (and counts against the server's stream limit, see [`crate::health`]).
//!
//! The file is read again when it changes ([`crate::watch`]), so tokens are added and revoked
//! without a restart (a revoked token's open calls finish). A change that leaves the file
//! unusable (emptied, deleted, unreadable) fails closed: every token is refused, calls that need
//! one end UNAUTHENTICATED saying that the tokens file cannot be used, until it loads again
//! (tried every 2 s). Keeping the previous tokens instead, as the TLS certificate does, would
//! make emptying or deleting the file a revocation that silently does nothing; an operator who
//! empties the file means "nobody". The cost: a file that is missing or empty for a moment
//! revokes everything for up to one poll (2 s). Kubernetes swaps a mounted Secret's files
//! atomically (the `..data` symlink is renamed), so a rotation never shows an empty file and a
//! path that is missing for an instant is read again at the next poll; an editor that truncates
//! and rewrites the file in place can cause such a moment (write a new file and rename it over
//! the old one instead). The server still does not start with an unusable file.
//!
//! Each token may hold at most `--max-streams-per-token` calls open at once (streams, unary
//! calls and health `Watch` streams; more end RESOURCE_EXHAUSTED) and at most
//! `--max-cases-per-token` cases in flight over all its streams (its streams stop reading until
//! some are answered: the same backpressure as a stream's own window). Without a tokens file
//! nothing is checked and the server-wide limits are the only ones.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::body::Body;
use axum::extract::{Request, State};
use axum::middleware::{self, Next};
use axum::response::Response;
use dashmap::DashMap;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tonic::Status;
use tonic::codegen::http::header;
use tonic::service::Routes;

use crate::watch::Reloading;

/// The one path anyone may call exactly: unary health checks (the kubelet's probes send no
/// token). Health `Watch` is not in it: a stream held open for ever must be someone's.
const PROBE: &str = "/grpc.health.v1.Health/Check";

/// Path prefixes anyone may call: reflection (discovery).
const OPEN: [&str; 1] = ["/grpc.reflection."];

/// What callers that need a token are told while the tokens file cannot be used.
const UNUSABLE: &str = "the server's tokens file cannot be used (emptied, deleted or unreadable): \
    no token is accepted until it loads again";

/// Why the tokens file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    /// It cannot be read.
    #[error("cannot read the tokens file {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// It lists no token: every call would be refused.
    #[error("the tokens file {0} lists no token")]
    Empty(PathBuf),
}

/// The tokens a file lists, or none at all while it cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Tokens {
    /// The tokens of the file as last loaded.
    Listed(HashSet<String>),
    /// The file changed and does not load: no token is valid (failing closed).
    Unusable,
}

impl Tokens {
    /// Reads one token per line; blank lines and `#` comments are skipped.
    fn read(path: &Path) -> Result<Self, AuthError> {
        let text = std::fs::read_to_string(path).map_err(|source| AuthError::Read {
            path: path.to_owned(),
            source,
        })?;
        let tokens: HashSet<String> = text
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty() && !line.starts_with('#'))
            .map(str::to_owned)
            .collect();
        if tokens.is_empty() {
            return Err(AuthError::Empty(path.to_owned()));
        }
        Ok(Self::Listed(tokens))
    }
}

/// What every call of one token shares.
#[derive(Debug)]
pub(crate) struct TokenLimits {
    /// One permit per call the token may hold open.
    calls: Arc<Semaphore>,
    /// One permit per case the token may have in flight; the streams take them (see
    /// [`CaseSlots`]).
    cases: Arc<Semaphore>,
}

/// The case slots of the caller's token, put in the request's extensions for its streams.
#[derive(Debug, Clone)]
pub(crate) struct CaseSlots(pub(crate) Arc<Semaphore>);

/// The checks of a server with a tokens file.
#[derive(Debug)]
pub(crate) struct Auth {
    tokens: Arc<Reloading<Tokens, AuthError>>,
    limits: DashMap<String, Arc<TokenLimits>>,
    max_calls: usize,
    max_cases: usize,
}

impl Auth {
    /// Reads the tokens file (the server does not start without it).
    pub(crate) fn load(
        path: PathBuf,
        max_calls: usize,
        max_cases: usize,
    ) -> Result<Arc<Self>, AuthError> {
        let file = path.clone();
        // Failing closed (see the module documentation); the TLS certificate keeps its previous
        // value instead.
        let tokens = Reloading::failing_closed(
            "bearer tokens",
            vec![path],
            move || Tokens::read(&file),
            |_| Tokens::Unusable,
        )?;
        Ok(Arc::new(Self {
            tokens,
            limits: DashMap::new(),
            max_calls,
            max_cases,
        }))
    }

    /// The tokens, kept up to date by [`crate::watch::watch`].
    pub(crate) fn tokens(&self) -> Arc<Reloading<Tokens, AuthError>> {
        Arc::clone(&self.tokens)
    }

    fn limits_of(&self, token: &str) -> Arc<TokenLimits> {
        if let Some(limits) = self.limits.get(token) {
            return Arc::clone(&limits);
        }
        Arc::clone(&self.limits.entry(token.to_owned()).or_insert_with(|| {
            Arc::new(TokenLimits {
                calls: Arc::new(Semaphore::new(self.max_calls)),
                cases: Arc::new(Semaphore::new(self.max_cases)),
            })
        }))
    }

    /// Admits a call: `Err` is the response that refuses it.
    fn admit(&self, request: &mut Request) -> Result<Option<OwnedSemaphorePermit>, Status> {
        let path = request.uri().path();
        if path == PROBE || OPEN.iter().any(|open| path.starts_with(open)) {
            return Ok(None);
        }
        let Tokens::Listed(tokens) = &*self.tokens.current() else {
            return Err(Status::unauthenticated(UNUSABLE));
        };
        let given = request
            .headers()
            .get(header::AUTHORIZATION)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| {
                let (scheme, token) = value.split_once(' ')?;
                scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
            });
        let Some(token) = given else {
            return Err(Status::unauthenticated(
                "this server wants a bearer token: send the header `authorization: Bearer TOKEN`",
            ));
        };
        if !tokens.contains(token) {
            return Err(Status::unauthenticated(
                "the bearer token is not valid here",
            ));
        }
        let limits = self.limits_of(token);
        let permit = Arc::clone(&limits.calls).try_acquire_owned().map_err(|_| {
            Status::resource_exhausted(format!(
                "this token already has {} calls open, the most one token may (--max-streams-per-token)",
                self.max_calls
            ))
        })?;
        request
            .extensions_mut()
            .insert(CaseSlots(Arc::clone(&limits.cases)));
        Ok(Some(permit))
    }
}

/// Puts the token check in front of every route of `routes`.
pub(crate) fn require(routes: Routes, auth: Arc<Auth>) -> Routes {
    Routes::from(
        routes
            .into_axum_router()
            .layer(middleware::from_fn_with_state(auth, check)),
    )
}

async fn check(State(auth): State<Arc<Auth>>, mut request: Request, next: Next) -> Response {
    match auth.admit(&mut request) {
        // The call holds its slot until its last reply is sent.
        Ok(permit) => holding(next.run(request).await, permit),
        Err(status) => status.into_http(),
    }
}

/// `response`, keeping `kept` (a call's slot) until its body is dropped: when a stream's last
/// reply is sent, or the stream is reset or its connection closes. Dropping it when the handler
/// returns would free a stream's slot while the stream is still open.
pub(crate) fn holding<K: Send + Unpin + 'static>(response: Response, kept: K) -> Response {
    response.map(|body| Body::new(Holding { body, _kept: kept }))
}

/// A response body that keeps something (the call's slot) while it is being sent.
struct Holding<K> {
    body: Body,
    _kept: K,
}

impl<K: Unpin> http_body::Body for Holding<K> {
    type Data = <Body as http_body::Body>::Data;
    type Error = <Body as http_body::Body>::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tokens_file_skips_blanks_and_comments() {
        let dir = std::env::temp_dir().join(format!("solver-auth-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("tokens");
        std::fs::write(&path, "# callers\nalpha\n\n  beta  \n").unwrap();
        let tokens = Tokens::read(&path).unwrap();
        assert_eq!(
            tokens,
            Tokens::Listed(HashSet::from(["alpha".to_owned(), "beta".to_owned()]))
        );
        std::fs::write(&path, "# none\n\n").unwrap();
        assert!(matches!(Tokens::read(&path), Err(AuthError::Empty(_))));
        let _ = std::fs::remove_dir_all(dir);
    }
}
