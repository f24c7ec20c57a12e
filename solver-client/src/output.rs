//! Standard output for answers: one locked, block-buffered writer, flushed at the end.
//!
//! stdout carries nothing but answers; diagnostics go to stderr. Buffering in blocks (not lines)
//! is what makes 100,000 answers cheap. While the run waits for the service, [`Output::idle`]
//! flushes at most a few times a second so that slow runs still show their answers as they come.

use std::io::{self, BufWriter, StdoutLock, Write};
use std::time::{Duration, Instant};

/// How often an idle run pushes buffered answers out.
const IDLE_FLUSH: Duration = Duration::from_millis(200);

/// The answer writer.
#[derive(Debug)]
pub(crate) struct Output {
    inner: BufWriter<StdoutLock<'static>>,
    /// Cases written so far (formats with separators need to know the first).
    written: usize,
    last_flush: Instant,
}

impl Output {
    /// Locks stdout for the rest of the process.
    pub(crate) fn stdout() -> Self {
        Self {
            inner: BufWriter::with_capacity(64 * 1024, io::stdout().lock()),
            written: 0,
            last_flush: Instant::now(),
        }
    }

    /// Cases written so far.
    pub(crate) fn written(&self) -> usize {
        self.written
    }

    /// Marks one more case as written.
    pub(crate) fn case_done(&mut self) {
        self.written += 1;
    }

    /// Called when the run is about to wait: flushes if the last flush is a while ago.
    pub(crate) fn idle(&mut self) -> io::Result<()> {
        if self.last_flush.elapsed() >= IDLE_FLUSH {
            self.flush()?;
        }
        Ok(())
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.inner.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.last_flush = Instant::now();
        self.inner.flush()
    }
}

/// `s` after a count other than one.
pub(crate) fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
