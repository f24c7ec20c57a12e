//! A progress bar on stderr for long runs, only when stderr is a terminal.
//!
//! It never touches stdout, so judge output stays exact. It appears only once a run has taken a
//! moment, redraws a few times a second, and is erased before any message and at the end.

use std::io::{IsTerminal as _, Write as _};
use std::time::{Duration, Instant};

/// How long a run goes before the bar appears.
const DELAY: Duration = Duration::from_millis(500);
/// Time between redraws.
const REDRAW: Duration = Duration::from_millis(100);
/// Width of the bar in characters.
pub(crate) const WIDTH: usize = 30;

/// A bar of [`WIDTH`] characters with the first `filled` drawn.
pub(crate) fn bar(filled: usize) -> String {
    (0..WIDTH)
        .map(|i| if i < filled { '#' } else { '-' })
        .collect()
}

/// The progress of a run of `total` cases.
#[derive(Debug)]
pub(crate) struct Progress {
    total: usize,
    enabled: bool,
    started: Instant,
    last_draw: Option<Instant>,
}

impl Progress {
    /// A bar for `total` cases, drawn only if `wanted` and stderr is a terminal.
    pub(crate) fn new(total: usize, wanted: bool) -> Self {
        Self {
            total,
            enabled: wanted && std::io::stderr().is_terminal(),
            started: Instant::now(),
            last_draw: None,
        }
    }

    /// `done` cases are finished.
    pub(crate) fn update(&mut self, done: usize) {
        if !self.enabled || self.started.elapsed() < DELAY {
            return;
        }
        if self.last_draw.is_some_and(|t| t.elapsed() < REDRAW) {
            return;
        }
        self.last_draw = Some(Instant::now());
        let filled = (done * WIDTH).checked_div(self.total).unwrap_or(WIDTH);
        rewrite(&format!(
            "[{}] {done}/{} cases, {:.1}s",
            bar(filled),
            self.total,
            self.started.elapsed().as_secs_f64()
        ));
    }

    /// Erases the bar (before a message, and at the end).
    pub(crate) fn clear(&mut self) {
        if self.last_draw.take().is_some() {
            rewrite("");
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.clear();
    }
}

/// One line of status on stderr, redrawn in place (only on a terminal): what a person waits on
/// and how far it got.
pub(crate) struct Line {
    enabled: bool,
    drawn: bool,
    last: Option<Instant>,
}

/// How long a wait goes before its line appears.
const LINE_DELAY: Duration = Duration::from_millis(300);

impl Line {
    /// A line drawn only when `wanted` and stderr is a terminal.
    pub(crate) fn new(wanted: bool) -> Self {
        let enabled = wanted && std::io::stderr().is_terminal();
        Self {
            enabled,
            drawn: false,
            last: None,
        }
    }

    /// Redraws the line as `text`, for work that began at `started` (nothing before
    /// [`LINE_DELAY`], nor more often than [`REDRAW`]).
    pub(crate) fn draw(&mut self, started: Instant, text: &str) {
        let redrawn = self.last.is_some_and(|t| t.elapsed() < REDRAW);
        if !self.enabled || started.elapsed() < LINE_DELAY || redrawn {
            return;
        }
        self.last = Some(Instant::now());
        rewrite(text);
        self.drawn = true;
    }

    /// Erases the line.
    pub(crate) fn clear(&mut self) {
        if std::mem::take(&mut self.drawn) {
            rewrite("");
        }
    }
}

/// Replaces the current line of stderr by `text` (an empty one erases it): back to the start of
/// the line, erase it, write. Failures are ignored: a progress line is never worth an error.
fn rewrite(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = write!(err, "\r\x1b[2K{text}");
    let _ = err.flush();
}

impl Drop for Line {
    fn drop(&mut self) {
        self.clear();
    }
}

/// Runs `work` to its end, showing on a terminal (when `wanted`) what it is and how long it has
/// taken, so that a wait on the service is never silent.
pub(crate) async fn waiting<T>(what: &str, wanted: bool, work: impl Future<Output = T>) -> T {
    let mut line = Line::new(wanted);
    let started = Instant::now();
    tokio::pin!(work);
    let mut tick = tokio::time::interval(REDRAW);
    loop {
        tokio::select! {
            done = &mut work => return done,
            _ = tick.tick() => line.draw(
                started,
                &format!("{what} · {:.1} s", started.elapsed().as_secs_f64()),
            ),
        }
    }
}
