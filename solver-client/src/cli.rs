//! The command line: the flags every command takes, the commands, the end of `--help`, and the
//! registry of each family's `solve` subcommands.

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use solver_store::DataDir;
use solver_store::cli::{CompletionsArgs, ManArgs};
use solver_store::flags::{self, Color};

use crate::case::Case;
use crate::embedded::Tables;
use crate::family::{sliding, solitaire};
use crate::human::Printer;
use crate::judge::Problem;
use crate::link::{self, LinkArgs};
use crate::{databases, load, v2};

/// Solve puzzles with the solver service, in online-judge formats or for a person.
#[derive(Debug, Parser)]
#[command(
    name = "solver-client",
    version,
    about,
    after_help = AFTER_HELP
)]
pub(crate) struct Cli {
    // The flags every command takes (a command runs with them apart from its own).
    #[command(flatten)]
    pub(crate) globals: Globals,

    #[command(subcommand)]
    pub(crate) command: Command,
}

/// The heading of the flags every command takes, other than the connection's, in `--help`:
/// after the command's own flags and the connection's.
const COMMON: &str = "Common options";

/// The flags every command takes. `--help` lists them under their own headings, after those of
/// the command, which would be lost among them otherwise.
#[derive(Debug, clap::Args)]
pub(crate) struct Globals {
    /// A running solver server: a URL (`http://host:50051`, `https://host:50051` for TLS, or
    /// `host:port`), a comma-separated list of them, or a DNS name whose addresses are all used.
    /// A run spreads its cases over every server, and re-sends those of a server that fails to
    /// the others. Without it the client starts a server inside its own process on a loopback
    /// port.
    #[arg(
        long,
        global = true,
        env = "SOLVER_SERVER",
        value_name = "URL",
        help_heading = link::HEADING
    )]
    pub(crate) server: Option<String>,

    #[command(flatten)]
    pub(crate) link: LinkArgs,

    /// Never draw a progress bar (it is drawn only on a terminal anyway).
    #[arg(long, global = true, help_heading = COMMON)]
    pub(crate) no_progress: bool,

    /// When to colour log lines on stderr: `auto` colours them only when stderr is a terminal
    /// and the `NO_COLOR` environment variable is unset or empty.
    #[arg(
        long,
        global = true,
        value_enum,
        default_value_t = Color::Auto,
        value_name = "WHEN",
        help_heading = COMMON
    )]
    pub(crate) color: Color,

    /// Directory of stored pattern databases, loaded by the embedded server when there and
    /// stored there when built (so each is built once); default: the platform's cache directory
    /// (`$XDG_CACHE_HOME/puzzle-solver`, else `~/.cache/puzzle-solver`). The server's own
    /// `--data-dir` decides for a remote server.
    #[arg(
        long,
        global = true,
        env = flags::DATA_DIR_ENV,
        value_name = "DIR",
        help_heading = COMMON
    )]
    data_dir: Option<PathBuf>,

    /// Keep no pattern databases between runs (the embedded server builds them in memory).
    #[arg(
        long,
        global = true,
        env = flags::NO_DATA_DIR_ENV,
        conflicts_with = "data_dir",
        help_heading = COMMON
    )]
    no_data_dir: bool,
}

impl Globals {
    /// The data directory the flags choose.
    pub(crate) fn data(&self) -> DataDir {
        DataDir::from_flags(self.data_dir.clone(), self.no_data_dir)
    }
}

/// The end of `--help`: logs and exit codes.
const AFTER_HELP: &str = "Log lines on stderr: warnings and errors (from the embedded server, \
mostly); RUST_LOG changes the filter (e.g. RUST_LOG=info).

Exit status: 0 every case answered; 1 some case had an error (bad input, or a case the service \
could not answer); 2 usage error; 3 the service could not be reached or refused us (connection, \
TLS handshake, UNAUTHENTICATED, PERMISSION_DENIED); 4 `solve` of one board stopped early (Ctrl-C or \
--timeout) printed the best answer found so far, its optimality not proven; 5 `solve` of one board \
stopped early with no answer found (the optimum's proven lower bound is printed).";

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
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
    Completions(CompletionsArgs),
    /// Print the man page (roff) on stdout (e.g. `solver-client man > solver-client.1`), or
    /// write it and every command's page into a directory (e.g. `solver-client man --dir
    /// /usr/local/share/man/man1`).
    Man(ManArgs),
}

/// The puzzles `solve` answers: every family's subcommands, in the order `--help` lists them.
#[derive(Debug, Subcommand)]
pub(crate) enum Solve {
    /// The sliding puzzles: `eight`, `fifteen` and `sliding`.
    #[command(flatten)]
    Sliding(sliding::human::Solve),
    /// `solitaire`.
    #[command(flatten)]
    Solitaire(solitaire::human::Solve),
}

impl Solve {
    /// The kind of puzzle (the server tables to warm up).
    pub(crate) fn kind(&self) -> Tables {
        match self {
            Solve::Sliding(solve) => solve.kind(),
            Solve::Solitaire(solve) => solve.kind(),
        }
    }

    /// The cases the arguments (or standard input) hold, and the printer for them.
    pub(crate) fn prepare(self) -> anyhow::Result<(Vec<Case>, Printer)> {
        match self {
            Solve::Sliding(solve) => solve.prepare(),
            Solve::Solitaire(solve) => solve.prepare(),
        }
    }
}
