//! Whitespace-separated tokens of judge input, with line numbers: the lexer the parsers read.
//!
//! Judges promise tokens, not lines ("any whitespace"), so parsers read tokens. Lines still matter
//! for two things: error messages name them, and after a malformed case the parsers use line
//! breaks to find where the next case starts (`recovery`), which is why each token also says
//! whether it starts its line.
//!
//! The input is a [`Source`] read as the cursors ask for it, so that memory stays bounded however
//! long the input (or one of its lines) is: a cursor is an offset into it, and a token owns its
//! (few) bytes rather than borrowing them from a buffer that moves on.

use super::found::Place;
use super::source::{Bytes, Source};

/// One token: a maximal run of non-whitespace bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Token {
    /// The bytes of the token (not necessarily UTF-8: input is arbitrary bytes).
    bytes: Bytes,
    /// 1-based line the token is on.
    pub(crate) line: usize,
    /// Whether it is the first token of its line.
    starts_line: bool,
}

/// Where a token is, without its bytes: what the search for case boundaries looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Mark {
    /// 1-based line the token is on.
    pub(crate) line: usize,
    /// Whether it is the first token of its line.
    pub(super) starts_line: bool,
}

impl Token {
    /// A placeholder for unfilled slots of a group.
    pub(super) const NONE: Token = Token {
        bytes: Bytes::EMPTY,
        line: 0,
        starts_line: false,
    };

    /// The token lexed at `mark`, of `bytes`.
    pub(super) fn at(mark: Mark, bytes: Bytes) -> Token {
        Token {
            bytes,
            line: mark.line,
            starts_line: mark.starts_line,
        }
    }

    /// The bytes of the token.
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Where the token is.
    pub(crate) fn mark(&self) -> Mark {
        Mark {
            line: self.line,
            starts_line: self.starts_line,
        }
    }

    /// The token as text; a token that is not UTF-8 reads as U+FFFD, which no parser accepts.
    pub(crate) fn text(&self) -> &str {
        std::str::from_utf8(&self.bytes).unwrap_or("\u{fffd}")
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
        let text = String::from_utf8_lossy(&self.bytes);
        if text.chars().count() > MAX {
            let head: String = text.chars().take(MAX).collect();
            format!("{head:?}...")
        } else {
            format!("{text:?}")
        }
    }
}

/// A cursor over the tokens of an input. Cheap to copy, which is how parsers look ahead.
///
/// A cursor is always at the start of the input, right after a token, or at the end (after the
/// last whitespace): that is what lets a token tell whether it starts its line from the
/// whitespace before it alone, and cursors be ordered by their token index.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Tokens<'a> {
    input: &'a Source,
    pos: u64,
    line: usize,
    /// Tokens before the cursor.
    index: usize,
}

impl<'a> Tokens<'a> {
    /// Tokens of `input`, starting on line 1.
    pub(crate) fn new(input: &'a Source) -> Self {
        Self {
            input,
            pos: 0,
            line: 1,
            index: 0,
        }
    }

    /// The byte offset of the cursor: nothing before it is read again once the parser has moved
    /// past it (see [`Source::release`]).
    pub(crate) fn offset(&self) -> u64 {
        self.pos
    }

    /// How many tokens come before the cursor: cursors over one input are ordered by it.
    pub(super) fn index(&self) -> usize {
        self.index
    }

    /// The input the cursor reads, which also remembers what reading a case found where.
    pub(super) fn source(&self) -> &'a Source {
        self.input
    }

    /// The cursor without its input, for the source to remember.
    pub(super) fn place(&self) -> Place {
        Place {
            pos: self.pos,
            line: self.line,
            index: self.index,
        }
    }

    /// The cursor at `place` in the same input (a place this input's cursors were at).
    pub(super) fn at_place(&self, place: Place) -> Self {
        Self {
            input: self.input,
            pos: place.pos,
            line: place.line,
            index: place.index,
        }
    }

    /// How many tokens follow the cursor. The first call reads the input to its end (the totals
    /// are counted as it is read; the bytes are not kept in memory for it).
    pub(super) fn remaining(&self) -> usize {
        self.input.totals().tokens - self.index
    }

    /// The next token without consuming it.
    pub(crate) fn peek(&self) -> Option<Token> {
        let mut copy = *self;
        copy.next()
    }

    /// Where the next token is, without reading its bytes.
    pub(super) fn peek_mark(&self) -> Option<Mark> {
        let mut copy = *self;
        copy.advance()
    }

    /// Line of the cursor: of the next token if any, else of the end of the input.
    pub(crate) fn line(&self) -> usize {
        self.peek_mark().map_or_else(|| self.end_line(), |t| t.line)
    }

    /// The line of the end of input: the last line, not the empty one after a final newline.
    fn end_line(&self) -> usize {
        let end = self.at_end();
        end.line - usize::from(self.input.totals().ends_with_newline && end.line > 1)
    }

    /// The cursor at the end of the input: where reading every token would leave it, from the
    /// totals rather than by reading them.
    pub(super) fn at_end(&self) -> Self {
        let totals = self.input.totals();
        Self {
            input: self.input,
            pos: totals.len,
            line: 1 + totals.newlines,
            index: totals.tokens,
        }
    }

    /// The cursor at the first token of the next line that has tokens, after `line`; `None` at
    /// the end of the input.
    pub(super) fn next_line_start(mut self, line: usize) -> Option<Self> {
        loop {
            let mut after = self;
            if after.advance()?.line > line {
                return Some(self);
            }
            self = after;
        }
    }

    /// Reads the next token: its bytes only if `keep`. A token starts its line when a line break
    /// comes before it, or nothing does (see [`Tokens`] for why the cursor's own position tells).
    pub(super) fn lex(&mut self, keep: bool) -> Option<(Mark, Bytes)> {
        let lexed = self.input.lex(self.pos, keep);
        let starts_line = lexed.newlines > 0 || self.pos == 0;
        self.pos = lexed.end;
        self.line += lexed.newlines;
        let bytes = lexed.token?;
        self.index += 1;
        Some((
            Mark {
                line: self.line,
                starts_line,
            },
            bytes,
        ))
    }

    /// Moves past the next token without reading its bytes.
    pub(super) fn advance(&mut self) -> Option<Mark> {
        self.lex(false).map(|(mark, _)| mark)
    }
}

