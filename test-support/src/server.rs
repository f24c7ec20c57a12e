//! A real server in the test's process on 127.0.0.1, with its metrics endpoint: what every
//! end-to-end test and the throughput benchmark of solver-server start.

use std::net::SocketAddr;
use std::sync::{Arc, LazyLock};

use solver_proto::v2::solver_service_client::SolverServiceClient;
use solver_server::pb::solver_client::SolverClient;
use solver_server::{Config, Kind, ServeError, Squares, tables_shape};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tonic::transport::Channel;

/// A server running in this process; dropping it begins its shutdown.
#[derive(Debug)]
pub struct TestServer {
    /// Where it serves gRPC.
    pub addr: SocketAddr,
    /// Where it serves `/metrics`.
    pub metrics: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<Result<(), ServeError>>,
}

/// The 8- and 15-puzzle tables every [`TestServer::start`] of this test binary shares: built
/// once (by the first case that needs them, or by [`warm_up`]) and only read after that.
#[must_use]
pub fn shared_squares() -> Arc<Squares> {
    static SQUARES: LazyLock<Arc<Squares>> = LazyLock::new(Arc::default);
    Arc::clone(&SQUARES)
}

/// Builds the shared tables for `kind` now (the 15-puzzle's take seconds and cannot
/// be stopped: tests that time or cancel searches build them first).
///
/// # Panics
/// When the build panics.
pub async fn warm_up(kind: Kind) {
    let Some(shape) = tables_shape(kind) else {
        return;
    };
    tokio::task::spawn_blocking(move || shared_squares().warm_up(shape, &solver_core::Unpaced))
        .await
        .expect("the warm-up finishes");
}

impl TestServer {
    /// Starts `config` (its metrics endpoint moved to a free port) on a free port, on the
    /// caller's runtime, with the [`shared_squares`].
    ///
    /// # Panics
    /// When no local port can be bound.
    pub async fn start(config: Config) -> Self {
        Self::start_with(config, shared_squares()).await
    }

    /// As [`start`](Self::start), with the 8- and 15-puzzle tables of `squares` (new ones for a
    /// cold server).
    ///
    /// # Panics
    /// When no local port can be bound.
    pub async fn start_with(mut config: Config, squares: Arc<Squares>) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
        let addr = listener.local_addr().expect("a bound address");
        // Bound here and handed over, so no other socket can take the port in between.
        let metrics_listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
        let metrics = metrics_listener.local_addr().expect("a bound address");
        config.metrics.listen = Some(metrics);
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(solver_server::serve_with(
            listener,
            Some(metrics_listener),
            config,
            squares,
            async {
                let _ = stopped.await;
            },
        ));
        Self {
            addr,
            metrics,
            stop: Some(stop),
            task,
        }
    }

    /// A connected channel.
    ///
    /// # Panics
    /// When the server cannot be reached.
    pub async fn channel(&self) -> Channel {
        Channel::from_shared(format!("http://{}", self.addr))
            .expect("a valid URI")
            .connect()
            .await
            .expect("the server accepts connections")
    }

    /// A client of `solver.v1.Solver`.
    pub async fn client(&self) -> SolverClient<Channel> {
        SolverClient::new(self.channel().await)
    }

    /// A client of `solver.v2.SolverService`.
    pub async fn client_v2(&self) -> SolverServiceClient<Channel> {
        SolverServiceClient::new(self.channel().await)
    }

    /// Begins shutdown (like SIGTERM) without waiting.
    pub fn begin_shutdown(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }

    /// Shuts down and waits for `serve` to return.
    ///
    /// # Errors
    /// What `serve` returned.
    ///
    /// # Panics
    /// When the server's task panicked.
    pub async fn stop(mut self) -> Result<(), ServeError> {
        self.begin_shutdown();
        self.task.await.expect("the server's task")
    }

    /// The whole `/metrics` response.
    ///
    /// # Panics
    /// When the endpoint does not answer 200.
    pub async fn scrape(&self) -> String {
        let mut stream = TcpStream::connect(self.metrics)
            .await
            .expect("the metrics endpoint accepts connections");
        stream
            .write_all(b"GET /metrics HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
            .await
            .expect("a request sent");
        let mut response = String::new();
        stream
            .read_to_string(&mut response)
            .await
            .expect("a response read");
        assert!(response.starts_with("HTTP/1.1 200"), "{response}");
        response
    }

    /// The value of the series named exactly `series` (name and labels), 0 if absent.
    ///
    /// # Panics
    /// When the value is not a number.
    pub async fn metric(&self, series: &str) -> f64 {
        let text = self.scrape().await;
        text.lines()
            .find_map(|line| {
                line.strip_prefix(series)
                    .and_then(|rest| rest.strip_prefix(' '))
            })
            .map_or(0.0, |value| value.trim().parse().expect("a number"))
    }
}
