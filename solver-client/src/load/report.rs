//! What a load run measured, per class, and how it is printed: a table for a person, or JSON.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use hdrhistogram::Histogram;
use serde_json::{Value, json};

use super::class::Class;
use super::rss::RssError;

/// Latencies are recorded in microseconds, from 1 µs to an hour, to 3 significant digits.
const LATENCY_MAX_US: u64 = 3_600_000_000;

/// How many messages of wrong answers and failed streams a class keeps, to show.
const EXAMPLES: usize = 3;

/// The counters of one class, shared by its streams.
#[derive(Debug)]
pub(crate) struct ClassStats {
    /// Streams opened (a stream that fails is replaced while its share of the run lasts).
    pub(crate) opened: u64,
    pub(crate) sent: u64,
    /// Correct answers.
    pub(crate) answered: u64,
    /// Correct answers that the server marked as coming from its cache.
    pub(crate) cached: u64,
    /// Answers that failed the checks.
    pub(crate) wrong: u64,
    /// In-band `CaseError`s, by gRPC code.
    pub(crate) in_band: BTreeMap<String, u64>,
    /// Cases that got no reply because their stream ended with this status.
    pub(crate) lost: BTreeMap<String, u64>,
    /// Streams that ended with this status (or could not be opened).
    pub(crate) stream_failures: BTreeMap<String, u64>,
    /// Cases still unanswered when the run stopped waiting for them.
    pub(crate) unfinished: u64,
    /// Latency of each correct answer, send to reply, in µs.
    pub(crate) latency: Histogram<u64>,
    /// When the last reply or failure of the class came.
    pub(crate) last: Option<Instant>,
    /// The first few wrong answers and stream failures, for the report.
    pub(crate) examples: Vec<String>,
}

impl ClassStats {
    pub(crate) fn new() -> Self {
        Self {
            opened: 0,
            sent: 0,
            answered: 0,
            cached: 0,
            wrong: 0,
            in_band: BTreeMap::new(),
            lost: BTreeMap::new(),
            stream_failures: BTreeMap::new(),
            unfinished: 0,
            latency: Histogram::new_with_bounds(1, LATENCY_MAX_US, 3)
                .expect("valid histogram bounds"),
            last: None,
            examples: Vec::new(),
        }
    }

    pub(crate) fn record_latency(&mut self, latency: Duration) {
        let us = u64::try_from(latency.as_micros()).unwrap_or(u64::MAX);
        self.latency.saturating_record(us.clamp(1, LATENCY_MAX_US));
    }

    pub(crate) fn example(&mut self, message: String) {
        if self.examples.len() < EXAMPLES && !self.examples.contains(&message) {
            self.examples.push(message);
        }
    }

    /// Cases that ended in an error: in band, lost with their stream, or wrong.
    pub(crate) fn errors(&self) -> u64 {
        self.in_band.values().sum::<u64>() + self.lost.values().sum::<u64>() + self.wrong
    }

    /// Cases with an outcome (answered or failed).
    pub(crate) fn done(&self) -> u64 {
        self.answered + self.errors()
    }
}

/// The server's resident memory as seen during the run.
#[derive(Debug, Clone, Default)]
pub(crate) struct Rss {
    /// Where it was read, for the report.
    pub(crate) source: String,
    pub(crate) start: Option<u64>,
    pub(crate) end: Option<u64>,
    pub(crate) max: Option<u64>,
    /// Why it could not be read, when it could not.
    pub(crate) problem: Option<String>,
}

impl Rss {
    pub(crate) fn sample(&mut self, value: Result<u64, RssError>, at_end: bool) {
        match value {
            Ok(bytes) => {
                if self.start.is_none() {
                    self.start = Some(bytes);
                }
                if at_end {
                    self.end = Some(bytes);
                }
                self.max = Some(self.max.map_or(bytes, |m| m.max(bytes)));
            }
            Err(problem) => {
                if self.problem.is_none() {
                    self.problem = Some(problem.to_string());
                }
            }
        }
    }
}

