//! How the CPU work is shared: the worker threads, and how much of a stream is read at once.

use clap::Args;

use super::values::{parse_positive, parse_workers};

/// The worker pool and each stream's window and batches.
#[derive(Debug, Clone, Args)]
pub struct Scheduling {
    /// Threads that run searches at once (the bounded pool); 0 means one per CPU core.
    #[arg(long, env = "SOLVER_WORKERS", default_value_t = 0, value_parser = parse_workers)]
    pub workers: usize,

    /// Cases in flight per stream (read but not yet answered). When the window is full the
    /// server stops reading that stream, which pushes back on the sender. A stream whose client
    /// stops reading holds up to this many cases read and as many replies queued: about 440
    /// bytes per unit of window (measured; see the README's flow-control section).
    #[arg(long, env = "SOLVER_WINDOW", default_value_t = 256, value_parser = parse_positive)]
    pub window: usize,

    /// Most ready cases of one stream gathered into one batch of cheap work (3×3 look-ups).
    #[arg(long, env = "SOLVER_BATCH", default_value_t = 256, value_parser = parse_positive)]
    pub batch: usize,
}

impl Scheduling {
    /// The number of search threads: `workers`, or one per core when it is 0.
    #[must_use]
    pub fn worker_count(&self) -> usize {
        if self.workers > 0 {
            self.workers
        } else {
            std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
        }
    }
}
