//! The gRPC face of the puzzle solvers.
//!
//! [`serve`] runs two contract versions side by side: `solver.v1.Solver` (one bidirectional
//! stream per puzzle kind, unchanged for the callers that depend on it) and
//! `solver.v2.SolverService` (unary `Solve`, `SolveStream` for many cases of any kind, `Hint`,
//! `Scramble` and `Verify`, with errors in the richer error model: `BadRequest` field violations,
//! `RetryInfo` on overload). Beside them run the standard `grpc.health.v1` health service (both
//! solver services reported by name), server reflection (`v1` and `v1alpha`) and, when
//! configured, a Prometheus `/metrics` endpoint on a second port. `main` and the tests call the
//! same function.
//!
//! Inside, both versions share one machinery: each request is read once into a validated case
//! (`convert`), answered by its puzzle kind as a domain answer, and written back as the version's
//! reply. Streams read their cases in batches, answer what they can at once (bad input, parity,
//! cache hits), and hand the rest to one scheduler of CPU work, which shares a fixed number of
//! worker threads fairly between streams and unary calls by round robin, preempting long searches
//! every few milliseconds; a bounded window of cases in flight per stream keeps a fast sender from
//! growing memory without bound. No search runs on the async runtime.
//!
//! ```no_run
//! # async fn run() -> Result<(), solver_server::ServeError> {
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
//! let config = solver_server::Config::default();
//! solver_server::serve(listener, config, std::future::pending()).await
//! # }
//! ```

mod accept;
mod arrival;
mod auth;
mod budget;
mod cache;
mod coalesce;
pub mod config;
mod convert;
mod errors;
mod health;
mod http;
mod metrics;
mod page;
mod probe;
mod puzzles;
mod scheduler;
mod server;
mod service;
mod tls;
mod watch;
mod web;

pub use auth::AuthError;
pub use config::{ABOUT, Config, FlagError, Kind, WarmUp};
pub use errors::ServeError;
pub use probe::{ProbeError, ProbeTls, check_health, check_health_with};
pub use puzzles::sliding::tables_shape;
pub use server::{serve, serve_with};
pub use solver_core::tiles::solver::Squares;
pub use tls::{TlsError, TlsPaths};
/// A server's health, as `grpc.health.v1` reports it ([`check_health`]).
pub use tonic_health::pb::health_check_response::ServingStatus;
pub use web::AllowedOrigins;

/// The code generated from `proto/solver/v1/solver.proto` (messages, `solver_client::SolverClient`
/// and `solver_server::SolverServer`), re-exported from the `solver-proto` crate, which is where
/// clients should take it from.
pub mod pb {
    pub use solver_proto::v1::*;

    /// The encoded `FileDescriptorSet` served by reflection: `solver.v1`, `solver.v2` and the
    /// `google.rpc` files they use.
    pub use solver_proto::FILE_DESCRIPTOR_SET;
}
