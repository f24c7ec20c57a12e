//! What a hostile or careless client sends, scaled down (issue 23): huge scrambles, floods of
//! bounded searches beside another client's cheap calls, deadlines that pass mid-search, and
//! cases waiting for a table build. Each is answered within its own limits, and nobody else
//! waits on it.

use std::time::{Duration, Instant};

use solver_core::Board3;
use solver_core::tiles::grid::Grid;
use solver_core::tiles::grid_board::GridBoard;
use solver_proto::v2::{
    ScrambleRequest, SlidingPuzzle, SolveRequest, VerifyRequest, solve_request,
};
use tokio_stream::StreamExt as _;
use tonic::Code;

use crate::common::{Lcg, TestServer, config, config_with, far_board, goal3, grid_request};

fn eight_request(start: &Board3) -> SolveRequest {
    SolveRequest {
        id: String::new(),
        puzzle: Some(solve_request::Puzzle::Sliding(SlidingPuzzle {
            rows: 3,
            cols: 3,
            start: start.cells().iter().map(|&c| u32::from(c)).collect(),
            target: Vec::new(),
        })),
        ..SolveRequest::default()
    }
}

/// A scramble asking for a walk of a billion moves on a shape whose radius is unknown was
/// walked on the async runtime before it reached the scheduler: two froze the server. Now
/// anything past `rows·cols·(rows+cols)` is refused at once, naming the field.
#[tokio::test]
async fn scrambles_too_far_to_exist_are_refused_at_once() {
    let server = TestServer::start(config()).await;
    let mut client = server.client_v2().await;
    for (rows, cols, distance) in [(5, 5, 1_000_000_000), (3, 6, 1_000_000_000), (5, 5, 251)] {
        let started = Instant::now();
        let status = client
            .scramble(ScrambleRequest {
                rows,
                cols,
                distance,
                seed: 1,
            })
            .await
            .unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
        assert!(status.message().contains("distance"), "{status:?}");
        assert!(started.elapsed() < Duration::from_secs(2));
    }
    // The limit itself may be asked (and far shapes' near distances are answered).
    let near = client
        .scramble(ScrambleRequest {
            rows: 5,
            cols: 5,
            distance: 6,
            seed: 3,
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(near.distance, 6);
}

/// Upper-case move letters are not the contract's: `Verify` refuses them, naming the move.
#[tokio::test]
async fn verify_refuses_upper_case_moves() {
    let server = TestServer::start(config()).await;
    let mut client = server.client_v2().await;
    let start = goal3().apply(solver_core::Move::Up).unwrap();
    let request = |moves: &str| VerifyRequest {
        rows: 3,
        cols: 3,
        start: start.cells().iter().map(|&c| u32::from(c)).collect(),
        target: Vec::new(),
        moves: moves.to_owned(),
        ..VerifyRequest::default()
    };
    assert!(
        client
            .verify(request("d"))
            .await
            .unwrap()
            .into_inner()
            .legal
    );
    let status = client.verify(request("D")).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(status.message().contains("lower-case"), "{status:?}");
}

/// Sends a 3×3 case every 50 ms from a connection of its own while `flood` runs, and returns
/// the longest time one took.
async fn cheap_calls_beside(server: &TestServer, flood: impl Future<Output = ()>) -> Duration {
    let mut cheap = server.client_v2().await;
    // Connected and warm before the flood starts.
    let board = goal3().apply(solver_core::Move::Up).unwrap();
    cheap.solve(eight_request(&board)).await.unwrap();
    let probe = async {
        let mut worst = Duration::ZERO;
        for _ in 0..30 {
            let started = Instant::now();
            let answer = cheap
                .solve(eight_request(&board))
                .await
                .unwrap()
                .into_inner();
            worst = worst.max(started.elapsed());
            assert!(answer.outcome.is_some());
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        worst
    };
    let (worst, ()) = tokio::join!(probe, flood);
    worst
}

/// Bounded 5×5 searches (weighted A*, hundreds of milliseconds each) from one client, unary
/// and on one stream, no longer hold a worker for their whole run: another client's 3×3 calls
/// wait at most a few slices. (Before they were sliced, one 3×3 call waited behind every one
/// of them; and a client's many unary calls were as many shares of the CPU.) The server's and
/// the clients' I/O on two runtime threads, so that one thread's stall on a loaded machine is
/// not taken for a wait in the scheduler.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bounded_searches_do_not_starve_another_clients_cheap_calls() {
    let server = TestServer::start(config_with(|config| config.scheduling.workers = 2)).await;
    let grid = Grid::new(5, 5).unwrap();
    let mut rng = Lcg::new(23);
    let boards: Vec<GridBoard> = (0..8).map(|_| far_board(grid, &mut rng)).collect();

    let unary = async {
        let calls = boards.iter().map(|board| {
            let server = &server;
            async move {
                let mut client = server.client_v2().await;
                client.solve(grid_request(board, 1.5)).await.unwrap()
            }
        });
        for answer in futures::future::join_all(calls).await {
            assert!(answer.into_inner().outcome.is_some());
        }
    };
    let worst = cheap_calls_beside(&server, unary).await;
    assert!(
        worst < Duration::from_millis(400),
        "a 3x3 call waited {worst:?} beside unary bounded searches"
    );

    let stream = async {
        let mut client = server.client_v2().await;
        let requests: Vec<SolveRequest> = boards.iter().map(|b| grid_request(b, 1.5)).collect();
        let mut replies = client
            .solve_stream(tokio_stream::iter(requests))
            .await
            .unwrap()
            .into_inner();
        let mut answered = 0;
        while let Some(reply) = replies.next().await {
            assert!(reply.unwrap().outcome.is_some());
            answered += 1;
        }
        assert_eq!(answered, boards.len());
    };
    let worst = cheap_calls_beside(&server, stream).await;
    assert!(
        worst < Duration::from_millis(400),
        "a 3x3 call waited {worst:?} beside a stream of bounded searches"
    );
}

/// The `grpc-status` of one unary `Solve` sent over a bare HTTP/2 connection with
/// `grpc-timeout: timeout` (tonic's client would end the call itself when the timeout passes).
async fn status_with_timeout(server: &TestServer, request: &SolveRequest, timeout: &str) -> String {
    use prost::Message as _;
    let tcp = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let (mut send, connection) = h2::client::handshake(tcp).await.unwrap();
    tokio::spawn(connection);
    let head = http::Request::post(format!(
        "http://{}/solver.v2.SolverService/Solve",
        server.addr
    ))
    .header("content-type", "application/grpc")
    .header("te", "trailers")
    .header("grpc-timeout", timeout)
    .body(())
    .unwrap();
    let (response, mut body) = send.send_request(head, false).unwrap();
    let message = request.encode_to_vec();
    let mut frame = vec![0u8];
    frame.extend_from_slice(&u32::try_from(message.len()).unwrap().to_be_bytes());
    frame.extend_from_slice(&message);
    body.send_data(frame.into(), true).unwrap();
    let response = tokio::time::timeout(Duration::from_secs(10), response)
        .await
        .expect("the server answers")
        .unwrap();
    let status = |headers: &http::HeaderMap| {
        headers
            .get("grpc-status")
            .map(|v| v.to_str().unwrap().to_owned())
    };
    if let Some(status) = status(response.headers()) {
        return status; // trailers only
    }
    let mut body = response.into_body();
    while let Some(data) = body.data().await {
        data.unwrap();
    }
    status(&body.trailers().await.unwrap().expect("trailers")).expect("grpc-status")
}

/// A unary call whose deadline passes mid-search ends DEADLINE_EXCEEDED (4), every time, and so
/// does one sent with a zero timeout: tonic's own timer on the server used to end some (and
/// every zero timeout) CANCELLED (1).
#[tokio::test]
async fn passed_deadlines_end_deadline_exceeded() {
    let server = TestServer::start(config()).await;
    let grid = Grid::new(5, 5).unwrap();
    let mut rng = Lcg::new(5);
    for timeout in [
        "150m", "0n", "80m", "1m", "30m", "0n", "2m", "200m", "10m", "5m", "120m",
    ] {
        let request = grid_request(&far_board(grid, &mut rng), 0.0);
        let status = status_with_timeout(&server, &request, timeout).await;
        assert_eq!(status, "4", "grpc-timeout {timeout}");
    }
}

/// A case waiting for its shape's databases to be built obeys its own time limit: it used to
/// wait for the whole build, outside every limit.
#[tokio::test]
async fn waiting_for_a_table_build_obeys_the_case_limit() {
    let data = tempfile_dir("wait-for-build");
    let server = TestServer::start(config_with(|config| {
        config.tables.data_dir = Some(data.clone());
        config.cases.timeout = Duration::from_millis(50);
    }))
    .await;
    let mut client = server.client_v2().await;
    let grid = Grid::new(4, 5).unwrap();
    let board = far_board(grid, &mut Lcg::new(8));
    let started = Instant::now();
    let status = client.solve(grid_request(&board, 0.0)).await.unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "answered after {:?}",
        started.elapsed()
    );
    let _ = std::fs::remove_dir_all(&data);
}

/// An empty directory of its own under the target directory.
fn tempfile_dir(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A search stopped by its node budget says how far it got: the lower bound its last complete
/// iteration proved, in the message and in an `ErrorInfo` (with the nodes), so a caller can ask
/// again with more time or a ratio.
#[tokio::test]
async fn a_stopped_search_says_what_it_proved() {
    use solver_proto::tonic_types::StatusExt as _;
    let server = TestServer::start(config()).await;
    let mut client = server.client_v2().await;
    let grid = Grid::new(5, 5).unwrap();
    let board = far_board(grid, &mut Lcg::new(77));
    let mut request = grid_request(&board, 0.0);
    request.limits = Some(solver_proto::v2::Limits {
        node_budget: 300_000,
    });
    let status = client.solve(request).await.unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    let info = status.get_details_error_info().expect("an ErrorInfo");
    assert_eq!(info.reason, "NODE_BUDGET");
    assert_eq!(info.metadata["nodes"], "300001");
    let bound: u32 = info.metadata["lower_bound"].parse().unwrap();
    // A random 5×5 board is far: its Manhattan distance alone is well above 40.
    assert!(bound > 40, "{info:?}");
    assert!(
        status
            .message()
            .contains(&format!("the optimum is at least {bound} moves")),
        "{status:?}"
    );
}
