//! Command-line client for the puzzle-solving service.
//!
//! `solver-client judge PROBLEM` speaks an online judge's format on stdin and stdout;
//! `solver-client solve eight|fifteen|sliding|solitaire ...` answers boards given as arguments
//! (`sliding`: any shape from 2×2 to 8×8, optimal or within `--max-ratio` with a proven bound);
//! `solver-client hint`, `scramble` and `verify` call the `solver.v2` RPCs of those names for a
//! person (or a script, with `--json`);
//! `solver-client load` drives a server with concurrent streams and reports latency;
//! `solver-client databases build|status` builds and lists the stored pattern databases. All talk
//! gRPC to `--server URL` (`https://` for TLS; `link.rs` holds the TLS, token, gzip and deadline
//! flags), or to a server embedded in this process when no URL is given. `completions` and `man`
//! print a shell completion script and the man page (`man --dir`: every command's page), made
//! from the clap definitions of `cli.rs` by `solver_store::cli`. Exit codes: `exit.rs`.
//! Log lines (the embedded server's warnings, or more with `RUST_LOG`) go to stderr, coloured
//! only on a terminal (`--color`, `NO_COLOR`).
//!
//! Each family of puzzles is a folder of its own, `family/sliding/` and `family/solitaire/` (its
//! query and answer, reply checks, display, judge formats, `solve` subcommands, load cases); the
//! shared code reaches them through the registries: `family/mod.rs` (queries and answers), `cli.rs` (the
//! `solve` subcommands), `judge/problem.rs` and `load/class.rs`.

mod case;
mod causes;
mod cli;
mod databases;
mod embedded;
mod endpoints;
mod exit;
mod failure;
mod family;
mod human;
mod judge;
mod link;
mod load;
mod logging;
mod output;
mod progress;
#[cfg(test)]
#[path = "../tests/random.rs"]
mod random;
mod read_error;
mod reply;
#[cfg(test)]
#[path = "../tests/server.rs"]
mod server;
mod session;
mod sink;
mod v2;
mod watched;
mod wire;

use std::io;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context as _, bail};
use clap::{CommandFactory as _, Parser as _};
use solver_store::DataDir;
use solver_store::cli::{CompletionsArgs, ManArgs};

use crate::cli::{Cli, Command, Globals, Solve};
use crate::embedded::{Embedded, Tables};
use crate::failure::Unanswered;
use crate::judge::Problem;
use crate::link::Link;

fn main() -> ExitCode {
    let cli = Cli::parse();
    logging::init(cli.globals.color);
    match run(cli) {
        Ok(code) => code,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("solver-client: {}", causes::one_line(&err));
            exit::of_error(&err)
        }
    }
}

/// A closed stdout (`| head`) ends the run quietly, as for any Unix filter.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// Runs the command given; the exit code says how it went (`exit.rs`).
fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let globals = &cli.globals;
    match cli.command {
        Command::Judge { problem } => judge(&Context::new(globals)?, problem),
        Command::Solve(subcommand) => solve(&Context::new(globals)?, subcommand),
        Command::Load(args) => {
            let context = Context::new(globals)?;
            let server = context.server.as_deref();
            load::run(server, &context.link, context.data, context.progress, args)
        }
        Command::Databases(command) => {
            let context = Context::new(globals)?;
            databases::run(&command, &context.data, context.progress)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::V2(command) => {
            let context = Context::new(globals)?;
            v2::run(
                context.server.as_deref(),
                &context.link,
                context.data,
                command,
                context.progress,
            )
        }
        Command::Completions(args) => completions(&args),
        Command::Man(args) => man(&args),
    }
}

/// What the commands that reach a service take from the global flags.
struct Context {
    /// `--server`, if given.
    server: Option<String>,
    /// How to reach it, checked.
    link: Arc<Link>,
    /// Where the embedded server keeps its tables.
    data: DataDir,
    /// Whether a progress bar may be drawn.
    progress: bool,
}

impl Context {
    /// Reads the flags; the connection flags are checked now, before anything starts.
    fn new(globals: &Globals) -> anyhow::Result<Self> {
        let data = globals.data();
        Ok(Self {
            server: globals.server.clone(),
            link: Arc::new(Link::new(&globals.link)?),
            data,
            progress: !globals.no_progress,
        })
    }
}

/// `judge PROBLEM`: the judge's input on stdin, the judge's exact output on stdout.
fn judge(context: &Context, problem: Problem) -> anyhow::Result<ExitCode> {
    answer_with(context, problem.kind(), |runtime, embedded| {
        // Read while the answers are printed: memory stays bounded whatever the input.
        let input = judge::source::Source::stdin().context("reading standard input")?;
        let service = judge::run::Service {
            server: context.server.as_deref(),
            link: &context.link,
            embedded,
            refresh: refresh(context.server.as_deref(), &context.link),
        };
        let judge::run::Answered {
            summary,
            unreachable,
        } = judge::run::answer(problem, input, runtime, service, context.progress)?;
        if let Some(why) = unreachable {
            return Err(exit::Unreachable(format!(
                "{problem}: {} of {} case(s) answered; {why}",
                summary.answered, summary.cases
            ))
            .into());
        }
        if summary.failed > 0 && summary.cases == 0 {
            bail!(
                "{problem}: {} problem(s) in the input (see above); no case read",
                summary.failed
            );
        }
        if summary.failed > 0 {
            bail!(
                "{problem}: {} problem(s) in the input or its answers (see above); {} of {} \
                 case(s) answered",
                summary.failed,
                summary.answered,
                summary.cases
            );
        }
        Ok(Ran::Counted(0, None))
    })
}

