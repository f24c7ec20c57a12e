//! How the server stops: the time cases in flight are given.

use std::time::Duration;

use clap::Args;
use solver_store::flags::parse_duration;

/// The drain on SIGTERM/SIGINT.
#[derive(Debug, Clone, Args)]
pub struct Shutdown {
    /// On SIGTERM/SIGINT, how long in-flight cases may take to finish before they are cancelled.
    #[arg(long, env = "SOLVER_GRACE_PERIOD", default_value = "10s", value_parser = parse_duration)]
    pub grace_period: Duration,
}
