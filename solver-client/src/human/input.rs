//! What every family's `solve` shares: reading the arguments or standard input, and the printer
//! for the cases read.

use std::io::{self, IsTerminal as _, Read as _};

use anyhow::{Context as _, bail};

use super::printer::Printer;
use super::view::View;
use crate::case::{Case, Input};

/// The cases of `input` (read from standard input when `from_stdin`) and the printer for them,
/// shown as `view` says.
///
/// # Errors
/// A problem outside any case, or no case at all.
pub(crate) fn cases(
    input: Input,
    view: View,
    from_stdin: bool,
) -> anyhow::Result<(Vec<Case>, Printer)> {
    if let Some((_, problem)) = input.problems.first() {
        bail!("{problem}");
    }
    if input.cases.is_empty() {
        if from_stdin {
            bail!("no board given: none as arguments, and none on standard input");
        }
        bail!("no board given");
    }
    let many = input.cases.len() > 1;
    Ok((input.cases, Printer::new(view, many, from_stdin)))
}

/// The text to read boards from: the arguments, one per line, or standard input when there are
/// none (`true` then).
pub(crate) fn boards_text(arguments: &[String]) -> anyhow::Result<(Vec<u8>, bool)> {
    if !arguments.is_empty() {
        return Ok((arguments.join("\n").into_bytes(), false));
    }
    let stdin = io::stdin();
    if stdin.is_terminal() {
        eprintln!(
            "solver-client: no boards as arguments; reading them from standard input, one per \
             line (end with Ctrl-D)"
        );
    }
    let mut text = Vec::new();
    stdin
        .lock()
        .read_to_end(&mut text)
        .context("reading standard input")?;
    Ok((text, true))
}
