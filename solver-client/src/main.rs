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
//! print a shell completion script and the man page. Exit codes: `exit.rs`.
//! Log lines (the embedded server's warnings, or more with `RUST_LOG`) go to stderr, coloured
//! only on a terminal (`--color`, `NO_COLOR`).

mod case;
mod causes;
mod databases;
mod draw;
mod embedded;
mod endpoints;
mod exit;
mod failure;
mod human;
mod judge;
mod link;
mod load;
mod output;
mod progress;
mod puzzle;
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
mod solitaire;
mod v2;
mod wire;

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context as _, bail};
use clap::{CommandFactory as _, Parser, Subcommand};
use solver_store::DataDir;
use solver_store::flags::{self, Color};

use crate::judge::Problem;
use crate::link::{Link, LinkArgs};

/// Solve puzzles with the solver service, in online-judge formats or for a person.
#[derive(Debug, Parser)]
#[command(
    name = "solver-client",
    version,
    about,
    after_help = AFTER_HELP
)]
struct Cli {
    /// A running solver server: a URL (`http://host:50051`, `https://host:50051` for TLS, or
    /// `host:port`), a comma-separated list of them, or a DNS name whose addresses are all used.
    /// A run spreads its cases over every server, and re-sends those of a server that fails to
    /// the others. Without it the client starts a server inside its own process on a loopback
    /// port.
    #[arg(long, global = true, env = "SOLVER_SERVER", value_name = "URL")]
    server: Option<String>,

    #[command(flatten)]
    link: LinkArgs,

    /// Never draw a progress bar (it is drawn only on a terminal anyway).
    #[arg(long, global = true)]
    no_progress: bool,

    /// When to colour log lines on stderr: `auto` colours them only when stderr is a terminal
    /// and the `NO_COLOR` environment variable is unset or empty.
    #[arg(long, global = true, value_enum, default_value_t = Color::Auto, value_name = "WHEN")]
    color: Color,

    /// Directory of stored pattern databases, loaded by the embedded server when there and
    /// stored there when built (so each is built once); default: the platform's cache directory
    /// (`$XDG_CACHE_HOME/puzzle-solver`, else `~/.cache/puzzle-solver`). The server's own
    /// `--data-dir` decides for a remote server.
    #[arg(long, global = true, env = flags::DATA_DIR_ENV, value_name = "DIR")]
    data_dir: Option<PathBuf>,

    /// Keep no pattern databases between runs (the embedded server builds them in memory).
    #[arg(
        long,
        global = true,
        env = flags::NO_DATA_DIR_ENV,
        conflicts_with = "data_dir"
    )]
    no_data_dir: bool,

    #[command(subcommand)]
    command: Command,
}

impl Cli {
    /// The data directory the flags choose.
    fn data(&self) -> DataDir {
        DataDir::from_flags(self.data_dir.clone(), self.no_data_dir)
    }
}

/// The end of `--help`: logs and exit codes.
const AFTER_HELP: &str = "Log lines on stderr: warnings and errors (from the embedded server, \
mostly); RUST_LOG changes the filter (e.g. RUST_LOG=info).

Exit status: 0 every case answered; 1 some case had an error (bad input, or a case the service \
could not answer); 2 usage error; 3 the service could not be reached or refused us (connection, \
TLS handshake, UNAUTHENTICATED, PERMISSION_DENIED).";

/// Filters applied unless `RUST_LOG` says otherwise: warnings and errors only (a stored database
/// that cannot be used, say), so stderr stays quiet on a normal run.
const DEFAULT_LOG_FILTER: &str = "warn";

/// Sends log lines (the embedded server's, mostly) to stderr, without colour unless `color` says.
fn init_logging(color: Color) {
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

#[derive(Debug, Subcommand)]
enum Command {
    /// Read a judge's input on stdin and write the judge's exact output on stdout.
    Judge {
        /// The judge problem.
        #[arg(value_enum)]
        problem: Problem,
    },
    /// Solve boards given as arguments (or on standard input) and explain the answers.
    #[command(subcommand)]
    Solve(Solve),
    /// Load-test a server: concurrent streams of easy and hard cases, per-class latency
    /// percentiles, throughput, errors and the server's memory.
    Load(load::Args),
    /// Build the 15-puzzle's 7-8 pattern databases once, or list what the data directory holds.
    #[command(subcommand)]
    Databases(databases::Databases),
    /// `hint`, `scramble` and `verify`: one `solver.v2` call each.
    #[command(flatten)]
    V2(v2::Command),
    /// Print a shell completion script on stdout (e.g. `solver-client completions bash >
    /// /etc/bash_completion.d/solver-client`).
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff) on stdout (e.g. `solver-client man > solver-client.1`).
    Man,
}

