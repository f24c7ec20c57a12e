//! Server configuration: command-line flags with `SOLVER_*` environment fallbacks, grouped by
//! what they govern, one group a file; `cli` keeps `--help` listing them as it always has.

mod auth;
mod cases;
mod cli;
mod kinds;
mod limits;
mod metrics;
mod scheduling;
mod shutdown;
mod tables;
mod tls;
mod transport;
mod values;
mod web;

pub use self::auth::Auth;
pub use self::cases::Cases;
pub use self::kinds::{ABOUT, FamilyFlags, Kind, WarmUp};
pub use self::limits::Limits;
pub use self::metrics::Metrics;
pub use self::scheduling::Scheduling;
pub use self::shutdown::Shutdown;
pub use self::tables::Tables;
pub use self::tls::Tls;
pub use self::transport::Transport;
pub use self::values::FlagError;
pub use self::web::Web;

/// How the server runs, one group per concern. Every flag has a `SOLVER_*` environment fallback;
/// `--help` lists them.
///
/// [`Config::default`] is the configuration for an in-process server (tests, the client's
/// embedded mode): no metrics port, no maximum connection age, and only the 3×3 table warmed up
/// so it is ready in milliseconds. The binary's defaults (see `--help`) add the metrics port,
/// a 5-minute connection age and the 15-puzzle pattern databases.
#[derive(Debug, Clone)]
pub struct Config {
    /// The gRPC port's address and HTTP/2 settings.
    pub transport: Transport,
    /// TLS on the gRPC port.
    pub tls: Tls,
    /// Bearer tokens and what each may hold.
    pub auth: Auth,
    /// Browsers: CORS and the page at `/`.
    pub web: Web,
    /// What the whole server holds at most.
    pub limits: Limits,
    /// What one case may spend.
    pub cases: Cases,
    /// Each puzzle family's own flags.
    pub families: FamilyFlags,
    /// The worker pool, and each stream's window and batches.
    pub scheduling: Scheduling,
    /// The tables: warm-up, data directory, builds and their memory.
    pub tables: Tables,
    /// The Prometheus endpoint.
    pub metrics: Metrics,
    /// The drain on shutdown.
    pub shutdown: Shutdown,
}

