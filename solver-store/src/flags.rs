//! What the server's and the client's flags share, defined once: the data directory's
//! environment variables (each program words its own help), the tables' memory budget, how a
//! duration is written, and when log lines are coloured (`--color`).

use std::ffi::OsStr;
use std::io::IsTerminal as _;
use std::time::Duration;

/// The variable of `--data-dir`, the data directory ([`DataDir::from_flags`](crate::DataDir::from_flags)).
pub const DATA_DIR_ENV: &str = "SOLVER_DATA_DIR";

/// The variable of `--no-data-dir`: keep no tables between runs.
pub const NO_DATA_DIR_ENV: &str = "SOLVER_NO_DATA_DIR";

/// The default of `--table-memory`: MiB the other shapes' tables may take, builds included
/// (the server's budget, and that of `solver-client databases build --size`): 6144 MiB holds
/// the 24-puzzle's six stored 6-6-6-6 sets (5.9 GB) that race on each optimal case.
pub const TABLE_MEMORY_MIB: u64 = 6144;

/// `--color WHEN`: when log lines on stderr are coloured, the same for the server and the client
/// (the `NO_COLOR` convention, <https://no-color.org>, with a flag to override it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Color {
    /// Only on a terminal, and not when `NO_COLOR` is set (to anything but the empty string).
    #[default]
    Auto,
    /// Always, even into a file or a pipe.
    Always,
    /// Never.
    Never,
}

impl Color {
    /// Whether to write ANSI colour codes to this process's stderr.
    #[must_use]
    pub fn ansi(self) -> bool {
        self.ansi_for(
            std::io::stderr().is_terminal(),
            std::env::var_os("NO_COLOR").as_deref(),
        )
    }

    /// Whether to colour, given whether stderr is a `terminal` and the value of `NO_COLOR`.
    fn ansi_for(self, terminal: bool, no_color: Option<&OsStr>) -> bool {
        match self {
            Color::Always => true,
            Color::Never => false,
            Color::Auto => terminal && no_color.is_none_or(OsStr::is_empty),
        }
    }
}

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
    fn colour_follows_the_flag_then_the_terminal_and_no_color() {
        let set = Some(OsStr::new("1"));
        assert!(Color::Always.ansi_for(false, set));
        assert!(!Color::Never.ansi_for(true, None));
        assert!(Color::Auto.ansi_for(true, None));
        assert!(Color::Auto.ansi_for(true, Some(OsStr::new(""))));
        assert!(!Color::Auto.ansi_for(true, set));
        assert!(!Color::Auto.ansi_for(false, None));
        assert_eq!(Color::default(), Color::Auto);
    }

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
