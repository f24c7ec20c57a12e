//! Whitespace-separated tokens of judge input, with line numbers for error messages.
//!
//! Judges promise tokens, not lines ("any whitespace"), so parsers read tokens. Lines still matter
//! for two things: error messages name them, and after a malformed case the parsers use line
//! breaks to find where the next case starts, so that one bad case costs only itself (see
//! [`Tokens::read_case`]).

use crate::read_error::{LayoutError, Lines};

/// One token: a maximal run of non-whitespace bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Token<'a> {
    /// The bytes of the token (not necessarily UTF-8: input is arbitrary bytes).
    pub(crate) bytes: &'a [u8],
    /// 1-based line the token is on.
    pub(crate) line: usize,
    /// Byte offset of the token in the input.
    offset: usize,
}

impl<'a> Token<'a> {
    /// A placeholder for unfilled slots of a group.
    const NONE: Token<'static> = Token {
        bytes: &[],
        line: 0,
        offset: 0,
    };

    /// The token as text; a token that is not UTF-8 reads as U+FFFD, which no parser accepts.
    pub(crate) fn text(&self) -> &'a str {
        std::str::from_utf8(self.bytes).unwrap_or("\u{fffd}")
    }

    /// The token as a number, if it is one (digits only; no sign).
    pub(crate) fn number(&self) -> Option<u64> {
        if self.bytes.is_empty() || !self.bytes.iter().all(u8::is_ascii_digit) {
            return None;
        }
        // Saturate: a huge number is out of range for every use anyway.
        Some(self.text().parse().unwrap_or(u64::MAX))
    }

    /// The token quoted for an error message, shortened if it is long.
    pub(crate) fn quoted(&self) -> String {
        const MAX: usize = 24;
        let text = String::from_utf8_lossy(self.bytes);
        if text.chars().count() > MAX {
            let head: String = text.chars().take(MAX).collect();
            format!("{head:?}...")
        } else {
            format!("{text:?}")
        }
    }
}

/// A cursor over the tokens of an input. Cheap to copy, which is how parsers look ahead.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Tokens<'a> {
    input: &'a [u8],
    pos: usize,
    line: usize,
    /// Tokens before the cursor.
    index: usize,
    /// Tokens in the whole input.
    total: usize,
}

/// How a format lays its cases out in lines, for finding the next case after a malformed one.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Layout {
    /// Tokens in one case.
    pub(crate) tokens: usize,
    /// What the tokens are, for messages (`tiles`, `numbers`, `boards`).
    pub(crate) what: &'static str,
    /// Lines (with tokens) that one case takes at least when no line holds a whole case: 1 for
    /// boards, whose tiles tell where the next board starts; 2 for the formats whose cases are
    /// two lines (start and end) that could each begin a case as well (Solitaire, HDU 3567).
    pub(crate) lines: usize,
    /// Whether one line may hold a whole case: not in HDU 3567, whose boards are a line each (so
    /// `6 86412357X` is a malformed board, not a case).
    pub(crate) one_line: bool,
    /// Where a case is one line in the judge's layout (the 8-puzzle formats): the tokens in one
    /// row of a board split over lines. A malformed case is then its first line alone, unless
    /// that line holds just a row.
    pub(crate) row: Option<usize>,
}

/// What the rest of the input should hold after a case: a whole number of cases (tokens a
/// multiple of a case's), or exactly the cases a count still announces. A line where the next
/// case might start that leaves such a rest is most likely where it does: rows of a malformed
/// board and the next one that read as a board by chance (boards repeated in a test file) leave a
/// row too many or too few.
#[derive(Debug, Clone, Copy)]
struct Fit {
    /// Tokens in one case.
    tokens: usize,
    /// Cases a count announces after this one.
    cases_after: Option<u64>,
}

impl Fit {
    /// Whether the input from `at` on is what should follow.
    fn clean(self, at: &Tokens<'_>) -> bool {
        let rest = at.remaining();
        match self.cases_after {
            Some(cases) => u64::try_from(rest).is_ok_and(|rest| {
                cases
                    .checked_mul(self.tokens as u64)
                    .is_some_and(|due| due == rest)
            }),
            None => rest.is_multiple_of(self.tokens),
        }
    }
}