/// The puzzles `solve` answers: every family's subcommands, in the order `--help` lists them.
#[derive(Debug, Subcommand)]
enum Solve {
    /// The sliding puzzles: `eight`, `fifteen` and `sliding`.
    #[command(flatten)]
    Sliding(human::Puzzle),
    /// `solitaire`.
    #[command(flatten)]
    Solitaire(solitaire::human::Solve),
}

impl Solve {
    /// The kind of puzzle (the server tables to warm up).
    fn kind(&self) -> crate::embedded::Tables {
        match self {
            Solve::Sliding(puzzle) => puzzle.kind(),
            Solve::Solitaire(puzzle) => puzzle.kind(),
        }
    }

    /// The cases the arguments (or standard input) hold, and the printer for them.
    fn prepare(self) -> anyhow::Result<(Vec<case::Case>, human::Printer)> {
        match self {
            Solve::Sliding(puzzle) => puzzle.prepare(),
            Solve::Solitaire(puzzle) => puzzle.prepare(),
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    init_logging(cli.color);
    match run(cli) {
        Ok(code) => code,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("solver-client: {}", causes::one_line(&err));
            exit::of_error(&err)
        }
    }
}

/// Writes the completion script for `shell` or the man page, generated from the flags above.
fn generate(command: &Command) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    match command {
        Command::Completions { shell } => {
            clap_complete::generate(*shell, &mut Cli::command(), "solver-client", &mut out);
        }
        Command::Man => clap_mangen::Man::new(Cli::command())
            .render(&mut out)
            .context("writing the man page")?,
        _ => unreachable!("only completions and man are generated"),
    }
    io::Write::flush(&mut out).context("writing to standard output")
}

/// A closed stdout (`| head`) ends the run quietly, as for any Unix filter.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    if matches!(cli.command, Command::Completions { .. } | Command::Man) {
        generate(&cli.command)?;
        return Ok(ExitCode::SUCCESS);
    }
    let data = cli.data();
    let link = Arc::new(Link::new(&cli.link)?);
    let kind = match cli.command {
        Command::Judge { problem } => problem.kind(),
        Command::Solve(ref puzzle) => puzzle.kind(),
        Command::Load(args) => {
            return load::run(cli.server.as_deref(), &link, data, !cli.no_progress, args);
        }
        Command::Databases(ref command) => {
            databases::run(command, &data, !cli.no_progress)?;
            return Ok(ExitCode::SUCCESS);
        }
        Command::V2(command) => return v2::run(cli.server.as_deref(), &link, data, command),
        Command::Completions { .. } | Command::Man => unreachable!("generated above"),
    };
    // Start the embedded server first: it warms its tables up while the input is read.
    let embedded = match &cli.server {
        Some(_) => None,
        None => Some(embedded::Embedded::start(vec![kind], data.clone())?),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the client's runtime")?;
    let (failed, unreachable) = match cli.command {
        Command::Judge { problem } => {
            // Read while the answers are printed: memory stays bounded whatever the input.
            let input = judge::source::Source::stdin().context("reading standard input")?;
            let service = judge::run::Service {
                server: cli.server.as_deref(),
                link: &link,
                embedded: embedded.as_ref(),
                refresh: refresh(cli.server.as_deref(), &link),
            };
            let judge::run::Answered {
                summary,
                unreachable,
            } = judge::run::answer(problem, input, &runtime, service, !cli.no_progress)?;
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
            (0, None)
        }
        Command::Solve(puzzle) => {
            let (cases, mut printer) = puzzle.prepare()?;
            let cases: Arc<[case::Case]> = cases.into();
            let unreachable = runtime.block_on(answer_all(
                cli.server.as_deref(),
                &link,
                embedded.as_ref(),
                cases,
                &mut printer,
            ))?;
            (
                printer.finish().context("writing the answers")?,
                unreachable,
            )
        }
        Command::Load(_)
        | Command::Databases(_)
        | Command::V2(_)
        | Command::Completions { .. }
        | Command::Man => {
            unreachable!("these run on their own, above")
        }
    };
    if let Some(embedded) = embedded {
        let unusable = embedded.stop();
        if let Err(e) = databases::rebuild_found_unusable(&data, &unusable, !cli.no_progress) {
            eprintln!("solver-client: warning: {}", causes::one_line(&e));
        }
    }
    Ok(if unreachable.is_some() {
        ExitCode::from(exit::UNREACHABLE)
    } else if failed > 0 {
        ExitCode::from(exit::CASE_ERROR)
    } else {
        ExitCode::from(exit::ANSWERED)
    })
}

/// Connects (to `--server` or the embedded server) and runs every case, handing the answers to
/// `sink` in input order; returns why cases went unanswered if the service could not be reached
/// or refused us.
async fn answer_all(
    server: Option<&str>,
    link: &Arc<Link>,
    embedded: Option<&embedded::Embedded>,
    cases: Arc<[case::Case]>,
    sink: &mut dyn sink::Sink,
) -> anyhow::Result<Option<failure::Unanswered>> {
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
