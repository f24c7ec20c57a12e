//! One run: every case of an input over bidirectional streams, pipelined, and the answers
//! handed on in input order, each exactly once.
//!
//! A run is a queue of cases and one worker stream per server endpoint. Each worker's request
//! stream takes the next case from the shared queue whenever HTTP/2 flow control and the server's
//! in-flight window let it, so fast servers take more cases. Replies come back in completion
//! order, are checked against their query ([`crate::wire`]), parked in a slot per case, and
//! released to the [`Sink`] as soon as every earlier case is done: output is written as it
//! becomes ready, never held back to the end.
//!
//! When a stream fails (its server died, or ended the stream early), the cases it had taken and
//! not answered go back to the front of the queue for the other workers. A case answered twice
//! (once by a dying server, once again elsewhere) is handed on once. Only when every worker has
//! failed do the cases still unanswered get that failure as their error. Cases that could not be
//! read are released at their place in the order with their error.

use std::collections::VecDeque;
use std::io;
use std::pin::pin;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use futures::future::BoxFuture;
use futures::stream::{self, BoxStream, SelectAll, Stream, StreamExt as _};
use solver_server::pb;
use solver_server::pb::solver_client::SolverClient;
use tokio::sync::Notify;
use tonic::transport::Channel;

use crate::case::{Answer, Case, Query};
use crate::judge::Service;
use crate::wire;

/// Largest message accepted from the service (a reply is a few hundred bytes).
const MAX_MESSAGE_BYTES: usize = 1 << 20;

/// No worker holds the case.
const NOBODY: usize = usize::MAX;

/// Where the answers of a run go, in input order.
pub(crate) trait Sink {
    /// Case `case` is done: its checked answer, or what went wrong with it (its text could not be
    /// read, the service could not answer, or the answer failed the checks).
    fn case(&mut self, case: &Case, answer: Result<&Answer, &str>) -> io::Result<()>;

    /// The run is about to wait for the service.
    fn idle(&mut self) -> io::Result<()>;
}

/// A connected server endpoint.
#[derive(Debug, Clone)]
pub(crate) struct Endpoint {
    /// Its URL, for messages.
    pub(crate) url: String,
    /// The connection.
    pub(crate) channel: Channel,
}

