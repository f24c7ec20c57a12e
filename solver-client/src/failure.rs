//! Why a case gets no answer: what the printers report in its place.

use crate::read_error::ReadError;
use crate::wire::ReplyError;

/// Why a case has no answer to print.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CaseError {
    /// Its text could not be read.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The reply came, but is an error or failed the client's checks.
    #[error(transparent)]
    Reply(#[from] ReplyError),
    /// No reply came.
    #[error(transparent)]
    Unanswered(#[from] Unanswered),
}

/// Why no reply came for a case: the servers failed it (each message names how the last one did).
#[derive(Debug, Clone, thiserror::Error)]
pub(crate) enum Unanswered {
    /// A server refused to open the stream.
    #[error("the service refused the stream: {:?}: {}", .0.code(), .0.message())]
    Refused(tonic::Status),
    /// A stream failed after it was opened (its server died, or ended it with a status).
    #[error("not answered: the stream failed: {:?}: {}", .0.code(), .0.message())]
    StreamFailed(tonic::Status),
    /// A server ended its stream without answering every case it had taken.
    #[error("not answered: the service ended the stream early")]
    EndedEarly,
    /// No server was left to ask.
    #[error("not answered: no server")]
    NoServer,
}
