//! One run: every case of an input over `solver.v2` `SolveStream`s, pipelined, and the answers
//! handed on in input order, each exactly once.
//!
//! A run takes its cases from a stream, as they are read, and holds at most a window of them at
//! once (read, and not yet handed on): the input is never all in memory, whatever its size. Its
//! queue of cases ([`dispatch`]) feeds one worker stream per server endpoint ([`worker`]). Each
//! worker's request stream takes the next case from the shared queue whenever HTTP/2 flow control
//! and the server's in-flight window let it, so fast servers take more cases. Replies come back in
//! completion order, matched by `id` (the case's index), are checked against their query
//! ([`crate::wire`]), parked with their case, and released to the [`Sink`] as soon as every
//! earlier case is done: output is written as it becomes ready, never held back to the end. When
//! the window is full (a slow case holds up the ones after it), no more cases are read until it
//! is answered, which pushes back on the reader.
//!
//! When a stream fails (its server died, or ended the stream early), the cases it had taken and
//! not answered go back to the front of the queue for the other workers. A case answered twice
//! (once by a dying server, once again elsewhere) is handed on once. Only when every worker has
//! failed do the cases still unanswered get that failure as their error. Cases that could not be
//! read are released at their place in the order with their error. The worker streams are opened
//! when the first case that can be sent arrives (an input of bad cases alone opens none).

mod dispatch;
mod refresh;
mod worker;

use std::collections::VecDeque;
use std::io;
use std::sync::Arc;

use futures::FutureExt as _;
use futures::stream::{self, BoxStream, SelectAll, Stream, StreamExt as _};

use self::dispatch::{Answered, Dispatch};
pub(crate) use self::refresh::Refresh;
use self::refresh::tick;
use self::worker::{Event, open};
use crate::case::Case;
use crate::endpoints::Endpoint;
use crate::failure::{CaseError, Unanswered};
use crate::family::Answer;
use crate::sink::Sink;
use crate::wire;

/// How long a finished run waits for the servers to close their reply streams.
const CLOSE_GRACE: std::time::Duration = std::time::Duration::from_secs(1);

/// How often a waiting run wakes to let the sink flush: the sink flushes at most a few times a
/// second, so an answer handed on just after a flush would otherwise wait for the next event,
/// which may be the next line of input typed or piped in much later.
const IDLE_TICK: std::time::Duration = std::time::Duration::from_millis(200);

/// The most cases a run holds at once by default. Enough to keep several servers busy (each
/// takes a few hundred cases into its window, and HTTP/2 holds a thousand or so more on the way)
/// while one slow case holds up the output; small enough to be a few megabytes.
pub(crate) const WINDOW: usize = 16_384;

/// How a run went.
#[derive(Debug, Clone)]
pub(crate) struct Outcome {
    /// Why cases were left unanswered, when the reason is that the service could not be reached
    /// or refused us ([`Unanswered::unreachable`]), for the exit code.
    pub(crate) unreachable: Option<Unanswered>,
    /// The most cases held at once (read, not yet handed to the sink): at most the window.
    #[cfg(test)]
    pub(crate) most_held: usize,
}

/// Runs every case of `cases` on `endpoints` and hands each case, in input order, exactly once,
/// to `sink`. Returns why cases were left unanswered when the reason is that the service could
/// not be reached or refused us ([`Unanswered::unreachable`]), for the exit code.
///
/// # Errors
/// Only what `sink` returns (writing the output failed); every other failure is a case's error.
pub(crate) async fn run(
    endpoints: &[Endpoint],
    cases: Arc<[Case]>,
    sink: &mut dyn Sink,
    refresh: Option<&Refresh>,
) -> io::Result<Option<Unanswered>> {
    let cases = stream::iter((0..cases.len()).map(|i| cases[i].clone()));
    let outcome = run_stream(endpoints, cases, sink, refresh, WINDOW).await?;
    Ok(outcome.unreachable)
}

/// A case read and not yet handed on: its answer once it has one.
#[derive(Debug)]
struct Held {
    case: Case,
    answer: Option<Result<Answer, CaseError>>,
}

