//! End-to-end tests: a real server on 127.0.0.1, driven by the generated client.

mod auth;
mod cancel;
mod common;
mod compression;
mod fairness;
mod hostile;
mod lifecycle;
mod logs;
mod page;
mod shapes;
mod streams;
mod tls;
mod transport;
mod v2;
mod watch;
