//! Why a reply of the service is not an answer to print: every check the client makes of a
//! reply against its query, and the service's own in-band errors.

use solver_core::{MoveParseError, ReplayError};
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
    /// A sliding move string with a letter that is not a move.
    #[error("the service sent a bad move string: {0}")]
    MoveString(#[source] MoveParseError),
    /// Sliding moves that leave the board.
    #[error("the service's moves {moves:?} are illegal: {source}")]
    IllegalMoves {
        /// The move string as sent.
        moves: String,
        /// The first illegal move.
        source: ReplayError,
    },
    /// Legal sliding moves that end elsewhere.
    #[error("the service's moves {0:?} do not reach the target")]
    MissesTarget(String),
    /// A lower bound above the length of the answer it bounds.
    #[error("the service's lower bound {lower_bound} exceeds its answer's {length} moves")]
    BadBound {
        /// The bound sent.
        lower_bound: u32,
        /// Moves sent.
        length: usize,
    },
    /// "Unsolvable" for boards the parity rule says can meet.
    #[error("the service says unsolvable, but the parities agree")]
    FalseUnsolvable,
    /// A check only one family makes (a Solitaire move off the board, say), in its words.
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
