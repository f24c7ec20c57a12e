//! The queue of a run, shared by the workers' request streams (polled on the connections' tasks)
//! and the loop that reads replies: which case goes next, who holds it, and which are still
//! unanswered.
//!
//! Cases join the queue as they are read ([`Dispatch::add`]) and leave it once answered, so it
//! holds only the cases in flight: the run's window bounds it, not the input. A request stream
//! waits when the queue is empty and ends only once the input is over ([`Dispatch::close`]) and
//! every case is answered.

use std::collections::VecDeque;
use std::pin::pin;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use futures::stream::{self, Stream};
use solver_proto::v2 as pb;
use tokio::sync::Notify;

use crate::endpoints::Endpoint;

/// No worker holds the case.
const NOBODY: usize = usize::MAX;

/// The queue and the wake-up of request streams waiting for cases.
#[derive(Debug)]
pub(super) struct Dispatch {
    state: Mutex<Queue>,
    /// Wakes request streams waiting for cases (a case was added or re-queued, or the run is
    /// over).
    wake: Notify,
}

#[derive(Debug)]
struct Queue {
    /// Cases to send next, by index (re-sent ones at the front). May name cases answered since
    /// they were queued again: those are skipped.
    pending: VecDeque<usize>,
    /// The cases not yet answered, by index: the request, and the worker that has sent it (or
    /// [`NOBODY`]).
    unanswered: Unanswered,
    /// Per worker: still taking cases.
    live: Vec<bool>,
    /// No case will be added any more.
    closed: bool,
}

#[derive(Debug)]
struct Sent {
    request: pb::SolveRequest,
    owner: usize,
}

/// The cases not yet answered, by index. Indices come in increasing order and are answered
/// roughly in that order, so a window from the oldest unanswered one does (rather than a hash
/// map, which cost a tenth of a run's time).
#[derive(Debug, Default)]
struct Unanswered {
    /// Cases from index `base` on: `Some` while unanswered (`None` once answered, or never
    /// sent); the first is always `Some`.
    window: VecDeque<Option<Sent>>,
    base: usize,
    count: usize,
}

impl Unanswered {
    fn is_empty(&self) -> bool {
        self.count == 0
    }

    fn insert(&mut self, k: usize, sent: Sent) {
        if self.window.is_empty() {
            self.base = k;
        }
        // Indices only grow; those skipped are cases that were never sent.
        while self.base + self.window.len() < k {
            self.window.push_back(None);
        }
        if let Some(slot) = k
            .checked_sub(self.base)
            .and_then(|i| self.window.get_mut(i))
        {
            if slot.replace(sent).is_none() {
                self.count += 1;
            }
        } else {
            self.window.push_back(Some(sent));
            self.count += 1;
        }
    }

    fn get_mut(&mut self, k: usize) -> Option<&mut Sent> {
        self.window.get_mut(k.checked_sub(self.base)?)?.as_mut()
    }

    fn remove(&mut self, k: usize) -> Option<Sent> {
        let sent = self.window.get_mut(k.checked_sub(self.base)?)?.take()?;
        self.count -= 1;
        while matches!(self.window.front(), Some(None)) {
            self.window.pop_front();
            self.base += 1;
        }
        Some(sent)
    }

    fn iter_mut(&mut self) -> impl Iterator<Item = (usize, &mut Sent)> {
        let base = self.base;
        self.window
            .iter_mut()
            .enumerate()
            .filter_map(move |(i, slot)| Some((base + i, slot.as_mut()?)))
    }
}

/// What became of a reply handed to [`Dispatch::answered`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Answered {
    /// The first answer to its case: keep it.
    First,
    /// The first answer, and the last case of the run: every request stream ends.
    Last,
    /// Answered before (a case re-sent after a failure and answered twice), or never sent: drop
    /// it.
    Again,
}

impl Dispatch {
    /// An empty queue for `workers` workers.
    pub(super) fn new(workers: usize) -> Self {
        Self {
            state: Mutex::new(Queue {
                pending: VecDeque::new(),
                unanswered: Unanswered::default(),
                live: vec![true; workers],
                closed: false,
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

    /// Queues cases with their requests (in increasing order of index), and wakes the request
    /// streams once for all of them.
    pub(super) fn add(&self, cases: impl IntoIterator<Item = (usize, pb::SolveRequest)>) {
        let mut queue = self.lock();
        for (k, request) in cases {
            queue.unanswered.insert(
                k,
                Sent {
                    request,
                    owner: NOBODY,
                },
            );
            queue.pending.push_back(k);
        }
        drop(queue);
        self.wake.notify_waiters();
    }

    /// No case will be added any more: once every case is answered, the request streams end.
    pub(super) fn close(&self) {
        let mut queue = self.lock();
        queue.closed = true;
        let over = queue.unanswered.is_empty();
        drop(queue);
        if over {
            self.wake.notify_waiters();
        }
    }

    /// Records the answer to case `k`.
    pub(super) fn answered(&self, k: usize) -> Answered {
        let mut queue = self.lock();
        if queue.unanswered.remove(k).is_none() {
            return Answered::Again;
        }
        if !queue.closed || !queue.unanswered.is_empty() {
            return Answered::First;
        }
        drop(queue);
        // Ends every request stream: the run is over.
        self.wake.notify_waiters();
        Answered::Last
    }

    /// Drops case `k` unanswered (no server is left to answer it).
    pub(super) fn forget(&self, k: usize) {
        let mut queue = self.lock();
        let over =
            queue.unanswered.remove(k).is_some() && queue.closed && queue.unanswered.is_empty();
        drop(queue);
        if over {
            self.wake.notify_waiters();
        }
    }

    /// The next request for `worker`: `None` when it should stop, `Some(None)` when there is
    /// nothing to send yet.
    fn take(&self, worker: usize) -> Option<Option<pb::SolveRequest>> {
        let mut queue = self.lock();
        if !queue.live[worker] || queue.closed && queue.unanswered.is_empty() {
            return None;
        }
        while let Some(k) = queue.pending.pop_front() {
            if let Some(sent) = queue.unanswered.get_mut(k) {
                sent.owner = worker;
                return Some(Some(sent.request.clone()));
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
        let mut taken: Vec<usize> = queue
            .unanswered
            .iter_mut()
            .filter(|(_, sent)| sent.owner == worker)
            .map(|(k, sent)| {
                sent.owner = NOBODY;
                k
            })
            .collect();
        taken.sort_unstable();
        for &k in taken.iter().rev() {
            queue.pending.push_front(k);
        }
        let others = queue.live.iter().any(|&live| live);
        // Cases still to come count as unanswered too.
        let remaining = !queue.unanswered.is_empty() || !queue.closed;
        drop(queue);
        self.wake.notify_waiters();
        if remaining && endpoints.len() > 1 {
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
pub(super) fn requests(
    dispatch: Arc<Dispatch>,
    worker: usize,
) -> impl Stream<Item = pb::SolveRequest> + Send + 'static {
    stream::unfold(dispatch, move |dispatch| async move {
        loop {
            // `None`: the run is over for this worker; `Some(None)`: wait for a case.
            let next = {
                let mut notified = pin!(dispatch.wake.notified());
                notified.as_mut().enable();
                let next = dispatch.take(worker);
                if matches!(next, Some(None)) {
                    notified.await;
                    continue;
                }
                next
            };
            return next.flatten().map(|request| (request, dispatch));
        }
    })
}