/// What reading one case at a position found (see [`Tokens::attempt`]).
#[derive(Debug)]
pub(crate) enum Read<'a, T, E> {
    /// A case's worth of tokens, from `first` to `last`, and what the format made of them.
    Case {
        /// Its first token.
        first: Token<'a>,
        /// Its last token.
        last: Token<'a>,
        /// The value, or what is wrong with the case.
        result: Result<T, E>,
    },
    /// The input ended after this many tokens, fewer than a case has.
    Truncated(usize),
}

/// One reading of a case: what was found, and the cursor after it.
#[derive(Debug)]
pub(crate) struct Attempt<'a, T, E> {
    /// What was read.
    pub(crate) read: Read<'a, T, E>,
    /// The cursor after the case.
    pub(crate) after: Tokens<'a>,
}

impl<'a, T, E> Attempt<'a, T, E> {
    /// The same reading with the value turned into another.
    pub(crate) fn map<U>(self, f: impl FnOnce(T) -> U) -> Attempt<'a, U, E> {
        Attempt {
            read: match self.read {
                Read::Case {
                    first,
                    last,
                    result,
                } => Read::Case {
                    first,
                    last,
                    result: result.map(f),
                },
                Read::Truncated(read) => Read::Truncated(read),
            },
            after: self.after,
        }
    }

    /// Whether this is a valid case that ends where its last line does (or the input does).
    fn valid_and_whole(&self) -> bool {
        matches!(&self.read, Read::Case { result: Ok(_), last, .. } if ends_line(&self.after, last.line))
    }

    /// Whether this is the end of the input.
    fn at_end(&self) -> bool {
        matches!(self.read, Read::Truncated(0))
    }

    /// Whether this is a case (valid or not) that ends where its last line does.
    fn whole(&self) -> bool {
        matches!(&self.read, Read::Case { last, .. } if ends_line(&self.after, last.line))
    }
}

/// What [`Tokens::read_case`] found.
#[derive(Debug)]
pub(crate) enum Group<T, E> {
    /// A valid case, and the line of its first token.
    Valid(T, usize),
    /// A malformed case: what is wrong with it and the line of its first token.
    Invalid(E, usize),
    /// The input ended inside the case after these many tokens (fewer than a case has, possibly
    /// 0); line of the first.
    Truncated(usize, usize),
}

/// Whether nothing follows `line` on its line once the cursor is at `after`.
fn ends_line(after: &Tokens<'_>, line: usize) -> bool {
    after.peek().is_none_or(|next| next.line > line)
}

/// How many valid cases that end inside lines may follow one another before they end with a line:
/// more on one line are taken as cases sharing it without looking further.
const SHARED_LINE_CASES: usize = 16;

/// Whether `next`, read right after a valid case that ended inside a line, says that the line
/// holds several cases: valid ones that end together with a line (or the input). Where a case is
/// two lines that could each begin one, the very next case must end with its line.
fn shares_line<'a, T, E>(
    attempt: &impl Fn(Tokens<'a>) -> Attempt<'a, T, E>,
    mut next: Attempt<'a, T, E>,
    layout: Layout,
) -> bool {
    let chain = if layout.lines > 1 {
        1
    } else {
        SHARED_LINE_CASES
    };
    for _ in 0..chain {
        if next.valid_and_whole() {
            return true;
        }
        if !matches!(next.read, Read::Case { result: Ok(_), .. }) {
            return false;
        }
        next = attempt(next.after);
    }
    layout.lines == 1
}

/// Whether a valid case that ends with its line starts at `start`, followed by another such case
/// or by the end of the input.
fn starts_cases<'a, T, E>(
    attempt: &impl Fn(Tokens<'a>) -> Attempt<'a, T, E>,
    start: Tokens<'a>,
) -> bool {
    let case = attempt(start);
    case.valid_and_whole() && {
        let next = attempt(case.after);
        next.at_end() || next.valid_and_whole()
    }
}

/// How many later line starts the search for the next case looks at after a malformed one, per
/// token of a case: enough to step over a board of 5 or 6 rows where 4 were due, few enough that
/// garbage costs a bounded amount of work per case.
const LOOK_AHEAD_LINES_PER_TOKEN: usize = 4;

impl<'a> Tokens<'a> {
    /// Tokens of `input`, starting on line 1.
    pub(crate) fn new(input: &'a [u8]) -> Self {
        let mut tokens = Self {
            input,
            pos: 0,
            line: 1,
            index: 0,
            total: 0,
        };
        tokens.total = tokens.count();
        tokens
    }

