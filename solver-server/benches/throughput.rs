//! Throughput of 3×3 cases through a real server over loopback, on one stream and on several,
//! with the cache off and on.
//!
//! ```sh
//! cargo bench -p solver-server --bench throughput                # defaults
//! cargo bench -p solver-server --bench throughput -- --cases 1000000 --runs 5 --streams 4
//! # a cache that fills (5,000 entries for 20,000 boards: evicted keys keep coming back) and
//! # a large one, each against the cache off:
//! cargo bench -p solver-server --bench throughput -- --cache 5000,1000000
//! ```
//!
//! Client and server share this process (and the machine's cores), as a sidecar client would.
//! Each configuration sends `--cases` cases drawn from a pool of 20,000 distinct boards and
//! reports the median, minimum and maximum rate over `--runs` runs, and the CPU time of the whole
//! process (client and server together) per case over all runs, which other load on the machine
//! disturbs less than the rate. `--cache` lists the cache sizes to try after the cache off.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::StreamExt as _;
use solver_core::{Board3, Move};
use solver_server::pb::solver_client::SolverClient;
use solver_server::pb::{self, sliding_reply};
use solver_server::{Config, Kind};
use solver_test_support::rng::Lcg;
use solver_test_support::server::TestServer;

struct Options {
    cases: usize,
    runs: usize,
    streams: usize,
    caches: Vec<usize>,
}

fn options() -> Options {
    let mut options = Options {
        cases: 500_000,
        runs: 5,
        streams: 4,
        caches: vec![1_000_000],
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = || -> usize {
            args.get(i + 1)
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{} needs a number", args[i]))
        };
        match args[i].as_str() {
            "--cases" => options.cases = value(),
            "--runs" => options.runs = value(),
            "--streams" => options.streams = value(),
            "--cache" => {
                options.caches = args
                    .get(i + 1)
                    .map(|list| list.split(',').map(str::parse).collect())
                    .and_then(Result::ok)
                    .unwrap_or_else(|| panic!("--cache needs a comma-separated list of sizes"));
            }
            // `cargo bench` passes `--bench`; other harness flags do not apply.
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    options
}

/// 20,000 distinct solvable boards, by random walks from the goal.
fn pool() -> Vec<Vec<u32>> {
    let mut seen = std::collections::HashSet::new();
    let mut rng = Lcg::new(0x2545_f491_4f6c_dd1d);
    let mut board = Board3::goal();
    while seen.len() < 20_000 {
        for _ in 0..7 {
            if let Some(next) = board.apply(Move::ALL[rng.below(4)]) {
                board = next;
            }
        }
        seen.insert(board);
    }
    seen.iter()
        .map(|b| b.cells().iter().map(|&c| u32::from(c)).collect())
        .collect()
}

/// CPU time (user and system) of this whole process so far, in seconds, where `/proc` tells.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name, which is in parentheses and may hold spaces.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    // `USER_HZ`, 100 on every Linux configuration this runs on.
    Some(ticks / 100.0)
}

async fn start(cache_entries: usize) -> TestServer {
    let mut config = Config::default();
    config.limits.cache_entries = cache_entries;
    config.tables.warm_up = vec![Kind::Eight].into();
    TestServer::start(config).await
}

/// Sends `cases` cases on one stream and checks every reply is a solution; returns the count.
async fn one_stream(addr: SocketAddr, pool: Arc<[Vec<u32>]>, first: usize, cases: usize) -> usize {
    let mut client = SolverClient::connect(format!("http://{addr}"))
        .await
        .unwrap()
        .max_decoding_message_size(1 << 20);
    let requests = futures::stream::iter((first..first + cases).map(move |i| pb::SlidingRequest {
        id: i as u64,
        start: pool[i % pool.len()].clone(),
        target: Vec::new(),
        node_budget: 0,
    }));
    let mut replies = client.solve_eight(requests).await.unwrap().into_inner();
    let mut answered = 0;
    while let Some(reply) = replies.next().await {
        let reply = reply.unwrap();
        assert!(
            matches!(reply.outcome, Some(sliding_reply::Outcome::Solution(_))),
            "{reply:?}"
        );
        answered += 1;
    }
    answered
}

async fn run(addr: SocketAddr, pool: &Arc<[Vec<u32>]>, streams: usize, cases: usize) -> f64 {
    let per_stream = cases / streams;
    let started = Instant::now();
    let tasks: Vec<_> = (0..streams)
        .map(|s| {
            tokio::spawn(one_stream(
                addr,
                Arc::clone(pool),
                s * per_stream,
                per_stream,
            ))
        })
        .collect();
    let mut answered = 0;
    for task in tasks {
        answered += task.await.unwrap();
    }
    assert_eq!(answered, per_stream * streams);
    answered as f64 / started.elapsed().as_secs_f64()
}

fn main() {
    let options = options();
    let pool: Arc<[Vec<u32>]> = pool().into();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        println!(
            "3x3 cases per second through solver-server over loopback ({} cases per run, {} runs, {} CPUs)",
            options.cases,
            options.runs,
            std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
        );
        println!(
            "{:>8} {:>8} {:>12} {:>12} {:>12} {:>12}",
            "streams", "cache", "median", "min", "max", "cpu us/case"
        );
        let sizes: Vec<usize> = std::iter::once(0).chain(options.caches.iter().copied()).collect();
        for streams in [1, options.streams] {
            for &entries in &sizes {
                let label = if entries == 0 {
                    "off".to_owned()
                } else {
                    entries.to_string()
                };
                let server = start(entries).await;
                let addr = server.addr;
                // Warm up: tables, connections, and (cache on) the cache itself.
                run(addr, &pool, streams, pool.len().max(streams)).await;
                let mut rates = Vec::new();
                let cpu_before = cpu_seconds();
                for _ in 0..options.runs {
                    rates.push(run(addr, &pool, streams, options.cases).await);
                }
                let cpu = cpu_before.zip(cpu_seconds()).map_or_else(
                    || "-".to_owned(),
                    |(before, after)| {
                        let cases = (options.cases / streams * streams * options.runs) as f64;
                        format!("{:.2}", (after - before) * 1e6 / cases)
                    },
                );
                rates.sort_by(f64::total_cmp);
                println!(
                    "{streams:>8} {label:>8} {:>12.0} {:>12.0} {:>12.0} {cpu:>12}",
                    rates[rates.len() / 2],
                    rates[0],
                    rates[rates.len() - 1]
                );
                server.stop().await.unwrap();
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    });
}
