//! `solver-client load`: many concurrent streams of easy and hard cases against a server, with
//! per-class latency percentiles, throughput, errors by gRPC code and the server's memory.
//!
//! Each stream belongs to one class of cases (`eight`, `fifteen-easy`, `fifteen-hard`,
//! `solitaire`) and pipelines them: it keeps up to its in-flight count of cases sent and not yet
//! answered, sending the next one as each reply comes. A case's latency runs from handing its
//! request to the stream to reading its reply; every reply is checked cheaply (moves replayed)
//! and a wrong one counts as an error. A stream that fails is counted under its status and, while
//! its share of the run (cases or time) lasts, replaced by a new one.

mod cases;
mod report;
mod rss;

use std::collections::HashMap;
use std::io::{IsTerminal as _, Write as _};
use std::process::ExitCode;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use futures::future::BoxFuture;
use futures::{FutureExt as _, StreamExt as _};
use solver_server::pb::solver_client::SolverClient;
use solver_server::{Kind, parse_duration};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::transport::Channel;
use tonic::{Response, Status, Streaming};

use self::cases::{Generator, Hard, Query, Reply, Verdict};
use self::report::{ClassReport, ClassStats, Report, Rss};
use crate::progress::{self, Progress};
use crate::{embedded, endpoints};

/// Largest message accepted from the service.
const MAX_MESSAGE_BYTES: usize = 1 << 20;
/// How long a run goes when neither `--duration` nor `--cases` is given.
const DEFAULT_DURATION: Duration = Duration::from_secs(10);
/// After `--duration`, how long the cases already sent may still take to be answered.
const DRAIN: Duration = Duration::from_secs(5);
/// How long a stream whose cases are all answered waits for the server to end it.
const CLOSE_GRACE: Duration = Duration::from_secs(1);
/// Pause before replacing a failed stream.
const RETRY_PAUSE: Duration = Duration::from_millis(200);
/// A stream slot gives up after this many failures in a row without a single answer.
const RETRIES: u32 = 3;

/// Drive a server with concurrent streams of easy and hard cases and report latency percentiles,
/// throughput, errors and the server's memory per class of case.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Classes: eight (random 3x3 start and target), fifteen-easy (10 to 30 random moves from the \
goal), fifteen-hard (the --hard boards, tiles renamed afresh for every case so the server's cache \
cannot answer them), solitaire (random pairs, half of them a walk of at most 8 moves apart; \
limit 8).

Example: solver-client load --server 127.0.0.1:50051 --metrics 127.0.0.1:9090 \
--mix eight=4,fifteen-easy=2,fifteen-hard=1,solitaire=1 --duration 30s --deadline 20s")]
pub(crate) struct Args {
    /// Streams per class, `class=N,...` (a class alone counts 1). With --streams, the weights
    /// by which those streams are shared out.
    #[arg(
        long,
        value_parser = parse_mix,
        default_value = "eight=1,fifteen-easy=1,fifteen-hard=1,solitaire=1"
    )]
    mix: Mix,

    /// Concurrent streams in all, shared out over the classes of --mix by their weights
    /// (default: the sum of the weights).
    #[arg(long, value_name = "N")]
    streams: Option<usize>,

    /// How long each stream sends cases (e.g. 500ms, 30s, 2m); cases still unanswered then get
    /// 5 s more. Default: 10s, unless --cases is given.
    #[arg(long, value_parser = parse_duration, conflicts_with = "cases")]
    duration: Option<Duration>,

    /// Cases each stream sends, instead of a duration.
    #[arg(long, value_name = "N")]
    cases: Option<u64>,

    /// Cases outstanding per stream: one number for every class and/or `class=K,...`
    /// (default: 1 for fifteen-hard, 64 for the others).
    #[arg(long, value_parser = parse_in_flight, value_name = "K|CLASS=K,...")]
    in_flight: Option<InFlight>,

    /// The fifteen-hard boards, comma-separated: `80` (the 80-move board: over the server's
    /// default 60 s case limit with the 6-6-3 databases on 2 cores), `korf` (12 of Korf's 100,
    /// 0.05 to 0.8 s each) or `korfN`.
    #[arg(long, default_value = "korf,80", value_name = "BOARDS")]
    hard: String,

    /// The deadline of every stream (sent as grpc-timeout; e.g. 20s).
    #[arg(long, value_parser = parse_duration)]
    deadline: Option<Duration>,

    /// Seed of the random cases (default: from the clock; printed in the summary).
    #[arg(long)]
    seed: Option<u64>,

    /// HTTP/2 connections to each server; the streams are shared out over them.
    #[arg(long, default_value_t = 1, value_name = "N")]
    connections: usize,

    /// The server's Prometheus endpoint (e.g. http://127.0.0.1:9090/metrics), to report its
    /// resident memory. Without --server, this process's own is reported.
    #[arg(long, value_name = "URL")]
    metrics: Option<String>,

    /// Print the summary as one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

