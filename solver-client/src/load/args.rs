//! The options of `load`, and reading `--mix` and `--in-flight`.

use std::num::ParseIntError;
use std::time::Duration;

use solver_store::flags::parse_duration;

use super::class::Class;

/// Drive a server with concurrent streams of easy and hard cases and report latency percentiles,
/// throughput, errors and the server's memory per class of case.
#[derive(Debug, clap::Args)]
#[command(after_help = super::class::HELP)]
pub(crate) struct Args {
    /// Streams per class, `class=N,...` (a class alone counts 1). With --streams, the weights
    /// by which those streams are shared out.
    #[arg(
        long,
        value_parser = parse_mix,
        default_value = super::class::DEFAULT_MIX
    )]
    pub(super) mix: Mix,

    /// Concurrent streams in all, shared out over the classes of --mix by their weights
    /// (default: the sum of the weights).
    #[arg(long, value_name = "N")]
    pub(super) streams: Option<usize>,

    /// How long each stream sends cases (e.g. 500ms, 30s, 2m); cases still unanswered then get
    /// 5 s more. Default: 10s, unless --cases is given.
    #[arg(long, value_parser = parse_duration, conflicts_with = "cases")]
    pub(super) duration: Option<Duration>,

    /// Cases each stream sends, instead of a duration.
    #[arg(long, value_name = "N")]
    pub(super) cases: Option<u64>,

    /// Cases outstanding per stream: one number for every class and/or `class=K,...`
    /// (default: 1 for fifteen-hard, 64 for the others).
    #[arg(long, value_parser = parse_in_flight, value_name = "K|CLASS=K,...")]
    pub(super) in_flight: Option<InFlight>,

    /// The fifteen-hard boards, comma-separated: `80` (the 80-move board: over the server's
    /// default 60 s case limit with the 6-6-3 databases on 2 cores), `korf` (12 of Korf's 100,
    /// 0.05 to 0.8 s each) or `korfN`.
    #[arg(long, default_value = "korf,80", value_name = "BOARDS")]
    pub(super) hard: String,

    /// The old name of `--timeout` here (every stream's grpc-timeout), hidden: one flag says
    /// it, the global one every command takes; this one is still read, for scripts.
    #[arg(long, value_parser = parse_duration, hide = true)]
    pub(super) deadline: Option<Duration>,

    /// Seed of the random cases (default: from the clock; printed in the summary).
    #[arg(long)]
    pub(super) seed: Option<u64>,

    /// HTTP/2 connections to each server; the streams are shared out over them.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub(super) connections: usize,

    /// The server's Prometheus endpoint (e.g. http://127.0.0.1:9090/metrics), to report its
    /// resident memory. Without --server, this process's own is reported.
    #[arg(long, value_name = "URL")]
    pub(super) metrics: Option<String>,

    /// Print the summary as one JSON object instead of a table.
    #[arg(long)]
    pub(super) json: bool,
}

/// What is wrong with a `--mix` or `--in-flight` value.
#[derive(Debug, thiserror::Error)]
pub(super) enum ArgError {
    /// A name that is no class.
    #[error("{0:?} {not_a_class}", not_a_class = super::class::NOT_A_CLASS)]
    UnknownClass(String),
    /// A count that is not a number.
    #[error("{text:?}: {source}")]
    Number {
        /// The text as given.
        text: String,
        /// Why it is not a number.
        source: ParseIntError,
    },
    /// A class given twice in `--mix`.
    #[error("{0} is given twice")]
    Twice(String),
    /// Every weight of `--mix` is 0.
    #[error("no class has a stream")]
    NoStream,
    /// An in-flight count out of range.
    #[error("{0} cases in flight: expected 1 to 1000000")]
    InFlight(usize),
}

fn class(name: &str) -> Result<Class, ArgError> {
    Class::from_name(name).ok_or_else(|| ArgError::UnknownClass(name.to_owned()))
}

/// `--mix`: weights per class.
#[derive(Debug, Clone)]
pub(super) struct Mix(pub(super) Vec<(Class, usize)>);

pub(super) fn parse_mix(text: &str) -> Result<Mix, ArgError> {
    let mut mix: Vec<(Class, usize)> = Vec::new();
    for entry in text.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        let (name, weight) = match entry.split_once('=') {
            Some((name, n)) => (
                name.trim(),
                n.trim()
                    .parse::<usize>()
                    .map_err(|source| ArgError::Number {
                        text: entry.to_owned(),
                        source,
                    })?,
            ),
            None => (entry, 1),
        };
        let class = class(name)?;
        if mix.iter().any(|(c, _)| *c == class) {
            return Err(ArgError::Twice(name.to_owned()));
        }
        mix.push((class, weight));
    }
    mix.retain(|&(_, w)| w > 0);
    if mix.is_empty() {
        return Err(ArgError::NoStream);
    }
    Ok(Mix(mix))
}

/// `--in-flight`: a count for all classes and/or per class.
#[derive(Debug, Clone, Default)]
pub(super) struct InFlight {
    all: Option<usize>,
    per: Vec<(Class, usize)>,
}

impl InFlight {
    pub(super) fn of(&self, class: Class) -> usize {
        self.per
            .iter()
            .find(|(c, _)| *c == class)
            .map(|&(_, n)| n)
            .or(self.all)
            .unwrap_or_else(|| class.default_in_flight())
    }
}

pub(super) fn parse_in_flight(text: &str) -> Result<InFlight, ArgError> {
    let count = |n: &str| match n.trim().parse::<usize>() {
        Ok(n) if (1..=1_000_000).contains(&n) => Ok(n),
        Ok(n) => Err(ArgError::InFlight(n)),
        Err(source) => Err(ArgError::Number {
            text: n.to_owned(),
            source,
        }),
    };
    let mut in_flight = InFlight::default();
    for entry in text.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        match entry.split_once('=') {
            Some((name, n)) => in_flight.per.push((class(name.trim())?, count(n)?)),
            None => in_flight.all = Some(count(entry)?),
        }
    }
    Ok(in_flight)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mixes() {
        assert!(parse_mix("eight=1,eight=2").is_err());
        assert!(parse_mix("nine").is_err());
        assert!(parse_mix("eight=0").is_err());
        assert_eq!(
            parse_mix("fifteen-hard=x").unwrap_err().to_string(),
            "\"fifteen-hard=x\": invalid digit found in string"
        );
    }

    #[test]
    fn in_flight_counts() {
        let in_flight = parse_in_flight("8,fifteen-hard=2").unwrap();
        assert_eq!(in_flight.of(Class::Eight), 8);
        assert_eq!(in_flight.of(Class::FifteenHard), 2);
        assert_eq!(InFlight::default().of(Class::FifteenHard), 1);
        assert!(parse_in_flight("0").is_err());
    }
}
