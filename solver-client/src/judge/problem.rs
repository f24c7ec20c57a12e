//! The judge problems the client speaks: each one's name, format and kind of puzzle.

use std::fmt;

use super::format::Format;
use crate::embedded::Tables;
use crate::family::sliding::judge::{eight, eight_ii, fifteen};

/// The judge problems the client speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Problem {
    /// POJ 1077 "Eight": boards until end of input, any valid solution.
    Poj1077,
    /// HDU 1043 "Eight": boards until end of input, any valid solution.
    Hdu1043,
    /// UVa 652 "Eight": a count, then boards; blank lines between outputs.
    Uva652,
    /// HDU 3567 "Eight II": start and target; the smallest optimal solution, exactly.
    Hdu3567,
    /// UVa 10181 "15-Puzzle Problem": a count, then 4×4 boards.
    Uva10181,
    /// POJ 1198 "Solitaire": reachable within 8 moves?
    Poj1198,
    /// HDU 1401 "Solitaire": reachable within 8 moves?
    Hdu1401,
}

impl Problem {
    /// Every problem, for tests.
    #[cfg(test)]
    pub(crate) const ALL: [Problem; 7] = [
        Problem::Poj1077,
        Problem::Hdu1043,
        Problem::Uva652,
        Problem::Hdu3567,
        Problem::Uva10181,
        Problem::Poj1198,
        Problem::Hdu1401,
    ];

    /// The problem's name as on the command line.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Problem::Poj1077 => "poj1077",
            Problem::Hdu1043 => "hdu1043",
            Problem::Uva652 => "uva652",
            Problem::Hdu3567 => "hdu3567",
            Problem::Uva10181 => "uva10181",
            Problem::Poj1198 => "poj1198",
            Problem::Hdu1401 => "hdu1401",
        }
    }

    /// The format that reads and writes this problem.
    pub(crate) fn format(self) -> &'static dyn Format {
        match self {
            Problem::Poj1077 | Problem::Hdu1043 => &eight::EIGHT_UNTIL_EOF,
            Problem::Uva652 => &eight::EIGHT_COUNTED,
            Problem::Hdu3567 => &eight_ii::EightII,
            Problem::Uva10181 => &fifteen::FIFTEEN_COUNTED,
            Problem::Poj1198 | Problem::Hdu1401 => {
                &crate::family::solitaire::judge::SOLITAIRE_UNTIL_EOF
            }
        }
    }

    /// Whether the input starts with the number of cases (and so may have text after the last).
    pub(crate) fn counted(self) -> bool {
        matches!(self, Problem::Uva652 | Problem::Hdu3567 | Problem::Uva10181)
    }

    /// The kind of puzzle this problem's cases are (the server tables to warm up).
    pub(crate) fn kind(self) -> Tables {
        match self {
            Problem::Poj1077 | Problem::Hdu1043 | Problem::Uva652 | Problem::Hdu3567 => {
                Tables::Eight
            }
            Problem::Uva10181 => Tables::Fifteen,
            Problem::Poj1198 | Problem::Hdu1401 => Tables::None,
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
