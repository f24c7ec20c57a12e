//! `solver-client hint`, `scramble` and `verify`: the unary `solver.v2` RPCs for a person (or a
//! script, with `--json`).
//!
//! Each command reads its boards with the parsers of `solve eight` and `solve fifteen` (9 numbers
//! are a 3×3 board, 16 a 4×4 one), talks to `--server` or to the embedded server through the same
//! plumbing as `solve` ([`endpoints::open`]), makes one call and prints the answer. A call the
//! server refuses is reported with its code and, for a bad argument, the request field at fault
//! and why (the `google.rpc.BadRequest` detail); the exit code is then 1.

mod hint;
mod scramble;
mod verify;

use std::future::Future;
use std::io::{self, Write as _};
use std::process::ExitCode;

use anyhow::{Context as _, bail};
use clap::Subcommand;
use solver_core::{Board3, Board4};
use solver_proto::tonic_types::StatusExt as _;
use solver_proto::v2::solver_service_client::SolverServiceClient;
use solver_server::{DataDir, Kind};
use tonic::transport::Channel;
use tonic::{Code, Status};

use crate::case::Query;
use crate::embedded::Embedded;
use crate::endpoints::{self, Endpoint};
use crate::judge::{Format, eight, fifteen};

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
/// `data`.
///
/// # Errors
/// Bad arguments, no server to talk to, or a call the server refused (reported on stdout as JSON
/// with `--json`, and the exit code is 1 then).
pub(crate) fn run(
    server: Option<&str>,
    data: DataDir,
    command: Command,
) -> anyhow::Result<ExitCode> {
    match command {
        Command::Hint(args) => hint::run(server, data, args),
        Command::Scramble(args) => scramble::run(server, data, args),
        Command::Verify(args) => verify::run(server, data, args),
    }
}

/// One sliding board of a served size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AnyBoard {
    /// 3×3.
    Eight(Board3),
    /// 4×4.
    Fifteen(Board4),
}

impl AnyBoard {
    /// The side of the board (3 or 4).
    fn side(self) -> u32 {
        match self {
            AnyBoard::Eight(_) => 3,
            AnyBoard::Fifteen(_) => 4,
        }
    }

    /// The cells row by row, 0 for the blank.
    fn cells(&self) -> Vec<u32> {
        match self {
            AnyBoard::Eight(board) => board.cells().iter().map(|&c| u32::from(c)).collect(),
            AnyBoard::Fifteen(board) => board.cells().iter().map(|&c| u32::from(c)).collect(),
        }
    }

    /// The server tables it needs.
    fn kind(self) -> Kind {
        match self {
            AnyBoard::Eight(_) => Kind::Eight,
            AnyBoard::Fifteen(_) => Kind::Fifteen,
        }
    }
}

/// A start and its target, of one size.
#[derive(Debug, Clone, Copy)]
struct Boards {
    start: AnyBoard,
    /// `None`: the standard goal (the request leaves `target` empty).
    target: Option<AnyBoard>,
}

impl Boards {
    /// Reads `BOARD` (its arguments) and `--target`.
    ///
    /// # Errors
    /// A board that is not one 3×3 or 4×4 board, or a target of another size.
    fn parse(board: &[String], target: Option<&str>) -> anyhow::Result<Self> {
        let start = parse_board("BOARD", &board.join("\n"))?;
        let target = target
            .map(|target| parse_board("--target", target))
            .transpose()?;
        if let Some(target) = target
            && target.side() != start.side()
        {
            bail!(
                "--target is a {t}×{t} board but BOARD is {s}×{s}",
                t = target.side(),
                s = start.side()
            );
        }
        Ok(Self { start, target })
    }

    /// The side of both boards.
    fn side(&self) -> u32 {
        self.start.side()
    }

    /// The target's cells for a request: empty for the standard goal.
    fn target_cells(&self) -> Vec<u32> {
        self.target.map(|t| t.cells()).unwrap_or_default()
    }

    /// The target for a person: the one given, or the standard goal.
    fn target_or_goal(&self) -> AnyBoard {
        self.target.unwrap_or(match self.start {
            AnyBoard::Eight(_) => AnyBoard::Eight(Board3::goal()),
            AnyBoard::Fifteen(_) => AnyBoard::Fifteen(Board4::goal()),
        })
    }
}

