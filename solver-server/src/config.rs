//! Server configuration: command-line flags with `SOLVER_*` environment fallbacks.

use std::fmt;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use clap::{Parser, ValueEnum};

use solver_store::flags::{self, DurationError, parse_duration};
use solver_store::{DataDir, Findings};

/// A puzzle kind: the name it has in flags, logs and metric labels. Each is served by one module
/// of the server, which names its kind; this list is what flags and metrics enumerate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, ValueEnum)]
pub enum Kind {
    /// The 8-puzzle (3×3), `SolveEight`.
    Eight,
    /// The 15-puzzle (4×4), `SolveFifteen`.
    Fifteen,
    /// Four-piece Solitaire on 8×8, `SolveSolitaire`.
    Solitaire,
    /// Sliding boards of every other shape, 2×2 to 8×8 (`solver.v2` only; nothing to warm up).
    Sliding,
}

impl Kind {
    /// Every kind, in declaration order (metrics index their series by it).
    pub const ALL: [Kind; 4] = [Kind::Eight, Kind::Fifteen, Kind::Solitaire, Kind::Sliding];

    /// The lowercase name used in flags, logs and metric labels.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Eight => "eight",
            Kind::Fifteen => "fifteen",
            Kind::Solitaire => "solitaire",
            Kind::Sliding => "sliding",
        }
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The tables to build before reporting SERVING: `eight,fifteen`, or `none`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WarmUp(pub Vec<Kind>);

impl From<Vec<Kind>> for WarmUp {
    fn from(kinds: Vec<Kind>) -> Self {
        Self(kinds)
    }
}

impl FromStr for WarmUp {
    type Err = FlagError;

    fn from_str(text: &str) -> Result<Self, FlagError> {
        let text = text.trim();
        if text.is_empty() || text.eq_ignore_ascii_case("none") {
            return Ok(Self(Vec::new()));
        }
        text.split(',')
            .map(|name| {
                <Kind as ValueEnum>::from_str(name.trim(), true)
                    .map_err(|_| FlagError::NotAKind(name.to_owned()))
            })
            .collect::<Result<_, _>>()
            .map(Self)
    }
}

impl fmt::Display for WarmUp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("none");
        }
        for (i, kind) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            f.write_str(kind.name())?;
        }
        Ok(())
    }
}

/// The default and the most of `--max-solitaire-moves`. The search stops by itself once a
/// frontier is empty (the board has 635,376 positions), so the cap only keeps absurd limits out.
const SOLITAIRE_MOVES_LIMIT: u32 = 256;

/// What the server is, in one line: its `--help` starts with it.
pub const ABOUT: &str = "gRPC service that solves sliding-tile puzzles of any shape from 2x2 to 8x8 \
                         (optimally, or within a proven ratio) and four-piece Solitaire";

/// How the server runs. Every flag has a `SOLVER_*` environment fallback; `--help` lists them.
///
/// [`Config::default`] is the configuration for an in-process server (tests, the client's
/// embedded mode): no metrics port, no maximum connection age, and only the 3×3 table warmed up
/// so it is ready in milliseconds. The binary's defaults (see `--help`) add the metrics port,
/// a 5-minute connection age and the 15-puzzle pattern databases.
#[derive(Debug, Clone, Parser)]
#[command(name = "solver-server", version, about = ABOUT)]
pub struct Config {
    /// Address the gRPC service listens on. Only the binary reads it: `serve` is given a bound
    /// listener.
    #[arg(long, env = "SOLVER_LISTEN", default_value = "0.0.0.0:50051")]
    pub listen: SocketAddr,

    /// Address of the Prometheus endpoint (`GET /metrics`), or `off` for none. Every interface
    /// (`0.0.0.0`, the default) means loopback alone when `--listen` is a loopback address.
    #[arg(long, env = "SOLVER_METRICS_LISTEN", default_value = "0.0.0.0:9090", value_parser = parse_optional_addr)]
    pub metrics_listen: ::std::option::Option<SocketAddr>,

