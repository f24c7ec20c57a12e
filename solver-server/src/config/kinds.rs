//! The puzzle kinds as flags name them, `--warm-up`'s list of them, each family's own flags,
//! and the one line that says what the server solves.

use std::fmt;
use std::str::FromStr;

use clap::ValueEnum;

use super::values::FlagError;

/// What the server is, in one line: its `--help` starts with it.
pub const ABOUT: &str = "gRPC service that solves sliding-tile puzzles of any shape from 2x2 to 8x8 \
                         (optimally, or within a proven ratio) and four-piece Solitaire";

/// Each family's own flags, one group per family, defined in the family's module (`--help`
/// lists them after the cases' limits, in `FAMILY_HELP_ORDER`).
#[derive(Debug, Clone, clap::Args)]
pub struct FamilyFlags {
    /// Solitaire's.
    #[command(flatten)]
    pub solitaire: crate::puzzles::solitaire::flags::Flags,
}

/// The families' flags' ids, in the order `--help` lists them.
pub(super) const FAMILY_HELP_ORDER: [&str; 1] = crate::puzzles::solitaire::flags::HELP_ORDER;

/// A puzzle kind: the name it has in flags, logs and metric labels. Each is served by one module
/// of the server, which names its kind; this list is what flags and metrics enumerate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, ValueEnum)]
pub enum Kind {
    /// The 8-puzzle (3×3), `SolveEight`.
    Eight,
    /// The 15-puzzle (4×4), `SolveFifteen`.
    Fifteen,
    /// Four-piece Solitaire on 8×8, `SolveSolitaire`.
    Solitaire,
    /// Sliding boards of every other shape, 2×2 to 8×8 (`solver.v2` only; its warm-up loads the
    /// stored pattern databases).
    Sliding,
}

impl Kind {
    /// Every kind, in declaration order (metrics index their series by it).
    pub const ALL: [Kind; 4] = [Kind::Eight, Kind::Fifteen, Kind::Solitaire, Kind::Sliding];

    /// The lowercase name used in flags, logs and metric labels.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Eight => "eight",
            Kind::Fifteen => "fifteen",
            Kind::Solitaire => "solitaire",
            Kind::Sliding => "sliding",
        }
    }
}

impl Kind {
    /// The kind of that [`name`](Self::name).
    #[must_use]
    pub fn named(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|kind| kind.name() == name)
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The tables to get ready before reporting SERVING: `eight,fifteen,sliding`, or `none`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WarmUp(pub Vec<Kind>);

impl From<Vec<Kind>> for WarmUp {
    fn from(kinds: Vec<Kind>) -> Self {
        Self(kinds)
    }
}

impl FromStr for WarmUp {
    type Err = FlagError;

    fn from_str(text: &str) -> Result<Self, FlagError> {
        let text = text.trim();
        if text.is_empty() || text.eq_ignore_ascii_case("none") {
            return Ok(Self(Vec::new()));
        }
        text.split(',')
            .map(|name| {
                <Kind as ValueEnum>::from_str(name.trim(), true).map_err(|_| FlagError::NotAKind {
                    name: name.to_owned(),
                    kinds: Kind::ALL.map(Kind::name).join(", "),
                })
            })
            .collect::<Result<_, _>>()
            .map(Self)
    }
}

impl fmt::Display for WarmUp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("none");
        }
        for (i, kind) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            f.write_str(kind.name())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_is_listed_once_by_its_flag_name() {
        assert_eq!(Kind::ALL.as_slice(), Kind::value_variants());
        for (index, kind) in Kind::ALL.into_iter().enumerate() {
            assert_eq!(kind as usize, index);
            let flag = kind.to_possible_value().expect("no kind is hidden");
            assert_eq!(flag.get_name(), kind.name());
        }
    }
}