/// What the run loop waited for.
enum Step {
    /// The next case, or the end of the input.
    Case(Option<Case>),
    /// A worker's reply, failure or end; `None` when no worker is left.
    Event(Option<Event>),
    /// Time to look for new servers.
    Refresh,
    /// Time to let the sink flush.
    Idle,
}

/// Runs the cases of `cases` as they come, as [`run`] does, holding at most `window` of them at
/// once: `cases` is not polled while the window is full.
///
/// # Errors
/// Only what `sink` returns (writing the output failed); every other failure is a case's error.
pub(crate) async fn run_stream(
    endpoints: &[Endpoint],
    mut cases: impl Stream<Item = Case> + Unpin,
    sink: &mut dyn Sink,
    refresh: Option<&Refresh>,
    window: usize,
) -> io::Result<Outcome> {
    let window = window.max(1);
    let mut unreachable = None;
    let mut endpoints = endpoints.to_vec();
    let mut refresh_timer = refresh.map(Refresh::timer);
    let dispatch = Arc::new(Dispatch::new(endpoints.len()));
    // Cases read and not yet handed on, in input order: `held[0]` is case index `first` (the id
    // of its request).
    let mut held: VecDeque<Held> = VecDeque::new();
    let mut first = 0;
    let mut most_held = 0;
    let mut read_all = false;
    let mut opened = false;
    let mut failure: Option<Unanswered> = None;
    let mut events: SelectAll<BoxStream<'static, Event>> = SelectAll::new();
    let mut idle_timer = tokio::time::interval(IDLE_TICK);
    idle_timer.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);

    loop {
        // Release every case whose turn has come.
        while let Some(front) = held.front_mut() {
            match (&front.case.query, front.answer.take()) {
                (Err(error), _) => sink.case(&front.case, Err(&CaseError::Read(error.clone())))?,
                (Ok(_), Some(answer)) => sink.case(&front.case, answer.as_ref())?,
                (Ok(_), None) if events.is_empty() => {
                    let why = failure.clone().unwrap_or(Unanswered::NoServer);
                    if why.unreachable() && unreachable.is_none() {
                        unreachable = Some(why.clone());
                    }
                    dispatch.forget(first);
                    sink.case(&front.case, Err(&CaseError::Unanswered(why)))?;
                }
                (Ok(_), None) => break,
            }
            held.pop_front();
            first += 1;
        }
        if read_all && held.is_empty() {
            // Every request stream has ended (or ends now); let the servers end their replies
            // too, so that no stream is cut off when the caller drops the connection.
            let _ = tokio::time::timeout(CLOSE_GRACE, events.for_each(|_| async {})).await;
            return Ok(Outcome {
                unreachable,
                #[cfg(test)]
                most_held,
            });
        }
        sink.idle()?;
        let reading = !read_all && held.len() < window;
        let step = tokio::select! {
            case = cases.next(), if reading => Step::Case(case),
            event = events.next(), if !events.is_empty() => Step::Event(event),
            () = tick(refresh_timer.as_mut()), if opened => Step::Refresh,
            _ = idle_timer.tick() => Step::Idle,
        };
        match step {
            Step::Case(mut next) => {
                // Take every case already read (up to the window) at once: one turn of this
                // loop and one wake-up of the request streams for many cases, rather than each.
                let mut requests = Vec::new();
                loop {
                    let Some(case) = next else {
                        read_all = true;
                        break;
                    };
                    let index = first + held.len();
                    if let Ok(query) = &case.query {
                        requests.push((index, wire::request(index, query)));
                    }
                    held.push_back(Held { case, answer: None });
                    if held.len() >= window {
                        break;
                    }
                    match cases.next().now_or_never() {
                        Some(case) => next = case,
                        None => break,
                    }
                }
                most_held = most_held.max(held.len());
                if !requests.is_empty() {
                    dispatch.add(requests);
                    if !opened {
                        opened = true;
                        failure = open_all(&endpoints, &dispatch, &mut events).await;
                    }
                }
                if read_all {
                    dispatch.close();
                }
            }
            Step::Refresh => {
                if let Some(refresh) = refresh {
                    events.extend(refresh.join(&mut endpoints, &dispatch).await);
                }
            }
            // Every worker is gone: the loop above fails the rest. Or the sink may flush.
            Step::Event(None) | Step::Idle => {}
            Step::Event(Some((worker, event))) => match event {
                Some(Ok(response)) => {
                    let id = response.id.parse::<usize>().ok();
                    let found = id.and_then(|i| {
                        let query = held.get(i.checked_sub(first)?)?.case.query.as_ref().ok()?;
                        Some((i, query))
                    });
                    let Some((i, query)) = found else {
                        // A case handed on already was sent and answered: a second answer.
                        if id.is_none_or(|i| i >= first) {
                            eprintln!(
                                "solver-client: ignoring a reply for case id {:?}, which was never sent",
                                response.id
                            );
                        }
                        continue;
                    };
                    if dispatch.answered(i) == Answered::Again {
                        continue;
                    }
                    let answer = wire::answer(query, response).map_err(CaseError::Reply);
                    held[i - first].answer = Some(answer);
                }
                // A failed stream also ends: give each worker up once.
                Some(Err(_)) | None if !dispatch.is_live(worker) => {}
                Some(Err(status)) => {
                    let why = Unanswered::StreamFailed(status);
                    dispatch.give_up(&endpoints, worker, &why);
                    failure = Some(why);
                }
                None => {
                    let why = Unanswered::EndedEarly;
                    dispatch.give_up(&endpoints, worker, &why);
                    failure = Some(why);
                }
            },
        }
    }
}

