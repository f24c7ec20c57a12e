//! Prometheus metrics, one registry per server (tests run many servers in one process), and the
//! small HTTP endpoint that serves them on `/metrics`.
//!
//! Hot paths never look up a labelled series: every per-kind handle is resolved once here.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::http::header::CONTENT_TYPE;
use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tonic::Code;

use crate::config::Kind;

type Labels = [(&'static str, &'static str); 2];
type KindLabel = [(&'static str, &'static str); 1];

/// A `solver.v2` RPC answered by one call rather than case by case (`Solve` and `SolveStream`
/// are counted per case, in `solver_cases_total`), as the `rpc` label of `solver_requests_*`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Rpc {
    /// `Hint`.
    Hint,
    /// `Scramble`.
    Scramble,
    /// `Verify`.
    Verify,
}

impl Rpc {
    const ALL: [Rpc; 3] = [Rpc::Hint, Rpc::Scramble, Rpc::Verify];

    const fn name(self) -> &'static str {
        match self {
            Rpc::Hint => "hint",
            Rpc::Scramble => "scramble",
            Rpc::Verify => "verify",
        }
    }
}

/// How a case ended, as the `outcome` label of `solver_cases_total`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// A solution was sent.
    Solved,
    /// The sliding-tile board cannot reach its target.
    Unsolvable,
    /// The Solitaire end is not reachable within the limit.
    Unreachable,
    /// An in-band error with this code.
    Failed(Code),
}

const OUTCOMES: [&str; 9] = [
    "solved",
    "unsolvable",
    "unreachable",
    "invalid_argument",
    "resource_exhausted",
    "deadline_exceeded",
    "cancelled",
    "internal",
    "other_error",
];

/// The `outcome` labels of `solver_requests_total`: `ok`, then the failures of
/// [`OUTCOMES`], so that cases and calls name an error alike.
const RPC_OUTCOMES: [&str; 7] = [
    "ok",
    "invalid_argument",
    "resource_exhausted",
    "deadline_exceeded",
    "cancelled",
    "internal",
    "other_error",
];

/// The index of a failure with `code` among the failures of [`OUTCOMES`] and [`RPC_OUTCOMES`].
fn failure_index(code: Code) -> usize {
    match code {
        Code::InvalidArgument => 0,
        Code::ResourceExhausted => 1,
        Code::DeadlineExceeded => 2,
        Code::Cancelled => 3,
        Code::Internal => 4,
        _ => 5,
    }
}

impl Outcome {
    fn index(self) -> usize {
        match self {
            Outcome::Solved => 0,
            Outcome::Unsolvable => 1,
            Outcome::Unreachable => 2,
            Outcome::Failed(code) => 3 + failure_index(code),
        }
    }
}

/// The series of one puzzle kind.
#[derive(Debug, Clone)]
pub(crate) struct KindMetrics {
    outcomes: [Counter; OUTCOMES.len()],
    latency: Histogram,
    /// Cases read from streams and not yet answered.
    pub(crate) in_flight: Gauge,
    /// Cases whose search is running on the pool right now.
    pub(crate) searching: Gauge,
    /// Cache look-ups that found an answer.
    pub(crate) cache_hits: Counter,
    /// Cache look-ups that did not.
    pub(crate) cache_misses: Counter,
}

impl KindMetrics {
    /// Counts one answered case and its latency (from being read to its reply).
    pub(crate) fn answered(&self, outcome: Outcome, latency: Duration) {
        self.outcomes[outcome.index()].inc();
        self.latency.observe(latency.as_secs_f64());
        self.in_flight.dec();
    }
}

/// The series of one RPC counted per call ([`Rpc`]).
#[derive(Debug, Clone)]
pub(crate) struct RpcMetrics {
    outcomes: [Counter; RPC_OUTCOMES.len()],
    latency: Histogram,
    in_flight: Gauge,
}

impl RpcMetrics {
    /// Counts a call from now until it is [`finish`](RpcCall::finish)ed or dropped.
    pub(crate) fn begin(&self) -> RpcCall {
        self.in_flight.inc();
        RpcCall {
            metrics: self.clone(),
            started: Instant::now(),
            finished: false,
        }
    }
}

