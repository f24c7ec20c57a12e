//! Health, reflection, graceful shutdown and start-up errors.

use std::time::{Duration, Instant};

use futures::StreamExt as _;
use solver_server::pb::{self, sliding_reply};
use solver_server::{Config, Kind, ServeError};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::Code;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;
use tonic_health::pb::{HealthCheckRequest, HealthCheckResponse};

use crate::common::{TestServer, cells, checked_moves, config, korf, sliding};

/// Longest any step of these tests may take.
const LIMIT: Duration = Duration::from_secs(30);

fn status(response: &HealthCheckResponse) -> ServingStatus {
    ServingStatus::try_from(response.status).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_is_serving_only_between_warm_up_and_shutdown() {
    let cold = !solver_core::fifteen::is_ready();
    let mut server = TestServer::start(Config {
        warm_up: vec![Kind::Eight, Kind::Fifteen],
        grace_period: Duration::from_millis(200),
        ..config()
    })
    .await;
    let mut health = HealthClient::new(server.channel().await);
    let mut watch = health
        .watch(HealthCheckRequest {
            service: String::new(),
        })
        .await
        .unwrap()
        .into_inner();
    let first = status(&watch.next().await.unwrap().unwrap());
    if cold {
        // The 15-puzzle databases take seconds to build: the server must say so.
        assert_eq!(first, ServingStatus::NotServing);
    }
    let mut now = first;
    while now != ServingStatus::Serving {
        let next = tokio::time::timeout(Duration::from_secs(120), watch.next())
            .await
            .expect("SERVING after warm-up")
            .unwrap()
            .unwrap();
        now = status(&next);
    }
    assert!(solver_core::fifteen::is_ready());
    let solver = health
        .check(HealthCheckRequest {
            service: "solver.v1.Solver".to_owned(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(status(&solver), ServingStatus::Serving);

    server.begin_shutdown();
    let next = tokio::time::timeout(Duration::from_secs(5), watch.next())
        .await
        .expect("NOT_SERVING on shutdown")
        .unwrap()
        .unwrap();
    assert_eq!(status(&next), ServingStatus::NotServing);
    drop(watch);
    drop(health);
    tokio::time::timeout(Duration::from_secs(5), server.stop())
        .await
        .expect("serve returns after the grace period")
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reflection_lists_the_solver_in_v1_and_v1alpha() {
    use tonic_reflection::pb::v1 as r1;
    use tonic_reflection::pb::v1alpha as ra;
    let server = TestServer::start(config()).await;

    let mut v1 = r1::server_reflection_client::ServerReflectionClient::new(server.channel().await);
    let requests = vec![
        r1::ServerReflectionRequest {
            host: String::new(),
            message_request: Some(r1::server_reflection_request::MessageRequest::ListServices(
                String::new(),
            )),
        },
        r1::ServerReflectionRequest {
            host: String::new(),
            message_request: Some(
                r1::server_reflection_request::MessageRequest::FileContainingSymbol(
                    "solver.v1.Solver".to_owned(),
                ),
            ),
        },
    ];
    let mut responses = v1
        .server_reflection_info(tokio_stream::iter(requests))
        .await
        .unwrap()
        .into_inner();
    let listed = responses.next().await.unwrap().unwrap();
    let Some(r1::server_reflection_response::MessageResponse::ListServicesResponse(list)) =
        listed.message_response
    else {
        panic!("{listed:?}");
    };
    let names: Vec<_> = list.service.iter().map(|s| s.name.as_str()).collect();
    assert!(names.contains(&"solver.v1.Solver"), "{names:?}");
    assert!(names.contains(&"grpc.health.v1.Health"), "{names:?}");
    let file = responses.next().await.unwrap().unwrap();
    let Some(r1::server_reflection_response::MessageResponse::FileDescriptorResponse(files)) =
        file.message_response
    else {
        panic!("{file:?}");
    };
    assert!(!files.file_descriptor_proto.is_empty());

    let mut alpha =
        ra::server_reflection_client::ServerReflectionClient::new(server.channel().await);
    let request = ra::ServerReflectionRequest {
        host: String::new(),
        message_request: Some(ra::server_reflection_request::MessageRequest::ListServices(
            String::new(),
        )),
    };
    let mut responses = alpha
        .server_reflection_info(tokio_stream::iter(vec![request]))
        .await
        .unwrap()
        .into_inner();
    let listed = responses.next().await.unwrap().unwrap();
    let Some(ra::server_reflection_response::MessageResponse::ListServicesResponse(list)) =
        listed.message_response
    else {
        panic!("{listed:?}");
    };
    assert!(list.service.iter().any(|s| s.name == "solver.v1.Solver"));
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_drains_cases_in_flight_then_ends_the_stream() {
    tokio::task::spawn_blocking(solver_core::fifteen::warm_up)
        .await
        .unwrap();
    let mut server = TestServer::start(Config {
        grace_period: Duration::from_secs(30),
        ..config()
    })
    .await;
    let mut client = server.client().await;
    let (tx, rx) = mpsc::channel(4);
    // A hard case with a node budget: it runs for a while, then is answered either way.
    let (board, _) = korf(88);
    let mut request = sliding(1, &cells(&board), &[]);
    request.node_budget = 3_000_000;
    tx.send(request).await.unwrap();
    let mut replies = client
        .solve_fifteen(ReceiverStream::new(rx))
        .await
        .unwrap()
        .into_inner();
    // Wait until the case is being searched, then ask the server to stop.
    let started = Instant::now();
    while server
        .metric(r#"solver_searches_running{kind="fifteen"}"#)
        .await
        < 1.0
    {
        assert!(started.elapsed() < LIMIT, "the case never started");
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    server.begin_shutdown();
    let reply: pb::SlidingReply = tokio::time::timeout(LIMIT, replies.next())
        .await
        .expect("the case in flight is answered")
        .unwrap()
        .unwrap();
    match &reply.outcome {
        Some(sliding_reply::Outcome::Solution(_)) => {
            checked_moves(&reply, &board, &solver_core::Board4::goal());
        }
        Some(sliding_reply::Outcome::Error(error)) => {
            assert_eq!(error.code, Code::ResourceExhausted as i32, "{error:?}");
        }
        other => panic!("{other:?}"),
    }
    // The client had more to say, so the stream ends telling it to go elsewhere.
    let end = tokio::time::timeout(LIMIT, replies.next())
        .await
        .expect("the stream ends")
        .unwrap()
        .unwrap_err();
    assert_eq!(end.code(), Code::Unavailable, "{end:?}");
    drop(tx);
    drop(replies);
    tokio::time::timeout(Duration::from_secs(5), server.stop())
        .await
        .expect("serve returns once drained")
        .unwrap();
}

#[tokio::test]
async fn a_busy_metrics_port_is_a_clear_error() {
    let busy = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = busy.local_addr().unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let err = solver_server::serve(
        listener,
        Config {
            metrics_listen: Some(addr),
            ..config()
        },
        std::future::pending(),
    )
    .await
    .unwrap_err();
    assert!(matches!(err, ServeError::MetricsBind { .. }), "{err}");
    assert!(err.to_string().contains(&addr.to_string()));
}
