//! The cases of a run: validated queries read from the input, numbered as the judge numbers
//! them, and what is wrong with the others. What a query is, family by family, is `family/`.

use crate::family::Query;
use crate::read_error::ReadError;

/// One case of the input, numbered as the judge numbers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Case {
    /// 1-based case number.
    pub(crate) number: usize,
    /// 1-based line where the case starts.
    pub(crate) line: usize,
    /// The query, or what is wrong with the case's text.
    pub(crate) query: Result<Query, ReadError>,
}

/// Everything read from one input.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Input {
    /// The cases in input order, good and bad.
    pub(crate) cases: Vec<Case>,
    /// Problems outside any case (a bad header, text after the last case), with their lines.
    pub(crate) problems: Vec<(usize, ReadError)>,
}

impl Input {
    /// Adds case number `cases.len() + 1`.
    pub(crate) fn push(&mut self, line: usize, query: Result<Query, ReadError>) {
        let number = self.cases.len() + 1;
        self.cases.push(Case {
            number,
            line,
            query,
        });
    }
}
