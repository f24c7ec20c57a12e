//! Who may call: the bearer tokens, and what one token may hold.

use std::path::PathBuf;

use clap::Args;

use super::values::parse_positive;

/// The bearer tokens and the limits of each; no tokens asked for without a file.
#[derive(Debug, Clone, Args)]
pub struct Auth {
    /// Bearer tokens: a file with one token per line (blank lines and `#` comments skipped),
    /// read again when it changes (checked every 2 s). Every call but unary health checks
    /// (`Check`) and reflection must then send `authorization: Bearer TOKEN` with a listed
    /// token, or it ends UNAUTHENTICATED; health `Watch` streams need one too. It fails closed:
    /// while the file is emptied, deleted or unreadable, every token is refused (calls that need
    /// one end UNAUTHENTICATED) until it loads again, so a file missing for a moment revokes for
    /// up to 2 s (replace it by renaming a new file over it, as Kubernetes does with Secrets).
    /// The server does not start without a usable file. Without the flag, no token is asked for.
    #[arg(
        id = "auth_tokens_file",
        long = "auth-tokens-file",
        env = "SOLVER_AUTH_TOKENS_FILE",
        value_name = "FILE"
    )]
    pub tokens_file: Option<PathBuf>,

    /// With `--auth-tokens-file`: most calls (streams and unary calls) one token may hold open
    /// at once; more end RESOURCE_EXHAUSTED.
    #[arg(long, env = "SOLVER_MAX_STREAMS_PER_TOKEN", default_value_t = 256, value_parser = parse_positive)]
    pub max_streams_per_token: usize,

    /// With `--auth-tokens-file`: most cases one token may have in flight over all its streams;
    /// at the limit its streams stop reading until some are answered.
    #[arg(long, env = "SOLVER_MAX_CASES_PER_TOKEN", default_value_t = 4096, value_parser = parse_positive)]
    pub max_cases_per_token: usize,
}
