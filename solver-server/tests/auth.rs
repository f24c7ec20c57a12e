//! Bearer tokens: calls without a listed token end UNAUTHENTICATED while health checks stay
//! open; a token holds at most its share of calls; a token removed from the file is refused
//! from then on, and every token while the file is emptied or deleted (failing closed); a
//! token's cases in flight are bounded without losing any. Health `Watch` streams need a token
//! and count against the stream limits like any other stream, while unary `Check` stays open.

use std::path::PathBuf;
use std::time::Duration;

use solver_proto::v2::solver_service_client::SolverServiceClient;
use solver_proto::v2::{SolveRequest, solve_response};
use solver_server::Config;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::service::interceptor::InterceptedService;
use tonic::transport::Channel;
use tonic::{Code, Request, Status};
use tonic_health::pb::health_client::HealthClient;
use tonic_health::pb::{HealthCheckRequest, HealthCheckResponse};

use crate::common::{TestServer, config_with, v2_eight};

/// Adds the caller's `authorization` header to every call.
type Stamp = Box<dyn FnMut(Request<()>) -> Result<Request<()>, Status> + Send>;
type Client = SolverServiceClient<InterceptedService<Channel, Stamp>>;

fn tokens_file(name: &str, text: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("auth");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let temp = path.with_extension("new");
    std::fs::write(&temp, text).unwrap();
    std::fs::rename(&temp, &path).unwrap();
    path
}

/// An interceptor that sends `token` as a bearer token, or nothing.
fn stamp(token: Option<&str>) -> Stamp {
    let header: Option<tonic::metadata::MetadataValue<tonic::metadata::Ascii>> =
        token.map(|t| format!("Bearer {t}").parse().unwrap());
    Box::new(move |mut request: Request<()>| {
        if let Some(header) = &header {
            request
                .metadata_mut()
                .insert("authorization", header.clone());
        }
        Ok(request)
    })
}

async fn client(server: &TestServer, token: Option<&str>) -> Client {
    SolverServiceClient::with_interceptor(server.channel().await, stamp(token))
}

/// A health client sending `token`, on a connection of its own (on a shared one, HTTP/2's own
/// stream limit would queue a call over the server's limit instead of letting it be refused).
async fn health(
    server: &TestServer,
    token: Option<&str>,
) -> HealthClient<InterceptedService<Channel, Stamp>> {
    HealthClient::with_interceptor(server.channel().await, stamp(token))
}

/// Opens a health `Watch` and reads its first status: the open stream, or why it was refused.
async fn watch(
    server: &TestServer,
    token: Option<&str>,
) -> Result<tonic::Streaming<HealthCheckResponse>, Status> {
    let mut stream = health(server, token)
        .await
        .watch(HealthCheckRequest::default())
        .await?
        .into_inner();
    stream
        .message()
        .await?
        .expect("a Watch stream first sends the current status");
    Ok(stream)
}

