//! End-to-end tests of the `solver-client` binary: judge samples, malformed input, a separately
//! started server, and the human mode. Every test runs the real binary.

mod cli;
mod cluster;
mod databases;
mod fake;
mod human;
mod load;
mod logs;
mod malformed;
mod oracle;
mod random;
mod remote;
mod samples;
mod server;
mod sliding;
mod tls;
mod util;
mod v2;
mod v2_shapes;
mod watch;
