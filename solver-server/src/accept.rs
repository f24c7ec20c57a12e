//! Accepting connections without spinning when the process is out of file descriptors.
//!
//! tonic's accept loop (`serve_with_incoming`) logs an accept error at trace level and polls the
//! listener again at once, and so did the TLS handshaker ([`crate::tls::accept`]). At the file
//! descriptor limit `accept` fails with EMFILE while the connection stays in the backlog, so the
//! listener stays ready and the loop spun (0.92 of a core measured) without freeing anything,
//! while health checks timed out. [`backoff`] wraps the listener's stream: an error that
//! concerns one connection only (reset or aborted before it was accepted) is skipped at once;
//! any other (EMFILE, ENFILE, ENOBUFS, ENOMEM: the process or the system is out of something
//! that only time frees) makes it wait before the next accept, [`FIRST_DELAY`] at first,
//! doubling while the errors go on up to [`MOST_DELAY`] (short enough that a health check made
//! once descriptors are free again is accepted within its timeout), logged at WARN once per run
//! of errors. The errors are not passed on: nothing downstream would do more than log them.

use std::future::Future as _;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use futures::Stream;
use tokio::time::Sleep;

/// The first wait after an accept error.
const FIRST_DELAY: Duration = Duration::from_millis(5);
/// The longest wait between two accepts while they fail.
const MOST_DELAY: Duration = Duration::from_millis(200);

/// `incoming` with a pause after each accept error that is not about one connection alone.
pub(crate) fn backoff<S>(incoming: S) -> Backoff<S> {
    Backoff {
        inner: incoming,
        delay: FIRST_DELAY,
        sleep: None,
        errors: 0,
    }
}

/// See [`backoff`].
#[derive(Debug)]
pub(crate) struct Backoff<S> {
    inner: S,
    /// The next wait.
    delay: Duration,
    /// The wait under way.
    sleep: Option<Pin<Box<Sleep>>>,
    /// Accept errors since the last connection accepted.
    errors: u64,
}

/// Whether an accept error concerns only the connection being accepted (which is gone), so
/// that the next accept may well succeed at once.
fn concerns_one_connection(err: &io::Error) -> bool {
    matches!(
        err.kind(),
        io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
            | io::ErrorKind::ConnectionRefused
            | io::ErrorKind::Interrupted
            | io::ErrorKind::WouldBlock
    )
}

impl<S, T> Stream for Backoff<S>
where
    S: Stream<Item = io::Result<T>> + Unpin,
{
    type Item = io::Result<T>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        loop {
            if let Some(sleep) = &mut this.sleep {
                ready!(sleep.as_mut().poll(cx));
                this.sleep = None;
            }
            match ready!(Pin::new(&mut this.inner).poll_next(cx)) {
                Some(Ok(connection)) => {
                    if this.errors > 0 {
                        tracing::info!(errors = this.errors, "accepting connections again");
                    }
                    this.errors = 0;
                    this.delay = FIRST_DELAY;
                    return Poll::Ready(Some(Ok(connection)));
                }
                Some(Err(err)) if concerns_one_connection(&err) => {
                    tracing::debug!(cause = %err, "a connection was gone before it was accepted");
                }
                Some(Err(err)) => {
                    if this.errors == 0 {
                        tracing::warn!(cause = %err, "cannot accept connections: retrying, less often while it lasts");
                    }
                    this.errors += 1;
                    this.sleep = Some(Box::pin(tokio::time::sleep(this.delay)));
                    this.delay = (this.delay * 2).min(MOST_DELAY);
                }
                None => return Poll::Ready(None),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use futures::StreamExt as _;

    use super::*;

    /// EMFILE, "too many open files", on Linux.
    const EMFILE: i32 = 24;

    /// A listener that fails `failures` accepts with `error`, then accepts one connection, for
    /// ever; and how many accepts were tried.
    fn listener(
        failures: usize,
        error: impl Fn() -> io::Error + Send + 'static,
    ) -> (impl Stream<Item = io::Result<()>> + Unpin, Arc<AtomicUsize>) {
        let tries = Arc::new(AtomicUsize::new(0));
        let counted = Arc::clone(&tries);
        let stream = futures::stream::repeat_with(move || {
            let n = counted.fetch_add(1, Ordering::Relaxed);
            if n % (failures + 1) == failures {
                Ok(())
            } else {
                Err(error())
            }
        });
        (stream, tries)
    }

    // On tokio's paused clock, which moves on whenever every task waits: the count of tries is
    // the back-off's, not the machine's load.
    #[tokio::test(start_paused = true)]
    async fn out_of_descriptors_the_accepts_slow_down() {
        let (incoming, tries) = listener(usize::MAX - 1, || io::Error::from_raw_os_error(EMFILE));
        let mut incoming = backoff(incoming);
        // A second of failing accepts: after 5 + 10 + 20 + 40 + 80 + 160 ms, every 200 ms
        // (about 10 tries; without the pauses, millions).
        let waited = tokio::time::timeout(Duration::from_secs(1), incoming.next()).await;
        assert!(waited.is_err(), "no connection was to be accepted");
        let tries = tries.load(Ordering::Relaxed);
        assert!(
            (6..=11).contains(&tries),
            "{tries} accepts tried in a second"
        );
        assert_eq!(incoming.delay, MOST_DELAY);
    }

    #[tokio::test]
    async fn the_pause_starts_small_again_after_a_connection() {
        let (incoming, tries) = listener(3, || io::Error::from_raw_os_error(EMFILE));
        let mut incoming = backoff(incoming);
        incoming.next().await.unwrap().unwrap();
        assert_eq!(tries.load(Ordering::Relaxed), 4);
        assert_eq!((incoming.delay, incoming.errors), (FIRST_DELAY, 0));
    }

    #[tokio::test]
    async fn a_connection_gone_before_its_accept_costs_no_wait() {
        let (incoming, _) = listener(1_000, || io::ErrorKind::ConnectionAborted.into());
        let mut incoming = backoff(incoming);
        incoming.next().await.unwrap().unwrap();
        assert!(incoming.sleep.is_none());
        assert_eq!((incoming.delay, incoming.errors), (FIRST_DELAY, 0));
    }
}
