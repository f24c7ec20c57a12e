//! Reading flag values: the parsers that say why a value is refused, and [`FlagError`], which
//! says it.

use std::net::SocketAddr;
use std::str::FromStr;
use std::time::Duration;

use solver_store::flags::{DurationError, parse_duration};

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
    #[error("{name:?} is not a puzzle kind: expected {kinds} or none")]
    NotAKind {
        /// The name given.
        name: String,
        /// Every kind's name, comma-separated.
        kinds: String,
    },
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
pub(super) fn parse_positive(text: &str) -> Result<usize, FlagError> {
    parse_within::<u64>(text, 1, 1_000_000, "")
        .map(|n| usize::try_from(n).expect("at most a million"))
}

/// Reads an HTTP/2 stream window: 21,846 bytes to 1 MiB.
pub(super) fn parse_stream_window(text: &str) -> Result<u32, FlagError> {
    parse_within(text, crate::http::MIN_STREAM_WINDOW, 1 << 20, " bytes")
}

/// Reads a worker count: 0 (one per core) to 4,096.
pub(super) fn parse_workers(text: &str) -> Result<usize, FlagError> {
    match parse_within::<u64>(text, 0, MAX_WORKERS, "") {
        Ok(n) => Ok(usize::try_from(n).expect("at most 4096")),
        Err(FlagError::OutOfRange { value, .. }) => Err(FlagError::TooManyWorkers(value)),
        Err(other) => Err(other),
    }
}

/// Reads a socket address, or `off` (also `none` or nothing) for none.
pub(super) fn parse_optional_addr(text: &str) -> Result<Option<SocketAddr>, FlagError> {
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

/// Reads a duration, or `off` (also `none` or nothing) for none.
pub(super) fn parse_optional_duration(text: &str) -> Result<Option<Duration>, FlagError> {
    match text.trim() {
        "off" | "none" | "" => Ok(None),
        other => Ok(Some(parse_duration(other)?)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
