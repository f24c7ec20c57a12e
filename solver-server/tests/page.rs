//! The page at `/`: served over HTTP/1.1 (what a browser speaks to a plaintext port) with its
//! script and stylesheet, and not at all with `--web-page false`. Playing it in a real browser
//! is `tests/page/test_page.py` (`.ci/page.sh`).

use std::net::SocketAddr;

use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpStream;

use crate::common::{TestServer, config, config_with};

/// A response's status code, headers (names lower-cased) and body.
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }
}

/// `method path` over HTTP/1.1 on a connection of its own, read until the server closes it.
async fn http1(addr: SocketAddr, method: &str, path: &str) -> Reply {
    let mut stream = TcpStream::connect(addr).await.expect("the server accepts");
    let request = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    tokio::time::timeout(
        std::time::Duration::from_secs(10),
        stream.read_to_end(&mut raw),
    )
    .await
    .expect("the server answers and closes within 10 s")
    .unwrap();
    let split = raw
        .windows(4)
        .position(|window| window == b"\r\n\r\n")
        .expect("a complete head");
    let head = String::from_utf8(raw[..split].to_vec()).unwrap();
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap();
    let status = status_line
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("a status line: {status_line:?}"));
    let headers = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_owned()))
        .collect();
    Reply {
        status,
        headers,
        body: raw[split + 4..].to_vec(),
    }
}

#[tokio::test]
async fn the_page_and_its_files_are_served_at_the_root() {
    let server = TestServer::start(config()).await;

    let page = http1(server.addr, "GET", "/").await;
    assert_eq!(page.status, 200);
    assert_eq!(
        page.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(
        page.header("content-length"),
        Some(page.body.len().to_string().as_str())
    );
    assert!(page.header("content-security-policy").is_some());
    let html = String::from_utf8(page.body).unwrap();
    assert!(
        html.contains("<title>Sliding puzzle solver</title>"),
        "{html}"
    );

    let script = http1(server.addr, "GET", "/app.js").await;
    assert_eq!(script.status, 200);
    assert_eq!(
        script.header("content-type"),
        Some("text/javascript; charset=utf-8")
    );
    // connect-web's gRPC-Web transport, and the descriptor protoc-gen-es generated from
    // solver/v2/solver.proto (base64 of its file name's encoding), not hand-made requests.
    let script = String::from_utf8(script.body).unwrap();
    assert!(script.contains("application/grpc-web+proto"));
    assert!(script.contains("ChZzb2x2ZXIvdjIvc29sdmVyLnByb3Rv"));

    let style = http1(server.addr, "GET", "/app.css").await;
    assert_eq!(style.status, 200);
    assert_eq!(
        style.header("content-type"),
        Some("text/css; charset=utf-8")
    );

    // HEAD: the same head, no body.
    let head = http1(server.addr, "HEAD", "/").await;
    assert_eq!(head.status, 200);
    assert_eq!(
        head.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    assert!(head.body.is_empty());

    // Other paths are not the page's.
    assert_ne!(http1(server.addr, "GET", "/index.htm").await.status, 200);
    assert_ne!(http1(server.addr, "POST", "/").await.status, 200);
}

#[tokio::test]
async fn the_flag_turns_the_page_off() {
    let server = TestServer::start(config_with(|config| config.web.page = false)).await;
    for path in ["/", "/app.js", "/app.css"] {
        let reply = http1(server.addr, "GET", path).await;
        assert_ne!(reply.status, 200, "{path}");
        assert_ne!(
            reply.header("content-type"),
            Some("text/html; charset=utf-8")
        );
    }
}

#[test]
fn the_flag_and_its_variable() {
    use clap::Parser as _;
    assert!(solver_server::Config::default().web.page);
    let off = solver_server::Config::try_parse_from(["solver-server", "--web-page", "false"])
        .expect("the flag parses");
    assert!(!off.web.page);
}
