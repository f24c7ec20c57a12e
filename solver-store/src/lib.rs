//! The stored tables: one owner for the data directory that servers and the client share.
//!
//! Pattern databases and complete distance tables take seconds to hours to build, so each is
//! built once and kept in a **data directory** ([`DataDir`]): `--data-dir` (`SOLVER_DATA_DIR`),
//! else the platform's cache directory, or none with `--no-data-dir` ([`flags`]). This crate
//! knows the files and nothing of serving:
//!
//! - [`dir`]: the 15-puzzle's database sets: file names, loading with the files' integrity
//!   checks, atomic writes ([`write_atomically`]), the `build-databases` commands' builds and
//!   their progress ([`BuildEvent`]), and [`Loader`], through which a server loads, builds and
//!   stores what its 15-puzzle searches need;
//! - [`shapes`]: the tables of the other sliding shapes (complete tables and pattern databases),
//!   loaded or built and stored as a server does on a shape's first case ([`build_shape`]);
//! - [`findings`]: what a server reports of the files it found unusable, to a sink given to it
//!   explicitly ([`Findings`]): the client's embedded server tells the client, which rebuilds
//!   a corrupt 7-8 set after answering;
//! - [`flags`]: what the server's and the client's flags share (the data directory's variables,
//!   the tables' memory budget, durations such as `30s`);
//! - [`cli`]: the `completions` and `man` commands both programs have, generated from each
//!   program's clap definition.
//!
//! ```no_run
//! use solver_store::{DataDir, STRONG};
//!
//! let data = DataDir::from_flags(None, false);
//! let stored = data.load(STRONG).expect("a usable file, or none");
//! println!("7-8 stored: {}", stored.is_some());
//! ```

pub mod cli;
pub mod dir;
pub mod findings;
pub mod flags;
pub mod shapes;

use solver_core::fifteen::{DatabaseSet, Partition};

pub use dir::{BuildEvent, DataDir, DataError, Loader, Stored, write_atomically};
pub use findings::{Finding, Findings, Found};
pub use shapes::{ShapeError, build_shape};

/// The 15-puzzle's strongest set (7-8): minutes and about 1.5 GB to build, so built ahead of
/// time (`build-databases`, `solver-client databases build`) or in a server's background.
pub const STRONG: DatabaseSet = DatabaseSet::Standard(Partition::P78);

/// The 15-puzzle's standard set (6-6-3): built in seconds, what serves without [`STRONG`].
pub const STANDARD: DatabaseSet = DatabaseSet::Standard(Partition::P663);
