//! A judge run as a pipeline: the input is read on a thread of its own, case by case, while the
//! cases already read are solved and printed, so that memory stays bounded whatever the size of
//! the input.
//!
//! The reader ([`Format::read`](super::Format::read) over a [`Source`]) hands each case to a
//! bounded channel as soon as it is read and blocks when the channel is full; the session takes
//! cases from the channel only while it holds fewer than its window. So at most the window, the
//! channel and the one case being read are in memory at once, and the source keeps a bounded
//! part of the input.

use std::io;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use anyhow::Context as _;
use futures::stream::{self, BoxStream, StreamExt as _};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;

use super::format::Item;
use super::printer::{Notes, Printer, Progress, Summary};
use super::problem::Problem;
use super::source::{Source, Usage};
use crate::case::Case;
use crate::embedded::Embedded;
use crate::failure::Unanswered;
use crate::link::Link;
use crate::{endpoints, session};

/// Cases read and waiting for the session to take them.
pub(crate) const CHANNEL: usize = 1024;

/// Cases handed to the session at once: one channel operation and at most one wake-up of either
/// thread per batch rather than per case (a third of the client's time went to handing cases
/// over one by one). A batch is also sent whenever the reader is about to wait for input, so
/// that cases read are never held back by input not yet written.
pub(crate) const BATCH: usize = 64;

/// What a judge run did.
#[derive(Debug)]
pub(crate) struct Answered {
    /// What was printed.
    pub(crate) summary: Summary,
    /// Why cases went unanswered, if the service could not be reached or refused us.
    pub(crate) unreachable: Option<Unanswered>,
}

/// Counts the cases alive between the reader and the sink, and the most at once (tests).
#[derive(Debug, Default)]
pub(crate) struct Gauge {
    alive: AtomicUsize,
    most: AtomicUsize,
}

impl Gauge {
    fn read(&self) {
        let alive = self.alive.fetch_add(1, Ordering::Relaxed) + 1;
        self.most.fetch_max(alive, Ordering::Relaxed);
    }

    /// A case has been handed on.
    #[cfg(test)]
    pub(crate) fn done(&self) {
        self.alive.fetch_sub(1, Ordering::Relaxed);
    }

    /// The most cases alive at once.
    #[cfg(test)]
    pub(crate) fn most(&self) -> usize {
        self.most.load(Ordering::Relaxed)
    }
}

/// The reading end of a judge run: the cases as they are read, and the thread reading them,
/// which ends with the source's read error (if any) and what the source used.
pub(crate) struct Reader {
    /// The cases, in input order.
    pub(crate) cases: BoxStream<'static, Case>,
    /// The thread.
    pub(crate) thread: std::thread::JoinHandle<io::Result<Usage>>,
}

impl std::fmt::Debug for Reader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reader").finish_non_exhaustive()
    }
}

/// Cases read and not sent yet, and where they go.
#[derive(Debug)]
struct Outbox {
    batch: Vec<Case>,
    size: usize,
    sender: mpsc::Sender<Vec<Case>>,
    /// The session still takes cases.
    open: bool,
}

impl Outbox {
    /// Sends the batch, waiting while the channel is full; whether the session still takes
    /// cases.
    fn send(&mut self) -> bool {
        if self.open && !self.batch.is_empty() {
            let batch = std::mem::replace(&mut self.batch, Vec::with_capacity(self.size));
            self.open = self.sender.blocking_send(batch).is_ok();
        }
        self.open
    }
}

