//! A value loaded from files and loaded again when they change: the TLS identity and the bearer
//! tokens, which Kubernetes rotates by swapping the files of a mounted Secret under the pod.
//!
//! [`Reloading`] keeps the current value and a fingerprint of its files (modification time, size
//! and whether each can be opened); [`watch`] looks every [`POLL`] and, when the fingerprint
//! changed, loads again. Users take [`Reloading::current`] for each new connection or call.
//!
//! What a change that does not load (a half-written, emptied, deleted or unreadable file) does is
//! the user's choice, because the safe answer differs:
//!
//! * [`Reloading::new`] keeps the previous value (logged once). Right for the TLS certificate: a
//!   half-written certificate must not stop the server from accepting connections with the one
//!   it has.
//! * [`Reloading::failing_closed`] replaces the value by one made from the error, and tries to
//!   load again at every poll until the files load. Right for the bearer tokens: keeping the old
//!   tokens when the file is emptied or deleted would keep revoked tokens valid (revocation would
//!   fail open), so the value becomes "no token is valid" instead.

use std::path::PathBuf;
use std::sync::{Arc, PoisonError, RwLock};
use std::time::{Duration, SystemTime};

use tokio_util::sync::CancellationToken;

/// How often the files are checked for changes.
pub(crate) const POLL: Duration = Duration::from_secs(2);

/// Modification time, size and readability of each file (`None` for one whose metadata cannot
/// be read). Readability is in it because `chmod` changes neither time nor size, and a file that
/// became unreadable must be noticed.
type Fingerprint = Vec<Option<(SystemTime, u64, bool)>>;

/// How a [`Reloading`] value is read from its files.
type Loader<T, E> = Box<dyn Fn() -> Result<T, E> + Send + Sync>;

/// What the value becomes when its files change but do not load.
enum OnBroken<T, E> {
    /// The previous value stays.
    KeepPrevious,
    /// The value becomes this function of the error until the files load again.
    Replace(Box<dyn Fn(&E) -> T + Send + Sync>),
}

/// The value in use and what it was loaded from.
struct Current<T> {
    value: Arc<T>,
    /// The files as last seen.
    stamp: Fingerprint,
    /// Whether `value` stands in for files that did not load ([`OnBroken::Replace`] only).
    broken: bool,
}

/// A value read from files, read again when they change.
pub(crate) struct Reloading<T, E> {
    /// What the value is, for the logs (`"TLS certificate"`).
    what: &'static str,
    paths: Vec<PathBuf>,
    load: Loader<T, E>,
    on_broken: OnBroken<T, E>,
    current: RwLock<Current<T>>,
}

impl<T, E> std::fmt::Debug for Reloading<T, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reloading")
            .field("what", &self.what)
            .field("paths", &self.paths)
            .finish_non_exhaustive()
    }
}

fn fingerprint(paths: &[PathBuf]) -> Fingerprint {
    paths
        .iter()
        .map(|path| {
            let meta = std::fs::metadata(path).ok()?;
            let readable = std::fs::File::open(path).is_ok();
            Some((meta.modified().ok()?, meta.len(), readable))
        })
        .collect()
}

impl<T, E: std::fmt::Display> Reloading<T, E> {
    /// Loads the value once: an error here is the caller's (the server does not start). A later
    /// change that does not load keeps the previous value.
    pub(crate) fn new(
        what: &'static str,
        paths: Vec<PathBuf>,
        load: impl Fn() -> Result<T, E> + Send + Sync + 'static,
    ) -> Result<Arc<Self>, E> {
        Self::with_policy(what, paths, load, OnBroken::KeepPrevious)
    }

    /// As [`new`](Self::new), but a later change that does not load replaces the value by
    /// `closed(error)` until the files load again (tried at every poll, changed or not, so a
    /// file that is back is used within one [`POLL`]).
    pub(crate) fn failing_closed(
        what: &'static str,
        paths: Vec<PathBuf>,
        load: impl Fn() -> Result<T, E> + Send + Sync + 'static,
        closed: impl Fn(&E) -> T + Send + Sync + 'static,
    ) -> Result<Arc<Self>, E> {
        Self::with_policy(what, paths, load, OnBroken::Replace(Box::new(closed)))
    }

