//! Why a reply of the service is not an answer to print: the checks every family's replies share
//! (an outcome, of the query's kind), a check of one family's own (its `reply.rs`), and the
//! service's own in-band errors.

use solver_proto::tonic_types::{self, RpcStatusExt as _};

/// Why a reply is not an answer to print.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ReplyError {
    /// The service answered in band with an error (a limit, a bad field, a shutdown).
    #[error("the service could not answer ({code:?}): {message}")]
    Service {
        /// The status code.
        code: tonic::Code,
        /// What the service said: the fields at fault and why, when it named them.
        message: String,
    },
    /// A reply carrying no outcome at all.
    #[error("the service's reply has no outcome")]
    NoOutcome,
    /// A solution of another kind of puzzle than the query's.
    #[error("the reply is for another kind of puzzle")]
    WrongKind,
    /// A check only one family makes (sliding moves that miss the target, a Solitaire move off
    /// the board), in its words.
    #[error(transparent)]
    Family(Box<dyn std::error::Error + Send + Sync>),
}

/// An in-band `google.rpc.Status`: the fields its `BadRequest` detail names and why (as the
/// status message words them), else its message.
pub(crate) fn service_error(status: &tonic_types::Status) -> ReplyError {
    let violations = status
        .get_error_details()
        .bad_request()
        .map(|bad| {
            bad.field_violations
                .iter()
                .map(|v| format!("{}: {}", v.field, v.description))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    ReplyError::Service {
        code: tonic::Code::from_i32(status.code),
        message: if violations.is_empty() {
            status.message.clone()
        } else {
            violations.join("; ")
        },
    }
}
