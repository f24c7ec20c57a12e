//! The progress bar of a load run.

use std::io::{IsTerminal as _, Write as _};
use std::time::{Duration, Instant};

use crate::progress::{self, Progress};

/// A progress bar on stderr (a terminal only): cases done out of all, or time out of the
/// duration.
#[derive(Debug)]
pub(super) enum Bar {
    Cases(Progress),
    Time {
        duration: Duration,
        enabled: bool,
        drawn: bool,
    },
}

impl Bar {
    pub(super) fn new(total: Option<u64>, duration: Duration, wanted: bool) -> Self {
        match total {
            Some(total) => Bar::Cases(Progress::new(
                usize::try_from(total).unwrap_or(usize::MAX),
                wanted,
            )),
            None => Bar::Time {
                duration,
                enabled: wanted && std::io::stderr().is_terminal(),
                drawn: false,
            },
        }
    }

    pub(super) fn update(&mut self, started: Instant, done: u64, errors: u64) {
        match self {
            Bar::Cases(progress) => progress.update(usize::try_from(done).unwrap_or(usize::MAX)),
            Bar::Time {
                duration,
                enabled,
                drawn,
            } => {
                if !*enabled {
                    return;
                }
                let elapsed = started.elapsed();
                let width = progress::WIDTH as f64;
                let filled =
                    ((elapsed.as_secs_f64() / duration.as_secs_f64()) * width).min(width) as usize;
                let bar = progress::bar(filled);
                let mut err = std::io::stderr().lock();
                let _ = write!(
                    err,
                    "\r[{bar}] {:.1}s/{:.0}s, {done} cases done, {errors} errors",
                    elapsed.as_secs_f64(),
                    duration.as_secs_f64()
                );
                let _ = err.flush();
                *drawn = true;
            }
        }
    }

    pub(super) fn clear(&mut self) {
        match self {
            Bar::Cases(progress) => progress.clear(),
            Bar::Time { drawn, .. } => {
                if std::mem::take(drawn) {
                    let mut err = std::io::stderr().lock();
                    let _ = write!(err, "\r\x1b[2K");
                    let _ = err.flush();
                }
            }
        }
    }
}