/// A class of cases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Class {
    Eight,
    FifteenEasy,
    FifteenHard,
    Solitaire,
}

impl Class {
    pub(crate) const ALL: [Class; 4] = [
        Class::Eight,
        Class::FifteenEasy,
        Class::FifteenHard,
        Class::Solitaire,
    ];

    pub(crate) fn name(self) -> &'static str {
        match self {
            Class::Eight => "eight",
            Class::FifteenEasy => "fifteen-easy",
            Class::FifteenHard => "fifteen-hard",
            Class::Solitaire => "solitaire",
        }
    }

    fn parse(name: &str) -> Result<Self, String> {
        Class::ALL
            .into_iter()
            .find(|c| c.name() == name)
            .ok_or_else(|| {
                format!("{name:?} is not a class: eight, fifteen-easy, fifteen-hard, solitaire")
            })
    }

    fn default_in_flight(self) -> usize {
        match self {
            Class::FifteenHard => 1,
            _ => 64,
        }
    }
}

/// `--mix`: weights per class.
#[derive(Debug, Clone)]
struct Mix(Vec<(Class, usize)>);

fn parse_mix(text: &str) -> Result<Mix, String> {
    let mut mix: Vec<(Class, usize)> = Vec::new();
    for entry in text.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        let (name, weight) = match entry.split_once('=') {
            Some((name, n)) => (
                name.trim(),
                n.trim()
                    .parse::<usize>()
                    .map_err(|e| format!("{entry:?}: {e}"))?,
            ),
            None => (entry, 1),
        };
        let class = Class::parse(name)?;
        if mix.iter().any(|(c, _)| *c == class) {
            return Err(format!("{name} is given twice"));
        }
        mix.push((class, weight));
    }
    mix.retain(|&(_, w)| w > 0);
    if mix.is_empty() {
        return Err("no class has a stream".to_owned());
    }
    Ok(Mix(mix))
}

/// `--in-flight`: a count for all classes and/or per class.
#[derive(Debug, Clone, Default)]
struct InFlight {
    all: Option<usize>,
    per: Vec<(Class, usize)>,
}

impl InFlight {
    fn of(&self, class: Class) -> usize {
        self.per
            .iter()
            .find(|(c, _)| *c == class)
            .map(|&(_, n)| n)
            .or(self.all)
            .unwrap_or_else(|| class.default_in_flight())
    }
}

fn parse_in_flight(text: &str) -> Result<InFlight, String> {
    let count = |n: &str| match n.trim().parse::<usize>() {
        Ok(n) if (1..=1_000_000).contains(&n) => Ok(n),
        Ok(n) => Err(format!("{n} cases in flight: expected 1 to 1000000")),
        Err(e) => Err(format!("{n:?}: {e}")),
    };
    let mut in_flight = InFlight::default();
    for entry in text.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        match entry.split_once('=') {
            Some((name, n)) => in_flight.per.push((Class::parse(name.trim())?, count(n)?)),
            None => in_flight.all = Some(count(entry)?),
        }
    }
    Ok(in_flight)
}