/// One class's line of the report.
#[derive(Debug)]
pub(crate) struct ClassReport {
    pub(crate) class: Class,
    pub(crate) streams: usize,
    pub(crate) in_flight: usize,
    pub(crate) stats: ClassStats,
    /// From the start of the run to the class's last reply.
    pub(crate) span: Duration,
}

impl ClassReport {
    fn throughput(&self) -> f64 {
        let secs = self.span.as_secs_f64();
        if secs > 0.0 {
            self.stats.answered as f64 / secs
        } else {
            0.0
        }
    }

    fn percentile(&self, q: f64) -> Option<u64> {
        (!self.stats.latency.is_empty()).then(|| self.stats.latency.value_at_quantile(q))
    }

    /// Errors by gRPC code, in band and stream statuses together, plus wrong answers.
    fn error_summary(&self) -> String {
        let mut parts = Vec::new();
        for (code, n) in &self.stats.in_band {
            parts.push(format!("{n} {code} (in band)"));
        }
        for (code, n) in &self.stats.lost {
            parts.push(format!("{n} {code} (stream ended)"));
        }
        if self.stats.wrong > 0 {
            parts.push(format!("{} wrong", self.stats.wrong));
        }
        parts.join(", ")
    }
}

/// The whole run.
#[derive(Debug)]
pub(crate) struct Report {
    pub(crate) target: String,
    pub(crate) connections: usize,
    pub(crate) seed: u64,
    pub(crate) deadline: Option<Duration>,
    pub(crate) elapsed: Duration,
    pub(crate) interrupted: bool,
    pub(crate) classes: Vec<ClassReport>,
    pub(crate) rss: Rss,
}

impl Report {
    pub(crate) fn wrong(&self) -> u64 {
        self.classes.iter().map(|c| c.stats.wrong).sum()
    }

    pub(crate) fn text(&self) -> String {
        let mut out = String::new();
        let streams: usize = self.classes.iter().map(|c| c.streams).sum();
        let _ = writeln!(
            out,
            "load: {streams} stream(s) over {} connection(s) to {}, {:.1} s{}, seed {}{}",
            self.connections,
            self.target,
            self.elapsed.as_secs_f64(),
            self.deadline
                .map(|d| format!(", deadline {}", duration(d)))
                .unwrap_or_default(),
            self.seed,
            if self.interrupted {
                " (interrupted: what was measured so far)"
            } else {
                ""
            },
        );
        let header = [
            "class",
            "streams",
            "in-flight",
            "sent",
            "answered",
            "cached",
            "errors",
            "unfinished",
            "p50",
            "p99",
            "p99.9",
            "max",
            "cases/s",
        ];
        let mut rows: Vec<Vec<String>> = vec![header.iter().map(|s| (*s).to_owned()).collect()];
        for c in &self.classes {
            let latency = |q: f64| c.percentile(q).map_or("-".to_owned(), micros);
            rows.push(vec![
                c.class.name().to_owned(),
                c.streams.to_string(),
                c.in_flight.to_string(),
                c.stats.sent.to_string(),
                c.stats.answered.to_string(),
                c.stats.cached.to_string(),
                c.stats.errors().to_string(),
                c.stats.unfinished.to_string(),
                latency(0.5),
                latency(0.99),
                latency(0.999),
                latency(1.0),
                format!("{:.0}", c.throughput()),
            ]);
        }
        let widths: Vec<usize> = (0..header.len())
            .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
            .collect();
        for row in &rows {
            let mut line = String::new();
            for (i, cell) in row.iter().enumerate() {
                let pad = widths[i] - cell.chars().count();
                if i == 0 {
                    let _ = write!(line, "{cell}{}", " ".repeat(pad));
                } else {
                    let _ = write!(line, "  {}{cell}", " ".repeat(pad));
                }
            }
            let _ = writeln!(out, "{line}");
        }
        for c in &self.classes {
            let errors = c.error_summary();
            if !errors.is_empty() {
                let _ = writeln!(out, "{} errors: {errors}", c.class.name());
            }
            if !c.stats.stream_failures.is_empty() {
                let failures: Vec<String> = c
                    .stats
                    .stream_failures
                    .iter()
                    .map(|(code, n)| format!("{n} {code}"))
                    .collect();
                let _ = writeln!(
                    out,
                    "{} streams ended early: {}",
                    c.class.name(),
                    failures.join(", ")
                );
            }
            for example in &c.stats.examples {
                let _ = writeln!(out, "  {}: {example}", c.class.name());
            }
        }
        let _ = writeln!(out, "wrong answers: {}", self.wrong());
        let rss = &self.rss;
        let mb = |b: Option<u64>| b.map_or("?".to_owned(), |b| format!("{:.1} MB", b as f64 / 1e6));
        match (rss.start, &rss.problem) {
            (None, Some(problem)) => {
                let _ = writeln!(out, "server RSS: not known ({problem})");
            }
            (None, None) => {
                let _ = writeln!(out, "server RSS: not known (give --metrics URL)");
            }
            (Some(_), _) => {
                let _ = writeln!(
                    out,
                    "server RSS ({}): {} at start, {} at end, {} at most (sampled every second)",
                    rss.source,
                    mb(rss.start),
                    mb(rss.end),
                    mb(rss.max),
                );
            }
        }
        out
    }

