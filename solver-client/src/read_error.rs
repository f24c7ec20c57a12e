//! Why a case's text cannot be read (or the input around the cases): what the judge formats and
//! `solve` report for each, in words for the person who wrote the input.

use std::error::Error;
use std::fmt;
use std::sync::Arc;

use solver_core::BoardError;

/// Why a case (or the input outside any case) cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ReadError {
    /// The tokens do not make a case, whatever they are.
    #[error(transparent)]
    Layout(#[from] LayoutError),
    /// The input ends before every case a count announced (`read` came).
    #[error("missing: the input ends after {read} of the {count} cases the first line announced")]
    Missing {
        /// Cases read.
        read: usize,
        /// The count as typed.
        count: String,
    },
    /// The input ends inside a case.
    #[error("the input ends inside the case, after {read} of the {tokens} {what}")]
    Truncated {
        /// Tokens read.
        read: usize,
        /// Tokens of a case.
        tokens: usize,
        /// What they are.
        what: &'static str,
    },
    /// A tile number too long to show as solver-core read it, quoted as typed.
    #[error("token {index} ({token}) is out of range: expected 1..={max}, or 0 for the blank")]
    OutOfRange {
        /// 1-based token.
        index: usize,
        /// The token, quoted.
        token: String,
        /// The largest tile.
        max: u32,
    },
    /// Tiles that are not a board.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// A token that is not a tile number (quoted), in a board of any shape.
    #[error("token {index} ({token}) is not a tile: expected a number, or 0 or x for the blank")]
    NotATile {
        /// 1-based token of the board.
        index: usize,
        /// The token, quoted.
        token: String,
    },
    /// A token that is not a packed 3×3 board (quoted).
    #[error("{0} is not a board: expected 9 tiles, or 9 characters packed like 12345678x")]
    NotPacked(String),
    /// A packed 3×3 board whose tiles are not a board.
    #[error("{token}: {source}")]
    Packed {
        /// The token, quoted.
        token: String,
        /// Why.
        source: BoardError,
    },
    /// HDU 3567: not two boards.
    #[error("expected 2 boards (start and target), found {0}")]
    Boards(usize),
    /// A part of a case (`start`, `target`, `end`) that cannot be read.
    #[error("{part}: {source}")]
    In {
        /// Which part.
        part: &'static str,
        /// Why.
        source: Box<ReadError>,
    },
    /// What only one family's reader checks (the pieces of a Solitaire position, say).
    #[error(transparent)]
    Family(FamilyError),
    /// A counted input without any token.
    #[error("the number of cases is missing: the input is empty")]
    NoCount,
    /// A count that is not a number (the token, quoted).
    #[error("expected the number of cases first, found {0}; reading cases until the end of input")]
    NotACount(String),
    /// Text after the last case a count announced.
    #[error(
        "unexpected {token} after the last of the {count} cases the first line announced; ignored"
    )]
    AfterLast {
        /// The first token after, quoted.
        token: String,
        /// The count as typed.
        count: String,
    },
}

impl ReadError {
    /// This error as the reason `part` of a case cannot be read.
    pub(crate) fn within(self, part: &'static str) -> Self {
        ReadError::In {
            part,
            source: Box::new(self),
        }
    }
}

/// Why a case cannot be read, in the words of the family whose reader found it.
#[derive(Debug, Clone)]
pub(crate) struct FamilyError(Arc<dyn Error + Send + Sync>);

impl FamilyError {
    /// `error`, as one family's reader words it.
    pub(crate) fn new(error: impl Error + Send + Sync + 'static) -> Self {
        Self(Arc::new(error))
    }
}

impl fmt::Display for FamilyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl Error for FamilyError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        self.0.source()
    }
}

/// Two are equal when they say the same: what tests of the readers compare.
impl PartialEq for FamilyError {
    fn eq(&self, other: &Self) -> bool {
        self.to_string() == other.to_string()
    }
}

impl Eq for FamilyError {}

/// What is wrong with a malformed case's tokens as a whole, whatever the format.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum LayoutError {
    /// Too few or too many tokens for a case, and how they lay in lines when several.
    #[error(
        "expected {expected} {what}, found {found}{}",
        lines.as_ref().map(ToString::to_string).unwrap_or_default()
    )]
    Count {
        /// The tokens of a case.
        expected: usize,
        /// What they are (`tiles`, `numbers`).
        what: &'static str,
        /// The tokens found.
        found: usize,
        /// Their lines, when they span several.
        lines: Option<Lines>,
    },
    /// As many tokens as a case has, each valid, but ending inside a line.
    #[error("the case's {0} do not end where a line does")]
    NotAtLineEnd(&'static str),
}

/// The lines a malformed case's tokens span, for its message: ` (lines 3 to 4: 7 + 8)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Lines {
    /// The first line.
    pub(crate) first: usize,
    /// The last line.
    pub(crate) last: usize,
    /// Tokens on each line from the first to the last that has any.
    pub(crate) counts: Vec<usize>,
}

impl std::fmt::Display for Lines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let counts: Vec<String> = self.counts.iter().map(ToString::to_string).collect();
        write!(
            f,
            " (lines {} to {}: {})",
            self.first,
            self.last,
            counts.join(" + ")
        )
    }
}
