//! Health, reflection, graceful shutdown and start-up errors.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::StreamExt as _;
use solver_server::pb::{self, sliding_reply};
use solver_server::{Kind, ServeError, Squares, tables_shape};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::Code;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;
use tonic_health::pb::{HealthCheckRequest, HealthCheckResponse};

use crate::common::{TestServer, cells, config, config_with, endless, sliding, warm_up};

/// Longest any step of these tests may take.
const LIMIT: Duration = Duration::from_secs(30);

fn status(response: &HealthCheckResponse) -> ServingStatus {
    ServingStatus::try_from(response.status).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_is_serving_only_between_warm_up_and_shutdown() {
    // Tables of its own and no data directory: the server starts cold, and builds, whatever
    // the other tests built or stored.
    let squares = Arc::new(Squares::new());
    let mut server = TestServer::start_with(
        config_with(|config| {
            config.tables.warm_up = vec![Kind::Eight, Kind::Fifteen].into();
            config.shutdown.grace_period = Duration::from_millis(200);
            config.tables.no_data_dir = true;
        }),
        Arc::clone(&squares),
    )
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
    // The 15-puzzle databases take seconds to build: the server must say so.
    assert_eq!(first, ServingStatus::NotServing);
    let mut now = first;
    while now != ServingStatus::Serving {
        let next = tokio::time::timeout(Duration::from_secs(120), watch.next())
            .await
            .expect("SERVING after warm-up")
            .unwrap()
            .unwrap();
        now = status(&next);
    }
    let ready = |kind| tables_shape(kind).is_some_and(|shape| squares.is_ready(shape));
    assert!(ready(Kind::Eight) && ready(Kind::Fifteen));
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
    warm_up(Kind::Fifteen).await;
    let mut server = TestServer::start(config_with(|config| {
        config.shutdown.grace_period = Duration::from_secs(30);
    }))
    .await;
    let mut client = server.client().await;
    let (tx, rx) = mpsc::channel(4);
    // A case that needs minutes, with a node budget: it runs for a while, then is answered.
    let (board, target) = endless();
    let mut request = sliding(1, &cells(&board), &cells(&target));
    request.node_budget = 20_000_000;
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
    let Some(sliding_reply::Outcome::Error(error)) = &reply.outcome else {
        panic!("{reply:?}");
    };
    assert_eq!(error.code, Code::ResourceExhausted as i32, "{error:?}");
    assert!(
        error.message.contains("node budget of 20000000 ("),
        "{error:?}"
    );
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
        config_with(|config| config.metrics.listen = Some(addr)),
        std::future::pending(),
    )
    .await
    .unwrap_err();
    assert!(matches!(err, ServeError::MetricsBind { .. }), "{err}");
    assert!(err.to_string().contains(&addr.to_string()));
}

/// A corrupt stored database is refused (the 6-6-3 ones answer instead), and a missing one is
/// not built when building is off: both servers report SERVING and say which heuristic serves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unusable_stored_databases_fall_back_to_6_6_3() {
    let corrupt = std::env::temp_dir().join(format!("solver-corrupt-{}", std::process::id()));
    std::fs::create_dir_all(&corrupt).unwrap();
    let file = corrupt.join(solver_core::fifteen::storage::file_name(
        solver_core::fifteen::DatabaseSet::Standard(solver_core::fifteen::Partition::P78),
    ));
    std::fs::write(&file, b"SLIDEPDB but not really").unwrap();
    let empty = std::env::temp_dir().join(format!("solver-empty-{}", std::process::id()));
    for dir in [&corrupt, &empty] {
        let server = TestServer::start(config_with(|config| {
            config.tables.warm_up = vec![Kind::Fifteen].into();
            config.tables.data_dir = Some(dir.clone());
            config.tables.build_databases = false;
        }))
        .await;
        let mut health = HealthClient::new(server.channel().await);
        let started = Instant::now();
        loop {
            let now = health
                .check(HealthCheckRequest {
                    service: String::new(),
                })
                .await
                .unwrap()
                .into_inner();
            if status(&now) == ServingStatus::Serving {
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(120),
                "never SERVING"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(
            server
                .metric("solver_fifteen_heuristic{method=\"pdb-663\"}")
                .await,
            1.0
        );
        let (start, _) = crate::common::korf(9);
        let mut client = server.client().await;
        let request = sliding(1, &cells(&start), &[]);
        let mut replies = client
            .solve_fifteen(tokio_stream::iter([request]))
            .await
            .unwrap()
            .into_inner();
        let reply = replies.next().await.unwrap().unwrap();
        assert!(matches!(
            reply.outcome,
            Some(sliding_reply::Outcome::Solution(_))
        ));
        assert_eq!(reply.stats.unwrap().method, "pdb-663");
        assert_eq!(
            server
                .metric("solver_fifteen_searches_total{method=\"pdb-663\"}")
                .await,
            1.0
        );
        server.stop().await.unwrap();
    }
    assert!(
        !empty.exists(),
        "nothing may be built or written when building is off"
    );
    std::fs::remove_dir_all(&corrupt).unwrap();
}

/// The `health` command's check: SERVING from a ready server, an error from a closed port.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_check_command() {
    let server = TestServer::start(config()).await;
    let started = Instant::now();
    loop {
        match solver_server::check_health(&server.addr.to_string(), Duration::from_secs(2)).await {
            Ok(solver_server::ServingStatus::Serving) => break,
            Ok(status) => assert_eq!(status, solver_server::ServingStatus::NotServing),
            Err(err) => panic!("{err}"),
        }
        assert!(started.elapsed() < LIMIT, "never SERVING");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let addr = server.addr;
    server.stop().await.unwrap();
    let err = solver_server::check_health(&addr.to_string(), Duration::from_millis(500))
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains(&addr.to_string()), "{err}");
}
