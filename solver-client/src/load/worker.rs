//! One stream slot of a load run: a `solver.v2` `SolveStream` of its class's cases, pipelined, replaced
//! when it fails while its budget lasts.

use std::collections::HashMap;
use std::sync::MutexGuard;
use std::time::{Duration, Instant};

use crate::endpoints::Endpoint;
use futures::StreamExt as _;
use solver_proto::v2 as pb;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::Status;

use super::cases::LoadCase;
use super::class::Generator;
use super::plan::Budget;
use super::report::{ClassStats, Stats, lock};
use super::wire::{self, Verdict};

/// Largest message accepted from the service.
const MAX_MESSAGE_BYTES: usize = 1 << 20;
/// After `--duration`, how long the cases already sent may still take to be answered.
const DRAIN: Duration = Duration::from_secs(5);
/// How long a stream whose cases are all answered waits for the server to end it.
const CLOSE_GRACE: Duration = Duration::from_secs(1);
/// Pause before replacing a failed stream.
const RETRY_PAUSE: Duration = Duration::from_millis(200);
/// A stream slot gives up after this many failures in a row without a single answer.
const RETRIES: u32 = 3;

/// One stream slot: opens a stream, pipelines its class's cases on it, and replaces it if it
/// fails while its budget lasts.
#[derive(Debug)]
pub(super) struct Worker {
    /// The server, and how calls are made on it.
    pub(super) endpoint: Endpoint,
    pub(super) budget: Budget,
    pub(super) in_flight: usize,
    pub(super) deadline: Option<Duration>,
    pub(super) generator: Generator,
    pub(super) stats: Stats,
    /// The class's index in `stats`.
    pub(super) index: usize,
    /// The id of the next case (unique over the slot's streams).
    pub(super) next_id: u64,
    /// Cases sent so far by this slot.
    pub(super) sent: u64,
}

/// How a stream ended.
#[derive(Debug)]
struct Ended {
    /// At least one reply came.
    answered: bool,
    /// It failed (its status), or ended early with cases unanswered.
    failed: bool,
}

impl Worker {
    pub(super) async fn run(mut self) {
        let mut failures = 0;
        while self.budget.allows(self.sent) {
            let ended = self.stream().await;
            if !ended.failed {
                continue;
            }
            failures = if ended.answered { 1 } else { failures + 1 };
            if !self.budget.allows(self.sent) {
                return;
            }
            if failures >= RETRIES {
                self.stats().example(format!(
                    "a stream slot gave up after {RETRIES} failed streams in a row"
                ));
                return;
            }
            tokio::time::sleep(RETRY_PAUSE).await;
        }
    }

