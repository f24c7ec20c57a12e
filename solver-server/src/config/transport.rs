//! How the gRPC port listens and speaks: its address, HTTP/2 windows and connection lifetimes
//! (TLS is [`Tls`](super::Tls)).

use std::net::SocketAddr;
use std::time::Duration;

use clap::Args;
use solver_store::flags::parse_duration;

use super::values::{parse_optional_duration, parse_stream_window};

/// The gRPC port's address and HTTP/2 settings.
#[derive(Debug, Clone, Args)]
pub struct Transport {
    /// Address the gRPC service listens on. Only the binary reads it: `serve` is given a bound
    /// listener.
    #[arg(long, env = "SOLVER_LISTEN", default_value = "0.0.0.0:50051")]
    pub listen: SocketAddr,

    /// HTTP/2 receive window of each stream, in bytes: what a client may send on a stream
    /// beyond what the server has read (at least 21846: smaller windows can hang a client that
    /// sends before it has read the server's settings). A stream that is not read holds that
    /// much in request frames, plus about 220 bytes of h2 state per frame (18-byte frames of one
    /// message each: about 290 KiB at 24 KiB). The connection's window is sized from it so that
    /// no client sending one message per frame is ever sent GOAWAY "too_many_data_frames"; that
    /// allows at most 870 streams per connection at 24 KiB (20 at 1 MiB).
    #[arg(long, env = "SOLVER_STREAM_WINDOW", default_value_t = 24 << 10, value_parser = parse_stream_window)]
    pub stream_window: u32,

    /// Close each connection gracefully after this long (e.g. `5m`) so clients reconnect and
    /// spread over replicas; `off` keeps connections for ever.
    #[arg(long, env = "SOLVER_MAX_CONNECTION_AGE", default_value = "5m", value_parser = parse_optional_duration)]
    pub max_connection_age: ::std::option::Option<Duration>,

    /// Close a connection that has not completed its handshake this long after it was accepted
    /// (HTTP/2: acknowledged the server's SETTINGS; HTTP/1.1: sent its first request's headers),
    /// so that connections which say nothing hold no file descriptor for long.
    #[arg(long, env = "SOLVER_HANDSHAKE_TIMEOUT", default_value = "10s", value_parser = parse_duration)]
    pub handshake_timeout: Duration,
}