    /// How many tokens follow the cursor.
    fn remaining(&self) -> usize {
        self.total - self.index
    }

    /// The next token without consuming it.
    pub(crate) fn peek(&self) -> Option<Token<'a>> {
        let mut copy = *self;
        copy.next()
    }

    /// Line of the cursor: of the next token if any, else of the end of the input.
    pub(crate) fn line(&self) -> usize {
        self.peek().map_or_else(|| self.end_line(), |t| t.line)
    }

    /// The line of the end of input: the last line, not the empty one after a final newline.
    fn end_line(&self) -> usize {
        let end = self.at_end();
        end.line - usize::from(self.input.ends_with(b"\n") && end.line > 1)
    }

    /// The cursor at the end of the input.
    fn at_end(&self) -> Self {
        let mut copy = *self;
        while copy.next().is_some() {}
        copy
    }

    /// Whether `token` is the first on its line.
    fn starts_line(&self, token: &Token<'a>) -> bool {
        self.input[..token.offset]
            .iter()
            .rev()
            .take_while(|&&b| b != b'\n')
            .all(|&b| b.is_ascii_whitespace() || b == 0x0b)
    }

    /// The cursor at the first token of the next line that has tokens, after `line`; `None` at
    /// the end of the input.
    fn next_line_start(mut self, line: usize) -> Option<Self> {
        loop {
            let token = self.peek()?;
            if token.line > line {
                return Some(self);
            }
            self.next();
        }
    }

    /// The tokens from the cursor up to (not including) `end`.
    fn until(mut self, end: &Self) -> Vec<Token<'a>> {
        let mut tokens = Vec::new();
        while self.pos < end.pos {
            match self.next() {
                Some(token) if token.offset < end.pos => tokens.push(token),
                _ => break,
            }
        }
        tokens
    }

    /// Reads `n` tokens (at most 16) from the cursor as one case and checks them with `check`:
    /// the plain reading that [`Tokens::read_case`] builds on.
    pub(crate) fn attempt<T, E>(
        mut self,
        n: usize,
        check: impl Fn(&[Token<'a>]) -> Result<T, E>,
    ) -> Attempt<'a, T, E> {
        debug_assert!((1..=16).contains(&n));
        let mut group = [Token::NONE; 16];
        let mut count = 0;
        while count < n {
            match self.next() {
                Some(token) => {
                    group[count] = token;
                    count += 1;
                }
                None => {
                    return Attempt {
                        read: Read::Truncated(count),
                        after: self,
                    };
                }
            }
        }
        Attempt {
            read: Read::Case {
                first: group[0],
                last: group[n - 1],
                result: check(&group[..n]),
            },
            after: self,
        }
    }

    /// Reads the next case: `attempt` reads a case at a position (see [`Tokens::attempt`]), and
    /// `check` says what is wrong with a malformed case's tokens when they are as many as a case
    /// has. `None` at the end of the input.
    ///
    /// Valid cases are read as pure tokens: a board may be split over lines or share one. A
    /// malformed case costs only itself, and lines say where it ends:
    ///
    /// - a case that ends where its last line ends is just that case (a wrong tile, say), unless
    ///   it is one line and [`Layout::one_line`] says a line cannot hold a case. But when it
    ///   spans several lines and no valid case follows, the next case starts at the first later
    ///   line, less than two cases' worth of tokens on, from which valid cases read that end
    ///   with their lines (a row was missing and the case took the next one's first, or a row
    ///   was repeated);
    /// - the same holds for a case that the end of the input cuts short;
    /// - a valid case that ends inside a line stays valid when valid cases follow it there and
    ///   end with a line (cases sharing lines), and the rest of the input is whole cases
    ///   ([`Fit`]); when [`Layout::lines`] is more than 1, the very next case must end with its
    ///   line;
    /// - otherwise the case did not end where a case should (a row too short or too long, a
    ///   board of the wrong size, a line one token too long). The next case starts at a later
    ///   line from which cases read that end with their lines, preferring valid ones (see
    ///   [`Tokens::resynchronise`]). A case whose first line holds less than a whole case takes
    ///   at least [`Layout::lines`] lines. With no such line within a few lines, the cut is made
    ///   at the line the tokens ran into; with none before the end, the malformed case runs to
    ///   the end.
    ///
    /// What no rule can tell apart, and how it reads: a line missing or added where a case is one
    /// line (a case less or more); a line missing or added where a case is two lines that any two
    /// lines make (Solitaire, HDU 3567: the pairs after it shift); a board's first or last row
    /// repeated (a stray line next to a valid board); among copies of one board, a board without
    /// its first row (which reads like a later board without its last); and, in UVa 10181, two
    /// malformed boards close together, whose rows can hide where a good board between or after
    /// them starts (about 1 in 15 random inputs with two malformed boards loses a good one).
    ///
    /// Where a case is one line ([`Layout::row`]), a malformed case is its first line alone,
    /// unless that line holds just one row of a board (then the rules above apply); where a case
    /// is two lines that could each begin one, it is those two lines (or the first alone, if it
    /// holds a whole case).
    ///
    /// `last_case` says that this is the last case a count announced: a malformed one then runs to
    /// the end of the input, unless a valid case follows where it was found to end (that one is
    /// then one too many).
    ///
    /// A malformed case with too few or too many tokens is reported as such, with the tokens of
    /// each of its lines when it spans several.
    pub(crate) fn read_case<T, E: From<LayoutError>>(
        &mut self,
        layout: Layout,
        cases_after: Option<u64>,
        attempt: impl Fn(Tokens<'a>) -> Attempt<'a, T, E>,
        check: impl Fn(&[Token<'a>]) -> Result<T, E>,
    ) -> Option<Group<T, E>> {
        let last_case = cases_after == Some(0);
        let fit = Fit {
            tokens: layout.tokens,
            cases_after,
        };
        let start_line = self.peek()?.line;
        let tried = attempt(*self);
        let (first, last, result) = match tried.read {
            Read::Truncated(read) => {
                // The input ends inside this case, unless a later line of it starts a valid one
                // (`hello world` before the last board).
                let first = self.peek()?;
                let cut = match self.line_case_end(&first, layout) {
                    Some(end) if tried.after.pos > end.pos => Some(end),
                    Some(_) => None,
                    None => self.valid_start(&first, layout, fit, &attempt),
                };
                if let Some(cut) = cut {
                    return Some(Group::Invalid(
                        self.malformed(&cut, layout, &check, None),
                        first.line,
                    ));
                }
                *self = tried.after;
                return Some(Group::Truncated(read, start_line));
            }
            Read::Case {
                first,
                last,
                result,
            } => (first, last, result),
        };
        let whole = ends_line(&tried.after, last.line);
        let error = match result {
            Ok(value) => {
                // Cases sharing a line leave whole cases after them: a valid case followed by a
                // stray row that, with the next case's rows, reads as a case does not.
                let shared =
                    fit.clean(&tried.after) && shares_line(&attempt, attempt(tried.after), layout);
                if whole || shared {
                    *self = tried.after;
                    return Some(Group::Valid(value, first.line));
                }
                None
            }
            Err(error) if whole && (layout.one_line || last.line > first.line) => {
                let next = attempt(tried.after);
                let cut = if last.line == first.line {
                    None
                } else if let Some(end) = self.line_case_end(&first, layout) {
                    Some(end)
                } else if fit.clean(&tried.after) {
                    None
                } else if last_case {
                    // Nothing may follow the last case a count announced: what does belongs to
                    // it, unless it is a valid case (then it is reported as one too many).
                    (!next.valid_and_whole() && !next.at_end()).then(|| self.at_end())
                } else {
                    self.valid_start(&first, layout, fit, &attempt)
                };
                let Some(cut) = cut else {
                    *self = tried.after;
                    return Some(Group::Invalid(error, first.line));
                };
                return Some(Group::Invalid(
                    self.malformed(&cut, layout, &check, Some(error)),
                    first.line,
                ));
            }
            Err(error) => Some(error),
        };
        if let Some(end) = self.line_case_end(&first, layout) {
            return Some(Group::Invalid(
                self.malformed(&end, layout, &check, error),
                first.line,
            ));
        }
        let mut resume = self.resynchronise(&first, &last, layout, fit, &attempt);
        if last_case {
            let next = attempt(resume);
            if !next.at_end() && !next.valid_and_whole() {
                resume = self.at_end();
            }
        }
        Some(Group::Invalid(
            self.malformed(&resume, layout, &check, error),
            first.line,
        ))
    }

    /// How many tokens the cursor's line holds from the cursor on (`first` is the next token).
    fn tokens_on_line(&self, first: &Token<'a>) -> usize {
        let mut line = *self;
        let mut count = 0;
        while line.next().is_some_and(|t| t.line == first.line) {
            count += 1;
        }
        count
    }

    /// Where a malformed case ends by lines alone: where a case is one line ([`Layout::row`]),
    /// after its first line, unless that line holds just one row of a board; where a case is
    /// [`Layout::lines`] lines that could each begin one (Solitaire, HDU 3567), after that many
    /// lines, or after the first if it holds a whole case (or the case began inside it). `None`
    /// where the tiles decide instead (UVa 10181, or a board split into rows).
    fn line_case_end(&self, first: &Token<'a>, layout: Layout) -> Option<Self> {
        let lines = match layout.row {
            Some(row) if self.starts_line(first) && self.tokens_on_line(first) == row => {
                return None;
            }
            Some(_) => 1,
            None if layout.lines > 1 => {
                let whole_line = !self.starts_line(first)
                    || layout.one_line && self.tokens_on_line(first) >= layout.tokens;
                if whole_line { 1 } else { layout.lines }
            }
            None => return None,
        };
        let mut cursor = *self;
        let mut line = first.line;
        for _ in 0..lines {
            let Some(start) = cursor.next_line_start(line) else {
                return Some(self.at_end());
            };
            line = start.line();
            cursor = start;
        }
        Some(cursor)
    }

    /// How many line starts after a malformed case's first line cannot begin the next case: none
    /// when that line holds a whole case (or the case began inside a line), else
    /// [`Layout::lines`] − 1.
    fn lines_to_skip(&self, first: &Token<'a>, layout: Layout) -> usize {
        let whole_line = !self.starts_line(first)
            || layout.one_line && self.tokens_on_line(first) >= layout.tokens;
        if whole_line {
            0
        } else {
            layout.lines.saturating_sub(1)
        }
    }

    /// A later line start, less than two cases' worth of tokens after `first`, from which a
    /// valid case reads that ends with its line and is followed by another such case or by the
    /// end of the input, if any: where the next case starts after a malformed one that ended
    /// with a line by chance (a row missing, repeated or doubled) or ran into the end. One that
    /// leaves the rest of the input a whole number of cases ([`Fit`]) comes first, if it is less
    /// than a case's worth of tokens after the first such start; failing any, a valid case that
    /// ends with its line followed by a malformed one.
    fn valid_start<T, E>(
        &self,
        first: &Token<'a>,
        layout: Layout,
        fit: Fit,
        attempt: &impl Fn(Tokens<'a>) -> Attempt<'a, T, E>,
    ) -> Option<Self> {
        let skip = self.lines_to_skip(first, layout);
        let mut cursor = *self;
        let mut line = first.line;
        let mut seen = 0;
        let (mut found, mut valid) = (None, None);
        loop {
            let Some(start) = cursor.next_line_start(line) else {
                return found.or(valid);
            };
            if start.index - self.index >= 2 * layout.tokens {
                return found.or(valid);
            }
            line = start.line();
            seen += 1;
            if found.is_some_and(|found: Tokens<'a>| start.index - found.index >= layout.tokens) {
                return found;
            }
            if seen > skip {
                let case = attempt(start);
                if case.valid_and_whole() {
                    if fit.clean(&start) {
                        return Some(start);
                    }
                    let next = attempt(case.after);
                    if found.is_none() && (next.at_end() || next.valid_and_whole()) {
                        found = Some(start);
                    }
                    // Followed by another malformed case, which the end does not cut short.
                    if valid.is_none() && matches!(next.read, Read::Case { .. }) {
                        valid = Some(start);
                    }
                }
            }
            cursor = start;
        }
    }

    /// Where the case after a malformed one starts; the cursor is at the malformed one's `first`
    /// token and `last` is where the plain reading of it ended (inside a line).
    ///
    /// A later line start fits if, before the line the reading ran into, a valid case that ends
    /// with its line reads from it, followed by another or by the end; from that line on, a
    /// valid case that ends with its line and is not followed by a case the input cuts short (any
    /// such case, where [`Layout::lines`] is more than 1), or a malformed case that ends with its
    /// line, followed by a valid one that does. The first start that fits and leaves the rest of
    /// the input a whole number of cases ([`Fit`]) wins, if it is less than a case's worth of
    /// tokens after the first that fits; else the first that fits. Failing those: the first start from that line on of a valid case that ends with its line, then of
    /// any case that does, then (when the input ends first) the end of the input, then the first
    /// start from that line on.
    fn resynchronise<T, E>(
        &self,
        first: &Token<'a>,
        last: &Token<'a>,
        layout: Layout,
        fit: Fit,
        attempt: &impl Fn(Tokens<'a>) -> Attempt<'a, T, E>,
    ) -> Self {
        let skip = self.lines_to_skip(first, layout);
        let mut cursor = *self;
        let (mut fits, mut valid, mut whole, mut cut) = (None, None, None, None);
        let mut line = first.line;
        let mut ended = false;
        for seen in 1..=layout.tokens * LOOK_AHEAD_LINES_PER_TOKEN {
            let Some(start) = cursor.next_line_start(line) else {
                ended = true;
                break;
            };
            // A start that leaves whole cases is looked for only near the first that fits: rows
            // read as a case by chance are within a case of the real start, and further on the
            // rest can be whole cases again only past another malformed one.
            if fits.is_some_and(|fits: Tokens<'a>| start.index - fits.index >= layout.tokens) {
                break;
            }
            line = start.line();
            if seen > skip {
                let next = attempt(start);
                if matches!(next.read, Read::Truncated(_)) {
                    // Every later start is shorter still.
                    ended = true;
                    break;
                }
                let clean = fit.clean(&start);
                let good = if line < last.line {
                    starts_cases(attempt, start)
                } else {
                    let after = attempt(next.after);
                    if next.valid_and_whole() {
                        // Rows of the malformed case and the next that make a valid case by
                        // chance leave a short case before the end; where any two lines make
                        // a valid case, what follows tells nothing.
                        let short_after = matches!(after.read, Read::Truncated(read) if read > 0);
                        valid.get_or_insert(start);
                        layout.lines > 1 || !short_after
                    } else if next.whole() {
                        whole.get_or_insert(start);
                        after.valid_and_whole()
                    } else {
                        false
                    }
                };
                if clean && (good || next.valid_and_whole()) {
                    return start;
                }
                if good {
                    fits.get_or_insert(start);
                }
                if line >= last.line {
                    cut.get_or_insert(start);
                }
            }
            cursor = start;
        }
        if let Some(start) = fits.or(valid).or(whole) {
            return start;
        }
        if ended {
            return self.at_end();
        }
        cut.unwrap_or(cursor)
    }

    /// Moves the cursor to `resume` and says what is wrong with the tokens skipped: their count,
    /// when it is not a case's, else `check`'s complaint (or `error`, the first reading's).
    fn malformed<T, E: From<LayoutError>>(
        &mut self,
        resume: &Self,
        layout: Layout,
        check: &impl Fn(&[Token<'a>]) -> Result<T, E>,
        error: Option<E>,
    ) -> E {
        let tokens = self.until(resume);
        *self = *resume;
        if tokens.len() == layout.tokens {
            return match check(&tokens) {
                Err(error) => error,
                Ok(_) => error.unwrap_or_else(|| LayoutError::NotAtLineEnd(layout.what).into()),
            };
        }
        let mut lines = None;
        if let (Some(first), Some(last)) = (tokens.first(), tokens.last())
            && last.line > first.line
        {
            let mut per_line: Vec<(usize, usize)> = Vec::new();
            for token in &tokens {
                match per_line.last_mut() {
                    Some((line, count)) if *line == token.line => *count += 1,
                    _ => per_line.push((token.line, 1)),
                }
            }
            lines = Some(Lines {
                first: first.line,
                last: last.line,
                counts: per_line.iter().map(|&(_, n)| n).collect(),
            });
        }
        LayoutError::Count {
            expected: layout.tokens,
            what: layout.what,
            found: tokens.len(),
            lines,
        }
        .into()
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        let input = self.input;
        while let Some(&b) = input.get(self.pos) {
            if !b.is_ascii_whitespace() && b != 0x0b {
                break;
            }
            if b == b'\n' {
                self.line += 1;
            }
            self.pos += 1;
        }
        if self.pos >= input.len() {
            return None;
        }
        let start = self.pos;
        while let Some(&b) = input.get(self.pos) {
            if b.is_ascii_whitespace() || b == 0x0b {
                break;
            }
            self.pos += 1;
        }
        self.index += 1;
        Some(Token {
            bytes: &input[start..self.pos],
            line: self.line,
            offset: start,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The toy formats' errors: their own words, or the layout's.
    #[derive(Debug)]
    struct Toy(String);

    impl From<LayoutError> for Toy {
        fn from(error: LayoutError) -> Self {
            Toy(error.to_string())
        }
    }

    fn texts(input: &str) -> Vec<(String, usize)> {
        Tokens::new(input.as_bytes())
            .map(|t| (t.text().to_owned(), t.line))
            .collect()
    }

    #[test]
    fn splits_on_any_whitespace_and_counts_lines() {
        assert_eq!(
            texts("  a\tb\r\n\n c\x0bd\x0c"),
            vec![
                ("a".into(), 1),
                ("b".into(), 1),
                ("c".into(), 3),
                ("d".into(), 3)
            ]
        );
        assert!(texts(" \n ").is_empty());
    }

    #[test]
    fn numbers_and_quotes() {
        let t: Vec<Token<'_>> = Tokens::new(b"12 x 99999999999999999999999 -1 \xff").collect();
        assert_eq!(t[0].number(), Some(12));
        assert_eq!(t[1].number(), None);
        assert_eq!(t[2].number(), Some(u64::MAX));
        assert_eq!(t[2].quoted(), "\"99999999999999999999999\"");
        assert_eq!(t[3].number(), None);
        assert_eq!(t[4].text(), "\u{fffd}");
        assert_eq!(t[4].quoted(), "\"\u{fffd}\"");
    }

    /// A toy format: a case is `a` and two numbers.
    const LAYOUT: Layout = Layout {
        tokens: 3,
        what: "tokens",
        lines: 1,
        one_line: true,
        row: None,
    };

    fn check(tokens: &[Token<'_>]) -> Result<usize, Toy> {
        if tokens.len() != 3 {
            return Err(Toy(format!("{} tokens", tokens.len())));
        }
        (tokens[0].bytes == b"a" && tokens[1..].iter().all(|t| t.number().is_some()))
            .then_some(tokens.len())
            .ok_or_else(|| Toy("not a case".to_owned()))
    }

    /// Every case of `input`, as `Ok(line)` or `Err((line, message))`; truncation as an error.
    fn cases(input: &str, layout: Layout) -> Vec<Result<usize, (usize, String)>> {
        let mut tokens = Tokens::new(input.as_bytes());
        let mut found = Vec::new();
        while let Some(group) =
            tokens.read_case(layout, None, |at| at.attempt(layout.tokens, check), check)
        {
            found.push(match group {
                Group::Valid(_, line) => Ok(line),
                Group::Invalid(Toy(message), line) => Err((line, message)),
                Group::Truncated(read, line) => Err((line, format!("truncated after {read}"))),
            });
        }
        found
    }

    fn bad(line: usize, message: &str) -> Result<usize, (usize, String)> {
        Err((line, message.to_owned()))
    }

    #[test]
    fn a_short_line_does_not_shift_the_next_cases() {
        assert_eq!(
            cases("a 1 2\na 1\na 1 2\na 3 4\n", LAYOUT),
            vec![Ok(1), bad(2, "expected 3 tokens, found 2"), Ok(3), Ok(4)]
        );
    }

    #[test]
    fn a_long_line_is_one_bad_case() {
        // Its first three tokens are not a case.
        assert_eq!(
            cases("a 1 2\nb 1 2 3 4 5 6\na 4 5\n", LAYOUT),
            vec![Ok(1), bad(2, "expected 3 tokens, found 7"), Ok(3)]
        );
        // Its first three tokens are a case, but the rest of the line is not.
        assert_eq!(
            cases("a 1 2 3\na 4 5\n", LAYOUT),
            vec![bad(1, "expected 3 tokens, found 4"), Ok(2)]
        );
        // At the end of the input.
        assert_eq!(
            cases("a 1 2\na 1 2 3\n", LAYOUT),
            vec![Ok(1), bad(2, "expected 3 tokens, found 4")]
        );
    }

    #[test]
    fn valid_cases_may_share_and_split_lines() {
        assert_eq!(
            cases("a 1 2 a\n3 4 a 5\n\n6\n", LAYOUT),
            vec![Ok(1), Ok(1), Ok(2)]
        );
    }

    #[test]
    fn a_case_missing_a_line_costs_only_itself() {
        // Cases of two lines here (`a 1` and `2`): the first lacks its second line, so it reads
        // with the next case's first line and is followed by no valid case.
        assert_eq!(
            cases("a 1\nb 2\n3\na 4\n5\n", LAYOUT),
            vec![
                bad(1, "expected 3 tokens, found 2"),
                bad(2, "not a case"),
                Ok(4)
            ]
        );
    }

    #[test]
    fn a_case_spread_over_too_many_lines_costs_only_itself() {
        // Two lines of two where one line of three was due, then good cases.
        assert_eq!(
            cases("a 1\n2 3\na 4 5\na 6 7\n", LAYOUT),
            vec![
                bad(1, "expected 3 tokens, found 4 (lines 1 to 2: 2 + 2)"),
                Ok(3),
                Ok(4)
            ]
        );
        // A malformed case with the right number of tokens on its line stays one case.
        assert_eq!(
            cases("a 1 2 3\nb 4 5\na 6 7\n", LAYOUT),
            vec![
                bad(1, "expected 3 tokens, found 4"),
                bad(2, "not a case"),
                Ok(3)
            ]
        );
    }

    /// A toy format whose cases are two lines of numbers, which any line could begin.
    fn numbers(tokens: &[Token<'_>]) -> Result<usize, Toy> {
        if tokens.len() != 4 {
            return Err(Toy(format!("{} tokens", tokens.len())));
        }
        tokens
            .iter()
            .all(|t| t.number().is_some())
            .then_some(4)
            .ok_or_else(|| Toy("not numbers".to_owned()))
    }

    fn pairs(input: &str, lines: usize) -> Vec<Result<usize, (usize, String)>> {
        let layout = Layout {
            tokens: 4,
            what: "numbers",
            lines,
            one_line: true,
            row: None,
        };
        let mut tokens = Tokens::new(input.as_bytes());
        let mut found = Vec::new();
        while let Some(group) = tokens.read_case(layout, None, |at| at.attempt(4, numbers), numbers)
        {
            found.push(match group {
                Group::Valid(_, line) => Ok(line),
                Group::Invalid(Toy(message), line) => Err((line, message)),
                Group::Truncated(read, line) => Err((line, format!("truncated after {read}"))),
            });
        }
        found
    }

    #[test]
    fn a_case_of_two_lines_is_cut_after_two() {
        // `1` is one number short; `2 3` is its second line, though with `4 5` it would read as
        // a case: the next case starts two lines later.
        assert_eq!(
            pairs("1\n2 3\n4 5\n6 7\n", 2),
            vec![
                bad(1, "expected 4 numbers, found 3 (lines 1 to 2: 1 + 2)"),
                Ok(3)
            ]
        );
        // Two cases on one line, and a case split over three.
        assert_eq!(
            pairs("1 2 3 4 5 6 7 8\n1\n2\n3 4\n", 2),
            vec![Ok(1), Ok(1), Ok(2)]
        );
        assert_eq!(
            pairs("1\n2 3\n4 5\n6 7\n8 9\n", 2),
            vec![
                bad(1, "expected 4 numbers, found 3 (lines 1 to 2: 1 + 2)"),
                Ok(3),
                bad(5, "truncated after 2")
            ]
        );
    }

    #[test]
    fn garbage_runs_to_the_end_or_the_next_case() {
        assert_eq!(cases("x\ny z\n", LAYOUT), vec![bad(1, "not a case")]);
        // `a 1 2` reads as a case, but ends inside a line that does not go on with one: the
        // first line is short, and the second (with the third) is a case of its own.
        assert_eq!(
            cases("a 1\n2 3\n4\n", LAYOUT),
            vec![bad(1, "expected 3 tokens, found 2"), bad(2, "not a case")]
        );
        assert_eq!(
            cases("a 1 2 3 b\nc\n", LAYOUT),
            vec![bad(1, "expected 3 tokens, found 6 (lines 1 to 2: 5 + 1)")]
        );
    }

    #[test]
    fn truncation_reports_what_was_read() {
        assert_eq!(cases("a 2\n\n", LAYOUT), vec![bad(1, "truncated after 2")]);
        assert!(cases(" \n", LAYOUT).is_empty());
    }
}
