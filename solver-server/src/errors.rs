//! Every error of the server and the one place each becomes a wire error: a per-case
//! [`CaseFailure`] becomes a reply's `CaseError` (the stream goes on), a [`StreamEnd`] becomes the
//! `Status` that ends a stream, and [`ServeError`] is what [`serve`](crate::serve) returns.

use std::net::SocketAddr;
use std::time::Duration;

use tonic::{Code, Status};

use crate::pb;

/// Why one case got no answer. It is reported in that case's reply; the stream goes on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum CaseFailure {
    /// The request is malformed; `field` names the request field at fault.
    #[error("case {id}: {field}: {message}")]
    Invalid {
        /// The case's `id`.
        id: u64,
        /// The request field at fault.
        field: &'static str,
        /// What is wrong with it.
        message: String,
    },
    /// The search expanded its whole node budget without an answer.
    #[error("case {id}: no answer within the node budget of {budget} (stopped at node {nodes})")]
    NodeBudget {
        /// The case's `id`.
        id: u64,
        /// The budget that applied.
        budget: u64,
        /// Nodes expanded.
        nodes: u64,
    },
    /// The search ran past the server's per-case time limit.
    #[error(
        "case {id}: per-case time limit of {} ms exceeded after {nodes} nodes without an answer",
        limit.as_millis()
    )]
    TimeLimit {
        /// The case's `id`.
        id: u64,
        /// The server's `--case-timeout`.
        limit: Duration,
        /// Nodes expanded.
        nodes: u64,
    },
    /// The call's own deadline (`grpc-timeout`) passed during the search.
    #[error("case {id}: the call's deadline passed after {nodes} nodes without an answer")]
    Deadline {
        /// The case's `id`.
        id: u64,
        /// Nodes expanded.
        nodes: u64,
    },
    /// The stream was cancelled (the client went away or the server is stopping).
    #[error("case {id}: cancelled")]
    Cancelled {
        /// The case's `id`.
        id: u64,
    },
    /// A bug: the solver panicked on this case.
    #[error("case {id}: internal error: {message}")]
    Internal {
        /// The case's `id`.
        id: u64,
        /// What went wrong.
        message: String,
    },
}

impl CaseFailure {
    /// The `id` of the case that failed.
    pub(crate) fn id(&self) -> u64 {
        match self {
            CaseFailure::Invalid { id, .. }
            | CaseFailure::NodeBudget { id, .. }
            | CaseFailure::TimeLimit { id, .. }
            | CaseFailure::Deadline { id, .. }
            | CaseFailure::Cancelled { id }
            | CaseFailure::Internal { id, .. } => *id,
        }
    }

    /// The gRPC code that best describes the failure.
    pub(crate) fn code(&self) -> Code {
        match self {
            CaseFailure::Invalid { .. } => Code::InvalidArgument,
            CaseFailure::NodeBudget { .. } | CaseFailure::TimeLimit { .. } => {
                Code::ResourceExhausted
            }
            CaseFailure::Deadline { .. } => Code::DeadlineExceeded,
            CaseFailure::Cancelled { .. } => Code::Cancelled,
            CaseFailure::Internal { .. } => Code::Internal,
        }
    }
}

impl From<CaseFailure> for pb::CaseError {
    fn from(failure: CaseFailure) -> Self {
        pb::CaseError {
            code: failure.code() as i32,
            message: failure.to_string(),
        }
    }
}

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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_failures_are_resource_exhausted() {
        let failure = CaseFailure::NodeBudget {
            id: 7,
            budget: 100,
            nodes: 101,
        };
        let wire = pb::CaseError::from(failure);
        assert_eq!(wire.code, Code::ResourceExhausted as i32);
        assert_eq!(
            wire.message,
            "case 7: no answer within the node budget of 100 (stopped at node 101)"
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