    fn stats(&self) -> MutexGuard<'_, ClassStats> {
        lock(&self.stats[self.index])
    }

    /// One stream: sends cases while the budget lasts, keeping up to `in_flight` outstanding,
    /// and judges every reply.
    async fn stream(&mut self) -> Ended {
        let (sender, receiver) = mpsc::channel::<pb::SolveRequest>(self.in_flight);
        let mut sender = Some(sender);
        let mut pending: HashMap<u64, (Instant, LoadCase)> = HashMap::with_capacity(self.in_flight);
        // The first cases go before the call, so a server that waits for them still answers.
        self.fill(&mut sender, &mut pending);
        let call = self
            .endpoint
            .link
            .request_with(ReceiverStream::new(receiver), self.deadline);
        self.stats().opened += 1;
        let mut client = self
            .endpoint
            .client()
            .max_decoding_message_size(MAX_MESSAGE_BYTES);
        let mut replies = match client.solve_stream(call).await {
            Ok(response) => response.into_inner(),
            Err(status) => return self.failed(&status, &mut pending, false),
        };
        let mut answered = false;
        // When to stop waiting: the end of the budget while sending, then a grace for replies.
        let mut wait_until = match self.budget {
            Budget::Until(end) => end,
            Budget::Cases(_) => far_future(),
        };
        if sender.is_none() {
            wait_until = self.stop_sending(&pending);
        }
        loop {
            tokio::select! {
                reply = replies.next() => match reply {
                    Some(Ok(reply)) => {
                        answered = true;
                        self.judge(reply, &mut pending);
                        let was_sending = sender.is_some();
                        self.fill(&mut sender, &mut pending);
                        if was_sending && sender.is_none() {
                            wait_until = self.stop_sending(&pending);
                        } else if sender.is_none() && pending.is_empty() {
                            wait_until = wait_until.min(Instant::now() + CLOSE_GRACE);
                        }
                    }
                    Some(Err(status)) => return self.failed(&status, &mut pending, answered),
                    None => {
                        if pending.is_empty() && !self.budget.allows(self.sent) {
                            return Ended { answered, failed: false };
                        }
                        let status = Status::unknown("the server ended the stream early");
                        return self.failed(&status, &mut pending, answered);
                    }
                },
                () = tokio::time::sleep_until(wait_until.into()) => {
                    if sender.take().is_some() {
                        // The time is up: no more cases; the outstanding ones get a grace.
                        wait_until = self.stop_sending(&pending);
                    } else {
                        let mut stats = self.stats();
                        stats.unfinished += pending.len() as u64;
                        return Ended { answered, failed: false };
                    }
                }
            }
        }
    }

    /// When a stream that sends no more gives up waiting for `pending`.
    fn stop_sending(&self, pending: &HashMap<u64, (Instant, LoadCase)>) -> Instant {
        Instant::now()
            + if pending.is_empty() {
                CLOSE_GRACE
            } else {
                match self.budget {
                    Budget::Until(_) => DRAIN,
                    // A run of a fixed number of cases waits for all of them (or their deadline).
                    Budget::Cases(_) => Duration::from_secs(365 * 24 * 3600),
                }
            }
    }

    /// Sends cases until `in_flight` are outstanding or the budget is used up (then the request
    /// stream is closed).
    fn fill(
        &mut self,
        sender: &mut Option<mpsc::Sender<pb::SolveRequest>>,
        pending: &mut HashMap<u64, (Instant, LoadCase)>,
    ) {
        let mut sent = 0;
        while let Some(channel) = sender.as_ref() {
            if pending.len() >= self.in_flight {
                break;
            }
            if !self.budget.allows(self.sent) {
                *sender = None;
                break;
            }
            let query = self.generator.next();
            let id = self.next_id;
            // Never full: it holds at most the outstanding cases, fewer than its capacity.
            if channel.try_send(wire::request(id, &query)).is_err() {
                *sender = None;
                break;
            }
            self.next_id += 1;
            self.sent += 1;
            sent += 1;
            pending.insert(id, (Instant::now(), query));
        }
        if sent > 0 {
            self.stats().sent += sent;
        }
    }

    fn judge(&mut self, reply: pb::SolveResponse, pending: &mut HashMap<u64, (Instant, LoadCase)>) {
        let now = Instant::now();
        let Some((sent_at, query)) = wire::id(&reply).and_then(|id| pending.remove(&id)) else {
            let mut stats = self.stats();
            stats.wrong += 1;
            stats.example(format!(
                "a reply for id {:?}, which is not outstanding",
                reply.id
            ));
            return;
        };
        let verdict = wire::verdict(reply, &query);
        let mut stats = self.stats();
        stats.last = Some(now);
        match verdict {
            Verdict::Answered { cached } => {
                stats.answered += 1;
                stats.cached += u64::from(cached);
                stats.record_latency(now - sent_at);
            }
            Verdict::Error { code } => {
                *stats
                    .in_band
                    .entry(format!("{:?}", tonic::Code::from_i32(code)))
                    .or_default() += 1;
            }
            Verdict::Wrong(why) => {
                stats.wrong += 1;
                stats.example(format!("wrong answer: {why}"));
            }
        }
    }

    /// Counts a failed stream and its unanswered cases.
    fn failed(
        &self,
        status: &Status,
        pending: &mut HashMap<u64, (Instant, LoadCase)>,
        answered: bool,
    ) -> Ended {
        let code = format!("{:?}", status.code());
        let mut stats = self.stats();
        stats.last = Some(Instant::now());
        *stats.stream_failures.entry(code.clone()).or_default() += 1;
        if !pending.is_empty() {
            *stats.lost.entry(code.clone()).or_default() += pending.len() as u64;
        }
        stats.example(format!("stream ended: {code}: {}", status.message()));
        pending.clear();
        Ended {
            answered,
            failed: true,
        }
    }
}

fn far_future() -> Instant {
    Instant::now() + Duration::from_secs(365 * 24 * 3600)
}
