//! Sharing the CPU: cheap cases are answered while hard searches of other streams run; every
//! gauge returns to zero however a stream ends; shutdown answers what was read.

use std::time::{Duration, Instant};

use futures::StreamExt as _;
use solver_core::Board4;
use solver_server::Kind;
use solver_server::pb::{self, sliding_reply, solitaire_reply};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::Code;

use solver_core::tiles::grid::Grid;

use crate::common::{
    Lcg, TestServer, cells, config_with, endless, far_board, goal3, grid_request, sliding, walk,
    warm_up,
};

const RUNNING: &str = r#"solver_searches_running{kind="fifteen"}"#;

/// Polls `series` until it equals `value`.
async fn wait_for(server: &TestServer, series: &str, value: f64, limit: Duration) {
    let started = Instant::now();
    loop {
        let now = server.metric(series).await;
        if now == value {
            return;
        }
        assert!(
            started.elapsed() < limit,
            "{series} is {now}, not {value}, after {limit:?}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Every gauge that counts work is back at zero.
async fn all_idle(server: &TestServer) {
    let mut series: Vec<String> = ["eight", "fifteen", "solitaire"]
        .iter()
        .flat_map(|kind| {
            [
                format!(r#"solver_cases_in_flight{{kind="{kind}"}}"#),
                format!(r#"solver_searches_running{{kind="{kind}"}}"#),
            ]
        })
        .collect();
    series.extend(
        [
            "solver_streams_open",
            "solver_scheduler_busy",
            "solver_scheduler_waiting",
        ]
        .map(String::from),
    );
    // Generous: the point is that every gauge gets back to zero, and the tests of the other
    // files share the two cores meanwhile (one run took over 5 s with all of them running).
    for name in &series {
        wait_for(server, name, 0.0, Duration::from_secs(30)).await;
    }
}

/// Opens a stream of `count` copies of the 80-move board that stays open; returns the sender
/// and the reply stream, which the caller drops to cancel.
async fn hard_stream(
    server: &TestServer,
    count: u64,
) -> (
    mpsc::Sender<pb::SlidingRequest>,
    tonic::Streaming<pb::SlidingReply>,
) {
    let (tx, rx) = mpsc::channel(16);
    let (hard, target) = endless();
    for id in 0..count {
        tx.send(sliding(id, &cells(&hard), &cells(&target)))
            .await
            .unwrap();
    }
    let replies = server
        .client()
        .await
        .solve_fifteen(ReceiverStream::new(rx))
        .await
        .unwrap()
        .into_inner();
    (tx, replies)
}

/// A server of two tokens and no cache (every hard case searches), once the 15-puzzle
/// databases the cheap cases use are built: building them cannot be stopped, so it happens
/// before any timing starts.
async fn busy_server() -> TestServer {
    warm_up(Kind::Fifteen).await;
    TestServer::start(config_with(|config| {
        config.scheduling.workers = 2;
        config.limits.cache_entries = 0;
    }))
    .await
}

/// The one reply of a call that sent one case.
async fn only_reply<T>(call: Result<tonic::Response<tonic::Streaming<T>>, tonic::Status>) -> T {
    let mut replies = call.unwrap().into_inner();
    replies.next().await.expect("a reply").unwrap()
}

/// An easy 15-puzzle case and a Solitaire case on a new connection: both answered.
async fn easy_cases(server: &TestServer) {
    let mut client = server.client().await;
    let easy: Board4 = "1 2 3 4 5 6 7 8 9 10 11 12 13 0 14 15".parse().unwrap();
    let reply = only_reply(
        client
            .solve_fifteen(tokio_stream::iter(vec![sliding(1, &cells(&easy), &[])]))
            .await,
    )
    .await;
    assert!(
        matches!(&reply.outcome, Some(sliding_reply::Outcome::Solution(s)) if s.moves == "rr"),
        "{reply:?}"
    );
    let square = |row, col| pb::Square { row, col };
    let request = pb::SolitaireRequest {
        id: 2,
        start: vec![square(4, 4), square(4, 5), square(4, 6), square(4, 7)],
        end: vec![square(2, 4), square(2, 5), square(2, 6), square(2, 7)],
        max_moves: 8,
    };
    let reply = only_reply(
        client
            .solve_solitaire(tokio_stream::iter(vec![request]))
            .await,
    )
    .await;
    assert!(
        matches!(&reply.outcome, Some(solitaire_reply::Outcome::Solution(_))),
        "{reply:?}"
    );
}

/// Two 80-move searches of one client hold both workers; another client's cheap cases are
/// answered while they still run (before, they waited for the searches to end). The same with
/// 20 streams of 5 hard cases each.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cheap_cases_are_answered_while_hard_searches_run() {
    let server = busy_server().await;
    let (tx, replies) = hard_stream(&server, 2).await;
    wait_for(&server, RUNNING, 2.0, Duration::from_secs(10)).await;
    easy_cases(&server).await;
    assert_eq!(server.metric(RUNNING).await, 2.0, "a hard search ended");
    drop((tx, replies));
    all_idle(&server).await;

    let mut hard = Vec::new();
    for _ in 0..20 {
        hard.push(hard_stream(&server, 5).await);
    }
    wait_for(&server, RUNNING, 100.0, Duration::from_secs(10)).await;
    easy_cases(&server).await;
    assert_eq!(server.metric(RUNNING).await, 100.0, "a hard search ended");
    drop(hard);
    all_idle(&server).await;
    server.stop().await.unwrap();
}

/// A client that sends thousands of cases without reading a reply and then leaves, while the
/// server is blocked sending to it: nothing stays counted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gauges_return_to_zero_when_a_stalled_client_leaves() {
    let server = TestServer::start(config_with(|config| {
        config.scheduling.window = 64;
        config.scheduling.batch = 16;
    }))
    .await;
    let mut rng = Lcg::new(7);
    // Half of them unsolvable: those are answered by the stream's own task, which is what
    // blocks when the client stops reading.
    let requests: Vec<_> = (0..20_000)
        .map(|id| {
            let mut board = cells(&walk(goal3(), 30, &mut rng));
            if id % 2 == 0 {
                let (a, b) = if board[0] != 0 && board[1] != 0 {
                    (0, 1)
                } else {
                    (7, 8)
                };
                board.swap(a, b);
            }
            sliding(id, &board, &[])
        })
        .collect();
    for _round in 0..3 {
        let mut client = server.client().await;
        let replies = client
            .solve_eight(tokio_stream::iter(requests.clone()))
            .await
            .unwrap()
            .into_inner();
        // Let the window and the reply channel fill up, then leave without reading.
        tokio::time::sleep(Duration::from_millis(500)).await;
        drop(replies);
        drop(client);
        all_idle(&server).await;
    }
    server.stop().await.unwrap();
}

/// Shutdown with two hard searches running and 200 quick cases read behind them: the quick
/// cases are answered, the hard ones cancelled when the grace period ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_answers_the_quick_cases_behind_hard_searches() {
    // The 15-puzzle databases, built before the timing starts (building them cannot be stopped).
    warm_up(Kind::Fifteen).await;
    let mut server = TestServer::start(config_with(|config| {
        config.scheduling.workers = 2;
        config.shutdown.grace_period = Duration::from_secs(2);
    }))
    .await;
    let (hard, target) = endless();
    let mut rng = Lcg::new(11);
    let mut requests = vec![
        sliding(0, &cells(&hard), &cells(&target)),
        sliding(1, &cells(&hard), &cells(&target)),
    ];
    for id in 2..202 {
        let start = walk(Board4::goal(), 20, &mut rng);
        requests.push(sliding(id, &cells(&start), &[]));
    }
    let mut client = server.client().await;
    let (tx, rx) = mpsc::channel(256);
    for request in requests {
        tx.send(request).await.unwrap();
    }
    let mut replies = client
        .solve_fifteen(ReceiverStream::new(rx))
        .await
        .unwrap()
        .into_inner();
    wait_for(&server, RUNNING, 2.0, Duration::from_secs(10)).await;
    server.begin_shutdown();
    let mut quick = 0;
    let mut end = None;
    while let Some(item) = replies.next().await {
        match item {
            Ok(reply) if reply.id >= 2 => {
                assert!(
                    matches!(reply.outcome, Some(sliding_reply::Outcome::Solution(_))),
                    "{reply:?}"
                );
                quick += 1;
            }
            Ok(reply) => {
                assert!(
                    matches!(reply.outcome, Some(sliding_reply::Outcome::Error(_))),
                    "{reply:?}"
                );
            }
            Err(status) => {
                end = Some(status.code());
                break;
            }
        }
    }
    assert_eq!(quick, 200);
    assert_eq!(end, Some(Code::Unavailable));
    drop(tx);
    server.stop().await.unwrap();
}

/// A hard search of a shape that is split (5×5, optimal) takes the second token too while it is
/// alone, yet another client's cheap cases are still answered while it runs; when its caller
/// leaves, its helper goes too and every gauge returns to zero.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_split_search_leaves_cheap_cases_their_turn() {
    let server = busy_server().await;
    let far = far_board(Grid::new(5, 5).unwrap(), &mut Lcg::new(5));
    let mut client = server.client_v2().await;
    // Optimal, without the 977 MB databases: far longer than the test.
    let call = tokio::spawn(async move { client.solve(grid_request(&far, 0.0)).await });
    wait_for(
        &server,
        "solver_search_helpers_total",
        1.0,
        Duration::from_secs(60),
    )
    .await;
    wait_for(
        &server,
        "solver_scheduler_busy",
        2.0,
        Duration::from_secs(10),
    )
    .await;
    easy_cases(&server).await;
    assert!(
        !call.is_finished(),
        "the hard search ended: {:?}",
        call.await
    );
    let sliding = r#"solver_cases_in_flight{kind="sliding"}"#;
    assert_eq!(server.metric(sliding).await, 1.0);
    call.abort();
    wait_for(&server, sliding, 0.0, Duration::from_secs(30)).await;
    all_idle(&server).await;
    server.stop().await.unwrap();
}