    fn with_policy(
        what: &'static str,
        paths: Vec<PathBuf>,
        load: impl Fn() -> Result<T, E> + Send + Sync + 'static,
        on_broken: OnBroken<T, E>,
    ) -> Result<Arc<Self>, E> {
        let stamp = fingerprint(&paths);
        let value = Arc::new(load()?);
        Ok(Arc::new(Self {
            what,
            paths,
            load: Box::new(load),
            on_broken,
            current: RwLock::new(Current {
                value,
                stamp,
                broken: false,
            }),
        }))
    }

    /// The value in use.
    pub(crate) fn current(&self) -> Arc<T> {
        let current = self.current.read().unwrap_or_else(PoisonError::into_inner);
        Arc::clone(&current.value)
    }

    /// Loads again if the files changed since they were last read (or, failing closed, while
    /// they do not load); whether a new value is in use.
    pub(crate) fn reload_if_changed(&self) -> bool {
        let stamp = fingerprint(&self.paths);
        {
            let current = self.current.read().unwrap_or_else(PoisonError::into_inner);
            if current.stamp == stamp && !current.broken {
                return false;
            }
        }
        let loaded = (self.load)();
        let mut current = self.current.write().unwrap_or_else(PoisonError::into_inner);
        // The files as seen are remembered either way: a broken change is reported once, and
        // the next change is tried again.
        current.stamp = stamp;
        match (loaded, &self.on_broken) {
            (Ok(value), _) => {
                current.value = Arc::new(value);
                if std::mem::take(&mut current.broken) {
                    tracing::info!(what = self.what, "files load again; in use from now on");
                } else {
                    tracing::info!(what = self.what, "reloaded from its changed files");
                }
                true
            }
            (Err(err), OnBroken::KeepPrevious) => {
                tracing::warn!(what = self.what, cause = %err, "files changed but do not load; keeping the previous one");
                false
            }
            (Err(err), OnBroken::Replace(closed)) => {
                if current.broken {
                    // Still broken: said when it broke.
                    tracing::debug!(what = self.what, cause = %err, "files still do not load");
                    return false;
                }
                current.value = Arc::new(closed(&err));
                current.broken = true;
                tracing::error!(what = self.what, cause = %err, "files changed but do not load; the previous value is dropped (failing closed) until they load again");
                true
            }
        }
    }
}

/// Checks the files every [`POLL`] until `stop` fires.
pub(crate) async fn watch<T, E>(value: Arc<Reloading<T, E>>, stop: CancellationToken)
where
    T: Send + Sync + 'static,
    E: std::fmt::Display + 'static,
{
    let mut tick = tokio::time::interval(POLL);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            () = stop.cancelled() => return,
            _ = tick.tick() => {
                let value = Arc::clone(&value);
                // Reading files blocks: off the runtime's threads.
                let _ = tokio::task::spawn_blocking(move || value.reload_if_changed()).await;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The file's text, or an error when it is missing or empty (as the tokens file).
    fn read(path: &std::path::Path) -> Result<String, String> {
        match std::fs::read_to_string(path) {
            Ok(text) if !text.is_empty() => Ok(text),
            Ok(_) => Err("empty".to_owned()),
            Err(err) => Err(err.to_string()),
        }
    }

    #[test]
    fn a_change_that_does_not_load_keeps_the_value_or_fails_closed_as_chosen() {
        let dir = std::env::temp_dir().join(format!("solver-watch-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("value");
        std::fs::write(&path, "one").unwrap();
        let (a, b) = (path.clone(), path.clone());
        let kept = Reloading::new("kept", vec![path.clone()], move || read(&a)).unwrap();
        let closed = Reloading::failing_closed(
            "closed",
            vec![path.clone()],
            move || read(&b),
            |_| "closed".to_owned(),
        )
        .unwrap();

        std::fs::write(&path, "").unwrap();
        assert!(!kept.reload_if_changed());
        assert_eq!(*kept.current(), "one");
        assert!(closed.reload_if_changed());
        assert_eq!(*closed.current(), "closed");

        std::fs::remove_file(&path).unwrap();
        assert!(!kept.reload_if_changed());
        assert_eq!(*kept.current(), "one");
        assert!(!closed.reload_if_changed());
        assert_eq!(*closed.current(), "closed");

        std::fs::write(&path, "two").unwrap();
        assert!(kept.reload_if_changed());
        assert_eq!(*kept.current(), "two");
        assert!(closed.reload_if_changed());
        assert_eq!(*closed.current(), "two");
        let _ = std::fs::remove_dir_all(dir);
    }
}