    /// Tables to build before reporting SERVING, comma-separated (`eight`, `fifteen`;
    /// `solitaire` needs none), or `none`: the first case of each kind then builds its tables
    /// (the 15-puzzle's take seconds).
    #[arg(long, env = "SOLVER_WARM_UP", default_value = "eight,fifteen")]
    pub warm_up: WarmUp,

    /// Directory of stored pattern databases; default: the platform's cache directory
    /// (`$XDG_CACHE_HOME/puzzle-solver`, else `~/.cache/puzzle-solver`). Every set of 15-puzzle
    /// databases is loaded from it when stored there and stored there when built, so each is
    /// built once; with the 7-8 set stored (about 0.3 s to load, 577 MB of memory) every
    /// 15-puzzle case is answered with it.
    #[arg(long, env = flags::DATA_DIR_ENV, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,

    /// Keep no pattern databases between runs: build what is needed in memory each time.
    #[arg(long, env = flags::NO_DATA_DIR_ENV, conflicts_with = "data_dir")]
    pub no_data_dir: bool,

    /// Not a flag: where the server reports what it finds in its data directory (a stored
    /// 15-puzzle file that fails its checks, a set stored), by default nowhere. A program that
    /// embeds the server passes one end of [`Findings::channel`] and learns what it found.
    #[arg(skip)]
    pub findings: Findings,

    /// When the data directory has no 7-8 databases yet: build them in the background (minutes
    /// of one core, about 1.5 GB of memory) and store them there (`true`), or do without
    /// (`false`). `solver-server build-databases` builds them ahead of time instead.
    #[arg(long, env = "SOLVER_BUILD_DATABASES", default_value_t = true, action = clap::ArgAction::Set)]
    pub build_databases: bool,

    /// With `fifteen` warmed up: right after SERVING, build in the background the 15-puzzle
    /// databases for targets whose blank is not in a corner (about 9 s of CPU, about 30 MB), so that
    /// the first such case does not wait for them (`false`: that case builds its own set).
    #[arg(long, env = "SOLVER_WARM_UP_TARGETS", default_value_t = true, action = clap::ArgAction::Set)]
    pub warm_up_targets: bool,

    /// Threads that run searches at once (the bounded pool); 0 means one per CPU core.
    #[arg(long, env = "SOLVER_WORKERS", default_value_t = 0, value_parser = parse_workers)]
    pub workers: usize,

    /// Cases in flight per stream (read but not yet answered). When the window is full the
    /// server stops reading that stream, which pushes back on the sender. A stream whose client
    /// stops reading holds up to this many cases read and as many replies queued: about 440
    /// bytes per unit of window (measured; see the README's flow-control section).
    #[arg(long, env = "SOLVER_WINDOW", default_value_t = 256, value_parser = parse_positive)]
    pub window: usize,

    /// HTTP/2 receive window of each stream, in bytes: what a client may send on a stream
    /// beyond what the server has read (at least 21846: smaller windows can hang a client that
    /// sends before it has read the server's settings). A stream that is not read holds that
    /// much in request frames, plus about 220 bytes of h2 state per frame (18-byte frames of one
    /// message each: about 290 KiB at 24 KiB). The connection's window is sized from it so that
    /// no client sending one message per frame is ever sent GOAWAY "too_many_data_frames"; that
    /// allows at most 870 streams per connection at 24 KiB (20 at 1 MiB).
    #[arg(long, env = "SOLVER_STREAM_WINDOW", default_value_t = 24 << 10, value_parser = parse_stream_window)]
    pub stream_window: u32,

    /// Most ready cases of one stream gathered into one batch of cheap work (3×3 look-ups).
    #[arg(long, env = "SOLVER_BATCH", default_value_t = 256, value_parser = parse_positive)]
    pub batch: usize,

