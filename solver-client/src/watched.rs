//! `solve` for one sliding board that may take a while (any shape but 3×3), through `SolveWatch`:
//! what the service is doing is drawn on a terminal while it works, and a run stopped before the
//! optimum (Ctrl-C, or `--timeout` passing) still prints the best answer found so far, with its
//! proven ratio, or else the lower bound the search proved.

use std::io::IsTerminal as _;
use std::time::{Duration, Instant};

use solver_proto::v2 as pb;
use solver_proto::v2::SolvePhase;
use solver_proto::v2::solve_watch_response::Event;

use crate::case::Case;
use crate::endpoints::Endpoint;
use crate::failure::CaseError;
use crate::family::{Answer, Query};
use crate::progress::Line;
use crate::reply::ReplyError;
use crate::sink::Sink;

/// How a watched case ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ended {
    /// With the service's answer (or its error), printed as any case's.
    Answered {
        /// Whether it was an error.
        failed: bool,
    },
    /// Stopped early: the best answer found so far was printed, its optimality not proven.
    NotProven,
    /// Stopped early with no answer found: what the search proved was said.
    NoAnswer,
}

impl Ended {
    /// The run's exit code (`exit.rs`).
    pub(crate) fn exit_code(self) -> u8 {
        match self {
            Ended::Answered { failed: false } => crate::exit::ANSWERED,
            Ended::Answered { failed: true } => crate::exit::CASE_ERROR,
            Ended::NotProven => crate::exit::NOT_PROVEN,
            Ended::NoAnswer => crate::exit::NO_ANSWER,
        }
    }
}

/// Whether `case` is one `solve` should watch: a sliding board other than 3×3 (whose answer is a
/// look-up), when progress can be drawn or the run has a deadline to stop at.
pub(crate) fn wanted(cases: &[Case], draw: bool, timeout: Option<Duration>) -> bool {
    let [case] = cases else { return false };
    let Ok(Query::Sliding(sliding)) = &case.query else {
        return false;
    };
    let grid = sliding.start.grid();
    (grid.rows(), grid.cols()) != (3, 3)
        && (draw && std::io::stderr().is_terminal() || timeout.is_some())
}

/// Connects (to `--server`, or to the embedded server once it is ready, telling on the
/// terminal what it waits for meanwhile) and answers `case` as [`answer`] does.
///
/// # Errors
/// As [`answer`], and when no server can be reached.
pub(crate) async fn run(
    server: Option<&str>,
    link: &std::sync::Arc<crate::link::Link>,
    embedded: Option<&crate::embedded::Embedded>,
    case: &Case,
    sink: &mut dyn Sink,
    draw: bool,
) -> anyhow::Result<Ended> {
    let mut line = Line::new(draw);
    let started = Instant::now();
    let open = crate::endpoints::open(server, embedded, link);
    tokio::pin!(open);
    let mut tick = tokio::time::interval(Duration::from_millis(100));
    let endpoints = loop {
        tokio::select! {
            endpoints = &mut open => break endpoints?,
            _ = tick.tick() => line.draw(started, &format!(
                "{} · {:.1} s",
                if embedded.is_some() {
                    "starting the embedded server (its tables first)"
                } else {
                    "connecting"
                },
                started.elapsed().as_secs_f64()
            )),
            _ = tokio::signal::ctrl_c() => {
                line.clear();
                eprintln!("solver-client: case {}: interrupted (Ctrl-C) before the service was ready", case.number);
                return Ok(Ended::NoAnswer);
            }
        }
    };
    line.clear();
    let endpoint = endpoints
        .first()
        .ok_or_else(|| anyhow::anyhow!("no server to ask"))?;
    answer(endpoint, case, sink, draw).await
}

/// The interval between the service's progress messages.
const INTERVAL: Duration = Duration::from_millis(200);
/// How long after its deadline the run gives up on a server that did not end the call.
const GRACE: Duration = Duration::from_secs(2);

