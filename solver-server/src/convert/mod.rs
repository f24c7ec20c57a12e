//! Conversions between the wire messages and the server's domain types: the helpers both
//! contract versions share, whatever the puzzle. [`v1`] reads and writes `solver.v1`'s messages;
//! [`v2`] holds what every `solver.v2` request and response has in common. Each puzzle family
//! reads its own part of a request (see `crate::puzzles`).
//!
//! Requests are parsed once at the edge; every error is a [`Failure::Invalid`] naming the field
//! (relative to the puzzle's message: `start`, `max_moves`; the v2 edge puts it under its
//! parent: `sliding.start`) and the value and rule at fault.
//!
//! [`Failure::Invalid`]: crate::errors::Failure::Invalid

pub(crate) mod v1;
pub(crate) mod v2;

/// A count (moves, steps) as the wire's `uint32`, saturating: no answer comes near the limit.
pub(crate) fn count(len: usize) -> u32 {
    u32::try_from(len).unwrap_or(u32::MAX)
}
