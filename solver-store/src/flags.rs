//! What the server's and the client's flags share, defined once: the data directory's
//! environment variables (each program words its own help), the tables' memory budget, and how a
//! duration is written.

use std::time::Duration;

/// The variable of `--data-dir`, the data directory ([`DataDir::from_flags`](crate::DataDir::from_flags)).
pub const DATA_DIR_ENV: &str = "SOLVER_DATA_DIR";

/// The variable of `--no-data-dir`: keep no tables between runs.
pub const NO_DATA_DIR_ENV: &str = "SOLVER_NO_DATA_DIR";

/// The default of `--table-memory`: MiB the other shapes' tables may take, builds included
/// (the server's budget, and that of `solver-client databases build --size`).
pub const TABLE_MEMORY_MIB: u64 = 4096;

/// Why a duration flag's value was refused; clap prints it after the flag's name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DurationError {
    /// No number where a duration begins.
    #[error("{0:?} is not a duration like 500ms, 30s, 5m or 1h")]
    NotADuration(String),
    /// A duration with a unit other than `ms`, `s`, `m` or `h`.
    #[error("{text:?} has unit {unit:?}; use ms, s, m or h (e.g. 500ms, 30s, 5m)")]
    DurationUnit {
        /// The value given.
        text: String,
        /// The unit found.
        unit: String,
    },
    /// A duration too long to represent.
    #[error("{0:?} is too long a duration")]
    DurationTooLong(String),
}

/// Reads `250ms`, `30s`, `5m`, `1h` or a bare number of seconds.
///
/// # Errors
/// A [`DurationError`] saying what a duration looks like.
pub fn parse_duration(text: &str) -> Result<Duration, DurationError> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (digits, unit) = text.split_at(split);
    let value: u64 = digits
        .parse()
        .map_err(|_| DurationError::NotADuration(text.to_owned()))?;
    let seconds = |per: u64| {
        value
            .checked_mul(per)
            .map(Duration::from_secs)
            .ok_or_else(|| DurationError::DurationTooLong(text.to_owned()))
    };
    match unit {
        "ms" => Ok(Duration::from_millis(value)),
        "" | "s" => seconds(1),
        "m" => seconds(60),
        "h" => seconds(3600),
        _ => Err(DurationError::DurationUnit {
            text: text.to_owned(),
            unit: unit.to_owned(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("30"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("5m"), Ok(Duration::from_secs(300)));
        assert_eq!(
            parse_duration("5 weeks"),
            Err(DurationError::DurationUnit {
                text: "5 weeks".to_owned(),
                unit: " weeks".to_owned()
            })
        );
        assert_eq!(
            parse_duration("ms"),
            Err(DurationError::NotADuration("ms".to_owned()))
        );
        assert_eq!(
            parse_duration("18446744073709551615h"),
            Err(DurationError::DurationTooLong(
                "18446744073709551615h".to_owned()
            ))
        );
    }
}
