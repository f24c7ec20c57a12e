//! The one place the server calls solver-core's solvers, so the rest of the crate sees a small,
//! stable surface: warm-up, and one blocking `solve_*` per kind.

use std::fs::File;
use std::io::{BufReader, BufWriter};
use std::path::{Path, PathBuf};

use solver_core::fifteen::SlicedSearch;
use solver_core::fifteen::{Partition, PatternDatabases, storage};
use solver_core::{
    Board3, Board4, Move, Pace, SearchStats, Stop, Stopped, eight, fifteen, solitaire,
};

use crate::config::Kind;

pub(crate) use solver_core::solitaire::{Position, Square, Step};

/// The default of `--max-solitaire-moves`. The search stops by itself once a frontier is empty
/// (the board has 635,376 positions), so the cap only keeps absurd limits out.
pub(crate) const SOLITAIRE_MOVES_LIMIT: u32 = 256;
/// The Solitaire move limit when a request gives 0.
pub(crate) const SOLITAIRE_DEFAULT_MOVES: u32 = solitaire::DEFAULT_MAX_MOVES;

/// Builds the tables `kind` needs (blocking: seconds for the 15-puzzle), the 15-puzzle's on
/// threads run under `pace`.
pub(crate) fn warm_up(kind: Kind, pace: &dyn Pace) {
    match kind {
        Kind::Eight => eight::warm_up(),
        Kind::Fifteen => fifteen::warm_up(pace),
        Kind::Solitaire => {}
    }
}

/// Builds the 15-puzzle databases for targets whose blank is not in a corner (blocking: a few
/// seconds on all cores, under `pace`).
pub(crate) fn warm_up_any_target(pace: &dyn Pace) {
    fifteen::warm_up_any_target(pace);
}

/// The heuristic 15-puzzle searches use now: `"pdb-663"` or, once stored databases are
/// installed, `"pdb-78"`.
pub(crate) fn fifteen_method() -> &'static str {
    fifteen::active_method()
}

/// Where the 7-8 databases live in a data directory.
pub(crate) fn databases_path(data_dir: &Path) -> PathBuf {
    data_dir.join(storage::file_name(Partition::P78))
}

/// Loads the 7-8 databases stored in `data_dir` and makes every later 15-puzzle search use them
/// (blocking: a fraction of a second). `Ok(None)` when there are none.
pub(crate) fn load_stored(data_dir: &Path) -> Result<Option<PathBuf>, String> {
    let path = databases_path(data_dir);
    let file = match File::open(&path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot open {}: {e}", path.display())),
    };
    let databases = PatternDatabases::read_from(BufReader::new(file), Partition::P78)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    fifteen::install(databases);
    Ok(Some(path))
}

/// Builds the 7-8 databases on `threads` threads run under `pace`, stores them in `data_dir`
/// and makes every later 15-puzzle search use them (blocking: minutes).
pub(crate) fn build_stored(
    data_dir: &Path,
    threads: usize,
    pace: &dyn Pace,
) -> Result<PathBuf, String> {
    let databases = PatternDatabases::build_paced(Partition::P78, threads, pace);
    let path = store(&databases, data_dir)?;
    fifteen::install(databases);
    Ok(path)
}

/// Writes `databases` into `data_dir` under their conventional name, atomically: a temporary
/// file renamed into place, so a reader never sees half a file.
pub(crate) fn store(databases: &PatternDatabases, data_dir: &Path) -> Result<PathBuf, String> {
    std::fs::create_dir_all(data_dir)
        .map_err(|e| format!("cannot create {}: {e}", data_dir.display()))?;
    let path = data_dir.join(storage::file_name(databases.partition()));
    let temporary = data_dir.join(format!(
        ".{}.{}.tmp",
        storage::file_name(databases.partition()),
        std::process::id()
    ));
    let written = File::create(&temporary).and_then(|file| {
        let mut writer = BufWriter::new(file);
        databases.write_to(&mut writer)?;
        writer
            .into_inner()
            .map_err(std::io::IntoInnerError::into_error)?
            .sync_all()
    });
    if let Err(e) = written.and_then(|()| std::fs::rename(&temporary, &path)) {
        let _ = std::fs::remove_file(&temporary);
        return Err(format!("cannot write {}: {e}", path.display()));
    }
    Ok(path)
}

/// Builds the 7-8 databases on every core and stores them in `data_dir` (the `build-databases`
/// command).
pub(crate) fn build_and_store(data_dir: &Path) -> Result<PathBuf, String> {
    store(&PatternDatabases::build(Partition::P78), data_dir)
}

/// The optimal, lexicographically smallest moves from `start` to `target`, or `None` when the
/// parities differ. Microseconds once the table exists.
pub(crate) fn solve_eight(start: &Board3, target: &Board3) -> Option<Vec<Move>> {
    eight::solve(start, target)
}

/// Whether a 15-puzzle search towards `target` can start without building tables first.
pub(crate) fn fifteen_ready_for(target: &Board4) -> bool {
    fifteen::is_ready_for(target)
}

/// Builds what a 15-puzzle search towards `target` needs (blocking: seconds when databases
/// are missing), on threads run under `pace`.
pub(crate) fn prepare_fifteen(target: &Board4, pace: &dyn Pace) {
    fifteen::warm_up_for(target, pace);
}

/// A 15-puzzle search from `start` to `target` that runs in time slices, `None` when unsolvable.
/// Call it once [`fifteen_ready_for`] the target: it would build what is missing otherwise.
pub(crate) fn start_fifteen(start: &Board4, target: &Board4) -> Option<SlicedSearch<'static>> {
    fifteen::sliced(start, target, &solver_core::Unpaced)
}

/// A shortest way from `start` to `end` within `max_moves` and the work done, `Ok(None)` when
/// there is none.
pub(crate) fn solve_solitaire(
    start: &Position,
    end: &Position,
    max_moves: u32,
    stop: &Stop,
) -> Result<Option<(Vec<Step>, SearchStats)>, Stopped> {
    solitaire::solve(start, end, max_moves, stop).map(|found| found.map(|s| (s.steps, s.stats)))
}