    /// Most entries in the cache of solved states shared by all streams; 0 turns it off.
    #[arg(long, env = "SOLVER_CACHE_ENTRIES", default_value_t = 1_000_000)]
    pub cache_entries: usize,

    /// Most memory, in MiB, that the tables of the other sliding shapes may take, builds
    /// included (a 3×4 or 2×6 table: 60 MB, 180 MB while built; the 24-puzzle's 6-6-6-6
    /// databases: 977 MB, about 2.9 GB while built; a smaller budget gets smaller patterns).
    /// Capped at half the container's memory limit; 0 builds none (Manhattan distance alone).
    #[arg(
        long,
        env = "SOLVER_TABLE_MEMORY",
        default_value_t = flags::TABLE_MEMORY_MIB,
        value_name = "MIB"
    )]
    pub table_memory: u64,

    /// Most memory, in MiB, that a table build started by a request may peak at. Stored tables
    /// within `--table-memory` are always loaded; a larger build (the 24-puzzle's 6-6-6-6
    /// databases: about 2.9 GB) is an operator's (`solver-client databases build --size 5x5`
    /// into the data directory), and until it is stored requests get the strongest set whose
    /// build fits this.
    #[arg(
        long,
        env = "SOLVER_REQUEST_BUILD_MEMORY",
        default_value_t = 1024,
        value_name = "MIB"
    )]
    pub request_build_memory: u64,

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

    /// Longest one case may search (e.g. `500ms`, `30s`, `2m`). A case that runs out gets a
    /// RESOURCE_EXHAUSTED error in its reply; the stream goes on.
    #[arg(long, env = "SOLVER_CASE_TIMEOUT", default_value = "60s", value_parser = parse_duration)]
    pub case_timeout: Duration,

    /// Search nodes a searched case may expand when its request sets no `node_budget` (a
    /// 15-puzzle node is a board, a Solitaire node a position; 3×3 cases are looked up, not
    /// searched); 0 means no node limit (the time limit still applies).
    #[arg(long, env = "SOLVER_NODE_BUDGET", default_value_t = 0)]
    pub node_budget: u64,

    /// Most search nodes any 15-puzzle or Solitaire case (or v2 call: a hint's or a scramble's
    /// searches together) may expand, whatever its request asks; 0 means no cap.
    #[arg(long, env = "SOLVER_MAX_NODE_BUDGET", default_value_t = 0)]
    pub max_node_budget: u64,

    /// Largest Solitaire `max_moves` accepted (1 to 256: a search ends by itself long before,
    /// the board having 635,376 positions); larger requests get INVALID_ARGUMENT.
    #[arg(long, env = "SOLVER_MAX_SOLITAIRE_MOVES", default_value_t = SOLITAIRE_MOVES_LIMIT,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(SOLITAIRE_MOVES_LIMIT)))]
    pub max_solitaire_moves: u32,

    /// On SIGTERM/SIGINT, how long in-flight cases may take to finish before they are cancelled.
    #[arg(long, env = "SOLVER_GRACE_PERIOD", default_value = "10s", value_parser = parse_duration)]
    pub grace_period: Duration,

    /// TLS on the gRPC port: the certificate chain (PEM, leaf first), with `--tls-key`. The
    /// files are read again when they change (checked every 2 s; new connections use the new
    /// certificate). Without it the port speaks plaintext HTTP/2 (inside a mesh that adds TLS).
    #[arg(
        long,
        env = "SOLVER_TLS_CERT",
        value_name = "PEM",
        requires = "tls_key"
    )]
    pub tls_cert: Option<PathBuf>,

    /// The private key of `--tls-cert` (PEM: PKCS#8, PKCS#1 or SEC1).
    #[arg(
        long,
        env = "SOLVER_TLS_KEY",
        value_name = "PEM",
        requires = "tls_cert"
    )]
    pub tls_key: Option<PathBuf>,

    /// Mutual TLS: CA certificates (PEM) that client certificates must chain to; clients
    /// without a valid certificate are refused during the handshake.
    #[arg(
        long,
        env = "SOLVER_TLS_CLIENT_CA",
        value_name = "PEM",
        requires = "tls_cert"
    )]
    pub tls_client_ca: Option<PathBuf>,

    /// Bearer tokens: a file with one token per line (blank lines and `#` comments skipped),
    /// read again when it changes (checked every 2 s). Every call but unary health checks
    /// (`Check`) and reflection must then send `authorization: Bearer TOKEN` with a listed
    /// token, or it ends UNAUTHENTICATED; health `Watch` streams need one too. It fails closed:
    /// while the file is emptied, deleted or unreadable, every token is refused (calls that need
    /// one end UNAUTHENTICATED) until it loads again, so a file missing for a moment revokes for
    /// up to 2 s (replace it by renaming a new file over it, as Kubernetes does with Secrets).
    /// The server does not start without a usable file. Without the flag, no token is asked for.
    #[arg(long, env = "SOLVER_AUTH_TOKENS_FILE", value_name = "FILE")]
    pub auth_tokens_file: Option<PathBuf>,

    /// With `--auth-tokens-file`: most calls (streams and unary calls) one token may hold open
    /// at once; more end RESOURCE_EXHAUSTED.
    #[arg(long, env = "SOLVER_MAX_STREAMS_PER_TOKEN", default_value_t = 256, value_parser = parse_positive)]
    pub max_streams_per_token: usize,

    /// With `--auth-tokens-file`: most cases one token may have in flight over all its streams;
    /// at the limit its streams stop reading until some are answered.
    #[arg(long, env = "SOLVER_MAX_CASES_PER_TOKEN", default_value_t = 4096, value_parser = parse_positive)]
    pub max_cases_per_token: usize,

    /// Browser pages of other origins allowed to call through gRPC-Web (CORS): a
    /// comma-separated list such as `https://game.example,http://localhost:8080`, or `*` for
    /// any. Empty (the default): only pages of the server's own origin. gRPC-Web itself (HTTP/1.1
    /// or HTTP/2, `application/grpc-web*`) is always served on the gRPC port.
    #[arg(
        long,
        env = "SOLVER_CORS_ALLOWED_ORIGINS",
        value_name = "ORIGINS",
        default_value = ""
    )]
    pub cors_allowed_origins: crate::web::AllowedOrigins,

    /// Serve the page at `/` (a board, scrambles, hints and solutions played back, through
    /// gRPC-Web) on the gRPC port; `false` leaves `/` to gRPC alone.
    #[arg(long, env = "SOLVER_WEB_PAGE", default_value_t = true, action = clap::ArgAction::Set)]
    pub web_page: bool,

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

