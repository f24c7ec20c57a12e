//! The judge's printer: answers on stdout in the judge's format, case errors on stderr.
//!
//! The input is read while the answers are printed, so the printer learns of the problems outside
//! any case ([`Notes`]) as the reader finds them rather than before the first case. The messages
//! keep the order they had when the whole input was read first: problems, then the case errors in
//! case order. Only a counted format can report a problem after its cases (text after the last
//! one), so there the case errors are held back until the input is read (up to
//! [`HELD_LINES`]; an input with more bad cases than that before its end gets them earlier).

use std::io::{self, IsTerminal as _, Write as _};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::format::RenderError;
use super::problem::Problem;
use crate::case::Case;
use crate::failure::CaseError;
use crate::family::Answer;
use crate::output::Output;
use crate::read_error::ReadError;
use crate::sink::Sink;

/// The most case error lines held back while a problem may still come: beyond that they are
/// printed (memory stays bounded; only their order relative to such a problem changes).
pub(crate) const HELD_LINES: usize = 4096;

/// What the reader found outside any case, passed to the printer.
#[derive(Debug, Default)]
pub(crate) struct Notes {
    state: Mutex<NotesState>,
}

#[derive(Debug, Default)]
struct NotesState {
    problems: Vec<(usize, ReadError)>,
    read_all: bool,
}

impl Notes {
    /// A problem outside any case, at `line`.
    pub(crate) fn problem(&self, line: usize, problem: ReadError) {
        self.lock().problems.push((line, problem));
    }

    /// The input has been read: no problem comes any more.
    pub(crate) fn read_all(&self) {
        self.lock().read_all = true;
    }

    /// The problems not taken yet, and whether the input has been read.
    fn take(&self) -> (Vec<(usize, ReadError)>, bool) {
        let mut state = self.lock();
        (std::mem::take(&mut state.problems), state.read_all)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, NotesState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Prints a judge run: answers on stdout in the judge's format, case errors on stderr.
#[derive(Debug)]
pub(crate) struct Printer {
    problem: Problem,
    out: Output,
    progress: Bar,
    notes: Arc<Notes>,
    /// Case error lines held back until the input is read, while `Some`.
    held: Option<Vec<String>>,
    cases: usize,
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
    /// A printer for the cases of `problem` on stdout, told of problems outside the cases by
    /// `notes`, with a progress bar of how much of the input has been read.
    pub(crate) fn new(problem: Problem, notes: Arc<Notes>, progress: Progress) -> Self {
        Self {
            problem,
            out: Output::stdout(),
            progress: Bar::new(progress),
            notes,
            held: problem.counted().then(Vec::new),
            cases: 0,
            answered: 0,
            failed: 0,
        }
    }

    /// Reports a problem outside any case on stderr.
    fn problem(&mut self, line: usize, message: &ReadError) {
        self.failed += 1;
        self.progress.clear();
        eprintln!("{}: line {line}: {message}", self.problem);
    }

    /// Prints the problems the reader has found; once it has read everything, the case errors
    /// held back.
    pub(crate) fn catch_up(&mut self) {
        let (problems, read_all) = self.notes.take();
        for (line, message) in &problems {
            self.problem(*line, message);
        }
        if read_all {
            self.release_held();
        }
    }

    fn release_held(&mut self) {
        if let Some(held) = self.held.take() {
            self.progress.clear();
            for line in held {
                eprintln!("{line}");
            }
        }
    }

    /// Flushes the output; says how many cases were answered and how many problems there were.
    pub(crate) fn finish(mut self) -> io::Result<Summary> {
        self.catch_up();
        self.release_held();
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
        self.catch_up();
        self.cases += 1;
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
                let line = format!(
                    "{}: case {}, line {}: {error}",
                    self.problem, case.number, case.line
                );
                match &mut self.held {
                    Some(held) if held.len() < HELD_LINES => held.push(line),
                    _ => {
                        self.release_held();
                        self.progress.clear();
                        eprintln!("{line}");
                    }
                }
            }
        }
        self.progress.update(self.cases);
        Ok(())
    }

    fn idle(&mut self) -> io::Result<()> {
        self.catch_up();
        self.out.idle()
    }
}

/// What the progress bar shows: the share of the input read.
#[derive(Debug, Clone)]
pub(crate) struct Progress {
    /// Whether a bar is wanted (it is drawn only on a terminal anyway).
    pub(crate) wanted: bool,
    /// Bytes of the input read so far (where the reader's floor is).
    pub(crate) consumed: Arc<AtomicU64>,
    /// The size of the input, when known (a regular file).
    pub(crate) size: Option<u64>,
}

/// How long a run goes before the bar appears.
const DELAY: Duration = Duration::from_millis(500);
/// Time between redraws.
const REDRAW: Duration = Duration::from_millis(100);

/// A progress bar on stderr for long judge runs: the number of cases is not known until the
/// input is read, so the bar shows how much of the input has been (and just the count of cases
/// done when its size is not known, from a pipe).
#[derive(Debug)]
struct Bar {
    progress: Progress,
    enabled: bool,
    started: Instant,
    last_draw: Option<Instant>,
}

impl Bar {
    fn new(progress: Progress) -> Self {
        Self {
            enabled: progress.wanted && io::stderr().is_terminal(),
            progress,
            started: Instant::now(),
            last_draw: None,
        }
    }

    /// `done` cases are finished.
    fn update(&mut self, done: usize) {
        if !self.enabled || self.started.elapsed() < DELAY {
            return;
        }
        if self.last_draw.is_some_and(|t| t.elapsed() < REDRAW) {
            return;
        }
        self.last_draw = Some(Instant::now());
        let seconds = self.started.elapsed().as_secs_f64();
        let consumed = self.progress.consumed.load(Ordering::Relaxed);
        let text = match self.progress.size {
            Some(size) if size > 0 => {
                let share = (consumed as f64 / size as f64).min(1.0);
                let filled = (share * crate::progress::WIDTH as f64) as usize;
                format!(
                    "[{}] {done} cases, {:.0}% of the input read, {seconds:.1}s",
                    crate::progress::bar(filled),
                    share * 100.0
                )
            }
            _ => format!("{done} cases, {seconds:.1}s"),
        };
        let mut err = io::stderr().lock();
        let _ = write!(err, "\r{text}");
        let _ = err.flush();
    }

    /// Erases the bar (before a message, and at the end).
    fn clear(&mut self) {
        if self.last_draw.take().is_some() {
            let mut err = io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
        }
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        self.clear();
    }
}
