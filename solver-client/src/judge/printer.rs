//! The judge's printer: answers on stdout in the judge's format, case errors on stderr.

use std::io;

use super::format::RenderError;
use super::problem::Problem;
use crate::case::{Answer, Case};
use crate::failure::CaseError;
use crate::output::Output;
use crate::progress::Progress;
use crate::read_error::ReadError;
use crate::sink::Sink;

/// Prints a judge run: answers on stdout in the judge's format, case errors on stderr.
#[derive(Debug)]
pub(crate) struct Printer {
    problem: Problem,
    out: Output,
    progress: Progress,
    cases: usize,
    done: usize,
    answered: usize,
    failed: usize,
}

/// What a judge run did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Summary {
    /// Cases read (good and bad, and one for cases a count announced that never came).
    pub(crate) cases: usize,
    /// Cases whose answers were printed.
    pub(crate) answered: usize,
    /// Problems reported: bad cases, cases without an answer, and problems outside any case.
    pub(crate) failed: usize,
}

impl Printer {
    /// A printer for `total` cases of `problem` on stdout.
    pub(crate) fn new(problem: Problem, total: usize, progress: bool) -> Self {
        Self {
            problem,
            out: Output::stdout(),
            progress: Progress::new(total, progress),
            cases: total,
            done: 0,
            answered: 0,
            failed: 0,
        }
    }

    /// Reports a problem outside any case on stderr.
    pub(crate) fn problem(&mut self, line: usize, message: &ReadError) {
        self.failed += 1;
        self.progress.clear();
        eprintln!("{}: line {line}: {message}", self.problem);
    }

    /// Flushes the output; says how many cases were answered and how many problems there were.
    pub(crate) fn finish(mut self) -> io::Result<Summary> {
        self.progress.clear();
        io::Write::flush(&mut self.out)?;
        Ok(Summary {
            cases: self.cases,
            answered: self.answered,
            failed: self.failed,
        })
    }
}

impl Sink for Printer {
    fn case(&mut self, case: &Case, answer: Result<&Answer, &CaseError>) -> io::Result<()> {
        let printed = match answer {
            Ok(answer) => match self
                .problem
                .format()
                .render(&mut self.out, case.number, answer)
            {
                Err(RenderError::Io(e)) => return Err(e),
                printed => printed.map_err(|e| e.to_string()),
            },
            Err(error) => Err(error.to_string()),
        };
        match printed {
            Ok(()) => {
                self.answered += 1;
                self.out.case_done();
            }
            Err(error) => {
                self.failed += 1;
                self.progress.clear();
                eprintln!(
                    "{}: case {}, line {}: {error}",
                    self.problem, case.number, case.line
                );
            }
        }
        self.done += 1;
        self.progress.update(self.done);
        Ok(())
    }

    fn idle(&mut self) -> io::Result<()> {
        self.out.idle()
    }
}
