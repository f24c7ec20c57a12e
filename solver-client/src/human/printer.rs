//! The printer of `solve`: answers as text or JSON lines on stdout; errors on stderr (or, with
//! `--json`, as JSON lines on stdout so that a script sees every case).

use std::io::{self, Write as _};

use super::view::View;
use crate::case::Case;
use crate::failure::CaseError;
use crate::family::Answer;
use crate::output::Output;
use crate::sink::Sink;

/// Writes answers for a person, or as JSON lines.
#[derive(Debug)]
pub(crate) struct Printer {
    out: Output,
    view: View,
    /// Whether there are several cases (then each answer names its case).
    many: bool,
    /// Whether the boards came from standard input (then messages name their lines).
    from_stdin: bool,
    /// Cases printed so far, and how many of them failed.
    cases: usize,
    failed: usize,
}

impl Printer {
    /// A printer on stdout.
    pub(crate) fn new(view: View, many: bool, from_stdin: bool) -> Self {
        Self {
            out: Output::stdout(),
            view,
            many,
            from_stdin,
            cases: 0,
            failed: 0,
        }
    }

    /// Flushes the output and, when some of several cases failed, says on stderr how many were
    /// answered (as `judge` does); returns how many cases failed.
    pub(crate) fn finish(mut self) -> io::Result<usize> {
        self.out.flush()?;
        if let Some(summary) = summary(self.cases, self.failed) {
            eprintln!("solver-client: {summary}");
        }
        Ok(self.failed)
    }
}

/// The run's last line when it helps: some of several cases failed, and their errors may be far
/// apart in the output. With one case, or none failed, the output already says it all.
fn summary(cases: usize, failed: usize) -> Option<String> {
    (failed > 0 && cases > 1).then(|| format!("{} of {cases} case(s) answered", cases - failed))
}

impl Sink for Printer {
    fn case(&mut self, case: &Case, answer: Result<&Answer, &CaseError>) -> io::Result<()> {
        self.cases += 1;
        let error = match (&case.query, answer) {
            (Ok(query), Ok(answer)) if self.view.json => {
                let value = query.json(case.number, answer);
                return writeln!(self.out, "{value}");
            }
            (Ok(query), Ok(answer)) => {
                let prefix = if self.many {
                    format!("case {}: ", case.number)
                } else {
                    String::new()
                };
                return query.write_text(&mut self.out, &prefix, self.view.show, answer);
            }
            (Err(error), _) => error.to_string(),
            (_, Err(error)) => error.to_string(),
        };
        self.failed += 1;
        if self.view.json {
            let mut value = serde_json::json!({ "case": case.number, "error": error });
            if self.from_stdin {
                value["line"] = case.line.into();
            }
            writeln!(self.out, "{value}")
        } else {
            self.out.flush()?;
            if self.from_stdin {
                eprintln!(
                    "solver-client: case {}, line {}: {error}",
                    case.number, case.line
                );
            } else {
                eprintln!("solver-client: case {}: {error}", case.number);
            }
            Ok(())
        }
    }

    fn idle(&mut self) -> io::Result<()> {
        self.out.idle()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_summary_only_when_some_of_several_failed() {
        assert_eq!(summary(3, 1).as_deref(), Some("2 of 3 case(s) answered"));
        assert_eq!(summary(2, 2).as_deref(), Some("0 of 2 case(s) answered"));
        assert_eq!(summary(3, 0), None);
        assert_eq!(summary(1, 1), None);
    }
}