/// The queue of a run, shared by the request streams (polled on the connections' tasks) and the
/// loop that reads replies.
#[derive(Debug)]
struct Dispatch {
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

impl Dispatch {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        // The lock is never held across a panic that matters: recover the data.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The request messages of a run, one per readable case, with the case index as id.
enum Requests {
    Sliding(Arc<[pb::SlidingRequest]>),
    Solitaire(Arc<[pb::SolitaireRequest]>),
}

/// A reply from any worker.
enum Reply {
    Sliding(pb::SlidingReply),
    Solitaire(pb::SolitaireReply),
}

/// How long a finished run waits for the servers to close their reply streams.
const CLOSE_GRACE: std::time::Duration = std::time::Duration::from_secs(1);

/// What a worker's reply stream yields: a reply, a failure, or its end.
type Event = (usize, Option<Result<Reply, tonic::Status>>);

/// The request stream of worker `worker`: takes cases from the queue until the run is over or the
/// worker is given up.
fn requests<R: Clone + Send + Sync + 'static>(
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
                let next = take(&mut dispatch.lock(), worker).map(|k| k.map(|k| list[k].clone()));
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

/// The next request for `worker`: `None` when it should stop, `Some(None)` when there is
/// nothing to send yet.
fn take(queue: &mut Queue, worker: usize) -> Option<Option<usize>> {
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

/// Opens worker `worker`'s stream on `endpoint`; its replies come out as [`Event`]s.
async fn open(
    endpoint: &Endpoint,
    service: Service,
    worker: usize,
    dispatch: &Arc<Dispatch>,
    list: &Requests,
) -> Result<BoxStream<'static, Event>, tonic::Status> {
    let mut client =
        SolverClient::new(endpoint.channel.clone()).max_decoding_message_size(MAX_MESSAGE_BYTES);
    let dispatch = Arc::clone(dispatch);
    let events = match list {
        Requests::Sliding(list) => {
            let requests = requests(dispatch, worker, Arc::clone(list));
            let replies = if service == Service::Fifteen {
                client.solve_fifteen(requests).await?
            } else {
                client.solve_eight(requests).await?
            };
            replies
                .into_inner()
                .map(move |r| (worker, Some(r.map(Reply::Sliding))))
                .boxed()
        }
        Requests::Solitaire(list) => {
            let requests = requests(dispatch, worker, Arc::clone(list));
            client
                .solve_solitaire(requests)
                .await?
                .into_inner()
                .map(move |r| (worker, Some(r.map(Reply::Solitaire))))
                .boxed()
        }
    };
    Ok(events
        .chain(stream::once(async move { (worker, None) }))
        .boxed())
}

/// Runs every case of `cases` through `service` on `endpoints` and hands each case, in input
/// order, exactly once, to `sink`.
///
/// # Errors
/// Only what `sink` returns (writing the output failed); every other failure is a case's error.
pub(crate) async fn run(
    endpoints: &[Endpoint],
    service: Service,
    cases: Arc<[Case]>,
    sink: &mut dyn Sink,
    refresh: Option<&Refresh>,
) -> io::Result<()> {
    let mut endpoints = endpoints.to_vec();
    let mut refresh_timer =
        refresh.map(|r| tokio::time::interval_at(tokio::time::Instant::now() + r.every, r.every));
    // Request k asks for case index[k]; its id is the case index.
    let (list, index) = build_requests(service, &cases);
    let dispatch = Arc::new(Dispatch {
        state: Mutex::new(Queue {
            pending: (0..index.len()).collect(),
            owner: vec![NOBODY; index.len()],
            done: vec![false; index.len()],
            live: vec![true; endpoints.len()],
            remaining: index.len(),
        }),
        wake: Notify::new(),
    });
    // Case index -> request index, for replies.
    let mut request_of = vec![usize::MAX; cases.len()];
    for (k, &i) in index.iter().enumerate() {
        request_of[i] = k;
    }

    let mut slots: Vec<Option<Result<Answer, String>>> = Vec::new();
    slots.resize_with(cases.len(), || None);
    for (i, case) in cases.iter().enumerate() {
        if case.query.is_ok() && request_of[i] == usize::MAX {
            slots[i] = Some(Err("this case is not for this service".to_owned()));
        }
    }
    let mut failure: Option<String> = None;
    let mut events: SelectAll<BoxStream<'static, Event>> = SelectAll::new();
    if !index.is_empty() {
        let opened = futures::future::join_all(
            endpoints
                .iter()
                .enumerate()
                .map(|(w, e)| open(e, service, w, &dispatch, &list)),
        )
        .await;
        for (worker, opened) in opened.into_iter().enumerate() {
            match opened {
                Ok(stream) => events.push(stream),
                Err(status) => {
                    let message = describe("the service refused the stream", &status);
                    give_up(&dispatch, &endpoints, worker, &message);
                    failure = Some(message);
                }
            }
        }
    }

    let mut next = 0;
    loop {
        // Release every case whose turn has come.
        while let Some(case) = cases.get(next) {
            match (&case.query, slots[next].take()) {
                (Err(error), _) => sink.case(case, Err(error))?,
                (Ok(_), Some(Ok(answer))) => sink.case(case, Ok(&answer))?,
                (Ok(_), Some(Err(error))) => sink.case(case, Err(&error))?,
                (Ok(_), None) if events.is_empty() => {
                    let error = failure.as_deref().unwrap_or("not answered: no server");
                    sink.case(case, Err(error))?;
                }
                (Ok(_), None) => break,
            }
            next += 1;
        }
        if next == cases.len() {
            // Every request stream has ended (or ends now); let the servers end their replies
            // too, so that no stream is cut off when the caller drops the connection.
            let _ = tokio::time::timeout(CLOSE_GRACE, events.for_each(|_| async {})).await;
            return Ok(());
        }
        sink.idle()?;
        let next_event = tokio::select! {
            event = events.next() => event,
            () = tick(refresh_timer.as_mut()) => {
                if let Some(refresh) = refresh {
                    let added = refresh.join(&mut endpoints, service, &dispatch, &list).await;
                    for stream in added {
                        events.push(stream);
                    }
                }
                continue;
            }
        };
        let Some((worker, event)) = next_event else {
            // Every worker is gone: the loop above fails the rest.
            continue;
        };
        match event {
            Some(Ok(reply)) => {
                let (id, answer) = match reply {
                    Reply::Sliding(r) => {
                        let id = r.id;
                        (
                            id,
                            query_of(&cases, id).and_then(|q| wire::sliding_answer(q, r)),
                        )
                    }
                    Reply::Solitaire(r) => {
                        let id = r.id;
                        (
                            id,
                            query_of(&cases, id).and_then(|q| wire::solitaire_answer(q, r)),
                        )
                    }
                };
                let Some(i) = usize::try_from(id).ok().filter(|&i| i < cases.len()) else {
                    eprintln!("solver-client: ignoring a reply for unknown case id {id}");
                    continue;
                };
                let k = request_of[i];
                let mut queue = dispatch.lock();
                if k == usize::MAX || queue.done[k] {
                    // A case re-sent after a failure and answered twice: keep the first answer.
                    continue;
                }
                queue.done[k] = true;
                queue.owner[k] = NOBODY;
                queue.remaining -= 1;
                let finished = queue.remaining == 0;
                drop(queue);
                slots[i] = Some(answer);
                if finished {
                    // Ends every request stream: the run is over.
                    dispatch.wake.notify_waiters();
                }
            }
            // A failed stream also ends: give each worker up once.
            Some(Err(_)) | None if !dispatch.lock().live[worker] => {}
            Some(Err(status)) => {
                let message = describe("not answered: the stream failed", &status);
                give_up(&dispatch, &endpoints, worker, &message);
                failure = Some(message);
            }
            None => {
                let message = "not answered: the service ended the stream early".to_owned();
                give_up(&dispatch, &endpoints, worker, &message);
                failure = Some(message);
            }
        }
    }
}

/// Completes at the refresh timer's next tick; never without a timer.
async fn tick(timer: Option<&mut tokio::time::Interval>) {
    match timer {
        Some(timer) => {
            timer.tick().await;
        }
        None => std::future::pending().await,
    }
}

/// How a run finds servers that appear while it goes on: the `--server` names are resolved again
/// every `every`, and every new address gets a worker stream of its own (a Kubernetes headless
/// service gains addresses as replicas scale out).
pub(crate) struct Refresh {
    /// How often to resolve again.
    pub(crate) every: std::time::Duration,
    /// The current URLs of the servers.
    pub(crate) resolve:
        Box<dyn Fn() -> BoxFuture<'static, anyhow::Result<Vec<String>>> + Send + Sync>,
}

impl std::fmt::Debug for Refresh {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Refresh")
            .field("every", &self.every)
            .finish_non_exhaustive()
    }
}

impl Refresh {
    /// Connects to the addresses not seen before in this run and opens a worker on each.
    async fn join(
        &self,
        endpoints: &mut Vec<Endpoint>,
        service: Service,
        dispatch: &Arc<Dispatch>,
        list: &Requests,
    ) -> Vec<BoxStream<'static, Event>> {
        // A failed lookup now is no reason to stop a run that has servers: try again later.
        let Ok(urls) = (self.resolve)().await else {
            return Vec::new();
        };
        let fresh: Vec<String> = urls
            .into_iter()
            .filter(|url| !endpoints.iter().any(|e| &e.url == url))
            .collect();
        if fresh.is_empty() {
            return Vec::new();
        }
        let Ok(connected) = crate::endpoints::connect(&fresh).await else {
            return Vec::new();
        };
        let mut streams = Vec::new();
        for endpoint in connected {
            let worker = endpoints.len();
            dispatch.lock().live.push(true);
            endpoints.push(endpoint);
            match open(&endpoints[worker], service, worker, dispatch, list).await {
                Ok(stream) => streams.push(stream),
                Err(status) => {
                    let message = describe("the service refused the stream", &status);
                    give_up(dispatch, endpoints, worker, &message);
                }
            }
        }
        streams
    }
}

