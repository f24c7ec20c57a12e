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
        let bar = bar(filled);
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "\r[{bar}] {done}/{} cases, {:.1}s",
            self.total,
            self.started.elapsed().as_secs_f64()
        );
        let _ = err.flush();
    }

    /// Erases the bar (before a message, and at the end).
    pub(crate) fn clear(&mut self) {
        if self.last_draw.take().is_some() {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.clear();
    }
}
