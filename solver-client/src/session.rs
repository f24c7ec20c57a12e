//! One run: every case of an input over one bidirectional stream, pipelined, and the answers
//! handed on in input order.
//!
//! Requests are produced lazily from the shared case list as HTTP/2 flow control and the server's
//! in-flight window allow; replies come back in completion order, are checked against their
//! query ([`crate::wire`]), parked in a slot per case, and released to the [`Sink`] as soon as
//! every earlier case is done. So output is written incrementally, never held back to the end.
//! Cases that could not be read are released at their place in the order with their error.

use std::io;
use std::sync::Arc;

use solver_server::pb;
use solver_server::pb::solver_client::SolverClient;
use tonic::Streaming;
use tonic::transport::Channel;

use crate::case::{Answer, Case};
use crate::judge::Service;
use crate::wire;

/// Largest message accepted from the service (a reply is a few hundred bytes).
const MAX_MESSAGE_BYTES: usize = 1 << 20;

/// Where the answers of a run go, in input order.
pub(crate) trait Sink {
    /// Case `case` is done: its checked answer, or what went wrong with it (its text could not be
    /// read, the service could not answer, or the answer failed the checks).
    fn case(&mut self, case: &Case, answer: Result<&Answer, &str>) -> io::Result<()>;

    /// The run is about to wait for the service.
    fn idle(&mut self) -> io::Result<()>;
}

/// The reply stream of one RPC.
enum Replies {
    Sliding(Streaming<pb::SlidingReply>),
    Solitaire(Streaming<pb::SolitaireReply>),
}

impl Replies {
    /// The next reply as `(id, answer)`, checked against `cases`; `Ok(None)` at the end.
    async fn next(
        &mut self,
        cases: &[Case],
    ) -> Result<Option<(u64, Result<Answer, String>)>, tonic::Status> {
        Ok(match self {
            Replies::Sliding(stream) => stream.message().await?.map(|reply| {
                let id = reply.id;
                (
                    id,
                    query_of(cases, id).and_then(|q| wire::sliding_answer(q, reply)),
                )
            }),
            Replies::Solitaire(stream) => stream.message().await?.map(|reply| {
                let id = reply.id;
                (
                    id,
                    query_of(cases, id).and_then(|q| wire::solitaire_answer(q, reply)),
                )
            }),
        })
    }
}

fn query_of(cases: &[Case], id: u64) -> Result<&crate::case::Query, String> {
    usize::try_from(id)
        .ok()
        .and_then(|i| cases.get(i))
        .and_then(|c| c.query.as_ref().ok())
        .ok_or_else(|| format!("the service answered case id {id}, which was never sent"))
}

/// Opens the stream for `service` and starts sending every readable case of `cases`, with its
/// index as the request id.
async fn open(
    channel: Channel,
    service: Service,
    cases: Arc<[Case]>,
) -> Result<Replies, tonic::Status> {
    let mut client = SolverClient::new(channel).max_decoding_message_size(MAX_MESSAGE_BYTES);
    let ids = 0..cases.len();
    Ok(match service {
        Service::Eight | Service::Fifteen => {
            let requests = futures::stream::iter(ids.filter_map(move |i| {
                let query = cases[i].query.as_ref().ok()?;
                wire::sliding_request(i as u64, query)
            }));
            let replies = if service == Service::Eight {
                client.solve_eight(requests).await?
            } else {
                client.solve_fifteen(requests).await?
            };
            Replies::Sliding(replies.into_inner())
        }
        Service::Solitaire => {
            let requests = futures::stream::iter(ids.filter_map(move |i| {
                let query = cases[i].query.as_ref().ok()?;
                wire::solitaire_request(i as u64, query)
            }));
            Replies::Solitaire(client.solve_solitaire(requests).await?.into_inner())
        }
    })
}

/// Runs every case of `cases` through `service` on `channel` and hands each case, in input
/// order, to `sink`.
///
/// A stream that fails (or ends early) does not lose anything already answered: the cases still
/// unanswered are handed on with that failure as their error.
///
/// # Errors
/// Only what `sink` returns (writing the output failed); every other failure is a case's error.
pub(crate) async fn run(
    channel: Channel,
    service: Service,
    cases: Arc<[Case]>,
    sink: &mut dyn Sink,
) -> io::Result<()> {
    let mut slots: Vec<Option<Result<Answer, String>>> = Vec::new();
    slots.resize_with(cases.len(), || None);
    let mut next = 0;
    let mut failure: Option<String> = None;
    let has_queries = cases.iter().any(|c| c.query.is_ok());
    let mut replies = if has_queries {
        match open(channel, service, Arc::clone(&cases)).await {
            Ok(replies) => Some(replies),
            Err(status) => {
                failure = Some(describe("the service refused the stream", &status));
                None
            }
        }
    } else {
        None
    };
    loop {
        // Release every case whose turn has come.
        while let Some(case) = cases.get(next) {
            match (&case.query, slots[next].take()) {
                (Err(error), _) => sink.case(case, Err(error))?,
                (Ok(_), Some(Ok(answer))) => sink.case(case, Ok(&answer))?,
                (Ok(_), Some(Err(error))) => sink.case(case, Err(&error))?,
                (Ok(_), None) => match &failure {
                    Some(failure) => sink.case(case, Err(failure))?,
                    None => break,
                },
            }
            next += 1;
        }
        if next == cases.len() {
            return Ok(());
        }
        sink.idle()?;
        let Some(stream) = replies.as_mut() else {
            // Cannot happen (a case waits only while the stream is open), but never hang on it.
            failure.get_or_insert_with(|| "not answered: no stream".to_owned());
            continue;
        };
        match stream.next(&cases).await {
            Ok(Some((id, answer))) => {
                let slot = usize::try_from(id).ok().and_then(|i| slots.get_mut(i));
                match slot {
                    Some(slot) if slot.is_none() && (id as usize) >= next => *slot = Some(answer),
                    _ => eprintln!(
                        "solver-client: ignoring an extra reply for case id {id} from the service"
                    ),
                }
            }
            Ok(None) => {
                failure = Some("not answered: the service ended the stream early".to_owned());
                replies = None;
            }
            Err(status) => {
                failure = Some(describe("not answered: the stream failed", &status));
                replies = None;
            }
        }
    }
}

fn describe(what: &str, status: &tonic::Status) -> String {
    format!("{what}: {:?}: {}", status.code(), status.message())
}