/// Stops giving cases to `worker` and puts the cases it had not answered back at the front of the
/// queue for the others.
fn give_up(dispatch: &Dispatch, endpoints: &[Endpoint], worker: usize, why: &str) {
    let mut queue = dispatch.lock();
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
    dispatch.wake.notify_waiters();
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

/// The requests for every readable case of `cases`, and the case index of each.
fn build_requests(service: Service, cases: &[Case]) -> (Requests, Vec<usize>) {
    let mut index = Vec::with_capacity(cases.len());
    let readable = cases
        .iter()
        .enumerate()
        .filter_map(|(i, case)| Some((i, case.query.as_ref().ok()?)));
    let list = match service {
        Service::Eight | Service::Fifteen => Requests::Sliding(
            readable
                .filter_map(|(i, query)| {
                    let request = wire::sliding_request(i as u64, query)?;
                    index.push(i);
                    Some(request)
                })
                .collect(),
        ),
        Service::Solitaire => Requests::Solitaire(
            readable
                .filter_map(|(i, query)| {
                    let request = wire::solitaire_request(i as u64, query)?;
                    index.push(i);
                    Some(request)
                })
                .collect(),
        ),
    };
    (list, index)
}

fn query_of(cases: &[Case], id: u64) -> Result<&Query, String> {
    usize::try_from(id)
        .ok()
        .and_then(|i| cases.get(i))
        .and_then(|c| c.query.as_ref().ok())
        .ok_or_else(|| format!("the service answered case id {id}, which was never sent"))
}

fn describe(what: &str, status: &tonic::Status) -> String {
    format!("{what}: {:?}: {}", status.code(), status.message())
}

#[cfg(test)]
#[path = "../tests/server.rs"]
mod server;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::Problem;
    use std::net::SocketAddr;
    use std::time::Duration;

    #[derive(Default)]
    struct Count {
        answered: usize,
        failed: usize,
    }

    impl Sink for Count {
        fn case(&mut self, _case: &Case, answer: Result<&Answer, &str>) -> io::Result<()> {
            match answer {
                Ok(_) => self.answered += 1,
                Err(_) => self.failed += 1,
            }
            Ok(())
        }

        fn idle(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// A server on `runtime`: its URL and its metrics address.
    fn server(runtime: &tokio::runtime::Runtime) -> (String, SocketAddr) {
        let (addr, metrics) = super::server::start_on(runtime);
        (format!("http://{addr}"), metrics)
    }

    /// A run that starts on one server takes on a second one when re-resolution finds it.
    #[test]
    fn servers_found_by_re_resolution_join_the_run() {
        const CASES: usize = 20_000;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let (first, _) = server(&runtime);
        let (second, second_metrics) = server(&runtime);
        let mut input = String::new();
        let mut seed = 7u64;
        for _ in 0..CASES {
            for _ in 0..2 {
                let mut squares: Vec<u64> = Vec::new();
                while squares.len() < 4 {
                    seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    let s = (seed >> 33) % 64;
                    if !squares.contains(&s) {
                        squares.push(s);
                    }
                }
                for s in squares {
                    input.push_str(&format!("{} {} ", s / 8 + 1, s % 8 + 1));
                }
                input.push('\n');
            }
        }
        let cases: Arc<[Case]> = Problem::Hdu1401
            .format()
            .parse(input.as_bytes())
            .cases
            .into();
        assert_eq!(cases.len(), CASES);
        let both = vec![first.clone(), second.clone()];
        let refresh = Refresh {
            every: Duration::from_millis(20),
            resolve: Box::new(move || {
                let urls = both.clone();
                Box::pin(async move { Ok(urls) })
            }),
        };
        let mut count = Count::default();
        runtime.block_on(async {
            let endpoints = crate::endpoints::connect(&[first]).await.unwrap();
            run(
                &endpoints,
                Service::Solitaire,
                cases,
                &mut count,
                Some(&refresh),
            )
            .await
            .unwrap();
        });
        assert_eq!((count.answered, count.failed), (CASES, 0));
        let joined = super::server::cases_answered(second_metrics, "solitaire");
        assert!(joined > 0 && joined < CASES as u64, "{joined}");
    }
}
