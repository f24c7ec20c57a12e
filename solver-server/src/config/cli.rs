//! [`Config`] as clap sees it: one list of flags, in the order `--help` has always listed them,
//! read into the groups. Derived, each group's flags would be listed together, which would
//! reorder `--help`, the man page and the completion scripts.

use clap::{Arg, ArgMatches, Args, Command, CommandFactory, FromArgMatches, Parser};

use super::FamilyFlags;
use super::kinds::FAMILY_HELP_ORDER;
use super::{ABOUT, Auth, Cases, Config, Limits, Metrics, Scheduling, Shutdown, Tables, Tls};
use super::{Transport, Web};

/// Every flag's id, in the order `--help` lists them (the order they were added in); the
/// families' own come after the cases' limits.
fn help_order() -> impl Iterator<Item = &'static str> {
    let (before, after) = HELP_ORDER.split_at(
        HELP_ORDER
            .iter()
            .position(|&id| id == "max_node_budget")
            .expect("listed")
            + 1,
    );
    before
        .iter()
        .chain(&FAMILY_HELP_ORDER)
        .chain(after)
        .copied()
}

/// Every flag's id but the families' own, in the order `--help` lists them.
const HELP_ORDER: [&str; 32] = [
    "listen",
    "metrics_listen",
    "warm_up",
    "data_dir",
    "no_data_dir",
    "build_databases",
    "warm_up_targets",
    "workers",
    "window",
    "stream_window",
    "batch",
    "cache_entries",
    "table_memory",
    "request_build_memory",
    "search_memory",
    "max_message_bytes",
    "max_streams",
    "case_timeout",
    "node_budget",
    "max_node_budget",
    "grace_period",
    "tls_cert",
    "tls_key",
    "tls_client_ca",
    "auth_tokens_file",
    "max_streams_per_token",
    "max_cases_per_token",
    "cors_allowed_origins",
    "web_page",
    "max_connection_age",
    "handshake_timeout",
    "move_pruning",
];

/// Every group's flags, in the groups' order.
fn groups(command: Command) -> Command {
    let command = Transport::augment_args(command);
    let command = Tls::augment_args(command);
    let command = Auth::augment_args(command);
    let command = Web::augment_args(command);
    let command = Limits::augment_args(command);
    let command = Cases::augment_args(command);
    let command = FamilyFlags::augment_args(command);
    let command = Scheduling::augment_args(command);
    let command = Tables::augment_args(command);
    let command = Metrics::augment_args(command);
    Shutdown::augment_args(command)
}

/// Adds every group's flags to `command` in [`HELP_ORDER`].
///
/// # Panics
/// When a flag is missing from [`HELP_ORDER`] or listed there but in no group.
fn in_help_order(command: Command) -> Command {
    let mut flags: Vec<Arg> = groups(Command::new("groups"))
        .get_arguments()
        .cloned()
        .collect();
    let command = help_order().fold(command, |command, id| {
        let at = flags
            .iter()
            .position(|flag| flag.get_id() == id)
            .unwrap_or_else(|| panic!("no flag {id:?} in the configuration's groups"));
        // The scratch command numbered the flags in the groups' order; the real one numbers
        // them again, in this one.
        command.arg(flags.remove(at).display_order(None))
    });
    assert!(flags.is_empty(), "flags missing from HELP_ORDER: {flags:?}");
    command
}

impl Args for Config {
    fn augment_args(command: Command) -> Command {
        in_help_order(command)
    }

    fn augment_args_for_update(command: Command) -> Command {
        in_help_order(command)
    }
}

impl FromArgMatches for Config {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        Self::from_arg_matches_mut(&mut matches.clone())
    }

    fn from_arg_matches_mut(matches: &mut ArgMatches) -> Result<Self, clap::Error> {
        Ok(Self {
            transport: Transport::from_arg_matches_mut(matches)?,
            tls: Tls::from_arg_matches_mut(matches)?,
            auth: Auth::from_arg_matches_mut(matches)?,
            web: Web::from_arg_matches_mut(matches)?,
            limits: Limits::from_arg_matches_mut(matches)?,
            cases: Cases::from_arg_matches_mut(matches)?,
            families: FamilyFlags::from_arg_matches_mut(matches)?,
            scheduling: Scheduling::from_arg_matches_mut(matches)?,
            tables: Tables::from_arg_matches_mut(matches)?,
            metrics: Metrics::from_arg_matches_mut(matches)?,
            shutdown: Shutdown::from_arg_matches_mut(matches)?,
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        self.update_from_arg_matches_mut(&mut matches.clone())
    }

    fn update_from_arg_matches_mut(&mut self, matches: &mut ArgMatches) -> Result<(), clap::Error> {
        self.transport.update_from_arg_matches_mut(matches)?;
        self.tls.update_from_arg_matches_mut(matches)?;
        self.auth.update_from_arg_matches_mut(matches)?;
        self.web.update_from_arg_matches_mut(matches)?;
        self.limits.update_from_arg_matches_mut(matches)?;
        self.cases.update_from_arg_matches_mut(matches)?;
        self.families.update_from_arg_matches_mut(matches)?;
        self.scheduling.update_from_arg_matches_mut(matches)?;
        self.tables.update_from_arg_matches_mut(matches)?;
        self.metrics.update_from_arg_matches_mut(matches)?;
        self.shutdown.update_from_arg_matches_mut(matches)
    }
}

impl CommandFactory for Config {
    fn command() -> Command {
        Self::augment_args(Command::new("solver-server"))
            .version(env!("CARGO_PKG_VERSION"))
            .about(ABOUT)
    }

    fn command_for_update() -> Command {
        Self::command()
    }
}

impl Parser for Config {}
