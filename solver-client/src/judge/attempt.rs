//! One plain reading of a case at a cursor: a case's worth of tokens and what the format made of
//! them, or where the input ran out.
//!
//! This is all a parser needs while the input is well formed; when it is not, the search for
//! where the next case starts (`recovery`) reads cases at many positions this same way.

use super::tokens::{Mark, Token, Tokens};

/// What reading one case at a position found (see [`Tokens::attempt`]).
#[derive(Debug)]
pub(crate) enum Read<T, E> {
    /// A case's worth of tokens, from `first` to `last`, and what the format made of them.
    Case {
        /// Its first token.
        first: Mark,
        /// Its last token.
        last: Mark,
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
    pub(crate) read: Read<T, E>,
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
}

impl<'a> Tokens<'a> {
    /// Reads `n` tokens (at most 16) from the cursor as one case and checks them with `check`:
    /// the plain reading that [`Tokens::read_case`] builds on.
    pub(crate) fn attempt<T, E>(
        mut self,
        n: usize,
        check: impl Fn(&[Token]) -> Result<T, E>,
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
                first: group[0].mark(),
                last: group[n - 1].mark(),
                result: check(&group[..n]),
            },
            after: self,
        }
    }
}