/// `solve PUZZLE BOARD...`: the boards' answers, explained for a person.
fn solve(context: &Context, subcommand: Solve) -> anyhow::Result<ExitCode> {
    answer_with(context, subcommand.kind(), |runtime, embedded| {
        let (cases, mut printer) = subcommand.prepare()?;
        if watched::wanted(&cases, context.progress, context.link.timeout) {
            let ended = runtime.block_on(watched::run(
                context.server.as_deref(),
                &context.link,
                embedded,
                &cases[0],
                &mut printer,
                context.progress,
            ))?;
            printer.finish().context("writing the answers")?;
            return Ok(Ran::Ended(ended.exit_code()));
        }
        let cases: Arc<[case::Case]> = cases.into();
        let unreachable = runtime.block_on(answer_all(
            context.server.as_deref(),
            &context.link,
            embedded,
            cases,
            &mut printer,
        ))?;
        let failed = printer.finish().context("writing the answers")?;
        Ok(Ran::Counted(failed, unreachable))
    })
}

/// How the cases of a run ended, for its exit code.
enum Ran {
    /// The number of cases that failed, and why cases went unanswered if the service could not
    /// be reached.
    Counted(usize, Option<Unanswered>),
    /// The code a watched case ended with (`watched::Ended::exit_code`).
    Ended(u8),
}

/// Runs `answer` against `--server`, or against a server started in this process first (it
/// warms the `kind`'s tables up while the input is read) and stopped after, when a database it
/// found unusable is built again. The exit code follows from how `answer` says the run went.
fn answer_with(
    context: &Context,
    kind: Tables,
    answer: impl FnOnce(&tokio::runtime::Runtime, Option<&Embedded>) -> anyhow::Result<Ran>,
) -> anyhow::Result<ExitCode> {
    let embedded = match &context.server {
        Some(_) => None,
        None => Some(Embedded::start(vec![kind], context.data.clone())?),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the client's runtime")?;
    let ran = answer(&runtime, embedded.as_ref())?;
    if let Some(embedded) = embedded {
        let unusable = embedded.stop();
        if let Err(e) =
            databases::rebuild_found_unusable(&context.data, &unusable, context.progress)
        {
            eprintln!("solver-client: warning: {e:#}");
        }
    }
    Ok(ExitCode::from(match ran {
        Ran::Ended(code) => code,
        Ran::Counted(_, Some(_)) => exit::UNREACHABLE,
        Ran::Counted(failed, None) if failed > 0 => exit::CASE_ERROR,
        Ran::Counted(..) => exit::ANSWERED,
    }))
}

/// `completions SHELL`: the completion script, generated from the flags.
fn completions(args: &CompletionsArgs) -> anyhow::Result<ExitCode> {
    args.run(Cli::command(), &mut io::stdout().lock())
        .context("writing the completion script")?;
    Ok(ExitCode::SUCCESS)
}

/// `man [--dir DIR]`: the man page, or every command's, generated from the flags.
fn man(args: &ManArgs) -> anyhow::Result<ExitCode> {
    args.run(Cli::command(), &mut io::stdout().lock())
        .context("writing the man pages")?;
    Ok(ExitCode::SUCCESS)
}

/// Connects (to `--server` or the embedded server) and runs every case, handing the answers to
/// `sink` in input order; returns why cases went unanswered if the service could not be reached
/// or refused us.
async fn answer_all(
    server: Option<&str>,
    link: &Arc<Link>,
    embedded: Option<&Embedded>,
    cases: Arc<[case::Case]>,
    sink: &mut dyn sink::Sink,
) -> anyhow::Result<Option<Unanswered>> {
    let endpoints = endpoints::open(server, embedded, link).await?;
    session::run(&endpoints, cases, sink, refresh(server, link).as_ref())
        .await
        .context("writing the answers")
}

/// How often a run resolves the `--server` names again, to find new replicas.
const REFRESH_EVERY: std::time::Duration = std::time::Duration::from_secs(5);

/// Periodic re-resolution of `--server`, when there is one.
fn refresh(server: Option<&str>, link: &Arc<Link>) -> Option<session::Refresh> {
    let server = server?.to_owned();
    Some(session::Refresh {
        every: REFRESH_EVERY,
        resolve: Box::new(move || {
            let server = server.clone();
            Box::pin(async move { endpoints::resolve(&server).await })
        }),
        link: Arc::clone(link),
    })
}
