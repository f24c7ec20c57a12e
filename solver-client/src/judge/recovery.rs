//! Error recovery: where the next case starts after a malformed one, found from line breaks, so
//! that one bad case costs only itself ([`Tokens::read_case`]).
//!
//! Valid cases are read as pure tokens (`attempt`), lines or no lines; only a malformed case makes
//! lines matter, and then look-ahead over many later line starts decides where it ends. That
//! search is most of the parsing code and all of its judgement calls, so it lives apart from the
//! lexer (`tokens`) it reads through, which stays a plain cursor over the source.

use super::attempt::{Attempt, Read};
use super::found::Found;
use super::tokens::{Mark, Token, Tokens};
use crate::read_error::{LayoutError, Lines};

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

/// What reading a case at a position found, but the value: all that the search for where cases
/// start looks at. The search reads the same positions again and again (each case's look-ahead
/// goes up to 16 cases on), so shapes are remembered by the source (see [`Tokens::look`]).
#[derive(Debug, Clone, Copy)]
struct Shape<'a> {
    found: Found,
    after: Tokens<'a>,
}

impl<'a> Shape<'a> {
    /// What `attempt` found, without the value.
    fn of<T, E>(attempt: &Attempt<'a, T, E>) -> Self {
        Self {
            found: match &attempt.read {
                Read::Case { last, result, .. } => Found::Case {
                    valid: result.is_ok(),
                    whole: ends_line(&attempt.after, last.line),
                },
                Read::Truncated(read) => Found::Truncated(*read),
            },
            after: attempt.after,
        }
    }

    /// Whether this is a valid case that ends where its last line does (or the input does).
    fn valid_and_whole(&self) -> bool {
        matches!(
            self.found,
            Found::Case {
                valid: true,
                whole: true
            }
        )
    }

    /// Whether this is a valid case.
    fn valid(&self) -> bool {
        matches!(self.found, Found::Case { valid: true, .. })
    }

    /// Whether this is the end of the input.
    fn at_end(&self) -> bool {
        self.found == Found::Truncated(0)
    }

    /// Whether this is a case (valid or not) that ends where its last line does.
    fn whole(&self) -> bool {
        matches!(self.found, Found::Case { whole: true, .. })
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
    after.peek_mark().is_none_or(|next| next.line > line)
}

/// How many valid cases that end inside lines may follow one another before they end with a line:
/// more on one line are taken as cases sharing it without looking further.
const SHARED_LINE_CASES: usize = 16;

/// Whether `next`, read right after a valid case that ended inside a line, says that the line
/// holds several cases: valid ones that end together with a line (or the input). Where a case is
/// two lines that could each begin one, the very next case must end with its line.
fn shares_line<'a, T, E>(
    attempt: &impl Fn(Tokens<'a>) -> Attempt<'a, T, E>,
    mut next: Shape<'a>,
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
        if !next.valid() {
            return false;
        }
        next = next.after.look(attempt);
    }
    layout.lines == 1
}

/// Whether a valid case that ends with its line starts at `start`, followed by another such case
/// or by the end of the input.
fn starts_cases<'a, T, E>(
    attempt: &impl Fn(Tokens<'a>) -> Attempt<'a, T, E>,
    start: Tokens<'a>,
) -> bool {
    let case = start.look(attempt);
    case.valid_and_whole() && {
        let next = case.after.look(attempt);
        next.at_end() || next.valid_and_whole()
    }
}

/// How many later line starts the search for the next case looks at after a malformed one, per
/// token of a case: enough to step over a board of 5 or 6 rows where 4 were due, few enough that
/// garbage costs a bounded amount of work per case.
const LOOK_AHEAD_LINES_PER_TOKEN: usize = 4;

