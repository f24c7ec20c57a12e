//! Every error of the server and the one place each becomes a wire error: a per-case [`Failure`]
//! becomes a v1 reply's `CaseError` or a v2 status (the call's, or in band; the stream goes on),
//! a [`StreamEnd`] becomes the `Status` that ends a stream, and [`ServeError`] is what
//! [`serve`](crate::serve) returns.

use std::net::SocketAddr;
use std::time::Duration;

use prost::Message as _;
use solver_proto::tonic_types::{self, ErrorDetails, FieldViolation, StatusExt as _};
use tonic::{Code, Status};

use crate::pb;

/// Why one case (or one unary call) got no answer. A stream reports it in that case's reply and
/// goes on; a unary call ends with it. The wire forms are built here: [`Failure::v1`] for
/// `solver.v1`'s `CaseError`, [`Failure::status`] for `solver.v2` (the call's status, or the
/// in-band [`Failure::rpc_status`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Failure {
    /// The request is malformed; `field` is the path of the request field at fault.
    #[error("{field}: {message}")]
    Invalid {
        /// The request field at fault (`start`, `sliding.start`, `quality.max_ratio`).
        field: String,
        /// What is wrong with it: the value and the rule it breaks.
        message: String,
    },
    /// The search expanded its whole node budget without an answer.
    #[error("no answer within the node budget of {budget} (stopped at node {nodes}){proven}")]
    NodeBudget {
        /// The budget that applied.
        budget: u64,
        /// Nodes expanded.
        nodes: u64,
        /// What the search proved before it stopped.
        proven: Proven,
    },
    /// The search ran past the server's per-case time limit.
    #[error(
        "per-case time limit of {} ms exceeded after {nodes} nodes without an answer{proven}",
        limit.as_millis()
    )]
    TimeLimit {
        /// The server's `--case-timeout`.
        limit: Duration,
        /// Nodes expanded.
        nodes: u64,
        /// What the search proved before it stopped.
        proven: Proven,
    },
    /// The call's own deadline (`grpc-timeout`) passed during the search.
    #[error("the call's deadline passed after {nodes} nodes without an answer{proven}")]
    Deadline {
        /// Nodes expanded.
        nodes: u64,
        /// What the search proved before it stopped.
        proven: Proven,
    },
    /// The stream or call was cancelled (the client went away or the server is stopping).
    #[error("cancelled")]
    Cancelled,
    /// A bug: the solver panicked on this case.
    #[error("internal error: {message}")]
    Internal {
        /// What went wrong.
        message: String,
    },
    /// Too many calls are in flight (unary calls share the limit of open streams).
    #[error("too many solver calls are in flight (the limit is {limit}); retry later")]
    Busy {
        /// The server's `--max-streams`.
        limit: usize,
    },
    /// The server is shutting down and takes no new calls.
    #[error("the server is shutting down; retry on another replica")]
    ShuttingDown,
}

/// How long a client told to retry (overload, shutdown) should wait first.
pub(crate) const RETRY_AFTER: Duration = Duration::from_secs(1);

impl Failure {
    /// The failure with the lower bound its search proved, where it is a stopped search.
    #[must_use]
    pub(crate) fn with_lower_bound(mut self, bound: u32) -> Self {
        if let Failure::NodeBudget { proven, .. }
        | Failure::TimeLimit { proven, .. }
        | Failure::Deadline { proven, .. } = &mut self
        {
            *proven = Proven(Some(bound));
        }
        self
    }

