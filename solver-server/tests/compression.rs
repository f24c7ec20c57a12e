//! gzip on every RPC: compressed requests are read, and responses are compressed exactly for
//! clients that accept gzip.

use solver_proto::v1::{SlidingRequest, sliding_reply};
use solver_proto::v2::{self as pb, solve_response};
use tonic::codec::CompressionEncoding;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_client::HealthClient;

use crate::common::{TestServer, config, v2_eight};

fn moves(response: &pb::SolveResponse) -> Option<&str> {
    match response.outcome.as_ref()? {
        solve_response::Outcome::Solution(pb::Solution {
            kind: Some(pb::solution::Kind::Sliding(s)),
        }) => Some(&s.moves),
        _ => None,
    }
}

#[tokio::test]
async fn gzip_requests_are_read_and_responses_compressed_for_clients_that_ask() {
    let server = TestServer::start(config()).await;

    // A client that compresses its requests and accepts gzip: answered, compressed.
    let mut gzip = server
        .client_v2()
        .await
        .send_compressed(CompressionEncoding::Gzip)
        .accept_compressed(CompressionEncoding::Gzip);
    let response = gzip
        .solve(v2_eight("gz"))
        .await
        .expect("a gzip call is served");
    assert_eq!(
        response
            .metadata()
            .get("grpc-encoding")
            .map(|v| v.to_str().unwrap()),
        Some("gzip")
    );
    assert_eq!(moves(response.get_ref()), Some("r"));

    // A plain client: the same answer, uncompressed.
    let response = server
        .client_v2()
        .await
        .solve(v2_eight("gz"))
        .await
        .unwrap();
    assert_eq!(response.metadata().get("grpc-encoding"), None);
    assert_eq!(moves(response.get_ref()), Some("r"));

    // v1 streams and health too.
    let mut v1 = server
        .client()
        .await
        .send_compressed(CompressionEncoding::Gzip)
        .accept_compressed(CompressionEncoding::Gzip);
    let request = SlidingRequest {
        id: 7,
        start: vec![1, 2, 3, 4, 5, 6, 7, 0, 8],
        ..SlidingRequest::default()
    };
    let response = v1
        .solve_eight(futures::stream::iter([request]))
        .await
        .unwrap();
    assert_eq!(
        response
            .metadata()
            .get("grpc-encoding")
            .map(|v| v.to_str().unwrap()),
        Some("gzip")
    );
    let mut replies = response.into_inner();
    let reply = replies.message().await.unwrap().expect("one reply");
    assert!(matches!(
        reply.outcome,
        Some(sliding_reply::Outcome::Solution(ref s)) if s.moves == "r"
    ));
    let mut health = HealthClient::new(server.channel().await)
        .send_compressed(CompressionEncoding::Gzip)
        .accept_compressed(CompressionEncoding::Gzip);
    health
        .check(HealthCheckRequest::default())
        .await
        .expect("health takes gzip");
}