/// Shares `total` streams out over the weighted classes (largest remainders), each class one at
/// least.
fn share_out(mix: &Mix, total: Option<usize>) -> anyhow::Result<Vec<(Class, usize)>> {
    let weights: usize = mix.0.iter().map(|&(_, w)| w).sum();
    let Some(total) = total else {
        return Ok(mix.0.clone());
    };
    if total < mix.0.len() {
        bail!(
            "--streams {total} is fewer than the {} classes of --mix",
            mix.0.len()
        );
    }
    let mut shares: Vec<(Class, usize, usize)> = mix
        .0
        .iter()
        .map(|&(c, w)| (c, total * w / weights, total * w % weights))
        .collect();
    let mut left = total - shares.iter().map(|s| s.1).sum::<usize>();
    let mut order: Vec<usize> = (0..shares.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(shares[i].2));
    for &i in order.iter().cycle() {
        if left == 0 {
            break;
        }
        shares[i].1 += 1;
        left -= 1;
    }
    // Every class asked for gets a stream, taken from the largest.
    while let Some(i) = shares.iter().position(|s| s.1 == 0) {
        let largest = (0..shares.len())
            .max_by_key(|&j| shares[j].1)
            .expect("there are classes");
        shares[largest].1 -= 1;
        shares[i].1 += 1;
    }
    Ok(shares.into_iter().map(|(c, n, _)| (c, n)).collect())
}

/// How much a stream slot sends.
#[derive(Debug, Clone, Copy)]
enum Budget {
    Cases(u64),
    Until(Instant),
}

impl Budget {
    fn allows(self, sent: u64) -> bool {
        match self {
            Budget::Cases(n) => sent < n,
            Budget::Until(end) => Instant::now() < end,
        }
    }
}

/// Everything a run needs, checked before anything starts.
#[derive(Debug)]
struct Plan {
    classes: Vec<(Class, usize, usize)>,
    cases: Option<u64>,
    duration: Duration,
    deadline: Option<Duration>,
    seed: u64,
    connections: usize,
    hard: Arc<[Hard]>,
    metrics: Option<rss::Probe>,
    json: bool,
}

impl Plan {
    fn new(args: Args) -> anyhow::Result<Self> {
        let shares = share_out(&args.mix, args.streams)?;
        let in_flight = args.in_flight.unwrap_or_default();
        if args.connections == 0 {
            bail!("--connections must be at least 1");
        }
        if args.cases == Some(0) {
            bail!("--cases must be at least 1");
        }
        let seed = args.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        });
        Ok(Self {
            classes: shares
                .into_iter()
                .map(|(c, n)| (c, n, in_flight.of(c)))
                .collect(),
            cases: args.cases,
            duration: args.duration.unwrap_or(DEFAULT_DURATION),
            deadline: args.deadline,
            seed,
            connections: args.connections,
            hard: cases::hard_boards(&args.hard)?.into(),
            metrics: args
                .metrics
                .as_deref()
                .map(rss::Probe::metrics)
                .transpose()?,
            json: args.json,
        })
    }

    /// The server tables worth building before the run (not timed).
    fn warm_up(&self) -> Vec<Kind> {
        let mut kinds = Vec::new();
        for &(class, _, _) in &self.classes {
            let kind = match class {
                Class::Eight => Kind::Eight,
                Class::FifteenEasy | Class::FifteenHard => Kind::Fifteen,
                Class::Solitaire => continue,
            };
            if !kinds.contains(&kind) {
                kinds.push(kind);
            }
        }
        kinds
    }
}

