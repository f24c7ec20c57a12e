//! TLS on the gRPC port: a TLS client is served and a plaintext one is not; with a client CA,
//! only clients with a certificate it signed are served; replaced certificate files are used by
//! the next connections without a restart.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use solver_proto::v2::solver_service_client::SolverServiceClient;
use solver_server::{Config, ProbeTls, ServingStatus, check_health_with};
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Identity};

use solver_test_support::tls::Ca;

use crate::common::{TestServer, config_with};

/// A fresh directory for one test's files.
fn dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("tls")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes a file by renaming a complete one into place, as Kubernetes swaps secrets.
fn write(path: &Path, text: &str) {
    let temp = path.with_extension("new");
    std::fs::write(&temp, text).unwrap();
    std::fs::rename(&temp, path).unwrap();
}

fn tls_config(dir: &Path, client_ca: bool) -> Config {
    config_with(|config| {
        config.tls.cert = Some(dir.join("cert.pem"));
        config.tls.key = Some(dir.join("key.pem"));
        config.tls.client_ca = client_ca.then(|| dir.join("client-ca.pem"));
    })
}

/// Connects over TLS trusting `ca`, with a client identity if given, and solves one case.
async fn solve(
    server: &TestServer,
    ca: &str,
    identity: Option<(String, String)>,
) -> Result<(), String> {
    let mut tls = ClientTlsConfig::new()
        .ca_certificate(Certificate::from_pem(ca))
        .domain_name("localhost");
    if let Some((cert, key)) = identity {
        tls = tls.identity(Identity::from_pem(cert, key));
    }
    let channel = Channel::from_shared(format!("https://{}", server.addr))
        .unwrap()
        .tls_config(tls)
        .map_err(|e| e.to_string())?
        .connect_timeout(Duration::from_secs(5))
        .connect()
        .await
        .map_err(|e| format!("{e:?}"))?;
    call(channel).await
}

async fn call(channel: Channel) -> Result<(), String> {
    let request = crate::common::v2_eight("t");
    SolverServiceClient::new(channel)
        .solve(request)
        .await
        .map(|_| ())
        .map_err(|status| format!("{status:?}"))
}

/// Polls the health command over `tls` until it reports SERVING: NOT_SERVING is the right answer
/// while the warm-up runs (slow on a loaded machine), any error fails the test.
async fn becomes_serving(addr: &str, tls: &ProbeTls) {
    let started = Instant::now();
    loop {
        let status = check_health_with(addr, Duration::from_secs(5), tls)
            .await
            .expect("the health check is answered over TLS");
        if status == ServingStatus::Serving {
            return;
        }
        assert_eq!(status, ServingStatus::NotServing);
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "never SERVING"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn tls_clients_are_served_and_plaintext_ones_are_not() {
    let dir = dir("plain");
    let ca = Ca::new("test CA");
    let (cert, key) = ca.sign(&["localhost"]);
    write(&dir.join("cert.pem"), &cert);
    write(&dir.join("key.pem"), &key);
    let server = TestServer::start(tls_config(&dir, false)).await;
    solve(&server, &ca.pem(), None)
        .await
        .expect("a TLS client is served");

    let plaintext = Channel::from_shared(format!("http://{}", server.addr))
        .unwrap()
        .connect()
        .await;
    if let Ok(channel) = plaintext {
        assert!(
            call(channel).await.is_err(),
            "a plaintext client was served"
        );
    }
    // A client that does not trust the server's CA is refused by itself.
    let other = Ca::new("other CA");
    assert!(solve(&server, &other.pem(), None).await.is_err());

    // The health command of the image, over TLS.
    write(&dir.join("ca.pem"), &ca.pem());
    let tls = ProbeTls {
        ca: Some(dir.join("ca.pem")),
        domain: Some("localhost".to_owned()),
        ..ProbeTls::default()
    };
    becomes_serving(&server.addr.to_string(), &tls).await;
}

#[tokio::test]
async fn mutual_tls_wants_a_certificate_from_the_client_ca() {
    let dir = dir("mutual");
    let ca = Ca::new("server CA");
    let clients = Ca::new("client CA");
    let (cert, key) = ca.sign(&["localhost"]);
    write(&dir.join("cert.pem"), &cert);
    write(&dir.join("key.pem"), &key);
    write(&dir.join("client-ca.pem"), &clients.pem());
    let server = TestServer::start(tls_config(&dir, true)).await;

    assert!(
        solve(&server, &ca.pem(), None).await.is_err(),
        "served without a client certificate"
    );
    let stranger = Ca::new("stranger").sign(&["client"]);
    assert!(
        solve(&server, &ca.pem(), Some(stranger)).await.is_err(),
        "served a stranger"
    );
    let client = clients.sign(&["client"]);
    solve(&server, &ca.pem(), Some(client.clone()))
        .await
        .expect("a client with a certificate of the client CA is served");

    // The health command with the client's certificate (a probe inside the pod).
    write(&dir.join("ca.pem"), &ca.pem());
    write(&dir.join("client.pem"), &client.0);
    write(&dir.join("client.key"), &client.1);
    let mut tls = ProbeTls {
        ca: Some(dir.join("ca.pem")),
        domain: Some("localhost".to_owned()),
        ..ProbeTls::default()
    };
    let addr = server.addr.to_string();
    assert!(
        check_health_with(&addr, Duration::from_secs(5), &tls)
            .await
            .is_err()
    );
    tls.identity = Some((dir.join("client.pem"), dir.join("client.key")));
    becomes_serving(&addr, &tls).await;
}

#[tokio::test]
async fn replaced_certificate_files_serve_the_next_connections() {
    let dir = dir("reload");
    let first = Ca::new("first CA");
    let (cert, key) = first.sign(&["localhost"]);
    write(&dir.join("cert.pem"), &cert);
    write(&dir.join("key.pem"), &key);
    let server = TestServer::start(tls_config(&dir, false)).await;
    solve(&server, &first.pem(), None)
        .await
        .expect("served with the first certificate");

    let second = Ca::new("second CA");
    let (cert, key) = second.sign(&["localhost"]);
    // The key first: a moment with a mismatched pair must not stop the server.
    write(&dir.join("key.pem"), &key);
    write(&dir.join("cert.pem"), &cert);
    let mut waited = Duration::ZERO;
    while solve(&server, &second.pem(), None).await.is_err() {
        assert!(
            waited < Duration::from_secs(15),
            "the new certificate was never served"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
        waited += Duration::from_millis(200);
    }
    assert!(
        solve(&server, &first.pem(), None).await.is_err(),
        "the old certificate is still served"
    );
}

#[tokio::test]
async fn a_server_whose_tls_files_do_not_load_does_not_start() {
    let dir = dir("broken");
    write(&dir.join("cert.pem"), "not a certificate");
    write(&dir.join("key.pem"), "not a key");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let err = solver_server::serve(listener, tls_config(&dir, false), std::future::pending())
        .await
        .unwrap_err();
    assert!(err.to_string().contains("cert.pem"), "{err}");
}
