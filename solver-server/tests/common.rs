//! Starting servers, talking to them, reading their metrics, and making cases.

use std::collections::HashMap;
use std::net::SocketAddr;

use solver_core::tiles::bfs;
use solver_core::{Board, Board3, Board4, Move, format_moves};
use solver_proto::v2::solver_service_client::SolverServiceClient;
use solver_server::pb::solver_client::SolverClient;
use solver_server::pb::{self, sliding_reply};
use solver_server::{Config, ServeError};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tonic::transport::Channel;

/// A server running in this process on 127.0.0.1, with its metrics endpoint.
pub(crate) struct TestServer {
    pub(crate) addr: SocketAddr,
    pub(crate) metrics: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<Result<(), ServeError>>,
}

/// The test configuration: no warm-up (tests that need tables get them on first use), and the
/// tests' own data directory, never the user's cache, where the 7-8 set is never built (minutes
/// and 2 GB; the 6-6-3 answers are the ones tests expect).
pub(crate) fn config() -> Config {
    Config {
        warm_up: Vec::new().into(),
        data_dir: Some(test_data_dir()),
        build_databases: false,
        ..Config::default()
    }
}

/// The data directory every test shares, under the target directory: databases a test builds
/// are stored there (atomically) and loaded by later tests and runs, as in production.
pub(crate) fn test_data_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("data")
}

/// A free local port for the metrics endpoint (bound and released; good enough for tests).
fn free_port() -> SocketAddr {
    let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    probe.local_addr().unwrap()
}

impl TestServer {
    pub(crate) async fn start(mut config: Config) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let metrics = free_port();
        config.metrics_listen = Some(metrics);
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(solver_server::serve(listener, config, async {
            let _ = stopped.await;
        }));
        Self {
            addr,
            metrics,
            stop: Some(stop),
            task,
        }
    }

    pub(crate) async fn channel(&self) -> Channel {
        Channel::from_shared(format!("http://{}", self.addr))
            .unwrap()
            .connect()
            .await
            .unwrap()
    }

    pub(crate) async fn client(&self) -> SolverClient<Channel> {
        SolverClient::new(self.channel().await)
    }

    /// A client of `solver.v2.SolverService`.
    pub(crate) async fn client_v2(&self) -> SolverServiceClient<Channel> {
        SolverServiceClient::new(self.channel().await)
    }

    /// Begins shutdown (like SIGTERM) without waiting.
    pub(crate) fn begin_shutdown(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }

    /// Shuts down and waits for `serve` to return.
    pub(crate) async fn stop(mut self) -> Result<(), ServeError> {
        self.begin_shutdown();
        self.task.await.unwrap()
    }

    /// The whole `/metrics` text.
    pub(crate) async fn scrape(&self) -> String {
        let mut stream = TcpStream::connect(self.metrics).await.unwrap();
        stream
            .write_all(b"GET /metrics HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
            .await
            .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).await.unwrap();
        assert!(response.starts_with("HTTP/1.1 200"), "{response}");
        response
    }

    /// The value of the series named exactly `series` (name and labels), 0 if absent.
    pub(crate) async fn metric(&self, series: &str) -> f64 {
        let text = self.scrape().await;
        text.lines()
            .find_map(|line| {
                line.strip_prefix(series)
                    .and_then(|rest| rest.strip_prefix(' '))
            })
            .map_or(0.0, |value| value.trim().parse().unwrap())
    }
}

/// A tiny deterministic generator for test cases.
pub(crate) struct Lcg(u64);

impl Lcg {
    pub(crate) fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        usize::try_from((self.0 >> 33) % n as u64).unwrap()
    }
}

/// The board `steps` random legal moves away from `from`.
pub(crate) fn walk<const W: usize>(from: Board<W>, steps: usize, rng: &mut Lcg) -> Board<W> {
    let mut board = from;
    for _ in 0..steps {
        loop {
            if let Some(next) = board.apply(Move::ALL[rng.below(4)]) {
                board = next;
                break;
            }
        }
    }
    board
}

pub(crate) fn cells<const W: usize>(board: &Board<W>) -> Vec<u32> {
    board.cells().iter().map(|&c| u32::from(c)).collect()
}

pub(crate) fn sliding(id: u64, start: &[u32], target: &[u32]) -> pb::SlidingRequest {
    pb::SlidingRequest {
        id,
        start: start.to_vec(),
        target: target.to_vec(),
        node_budget: 0,
    }
}

/// Korf's instance `id` (1-based) from the fixture, and its optimal length.
pub(crate) fn korf(id: usize) -> (Board4, usize) {
    let line = include_str!("fixtures/korf100.txt")
        .lines()
        .filter(|line| !line.starts_with('#'))
        .nth(id - 1)
        .unwrap();
    let numbers: Vec<u64> = line
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(numbers[0], id as u64);
    (
        Board4::from_cells(&numbers[2..]).unwrap(),
        usize::try_from(numbers[1]).unwrap(),
    )
}

/// The moves of a solved reply, checked: they replay from `start` to `target`.
pub(crate) fn checked_moves<const W: usize>(
    reply: &pb::SlidingReply,
    start: &Board<W>,
    target: &Board<W>,
) -> String {
    let Some(sliding_reply::Outcome::Solution(solution)) = &reply.outcome else {
        panic!("case {} not solved: {reply:?}", reply.id);
    };
    let moves = solver_core::parse_moves(&solution.moves).unwrap();
    assert_eq!(
        start.replay(&moves).unwrap(),
        *target,
        "case {}: {} does not reach the target",
        reply.id,
        solution.moves
    );
    assert_eq!(solution.length as usize, moves.len());
    solution.moves.clone()
}

/// The 3×3 goal.
pub(crate) fn goal3() -> Board3 {
    Board3::goal()
}

/// A 15-puzzle case that takes far longer than any test: one of the boards 80 moves (the
/// puzzle's diameter) from the goal, which the 6-6-3 databases the tests use need over half a
/// minute of both cores to solve. Solvable, so only a stop or a budget ends its search early.
pub(crate) fn endless() -> (Board4, Board4) {
    let start = Board4::from_cells(&[0u8, 12, 9, 13, 15, 11, 10, 14, 3, 7, 2, 5, 4, 8, 6, 1])
        .expect("a board");
    assert!(start.can_reach(&Board4::goal()));
    (start, Board4::goal())
}

/// The oracle: exact distances to `target` of every board that can reach it, by plain BFS
/// (3×3 only: 181,440 boards).
pub(crate) fn distances3(target: Board3) -> HashMap<Board3, u32> {
    bfs::distances(target, u32::MAX)
}

/// The lexicographically smallest optimal path from `start`, given the oracle's distances to the
/// target: at every step the first move (`d, l, r, u`) that gets one closer.
pub(crate) fn oracle_path(start: Board3, dist: &HashMap<Board3, u32>) -> String {
    format_moves(&bfs::smallest_path(start, dist).expect("the start can reach the target"))
}