/// Reads one board as `solve eight` (9 numbers, or packed like `12345678x`) or `solve fifteen`
/// (16 numbers) reads it; `what` names the argument in messages.
fn parse_board(what: &str, text: &str) -> anyhow::Result<AnyBoard> {
    let format: &dyn Format = match text.split_whitespace().count() {
        0 => bail!("{what}: no board given"),
        1 | 9 => &eight::EIGHT_ARGUMENTS,
        16 => &fifteen::FIFTEEN_UNTIL_EOF,
        n => bail!(
            "{what} {:?}: a board is 9 numbers (3×3) or 16 (4×4) row by row, 0 or x for the \
             blank; found {n}",
            shown(text)
        ),
    };
    let input = format.parse(text.as_bytes());
    if let Some((_, problem)) = input.problems.first() {
        bail!("{what} {:?}: {problem}", shown(text));
    }
    match input.cases.as_slice() {
        [case] => match &case.query {
            Ok(Query::Eight { start, .. }) => Ok(AnyBoard::Eight(*start)),
            Ok(Query::Fifteen { start, .. }) => Ok(AnyBoard::Fifteen(*start)),
            Ok(Query::Solitaire(_)) => bail!("{what}: not a sliding board"),
            Err(problem) => bail!("{what} {:?}: {problem}", shown(text)),
        },
        cases => bail!("{what}: one board expected, found {}", cases.len()),
    }
}

/// A board argument as typed, on one line.
fn shown(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The options of the commands that look at one position and its target (`hint`, `verify`).
#[derive(Debug, clap::Args)]
pub(super) struct Common {
    /// The board to reach (default: the standard goal, blank last), in the same forms as BOARD.
    #[arg(long, value_name = "BOARD")]
    pub(super) target: Option<String>,
    /// Most search nodes the server may spend (0: the server's default).
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub(super) node_budget: u64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub(super) json: bool,
}

/// The client of the `solver.v2` service.
pub(super) type Client = SolverServiceClient<Channel>;

/// The connection of one command: the servers, the runtime the call runs on, and the embedded
/// server when there is no `--server` (dropped last, which stops it).
struct Connection {
    endpoints: Vec<Endpoint>,
    runtime: tokio::runtime::Runtime,
    _embedded: Option<Embedded>,
}

impl Connection {
    /// Connects to `server`, or starts an embedded server that gets the tables of `kind` ready,
    /// exactly as `solve` does.
    fn open(server: Option<&str>, data: DataDir, kind: Kind) -> anyhow::Result<Self> {
        let embedded = match server {
            Some(_) => None,
            None => Some(Embedded::start(vec![kind], data)?),
        };
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .context("starting the client's runtime")?;
        let endpoints = runtime.block_on(endpoints::open(server, embedded.as_ref()))?;
        Ok(Self {
            endpoints,
            runtime,
            _embedded: embedded,
        })
    }

    /// Makes one call with `call`, on the first server that is not UNAVAILABLE (shutting down, or
    /// gone since it was connected); the others are tried in turn.
    fn call<T, F, Fut>(&self, mut call: F) -> Result<T, Status>
    where
        F: FnMut(Client) -> Fut,
        Fut: Future<Output = Result<tonic::Response<T>, Status>>,
    {
        self.runtime.block_on(async {
            let mut last = Status::unavailable("no server to call");
            for endpoint in &self.endpoints {
                match call(SolverServiceClient::new(endpoint.channel.clone())).await {
                    Ok(response) => return Ok(response.into_inner()),
                    Err(status) if status.code() == Code::Unavailable => last = status,
                    Err(status) => return Err(status),
                }
            }
            Err(last)
        })
    }

    /// Every command's flow: one call with `call` (as [`call`](Self::call) makes it), the
    /// response handed to `show`, or the refusal reported as [`refused`] does (as JSON with
    /// `json`).
    fn answer<T, F, Fut>(
        &self,
        json: bool,
        call: F,
        show: impl FnOnce(T) -> anyhow::Result<()>,
    ) -> anyhow::Result<ExitCode>
    where
        F: FnMut(Client) -> Fut,
        Fut: Future<Output = Result<tonic::Response<T>, Status>>,
    {
        match self.call(call) {
            Ok(response) => show(response).map(|()| ExitCode::SUCCESS),
            Err(status) => refused(&status, json),
        }
    }
}

/// The canonical name of a status code (`INVALID_ARGUMENT`).
fn code_name(code: Code) -> String {
    let mut name = String::new();
    for (i, c) in format!("{code:?}").chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            name.push('_');
        }
        name.push(c.to_ascii_uppercase());
    }
    name
}

