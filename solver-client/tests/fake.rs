//! A bare HTTP/2 server that answers every gRPC call with one status and records the headers of
//! each call: what the client sends (`authorization`, `grpc-encoding`, `grpc-timeout`) seen on the
//! wire, and refusals (UNAUTHENTICATED, PERMISSION_DENIED) the real server may not make yet.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

/// A running fake server; dropping it stops it.
pub(crate) struct Fake {
    /// Where it listens (plaintext HTTP/2).
    pub(crate) addr: SocketAddr,
    calls: Arc<Mutex<Vec<http::Request<()>>>>,
    _runtime: tokio::runtime::Runtime,
}

impl Fake {
    /// Starts a server that ends every call at once with gRPC status `code` and `message`.
    pub(crate) fn start(code: tonic::Code, message: &'static str) -> Self {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .unwrap();
        let addr = listener.local_addr().unwrap();
        let calls = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&calls);
        runtime.spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                let seen = Arc::clone(&seen);
                tokio::spawn(async move {
                    let Ok(mut connection) = h2::server::handshake(socket).await else {
                        return;
                    };
                    while let Some(Ok((request, mut respond))) = connection.accept().await {
                        let (parts, _body) = request.into_parts();
                        seen.lock()
                            .unwrap()
                            .push(http::Request::from_parts(parts, ()));
                        // Trailers-only: the status in the headers, and the stream ends.
                        let response = http::Response::builder()
                            .status(200)
                            .header("content-type", "application/grpc")
                            .header("grpc-status", (code as i32).to_string())
                            .header("grpc-message", message)
                            .body(())
                            .unwrap();
                        let _ = respond.send_response(response, true);
                    }
                });
            }
        });
        Self {
            addr,
            calls,
            _runtime: runtime,
        }
    }

    /// Its URL.
    pub(crate) fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The calls made so far: (path, headers).
    pub(crate) fn calls(&self) -> Vec<(String, http::HeaderMap)> {
        self.calls
            .lock()
            .unwrap()
            .iter()
            .map(|r| (r.uri().path().to_owned(), r.headers().clone()))
            .collect()
    }
}
