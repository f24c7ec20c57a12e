//! One run: every case of an input over `solver.v2` `SolveStream`s, pipelined, and the answers
//! handed on in input order, each exactly once.
//!
//! A run is a queue of cases ([`dispatch`]) and one worker stream per server endpoint
//! ([`worker`]). Each worker's request stream takes the next case from the shared queue whenever
//! HTTP/2 flow control and the server's in-flight window let it, so fast servers take more cases.
//! Replies come back in completion order, matched by `id` (the case's index), are checked against
//! their query ([`crate::wire`]), parked in a slot per case, and released to the [`Sink`] as soon
//! as every earlier case is done: output is written as it becomes ready, never held back to the
//! end.
//!
//! When a stream fails (its server died, or ended the stream early), the cases it had taken and
//! not answered go back to the front of the queue for the other workers. A case answered twice
//! (once by a dying server, once again elsewhere) is handed on once. Only when every worker has
//! failed do the cases still unanswered get that failure as their error. Cases that could not be
//! read are released at their place in the order with their error.

mod dispatch;
mod refresh;
mod worker;

use std::io;
use std::sync::Arc;

use futures::stream::{BoxStream, SelectAll, StreamExt as _};
use solver_proto::v2 as pb;

use self::dispatch::{Answered, Dispatch};
pub(crate) use self::refresh::Refresh;
use self::refresh::tick;
use self::worker::{Event, open};
use crate::case::{Answer, Case};
use crate::endpoints::Endpoint;
use crate::failure::{CaseError, Unanswered};
use crate::sink::Sink;
use crate::wire;

/// How long a finished run waits for the servers to close their reply streams.
const CLOSE_GRACE: std::time::Duration = std::time::Duration::from_secs(1);

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
    let mut unreachable = None;
    let mut endpoints = endpoints.to_vec();
    let mut refresh_timer = refresh.map(Refresh::timer);
    // Request k asks for case index[k]; its id is the case index.
    let (list, index): (Vec<pb::SolveRequest>, Vec<usize>) = cases
        .iter()
        .enumerate()
        .filter_map(|(i, case)| Some((wire::request(i, case.query.as_ref().ok()?), i)))
        .unzip();
    let list: Arc<[pb::SolveRequest]> = list.into();
    let dispatch = Arc::new(Dispatch::new(index.len(), endpoints.len()));
    // Case index -> request index, for replies.
    let mut request_of = vec![None; cases.len()];
    for (k, &i) in index.iter().enumerate() {
        request_of[i] = Some(k);
    }

    let mut slots: Vec<Option<Result<Answer, CaseError>>> = Vec::new();
    slots.resize_with(cases.len(), || None);
    let mut failure: Option<Unanswered> = None;
    let mut events: SelectAll<BoxStream<'static, Event>> = SelectAll::new();
    if !index.is_empty() {
        let opened = futures::future::join_all(
            endpoints
                .iter()
                .enumerate()
                .map(|(w, e)| open(e, w, &dispatch, &list)),
        )
        .await;
        for (worker, opened) in opened.into_iter().enumerate() {
            match opened {
                Ok(stream) => events.push(stream),
                Err(status) => {
                    let why = Unanswered::Refused {
                        url: endpoints[worker].url.clone(),
                        status,
                    };
                    dispatch.give_up(&endpoints, worker, &why);
                    failure = Some(why);
                }
            }
        }
    }

    let mut next = 0;
    loop {
        // Release every case whose turn has come.
        while let Some(case) = cases.get(next) {
            match (&case.query, slots[next].take()) {
                (Err(error), _) => sink.case(case, Err(&CaseError::Read(error.clone())))?,
                (Ok(_), Some(answer)) => sink.case(case, answer.as_ref())?,
                (Ok(_), None) if events.is_empty() => {
                    let why = failure.clone().unwrap_or(Unanswered::NoServer);
                    if why.unreachable() && unreachable.is_none() {
                        unreachable = Some(why.clone());
                    }
                    sink.case(case, Err(&CaseError::Unanswered(why)))?;
                }
                (Ok(_), None) => break,
            }
            next += 1;
        }
        if next == cases.len() {
            // Every request stream has ended (or ends now); let the servers end their replies
            // too, so that no stream is cut off when the caller drops the connection.
            let _ = tokio::time::timeout(CLOSE_GRACE, events.for_each(|_| async {})).await;
            return Ok(unreachable);
        }
        sink.idle()?;
        let next_event = tokio::select! {
            event = events.next() => event,
            () = tick(refresh_timer.as_mut()) => {
                if let Some(refresh) = refresh {
                    events.extend(refresh.join(&mut endpoints, &dispatch, &list).await);
                }
                continue;
            }
        };
        let Some((worker, event)) = next_event else {
            // Every worker is gone: the loop above fails the rest.
            continue;
        };
        match event {
            Some(Ok(response)) => {
                let case = response
                    .id
                    .parse::<usize>()
                    .ok()
                    .filter(|&i| i < cases.len());
                let found = case.and_then(|i| {
                    let query = cases[i].query.as_ref().ok()?;
                    Some((i, request_of[i]?, query))
                });
                let Some((i, k, query)) = found else {
                    eprintln!(
                        "solver-client: ignoring a reply for case id {:?}, which was never sent",
                        response.id
                    );
                    continue;
                };
                if dispatch.answered(k) == Answered::Again {
                    continue;
                }
                slots[i] = Some(wire::answer(query, response).map_err(CaseError::Reply));
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
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use solver_core::solitaire::{Position, Square};

    use super::*;
    use crate::case::{Pair, Query};
    use crate::random::Draws as _;

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

    /// `count` Solitaire cases between random positions.
    fn solitaire_cases(count: usize) -> Vec<Case> {
        let mut rng = crate::random::Lcg::new(7);
        let mut position = || {
            let squares: Vec<Square> = rng
                .distinct(4, 64)
                .into_iter()
                .map(|s| Square::new(s as u32 / 8 + 1, s as u32 % 8 + 1).unwrap())
                .collect();
            Position::new(&squares).unwrap()
        };
        (1..=count)
            .map(|number| Case {
                number,
                line: 2 * number - 1,
                query: Ok(Query::Solitaire(Pair {
                    start: position(),
                    end: position(),
                    max_moves: 8,
                })),
            })
            .collect()
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
        let cases: Arc<[Case]> = solitaire_cases(CASES).into();
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
        let joined = servers[1].cases_answered("solitaire");
        assert!(joined > 0 && joined < CASES as u64, "{joined}");
    }
}
