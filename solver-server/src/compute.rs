//! Bounded blocking execution: CPU-heavy work runs on tokio's blocking threads, never on the async
//! workers, and a semaphore per lane bounds how much runs at once.
//!
//! Two lanes, each sized to the worker count: `Search` for real searches (15-puzzle, Solitaire),
//! which may hold a thread for seconds, and `Lookup` for batches of 3×3 table look-ups, which take
//! microseconds each. Separate lanes keep a few hard 4×4 searches from starving every 3×3 stream.

use std::sync::Arc;

use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

/// Which lane a job runs in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lane {
    /// Searches that may run for seconds.
    Search,
    /// Short batches of table look-ups.
    Lookup,
}

/// Why a job produced no result.
#[derive(Debug, thiserror::Error)]
pub(crate) enum JobError {
    /// Cancelled while waiting for a slot; the work never started.
    #[error("cancelled before it started")]
    Cancelled,
    /// The work panicked.
    #[error("the solver panicked: {0}")]
    Panicked(String),
}

/// The bounded pool.
#[derive(Debug)]
pub(crate) struct Pool {
    search: Arc<Semaphore>,
    lookup: Arc<Semaphore>,
}

impl Pool {
    /// A pool running at most `workers` jobs per lane.
    pub(crate) fn new(workers: usize) -> Self {
        Self {
            search: Arc::new(Semaphore::new(workers)),
            lookup: Arc::new(Semaphore::new(workers)),
        }
    }

    /// The search lane's semaphore: its free permits are cores a search may borrow.
    pub(crate) fn idle_search_slots(&self) -> Arc<Semaphore> {
        Arc::clone(&self.search)
    }

    /// Runs `work` on a blocking thread once its lane has a free slot.
    ///
    /// Gives up with [`JobError::Cancelled`] if `cancel` fires first. Once started, the work
    /// holds its slot until it returns (even if the caller stops waiting), so the bound is exact:
    /// long work must poll its own stop flag.
    pub(crate) async fn run<T: Send + 'static>(
        &self,
        lane: Lane,
        cancel: &CancellationToken,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, JobError> {
        let semaphore = match lane {
            Lane::Search => &self.search,
            Lane::Lookup => &self.lookup,
        };
        let permit = tokio::select! {
            biased;
            () = cancel.cancelled() => return Err(JobError::Cancelled),
            permit = Arc::clone(semaphore).acquire_owned() => {
                permit.expect("the pool's semaphores are never closed")
            }
        };
        tokio::task::spawn_blocking(move || {
            let _slot = permit;
            work()
        })
        .await
        .map_err(|err| JobError::Panicked(err.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn bounds_concurrency() {
        let pool = Arc::new(Pool::new(2));
        let running = Arc::new(AtomicUsize::new(0));
        let peak = Arc::new(AtomicUsize::new(0));
        let token = CancellationToken::new();
        let jobs: Vec<_> = (0..8)
            .map(|_| {
                let (pool, running, peak, token) = (
                    Arc::clone(&pool),
                    Arc::clone(&running),
                    Arc::clone(&peak),
                    token.clone(),
                );
                tokio::spawn(async move {
                    pool.run(Lane::Search, &token, move || {
                        let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                        peak.fetch_max(now, Ordering::SeqCst);
                        std::thread::sleep(std::time::Duration::from_millis(20));
                        running.fetch_sub(1, Ordering::SeqCst);
                    })
                    .await
                })
            })
            .collect();
        for job in jobs {
            job.await.unwrap().unwrap();
        }
        assert_eq!(peak.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn cancelled_before_start() {
        let pool = Pool::new(0);
        let token = CancellationToken::new();
        token.cancel();
        let result = pool.run(Lane::Lookup, &token, || 1).await;
        assert!(matches!(result, Err(JobError::Cancelled)));
    }

    #[tokio::test]
    async fn panics_are_reported() {
        let pool = Pool::new(1);
        let result = pool
            .run(Lane::Search, &CancellationToken::new(), || -> u8 {
                panic!("boom")
            })
            .await;
        assert!(matches!(result, Err(JobError::Panicked(_))));
    }
}
