//! The exit codes, one per kind of outcome, so that scripts can tell a bad case from a service
//! they cannot reach. `--help` lists them (`AFTER_HELP` in main.rs); 2 is clap's usage error.

use std::process::ExitCode;

use tonic::Code;

use crate::endpoints::EndpointError;

/// Every case answered.
pub(crate) const ANSWERED: u8 = 0;
/// Some case had an error: bad input, or a case the service could not answer.
pub(crate) const CASE_ERROR: u8 = 1;
/// The service could not be reached (connection, TLS) or refused us (UNAUTHENTICATED,
/// PERMISSION_DENIED, or no stream for us).
pub(crate) const UNREACHABLE: u8 = 3;
/// A watched `solve` stopped early (Ctrl-C, `--timeout`) printed the best answer found so far:
/// valid, its optimality not proven.
pub(crate) const NOT_PROVEN: u8 = 4;
/// A watched `solve` stopped early with no answer found.
pub(crate) const NO_ANSWER: u8 = 5;

/// An error that means the service could not be reached or refused us (exit code 3).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct Unreachable(pub(crate) String);

/// Whether a call that ended with `code` means the service could not be reached or refused us.
pub(crate) fn refused_us(code: Code) -> bool {
    matches!(
        code,
        Code::Unauthenticated | Code::PermissionDenied | Code::Unavailable
    )
}

/// The exit code of a run that ended with `err`.
pub(crate) fn of_error(err: &anyhow::Error) -> ExitCode {
    let unreachable = err.chain().any(|cause| {
        cause.downcast_ref::<Unreachable>().is_some()
            || cause
                .downcast_ref::<EndpointError>()
                .is_some_and(EndpointError::unreachable)
    });
    ExitCode::from(if unreachable { UNREACHABLE } else { CASE_ERROR })
}
