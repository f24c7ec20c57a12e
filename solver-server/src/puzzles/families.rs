//! What every family keeps between cases, one value per server.

use std::sync::Arc;

use super::sliding::tables::Tables;
use super::solitaire::state::State;
use solver_core::tiles::solver::Squares;

use crate::config::Config;

/// Each family's tables and state, shared by every service. One line per family.
#[derive(Debug)]
pub(crate) struct Families {
    /// The sliding family's tables.
    pub(crate) sliding: Tables,
    /// The Solitaire family's state.
    pub(crate) solitaire: State,
}

impl Families {
    /// The families of a server configured by `config`, with the 8- and 15-puzzle tables of
    /// `squares` (which callers may share between servers).
    pub(crate) fn new(config: &Config, squares: Arc<Squares>) -> Self {
        Self {
            sliding: Tables::new(config, squares),
            solitaire: State::default(),
        }
    }
}
