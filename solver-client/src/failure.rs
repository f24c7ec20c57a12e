//! Why a case gets no answer: what the printers report in its place.

use crate::read_error::ReadError;
use crate::reply::ReplyError;

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
    /// A server refused to open the stream, or the connection failed before it opened.
    #[error("{}", refusal(.url, .status))]
    Refused {
        /// The server's URL.
        url: String,
        /// What the call ended with.
        status: tonic::Status,
    },
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

impl Unanswered {
    /// Whether the service could not be reached or refused us (exit code 3), rather than
    /// failing a case: a stream refused, a connection lost, or no server left.
    pub(crate) fn unreachable(&self) -> bool {
        match self {
            Unanswered::Refused { .. } | Unanswered::NoServer => true,
            Unanswered::StreamFailed(status) => crate::exit::refused_us(status.code()),
            Unanswered::EndedEarly => false,
        }
    }
}

/// A stream that did not open, for a person. A status the connection made up (it has a transport
/// error as its source) means the two ends do not understand each other, most often TLS on one
/// side only, or a client certificate the server wanted and did not get: say so.
fn refusal(url: &str, status: &tonic::Status) -> String {
    use std::error::Error as _;
    let said = format!("{:?}: {}", status.code(), status.message());
    if status.source().is_none() {
        return format!("the service at {url} refused the stream: {said}");
    }
    let hint = if url.starts_with("https://") {
        "did the server want a client certificate (--tls-cert and --tls-key)?"
    } else {
        "does the server speak TLS? then use https://"
    };
    format!(
        "the connection to the solver server at {url} failed before the stream opened ({said}); {hint}"
    )
}
