//! The solvers the tests share: built once per test binary on first use and only read after
//! that, so no answer depends on which test ran first.

use std::sync::LazyLock;

use solver_core::eight::Tables;
use solver_core::fifteen::Fifteen;
use solver_core::tiles::fsm::PruningTables;

/// The 8-puzzle's tables, every tree built.
pub(crate) fn eight() -> &'static Tables {
    static TABLES: LazyLock<Tables> = LazyLock::new(Tables::build);
    &TABLES
}

/// A 15-puzzle solver; what a search needs is built on its first use.
pub(crate) fn fifteen() -> &'static Fifteen {
    static SOLVER: LazyLock<Fifteen> = LazyLock::new(Fifteen::new);
    &SOLVER
}

/// The move-pruning automata of the sliding searches, each built on its first use.
pub(crate) fn pruning() -> &'static PruningTables {
    static TABLES: LazyLock<PruningTables> = LazyLock::new(PruningTables::new);
    &TABLES
}
