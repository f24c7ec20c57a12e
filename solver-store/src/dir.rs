//! The data directory: where pattern databases are kept between runs, so each is built once.
//!
//! Every set the 15-puzzle searches use (6-6-3, the sets of targets with the blank elsewhere, and
//! 7-8) is loaded from here when stored, and stored here when built. A file is written to a
//! temporary name and renamed into place, so readers (other processes too) see a whole file or
//! none, and two processes building the same set at once each leave a whole file. A file that
//! fails its checks (magic, version, set, sizes, checksum) is reported and replaced.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use solver_core::fifteen::{DatabaseSet, Fifteen, PatternDatabases, storage};
use solver_core::{Pace, Progress, Turn, Unpaced};

use crate::findings::{Finding, Findings};

/// The directory's name inside the platform's cache directory.
const APPLICATION: &str = "puzzle-solver";

/// Where stored databases live, or nowhere (`--no-data-dir`): a path, nothing more. What a
/// server finds there it reports through a [`Loader`]'s [`Findings`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataDir {
    path: Option<PathBuf>,
}

/// A data-directory operation that failed.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// The directory could not be created.
    #[error("cannot create {}: {source}", path.display())]
    Create {
        /// The directory.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file could not be opened or written.
    #[error("cannot {action} {}: {source}", path.display())]
    Io {
        /// `open` or `write`.
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// There is no directory to store in (`--no-data-dir`, or no home directory).
    #[error("no data directory: give one with --data-dir or SOLVER_DATA_DIR")]
    NoDirectory,
    /// A stored file failed its checks.
    #[error("{}: {source}", path.display())]
    Unusable {
        /// The file.
        path: PathBuf,
        /// The check that failed.
        source: storage::StorageError,
    },
}

/// What [`DataDir::build_missing`] is doing.
#[derive(Debug)]
pub enum BuildEvent {
    /// The set is stored and passes its checks: not built again.
    Kept(DatabaseSet),
    /// The stored file fails its checks: it is built again.
    Unusable(DatabaseSet, DataError),
    /// Building the set starts.
    Started(DatabaseSet),
    /// A layer of one of the set's databases is done.
    Layer(DatabaseSet, Progress),
    /// The set is built and stored here.
    Stored(DatabaseSet, PathBuf),
}

/// What one set looks like in the directory.
#[derive(Debug)]
pub enum Stored {
    /// A file of this many bytes (not read: [`DataDir::load`] checks it).
    Present(u64),
    /// No file.
    Missing,
    /// The file cannot be looked at.
    Unreadable(std::io::Error),
}

impl DataDir {
    /// The directory at `path`, or none.
    #[must_use]
    pub fn new(path: Option<PathBuf>) -> Self {
        Self { path }
    }

    /// The directory the data-directory flags choose: none with `--no-data-dir` (`none`), else
    /// `--data-dir` (`path`), else the platform's cache directory ([`default_path`](Self::default_path)).
    #[must_use]
    pub fn from_flags(path: Option<PathBuf>, none: bool) -> Self {
        if none {
            return Self::new(None);
        }
        Self::new(path.or_else(Self::default_path))
    }

    /// The platform's cache directory for this program: `$XDG_CACHE_HOME/puzzle-solver`, else
    /// `~/.cache/puzzle-solver` on Linux (`None` when there is no home directory).
    #[must_use]
    pub fn default_path() -> Option<PathBuf> {
        directories::BaseDirs::new().map(|dirs| dirs.cache_dir().join(APPLICATION))
    }

    /// The directory, if any.
    #[must_use]
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Where `set` is stored in the directory.
    #[must_use]
    pub fn file(&self, set: DatabaseSet) -> Option<PathBuf> {
        self.path
            .as_ref()
            .map(|dir| dir.join(storage::file_name(set)))
    }

    /// What the directory holds of each set, without reading the files.
    #[must_use]
    pub fn status(&self) -> Vec<(DatabaseSet, Option<PathBuf>, Stored)> {
        DatabaseSet::ALL
            .into_iter()
            .map(|set| {
                let path = self.file(set);
                let stored = match path.as_ref().map(std::fs::metadata) {
                    None => Stored::Missing,
                    Some(Ok(meta)) => Stored::Present(meta.len()),
                    Some(Err(e)) if e.kind() == std::io::ErrorKind::NotFound => Stored::Missing,
                    Some(Err(e)) => Stored::Unreadable(e),
                };
                (set, path, stored)
            })
            .collect()
    }

    /// Reads `set` from the directory: `Ok(None)` when it is not stored (or there is no
    /// directory).
    ///
    /// # Errors
    /// [`DataError`] when the file exists but cannot be read or fails its checks.
    pub fn load(&self, set: DatabaseSet) -> Result<Option<PatternDatabases>, DataError> {
        let Some(path) = self.file(set) else {
            return Ok(None);
        };
        let file = match File::open(&path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => {
                return Err(DataError::Io {
                    action: "open",
                    path,
                    source,
                });
            }
        };
        PatternDatabases::read_from(BufReader::with_capacity(1 << 20, file), set)
            .map(Some)
            .map_err(|source| DataError::Unusable { path, source })
    }

    /// Writes `databases` into the directory under their set's name, atomically: a temporary
    /// file of this process and call, synced, then renamed into place. `Ok(None)` when there is
    /// no directory.
    ///
    /// # Errors
    /// [`DataError`] when the directory cannot be created or the file written.
    pub fn store(&self, databases: &PatternDatabases) -> Result<Option<PathBuf>, DataError> {
        let (Some(dir), Some(path)) = (self.path(), self.file(databases.set())) else {
            return Ok(None);
        };
        std::fs::create_dir_all(dir).map_err(|source| DataError::Create {
            path: dir.to_owned(),
            source,
        })?;
        let name = storage::file_name(databases.set());
        if let Err(source) = write_atomically(dir, &name, |writer| databases.write_to(writer)) {
            return Err(DataError::Io {
                action: "write",
                path,
                source,
            });
        }
        Ok(Some(path))
    }

    /// Builds `set` on `threads` threads at full speed (minutes and about 1.5 GB of memory for
    /// 7-8), telling `progress` after each layer of each database, and stores it; returns the
    /// file's path. This is the `build-databases` commands' work.
    ///
    /// # Errors
    /// [`DataError`] when there is no directory or the file cannot be written.
    pub fn build_and_store(
        &self,
        set: DatabaseSet,
        threads: usize,
        progress: &(dyn Fn(Progress) + Sync),
    ) -> Result<PathBuf, DataError> {
        if self.path.is_none() {
            return Err(DataError::NoDirectory);
        }
        let databases = set.build(threads, &Reported(progress));
        self.store(&databases)?.ok_or(DataError::NoDirectory)
    }

    /// Builds and stores every set of `sets` the directory lacks, or holds in a file that
    /// fails its checks (every one with `force`), one after another on `threads` threads,
    /// telling `report` what happens. This is the `build-databases` commands' work.
    ///
    /// # Errors
    /// [`DataError`] when there is no directory or a file cannot be written.
    pub fn build_missing(
        &self,
        sets: &[DatabaseSet],
        force: bool,
        threads: usize,
        report: &(dyn Fn(BuildEvent) + Sync),
    ) -> Result<(), DataError> {
        if self.path.is_none() {
            return Err(DataError::NoDirectory);
        }
        for &set in sets {
            if !force {
                match self.load(set) {
                    Ok(Some(_)) => {
                        report(BuildEvent::Kept(set));
                        continue;
                    }
                    Ok(None) => {}
                    Err(cause) => report(BuildEvent::Unusable(set, cause)),
                }
            }
            report(BuildEvent::Started(set));
            let path =
                self.build_and_store(set, threads, &|p| report(BuildEvent::Layer(set, p)))?;
            report(BuildEvent::Stored(set, path));
        }
        Ok(())
    }
}

/// How a server loads the 15-puzzle's databases: from its data directory, or else built and
/// stored there, with what it finds reported to its [`Findings`] (a stored file that fails its
/// checks; a set stored again). Clones share everything, the locks below too.
#[derive(Debug, Clone)]
pub struct Loader {
    data: DataDir,
    findings: Findings,
    /// A lock per set: one caller at a time loads or builds it, and those that waited find it
    /// installed. A server's warm-up and its first cases may ask for the same set at once,
    /// which would otherwise read (or build) it twice, holding both copies for a while.
    sets: Arc<Mutex<HashMap<DatabaseSet, Arc<Mutex<()>>>>>,
}

impl Loader {
    /// Loads from and stores in `data`, reporting to `findings`.
    #[must_use]
    pub fn new(data: DataDir, findings: Findings) -> Self {
        Self {
            data,
            findings,
            sets: Arc::default(),
        }
    }

    /// The lock of `set` (see [`Loader::sets`](Self)).
    fn lock_of(&self, set: DatabaseSet) -> Arc<Mutex<()>> {
        let mut sets = self.sets.lock().unwrap_or_else(PoisonError::into_inner);
        Arc::clone(sets.entry(set).or_default())
    }

    /// The data directory.
    #[must_use]
    pub fn data(&self) -> &DataDir {
        &self.data
    }

    /// Gives `solver` the `set` if the directory holds a usable copy; says so in the log. A file
    /// that fails its checks is logged as a warning and reported ([`Finding::Unusable`]).
    /// Returns whether `solver` has `set` now.
    pub fn install_stored(&self, solver: &Fifteen, set: DatabaseSet) -> bool {
        let lock = self.lock_of(set);
        let _one = lock.lock().unwrap_or_else(PoisonError::into_inner);
        self.install_stored_locked(solver, set)
    }

    /// [`install_stored`](Self::install_stored), `set`'s lock held.
    fn install_stored_locked(&self, solver: &Fifteen, set: DatabaseSet) -> bool {
        if solver.has(set) {
            return true;
        }
        let started = Instant::now();
        match self.data.load(set) {
            Ok(Some(databases)) => {
                solver.install(databases);
                let path = self.data.file(set).unwrap_or_default();
                tracing::info!(%set, path = %path.display(), elapsed = ?started.elapsed(), "pattern databases loaded");
                true
            }
            Ok(None) => false,
            Err(cause) => {
                self.findings.report(Finding::Unusable(set));
                // The small sets are built again at once (`provide`); the 7-8 set only by a server
                // allowed to build it, or by the build commands.
                tracing::warn!(%cause, "stored pattern databases unusable: built again when needed (the 7-8 set by the client once it has answered, `solver-client databases build`, `solver-server build-databases`, or a server's background build)");
                false
            }
        }
    }

    /// Stores `databases` in the directory as [`DataDir::store`] does, and reports it
    /// ([`Finding::Stored`]) when there is a directory to store in.
    ///
    /// # Errors
    /// [`DataError`] when the directory cannot be created or the file written.
    pub fn store(&self, databases: &PatternDatabases) -> Result<Option<PathBuf>, DataError> {
        let stored = self.data.store(databases)?;
        if stored.is_some() {
            self.findings.report(Finding::Stored(databases.set()));
        }
        Ok(stored)
    }

    /// Makes sure `solver` has `set`: installed already, loaded from the directory, or else
    /// built on `threads` threads under `pace` and stored (and reported, as [`store`](Self::store)
    /// does). Whoever asks for the same set meanwhile waits for it rather than build it too.
    pub fn provide(&self, solver: &Fifteen, set: DatabaseSet, threads: usize, pace: &dyn Pace) {
        let lock = self.lock_of(set);
        let _one = lock.lock().unwrap_or_else(PoisonError::into_inner);
        if self.install_stored_locked(solver, set) {
            return;
        }
        let started = Instant::now();
        let databases = set.build(threads, pace);
        tracing::info!(%set, elapsed = ?started.elapsed(), "pattern databases built");
        match self.store(&databases) {
            Ok(Some(path)) => {
                tracing::info!(%set, path = %path.display(), "pattern databases stored");
            }
            Ok(None) => {}
            Err(cause) => {
                tracing::warn!(%cause, "pattern databases not stored; they are built again next run");
            }
        }
        solver.install(databases);
    }
}

/// Unpaced building that reports each finished layer.
struct Reported<'a>(&'a (dyn Fn(Progress) + Sync));