impl Default for Config {
    /// The flags' defaults, read from the `#[arg]` attributes of the groups (their one source:
    /// an empty command line with every `SOLVER_*` variable ignored), then what an in-process
    /// server does differently: no metrics port, no maximum connection age, only the 3×3
    /// table warmed up and no background build of the other targets' databases, so it is
    /// ready in milliseconds.
    fn default() -> Self {
        let command = <Self as clap::CommandFactory>::command().mut_args(|arg| arg.env(None));
        let mut config = command
            .try_get_matches_from(["solver-server"])
            .and_then(|matches| <Self as clap::FromArgMatches>::from_arg_matches(&matches))
            .expect("every flag has a default that parses");
        config.metrics.listen = None;
        config.tables.warm_up = WarmUp(vec![Kind::Eight]);
        config.tables.warm_up_targets = false;
        config.transport.max_connection_age = None;
        config
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use clap::Parser as _;

    use super::*;

    /// What clap prints after the flag's name: the value and the rule it breaks.
    #[test]
    fn refusals_name_the_value_and_the_rule() {
        let message = |args: &[&str]| {
            Config::try_parse_from(std::iter::once("solver-server").chain(args.iter().copied()))
                .unwrap_err()
                .to_string()
        };
        for (args, expected) in [
            (
                &["--window", "0"][..],
                "0 is out of range: expected 1 to 1000000",
            ),
            (&["--window", "x"], "\"x\" is not a whole number"),
            (
                &["--stream-window", "4096"],
                "4096 is out of range: expected 21846 to 1048576 bytes",
            ),
            (
                &["--workers", "100000"],
                "100000 workers is too many: expected 0 (one per core) to 4096",
            ),
            (
                &["--warm-up", "nine"],
                "\"nine\" is not a puzzle kind: expected eight, fifteen, ",
            ),
            (
                &["--metrics-listen", "here"],
                "\"here\" is not a socket address",
            ),
            (&["--case-timeout", "5 weeks"], "has unit \" weeks\""),
        ] {
            let text = message(args);
            assert!(text.contains(expected), "{args:?}: {text}");
        }
    }

    #[test]
    fn binary_defaults() {
        let config = Config::try_parse_from(["solver-server"]).unwrap();
        assert_eq!(config.transport.listen, "0.0.0.0:50051".parse().unwrap());
        assert_eq!(config.metrics.listen, Some("0.0.0.0:9090".parse().unwrap()));
        assert_eq!(
            config.tables.warm_up,
            WarmUp(vec![Kind::Eight, Kind::Fifteen, Kind::Sliding])
        );
        assert_eq!(config.tables.data_dir, None);
        assert!(config.tables.build_databases);
        assert!(config.tables.warm_up_targets);
        assert_eq!(
            config.transport.max_connection_age,
            Some(Duration::from_secs(300))
        );
        assert_eq!(config.scheduling.window, 256);
        assert_eq!(config.cases.timeout, Duration::from_secs(60));
    }

    /// The embedded defaults are the binary's but for the four documented differences.
    #[test]
    fn embedded_defaults_are_the_binary_ones_but_four() {
        let binary = Config::try_parse_from(["solver-server"]).unwrap();
        let embedded = Config::default();
        assert_eq!(embedded.metrics.listen, None);
        assert_eq!(embedded.tables.warm_up, WarmUp(vec![Kind::Eight]));
        assert!(!embedded.tables.warm_up_targets);
        assert_eq!(embedded.transport.max_connection_age, None);
        let mut expected = binary;
        expected.metrics.listen = None;
        expected.tables.warm_up = WarmUp(vec![Kind::Eight]);
        expected.tables.warm_up_targets = false;
        expected.transport.max_connection_age = None;
        assert_eq!(format!("{embedded:?}"), format!("{expected:?}"));
    }

    #[test]
    fn flags() {
        let config = Config::try_parse_from([
            "solver-server",
            "--metrics-listen",
            "off",
            "--warm-up",
            "none",
            "--build-databases",
            "false",
            "--warm-up-targets",
            "false",
            "--max-connection-age",
            "off",
            "--case-timeout",
            "500ms",
        ])
        .unwrap();
        assert_eq!(config.metrics.listen, None);
        assert!(config.tables.warm_up.0.is_empty());
        assert!(!config.tables.build_databases);
        assert!(!config.tables.warm_up_targets);
        assert_eq!(config.transport.max_connection_age, None);
        assert_eq!(config.cases.timeout, Duration::from_millis(500));
        let config =
            Config::try_parse_from(["solver-server", "--warm-up", "fifteen,eight"]).unwrap();
        assert_eq!(
            config.tables.warm_up,
            WarmUp(vec![Kind::Fifteen, Kind::Eight])
        );
        assert_eq!(config.tables.warm_up.to_string(), "fifteen,eight");
        assert!(Config::try_parse_from(["solver-server", "--warm-up", "nine"]).is_err());
        assert!(Config::try_parse_from(["solver-server", "--window", "0"]).is_err());
        assert!(Config::try_parse_from(["solver-server", "--stream-window", "4096"]).is_err());
        assert_eq!(
            Config::try_parse_from(["solver-server", "--stream-window", "65536"])
                .unwrap()
                .transport
                .stream_window,
            65536
        );
        assert!(Config::try_parse_from(["solver-server", "--max-streams", "99999999999"]).is_err());
        assert!(Config::try_parse_from(["solver-server", "--workers", "100000"]).is_err());
    }

    /// Every group's flags reach its fields under their old names.
    #[test]
    fn renamed_fields_keep_their_flags() {
        let config = Config::try_parse_from([
            "solver-server",
            "--tls-cert",
            "c.pem",
            "--tls-key",
            "k.pem",
            "--tls-client-ca",
            "ca.pem",
            "--auth-tokens-file",
            "tokens",
            "--web-page",
            "false",
            "--table-memory",
            "7",
        ])
        .unwrap();
        let paths = config.tls.paths().unwrap();
        assert_eq!(paths.cert, std::path::Path::new("c.pem"));
        assert_eq!(paths.key, std::path::Path::new("k.pem"));
        assert_eq!(
            paths.client_ca.as_deref(),
            Some(std::path::Path::new("ca.pem"))
        );
        assert_eq!(
            config.auth.tokens_file.as_deref(),
            Some(std::path::Path::new("tokens"))
        );
        assert!(!config.web.page);
        assert_eq!(config.tables.memory, 7);
        assert!(Config::try_parse_from(["solver-server", "--tls-cert", "c.pem"]).is_err());
    }

    #[test]
    fn data_directory_choice() {
        let config = Config::try_parse_from(["solver-server", "--data-dir", "/srv/db"]).unwrap();
        assert_eq!(
            config.tables.data().path(),
            Some(std::path::Path::new("/srv/db"))
        );
        let config = Config::try_parse_from(["solver-server", "--no-data-dir"]).unwrap();
        assert_eq!(config.tables.data().path(), None);
        assert!(
            Config::try_parse_from(["solver-server", "--no-data-dir", "--data-dir", "/x"]).is_err()
        );
    }

    #[test]
    fn node_budgets() {
        let mut config = Config::default();
        assert_eq!(config.cases.node_budget_for(0), None);
        assert_eq!(config.cases.node_budget_for(10), Some(10));
        config.cases.max_node_budget = 5;
        assert_eq!(config.cases.node_budget_for(0), Some(5));
        assert_eq!(config.cases.node_budget_for(10), Some(5));
        config.cases.node_budget = 3;
        assert_eq!(config.cases.node_budget_for(0), Some(3));
    }

    #[test]
    fn help_is_consistent() {
        use clap::CommandFactory;
        Config::command().debug_assert();
    }
}