impl Default for Config {
    /// The flags' defaults, read from the `#[arg]` attributes above (their one source: an
    /// empty command line with every `SOLVER_*` variable ignored), then what an in-process
    /// server does differently: no metrics port, no maximum connection age, only the 3×3
    /// table warmed up and no background build of the other targets' databases, so it is
    /// ready in milliseconds.
    fn default() -> Self {
        let command = <Self as clap::CommandFactory>::command().mut_args(|arg| arg.env(None));
        let binary = command
            .try_get_matches_from(["solver-server"])
            .and_then(|matches| <Self as clap::FromArgMatches>::from_arg_matches(&matches))
            .expect("every flag has a default that parses");
        Self {
            metrics_listen: None,
            warm_up: WarmUp(vec![Kind::Eight]),
            warm_up_targets: false,
            max_connection_age: None,
            ..binary
        }
    }
}

impl Config {
    /// The data directory these settings choose: `data_dir`, else the platform's cache
    /// directory, or none with `no_data_dir`.
    #[must_use]
    pub fn data(&self) -> DataDir {
        DataDir::from_flags(self.data_dir.clone(), self.no_data_dir)
    }

    /// The TLS files these settings name, if any.
    #[must_use]
    pub fn tls(&self) -> Option<crate::tls::TlsPaths> {
        Some(crate::tls::TlsPaths {
            cert: self.tls_cert.clone()?,
            key: self.tls_key.clone()?,
            client_ca: self.tls_client_ca.clone(),
        })
    }