/// Starts reading `input` as `problem`'s format on a thread: cases into a channel of about
/// `channel` cases, in batches of `batch`; problems outside any case to `notes`.
///
/// # Errors
/// The thread cannot be started.
pub(crate) fn start_reading(
    problem: Problem,
    input: Source,
    (channel, batch): (usize, usize),
    notes: Arc<Notes>,
    gauge: Option<Arc<Gauge>>,
) -> io::Result<Reader> {
    let batch = batch.max(1);
    let (sender, receiver) = mpsc::channel((channel / batch).max(1));
    let outbox = Arc::new(Mutex::new(Outbox {
        batch: Vec::with_capacity(batch),
        size: batch,
        sender,
        open: true,
    }));
    let lock = |outbox: &Mutex<Outbox>| {
        // Only this thread locks it: no panic can leave it poisoned for anyone else.
        let mut outbox = outbox.lock().unwrap_or_else(PoisonError::into_inner);
        outbox.send()
    };
    let thread = std::thread::Builder::new()
        .name("judge-input".to_owned())
        .spawn(move || {
            // Nothing read waits for input that may be long in coming.
            let before_waiting = Arc::clone(&outbox);
            input.before_reading(Box::new(move || {
                lock(&before_waiting);
            }));
            problem.format().read(&input, &mut |item| match item {
                Item::Case(case) => {
                    if let Some(gauge) = &gauge {
                        gauge.read();
                    }
                    let mut outbox = outbox.lock().unwrap_or_else(PoisonError::into_inner);
                    outbox.batch.push(case);
                    // The run has stopped (writing the output failed): stop reading.
                    if outbox.batch.len() < batch || outbox.send() {
                        ControlFlow::Continue(())
                    } else {
                        ControlFlow::Break(())
                    }
                }
                Item::Problem(line, problem) => {
                    notes.problem(line, problem);
                    ControlFlow::Continue(())
                }
            });
            lock(&outbox);
            // Before the channel closes: the printer learns of the last problems before the
            // session learns of the end of the cases.
            notes.read_all();
            drop(outbox);
            input.take_error().map_or_else(|| Ok(input.usage()), Err)
        })?;
    Ok(Reader {
        cases: ReceiverStream::new(receiver).flat_map(stream::iter).boxed(),
        thread,
    })
}

/// What a judge run needs besides its input.
#[derive(Debug)]
pub(crate) struct Service<'a> {
    /// `--server`, if given.
    pub(crate) server: Option<&'a str>,
    /// How to reach it.
    pub(crate) link: &'a Arc<Link>,
    /// The server in this process, without `--server`.
    pub(crate) embedded: Option<&'a Embedded>,
    /// How to find more servers while the run goes on.
    pub(crate) refresh: Option<session::Refresh>,
}

/// Answers every case of `input` in `problem`'s format on stdout, reading the input while the
/// answers are printed.
///
/// # Errors
/// The service cannot be reached (after the input's problems are reported, as they were when the
/// input was read first), writing the output failed, or reading the input did.
pub(crate) fn answer(
    problem: Problem,
    input: Source,
    runtime: &tokio::runtime::Runtime,
    service: Service<'_>,
    progress: bool,
) -> anyhow::Result<Answered> {
    let notes = Arc::new(Notes::default());
    let consumed = Arc::new(AtomicU64::new(0));
    input.report_progress(Arc::clone(&consumed));
    let progress = Progress {
        wanted: progress,
        consumed,
        size: input.size_hint(),
    };
    let mut printer = Printer::new(problem, Arc::clone(&notes), progress);
    let reader = start_reading(problem, input, (CHANNEL, BATCH), notes, None)
        .context("starting to read standard input")?;
    let Reader { mut cases, thread } = reader;
    let outcome = runtime.block_on(async {
        let endpoints = match endpoints::open(service.server, service.embedded, service.link).await
        {
            Ok(endpoints) => endpoints,
            Err(e) => {
                // Read on, only for the problems outside the cases.
                while futures::StreamExt::next(&mut cases).await.is_some() {}
                printer.catch_up();
                return Err(anyhow::Error::from(e));
            }
        };
        session::run_stream(
            &endpoints,
            cases,
            &mut printer,
            service.refresh.as_ref(),
            session::WINDOW,
        )
        .await
        .context("writing the answers")
    })?;
    // The session has taken every case, so the reader is done.
    match thread.join() {
        Ok(read) => {
            read.context("reading standard input")?;
        }
        Err(panic) => std::panic::resume_unwind(panic),
    }
    let summary = printer.finish().context("writing the answers")?;
    Ok(Answered {
        summary,
        unreachable: outcome.unreachable,
    })
}