/// Waits (up to 15 s: the file is polled every 2 s) until `alpha`'s calls succeed or not, as
/// `valid` says; returns the status of the last refused call.
async fn wait_until_alpha_is(server: &TestServer, valid: bool) -> Option<Status> {
    let mut waited = Duration::ZERO;
    loop {
        let result = client(server, Some("alpha"))
            .await
            .solve(v2_eight("a"))
            .await;
        if result.is_ok() == valid {
            return result.err();
        }
        assert!(
            waited < Duration::from_secs(15),
            "alpha never became {}: {result:?}",
            if valid { "valid" } else { "invalid" }
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
        waited += Duration::from_millis(200);
    }
}

fn auth_config(tokens: PathBuf) -> Config {
    config_with(|config| {
        config.auth.tokens_file = Some(tokens);
        config.auth.max_streams_per_token = 2;
        config.auth.max_cases_per_token = 4;
    })
}

#[tokio::test]
async fn calls_need_a_listed_token_but_health_does_not() {
    let tokens = tokens_file("listed", "# test callers\nalpha\nbeta\n");
    let server = TestServer::start(auth_config(tokens.clone())).await;
    for token in [None, Some("gamma"), Some("")] {
        let status = client(&server, token)
            .await
            .solve(v2_eight("x"))
            .await
            .unwrap_err();
        assert_eq!(
            status.code(),
            Code::Unauthenticated,
            "{token:?}: {status:?}"
        );
    }
    client(&server, Some("alpha"))
        .await
        .solve(v2_eight("a"))
        .await
        .expect("alpha is listed");
    HealthClient::new(server.channel().await)
        .check(HealthCheckRequest::default())
        .await
        .expect("health needs no token");

    // Revoked by editing the file: refused from the next call on.
    tokens_file("listed", "beta\n");
    let mut waited = Duration::ZERO;
    while client(&server, Some("alpha"))
        .await
        .solve(v2_eight("a"))
        .await
        .is_ok()
    {
        assert!(waited < Duration::from_secs(15), "alpha was never revoked");
        tokio::time::sleep(Duration::from_millis(200)).await;
        waited += Duration::from_millis(200);
    }
    client(&server, Some("beta"))
        .await
        .solve(v2_eight("b"))
        .await
        .expect("beta stays");
}

#[tokio::test]
async fn a_token_holds_at_most_its_share_of_calls_and_cases() {
    let tokens = tokens_file("limits", "alpha\nbeta\n");
    let server = TestServer::start(auth_config(tokens)).await;
    // Two open streams of alpha: its limit.
    let mut open = Vec::new();
    for _ in 0..2 {
        let (tx, rx) = mpsc::channel::<SolveRequest>(1);
        let stream = client(&server, Some("alpha"))
            .await
            .solve_stream(ReceiverStream::new(rx))
            .await
            .expect("within the limit");
        open.push((tx, stream));
    }
    let status = client(&server, Some("alpha"))
        .await
        .solve(v2_eight("c"))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    client(&server, Some("beta"))
        .await
        .solve(v2_eight("d"))
        .await
        .expect("beta is not held up");

    // Closing them frees alpha's slots; then 50 cases on one stream with 4 case slots: all
    // answered.
    drop(open);
    let mut waited = Duration::ZERO;
    let mut alpha = loop {
        let mut alpha = client(&server, Some("alpha")).await;
        if alpha.solve(v2_eight("e")).await.is_ok() {
            break alpha;
        }
        assert!(
            waited < Duration::from_secs(5),
            "alpha's slots were never freed"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
        waited += Duration::from_millis(50);
    };
    let requests: Vec<SolveRequest> = (0..50).map(|i| v2_eight(&i.to_string())).collect();
    let mut replies = alpha
        .solve_stream(tokio_stream::iter(requests))
        .await
        .unwrap()
        .into_inner();
    let mut answered = 0;
    while let Some(reply) = replies.message().await.unwrap() {
        assert!(matches!(
            reply.outcome,
            Some(solve_response::Outcome::Solution(_))
        ));
        answered += 1;
    }
    assert_eq!(answered, 50);
}

#[tokio::test]
async fn a_missing_or_empty_tokens_file_stops_the_start() {
    let empty = tokens_file("empty", "# nobody\n");
    for path in [empty, PathBuf::from("/nonexistent/tokens")] {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let err = solver_server::serve(listener, auth_config(path.clone()), std::future::pending())
            .await
            .unwrap_err();
        assert!(err.to_string().contains(&*path.to_string_lossy()), "{err}");
    }
}

#[tokio::test]
async fn an_emptied_or_deleted_tokens_file_revokes_every_token_until_it_loads() {
    let tokens = tokens_file("fail-closed", "alpha\n");
    let server = TestServer::start(auth_config(tokens.clone())).await;
    wait_until_alpha_is(&server, true).await;

    // Emptied in place (`: > tokens`): no token is valid any more, health still answers.
    std::fs::write(&tokens, "").unwrap();
    let refused = wait_until_alpha_is(&server, false).await.unwrap();
    assert_eq!(refused.code(), Code::Unauthenticated, "{refused:?}");
    assert!(
        refused.message().contains("tokens file"),
        "the message names the cause: {refused:?}"
    );
    health(&server, None)
        .await
        .check(HealthCheckRequest::default())
        .await
        .expect("health needs no token, also while the tokens file cannot be used");

    // Written back: valid again.
    tokens_file("fail-closed", "alpha\n");
    wait_until_alpha_is(&server, true).await;

    // Deleted: revoked; back: valid.
    std::fs::remove_file(&tokens).unwrap();
    let refused = wait_until_alpha_is(&server, false).await.unwrap();
    assert_eq!(refused.code(), Code::Unauthenticated, "{refused:?}");
    assert!(refused.message().contains("tokens file"), "{refused:?}");
    tokens_file("fail-closed", "alpha\n");
    wait_until_alpha_is(&server, true).await;
}

#[tokio::test]
async fn health_watch_needs_a_token_and_counts_against_it_but_check_does_not() {
    let tokens = tokens_file("watch", "alpha\nbeta\n");
    let server = TestServer::start(auth_config(tokens)).await;
    let refused = watch(&server, None).await.unwrap_err();
    assert_eq!(refused.code(), Code::Unauthenticated, "{refused:?}");
    let refused = watch(&server, Some("gamma")).await.unwrap_err();
    assert_eq!(refused.code(), Code::Unauthenticated, "{refused:?}");
    health(&server, None)
        .await
        .check(HealthCheckRequest::default())
        .await
        .expect("Check needs no token: the kubelet's probes send none");

    // alpha's two Watch streams are its share of calls (`max_streams_per_token: 2`).
    let open = [
        watch(&server, Some("alpha")).await.unwrap(),
        watch(&server, Some("alpha")).await.unwrap(),
    ];
    let status = client(&server, Some("alpha"))
        .await
        .solve(v2_eight("x"))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    watch(&server, Some("beta"))
        .await
        .expect("beta is not held up");
    drop(open);
    wait_until_alpha_is(&server, true).await;
}

#[tokio::test]
async fn health_watch_streams_over_the_stream_limit_are_refused_until_some_close() {
    let server = TestServer::start(config_with(|config| config.limits.max_streams = 2)).await;
    let open = [
        watch(&server, None).await.unwrap(),
        watch(&server, None).await.unwrap(),
    ];
    let refused = watch(&server, None).await.unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    // They hold the slots solver calls take too, and probes still answer.
    let busy = server
        .client_v2()
        .await
        .solve(v2_eight("x"))
        .await
        .unwrap_err();
    assert_eq!(busy.code(), Code::ResourceExhausted, "{busy:?}");
    health(&server, None)
        .await
        .check(HealthCheckRequest::default())
        .await
        .expect("Check is not counted: probes answer when the server is full");

    // Closed by their clients: their slots are free again.
    drop(open);
    let mut waited = Duration::ZERO;
    let _again = loop {
        match watch(&server, None).await {
            Ok(stream) => break stream,
            Err(status) => assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}"),
        }
        assert!(
            waited < Duration::from_secs(5),
            "the closed streams' slots were never freed"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
        waited += Duration::from_millis(50);
    };
    watch(&server, None)
        .await
        .expect("both slots are free again");
}