/// Opens a worker stream on every endpoint; returns why the last one that could not be opened
/// was refused.
async fn open_all(
    endpoints: &[Endpoint],
    dispatch: &Arc<Dispatch>,
    events: &mut SelectAll<BoxStream<'static, Event>>,
) -> Option<Unanswered> {
    let opened = futures::future::join_all(
        endpoints
            .iter()
            .enumerate()
            .map(|(w, e)| open(e, w, dispatch)),
    )
    .await;
    let mut failure = None;
    for (worker, opened) in opened.into_iter().enumerate() {
        match opened {
            Ok(stream) => events.push(stream),
            Err(status) => {
                let why = Unanswered::Refused {
                    url: endpoints[worker].url.clone(),
                    status,
                };
                dispatch.give_up(endpoints, worker, &why);
                failure = Some(why);
            }
        }
    }
    failure
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[derive(Default)]
    struct Count {
        answered: usize,
        failed: usize,
    }

    impl Sink for Count {
        fn case(&mut self, _case: &Case, answer: Result<&Answer, &CaseError>) -> io::Result<()> {
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

    /// A run that starts on one server takes on a second one when re-resolution finds it.
    #[test]
    fn servers_found_by_re_resolution_join_the_run() {
        const CASES: usize = 20_000;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let servers = [
            crate::server::Server::start(),
            crate::server::Server::start(),
        ];
        let (first, second) = (servers[0].url(), servers[1].url());
        let (cases, kind) = crate::family::quick_cases(CASES);
        let cases: Arc<[Case]> = cases.into();
        let address = |url: String| crate::endpoints::Address {
            url,
            host: "127.0.0.1".to_owned(),
        };
        let first = address(first);
        let both = vec![first.clone(), address(second)];
        let link = Arc::new(crate::link::Link::default());
        let refresh = Refresh {
            every: Duration::from_millis(20),
            resolve: Box::new(move || {
                let urls = both.clone();
                Box::pin(async move { Ok(urls) })
            }),
            link: Arc::clone(&link),
        };
        let mut count = Count::default();
        runtime.block_on(async {
            let endpoints = crate::endpoints::connect(&[first], &link).await.unwrap();
            run(&endpoints, cases, &mut count, Some(&refresh))
                .await
                .unwrap();
        });
        assert_eq!((count.answered, count.failed), (CASES, 0));
        let joined = servers[1].cases_answered(kind);
        assert!(joined > 0 && joined < CASES as u64, "{joined}");
    }
}
