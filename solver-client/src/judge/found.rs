//! What reading a case at a position found, kept by the source (`source`) between readings so
//! that the search for case boundaries (`recovery`) does not read the same positions again: a
//! leaf that both, and the lexer's cursors (`tokens`, for [`Place`]), use without a circle.

/// What a reading found, for the shapes the recovery looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Found {
    /// A case's worth of tokens.
    Case {
        /// Whether the format took them as a case.
        valid: bool,
        /// Whether they end where their last line does (or the input does).
        whole: bool,
    },
    /// The input ended after this many tokens, fewer than a case has.
    Truncated(usize),
}

/// Where a cursor is, without the input it is in: how the source remembers the cursor after a
/// reading (`Tokens::look` in `recovery`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Place {
    pub(super) pos: u64,
    pub(super) line: usize,
    pub(super) index: usize,
}