impl<'a> Tokens<'a> {
    /// What `attempt` finds at the cursor, but the value: remembered by the source, since a
    /// reading depends only on where it starts (and a source is read by one format).
    fn look<T, E>(self, attempt: &impl Fn(Tokens<'a>) -> Attempt<'a, T, E>) -> Shape<'a> {
        let source = self.source();
        if let Some((found, after)) = source.shape(self.offset()) {
            return Shape {
                found,
                after: self.at_place(after),
            };
        }
        let shape = Shape::of(&attempt(self));
        source.remember_shape(self.offset(), shape.found, shape.after.place());
        shape
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
        check: impl Fn(&[Token]) -> Result<T, E>,
    ) -> Option<Group<T, E>> {
        let last_case = cases_after == Some(0);
        let fit = Fit {
            tokens: layout.tokens,
            cases_after,
        };
        let start_line = self.peek_mark()?.line;
        let tried = attempt(*self);
        let (first, last, result) = match tried.read {
            Read::Truncated(read) => {
                // The input ends inside this case, unless a later line of it starts a valid one
                // (`hello world` before the last board).
                let first = self.peek_mark()?;
                let cut = match self.line_case_end(&first, layout) {
                    Some(end) if tried.after.offset() > end.offset() => Some(end),
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
                // stray row that, with the next case's rows, reads as a case does not. (Asked
                // only when the case does not end its line: whether the rest is whole cases
                // needs the number of tokens left, which reads the input to its end.)
                let shared = || {
                    fit.clean(&tried.after)
                        && shares_line(&attempt, tried.after.look(&attempt), layout)
                };
                if whole || shared() {
                    *self = tried.after;
                    return Some(Group::Valid(value, first.line));
                }
                None
            }
            Err(error) if whole && (layout.one_line || last.line > first.line) => {
                let next = tried.after.look(&attempt);
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
            let next = resume.look(&attempt);
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
    fn tokens_on_line(&self, first: &Mark) -> usize {
        let mut line = *self;
        let mut count = 0;
        while line.advance().is_some_and(|t| t.line == first.line) {
            count += 1;
        }
        count
    }

    /// Where a malformed case ends by lines alone: where a case is one line ([`Layout::row`]),
    /// after its first line, unless that line holds just one row of a board; where a case is
    /// [`Layout::lines`] lines that could each begin one (Solitaire, HDU 3567), after that many
    /// lines, or after the first if it holds a whole case (or the case began inside it). `None`
    /// where the tiles decide instead (UVa 10181, or a board split into rows).
    fn line_case_end(&self, first: &Mark, layout: Layout) -> Option<Self> {
        let lines = match layout.row {
            Some(row) if first.starts_line && self.tokens_on_line(first) == row => {
                return None;
            }
            Some(_) => 1,
            None if layout.lines > 1 => {
                let whole_line = !first.starts_line
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
    fn lines_to_skip(&self, first: &Mark, layout: Layout) -> usize {
        let whole_line =
            !first.starts_line || layout.one_line && self.tokens_on_line(first) >= layout.tokens;
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
        first: &Mark,
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
            if start.index() - self.index() >= 2 * layout.tokens {
                return found.or(valid);
            }
            line = start.line();
            seen += 1;
            if found.is_some_and(|found: Tokens<'a>| start.index() - found.index() >= layout.tokens)
            {
                return found;
            }
            if seen > skip {
                let case = start.look(attempt);
                if case.valid_and_whole() {
                    if fit.clean(&start) {
                        return Some(start);
                    }
                    let next = case.after.look(attempt);
                    if found.is_none() && (next.at_end() || next.valid_and_whole()) {
                        found = Some(start);
                    }
                    // Followed by another malformed case, which the end does not cut short.
                    if valid.is_none() && matches!(next.found, Found::Case { .. }) {
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
        first: &Mark,
        last: &Mark,
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
            if fits.is_some_and(|fits: Tokens<'a>| start.index() - fits.index() >= layout.tokens) {
                break;
            }
            line = start.line();
            if seen > skip {
                let next = start.look(attempt);
                if matches!(next.found, Found::Truncated(_)) {
                    // Every later start is shorter still.
                    ended = true;
                    break;
                }
                let clean = fit.clean(&start);
                let good = if line < last.line {
                    starts_cases(attempt, start)
                } else {
                    let after = next.after.look(attempt);
                    if next.valid_and_whole() {
                        // Rows of the malformed case and the next that make a valid case by
                        // chance leave a short case before the end; where any two lines make
                        // a valid case, what follows tells nothing.
                        let short_after = matches!(after.found, Found::Truncated(read) if read > 0);
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
        check: &impl Fn(&[Token]) -> Result<T, E>,
        error: Option<E>,
    ) -> E {
        // The skipped tokens are counted, not kept: a malformed case may run to the end of a
        // long input. Only a case's worth is kept, for `check`; and the count on each line.
        let mut cursor = *self;
        let mut kept = [Token::NONE; 16];
        let mut found = 0;
        let mut per_line: Vec<(usize, usize)> = Vec::new();
        while cursor.index() < resume.index() {
            let keep = found < layout.tokens;
            let Some((mark, bytes)) = cursor.lex(keep) else {
                break;
            };
            if keep {
                kept[found] = Token::at(mark, bytes);
            }
            found += 1;
            match per_line.last_mut() {
                Some((line, count)) if *line == mark.line => *count += 1,
                _ => per_line.push((mark.line, 1)),
            }
        }
        *self = *resume;
        if found == layout.tokens {
            return match check(&kept[..found]) {
                Err(error) => error,
                Ok(_) => error.unwrap_or_else(|| LayoutError::NotAtLineEnd(layout.what).into()),
            };
        }
        let lines = match (per_line.first(), per_line.last()) {
            (Some(&(first, _)), Some(&(last, _))) if last > first => Some(Lines {
                first,
                last,
                counts: per_line.iter().map(|&(_, n)| n).collect(),
            }),
            _ => None,
        };
        LayoutError::Count {
            expected: layout.tokens,
            what: layout.what,
            found,
            lines,
        }
        .into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::source::Source;

    /// The toy formats' errors: their own words, or the layout's.
    #[derive(Debug)]
    struct Toy(String);

    impl From<LayoutError> for Toy {
        fn from(error: LayoutError) -> Self {
            Toy(error.to_string())
        }
    }
    const LAYOUT: Layout = Layout {
        tokens: 3,
        what: "tokens",
        lines: 1,
        one_line: true,
        row: None,
    };

    fn check(tokens: &[Token]) -> Result<usize, Toy> {
        if tokens.len() != 3 {
            return Err(Toy(format!("{} tokens", tokens.len())));
        }
        (tokens[0].bytes() == b"a" && tokens[1..].iter().all(|t| t.number().is_some()))
            .then_some(tokens.len())
            .ok_or_else(|| Toy("not a case".to_owned()))
    }

    /// Every case of `input`, as `Ok(line)` or `Err((line, message))`; truncation as an error.
    fn cases(input: &str, layout: Layout) -> Vec<Result<usize, (usize, String)>> {
        let source = Source::from_bytes(input.as_bytes());
        let mut tokens = Tokens::new(&source);
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
    fn numbers(tokens: &[Token]) -> Result<usize, Toy> {
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
        let source = Source::from_bytes(input.as_bytes());
        let mut tokens = Tokens::new(&source);
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
