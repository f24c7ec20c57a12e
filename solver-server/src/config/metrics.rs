//! The Prometheus endpoint's port.

use std::net::SocketAddr;

use clap::Args;

use super::values::parse_optional_addr;

/// Where metrics are served, if anywhere.
#[derive(Debug, Clone, Args)]
pub struct Metrics {
    /// Address of the Prometheus endpoint (`GET /metrics`), or `off` for none. Every interface
    /// (`0.0.0.0`, the default) means loopback alone when `--listen` is a loopback address.
    #[arg(
        id = "metrics_listen",
        long = "metrics-listen",
        value_name = "METRICS_LISTEN",
        env = "SOLVER_METRICS_LISTEN",
        default_value = "0.0.0.0:9090",
        value_parser = parse_optional_addr
    )]
    pub listen: ::std::option::Option<SocketAddr>,
}
