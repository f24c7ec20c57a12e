//! A client that goes away, and a deadline that passes, stop the searches they started.

use std::time::{Duration, Instant};

use futures::StreamExt as _;
use solver_server::Kind;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Code, Request};

use crate::common::{TestServer, cells, config, config_with, endless, sliding, warm_up};

const RUNNING: &str = r#"solver_searches_running{kind="fifteen"}"#;
const IN_FLIGHT: &str = r#"solver_cases_in_flight{kind="fifteen"}"#;

/// Polls `series` until it equals `value`; returns how long that took.
async fn wait_for(server: &TestServer, series: &str, value: f64, limit: Duration) -> Duration {
    let started = Instant::now();
    loop {
        let now = server.metric(series).await;
        if now == value {
            return started.elapsed();
        }
        assert!(
            started.elapsed() < limit,
            "{series} is {now}, not {value}, after {limit:?}"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_cancels_stops_its_hard_search() {
    // The 15-puzzle databases, built before the timing starts (building them cannot be stopped).
    warm_up(Kind::Fifteen).await;
    let server = TestServer::start(config()).await;
    let mut client = server.client().await;
    let (tx, rx) = mpsc::channel(4);
    let (hard, target) = endless();
    tx.send(sliding(1, &cells(&hard), &cells(&target)))
        .await
        .unwrap();
    let replies = client
        .solve_fifteen(ReceiverStream::new(rx))
        .await
        .unwrap()
        .into_inner();
    wait_for(&server, RUNNING, 1.0, Duration::from_secs(10)).await;
    // Let the search get going, then walk away.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(
        server.metric(RUNNING).await,
        1.0,
        "the hard case finished too soon"
    );
    drop(replies);
    drop(tx);
    let stopped_after = wait_for(&server, RUNNING, 0.0, Duration::from_secs(2)).await;
    wait_for(&server, IN_FLIGHT, 0.0, Duration::from_secs(2)).await;
    eprintln!("search stopped {stopped_after:?} after the client cancelled");
    assert!(
        stopped_after < Duration::from_millis(500),
        "{stopped_after:?}"
    );
    let cancelled = server
        .metric(r#"solver_cases_total{kind="fifteen",outcome="cancelled"}"#)
        .await;
    assert_eq!(cancelled, 1.0);
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deadline_that_passes_ends_the_stream_and_its_search() {
    // The 15-puzzle databases, built before the timing starts (building them cannot be stopped).
    warm_up(Kind::Fifteen).await;
    let server = TestServer::start(config_with(|config| config.scheduling.workers = 1)).await;
    let mut client = server.client().await;
    let (hard, target) = endless();
    let mut request = Request::new(
        tokio_stream::iter(vec![sliding(1, &cells(&hard), &cells(&target))]).chain(
            // Keep the request side open, as a client with more to send would.
            futures::stream::pending(),
        ),
    );
    request.set_timeout(Duration::from_millis(400));
    let started = Instant::now();
    let mut replies = client.solve_fifteen(request).await.unwrap().into_inner();
    let mut status = None;
    while let Some(item) = replies.next().await {
        match item {
            Ok(reply) => eprintln!("reply before the deadline: {reply:?}"),
            Err(err) => {
                status = Some(err);
                break;
            }
        }
    }
    let elapsed = started.elapsed();
    let status = status.expect("the stream must end with a status");
    assert_eq!(status.code(), Code::DeadlineExceeded, "{status:?}");
    assert!(elapsed < Duration::from_secs(2), "{elapsed:?}");
    wait_for(&server, RUNNING, 0.0, Duration::from_secs(1)).await;
    wait_for(&server, IN_FLIGHT, 0.0, Duration::from_secs(1)).await;
    server.stop().await.unwrap();
}
