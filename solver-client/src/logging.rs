//! Log lines (the embedded server's, mostly) on stderr, coloured as `--color` says.

use std::io::{self, IsTerminal as _};

/// When log lines are coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Color {
    /// Only on a terminal, and not when `NO_COLOR` is set.
    Auto,
    /// Always, even into a file or a pipe.
    Always,
    /// Never.
    Never,
}

impl Color {
    /// Whether to write ANSI colour codes to stderr.
    fn ansi(self) -> bool {
        match self {
            Color::Always => true,
            Color::Never => false,
            Color::Auto => {
                io::stderr().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none_or(|value| value.is_empty())
            }
        }
    }
}

/// Filters applied unless `RUST_LOG` says otherwise: warnings and errors only (a stored database
/// that cannot be used, say), so stderr stays quiet on a normal run.
const DEFAULT_LOG_FILTER: &str = "warn";

/// Sends log lines (the embedded server's, mostly) to stderr, without colour unless `color` says.
pub(crate) fn init(color: Color) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(DEFAULT_LOG_FILTER));
    // A second subscriber (none today) would only mean these lines go elsewhere. A closed stderr
    // must not matter: tracing-subscriber's own report of a failed write is an `eprintln!`, which
    // panics then, and the panic would stop the embedded server's warm-up (the run would wait
    // for it in vain).
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(io::stderr)
        .with_ansi(color.ansi())
        .without_time()
        .with_target(false)
        .log_internal_errors(false)
        .try_init();
}