/// Answers `case` on `endpoint` through `SolveWatch`, drawing progress on stderr when `draw` and
/// it is a terminal, and hands the answer to `sink`.
///
/// # Errors
/// The call could not be opened (the service unreachable or refusing us), or `sink` failed.
pub(crate) async fn answer(
    endpoint: &Endpoint,
    case: &Case,
    sink: &mut dyn Sink,
    draw: bool,
) -> anyhow::Result<Ended> {
    let Ok(query @ Query::Sliding(sliding)) = &case.query else {
        anyhow::bail!("only a sliding case is watched");
    };
    let request = pb::SolveWatchRequest {
        request: Some(crate::wire::request(case.number, query)),
        interval: prost_types::Duration::try_from(INTERVAL).ok(),
    };
    let mut line = Line::new(draw);
    let started = Instant::now();
    let mut client = endpoint.client();
    let mut stream = match client.solve_watch(endpoint.link.request(request)).await {
        Ok(response) => response.into_inner(),
        Err(status) if crate::exit::refused_us(status.code()) => {
            return Err(crate::exit::Unreachable(format!(
                "the service at {} refused the call: {:?}: {}",
                endpoint.url,
                status.code(),
                status.message()
            ))
            .into());
        }
        Err(status) => {
            let error = CaseError::Reply(reply_error(&status));
            sink.case(case, Err(&error))?;
            return Ok(Ended::Answered { failed: true });
        }
    };
    let give_up = endpoint.link.timeout.map(|t| started + t + GRACE);
    let mut latest = pb::SolveProgress::default();
    let mut tick = tokio::time::interval(Duration::from_millis(100));
    let stopped = loop {
        let give_up = async {
            match give_up {
                Some(at) => tokio::time::sleep_until(at.into()).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            message = stream.message() => match message {
                Ok(Some(pb::SolveWatchResponse { event: Some(Event::Progress(progress)) })) => {
                    latest = progress;
                    line.draw(started, &describe(&latest, started.elapsed()));
                }
                Ok(Some(pb::SolveWatchResponse { event: Some(Event::Answer(response)) })) => {
                    line.clear();
                    let answer = crate::wire::answer(query, response).map_err(CaseError::Reply);
                    sink.case(case, answer.as_ref())?;
                    return Ok(Ended::Answered { failed: answer.is_err() });
                }
                Ok(Some(_)) => {}
                Ok(None) => break Stop::Status(tonic::Status::unknown("the stream ended without an answer")),
                Err(status) => break Stop::Status(status),
            },
            _ = tokio::signal::ctrl_c() => break Stop::Interrupted,
            () = give_up => break Stop::Status(tonic::Status::deadline_exceeded("the service did not end the call at its deadline")),
            _ = tick.tick() => line.draw(started, &describe(&latest, started.elapsed())),
        }
    };
    drop(stream);
    line.clear();
    let elapsed = started.elapsed();
    let why = match &stopped {
        Stop::Interrupted => "interrupted (Ctrl-C)".to_owned(),
        Stop::Status(status) if status.code() == tonic::Code::DeadlineExceeded => {
            "the --timeout passed".to_owned()
        }
        Stop::Status(status) => {
            // A failure that is not a stop (a bad field, the time limit without any answer):
            // reported as any case's error, with what the search proved.
            if latest.best.is_none() {
                let error = CaseError::Reply(reply_error(status));
                sink.case(case, Err(&error))?;
                return Ok(Ended::Answered { failed: true });
            }
            format!("the service stopped it ({})", status.message())
        }
    };
    match latest
        .best
        .as_ref()
        .map(|best| sliding.best_so_far(&best.moves, best.lower_bound))
    {
        Some(Ok(answer)) => {
            let proven_length = matches!(
                answer,
                crate::family::sliding::query::SlidingAnswer::Moves(_)
            );
            let answer = Answer::Sliding(answer);
            sink.case(case, Ok(&answer))?;
            sink.idle()?;
            let elapsed = elapsed.as_secs_f64();
            if proven_length {
                eprintln!(
                    "solver-client: {why} after {elapsed:.1} s: the best answer found is printed; \
                     its length is proven optimal, but another optimal answer may come first in \
                     d < l < r < u order"
                );
            } else {
                eprintln!(
                    "solver-client: {why} after {elapsed:.1} s: the best answer found is printed, \
                     within {:.3} times the optimum (at least {} moves), not proven optimal",
                    latest.best_ratio, latest.lower_bound
                );
            }
            Ok(Ended::NotProven)
        }
        Some(Err(error)) => {
            sink.case(case, Err(&CaseError::Reply(error)))?;
            Ok(Ended::Answered { failed: true })
        }
        None => {
            sink.idle()?;
            eprintln!(
                "solver-client: case {}: {why} after {:.1} s with no answer yet: the optimum is at \
                 least {} moves ({} nodes searched); --max-ratio 1.5 answers such boards in about \
                 a second",
                case.number,
                elapsed.as_secs_f64(),
                latest.lower_bound,
                latest.nodes
            );
            Ok(Ended::NoAnswer)
        }
    }
}

/// Why the watch ended before its answer.
enum Stop {
    /// Ctrl-C.
    Interrupted,
    /// The call ended with this status (its deadline, or the service's limit).
    Status(tonic::Status),
}

/// A call's failure status as a case's error: its `google.rpc.Status` details when it has them.
fn reply_error(status: &tonic::Status) -> ReplyError {
    use prost::Message as _;
    let rpc = solver_proto::tonic_types::Status::decode(status.details())
        .ok()
        .filter(|rpc| rpc.code != 0)
        .unwrap_or_else(|| solver_proto::tonic_types::Status {
            code: status.code() as i32,
            message: status.message().to_owned(),
            details: Vec::new(),
        });
    crate::reply::service_error(&rpc)
}

/// `progress` in one line, `elapsed` after the case was sent.
pub(crate) fn describe(progress: &pb::SolveProgress, elapsed: Duration) -> String {
    let mut parts = vec![match progress.phase() {
        SolvePhase::Unspecified | SolvePhase::Waiting => "waiting for the service".to_owned(),
        SolvePhase::Tables if progress.tables_done > 0.0 => {
            format!("building tables {:.0} %", 100.0 * progress.tables_done)
        }
        SolvePhase::Tables => "loading or building tables".to_owned(),
        SolvePhase::Bounding => "finding a first answer".to_owned(),
        SolvePhase::Searching => "searching for the optimum".to_owned(),
    }];
    if progress.lower_bound > 0 {
        parts.push(format!("optimum ≥ {}", progress.lower_bound));
    }
    if let Some(best) = &progress.best {
        parts.push(format!(
            "best {} moves (≤ {:.3}×)",
            best.length, progress.best_ratio
        ));
    }
    if progress.nodes > 0 {
        parts.push(format!("{} nodes", human_count(progress.nodes)));
    }
    parts.push(format!(
        "{:.1} s (Ctrl-C keeps the best)",
        elapsed.as_secs_f64()
    ));
    parts.join(" · ")
}

/// `n` with an SI suffix: `4.2M`.
fn human_count(n: u64) -> String {
    let n = n as f64;
    for (scale, suffix) in [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")] {
        if n >= scale {
            return format!("{:.1}{suffix}", n / scale);
        }
    }
    format!("{n}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_reads_in_one_line() {
        let progress = pb::SolveProgress {
            phase: SolvePhase::Searching.into(),
            lower_bound: 52,
            best: Some(pb::SlidingSolution {
                moves: String::new(),
                length: 64,
                lower_bound: 52,
            }),
            best_ratio: 64.0 / 52.0,
            nodes: 4_200_000,
            ..pb::SolveProgress::default()
        };
        assert_eq!(
            describe(&progress, Duration::from_millis(3200)),
            "searching for the optimum · optimum ≥ 52 · best 64 moves (≤ 1.231×) · 4.2M nodes · \
             3.2 s (Ctrl-C keeps the best)"
        );
        let tables = pb::SolveProgress {
            phase: SolvePhase::Tables.into(),
            tables_done: 0.43,
            ..pb::SolveProgress::default()
        };
        assert!(describe(&tables, Duration::ZERO).starts_with("building tables 43 %"));
    }
}