/// Runs `load` against `server`, or a server embedded in this process.
///
/// # Errors
/// Bad options, or no server to talk to.
pub(crate) fn run(
    server: Option<&str>,
    data: solver_server::DataDir,
    progress: bool,
    args: Args,
) -> anyhow::Result<ExitCode> {
    let plan = Plan::new(args)?;
    let embedded = match server {
        Some(_) => None,
        None => Some(embedded::Embedded::start(plan.warm_up(), data)?),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the client's runtime")?;
    let report = runtime.block_on(drive(server, embedded.as_ref(), plan, progress))?;
    drop(runtime);
    drop(embedded);
    Ok(if report.interrupted {
        ExitCode::from(130)
    } else if report.wrong() > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// The shared counters of every class.
type Stats = Arc<[Mutex<ClassStats>]>;

fn lock(stats: &Mutex<ClassStats>) -> MutexGuard<'_, ClassStats> {
    stats.lock().unwrap_or_else(PoisonError::into_inner)
}

async fn drive(
    server: Option<&str>,
    embedded: Option<&embedded::Embedded>,
    plan: Plan,
    progress: bool,
) -> anyhow::Result<Report> {
    let (urls, target) = match (server, embedded) {
        (Some(server), _) => (endpoints::resolve(server).await?, server.to_owned()),
        (None, Some(embedded)) => {
            let waited = Instant::now();
            embedded.ready().await?;
            if !plan.json {
                eprintln!(
                    "load: embedded server ready after {:.1} s (not measured)",
                    waited.elapsed().as_secs_f64()
                );
            }
            (vec![embedded.url()], "the embedded server".to_owned())
        }
        (None, None) => bail!("no server to talk to"),
    };
    let mut channels = Vec::new();
    for _ in 0..plan.connections {
        channels.extend(
            endpoints::connect(&urls)
                .await?
                .into_iter()
                .map(|e| e.channel),
        );
    }
    let probe = match (&plan.metrics, embedded) {
        (Some(probe), _) => probe,
        (None, Some(_)) => &rss::Probe::OwnProcess,
        (None, None) => &rss::Probe::Unknown,
    };
    let mut rss = Rss {
        source: probe.source(),
        ..Rss::default()
    };
    rss.sample(probe.read().await, false);

    let stats: Stats = plan
        .classes
        .iter()
        .map(|_| Mutex::new(ClassStats::new()))
        .collect();
    let started = Instant::now();
    let budget = match plan.cases {
        Some(n) => Budget::Cases(n),
        None => Budget::Until(started + plan.duration),
    };
    let mut tasks = tokio::task::JoinSet::new();
    let mut slot = 0usize;
    for (index, &(class, streams, in_flight)) in plan.classes.iter().enumerate() {
        for stream in 0..streams {
            let worker = Worker {
                class,
                channel: channels[slot % channels.len()].clone(),
                budget,
                in_flight,
                deadline: plan.deadline,
                generator: Generator::new(
                    class,
                    plan.seed ^ (slot as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15),
                    stream,
                    Arc::clone(&plan.hard),
                ),
                stats: Arc::clone(&stats),
                index,
                next_id: 0,
                sent: 0,
            };
            slot += 1;
            tasks.spawn(worker.run());
        }
    }

    let mut bar = Bar::new(plan.cases.map(|n| n * slot as u64), plan.duration, progress);
    let mut ticker = tokio::time::interval(Duration::from_millis(100));
    let mut last_rss = Instant::now();
    let mut interrupted = false;
    let mut ctrl_c = std::pin::pin!(tokio::signal::ctrl_c().fuse());
    loop {
        tokio::select! {
            joined = tasks.join_next() => match joined {
                None => break,
                Some(Ok(())) => {}
                Some(Err(e)) => eprintln!("load: a stream's task failed: {e}"),
            },
            _ = ticker.tick() => {
                let (done, errors) = stats.iter().fold((0, 0), |(d, e), s| {
                    let s = lock(s);
                    (d + s.done(), e + s.errors())
                });
                bar.update(started, done, errors);
                if last_rss.elapsed() >= Duration::from_secs(1) {
                    last_rss = Instant::now();
                    rss.sample(probe.read().await, false);
                }
            }
            signal = &mut ctrl_c => {
                if signal.is_ok() {
                    interrupted = true;
                    break;
                }
            }
        }
    }
    let elapsed = started.elapsed();
    bar.clear();
    // Streams still running (interrupted) keep their counters; stop them before reading.
    tasks.abort_all();
    rss.sample(probe.read().await, true);

    let classes = plan
        .classes
        .iter()
        .zip(stats.iter())
        .map(|(&(class, streams, in_flight), stats)| {
            let mut stats = std::mem::replace(&mut *lock(stats), ClassStats::new());
            if interrupted {
                // Cases sent and not answered when the run was cut short.
                stats.unfinished = stats.sent.saturating_sub(stats.done());
            }
            let span = stats.last.map_or(elapsed, |t| t.duration_since(started));
            ClassReport {
                class,
                streams,
                in_flight,
                stats,
                span,
            }
        })
        .collect();
    let report = Report {
        target,
        connections: plan.connections,
        seed: plan.seed,
        deadline: plan.deadline,
        elapsed,
        interrupted,
        classes,
        rss,
    };
    let mut out = std::io::stdout().lock();
    if plan.json {
        writeln!(out, "{}", report.json()).context("writing the summary")?;
    } else {
        write!(out, "{}", report.text()).context("writing the summary")?;
    }
    out.flush().context("writing the summary")?;
    Ok(report)
}

/// A progress bar on stderr (a terminal only): cases done out of all, or time out of the
/// duration.
#[derive(Debug)]
enum Bar {
    Cases(Progress),
    Time {
        duration: Duration,
        enabled: bool,
        drawn: bool,
    },
}

impl Bar {
    fn new(total: Option<u64>, duration: Duration, wanted: bool) -> Self {
        match total {
            Some(total) => Bar::Cases(Progress::new(
                usize::try_from(total).unwrap_or(usize::MAX),
                wanted,
            )),
            None => Bar::Time {
                duration,
                enabled: wanted && std::io::stderr().is_terminal(),
                drawn: false,
            },
        }
    }

    fn update(&mut self, started: Instant, done: u64, errors: u64) {
        match self {
            Bar::Cases(progress) => progress.update(usize::try_from(done).unwrap_or(usize::MAX)),
            Bar::Time {
                duration,
                enabled,
                drawn,
            } => {
                if !*enabled {
                    return;
                }
                let elapsed = started.elapsed();
                let width = progress::WIDTH as f64;
                let filled =
                    ((elapsed.as_secs_f64() / duration.as_secs_f64()) * width).min(width) as usize;
                let bar = progress::bar(filled);
                let mut err = std::io::stderr().lock();
                let _ = write!(
                    err,
                    "\r[{bar}] {:.1}s/{:.0}s, {done} cases done, {errors} errors",
                    elapsed.as_secs_f64(),
                    duration.as_secs_f64()
                );
                let _ = err.flush();
                *drawn = true;
            }
        }
    }

    fn clear(&mut self) {
        match self {
            Bar::Cases(progress) => progress.clear(),
            Bar::Time { drawn, .. } => {
                if std::mem::take(drawn) {
                    let mut err = std::io::stderr().lock();
                    let _ = write!(err, "\r\x1b[2K");
                    let _ = err.flush();
                }
            }
        }
    }
}

/// One stream slot: opens a stream, pipelines its class's cases on it, and replaces it if it
/// fails while its budget lasts.
#[derive(Debug)]
struct Worker {
    class: Class,
    channel: Channel,
    budget: Budget,
    in_flight: usize,
    deadline: Option<Duration>,
    generator: Generator,
    stats: Stats,
    /// The class's index in `stats`.
    index: usize,
    /// The id of the next case (unique over the slot's streams).
    next_id: u64,
    /// Cases sent so far by this slot.
    sent: u64,
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
    async fn run(mut self) {
        let mut failures = 0;
        while self.budget.allows(self.sent) {
            let ended = match self.class {
                Class::Solitaire => {
                    let mut client = self.client();
                    self.stream(cases::solitaire_request, move |requests| {
                        Box::pin(async move { client.solve_solitaire(requests).await })
                    })
                    .await
                }
                Class::Eight => {
                    let mut client = self.client();
                    self.stream(cases::sliding_request, move |requests| {
                        Box::pin(async move { client.solve_eight(requests).await })
                    })
                    .await
                }
                Class::FifteenEasy | Class::FifteenHard => {
                    let mut client = self.client();
                    self.stream(cases::sliding_request, move |requests| {
                        Box::pin(async move { client.solve_fifteen(requests).await })
                    })
                    .await
                }
            };
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

    fn client(&self) -> SolverClient<Channel> {
        SolverClient::new(self.channel.clone()).max_decoding_message_size(MAX_MESSAGE_BYTES)
    }

    fn stats(&self) -> MutexGuard<'_, ClassStats> {
        lock(&self.stats[self.index])
    }

    /// One stream: sends cases while the budget lasts, keeping up to `in_flight` outstanding,
    /// and judges every reply.
    async fn stream<Q, R>(
        &mut self,
        request: fn(u64, &Query) -> Q,
        open: impl FnOnce(
            tonic::Request<ReceiverStream<Q>>,
        ) -> BoxFuture<'static, Result<Response<Streaming<R>>, Status>>,
    ) -> Ended
    where
        Q: Send + 'static,
        R: Reply,
    {
        let (sender, receiver) = mpsc::channel::<Q>(self.in_flight);
        let mut sender = Some(sender);
        let mut pending: HashMap<u64, (Instant, Query)> = HashMap::with_capacity(self.in_flight);
        // The first cases go before the call, so a server that waits for them still answers.
        self.fill(&mut sender, &mut pending, request);
        let mut call = tonic::Request::new(ReceiverStream::new(receiver));
        if let Some(deadline) = self.deadline {
            call.set_timeout(deadline);
        }
        self.stats().opened += 1;
        let mut replies = match open(call).await {
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
                        self.fill(&mut sender, &mut pending, request);
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
    fn stop_sending(&self, pending: &HashMap<u64, (Instant, Query)>) -> Instant {
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
    fn fill<Q>(
        &mut self,
        sender: &mut Option<mpsc::Sender<Q>>,
        pending: &mut HashMap<u64, (Instant, Query)>,
        request: fn(u64, &Query) -> Q,
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
            if channel.try_send(request(id, &query)).is_err() {
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

    fn judge<R: Reply>(&mut self, reply: R, pending: &mut HashMap<u64, (Instant, Query)>) {
        let now = Instant::now();
        let Some((sent_at, query)) = pending.remove(&reply.id()) else {
            let id = reply.id();
            let mut stats = self.stats();
            stats.wrong += 1;
            stats.example(format!("a reply for id {id}, which is not outstanding"));
            return;
        };
        let verdict = reply.verdict(&query);
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
        pending: &mut HashMap<u64, (Instant, Query)>,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mixes_and_shares() {
        let mix = parse_mix("eight=4,fifteen-easy=2,fifteen-hard=1,solitaire").unwrap();
        assert_eq!(share_out(&mix, None).unwrap()[0], (Class::Eight, 4));
        let shares = share_out(&mix, Some(16)).unwrap();
        assert_eq!(shares.iter().map(|s| s.1).collect::<Vec<_>>(), [8, 4, 2, 2]);
        let shares = share_out(&mix, Some(5)).unwrap();
        assert_eq!(shares.iter().map(|s| s.1).sum::<usize>(), 5);
        assert!(shares.iter().all(|s| s.1 >= 1));
        assert!(share_out(&mix, Some(3)).is_err());
        assert!(parse_mix("eight=1,eight=2").is_err());
        assert!(parse_mix("nine").is_err());
        assert!(parse_mix("eight=0").is_err());
    }

    #[test]
    fn in_flight_counts() {
        let in_flight = parse_in_flight("8,fifteen-hard=2").unwrap();
        assert_eq!(in_flight.of(Class::Eight), 8);
        assert_eq!(in_flight.of(Class::FifteenHard), 2);
        assert_eq!(InFlight::default().of(Class::FifteenHard), 1);
        assert_eq!(InFlight::default().of(Class::Solitaire), 64);
        assert!(parse_in_flight("0").is_err());
    }
}
