//! What the family keeps between cases.

use std::sync::Arc;
use std::sync::atomic::AtomicUsize;

/// What the family keeps between cases: how many long searches hold memory of their own (at
/// most [`MAX_LONG`](super::MAX_LONG)).
#[derive(Debug, Default)]
pub(crate) struct State {
    pub(super) long: Arc<AtomicUsize>,
}
