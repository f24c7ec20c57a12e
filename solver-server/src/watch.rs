//! A value loaded from files and loaded again when they change: the TLS identity and the bearer
//! tokens, which Kubernetes rotates by swapping the files of a mounted Secret under the pod.
//!
//! [`Reloading`] keeps the current value and a fingerprint of its files (modification time and
//! size of each); [`watch`] looks every [`POLL`] and, when the fingerprint changed, loads again.
//! Users take [`Reloading::current`] for each new connection or call. A change that does not load
//! (a half-written file) is logged and the previous value stays.

use std::path::PathBuf;
use std::sync::{Arc, PoisonError, RwLock};
use std::time::{Duration, SystemTime};

use tokio_util::sync::CancellationToken;

/// How often the files are checked for changes.
pub(crate) const POLL: Duration = Duration::from_secs(2);

/// Modification time and size of each file (`None` for one that cannot be read).
type Fingerprint = Vec<Option<(SystemTime, u64)>>;

/// How a [`Reloading`] value is read from its files.
type Loader<T, E> = Box<dyn Fn() -> Result<T, E> + Send + Sync>;

/// A value read from files, read again when they change.
pub(crate) struct Reloading<T, E> {
    /// What the value is, for the logs (`"TLS certificate"`).
    what: &'static str,
    paths: Vec<PathBuf>,
    load: Loader<T, E>,
    current: RwLock<(Arc<T>, Fingerprint)>,
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
            Some((meta.modified().ok()?, meta.len()))
        })
        .collect()
}

impl<T, E: std::fmt::Display> Reloading<T, E> {
    /// Loads the value once: an error here is the caller's (the server does not start).
    pub(crate) fn new(
        what: &'static str,
        paths: Vec<PathBuf>,
        load: impl Fn() -> Result<T, E> + Send + Sync + 'static,
    ) -> Result<Arc<Self>, E> {
        let stamp = fingerprint(&paths);
        let value = Arc::new(load()?);
        Ok(Arc::new(Self {
            what,
            paths,
            load: Box::new(load),
            current: RwLock::new((value, stamp)),
        }))
    }

    /// The value in use.
    pub(crate) fn current(&self) -> Arc<T> {
        let current = self.current.read().unwrap_or_else(PoisonError::into_inner);
        Arc::clone(&current.0)
    }

    /// Loads again if the files changed since they were last read; whether a new value is in use.
    pub(crate) fn reload_if_changed(&self) -> bool {
        let stamp = fingerprint(&self.paths);
        if self
            .current
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .1
            == stamp
        {
            return false;
        }
        let loaded = (self.load)();
        let mut current = self.current.write().unwrap_or_else(PoisonError::into_inner);
        // The files as seen are remembered either way: a broken change is reported once, and
        // the next change is tried again.
        current.1 = stamp;
        match loaded {
            Ok(value) => {
                current.0 = Arc::new(value);
                tracing::info!(what = self.what, "reloaded from its changed files");
                true
            }
            Err(err) => {
                tracing::warn!(what = self.what, cause = %err, "files changed but do not load; keeping the previous one");
                false
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