impl Pace for Reported<'_> {
    fn enter(&self) -> Box<dyn Turn + '_> {
        Box::new(Unpaced)
    }

    fn layer_done(&self, progress: Progress) {
        (self.0)(progress);
    }
}

/// Writes `dir/name` through a temporary file of this process and call, synced, then renamed
/// into place: readers (other processes too) see a whole file or none, and two processes
/// writing the same file each leave a whole one. Returns the file's path.
///
/// # Errors
/// When the directory cannot be created, or the file written, synced or renamed (the
/// temporary file is removed then).
pub fn write_atomically(
    dir: &Path,
    name: &str,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<PathBuf> {
    static CALLS: AtomicU64 = AtomicU64::new(0);
    std::fs::create_dir_all(dir)?;
    let path = dir.join(name);
    let temporary = dir.join(format!(
        ".{name}.{}-{}.tmp",
        std::process::id(),
        CALLS.fetch_add(1, Ordering::Relaxed)
    ));
    let written = File::create(&temporary).and_then(|file| {
        let mut writer = BufWriter::with_capacity(1 << 20, file);
        write(&mut writer)?;
        writer
            .into_inner()
            .map_err(std::io::IntoInnerError::into_error)?
            .sync_all()
    });
    if let Err(cause) = written.and_then(|()| std::fs::rename(&temporary, &path)) {
        let _ = std::fs::remove_file(&temporary);
        return Err(cause);
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_atomically_and_refuses_a_corrupt_file() {
        let dir = std::env::temp_dir().join(format!("solver-data-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let data = DataDir::new(Some(dir.clone()));
        let set = DatabaseSet::Home(14);
        assert!(data.load(set).unwrap().is_none());
        let built = set.build(2, &solver_core::Unpaced);
        let path = data.store(&built).unwrap().unwrap();
        assert_eq!(path, dir.join("pdb-663-blank14-v1.bin"));
        // Only the file itself is left: no temporary.
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, [std::ffi::OsString::from("pdb-663-blank14-v1.bin")]);
        assert_eq!(data.load(set).unwrap().unwrap().set(), set);
        let status = data.status();
        let (_, _, stored) = status.iter().find(|(s, _, _)| *s == set).unwrap();
        assert!(matches!(stored, Stored::Present(n) if *n > set.table_bytes()));

        let mut bytes = std::fs::read(&path).unwrap();
        let middle = bytes.len() / 2;
        bytes[middle] ^= 0x40;
        std::fs::write(&path, bytes).unwrap();
        let err = data.load(set).unwrap_err().to_string();
        assert!(
            err.contains("pdb-663-blank14-v1.bin") && err.contains("checksum"),
            "{err}"
        );

        // Installing the corrupt file fails and is reported to the findings, until the set is
        // stored again.
        let (findings, found) = Findings::channel();
        let loader = Loader::new(data.clone(), findings);
        let solver = Fifteen::new();
        assert!(found.unusable().is_empty());
        assert!(!loader.install_stored(&solver, set));
        assert_eq!(found.unusable(), [set]);
        assert_eq!(found.unusable(), [set], "the findings are kept once read");
        loader.store(&built).unwrap();
        assert!(found.unusable().is_empty());
        assert!(loader.install_stored(&solver, set));
        // A loader without a sink reports nowhere.
        std::fs::write(&path, b"SLIDEPDB").unwrap();
        assert!(
            !Loader::new(data.clone(), Findings::default()).install_stored(&Fifteen::new(), set)
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn build_missing_keeps_intact_sets_and_rebuilds_the_rest() {
        let dir = std::env::temp_dir().join(format!("solver-data-missing-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let data = DataDir::new(Some(dir.clone()));
        let set = DatabaseSet::Home(10);
        let events = |force| {
            let seen = std::sync::Mutex::new(Vec::new());
            data.build_missing(&[set], force, 2, &|event| {
                let name = match event {
                    BuildEvent::Kept(_) => "kept",
                    BuildEvent::Unusable(..) => "unusable",
                    BuildEvent::Started(_) => "started",
                    BuildEvent::Layer(..) => return,
                    BuildEvent::Stored(..) => "stored",
                };
                seen.lock().unwrap().push(name);
            })
            .unwrap();
            seen.into_inner().unwrap()
        };
        assert_eq!(events(false), ["started", "stored"]);
        assert_eq!(events(false), ["kept"]);
        let path = data.file(set).unwrap();
        std::fs::write(&path, b"SLIDEPDB").unwrap();
        assert_eq!(events(false), ["unusable", "started", "stored"]);
        assert!(data.load(set).unwrap().is_some());
        assert_eq!(events(true), ["started", "stored"]);
        assert!(matches!(
            DataDir::new(None).build_missing(&[set], false, 1, &|_| {}),
            Err(DataError::NoDirectory)
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Two callers wanting the same missing set at once (a warm-up and a case) get one build:
    /// the second waits and loads what the first stored.
    #[test]
    fn a_set_asked_for_at_once_is_built_once() {
        let dir = std::env::temp_dir().join(format!("solver-data-once-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let (sender, findings) = std::sync::mpsc::channel();
        let loader = Loader::new(DataDir::new(Some(dir.clone())), Findings(Some(sender)));
        let (solver, set, askers) = (Fifteen::new(), DatabaseSet::Home(13), 3);
        let barrier = std::sync::Barrier::new(askers);
        std::thread::scope(|scope| {
            for _ in 0..askers {
                let (loader, solver, barrier) = (&loader, &solver, &barrier);
                scope.spawn(move || {
                    barrier.wait();
                    loader.provide(solver, set, 1, &Unpaced);
                });
            }
        });
        assert!(solver.has(set));
        drop(loader);
        let found: Vec<Finding> = findings.iter().collect();
        assert_eq!(found, [Finding::Stored(set)], "one build, stored once");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn no_directory_stores_nothing() {
        let data = DataDir::new(None);
        assert!(data.load(DatabaseSet::Home(10)).unwrap().is_none());
        assert!(data.file(DatabaseSet::Home(10)).is_none());
    }
}