    /// A bad `field`.
    pub(crate) fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        Failure::Invalid {
            field: field.into(),
            message: message.into(),
        }
    }

    /// The same failure with its field path under `parent` (`start` → `sliding.start`).
    #[must_use]
    pub(crate) fn within(self, parent: &str) -> Self {
        match self {
            Failure::Invalid { field, message } => Failure::Invalid {
                field: format!("{parent}.{field}"),
                message,
            },
            other => other,
        }
    }

    /// The gRPC code that best describes the failure.
    pub(crate) fn code(&self) -> Code {
        match self {
            Failure::Invalid { .. } => Code::InvalidArgument,
            Failure::NodeBudget { .. } | Failure::TimeLimit { .. } | Failure::Busy { .. } => {
                Code::ResourceExhausted
            }
            Failure::Deadline { .. } => Code::DeadlineExceeded,
            Failure::Cancelled => Code::Cancelled,
            Failure::Internal { .. } => Code::Internal,
            Failure::ShuttingDown => Code::Unavailable,
        }
    }

    /// `solver.v1`'s in-band error for case `id`: the code and the message, prefixed with the
    /// case (`case 7: start: ...`).
    pub(crate) fn v1(&self, id: u64) -> pb::CaseError {
        pb::CaseError {
            code: self.code() as i32,
            message: format!("case {id}: {self}"),
        }
    }

    /// `solver.v2`'s status for the failure, with the richer error model's details: a
    /// `BadRequest` field violation for a bad field, a `RetryInfo` when retrying later can
    /// succeed (overload, shutdown), none otherwise (a budget or time limit fails the same way
    /// again).
    pub(crate) fn status(&self) -> Status {
        let details = match self {
            Failure::Invalid { field, message } => {
                ErrorDetails::with_bad_request(vec![FieldViolation::new(
                    field.clone(),
                    message.clone(),
                )])
            }
            Failure::Busy { .. } | Failure::ShuttingDown => {
                ErrorDetails::with_retry_info(Some(RETRY_AFTER))
            }
            Failure::NodeBudget { nodes, proven, .. }
            | Failure::TimeLimit { nodes, proven, .. }
            | Failure::Deadline { nodes, proven } => {
                let reason = match self {
                    Failure::NodeBudget { .. } => "NODE_BUDGET",
                    Failure::TimeLimit { .. } => "TIME_LIMIT",
                    _ => "DEADLINE",
                };
                let mut metadata =
                    std::collections::HashMap::from([("nodes".to_owned(), nodes.to_string())]);
                if let Some(bound) = proven.0 {
                    metadata.insert("lower_bound".to_owned(), bound.to_string());
                }
                ErrorDetails::with_error_info(reason, DOMAIN, metadata)
            }
            _ => return Status::new(self.code(), self.to_string()),
        };
        Status::with_error_details(self.code(), self.to_string(), details)
    }

    /// [`status`](Self::status) as a `google.rpc.Status` message, for an in-band error.
    pub(crate) fn rpc_status(&self) -> tonic_types::Status {
        let status = self.status();
        if status.details().is_empty() {
            return tonic_types::Status {
                code: i32::from(status.code()),
                message: status.message().to_owned(),
                details: Vec::new(),
            };
        }
        // The details bytes are that very message, encoded.
        tonic_types::Status::decode(status.details()).unwrap_or_else(|_| tonic_types::Status {
            code: i32::from(status.code()),
            message: status.message().to_owned(),
            details: Vec::new(),
        })
    }
}

/// The lower bound on the optimal length a stopped search proved (an optimal search's last
/// completed iteration), if it got that far: shown after a stop's message, and carried in a v2
/// status's `ErrorInfo`, so a caller can ask again with more time or a ratio.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Proven(pub(crate) Option<u32>);

impl std::fmt::Display for Proven {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(bound) => write!(
                f,
                "; the optimum is at least {bound} moves (quality.max_ratio above 1 answers fast)"
            ),
            None => Ok(()),
        }
    }
}

/// The `ErrorInfo` domain of the solver's errors.
const DOMAIN: &str = "solver.puzzles";

/// Why the server ends a whole stream with a non-OK status.
#[derive(Debug, thiserror::Error)]
pub(crate) enum StreamEnd {
    /// The server is shutting down; cases not yet answered were not read or were cancelled.
    #[error(
        "the server is shutting down; cases without a reply on this stream were not answered: resend them"
    )]
    ShuttingDown,
    /// The call's `grpc-timeout` passed.
    #[error("the call's deadline of {} ms passed; cases without a reply were not answered", .0.as_millis())]
    Deadline(Duration),
    /// Too many solver streams are open.
    #[error("too many solver streams are open (the limit is {0}); retry later")]
    TooManyStreams(usize),
    /// Reading the request stream failed (a malformed frame, a message over the size limit).
    #[error("reading the request stream failed: {}", .0.message())]
    BadFrame(Status),
}

impl From<StreamEnd> for Status {
    fn from(end: StreamEnd) -> Self {
        let code = match &end {
            StreamEnd::ShuttingDown => Code::Unavailable,
            StreamEnd::Deadline(_) => Code::DeadlineExceeded,
            StreamEnd::TooManyStreams(_) => Code::ResourceExhausted,
            // tonic reports a message over the size limit as OUT_OF_RANGE; gRPC's own
            // implementations (and its spec of limits) use RESOURCE_EXHAUSTED.
            StreamEnd::BadFrame(status) if status.code() == Code::OutOfRange => {
                Code::ResourceExhausted
            }
            StreamEnd::BadFrame(status) => status.code(),
        };
        Status::new(code, end.to_string())
    }
}