    pub(crate) fn json(&self) -> Value {
        let classes: Vec<Value> = self
            .classes
            .iter()
            .map(|c| {
                json!({
                    "class": c.class.name(),
                    "streams": c.streams,
                    "in_flight": c.in_flight,
                    "streams_opened": c.stats.opened,
                    "sent": c.stats.sent,
                    "answered": c.stats.answered,
                    "cached": c.stats.cached,
                    "errors": c.stats.errors(),
                    "wrong": c.stats.wrong,
                    "unfinished": c.stats.unfinished,
                    "errors_in_band": c.stats.in_band,
                    "errors_stream": c.stats.lost,
                    "stream_failures": c.stats.stream_failures,
                    "examples": c.stats.examples,
                    "latency_us": {
                        "p50": c.percentile(0.5),
                        "p99": c.percentile(0.99),
                        "p99_9": c.percentile(0.999),
                        "max": c.percentile(1.0),
                        "mean": (!c.stats.latency.is_empty()).then(|| c.stats.latency.mean()),
                    },
                    "seconds": c.span.as_secs_f64(),
                    "throughput": c.throughput(),
                })
            })
            .collect();
        json!({
            "target": self.target,
            "connections": self.connections,
            "seed": self.seed,
            "deadline_s": self.deadline.map(|d| d.as_secs_f64()),
            "elapsed_s": self.elapsed.as_secs_f64(),
            "interrupted": self.interrupted,
            "wrong": self.wrong(),
            "classes": classes,
            "server_rss": {
                "source": self.rss.source,
                "start_bytes": self.rss.start,
                "end_bytes": self.rss.end,
                "max_bytes": self.rss.max,
                "problem": self.rss.problem,
            },
        })
    }
}

/// A latency in µs, in the unit that suits it.
fn micros(us: u64) -> String {
    if us < 1_000 {
        format!("{us}µs")
    } else if us < 1_000_000 {
        format!("{:.2}ms", us as f64 / 1e3)
    } else {
        format!("{:.2}s", us as f64 / 1e6)
    }
}

fn duration(d: Duration) -> String {
    micros(u64::try_from(d.as_micros()).unwrap_or(u64::MAX))
}

/// The shared counters of every class.
pub(super) type Stats = Arc<[Mutex<ClassStats>]>;

pub(super) fn lock(stats: &Mutex<ClassStats>) -> MutexGuard<'_, ClassStats> {
    stats.lock().unwrap_or_else(PoisonError::into_inner)
}
