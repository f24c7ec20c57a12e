//! Where the answers of a run go, in input order: the judge printer and the one for people.

use std::io;

use crate::case::Case;
use crate::failure::CaseError;
use crate::family::Answer;

/// The receiver of a run's cases, each handed on once, in input order.
pub(crate) trait Sink {
    /// Case `case` is done: its checked answer, or why it has none.
    fn case(&mut self, case: &Case, answer: Result<&Answer, &CaseError>) -> io::Result<()>;

    /// The run is about to wait for the service (a chance to flush what is written).
    fn idle(&mut self) -> io::Result<()>;
}
