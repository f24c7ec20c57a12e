//! `solver-server`: parses flags, sets up logging, binds, and serves until SIGTERM or SIGINT; or
//! runs one of its commands (`health`, `build-databases`, and `completions` and `man`, which
//! print a shell completion script and the man pages made by `solver_store::cli`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use clap::{CommandFactory as _, Parser, Subcommand, ValueEnum};
use solver_core::fifteen::DatabaseSet;
use solver_server::Config;
use solver_store::cli::{CompletionsArgs, ManArgs};
use solver_store::flags::{self, Color, parse_duration};
use solver_store::{BuildEvent, DataDir};
use tracing_subscriber::EnvFilter;

/// Log line format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line, for log collectors in clusters.
    Json,
}

/// The command line: the server's [`Config`] plus logging.
#[derive(Debug, Parser)]
#[command(
    name = "solver-server",
    version,
    about = solver_server::ABOUT,
    after_help = "Logging filters come from RUST_LOG (e.g. RUST_LOG=solver_server=debug); the default is info."
)]
#[command(args_conflicts_with_subcommands = true)]
struct Cli {
    /// Without a command, serve.
    #[command(subcommand)]
    command: Option<Command>,

    #[command(flatten)]
    config: Config,

    /// Log format.
    #[arg(long, env = "SOLVER_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,

    /// When to colour text log lines on stderr: `auto` colours them only when stderr is a
    /// terminal and the `NO_COLOR` environment variable is unset or empty (JSON lines never are).
    #[arg(long, env = "SOLVER_COLOR", value_enum, default_value_t = Color::Auto, value_name = "WHEN")]
    color: Color,
}

/// What to do instead of serving.
#[derive(Debug, Subcommand)]
enum Command {
    /// Ask a running server whether it is SERVING (exit 0) or not (exit 1): a health check for
    /// images that carry no other tools.
    Health {
        /// The server's gRPC address.
        #[arg(long, default_value = "127.0.0.1:50051")]
        addr: String,
        /// How long to wait for the answer.
        #[arg(long, default_value = "2s", value_parser = parse_duration)]
        timeout: Duration,
        /// TLS: CA certificates (PEM) to trust (implies TLS for a `host:port` address).
        #[arg(long, value_name = "PEM")]
        tls_ca: Option<PathBuf>,
        /// TLS: a client certificate (PEM), for a server with mutual TLS; with `--tls-key`.
        #[arg(long, value_name = "PEM", requires = "tls_key")]
        tls_cert: Option<PathBuf>,
        /// TLS: the client certificate's key (PEM).
        #[arg(long, value_name = "PEM", requires = "tls_cert")]
        tls_key: Option<PathBuf>,
        /// TLS: the name the server's certificate must carry, when not the address's host.
        #[arg(long, value_name = "NAME")]
        tls_domain: Option<String>,
    },
    /// Build every 15-puzzle pattern database set the data directory lacks (the 7-8 set takes
    /// minutes on every core and about 1.5 GB of memory; the others seconds) and store them there,
    /// where the server finds them. Sets stored and intact are kept.
    BuildDatabases {
        /// The directory to store them in (created if missing); default: the platform's cache
        /// directory, as for serving.
        #[arg(long, env = flags::DATA_DIR_ENV, value_name = "DIR")]
        data_dir: Option<PathBuf>,
        /// Build every set again, even those stored and intact.
        #[arg(long)]
        force: bool,
    },
    /// Print a shell completion script on stdout (e.g. `solver-server completions bash >
    /// /etc/bash_completion.d/solver-server`).
    Completions(CompletionsArgs),
    /// Print the man page (roff) on stdout (e.g. `solver-server man > solver-server.1`), or
    /// write it and every command's page into a directory (e.g. `solver-server man --dir
    /// /usr/local/share/man/man1`).
    Man(ManArgs),
}

/// Filters applied unless `RUST_LOG` says otherwise: our own info logs, quiet transport crates.
const DEFAULT_FILTER: &str = "info,h2=error,hyper=warn,tower=warn";

fn main() -> ExitCode {
    let cli = Cli::parse();
    init_tracing(cli.log_format, cli.color);
    let result = match cli.command {
        None => runtime().and_then(|rt| {
            raise_open_files_limit();
            let result = rt.block_on(run(cli.config));
            // Cases in flight were drained already; what may still run is a table build in the
            // background, which must not hold the exit up.
            rt.shutdown_timeout(Duration::from_millis(100));
            result
        }),
        Some(Command::Health {
            addr,
            timeout,
            tls_ca,
            tls_cert,
            tls_key,
            tls_domain,
        }) => {
            let tls = solver_server::ProbeTls {
                ca: tls_ca,
                identity: tls_cert.zip(tls_key),
                domain: tls_domain,
            };
            return runtime().map_or(ExitCode::FAILURE, |rt| {
                match rt.block_on(solver_server::check_health_with(&addr, timeout, &tls)) {
                    Ok(status) => {
                        println!("{}", status.as_str_name());
                        if status == solver_server::ServingStatus::Serving {
                            ExitCode::SUCCESS
                        } else {
                            ExitCode::FAILURE
                        }
                    }
                    Err(message) => {
                        eprintln!("{message}");
                        ExitCode::FAILURE
                    }
                }
            });
        }
        Some(Command::BuildDatabases { data_dir, force }) => build_databases(data_dir, force),
        Some(Command::Completions(args)) => args
            .run(Cli::command(), &mut std::io::stdout().lock())
            .context("writing the completion script"),
        Some(Command::Man(args)) => args
            .run(Cli::command(), &mut std::io::stdout().lock())
            .context("writing the man pages"),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("solver-server: {err:#}");
            ExitCode::FAILURE
        }
    }
}