impl Iterator for Tokens<'_> {
    type Item = Token;

    fn next(&mut self) -> Option<Token> {
        let (mark, bytes) = self.lex(true)?;
        Some(Token::at(mark, bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(input: &str) -> Vec<(String, usize)> {
        let source = Source::from_bytes(input.as_bytes());
        Tokens::new(&source)
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
        let source = Source::from_bytes(b"12 x 99999999999999999999999 -1 \xff");
        let t: Vec<Token> = Tokens::new(&source).collect();
        assert_eq!(t[0].number(), Some(12));
        assert_eq!(t[1].number(), None);
        assert_eq!(t[2].number(), Some(u64::MAX));
        assert_eq!(t[2].quoted(), "\"99999999999999999999999\"");
        assert_eq!(t[3].number(), None);
        assert_eq!(t[4].text(), "\u{fffd}");
        assert_eq!(t[4].quoted(), "\"\u{fffd}\"");
    }

    /// A token as the tests compare them: bytes, line, and whether it starts its line.
    type Seen = (Vec<u8>, usize, bool);

    /// The tokens of `input` as the tokeniser read them when it held the whole input as one slice
    /// (its code before it read from a [`Source`]): whether a token starts its line was found by
    /// looking back from it to the line break; and the cursor at the end, whose line the
    /// messages about the end of input name.
    fn whole_slice(input: &[u8]) -> (Vec<Seen>, usize) {
        let space = |b: u8| b.is_ascii_whitespace() || b == 0x0b;
        let (mut pos, mut line, mut seen) = (0, 1, Vec::new());
        loop {
            while let Some(&b) = input.get(pos) {
                if !space(b) {
                    break;
                }
                if b == b'\n' {
                    line += 1;
                }
                pos += 1;
            }
            if pos >= input.len() {
                return (seen, line);
            }
            let start = pos;
            while input.get(pos).is_some_and(|&b| !space(b)) {
                pos += 1;
            }
            let starts_line = input[..start]
                .iter()
                .rev()
                .take_while(|&&b| b != b'\n')
                .all(|&b| space(b));
            seen.push((input[start..pos].to_vec(), line, starts_line));
        }
    }

    /// What the cursor reads from `source`: every token, the line of the end, and the number of
    /// tokens (from the totals, as [`Tokens::remaining`] counts them).
    fn streamed(source: &Source) -> (Vec<Seen>, usize, usize) {
        let start = Tokens::new(source);
        let mut cursor = start;
        let mut seen = Vec::new();
        for token in cursor.by_ref() {
            seen.push((token.bytes().to_vec(), token.line, token.starts_line));
        }
        assert_eq!(cursor.line, start.at_end().line);
        assert_eq!(cursor.pos, start.at_end().pos);
        (seen, cursor.line, start.remaining())
    }

    /// Inputs that lay tokens across lines every way: blank lines, leading, trailing and odd
    /// whitespace, a long token, no final line break, bytes that are not UTF-8.
    const SAMPLES: [&[u8]; 6] = [
        b"1 2 3\n4 5 6\n7 8 x\n",
        b"  2  3\t4\r\n\n 1 5 x\x0b7 6 8\x0c\n\n",
        b"3\n12X453786\n12345678X\n564178x23 7568X4123",
        b"\n\n   \n99999999999999999999999999999999999999 1 2\n\xff\xfe junk\n  x",
        b"4 4 4 5 5 4 6 5\n2 4 3 3 3 6 4 6\n",
        b"",
    ];

    /// The tokeniser reading from a stream finds what it found in the whole input held as one
    /// slice, wherever the reads cut the input (at every byte boundary), and with memory limits
    /// so small that bytes are evicted, spilled to a file and read back all the time.
    #[test]
    fn tokens_are_the_same_wherever_the_reads_cut_the_input() {
        use crate::judge::source::Limits;
        use crate::judge::streaming_tests::{Pieces, TINY};
        let big = Limits::DEFAULT;
        for input in SAMPLES {
            let (tokens, end_line) = whole_slice(input);
            let expected = (tokens.clone(), end_line, tokens.len());
            assert_eq!(streamed(&Source::from_bytes(input)), expected);
            for cut in 0..=input.len() {
                for (step, limits) in [(usize::MAX, big), (1, TINY), (3, TINY)] {
                    let source = Source::from_pipe(Box::new(Pieces::new(input, cut, step)), limits);
                    assert_eq!(
                        streamed(&source),
                        expected,
                        "cut at {cut}, reads of {step}: {:?}",
                        String::from_utf8_lossy(input)
                    );
                }
            }
        }
    }
}