    /// [`search_memory`](Self::search_memory) in bytes.
    #[must_use]
    pub fn search_memory_bytes(&self) -> usize {
        usize::try_from(self.search_memory.saturating_mul(1 << 20)).unwrap_or(usize::MAX)
    }

    /// The number of search threads: `workers`, or one per core when it is 0.
    #[must_use]
    pub fn worker_count(&self) -> usize {
        if self.workers > 0 {
            self.workers
        } else {
            std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
        }
    }

    /// The node budget of a 15-puzzle case whose request asked for `requested` (0 = default).
    /// `None` means unlimited.
    #[must_use]
    pub fn node_budget_for(&self, requested: u64) -> Option<u64> {
        let wanted = if requested > 0 {
            requested
        } else {
            self.node_budget
        };
        match (wanted, self.max_node_budget) {
            (0, 0) => None,
            (0, cap) => Some(cap),
            (n, 0) => Some(n),
            (n, cap) => Some(n.min(cap)),
        }
    }
}

/// Why a flag's value (or its `SOLVER_*` variable) was refused; clap prints it after the
/// flag's name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FlagError {
    /// Not a whole number.
    #[error("{text:?} is not a whole number: {source}")]
    NotANumber {
        /// The value given.
        text: String,
        /// Why it does not parse.
        source: std::num::ParseIntError,
    },
    /// A count or size outside what the flag allows.
    #[error("{value} is out of range: expected {min} to {max}{unit}")]
    OutOfRange {
        /// The value given.
        value: u64,
        /// The least allowed.
        min: u64,
        /// The most allowed.
        max: u64,
        /// What the value counts, as printed after `max` (` bytes`, or nothing).
        unit: &'static str,
    },
    /// More worker threads than the server starts.
    #[error("{0} workers is too many: expected 0 (one per core) to {MAX_WORKERS}")]
    TooManyWorkers(u64),
    /// Not a socket address.
    #[error("{text:?} is not a socket address like 0.0.0.0:9090 (or `off`): {source}")]
    NotAnAddress {
        /// The value given.
        text: String,
        /// Why it does not parse.
        source: std::net::AddrParseError,
    },
    /// Not a duration ([`parse_duration`]).
    #[error(transparent)]
    Duration(#[from] DurationError),
    /// A name in `--warm-up` that is not a puzzle kind.
    #[error("{0:?} is not a puzzle kind: expected eight, fifteen, solitaire or none")]
    NotAKind(String),
}

/// The most `--workers`.
const MAX_WORKERS: u64 = 4096;

