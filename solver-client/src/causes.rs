//! An error and its causes on one line, as a person reads it: `a: b: c`, as anyhow's `{:#}`
//! writes it, but a cause that only repeats the message before it is left out (tonic's
//! "tcp connect error" wraps hyper's "tcp connect error"), and so is one that message already
//! ends with (an error written as `"...: {source}"` that also gives its source).

use std::fmt::Write as _;

/// `err` and each of its causes, separated by `: `, consecutive repeats dropped.
pub(crate) fn one_line(err: &anyhow::Error) -> String {
    let mut line = String::new();
    let mut last = String::new();
    for cause in err.chain() {
        let message = cause.to_string();
        if message == last || last.ends_with(&format!(": {message}")) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        let _ = write!(line, "{message}");
        last = message;
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("tcp connect error")]
    struct Connect(#[source] std::io::Error);

    #[derive(Debug, thiserror::Error)]
    #[error("tcp connect error")]
    struct Transport(#[source] Connect);

    #[derive(Debug, thiserror::Error)]
    #[error("reading /data/x: {0}")]
    struct Said(#[source] std::io::Error);

    #[test]
    fn repeated_causes_are_said_once() {
        let refused = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "refused");
        let err = anyhow::Error::from(Transport(Connect(refused))).context("connecting to x");
        assert_eq!(
            one_line(&err),
            "connecting to x: tcp connect error: refused"
        );
        // A message that already ends with its cause's says it once.
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
        let err = anyhow::Error::from(Said(io)).context("loading tables");
        assert_eq!(
            one_line(&err),
            "loading tables: reading /data/x: no such file"
        );
        let plain = anyhow::anyhow!("alone");
        assert_eq!(one_line(&plain), "alone");
    }
}