impl StreamEnd {
    /// `solver.v2`'s status for the end: as v1's, with a `RetryInfo` where retrying later (or on
    /// another replica) can succeed: too many streams, shutdown.
    pub(crate) fn v2_status(self) -> Status {
        let retry = matches!(self, StreamEnd::ShuttingDown | StreamEnd::TooManyStreams(_));
        let status = Status::from(self);
        if !retry {
            return status;
        }
        Status::with_error_details(
            status.code(),
            status.message(),
            ErrorDetails::with_retry_info(Some(RETRY_AFTER)),
        )
    }
}

/// Why [`serve`](crate::serve) failed.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The metrics endpoint could not listen on its address.
    #[error("cannot listen for metrics on {addr}: {source}")]
    MetricsBind {
        /// The configured `--metrics-listen`.
        addr: SocketAddr,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The reflection service could not read the embedded descriptor set.
    #[error("cannot build the reflection service: {0}")]
    Reflection(#[from] tonic_reflection::server::Error),
    /// The gRPC transport failed.
    #[error("gRPC transport error: {0}")]
    Transport(#[from] tonic::transport::Error),
    /// A socket operation failed.
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
    /// The bearer tokens file could not be used.
    #[error("auth: {0}")]
    Auth(#[from] crate::auth::AuthError),
    /// The TLS certificate, key or client CA could not be used.
    #[error("TLS: {0}")]
    Tls(#[from] crate::tls::TlsError),
}

#[cfg(test)]
mod tests {
    use solver_proto::tonic_types::{RpcStatusExt as _, StatusExt as _};

    use super::*;

    #[test]
    fn budget_failures_are_resource_exhausted() {
        let failure = Failure::NodeBudget {
            budget: 100,
            nodes: 101,
            proven: Proven(None),
        };
        let wire = failure.v1(7);
        assert_eq!(wire.code, Code::ResourceExhausted as i32);
        assert_eq!(
            wire.message,
            "case 7: no answer within the node budget of 100 (stopped at node 101)"
        );
        // No RetryInfo: the same case fails the same way again; an ErrorInfo says how far it got.
        let status = failure.status();
        assert_eq!(status.code(), Code::ResourceExhausted);
        assert!(status.get_details_retry_info().is_none());
        let info = status.get_details_error_info().unwrap();
        assert_eq!(info.reason, "NODE_BUDGET");
        assert_eq!(info.metadata["nodes"], "101");
        assert!(!info.metadata.contains_key("lower_bound"));
        let bounded = failure.with_lower_bound(54);
        assert!(
            bounded.to_string().ends_with(
                "(stopped at node 101); the optimum is at least 54 moves (quality.max_ratio above 1 answers fast)"
            ),
            "{bounded}"
        );
        let info = bounded.status().get_details_error_info().unwrap();
        assert_eq!(info.metadata["lower_bound"], "54");
    }

    #[test]
    fn bad_fields_carry_a_field_violation() {
        let failure = Failure::invalid("start", "expected 9 tiles, found 3").within("sliding");
        assert_eq!(
            failure.v1(4).message,
            "case 4: sliding.start: expected 9 tiles, found 3"
        );
        let status = failure.status();
        assert_eq!(status.code(), Code::InvalidArgument);
        let bad = status.get_details_bad_request().unwrap();
        assert_eq!(bad.field_violations[0].field, "sliding.start");
        assert_eq!(
            bad.field_violations[0].description,
            "expected 9 tiles, found 3"
        );
        let in_band = failure.rpc_status();
        assert_eq!(in_band.code, Code::InvalidArgument as i32);
        assert_eq!(in_band.message, "sliding.start: expected 9 tiles, found 3");
        let bad = in_band.get_details_bad_request().unwrap();
        assert_eq!(bad.field_violations[0].field, "sliding.start");
    }

    #[test]
    fn overload_says_when_to_retry() {
        for failure in [Failure::Busy { limit: 3 }, Failure::ShuttingDown] {
            let status = failure.status();
            let retry = status.get_details_retry_info().unwrap();
            assert_eq!(retry.retry_delay, Some(RETRY_AFTER));
        }
        let status = StreamEnd::TooManyStreams(3).v2_status();
        assert_eq!(status.code(), Code::ResourceExhausted);
        assert!(status.get_details_retry_info().is_some());
        assert!(
            StreamEnd::Deadline(Duration::from_millis(5))
                .v2_status()
                .details()
                .is_empty()
        );
    }

    #[test]
    fn stream_ends_keep_their_code() {
        let status = Status::from(StreamEnd::Deadline(Duration::from_millis(250)));
        assert_eq!(status.code(), Code::DeadlineExceeded);
        assert!(status.message().contains("250 ms"));
        let status = Status::from(StreamEnd::BadFrame(Status::out_of_range("too big")));
        assert_eq!(status.code(), Code::ResourceExhausted);
        assert!(status.message().contains("too big"));
    }
}