/// Reads a whole number of type `T` within `min..=max`.
fn parse_within<T>(text: &str, min: T, max: T, unit: &'static str) -> Result<T, FlagError>
where
    T: FromStr<Err = std::num::ParseIntError> + PartialOrd + Into<u64> + Copy,
{
    let value = text
        .trim()
        .parse::<T>()
        .map_err(|source| FlagError::NotANumber {
            text: text.to_owned(),
            source,
        })?;
    if (min..=max).contains(&value) {
        Ok(value)
    } else {
        Err(FlagError::OutOfRange {
            value: value.into(),
            min: min.into(),
            max: max.into(),
            unit,
        })
    }
}

/// Reads a count from 1 to 1,000,000 (semaphores and channels are sized by these counts).
fn parse_positive(text: &str) -> Result<usize, FlagError> {
    parse_within::<u64>(text, 1, 1_000_000, "")
        .map(|n| usize::try_from(n).expect("at most a million"))
}

/// Reads an HTTP/2 stream window: 21,846 bytes to 1 MiB.
fn parse_stream_window(text: &str) -> Result<u32, FlagError> {
    parse_within(text, crate::http::MIN_STREAM_WINDOW, 1 << 20, " bytes")
}

/// Reads a worker count: 0 (one per core) to 4,096.
fn parse_workers(text: &str) -> Result<usize, FlagError> {
    match parse_within::<u64>(text, 0, MAX_WORKERS, "") {
        Ok(n) => Ok(usize::try_from(n).expect("at most 4096")),
        Err(FlagError::OutOfRange { value, .. }) => Err(FlagError::TooManyWorkers(value)),
        Err(other) => Err(other),
    }
}

fn parse_optional_addr(text: &str) -> Result<Option<SocketAddr>, FlagError> {
    match text.trim() {
        "off" | "none" | "" => Ok(None),
        other => other
            .parse()
            .map(Some)
            .map_err(|source| FlagError::NotAnAddress {
                text: other.to_owned(),
                source,
            }),
    }
}

fn parse_optional_duration(text: &str) -> Result<Option<Duration>, FlagError> {
    match text.trim() {
        "off" | "none" | "" => Ok(None),
        other => Ok(Some(parse_duration(other)?)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_is_listed_once_by_its_flag_name() {
        assert_eq!(Kind::ALL.as_slice(), Kind::value_variants());
        for (index, kind) in Kind::ALL.into_iter().enumerate() {
            assert_eq!(kind as usize, index);
            let flag = kind.to_possible_value().expect("no kind is hidden");
            assert_eq!(flag.get_name(), kind.name());
        }
    }

    #[test]
    fn durations() {
        // The parsing itself is `solver_store::flags`' (shared with the client), tested there.
        assert_eq!(parse_optional_duration("off"), Ok(None));
        assert_eq!(
            parse_optional_duration("5m"),
            Ok(Some(Duration::from_secs(300)))
        );
        assert_eq!(
            parse_optional_duration("ms"),
            Err(FlagError::Duration(DurationError::NotADuration(
                "ms".to_owned()
            )))
        );
    }

    /// What clap prints after the flag's name: the value and the rule it breaks.
    #[test]
    fn refusals_name_the_value_and_the_rule() {
        let message = |args: &[&str]| {
            Config::try_parse_from(std::iter::once("solver-server").chain(args.iter().copied()))
                .unwrap_err()
                .to_string()
        };
        for (args, expected) in [
            (
                &["--window", "0"][..],
                "0 is out of range: expected 1 to 1000000",
            ),
            (&["--window", "x"], "\"x\" is not a whole number"),
            (
                &["--stream-window", "4096"],
                "4096 is out of range: expected 21846 to 1048576 bytes",
            ),
            (
                &["--workers", "100000"],
                "100000 workers is too many: expected 0 (one per core) to 4096",
            ),
            (&["--warm-up", "nine"], "\"nine\" is not a puzzle kind"),
            (
                &["--metrics-listen", "here"],
                "\"here\" is not a socket address",
            ),
            (&["--case-timeout", "5 weeks"], "has unit \" weeks\""),
        ] {
            let text = message(args);
            assert!(text.contains(expected), "{args:?}: {text}");
        }
    }

    #[test]
    fn binary_defaults() {
        let config = Config::try_parse_from(["solver-server"]).unwrap();
        assert_eq!(config.listen, "0.0.0.0:50051".parse().unwrap());
        assert_eq!(config.metrics_listen, Some("0.0.0.0:9090".parse().unwrap()));
        assert_eq!(config.warm_up, WarmUp(vec![Kind::Eight, Kind::Fifteen]));
        assert_eq!(config.data_dir, None);
        assert!(config.build_databases);
        assert!(config.warm_up_targets);
        assert_eq!(config.max_connection_age, Some(Duration::from_secs(300)));
        assert_eq!(config.window, 256);
        assert_eq!(config.case_timeout, Duration::from_secs(60));
    }

    /// The embedded defaults are the binary's but for the four documented differences.
    #[test]
    fn embedded_defaults_are_the_binary_ones_but_four() {
        let binary = Config::try_parse_from(["solver-server"]).unwrap();
        let embedded = Config::default();
        assert_eq!(embedded.metrics_listen, None);
        assert_eq!(embedded.warm_up, WarmUp(vec![Kind::Eight]));
        assert!(!embedded.warm_up_targets);
        assert_eq!(embedded.max_connection_age, None);
        let expected = Config {
            metrics_listen: None,
            warm_up: WarmUp(vec![Kind::Eight]),
            warm_up_targets: false,
            max_connection_age: None,
            ..binary
        };
        assert_eq!(format!("{embedded:?}"), format!("{expected:?}"));
    }

    #[test]
    fn flags() {
        let config = Config::try_parse_from([
            "solver-server",
            "--metrics-listen",
            "off",
            "--warm-up",
            "none",
            "--build-databases",
            "false",
            "--warm-up-targets",
            "false",
            "--max-connection-age",
            "off",
            "--case-timeout",
            "500ms",
        ])
        .unwrap();
        assert_eq!(config.metrics_listen, None);
        assert!(config.warm_up.0.is_empty());
        assert!(!config.build_databases);
        assert!(!config.warm_up_targets);
        assert_eq!(config.max_connection_age, None);
        assert_eq!(config.case_timeout, Duration::from_millis(500));
        let config =
            Config::try_parse_from(["solver-server", "--warm-up", "fifteen,eight"]).unwrap();
        assert_eq!(config.warm_up, WarmUp(vec![Kind::Fifteen, Kind::Eight]));
        assert_eq!(config.warm_up.to_string(), "fifteen,eight");
        assert!(Config::try_parse_from(["solver-server", "--warm-up", "nine"]).is_err());
        assert!(Config::try_parse_from(["solver-server", "--window", "0"]).is_err());
        assert!(Config::try_parse_from(["solver-server", "--stream-window", "4096"]).is_err());
        assert_eq!(
            Config::try_parse_from(["solver-server", "--stream-window", "65536"])
                .unwrap()
                .stream_window,
            65536
        );
        assert!(Config::try_parse_from(["solver-server", "--max-streams", "99999999999"]).is_err());
        assert!(Config::try_parse_from(["solver-server", "--workers", "100000"]).is_err());
    }

    #[test]
    fn a_solitaire_move_limit_out_of_range_is_refused_not_clamped() {
        for bad in ["0", "257", "100000"] {
            let err = Config::try_parse_from(["solver-server", "--max-solitaire-moves", bad])
                .unwrap_err()
                .to_string();
            assert!(
                err.contains("--max-solitaire-moves") && err.contains("1..=256"),
                "{err}"
            );
        }
        let config =
            Config::try_parse_from(["solver-server", "--max-solitaire-moves", "256"]).unwrap();
        assert_eq!(config.max_solitaire_moves, 256);
    }

    #[test]
    fn data_directory_choice() {
        let config = Config::try_parse_from(["solver-server", "--data-dir", "/srv/db"]).unwrap();
        assert_eq!(config.data().path(), Some(std::path::Path::new("/srv/db")));
        let config = Config::try_parse_from(["solver-server", "--no-data-dir"]).unwrap();
        assert_eq!(config.data().path(), None);
        assert!(
            Config::try_parse_from(["solver-server", "--no-data-dir", "--data-dir", "/x"]).is_err()
        );
    }

    #[test]
    fn node_budgets() {
        let mut config = Config::default();
        assert_eq!(config.node_budget_for(0), None);
        assert_eq!(config.node_budget_for(10), Some(10));
        config.max_node_budget = 5;
        assert_eq!(config.node_budget_for(0), Some(5));
        assert_eq!(config.node_budget_for(10), Some(5));
        config.node_budget = 3;
        assert_eq!(config.node_budget_for(0), Some(3));
    }

    #[test]
    fn help_is_consistent() {
        use clap::CommandFactory;
        Config::command().debug_assert();
    }
}
