//! `solver-client hint`, `scramble` and `verify`: the unary `solver.v2` RPCs for a person (or a
//! script, with `--json`).
//!
//! Each command reads its boards with the parsers of `solve eight` and `solve fifteen` (9 numbers
//! are a 3×3 board, 16 a 4×4 one; with `--size RxC`, as `solve sliding` reads them, any shape
//! from 2×2 to 8×8), talks to `--server` or to the embedded server through the same
//! plumbing as `solve` ([`crate::endpoints::open`]), makes one call and prints the answer. A call the
//! server refuses is reported with its code and, for a bad argument, the request field at fault
//! and why (the `google.rpc.BadRequest` detail); the exit code is then 1.

mod boards;
mod common;
mod connection;
mod hint;
mod json;
mod refusal;
mod scramble;
mod verify;

use std::process::ExitCode;
use std::sync::Arc;

use clap::Subcommand;
use solver_store::DataDir;

use crate::link::Link;

/// The `solver.v2` commands.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// The optimal distance of a sliding position and every legal move graded by the distance
    /// after it, best first (`solver.v2` `Hint`).
    Hint(hint::Args),
    /// Draw a sliding board at exactly a chosen optimal distance from the goal, reproducibly from
    /// a seed (`solver.v2` `Scramble`).
    Scramble(scramble::Args),
    /// Check a player's moves: legal, reaching the target, and how far from optimal
    /// (`solver.v2` `Verify`).
    Verify(verify::Args),
}

/// Runs one command against `server`, or against an embedded server keeping its databases in
/// `data`; a wait shows on a terminal when `progress`.
///
/// # Errors
/// Bad arguments, no server to talk to, or a call the server refused (reported on stdout as JSON
/// with `--json`, and the exit code is 1 then).
pub(crate) fn run(
    server: Option<&str>,
    link: &Arc<Link>,
    data: DataDir,
    command: Command,
    progress: bool,
) -> anyhow::Result<ExitCode> {
    match command {
        Command::Hint(args) => hint::run(server, link, data, args, progress),
        Command::Scramble(args) => scramble::run(server, link, data, args, progress),
        Command::Verify(args) => verify::run(server, link, data, args, progress),
    }
}
