//! The queue of a run, shared by the workers' request streams (polled on the connections' tasks)
//! and the loop that reads replies: which case goes next, who holds it, and what is done.

use std::collections::VecDeque;
use std::pin::pin;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use futures::stream::{self, Stream};
use tokio::sync::Notify;

use crate::endpoints::Endpoint;

/// No worker holds the case.
const NOBODY: usize = usize::MAX;

/// The queue and the wake-up of request streams waiting for cases.
#[derive(Debug)]
pub(super) struct Dispatch {
    state: Mutex<Queue>,
    /// Wakes request streams waiting for cases (a case was re-queued, or the run is over).
    wake: Notify,
}

#[derive(Debug)]
struct Queue {
    /// Indices into the request list, to send next (re-sent ones at the front).
    pending: VecDeque<usize>,
    /// Per request: the worker that has sent it and not yet answered it, or [`NOBODY`].
    owner: Vec<usize>,
    /// Per request: answered.
    done: Vec<bool>,
    /// Per worker: still taking cases.
    live: Vec<bool>,
    /// Requests not yet answered.
    remaining: usize,
}

/// What became of a reply handed to [`Dispatch::answered`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Answered {
    /// The first answer to its request: keep it.
    First,
    /// The first answer, and the last request of the run: every request stream ends.
    Last,
    /// Answered before (a case re-sent after a failure and answered twice): drop it.
    Again,
}

impl Dispatch {
    /// A queue of `requests` requests for `workers` workers.
    pub(super) fn new(requests: usize, workers: usize) -> Self {
        Self {
            state: Mutex::new(Queue {
                pending: (0..requests).collect(),
                owner: vec![NOBODY; requests],
                done: vec![false; requests],
                live: vec![true; workers],
                remaining: requests,
            }),
            wake: Notify::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Queue> {
        // The lock is never held across a panic that matters: recover the data.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Adds a worker; returns its number.
    pub(super) fn add_worker(&self) -> usize {
        let mut queue = self.lock();
        queue.live.push(true);
        queue.live.len() - 1
    }

    /// Whether `worker` still takes cases.
    pub(super) fn is_live(&self, worker: usize) -> bool {
        self.lock().live[worker]
    }

    /// Records the answer to request `k`.
    pub(super) fn answered(&self, k: usize) -> Answered {
        let mut queue = self.lock();
        if queue.done[k] {
            return Answered::Again;
        }
        queue.done[k] = true;
        queue.owner[k] = NOBODY;
        queue.remaining -= 1;
        if queue.remaining > 0 {
            return Answered::First;
        }
        drop(queue);
        // Ends every request stream: the run is over.
        self.wake.notify_waiters();
        Answered::Last
    }

    /// The next request for `worker`: `None` when it should stop, `Some(None)` when there is
    /// nothing to send yet.
    fn take(&self, worker: usize) -> Option<Option<usize>> {
        let mut queue = self.lock();
        if !queue.live[worker] || queue.remaining == 0 {
            return None;
        }
        while let Some(k) = queue.pending.pop_front() {
            if !queue.done[k] {
                queue.owner[k] = worker;
                return Some(Some(k));
            }
        }
        Some(None)
    }

    /// Stops giving cases to `worker` and puts the cases it had not answered back at the front of
    /// the queue for the others; says so on stderr when there are other servers.
    pub(super) fn give_up(
        &self,
        endpoints: &[Endpoint],
        worker: usize,
        why: &dyn std::fmt::Display,
    ) {
        let mut queue = self.lock();
        queue.live[worker] = false;
        let taken: Vec<usize> = (0..queue.owner.len())
            .filter(|&k| queue.owner[k] == worker && !queue.done[k])
            .collect();
        for &k in taken.iter().rev() {
            queue.owner[k] = NOBODY;
            queue.pending.push_front(k);
        }
        let others = queue.live.iter().any(|&live| live);
        let remaining = queue.remaining;
        drop(queue);
        self.wake.notify_waiters();
        if remaining > 0 && endpoints.len() > 1 {
            let url = endpoints.get(worker).map_or("?", |e| e.url.as_str());
            if others {
                eprintln!(
                    "solver-client: {url}: {why}; sending its {} unanswered case(s) to the other servers",
                    taken.len()
                );
            } else {
                eprintln!("solver-client: {url}: {why}; no server left");
            }
        }
    }
}

/// The request stream of worker `worker`: takes cases from the queue until the run is over or the
/// worker is given up. HTTP/2 flow control and the server's window decide how fast it is polled,
/// so a fast server takes more cases.
pub(super) fn requests<R: Clone + Send + Sync + 'static>(
    dispatch: Arc<Dispatch>,
    worker: usize,
    list: Arc<[R]>,
) -> impl Stream<Item = R> + Send + 'static {
    stream::unfold((dispatch, list), move |(dispatch, list)| async move {
        loop {
            // `None`: the run is over for this worker; `Some(None)`: wait for a case.
            let next = {
                let mut notified = pin!(dispatch.wake.notified());
                notified.as_mut().enable();
                let next = dispatch.take(worker).map(|k| k.map(|k| list[k].clone()));
                if matches!(next, Some(None)) {
                    notified.await;
                    continue;
                }
                next
            };
            return next.flatten().map(|request| (request, (dispatch, list)));
        }
    })
}
