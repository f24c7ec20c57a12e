//! Log lines (the embedded server's, mostly) on stderr, coloured as `--color` says.

use std::io;

use solver_store::flags::Color;

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
