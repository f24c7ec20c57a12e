//! What the whole server holds at most: streams, message sizes, search memory and the cache.

use clap::Args;

use super::values::parse_positive;

/// The server-wide limits on what calls may hold.
#[derive(Debug, Clone, Args)]
pub struct Limits {
    /// Most entries in the cache of solved states shared by all streams; 0 turns it off.
    #[arg(long, env = "SOLVER_CACHE_ENTRIES", default_value_t = 1_000_000)]
    pub cache_entries: usize,

    /// Most memory, in MiB, that the searches for bounded answers (`max_ratio` above 1: weighted
    /// A*, up to about 160 MiB each on 5×5) may hold at once; a case that finds no room waits
    /// its turn, under its own time limit and deadline.
    #[arg(
        long,
        env = "SOLVER_SEARCH_MEMORY",
        default_value_t = 1024,
        value_name = "MIB",
        value_parser = clap::value_parser!(u64).range(1..=1 << 20)
    )]
    pub search_memory: u64,

    /// Largest gRPC message accepted or sent, in bytes.
    #[arg(long, env = "SOLVER_MAX_MESSAGE_BYTES", default_value_t = 1 << 20)]
    pub max_message_bytes: usize,

    /// Most solver streams open at once over all connections; further calls fail with
    /// RESOURCE_EXHAUSTED. It is also each connection's HTTP/2 concurrent-stream limit (at most
    /// 870 with the default `--stream-window`), so on a single connection further calls wait for
    /// a stream to close instead.
    #[arg(long, env = "SOLVER_MAX_STREAMS", default_value_t = 1024, value_parser = parse_positive)]
    pub max_streams: usize,
}

impl Limits {
    /// [`search_memory`](Self::search_memory) in bytes.
    #[must_use]
    pub fn search_memory_bytes(&self) -> usize {
        usize::try_from(self.search_memory.saturating_mul(1 << 20)).unwrap_or(usize::MAX)
    }
}
