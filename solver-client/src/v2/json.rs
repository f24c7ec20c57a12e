//! JSON output of the `solver.v2` commands.

use std::io::{self, Write as _};

/// Writes `value` on one line of stdout.
pub(super) fn print_json(value: &serde_json::Value) -> io::Result<()> {
    let mut out = io::stdout().lock();
    writeln!(out, "{value}")?;
    out.flush()
}

/// The search statistics of a response, for `--json`.
pub(super) fn stats_json(stats: Option<&solver_proto::v2::SearchStats>) -> serde_json::Value {
    match stats {
        Some(stats) => serde_json::json!({
            "method": stats.method,
            "nodes": stats.nodes,
            "iterations": stats.iterations,
        }),
        None => serde_json::Value::Null,
    }
}