/// A refused call for a person: the code, and the field at fault and why (from the `BadRequest`
/// detail) or the message, and when to retry (from `RetryInfo`).
fn describe(status: &Status) -> String {
    let details = status.get_error_details();
    let mut text = format!("the server refused the call ({})", code_name(status.code()));
    match details.bad_request() {
        Some(bad) if !bad.field_violations.is_empty() => {
            for violation in &bad.field_violations {
                text.push_str(&format!(
                    "\n  field `{}`: {}",
                    violation.field, violation.description
                ));
            }
        }
        _ => text.push_str(&format!(": {}", status.message())),
    }
    if let Some(delay) = details.retry_info().and_then(|retry| retry.retry_delay) {
        text.push_str(&format!("; retry after {delay:?}"));
    }
    text
}

/// A refused call as one JSON object: `code` (the number), `status` (its name), `message`, and
/// `field_violations` (`field`, `description`) when the server named fields.
fn error_json(status: &Status) -> serde_json::Value {
    let details = status.get_error_details();
    let mut value = serde_json::json!({
        "error": {
            "code": i32::from(status.code()),
            "status": code_name(status.code()),
            "message": status.message(),
        }
    });
    if let Some(bad) = details.bad_request() {
        value["error"]["field_violations"] = bad
            .field_violations
            .iter()
            .map(|v| serde_json::json!({ "field": v.field, "description": v.description }))
            .collect();
    }
    if let Some(delay) = details.retry_info().and_then(|retry| retry.retry_delay) {
        value["error"]["retry_after_seconds"] = delay.as_secs_f64().into();
    }
    value
}

/// Reports a refused call: one JSON object on stdout with `--json` (exit code 1), an error for
/// `main` to print otherwise.
fn refused(status: &Status, json: bool) -> anyhow::Result<ExitCode> {
    if json {
        print_json(&error_json(status))?;
        return Ok(ExitCode::FAILURE);
    }
    bail!("{}", describe(status))
}

/// Writes `value` on one line of stdout.
fn print_json(value: &serde_json::Value) -> io::Result<()> {
    let mut out = io::stdout().lock();
    writeln!(out, "{value}")?;
    out.flush()
}

/// The search statistics of a response, for `--json`.
fn stats_json(stats: Option<&solver_proto::v2::SearchStats>) -> serde_json::Value {
    match stats {
        Some(stats) => serde_json::json!({
            "method": stats.method,
            "nodes": stats.nodes,
            "iterations": stats.iterations,
        }),
        None => serde_json::Value::Null,
    }
}

/// A board on one line, as `solve` reads it.
fn line(cells: &[u32]) -> String {
    cells
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Draws a board, one row per line, `.` for the blank.
fn write_board(out: &mut crate::output::Output, board: AnyBoard) -> io::Result<()> {
    match board {
        AnyBoard::Eight(board) => crate::draw::write_board(out, &board),
        AnyBoard::Fifteen(board) => crate::draw::write_board(out, &board),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_of_both_sizes_in_the_forms_solve_reads() {
        let packed = parse_board("BOARD", "12345678x").unwrap();
        assert_eq!(packed, AnyBoard::Eight(Board3::goal()));
        let split = parse_board("BOARD", "1\n2\n3\n4\n5\n6\n7\n8\n0").unwrap();
        assert_eq!(split, packed);
        let fifteen = parse_board("BOARD", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0").unwrap();
        assert_eq!(fifteen, AnyBoard::Fifteen(Board4::goal()));
        assert_eq!(fifteen.cells().len(), 16);
    }

    #[test]
    fn bad_boards_say_why() {
        let err = parse_board("BOARD", "1 2 3").unwrap_err().to_string();
        assert!(err.contains("9 numbers (3×3) or 16 (4×4)"), "{err}");
        let err = parse_board("BOARD", "1 2 3 4 5 6 7 8 8")
            .unwrap_err()
            .to_string();
        assert!(err.contains("tile 8 appears twice"), "{err}");
        let err = Boards::parse(
            &["12345678x".to_owned()],
            Some("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0"),
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("--target is a 4×4 board but BOARD is 3×3"),
            "{err}"
        );
    }

    #[test]
    fn refusals_name_the_field() {
        use solver_proto::tonic_types::{ErrorDetails, FieldViolation};

        let status = Status::with_error_details(
            Code::InvalidArgument,
            "distance: 99: too far",
            ErrorDetails::with_bad_request(vec![FieldViolation::new("distance", "99: too far")]),
        );
        assert_eq!(
            describe(&status),
            "the server refused the call (INVALID_ARGUMENT)\n  field `distance`: 99: too far"
        );
        let json = error_json(&status);
        assert_eq!(json["error"]["code"], 3);
        assert_eq!(json["error"]["field_violations"][0]["field"], "distance");
        assert_eq!(
            describe(&Status::resource_exhausted("budget")),
            "the server refused the call (RESOURCE_EXHAUSTED): budget"
        );
    }
}