/// Builds the sets the data directory lacks on every core, logging each finished layer.
fn build_databases(data_dir: Option<PathBuf>, force: bool) -> anyhow::Result<()> {
    let data = DataDir::from_flags(data_dir, false);
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let started = Instant::now();
    data.build_missing(&DatabaseSet::ALL, force, threads, &|event| match event {
        BuildEvent::Kept(set) => tracing::info!(%set, "stored and intact: kept"),
        BuildEvent::Unusable(set, cause) => tracing::warn!(%set, %cause, "stored file unusable: building it again"),
        BuildEvent::Started(set) => {
            tracing::info!(%set, dir = ?data.path(), threads, memory_mib = set.build_bytes() >> 20, "building");
        }
        BuildEvent::Layer(set, progress) => tracing::info!(
            %set,
            database = progress.database + 1,
            of = progress.databases,
            layers = progress.layers,
            done = format_args!("{:.1} %", 100.0 * progress.fraction(&set.database_sizes())),
            elapsed = ?started.elapsed(),
            "layer done"
        ),
        BuildEvent::Stored(set, path) => println!(
            "built and stored {set} in {} after {:.1} s",
            path.display(),
            started.elapsed().as_secs_f64()
        ),
    })?;
    Ok(())
}

/// Raises the soft limit on open files to the hard one: every connection takes a descriptor,
/// and services are often started with a soft limit of 1,024 while far more are allowed. At the
/// limit, new connections (health checks included) wait until others close.
fn raise_open_files_limit() {
    let (soft, hard) = match rlimit::getrlimit(rlimit::Resource::NOFILE) {
        Ok(limits) => limits,
        Err(err) => {
            tracing::warn!(cause = %err, "cannot read the open files limit");
            return;
        }
    };
    match rlimit::increase_nofile_limit(hard) {
        Ok(now) => tracing::info!(was = soft, now, hard, "open files limit"),
        Err(err) => {
            tracing::warn!(cause = %err, soft, hard, "cannot raise the open files limit");
        }
    }
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("solver-io")
        .build()
        .context("cannot start the async runtime")
}

async fn run(config: Config) -> anyhow::Result<()> {
    let listener = tokio::net::TcpListener::bind(config.transport.listen)
        .await
        .with_context(|| format!("cannot listen on {}", config.transport.listen))?;
    solver_server::serve(listener, config, shutdown_signal())
        .await
        .context("server failed")
}

fn init_tracing(format: LogFormat, color: Color) {
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(DEFAULT_FILTER));
    // Colour as `--color` says, never in JSON; a closed stderr must not panic the subscriber's
    // own error report (it would stop whatever task was logging).
    let colour = format == LogFormat::Text && color.ansi();
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(colour)
        .log_internal_errors(false)
        .with_writer(std::io::stderr);
    match format {
        LogFormat::Text => builder.init(),
        LogFormat::Json => builder.json().with_current_span(true).init(),
    }
}

/// Completes on the first SIGTERM (what Kubernetes sends) or SIGINT (Ctrl-C).
async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut terminate = match signal(SignalKind::terminate()) {
            Ok(stream) => stream,
            Err(err) => {
                tracing::error!(cause = %err, "cannot listen for SIGTERM; only SIGINT stops the server");
                let _ = tokio::signal::ctrl_c().await;
                return;
            }
        };
        tokio::select! {
            _ = terminate.recv() => tracing::info!("SIGTERM received"),
            _ = tokio::signal::ctrl_c() => tracing::info!("SIGINT received"),
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
        tracing::info!("Ctrl-C received");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use solver_store::cli::{Shell, completions, man_pages};
    use solver_test_support::completion::bash_offers;

    #[test]
    fn flags_are_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn bash_completes_commands_and_their_flags() {
        let script = completions(Shell::Bash, Cli::command());
        let offers = |words: &[&str]| bash_offers(&script, "solver-server", words);
        let first = offers(&["solver-server", ""]);
        for word in [
            "health",
            "build-databases",
            "completions",
            "man",
            "--listen",
        ] {
            assert!(first.contains(&word.to_owned()), "{word}: {first:?}");
        }
        assert_eq!(offers(&["solver-server", "--log-format", "j"]), ["json"]);
        assert_eq!(
            offers(&["solver-server", "build-databases", "--fo"]),
            ["--force"]
        );
        assert_eq!(
            offers(&["solver-server", "health", "--tls-d"]),
            ["--tls-domain"]
        );
        assert_eq!(offers(&["solver-server", "completions", "fi"]), ["fish"]);
        assert_eq!(offers(&["solver-server", "man", "--d"]), ["--dir"]);
    }

    #[test]
    fn a_man_page_for_every_command() {
        let dir = std::env::temp_dir().join(format!("solver-server-man-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let written = man_pages(Cli::command(), &dir).expect("pages written");
        let names: Vec<String> = written
            .iter()
            .map(|path| path.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        let mut wanted = vec!["solver-server.1".to_owned()];
        for command in Cli::command().get_subcommands() {
            wanted.push(format!("solver-server-{}.1", command.get_name()));
        }
        assert_eq!(names, wanted);
        assert!(names.contains(&"solver-server-build-databases.1".to_owned()));
        let main = std::fs::read_to_string(&written[0]).unwrap();
        for name in &wanted[1..] {
            let reference = format!("{}(1)", name.trim_end_matches(".1").replace('-', "\\-"));
            assert!(main.contains(&reference), "{reference} not in {main}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
