//! A load run's plan: the streams of each class, and how much each sends, checked before anything
//! starts.

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::bail;

use super::args::{Args, Mix};
use super::class::Class;
use super::hard::{Hard, hard_boards};
use super::rss;
use crate::embedded::Tables;

/// How long a run goes when neither `--duration` nor `--cases` is given.
const DEFAULT_DURATION: Duration = Duration::from_secs(10);

/// Shares `total` streams out over the weighted classes (largest remainders), each class one at
/// least.
fn share_out(mix: &Mix, total: Option<usize>) -> anyhow::Result<Vec<(Class, usize)>> {
    let weights: usize = mix.0.iter().map(|&(_, w)| w).sum();
    let Some(total) = total else {
        return Ok(mix.0.clone());
    };
    if total < mix.0.len() {
        bail!(
            "--streams {total} is fewer than the {} classes of --mix",
            mix.0.len()
        );
    }
    let mut shares: Vec<(Class, usize, usize)> = mix
        .0
        .iter()
        .map(|&(c, w)| (c, total * w / weights, total * w % weights))
        .collect();
    let mut left = total - shares.iter().map(|s| s.1).sum::<usize>();
    let mut order: Vec<usize> = (0..shares.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(shares[i].2));
    for &i in order.iter().cycle() {
        if left == 0 {
            break;
        }
        shares[i].1 += 1;
        left -= 1;
    }
    // Every class asked for gets a stream, taken from the largest.
    while let Some(i) = shares.iter().position(|s| s.1 == 0) {
        let largest = (0..shares.len())
            .max_by_key(|&j| shares[j].1)
            .expect("there are classes");
        shares[largest].1 -= 1;
        shares[i].1 += 1;
    }
    Ok(shares.into_iter().map(|(c, n, _)| (c, n)).collect())
}

/// How much a stream slot sends.
#[derive(Debug, Clone, Copy)]
pub(super) enum Budget {
    Cases(u64),
    Until(Instant),
}

impl Budget {
    pub(super) fn allows(self, sent: u64) -> bool {
        match self {
            Budget::Cases(n) => sent < n,
            Budget::Until(end) => Instant::now() < end,
        }
    }
}

/// Everything a run needs, checked before anything starts.
#[derive(Debug)]
pub(super) struct Plan {
    pub(super) classes: Vec<(Class, usize, usize)>,
    pub(super) cases: Option<u64>,
    pub(super) duration: Duration,
    /// Every stream's `grpc-timeout`: the global `--timeout` (or its old name here,
    /// `--deadline`).
    pub(super) deadline: Option<Duration>,
    pub(super) seed: u64,
    pub(super) connections: usize,
    pub(super) hard: Arc<[Hard]>,
    pub(super) metrics: Option<rss::Probe>,
    pub(super) json: bool,
}

impl Plan {
    /// The plan of `args`; `timeout` is the global `--timeout`.
    pub(super) fn new(args: Args, timeout: Option<Duration>) -> anyhow::Result<Self> {
        let shares = share_out(&args.mix, args.streams)?;
        let in_flight = args.in_flight.unwrap_or_default();
        if args.connections == 0 {
            bail!("--connections must be at least 1");
        }
        if args.cases == Some(0) {
            bail!("--cases must be at least 1");
        }
        let seed = args.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        });
        Ok(Self {
            classes: shares
                .into_iter()
                .map(|(c, n)| (c, n, in_flight.of(c)))
                .collect(),
            cases: args.cases,
            duration: args.duration.unwrap_or(DEFAULT_DURATION),
            deadline: args.deadline.or(timeout),
            seed,
            connections: args.connections,
            hard: hard_boards(&args.hard)?.into(),
            metrics: args
                .metrics
                .as_deref()
                .map(rss::Probe::metrics)
                .transpose()?,
            json: args.json,
        })
    }

    /// The server tables worth building before the run (not timed).
    pub(super) fn warm_up(&self) -> Vec<Tables> {
        let mut kinds = Vec::new();
        for &(class, _, _) in &self.classes {
            let Some(grid) = class.warm_up() else {
                continue;
            };
            let kind = crate::family::sliding::query::tables(grid);
            if !kinds.contains(&kind) {
                kinds.push(kind);
            }
        }
        kinds
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares() {
        let mix = Mix(Class::ALL.into_iter().zip([4, 2, 1, 1]).collect());
        assert_eq!(share_out(&mix, None).unwrap()[0], (Class::Eight, 4));
        let shares = share_out(&mix, Some(16)).unwrap();
        assert_eq!(shares.iter().map(|s| s.1).collect::<Vec<_>>(), [8, 4, 2, 2]);
        let shares = share_out(&mix, Some(5)).unwrap();
        assert_eq!(shares.iter().map(|s| s.1).sum::<usize>(), 5);
        assert!(shares.iter().all(|s| s.1 >= 1));
        assert!(share_out(&mix, Some(3)).is_err());
    }

    /// One flag gives the streams' deadline: the global `--timeout`; `--deadline`, its old name
    /// here, still works but is not shown.
    #[test]
    fn the_deadline_is_the_timeout() {
        use clap::{CommandFactory as _, Parser as _};

        #[derive(clap::Parser)]
        struct Load {
            #[command(flatten)]
            args: Args,
        }
        let plan = |argv: &[&str], timeout| {
            let argv = std::iter::once("load").chain(argv.iter().copied());
            Plan::new(Load::try_parse_from(argv).unwrap().args, timeout)
                .unwrap()
                .deadline
        };
        let (twenty, five) = (Duration::from_secs(20), Duration::from_secs(5));
        assert_eq!(plan(&[], Some(twenty)), Some(twenty));
        assert_eq!(plan(&[], None), None);
        assert_eq!(plan(&["--deadline", "5s"], Some(twenty)), Some(five));
        let help = Load::command().render_long_help().to_string();
        assert!(!help.contains("--deadline"), "{help}");
    }
}
