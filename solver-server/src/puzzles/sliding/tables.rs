//! The one owner of the family's tables, per server.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};

use solver_core::tiles::scramble::EightLayers;
use solver_store::Loader;

use super::engine::Engine;
use super::grids::Grids;
use super::progress::BuildProgress;
use crate::config::Config;

/// Every table the family's searches share read-only, one owner per server: the 8- and
/// 15-puzzle's ([`Engine`], which callers may share between servers), the other shapes'
/// ([`Grids`]), and the 3×3 boards by distance for `Scramble`.
#[derive(Debug)]
pub(crate) struct Tables {
    /// The 8- and 15-puzzle solvers and their tables.
    pub(crate) engine: Arc<Engine>,
    /// The tables of the other shapes (complete tables, pattern databases).
    pub(crate) grids: Arc<Grids>,
    /// Where the 15-puzzle's pattern databases are loaded from and stored, and to whom what is
    /// found there is reported.
    pub(crate) data: Loader,
    /// Set while a 15-puzzle case's missing tables are being built (one build at a time).
    pub(crate) fifteen_building: Arc<AtomicBool>,
    /// How far that build has come.
    pub(crate) fifteen_progress: Arc<BuildProgress>,
    /// Every 3×3 board by its distance from the goal, for `Scramble`; built on first use.
    pub(crate) layers: OnceLock<EightLayers>,
}

impl Tables {
    /// The tables of a server configured by `config`, with the 8- and 15-puzzle's of `engine`.
    pub(crate) fn new(config: &Config, engine: Arc<Engine>) -> Self {
        let data = config.tables.data();
        Self {
            engine,
            grids: Arc::new(Grids::new(
                data.clone(),
                config.scheduling.worker_count(),
                config.tables.memory << 20,
                config.tables.request_build_memory.saturating_mul(1 << 20),
            )),
            data: Loader::new(data, config.tables.findings.clone()),
            fifteen_building: Arc::default(),
            fifteen_progress: Arc::default(),
            layers: OnceLock::new(),
        }
    }
}