/// One call in flight. Dropped unfinished (tonic drops a handler whose client cancelled), it
/// is counted as cancelled, so the gauge always returns to zero.
#[derive(Debug)]
pub(crate) struct RpcCall {
    metrics: RpcMetrics,
    started: Instant,
    finished: bool,
}

impl RpcCall {
    /// Counts the call as answered (`Ok`) or failed with a code, with its latency.
    pub(crate) fn finish(mut self, result: Result<(), Code>) {
        self.record(result);
    }

    fn record(&mut self, result: Result<(), Code>) {
        self.finished = true;
        let index = result.map_or_else(|code| 1 + failure_index(code), |()| 0);
        self.metrics.outcomes[index].inc();
        self.metrics
            .latency
            .observe(self.started.elapsed().as_secs_f64());
        self.metrics.in_flight.dec();
    }
}

impl Drop for RpcCall {
    fn drop(&mut self) {
        if !self.finished {
            self.record(Err(Code::Cancelled));
        }
    }
}

/// All metrics of one server.
#[derive(Debug)]
pub(crate) struct Metrics {
    registry: Registry,
    kinds: [KindMetrics; Kind::ALL.len()],
    rpcs: [RpcMetrics; 3],
    /// Entries in the cache of solved states.
    pub(crate) cache_entries: Gauge,
    /// Solver streams open.
    pub(crate) streams: Gauge,
    /// The scheduler's CPU tokens (worker threads).
    pub(crate) scheduler_workers: Gauge,
    /// Tokens held by running work.
    pub(crate) scheduler_busy: Gauge,
    /// Work waiting for a token (queued slices and build threads).
    pub(crate) scheduler_waiting: Gauge,
    /// Slices that ended with the work unfinished (preempted or yielded).
    pub(crate) scheduler_preempted: Counter,
    /// Helpers given to searches split across the scheduler's tokens.
    pub(crate) search_helpers: Counter,
    /// The process's resident memory, read when the metrics are rendered.
    resident_memory: Gauge,
    /// 15-puzzle answers found by search, by the heuristic that guided it.
    fifteen_methods: Family<[(&'static str, String); 1], Counter>,
    /// 1 for the heuristic new 15-puzzle searches use, 0 for the others.
    fifteen_heuristic: Family<[(&'static str, &'static str); 1], Gauge>,
}

/// The buckets of every latency histogram: 1 µs to about 67 s, by factors of 4.
fn latency_histogram() -> Histogram {
    Histogram::new(exponential_buckets(1e-6, 4.0, 14))
}

impl Metrics {
    /// A fresh registry with every series registered.
    pub(crate) fn new() -> Self {
        let mut registry = Registry::with_prefix("solver");
        let cases = Family::<Labels, Counter>::default();
        registry.register(
            "cases",
            "Cases answered, by puzzle kind and outcome",
            cases.clone(),
        );
        let latency = Family::<KindLabel, Histogram>::new_with_constructor(latency_histogram);
        registry.register(
            "case_latency_seconds",
            "Time from reading a case to sending its reply",
            latency.clone(),
        );
        let in_flight = Family::<KindLabel, Gauge>::default();
        registry.register(
            "cases_in_flight",
            "Cases read from streams and not yet answered",
            in_flight.clone(),
        );
        let searching = Family::<KindLabel, Gauge>::default();
        registry.register(
            "searches_running",
            "Cases whose search holds a pool thread right now",
            searching.clone(),
        );
        let hits = Family::<KindLabel, Counter>::default();
        registry.register(
            "cache_hits",
            "Cases answered from the cache of solved states",
            hits.clone(),
        );
        let misses = Family::<KindLabel, Counter>::default();
        registry.register(
            "cache_misses",
            "Cache look-ups that found nothing",
            misses.clone(),
        );
        let cache_entries = Gauge::default();
        registry.register(
            "cache_entries",
            "Entries in the cache of solved states",
            cache_entries.clone(),
        );
        let streams = Gauge::default();
        registry.register("streams_open", "Solver streams open", streams.clone());
        let scheduler_workers = Gauge::default();
        registry.register(
            "scheduler_workers",
            "CPU tokens of the scheduler (worker threads)",
            scheduler_workers.clone(),
        );
        let scheduler_busy = Gauge::default();
        registry.register(
            "scheduler_busy",
            "Scheduler tokens held by running work",
            scheduler_busy.clone(),
        );
        let scheduler_waiting = Gauge::default();
        registry.register(
            "scheduler_waiting",
            "Work waiting for a scheduler token",
            scheduler_waiting.clone(),
        );
        let scheduler_preempted = Counter::default();
        registry.register(
            "scheduler_preempted_slices",
            "Time slices that ended with their work unfinished",
            scheduler_preempted.clone(),
        );
        let search_helpers = Counter::default();
        registry.register(
            "search_helpers",
            "Helpers given to hard searches, to run on the scheduler's other tokens",
            search_helpers.clone(),
        );
        let resident_memory = Gauge::default();
        // `solver_process_resident_memory_bytes`: the conventional name under our prefix.
        registry.register(
            "process_resident_memory_bytes",
            "Resident memory of the server process, in bytes (Linux)",
            resident_memory.clone(),
        );
        let fifteen_methods = Family::default();
        registry.register(
            "fifteen_searches",
            "15-puzzle answers found by search, by the heuristic that guided it",
            fifteen_methods.clone(),
        );
        let fifteen_heuristic = Family::default();
        registry.register(
            "fifteen_heuristic",
            "1 for the heuristic new 15-puzzle searches use (pdb-663 until the 7-8 databases are in)",
            fifteen_heuristic.clone(),
        );

        let requests = Family::<Labels, Counter>::default();
        registry.register(
            "requests",
            "Hint, Scramble and Verify calls, by RPC and outcome",
            requests.clone(),
        );
        let request_latency =
            Family::<KindLabel, Histogram>::new_with_constructor(latency_histogram);
        registry.register(
            "request_latency_seconds",
            "Time from a Hint, Scramble or Verify call's start to its response",
            request_latency.clone(),
        );
        let requests_in_flight = Family::<KindLabel, Gauge>::default();
        registry.register(
            "requests_in_flight",
            "Hint, Scramble and Verify calls not yet answered",
            requests_in_flight.clone(),
        );
        let rpcs = Rpc::ALL.map(|rpc| {
            let label = [("rpc", rpc.name())];
            RpcMetrics {
                outcomes: RPC_OUTCOMES.map(|outcome| {
                    requests.get_or_create_owned(&[("rpc", rpc.name()), ("outcome", outcome)])
                }),
                latency: request_latency.get_or_create_owned(&label),
                in_flight: requests_in_flight.get_or_create_owned(&label),
            }
        });

        let kinds = Kind::ALL.map(|kind| {
            let label = [("kind", kind.name())];
            KindMetrics {
                outcomes: OUTCOMES.map(|outcome| {
                    cases.get_or_create_owned(&[("kind", kind.name()), ("outcome", outcome)])
                }),
                latency: latency.get_or_create_owned(&label),
                in_flight: in_flight.get_or_create_owned(&label),
                searching: searching.get_or_create_owned(&label),
                cache_hits: hits.get_or_create_owned(&label),
                cache_misses: misses.get_or_create_owned(&label),
            }
        });
        Self {
            registry,
            kinds,
            rpcs,
            cache_entries,
            streams,
            scheduler_workers,
            scheduler_busy,
            scheduler_waiting,
            scheduler_preempted,
            search_helpers,
            resident_memory,
            fifteen_methods,
            fifteen_heuristic,
        }
    }

    /// The series of `kind`.
    pub(crate) fn kind(&self, kind: Kind) -> &KindMetrics {
        &self.kinds[kind as usize]
    }

    /// The series of `rpc`.
    pub(crate) fn rpc(&self, rpc: Rpc) -> &RpcMetrics {
        &self.rpcs[rpc as usize]
    }

    /// Counts a 15-puzzle answer found by a search guided by `method`.
    pub(crate) fn fifteen_searched(&self, method: &str) {
        self.fifteen_methods
            .get_or_create(&[("method", method.to_owned())])
            .inc();
    }

    /// Marks `method` as the heuristic new 15-puzzle searches use.
    pub(crate) fn set_fifteen_heuristic(&self, method: &str) {
        for known in ["pdb-663", "pdb-78"] {
            self.fifteen_heuristic
                .get_or_create(&[("method", known)])
                .set(i64::from(known == method));
        }
    }

    /// The OpenMetrics text exposition.
    pub(crate) fn render(&self) -> String {
        if let Some(bytes) = resident_bytes() {
            self.resident_memory
                .set(i64::try_from(bytes).unwrap_or(i64::MAX));
        }
        let mut text = String::new();
        encode(&mut text, &self.registry).expect("writing to a String cannot fail");
        text
    }
}

/// This process's resident set size from `/proc/self/statm` (pages × 4 KiB); `None` where
/// there is no such file.
fn resident_bytes() -> Option<u64> {
    const PAGE: u64 = 4096;
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * PAGE)
}

/// Serves `GET /metrics` on `listener` until `stop` is cancelled.
pub(crate) async fn serve_metrics(
    listener: TcpListener,
    metrics: Arc<Metrics>,
    stop: CancellationToken,
) -> std::io::Result<()> {
    if let Ok(addr) = listener.local_addr() {
        tracing::info!(%addr, "metrics endpoint listening");
    }
    let app = axum::Router::new().route(
        "/metrics",
        axum::routing::get(move || {
            let metrics = Arc::clone(&metrics);
            async move {
                (
                    [(
                        CONTENT_TYPE,
                        "application/openmetrics-text; version=1.0.0; charset=utf-8",
                    )],
                    metrics.render(),
                )
            }
        }),
    );
    axum::serve(listener, app)
        .with_graceful_shutdown(async move { stop.cancelled().await })
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_labelled_series() {
        let metrics = Metrics::new();
        let eight = metrics.kind(Kind::Eight);
        eight.in_flight.inc();
        eight.answered(Outcome::Solved, Duration::from_micros(3));
        metrics.kind(Kind::Fifteen).answered(
            Outcome::Failed(Code::ResourceExhausted),
            Duration::from_secs(1),
        );
        let text = metrics.render();
        assert!(
            text.contains(r#"solver_cases_total{kind="eight",outcome="solved"} 1"#),
            "{text}"
        );
        assert!(
            text.contains(r#"solver_cases_total{kind="fifteen",outcome="resource_exhausted"} 1"#)
        );
        assert!(text.contains(r#"solver_cases_in_flight{kind="eight"} 0"#));
        assert!(text.contains("solver_case_latency_seconds_bucket"));
    }

    #[test]
    fn counts_calls_by_rpc_and_outcome() {
        let metrics = Metrics::new();
        let hint = metrics.rpc(Rpc::Hint).begin();
        let in_flight = r#"solver_requests_in_flight{rpc="hint"} 1"#;
        assert!(metrics.render().contains(in_flight));
        hint.finish(Ok(()));
        metrics
            .rpc(Rpc::Verify)
            .begin()
            .finish(Err(Code::InvalidArgument));
        // A call dropped unfinished: its client went away.
        drop(metrics.rpc(Rpc::Scramble).begin());
        let text = metrics.render();
        for series in [
            r#"solver_requests_total{rpc="hint",outcome="ok"} 1"#,
            r#"solver_requests_total{rpc="verify",outcome="invalid_argument"} 1"#,
            r#"solver_requests_total{rpc="scramble",outcome="cancelled"} 1"#,
            r#"solver_requests_total{rpc="scramble",outcome="ok"} 0"#,
            r#"solver_request_latency_seconds_count{rpc="hint"} 1"#,
            r#"solver_requests_in_flight{rpc="hint"} 0"#,
            r#"solver_requests_in_flight{rpc="scramble"} 0"#,
        ] {
            assert!(text.contains(series), "{series} in {text}");
        }
    }
}
