//! `solver-client load`: many concurrent streams of easy and hard cases against a server, with
//! per-class latency percentiles, throughput, errors by gRPC code and the server's memory.
//!
//! Each stream belongs to one class of cases (`eight`, `fifteen-easy`, `fifteen-hard`,
//! `solitaire`, `shapes`) and pipelines them: it keeps up to its in-flight count of cases sent and not yet
//! answered, sending the next one as each reply comes. A case's latency runs from handing its
//! request to the stream to reading its reply; every reply is checked cheaply (moves replayed)
//! and a wrong one counts as an error. A stream that fails is counted under its status and, while
//! its share of the run (cases or time) lasts, replaced by a new one.

mod args;
mod bar;
pub(crate) mod cases;
mod class;
pub(crate) mod hard;
mod plan;
mod report;
mod rss;
mod wire;
mod worker;

use std::io::Write as _;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use futures::FutureExt as _;

pub(crate) use self::args::Args;
use self::bar::Bar;
use self::class::Generator;
use self::plan::{Budget, Plan};
use self::report::{ClassReport, ClassStats, Report, Rss, Stats, lock};
use self::worker::Worker;
use crate::link::Link;
use crate::{embedded, endpoints};

/// Runs `load` against `server`, or a server embedded in this process.
///
/// # Errors
/// Bad options, or no server to talk to.
pub(crate) fn run(
    server: Option<&str>,
    link: &Arc<Link>,
    data: solver_store::DataDir,
    progress: bool,
    args: Args,
) -> anyhow::Result<ExitCode> {
    let plan = Plan::new(args, link.timeout)?;
    let embedded = match server {
        Some(_) => None,
        None => Some(embedded::Embedded::start(plan.warm_up(), data)?),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the client's runtime")?;
    let report = runtime.block_on(drive(server, link, embedded.as_ref(), plan, progress))?;
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

async fn drive(
    server: Option<&str>,
    link: &Arc<Link>,
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
            let address = endpoints::Address {
                url: embedded.url(),
                host: "127.0.0.1".to_owned(),
            };
            (vec![address], "the embedded server".to_owned())
        }
        (None, None) => bail!("no server to talk to"),
    };
    let mut channels = Vec::new();
    for _ in 0..plan.connections {
        channels.extend(endpoints::connect(&urls, link).await?);
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
                endpoint: channels[slot % channels.len()].clone(),
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
