//! Whitespace-separated tokens of judge input, with line numbers for error messages.
//!
//! Judges promise tokens, not lines ("any whitespace"), so parsers read tokens. Lines still matter
//! for two things: error messages name them, and after a malformed case the parsers use line
//! breaks to find where the next case probably starts (see [`Tokens::take_group`]).

/// One token: a maximal run of non-whitespace bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Token<'a> {
    /// The bytes of the token (not necessarily UTF-8: input is arbitrary bytes).
    pub(crate) bytes: &'a [u8],
    /// 1-based line the token is on.
    pub(crate) line: usize,
    /// Byte offset of the token in the input, to rewind to it.
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
}

/// What [`Tokens::take_group`] found.
#[derive(Debug)]
pub(crate) enum Group<T, E> {
    /// `n` tokens that the check accepted.
    Valid(T, usize),
    /// Tokens that the check rejected: its error and the line of the first token.
    Invalid(E, usize),
    /// The input ended after these many tokens (fewer than `n`, possibly 0); line of the first.
    Truncated(usize, usize),
}

impl<'a> Tokens<'a> {
    /// Tokens of `input`, starting on line 1.
    pub(crate) fn new(input: &'a [u8]) -> Self {
        Self {
            input,
            pos: 0,
            line: 1,
        }
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
        let mut copy = *self;
        while copy.next().is_some() {}
        copy.line - usize::from(self.input.ends_with(b"\n") && copy.line > 1)
    }

    /// Goes back to `token`, so that it is the next one read.
    pub(crate) fn rewind(&mut self, token: &Token<'a>) {
        self.pos = token.offset;
        self.line = token.line;
    }

    /// Reads the next `N` tokens as one group and checks them with `check`.
    ///
    /// Valid input is read as pure tokens. When the group is rejected, lines help limit the
    /// damage: if the group spans a line break and its last token is not the last on its line, the
    /// malformed case most likely ends at that break (a tile missing, or one too many) and the
    /// next case starts on the line the group ended on. The bad group is then cut at its last
    /// line break, re-checked (for the message), and reading resumes there, so one bad line does
    /// not shift every later case.
    pub(crate) fn take_group<const N: usize, T, E>(
        &mut self,
        check: impl Fn(&[Token<'a>]) -> Result<T, E>,
    ) -> Group<T, E> {
        let mut group: [Token<'a>; N] = [Token::NONE; N];
        let mut count = 0;
        while count < N {
            match self.next() {
                Some(token) => {
                    group[count] = token;
                    count += 1;
                }
                None => break,
            }
        }
        let tokens = &group[..count];
        let first_line = tokens.first().map_or_else(|| self.end_line(), |t| t.line);
        if count < N {
            return Group::Truncated(count, first_line);
        }
        match check(tokens) {
            Ok(value) => Group::Valid(value, first_line),
            Err(error) => {
                let last = tokens[N - 1];
                let ends_mid_line = self.peek().is_some_and(|next| next.line == last.line);
                let cut = (1..N).rev().find(|&k| tokens[k].line != tokens[k - 1].line);
                match cut {
                    Some(k) if ends_mid_line => {
                        self.rewind(&tokens[k]);
                        match check(&tokens[..k]) {
                            Err(shorter) => Group::Invalid(shorter, first_line),
                            // A shorter group can only be valid for a lenient check; keep the
                            // original complaint then.
                            Ok(_) => Group::Invalid(error, first_line),
                        }
                    }
                    _ => Group::Invalid(error, first_line),
                }
            }
        }
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
        assert_eq!(t[3].number(), None);
        assert_eq!(t[4].text(), "\u{fffd}");
        assert_eq!(t[4].quoted(), "\"\u{fffd}\"");
    }

    fn all_numbers(tokens: &[Token<'_>]) -> Result<usize, String> {
        if tokens.len() != 3 {
            return Err(format!("{} tokens", tokens.len()));
        }
        // A case is `a` and two numbers.
        (tokens[0].bytes == b"a" && tokens[1..].iter().all(|t| t.number().is_some()))
            .then_some(tokens.len())
            .ok_or_else(|| "not a case".to_owned())
    }

    #[test]
    fn a_short_line_does_not_shift_the_next_cases() {
        let mut tokens = Tokens::new(b"a 1 2\na 1\na 1 2\na 3 4\n");
        assert!(matches!(
            tokens.take_group::<3, _, _>(all_numbers),
            Group::Valid(3, 1)
        ));
        match tokens.take_group::<3, _, _>(all_numbers) {
            Group::Invalid(e, 2) => assert_eq!(e, "2 tokens"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            tokens.take_group::<3, _, _>(all_numbers),
            Group::Valid(3, 3)
        ));
        assert!(matches!(
            tokens.take_group::<3, _, _>(all_numbers),
            Group::Valid(3, 4)
        ));
        assert!(matches!(
            tokens.take_group::<3, _, _>(all_numbers),
            Group::Truncated(0, 4)
        ));
    }

    #[test]
    fn a_long_line_costs_one_extra_bad_case() {
        let mut tokens = Tokens::new(b"a 1 2 3\na 4 5\n");
        assert!(matches!(
            tokens.take_group::<3, _, _>(all_numbers),
            Group::Valid(3, 1)
        ));
        assert!(matches!(
            tokens.take_group::<3, _, _>(all_numbers),
            Group::Invalid(_, 1)
        ));
        assert!(matches!(
            tokens.take_group::<3, _, _>(all_numbers),
            Group::Valid(3, 2)
        ));
    }

    #[test]
    fn truncation_reports_what_was_read() {
        let mut tokens = Tokens::new(b"a 2\n\n");
        assert!(matches!(
            tokens.take_group::<3, _, _>(all_numbers),
            Group::Truncated(2, 1)
        ));
    }
}
