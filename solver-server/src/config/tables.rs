//! The puzzles' tables: which are built before SERVING, where they are stored, and the memory
//! they may take.

use std::path::PathBuf;

use clap::Args;
use solver_store::flags;
use solver_store::{DataDir, Findings};

use super::kinds::WarmUp;

/// The tables: warm-up, the data directory and its background builds, and their memory.
#[derive(Debug, Clone, Args)]
pub struct Tables {
    /// Tables to get ready before reporting SERVING, comma-separated (`eight`, `fifteen`;
    /// `sliding`: the stored pattern databases of the other shapes for their standard goal, such
    /// as the 24-puzzle's, about a second each; the other kinds need none), or `none`: the first case
    /// of each kind then builds or loads its tables (the 15-puzzle's take seconds).
    #[arg(long, env = "SOLVER_WARM_UP", default_value = "eight,fifteen,sliding")]
    pub warm_up: WarmUp,

    /// Directory of stored pattern databases; default: the platform's cache directory
    /// (`$XDG_CACHE_HOME/puzzle-solver`, else `~/.cache/puzzle-solver`). Every set of 15-puzzle
    /// databases is loaded from it when stored there and stored there when built, so each is
    /// built once; with the 7-8 set stored (about 0.3 s to load, 577 MB of memory) every
    /// 15-puzzle case is answered with it.
    #[arg(long, env = flags::DATA_DIR_ENV, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,

    /// Keep no pattern databases between runs: build what is needed in memory each time.
    #[arg(long, env = flags::NO_DATA_DIR_ENV, conflicts_with = "data_dir")]
    pub no_data_dir: bool,

    /// Not a flag: where the server reports what it finds in its data directory (a stored
    /// 15-puzzle file that fails its checks, a set stored), by default nowhere. A program that
    /// embeds the server passes one end of [`Findings::channel`] and learns what it found.
    #[arg(skip)]
    pub findings: Findings,

    /// When the data directory has no 7-8 databases yet: build them in the background (minutes
    /// of one core, about 1.5 GB of memory) and store them there (`true`), or do without
    /// (`false`). `solver-server build-databases` builds them ahead of time instead.
    #[arg(long, env = "SOLVER_BUILD_DATABASES", default_value_t = true, action = clap::ArgAction::Set)]
    pub build_databases: bool,

    /// With `fifteen` warmed up: right after SERVING, build in the background the 15-puzzle
    /// databases for targets whose blank is not in a corner (about 9 s of CPU, about 30 MB), so that
    /// the first such case does not wait for them (`false`: that case builds its own set).
    #[arg(long, env = "SOLVER_WARM_UP_TARGETS", default_value_t = true, action = clap::ArgAction::Set)]
    pub warm_up_targets: bool,

    /// Most memory, in MiB, that the tables of the other sliding shapes may take, builds
    /// included (a 3×4 or 2×6 table: 60 MB, 180 MB while built; the 24-puzzle's 6-6-6-6
    /// databases: 977 MB, about 3.1 GB while built; a smaller budget gets smaller patterns).
    /// Capped at half the container's memory limit; 0 builds none (Manhattan distance alone).
    #[arg(
        id = "table_memory",
        long = "table-memory",
        env = "SOLVER_TABLE_MEMORY",
        default_value_t = flags::TABLE_MEMORY_MIB,
        value_name = "MIB"
    )]
    pub memory: u64,

    /// Most memory, in MiB, that a table build started by a request may peak at. Stored tables
    /// within `--table-memory` are always loaded; a larger build (the 24-puzzle's 6-6-6-6
    /// databases: about 3.1 GB) is an operator's (`solver-client databases build --size 5x5`
    /// into the data directory), and until it is stored requests get the strongest set whose
    /// build fits this.
    #[arg(
        long,
        env = "SOLVER_REQUEST_BUILD_MEMORY",
        default_value_t = 1024,
        value_name = "MIB"
    )]
    pub request_build_memory: u64,

    /// Longest duplicate move strings the optimal searches of the shapes beyond 4×4 skip, at
    /// most (2 to 16): each shape's own length (14 on 5×5, 12 on smaller shapes, fewer on larger)
    /// is lowered to this. On 5×5, 14 moves save about a tenth of a 24-puzzle's nodes and time
    /// against 12, and their automaton (4 MB) takes about 2 s of one core to build against 0.3 s;
    /// it is built once, before SERVING when the 5×5 databases are loaded then, else
    /// beside the first 5×5 case (which searches without it).
    #[arg(
        long,
        env = "SOLVER_MOVE_PRUNING",
        default_value_t = 16,
        value_parser = clap::value_parser!(u8).range(2..=16),
        value_name = "MOVES"
    )]
    pub move_pruning: u8,
}

impl Tables {
    /// The data directory these settings choose: `data_dir`, else the platform's cache
    /// directory, or none with `no_data_dir`.
    #[must_use]
    pub fn data(&self) -> DataDir {
        DataDir::from_flags(self.data_dir.clone(), self.no_data_dir)
    }
}
